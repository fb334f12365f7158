"""The branch as it stands, one event at a time: each event that counts, with the state
before and after it.

An undone event is left out, as the projection leaves it out, so the report tells the
story the table kept, not the slips it corrected (those are listed apart, as undos). The
undone positions are known before the branch is read (`Store.retracted`), so the steps are
made as the events stream and none is kept: a section takes each step as it passes and
keeps only what it reports.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import NamedTuple

from journal import events as ev
from journal.state import State, evolve, retracted_positions


class Step(NamedTuple):
    """One event and the states around it (a named tuple: a report makes one per event,
    and a tuple is the cheapest to make)."""

    recorded: ev.Recorded
    before: State
    after: State

    @property
    def position(self) -> int:
        return self.recorded.position


def steps(history: Iterable[ev.Recorded], gone: frozenset[int]) -> Iterator[Step]:
    """Every event not in `gone` (undos themselves aside), in order, as it comes."""
    state = State()
    for recorded in history:
        if recorded.position in gone or isinstance(recorded.event, ev.Retracted):
            continue
        after = evolve(state, recorded)
        yield Step(recorded, state, after)
        state = after


def fold(history: Sequence[ev.Recorded]) -> list[Step]:
    """Every step of a branch in hand (a test's, a short one), as a list."""
    return list(steps(history, retracted_positions(history)))
