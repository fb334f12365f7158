"""What a game brings to the play report: its encounters followed step by step, its dice
counted, its world's own sections (Volume 2's trades and waterfalls), and its dice told.

Each game's report.py is a `GameReport`: it makes one `GameParts` for each report; the
report's build reads every event once and hands each section those it takes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from journal.core.state import State
    from journal.games import Game
    from journal.games.packages import GamePackage
    from journal.report.fold import Taker
    from journal.report.model import Dice, Found


class Typed(Protocol):
    """A section that reads only some kinds of event: how it takes an event of `kind`
    (with the states around it), or None if it does not read it (`fold.Reads`)."""

    def taker(self, kind: type) -> Taker | None: ...


class Follows(Typed, Protocol):
    """A game's encounters followed step by step (those steps it takes); `close` hands
    on the one under way."""

    def close(self) -> None: ...

    def opened(self) -> int | None: ...


class World(Typed, Protocol):
    """A game's own sections of the report, beyond its encounters and dice."""

    def sections(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class GameParts:
    """One report's sections of the game: fresh for each report (they keep what they read)."""

    encounters: Follows
    dice: Typed
    """Reads the dice the events rolled."""
    dice_told: Callable[[State], Dice]
    """The report's dice section, from what `dice` read and the state at the end."""
    world: World | None = None


class GameReport(Protocol):
    """What the report asks of a game: its report.py (journal/games/interface.py says what
    the lower layers ask)."""

    DEATHS: bool
    """Whether the game's characters can die (the report keeps a section of deaths)."""

    def parts(self, rules: Game, found: Found) -> GameParts:
        """One report's sections of the game, fresh: its encounters (each handed to
        `found` once over), its dice read and told, its world's own sections."""
        ...


def report_of(game: GamePackage) -> GameReport:
    """The game's part of the play report."""
    return cast("GameReport", game.module("report"))
