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

from journal import events as ev
from journal.state import State, evolve

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
        self._steps: deque[tuple[ev.Recorded, State]] = deque()
        """Each of the latest events that count, with the state before it."""
        self._floor = start
        """No position at or below this can be stepped back to."""
        self._kept = kept

    def add(self, recorded: ev.Recorded) -> State:
        """The state after `recorded`, as `project` of the branch up to it would give."""
        event = recorded.event
        if isinstance(event, ev.Retracted):
            self._take_back(event.positions)
        self._steps.append((recorded, self.state))
        if len(self._steps) > self._kept:
            self._floor = self._steps.popleft()[0].position
        self.state = evolve(self.state, recorded)
        return self.state

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
        steps = self._steps
        first = next((i for i, (r, _) in enumerate(steps) if r.position in fresh), None)
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
