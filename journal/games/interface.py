"""What a game provides: one Protocol per module of a game's package.

Every game is a package under journal/games/ with the same module names (`GamePackage` in
journal/games/__init__.py imports each when a layer first asks for it). A module satisfies
its Protocol here as a module (mypy checks a module against a Protocol): each game's
`__init__.py` says so under TYPE_CHECKING, so a module that lacks a function, or has it
with another signature, fails `mypy --strict`, and tests/test_house.py checks that every
registered game has every module.

The domain layers (`events` to `recheck`) are pure: no I/O, clock or randomness, and they
import nothing above the domain. `report` and `demo` are the application's; `commands` the
command line's (typer), imported only when that game's campaign runs a command.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from journal.decide import Decision
    from journal.events import Recorded
    from journal.games import Game
    from journal.report.model import Found
    from journal.report.parts import GameParts
    from journal.state import State


class GameState(Protocol):
    """A game's own state, kept in `State.game_state`: data only (its view renders it)."""

    def moved_on(self) -> GameState:
        """The state once the players reveal another card: a finished encounter leaves."""
        ...

    @property
    def finished(self) -> Sequence[str]:
        """The lines of the encounters that ended, latest last."""
        ...

    @property
    def in_encounter(self) -> bool:
        """Whether an encounter (target, face-off, fight) is under way."""
        ...


# -- the package: journal/games/<game>/__init__.py ---------------------------------------

class Package(Protocol):
    """The game's package itself."""

    GAME: Game
    """Its rules file (rules/<name>.toml), read by `journal.games.load`."""


# -- events.py ----------------------------------------------------------------------------

class Events(Protocol):
    """The game's event types (frozen pydantic models, subclasses of events.Payload)."""


# -- evolve.py ----------------------------------------------------------------------------

class Evolve(Protocol):
    """How each of the game's events changes the state (`@state.applies` handlers)."""


# -- describe.py --------------------------------------------------------------------------

class Describe(Protocol):
    """Each of the game's events told as a sentence (handlers of journal.describe)."""


# -- view.py ------------------------------------------------------------------------------

class View(Protocol):
    """The game's state as lines and JSON."""


# -- cards.py -----------------------------------------------------------------------------

class Cards(Protocol):
    """The game's cards: read back from the catalog, and shown."""


# -- odds.py ------------------------------------------------------------------------------

class Odds(Protocol):
    """Exact chances from the position the journal holds."""

    def odds(self, state: State) -> dict[str, Any]:
        """What the game weighs where the players stand now, as plain data (`spire odds
        --json`), with `"game"` and `"kind"` keys; Refused when there is nothing to weigh."""
        ...


# -- insight.py (render) ------------------------------------------------------------------

class Insight(Protocol):
    """The game's odds told to people (Rich and plain lines, on the terminal)."""

    def show_odds(self, found: dict[str, Any], advise: bool) -> None:
        """`found`, as the game's `odds` gave it, shown; with `advise`, its advice too."""
        ...


# -- rules.py -----------------------------------------------------------------------------

class Rules(Protocol):
    """The game's rules: each command's `decide`, and whose turn it is."""

    def whose_turn(self, state: State) -> str | None:
        """Who acts next in the encounter under way (an ally, a player, an enemy); None
        between encounters."""
        ...


# -- recheck.py ---------------------------------------------------------------------------

Earlier: TypeAlias = "Callable[[], Iterable[Recorded]]"
"""The events before one, newest first, read only as far back as they are asked for."""

Redecide: TypeAlias = "Callable[[State, Any, int | None, Earlier], Decision]"
"""(the state before, the event's payload, the player who acted, the events before) ->
the decision its command makes now."""

Rolled: TypeAlias = "Callable[[Any], Sequence[str]]"
"""The faces an event's payload shows of one kind of die."""


@dataclass(frozen=True)
class DieKind:
    """A kind of die: the faces printed on it, and the events that roll it."""

    name: str
    printed: tuple[str, ...]
    rolls: dict[str, Rolled]


class Recheck(Protocol):
    """What the audit asks of the game's events: the command each records, its dice."""

    RECHECKS: dict[str, Redecide]
    """Each of the game's event types and the command that records it, given what the
    event holds (journal/recheck.py keeps the core events' rows); the tests fail while an
    event type has no row."""

    DIE_KINDS: tuple[DieKind, ...]
    """The game's dice, each with the events that roll it (counted by the audit and the
    report)."""


# -- report.py (application) --------------------------------------------------------------

class Report(Protocol):
    """The game's sections of the play report."""

    DEATHS: bool
    """Whether the game's characters can die (the report keeps a section of deaths)."""

    def parts(self, rules: Game, found: Found) -> GameParts:
        """One report's sections of the game, fresh: its encounters (each handed to
        `found` once over), its dice read and told, its world's own sections."""
        ...


# -- demo.py (application) ----------------------------------------------------------------

class Demo(Protocol):
    """A short stretch of the game, played into a campaign by `spire demo`."""


# -- commands.py (command line) -----------------------------------------------------------

class Commands(Protocol):
    """The game's own commands, a typer app the root command dispatches to."""

    app: Any
