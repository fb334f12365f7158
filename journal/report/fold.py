"""The branch as it stands, one event at a time: each event that counts, with the state
before and after it.

An undone event is left out, as the projection leaves it out, so the report tells the
story the table kept, not the slips it corrected (those are listed apart, as undos). The
undone positions are known before the branch is read (`store.log.retracted`), so the states
are folded as the events stream and none is kept: a section takes each event with the
states around it as it passes (`Taker`) and keeps only what it reports.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypeVar

from journal.core import events as ev
from journal.core.state import State, evolve, retracted_positions

if TYPE_CHECKING:
    from journal.report.model import Ended, Found


class Step(NamedTuple):
    """One event and the states around it (a named tuple: a report makes one per event,
    and a tuple is the cheapest to make)."""

    recorded: ev.Entry
    before: State
    after: State

    @property
    def position(self) -> int:
        return self.recorded.position


def steps(history: Iterable[ev.Entry], gone: frozenset[int]) -> Iterator[Step]:
    """Every event not in `gone` (undos themselves aside), in order, as it comes."""
    state = State()
    for recorded in history:
        if recorded.position in gone or isinstance(recorded.event, ev.Retracted):
            continue
        after = evolve(state, recorded)
        yield Step(recorded, state, after)
        state = after


def fold(history: Sequence[ev.Entry]) -> list[Step]:
    """Every step of a branch in hand (a test's, a short one), as a list."""
    return list(steps(history, retracted_positions(history)))


Taker = Callable[[ev.Entry, State, State], None]
"""How a section takes an event of the kind it reads, with the states before and after it
(a step's three parts, handed as they are: a report takes one an event, and makes no
`Step` to hold them)."""


class Reads:
    """A section that reads some kinds of event (`wants`), each with its one `take`;
    `taker` is asked once per kind of event (a section that reads each kind its own way
    says so in its own `taker`, and spares a test of the event's class at every step)."""

    def wants(self, kind: type) -> bool:
        raise NotImplementedError

    def take(self, recorded: ev.Entry, before: State, after: State) -> None:
        raise NotImplementedError

    def taker(self, kind: type) -> Taker | None:
        return self.take if self.wants(kind) else None


class Track(Protocol):
    """An encounter followed step by step: where and when it began and ended, and its
    latest state (None until it has one)."""

    started: int
    started_at: datetime
    ended_at: datetime | None
    latest: Any


T = TypeVar("T", bound=Track)


class Encounters(Reads, Generic[T]):
    """A game's encounters of the branch, handed to `found` in the order they began, each
    once it is over; only the one under way is followed. Each game says how it follows one
    (`take`) and what its end reports (`ended`)."""

    def __init__(self, found: Found) -> None:
        self.found = found
        self.track: T | None = None

    def wants(self, kind: type) -> bool:
        """Whether an event of `kind` may change the encounter (each game may say fewer)."""
        return True

    def take(self, recorded: ev.Entry, before: State, after: State) -> None:
        raise NotImplementedError

    def ended(self, track: T) -> Ended:
        raise NotImplementedError

    def opened(self) -> int | None:
        """Where the encounter under way (still to be handed on) began."""
        return None if self.track is None else self.track.started

    def close(self) -> None:
        track, self.track = self.track, None
        if track is not None and track.latest is not None:
            self.found(self.ended(track), track.started_at, track.ended_at)
