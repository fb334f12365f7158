"""A branch folded one event at a time, as the table had it at each step.

An undo takes back an event that was folded already. `project` answers that by folding the
whole branch again without it, which made a replay or an audit of a campaign with an undo
every twenty events cost the square of its length. Here each step keeps the state before
each of the latest events that count, so an undo steps back to the state before the event
it takes back and folds again only the few events after it: each event is folded once,
and once more for each undo that reaches over it.

An undo that reaches further back than the steps kept (a player who undoes two hundred
times in a row, or a journal edited by hand) raises `TooDeep`; the caller folds that
prefix again from the start (`project`), which is always right.
"""

from __future__ import annotations

from collections import deque

from journal.core import events as ev
from journal.core.state import State, evolve

KEPT = 256
"""How many of the latest events that count keep the state before them: an undo streak
this long is stepped back without a refold."""


class TooDeep(Exception):
    """An undo reached back past the steps kept."""


class Stepwise:
    """The state after each event of a branch, undos stepped back rather than refolded.

    `state` is the state after position `start` (a snapshot, or nothing before the first
    event); events are added in position order."""

    def __init__(self, state: State | None = None, start: int = 0, kept: int = KEPT) -> None:
        self.state = state or State()
        self.gone: set[int] = set()
        self._undos: list[tuple[int, tuple[int, ...]]] = []
        """Every undo folded (even one undone itself): its position and what it took back."""
        self._steps: deque[tuple[ev.Recorded, State]] = deque()
        """Each of the latest events that count, with the state before it."""
        self._floor = start
        """No position at or below this can be stepped back to."""
        self._kept = kept

    def add(self, recorded: ev.Recorded) -> State:
        """The state after `recorded`, as `project` of the branch up to it would give."""
        event, steps = recorded.event, self._steps
        if event.__class__ is ev.Retracted:
            self._undos.append((recorded.position, event.positions))
            self._take_back(event.positions)
        steps.append((recorded, self.state))
        if len(steps) > self._kept:
            self._floor = steps.popleft()[0].position
        self.state = state = evolve(self.state, recorded)
        return state

    def settled(self, back: int) -> tuple[int, State] | None:
        """A position at least `back` before the latest event and the state after it, as
        the table had it there (no later undo reaches behind it): where a snapshot can be
        kept. None if the steps kept do not reach so far."""
        if not self._steps:
            return None
        latest = self._steps[-1][0].position
        undos = iter(reversed(self._undos))
        undo = next(undos, None)
        reached = latest + 1  # the earliest position undone by an undo after `at`
        for recorded, before in reversed(self._steps):
            at = recorded.position - 1  # `before` is the state after it
            while undo is not None and undo[0] > at:
                reached = min(reached, *undo[1])
                undo = next(undos, None)
            if latest - at >= back and reached > at:
                return at, before
        return None

    def restart(self, state: State, at: int) -> None:
        """Go on from `state`, the state after position `at` folded afresh (after `TooDeep`)."""
        self.state, self._floor = state, at
        self._steps.clear()

    def _take_back(self, positions: tuple[int, ...]) -> None:
        fresh = {p for p in positions if p not in self.gone}
        self.gone.update(positions)
        if not fresh:
            return
        if min(fresh) <= self._floor:
            raise TooDeep(min(fresh))
        steps, earliest, first = self._steps, min(fresh), None
        for i in range(len(steps) - 1, -1, -1):  # from the latest: an undo takes back one
            position = steps[i][0].position      # of the last few events
            if position < earliest:
                break
            if position in fresh:
                first = i
        if first is None:  # positions no event of this branch holds: nothing changes
            return
        later = [r for r, _ in list(steps)[first + 1:] if r.position not in self.gone]
        state = steps[first][1]
        while len(steps) > first:
            steps.pop()
        for recorded in later:
            steps.append((recorded, state))
            state = evolve(state, recorded)
        self.state = state
