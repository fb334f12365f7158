"""What a game provides: one Protocol per module of a game's package that the core asks.

Every game is a package under journal/games/ with the same module names
(journal/games/packages.py imports each when a layer first asks for it). A module
satisfies its Protocol as a module (mypy checks a module against a Protocol): each game's
`shape.py` says so under TYPE_CHECKING, so a module that lacks a function, or has it with
another signature, fails `mypy --strict`.

Here: what the rules', the audit's and the insight's layers ask (`events`, `evolve`,
`describe`, `odds`, `insight`, `rules`, `recheck`, `state`, `catalog`, `index`). What an
upper layer asks it says beside what it asks with, so that nothing here imports upward:
the report's sections (`GameReport`, journal/report/parts.py), the demo (`Demo`,
journal/service/demo.py) and the verbs
(`Commands`, journal/cli/complete.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from journal.core.decide import Decision
    from journal.core.describe import Saying
    from journal.core.events import ByEvent, Payload, Recorded
    from journal.core.state import GameState, Handler, State
    from journal.games import Game


# -- the package itself: __init__.py ----------------------------------------------------

class Package(Protocol):
    """The game's package: its rules file, read (journal/games/__init__.py's `load`)."""

    GAME: Game


# -- events.py, evolve.py, describe.py: nothing registers itself ----------------------

class Events(Protocol):
    """The game's events: the facts its journal records beside the core's."""

    EVENTS: tuple[type[Payload], ...]
    """Each of them, as the core learns them by their type tags (each defined in this
    module: the core finds a game's evolve and describe by the package of its events)."""


class Evolve(Protocol):
    """How each of the game's events changes the state (the fold reads it; pure)."""

    HANDLERS: ByEvent[Handler]


class Describe(Protocol):
    """Each of the game's events as the sentence a player would say at the table."""

    SAYINGS: ByEvent[Saying]


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

    def start(self, game: Game, players: int, quick_start: bool,
              carried: str | None) -> Decision:
        """A new campaign's first events (`spire new`); `carried`: the text of the file an
        episode's end wrote, for a game whose campaign may begin where another ended."""
        ...

    def pull_named(self, state: State, deck: str, name: str) -> Decision:
        """A card of an unnumbered deck pulled by its name (`spire pull --deck DECK NAME`);
        a game without such decks refuses it."""
        ...

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
    event holds (journal/audit/recheck.py keeps the core events' rows); the tests fail while an
    event type has no row."""

    DIE_KINDS: tuple[DieKind, ...]
    """The game's dice, each with the events that roll it (counted by the audit and the
    report)."""


# -- view.py ------------------------------------------------------------------------------

class View(Protocol):
    """What the table reads of the game's part of the state (`State.game_state`, of the
    class its state module's `STATE` names), as plain text and JSON (journal/core/shown.py)."""

    def state_lines(self, game: Any) -> list[str]:
        """The lines under the status: the encounter under way, what waits..."""
        ...

    def quiet_lines(self, game: Any) -> list[str]:
        """The lines without what the game's latest event did (after another command)."""
        ...

    def state_changes(self, before: Any, after: Any) -> list[str]:
        """What the latest event changed, for `spire replay`; `before` may be None (the
        campaign's start) and is `after` itself when the event left it alone."""
        ...

    def state_json(self, game: Any) -> dict[str, Any]:
        """The game's keys of `spire status --json`."""
        ...


# -- state.py -----------------------------------------------------------------------------

class StateModule(Protocol):
    """The game's own part of the campaign state."""

    @property
    def STATE(self) -> type[GameState]:  # (a property: a module's constant, read only)
        """The class of `State.game_state` in a campaign of the game (snapshots name it);
        mypy holds it to the core's `GameState`."""


# -- catalog.py ---------------------------------------------------------------------------

class Catalog(Protocol):
    """The game's cards: the examples its rulebook prints, and the cards the players enter
    (the journal keeps them by game, as JSON)."""

    def rulebook_cards(self) -> dict[str, Any]:
        """The rulebook's example cards by name (none for a game whose examples are not
        cards)."""
        ...

    def card_from(self, name: str, data: dict[str, Any]) -> Any:
        """A card the journal's catalog stored (its fields, the name aside)."""
        ...

    def card_lines(self, card: Any) -> list[str]:
        """The card's printed numbers, a line each, as the table reads them."""
        ...

    def story_cards(self, card: Any) -> tuple[int, ...]:
        """The story cards the card names (its own number, the cards it sends the players
        to), which `card add` holds to the game's count of story cards."""
        ...


# -- index.py (cli) -------------------------------------------------------

class Index(Protocol):
    """The game's commands listed without importing them (generated from `commands`)."""

    PANEL: str
    COMMANDS: dict[str, str | None]
    """Each command by path ("roll", "card add"), with the first paragraph of its help;
    None for a hidden one."""
