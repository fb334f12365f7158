"""Undo and redo, the core's commands that take back the latest action and record it again
(asked as `decide.undo` and `decide.redo`). Pure, as every decide is: the branch's events
come in newest first, read only as far back as the answer needs.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable

from journal.core import events as ev
from journal.core.decision import Decision
from journal.errors import Refused, RuleViolation


def undo(latest_first: Iterable[ev.Recorded]) -> Decision:
    """Retract the latest action not yet retracted (the campaign's start cannot be).

    The branch's events come newest first and are read only as far back as the action
    found: an event is undone only by a retraction after it, so walking back from the head
    meets every retraction of an event before the event itself."""
    gone: set[int] = set()
    for recorded in latest_first:
        event = recorded.event
        if isinstance(event, ev.Retracted):
            gone.update(event.positions)
        elif not isinstance(event, ev.CampaignStarted) and recorded.position not in gone:
            return Decision((ev.Retracted(positions=(recorded.position,)),))
    raise Refused("nothing to undo: every action since the campaign began is undone")


def redo(
    latest_first: Iterable[ev.Recorded],
    undone_before: Callable[[int], bool] = lambda position: True,
) -> Decision:
    """Record again, as it was recorded (its dice and all), the action the latest undo took
    back, while nothing but undos and redos came after that undo. The undone event stays
    undone in the log; the redone one is a new event, as an undo is a new retraction.

    The branch's events come newest first and are read back only as far as the answer is
    certain: a stretch of them is replayed, and its answer stands once a new action in it
    cleared what was undone before it, or nothing before it was ever undone
    (`undone_before(position)`: whether an undo before that position took anything back)."""
    source, newest, size = iter(latest_first), list[ev.Recorded](), 8
    undone: list[ev.Recorded] = []
    while True:
        newest += itertools.islice(source, size - len(newest))
        whole = len(newest) < size  # the branch from its first event
        window = newest[::-1]
        if not window:
            break
        found = _undone_in(window, whole, undone_before)
        if found is not None:
            undone = found
            break
        size *= 4
    if not undone:
        raise Refused("nothing to redo: no undo since the latest action")
    again = undone[-1]
    violations = _forced_again(again.position, again.override) if again.override else []
    return Decision((again.event,), tuple(violations))


def _forced_again(position: int, override: str) -> list[RuleViolation]:
    """The rules an undone event was forced over, refusing its redo as they refused the
    event: its override, "reason (rulebook: section)" for each rule joined by "; ", parted
    again."""
    cited = CITED.findall(override)
    if not cited:
        return [RuleViolation(f"#{position} was forced: {override}", "recorded with --force")]
    return [RuleViolation(f"#{position} was forced: {reason}", section)
            for reason, section in cited]


CITED = re.compile(r"(.+?) \(rulebook: ([^)]*)\)(?:; |$)")
"""A rule's reason and section in an override, as `RuleViolation.citation` wrote them."""


def _undone_in(window: list[ev.Recorded], whole: bool,
               undone_before: Callable[[int], bool]) -> list[ev.Recorded] | None:
    """What the undos in `window` (a stretch of the branch, oldest first) took back and no
    redo brought back yet, the latest last; None when what came before the stretch could
    change the answer (an undo reaching before it; or nothing left, where something undone
    before the stretch may still wait to be redone).

    Replayed from nothing, the stretch's list is always the top of the whole branch's (a
    push, a pop and a new action do the same to both), so its latest is the answer when it
    holds one; an empty one is the answer once a new action cleared both, or when
    nothing before the stretch was ever undone (the `whole` branch, or no undo before it:
    asked only then, as the usual redo, just after its undo, finds its answer in the
    first few events read back)."""
    first = window[0].position
    undone: list[ev.Recorded] = []
    certain = False
    for recorded in window:
        event = recorded.event
        if isinstance(event, ev.Retracted):
            if min(event.positions) < first:
                return None
            undone += [window[p - first] for p in event.positions]
        elif undone and event == undone[-1].event:  # a redo (or the same action again)
            undone.pop()
        elif undone:
            undone.clear()  # a new action: what was undone before it is not redone
            certain = True
    if undone or certain or whole or not undone_before(first):
        return undone
    return None
