"""Time travel, read side: replay a branch step by step and compare two branches.

Pure: given events, it folds them and says what each one changed. Spoiler-safe by
construction: a branch's events hold only what its players revealed.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from journal import PROJECTION_VERSION as PROJECTION_VERSION
from journal.core import events as ev
from journal.core import shown
from journal.core.chain import canonical_json
from journal.core.describe import card_ranges, describe
from journal.core.state import State, added, project, retracted_positions
from journal.core.stepwise import Stepwise, TooDeep


def digest(state: State) -> str:
    """A short fingerprint of a state, to compare two folds."""
    return hashlib.sha256(canonical_json(shown.state_json(state)).encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Step:
    """One event of a replay, the state after it, and what it changed."""

    recorded: ev.Recorded
    after: State
    changes: tuple[str, ...]
    retracted: bool


def replay(
    history: Iterable[ev.Recorded], start: int = 1, stop: int | None = None,
    gone: frozenset[int] | None = None,
    again: Callable[[], Iterable[ev.Recorded]] | None = None,
) -> Iterator[Step]:
    """Each event from position `start` to `stop`, with the state as the table had it
    after that event and what it changed. An event undone later still changed the state
    when it was recorded; the retraction that undid it shows the state going back (each
    event folded once: an undo steps back, see `journal.core.stepwise`).

    `history` may stream (a long campaign is never all in memory) given `gone`, the
    positions undone anywhere in it, and `again`, the branch from its start once more
    (for an undo that reaches back past the steps kept); a list needs neither."""
    if gone is None or again is None:
        listed = list(history)
        history, gone = listed, retracted_positions(listed)

        def again() -> Iterable[ev.Recorded]:
            return listed

    steps = Stepwise()
    for recorded in history:
        if stop is not None and recorded.position > stop:
            break
        before = steps.state
        try:
            state = steps.add(recorded)
        except TooDeep:  # an undo past the steps kept: that stretch folded afresh
            state = project(up_to(recorded.position, again()))
            steps.restart(state, recorded.position)
        if recorded.position >= start:
            yield Step(recorded, state, tuple(changes(before, state)), recorded.position in gone)


def up_to(position: int, history: Iterable[ev.Recorded]) -> Iterator[ev.Recorded]:
    """`history` as far as `position`, reading none past it."""
    return itertools.takewhile(lambda r: r.position <= position, history)


def changes(before: State, after: State) -> Iterator[str]:
    """What a player would notice: the card, chapter, resources, items, characters."""
    if before.card != after.card and after.card is not None:
        yield f"card {before.card if before.card is not None else '-'} -> {after.card}"
    if before.chapter != after.chapter:
        yield f"chapter {before.chapter or '-'} -> {after.chapter}"
    for name in sorted(set(before.resources) | set(after.resources)):
        old, new = before.resources.get(name, 0), after.resources.get(name, 0)
        if old != new and before.game:
            yield f"{name} {old} -> {new}"
    yield from _listed("item", [i.name for i in before.items], [i.name for i in after.items])
    yield from _listed("character", [c.name for c in before.characters],
                       [c.name for c in after.characters])
    gone = sorted(after.removed - before.removed)
    if gone:
        yield f"out of the game: {card_ranges(gone)}"
    yield from _encounter(before, after)


def _listed(what: str, old: list[str], new: list[str]) -> Iterator[str]:
    for name in new:
        if new.count(name) > old.count(name):
            yield f"+{what} {name}"
    for name in old:
        if old.count(name) > new.count(name):
            yield f"-{what} {name}"


def _encounter(before: State, after: State) -> Iterator[str]:
    """The encounter's headline when it moved (bullseyes, sets, the meter), and each
    encounter that ended."""
    yield from shown.changes(before, after)  # the game says, number by number


def step_json(step: Step) -> dict[str, Any]:
    r = step.recorded
    return {
        "seq": r.position, "type": r.type, "says": describe(r.event),
        "payload": ev.payload_data(r.event), "recorded_at": r.recorded_at.isoformat(),
        "retracted": step.retracted, "override": r.override, "player": r.player,
        "changes": list(step.changes), "state_digest": digest(step.after),
    }


# -- diff --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Side:
    """One branch's path after the shared history, and where it stands."""

    branch: str
    path: tuple[str, ...]
    state: State


@dataclass(frozen=True)
class Diff:
    shared: int
    """The last position both branches share."""
    left: Side
    right: Side

    def differences(self) -> list[str]:
        a, b = self.left.state, self.right.state
        out = []
        for name in sorted(set(a.resources) | set(b.resources)):
            x, y = a.resources.get(name, 0), b.resources.get(name, 0)
            if x != y:
                out.append(f"{name}: {x} on {self.left.branch}, {y} on {self.right.branch}")
        out += _only("items", [i.name for i in a.items], [i.name for i in b.items], self)
        out += _only("characters", [_who(c) for c in a.characters],
                     [_who(c) for c in b.characters], self)
        if a.card != b.card:
            out.append(f"card: {a.card} on {self.left.branch}, {b.card} on {self.right.branch}")
        if a.chapter != b.chapter:
            out.append(f"chapter: {a.chapter} on {self.left.branch}, {b.chapter} on "
                       f"{self.right.branch}")
        return out


def _who(c: Any) -> str:
    stats = "" if c.hp_max is None else f" HP {c.hp}/{c.hp_max}"
    stats += "" if c.ap_max is None else f" AP {c.ap}/{c.ap_max}"
    return f"{c.name}{stats}"


def _only(label: str, left: list[str], right: list[str], d: Diff) -> list[str]:
    out = []
    only_left = [x for x in left if left.count(x) > right.count(x)]
    only_right = [x for x in right if right.count(x) > left.count(x)]
    if only_left:
        out.append(f"{label} only on {d.left.branch}: {', '.join(dict.fromkeys(only_left))}")
    if only_right:
        out.append(f"{label} only on {d.right.branch}: {', '.join(dict.fromkeys(only_right))}")
    return out


def shared_until(a: list[ev.Recorded], b: list[ev.Recorded]) -> int:
    """The last position at which the two branches hold the same event (same hash)."""
    shared = 0
    for x, y in zip(a, b, strict=False):
        if x.hash != y.hash:
            break
        shared = x.position
    return shared


def path(history: Iterable[ev.Recorded], after: int) -> tuple[str, ...]:
    """A branch's path past `after`: the cards revealed and how encounters ended."""
    history = list(history)
    out: list[str] = []
    ended: tuple[str, ...] = ()
    for step in replay(history):
        playing = step.after.game_state
        finished = playing.finished if playing is not None else ()
        new, ended = added(ended, finished), finished
        if step.recorded.position <= after or step.retracted \
                or isinstance(step.recorded.event, ev.Retracted):
            continue
        if step.recorded.type in ("card-revealed", "card-pulled", "chapter-started",
                                  "target-started", "face-off-started"):
            out.append(describe(step.recorded.event))
        if new is not None:  # an encounter ended (the game keeps the latest few such lines)
            out.append(new)
    return tuple(out)


def diff(left: tuple[str, list[ev.Recorded]], right: tuple[str, list[ev.Recorded]]) -> Diff:
    shared = shared_until(left[1], right[1])
    sides = [Side(name, path(history, shared), project(history)) for name, history in (left, right)]
    return Diff(shared, sides[0], sides[1])
