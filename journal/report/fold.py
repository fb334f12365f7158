"""The branch as it stands: each event that counts, with the state before and after it.

An undone event is left out, as the projection leaves it out, so the report tells the
story the table kept, not the slips it corrected (those are listed apart, as undos).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from journal import events as ev
from journal.state import State, evolve, retracted_positions


@dataclass(frozen=True, slots=True)
class Step:
    recorded: ev.Recorded
    before: State
    after: State

    @property
    def position(self) -> int:
        return self.recorded.position


def fold(history: Sequence[ev.Recorded]) -> list[Step]:
    """Every event that was not undone (undos themselves aside), in order."""
    gone = retracted_positions(history)
    state, steps = State(), []
    for recorded in history:
        if recorded.position in gone or isinstance(recorded.event, ev.Retracted):
            continue
        after = evolve(state, recorded)
        steps.append(Step(recorded, state, after))
        state = after
    return steps
