"""Coin Tally's part of the campaign state: the tosses, and the card of the last one."""

from __future__ import annotations

from dataclasses import dataclass

from journal.core.state import State
from journal.errors import RuleViolation


@dataclass(frozen=True)
class Tally:
    heads: int = 0
    tails: int = 0
    tossed_on: int | None = None
    """The card the coin was last tossed on."""
    finished: tuple[str, ...] = ()
    """Coin Tally has no encounters: nothing ever ends."""

    @property
    def in_encounter(self) -> bool:
        return False

    @property
    def ended_by(self) -> RuleViolation | None:
        return None

    def limited(self, character: str, hp: int | None, ap: int | None) -> Tally:
        """Coin Tally keeps no cubes."""
        return self

    def moved_on(self) -> Tally:
        return self


STATE = Tally


def tally(state: State) -> Tally:
    found = state.game_state
    return found if isinstance(found, Tally) else Tally()
