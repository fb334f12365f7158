"""A branch's history to browse (the table's screen: `spire serve`'s history page): the
table as it stood after any of the branch's events, as `spire replay` shows each step (an
event undone later still changed the table when it was recorded; the undo that took it
back shows it going back), the events around it, and the campaign's branches.

A walk keeps the state after every `STRIDE`th event it passes, per branch and head, so
going to another event folds at most `STRIDE` events after the first walk over a branch:
the arrow keys through a long campaign stay quick.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import TYPE_CHECKING

from journal.errors import BadInput

if TYPE_CHECKING:
    from journal.core import events as ev
    from journal.core.state import State
    from journal.service.reading import Reading
    from journal.store import Branch

STRIDE = 500
"""Every how many events a walk keeps the state it passes."""

AROUND = 8
"""How many events before and after the one shown are listed beside it."""


@dataclass(frozen=True)
class Moment:
    """The branch after one of its events: the event, the state the table had then, what
    the event changed, whether an undo took it back later, and the events around it."""

    branch: Branch
    recorded: ev.Recorded
    state: State
    changes: tuple[str, ...]
    undone: frozenset[int]
    """The positions of the branch's events an undo took back (the events listed among)."""
    around: tuple[ev.Recorded, ...]

    @property
    def position(self) -> int:
        return self.recorded.position


class Walks:
    """Moments of a journal's branches, the states passed kept (`STRIDE`) while the
    branch's head stays where it was."""

    def __init__(self, read: Reading, stride: int = STRIDE) -> None:
        self.read, self.stride = read, stride
        self._kept: dict[int, tuple[str, dict[int, State]]] = {}
        """By branch id: the head hash the states were kept at, and the states by position."""

    def moment(self, branch: str | None, position: int | None) -> Moment:
        """The branch (the current one if None) after its event at `position` (its head's
        if None). A position it does not hold is bad input."""
        _, found = self.read.at(branch)
        if found.head < 1:
            raise BadInput(f"branch {found.name!r} holds no event yet")
        at = found.head if position is None else position
        if not 1 <= at <= found.head:
            raise BadInput(f"branch {found.name!r} holds events #1 to #{found.head}, "
                           f"not #{at}")
        recorded, before, after = self._walk(found, at)
        from journal.core.timeline import changes

        log = self.read.store.log
        around = tuple(recorded for recorded in log.read(found, after=max(0, at - AROUND - 1))
                       if recorded.position <= at + AROUND)
        return Moment(found, recorded, after, tuple(changes(before, after)),
                      self.read.retracted(found), around)

    def _walk(self, branch: Branch, position: int) -> tuple[ev.Recorded, State, State]:
        """The event at `position`, the state before it and after it: folded on from the
        latest state kept before it."""
        from journal.core.state import project
        from journal.core.stepwise import Stepwise, TooDeep
        from journal.core.timeline import up_to

        kept = self._states(branch)
        marks = sorted(kept)
        start = marks[bisect.bisect_left(marks, position) - 1] if marks and \
            marks[0] < position else 0
        steps = Stepwise(kept.get(start), start)
        log = self.read.store.log
        before: State = steps.state
        found: ev.Recorded | None = None
        for recorded in log.events(branch, after=start):
            if recorded.position > position:
                break
            before = steps.state
            try:
                state = steps.add(recorded)
            except TooDeep:  # an undo past the steps kept: that stretch folded afresh
                state = project(up_to(recorded.position, log.events(branch)))
                steps.restart(state, recorded.position)
            if recorded.position % self.stride == 0:
                kept[recorded.position] = state
            found = recorded
        if found is None:  # a gap in the branch's positions: none to show there
            raise BadInput(f"branch {branch.name!r} holds no event #{position}")
        return found, before, steps.state

    def _states(self, branch: Branch) -> dict[int, State]:
        """The states kept for the branch at its head now (none if it moved)."""
        hashed, kept = self._kept.get(branch.id, ("", {}))
        if hashed != branch.head_hash:
            kept = {}
            self._kept[branch.id] = (branch.head_hash, kept)
        return kept
