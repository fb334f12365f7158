"""The games spire keeps: one registry, `GAMES`, and what the core reads of a game.

Each game is a package under journal/games/ of one shape (journal/games/interface.py says
what each of its modules provides). The rules' layer asks `game(name)` here for a game's
rules file; the layers above ask `journal.games.packages.package_of(name)` for the module
of the layer they need (`.odds()`, `.catalog()`...), imported then and not before.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from journal.errors import BadInput, NotFound, invalid
from journal.paths import shipped

GAMES: dict[str, str] = {
    "hildegard": "journal.games.hildegard",
    "spires-end": "journal.games.spires_end",
    "volume2": "journal.games.volume2",
}
"""Every game spire ships, by the name a campaign records, and its package (as python-chess
lists its variants in `VARIANTS`). `register` adds another (a test's, a fan variant's)."""


@dataclass(frozen=True)
class Resource:
    """A counter the table keeps with cubes or discs: gold, feats, bees..."""

    name: str
    section: str
    limit: int | None = None
    start: int = 0
    quote: str = ""


@dataclass(frozen=True)
class ItemLimit:
    """At most `per_character` items of one kind per character (spires-end combat items)."""

    kind: str
    per_character: int
    quote: str


class StoryCards(NamedTuple):
    """How many story cards the rulebook's Components print: none is numbered past
    `highest` (the cards are in numerical order). `called`: the rulebook's name for them.
    (A named tuple: every command loads its game, and a dataclass costs it half a
    millisecond to build; issue 33.)"""

    highest: int
    called: str
    section: str


@dataclass(frozen=True)
class StartingCharacter:
    name: str
    hp: int | None = None
    ap: int | None = None


@dataclass(frozen=True)
class Game:
    """What the core journal needs to know of one game's rules."""

    name: str
    title: str
    players: tuple[int, int]
    players_section: str
    """The rulebook's section that says how many may play."""
    chapters: tuple[int, int | None] | None
    """The first and last chapter; a last of None: the rulebook does not say how many."""
    reveal_removes_between: bool
    discard_removes_from_game: bool
    retrieve: bool
    deck_section: str
    resources: dict[str, Resource]
    item_kinds: tuple[str, ...]
    default_item_kind: str
    items_section: str
    item_limits: dict[str, ItemLimit] = field(default_factory=dict)
    raising_kinds: tuple[str, ...] = ()
    """The kinds of item that may raise an ally's HP or AP limit while held."""
    event_sets: tuple[str, ...] = ()
    story_cards: StoryCards | None = None
    """The count of story cards; None: the rulebook prints none, and no number is past it."""
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def characters_at_start(self, players: int) -> tuple[StartingCharacter, ...]:
        chars = self.raw.get("characters", {})
        if "start" in chars:
            return tuple(StartingCharacter(**c) for c in chars["start"])
        names = chars.get("two_players" if players >= 2 else "one_player", [])
        return tuple(StartingCharacter(name) for name in names)


def _load(name: str, path: Path | None = None) -> Game:
    import tomllib  # here: a command that loads no game's rules (status) does without it

    path = path or shipped("rules") / f"{name}.toml"
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    game, deck, items = raw["game"], raw["deck"], raw["items"]
    resources = {
        key: Resource(name=key, **value) for key, value in raw.get("resources", {}).items()
    }
    limits = {
        kind: ItemLimit(kind=kind, **value)
        for kind, value in items.get("limits", {}).items()
    }
    chapters = game.get("chapters")
    counted = deck.get("story_cards")
    return Game(
        name=game["name"],
        title=game["title"],
        players=(game["players"][0], game["players"][1]),
        players_section=game["players_section"],
        chapters=(chapters[0], chapters[1] if len(chapters) > 1 else None) if chapters else None,
        reveal_removes_between=deck["reveal_removes_between"],
        discard_removes_from_game=deck["discard_removes_from_game"],
        retrieve=deck["retrieve"],
        deck_section=deck["section"],
        resources=resources,
        item_kinds=tuple(items["kinds"]),
        default_item_kind=items["default_kind"],
        items_section=items["section"],
        item_limits=limits,
        raising_kinds=tuple(items.get("raising", ())),
        event_sets=tuple(deck.get("event_sets", ())),
        story_cards=StoryCards(**counted) if counted else None,
        raw=raw,
    )


@cache
def load(name: str, path: Path | None = None) -> Game:
    """A game's rules file (from rules/ unless `path` names another), read once: the
    game's package and its modules each take their `GAME` from here, so none imports the
    package it belongs to."""
    return _load(name, path)


def register(name: str, package: str) -> None:
    """Add the game `name`, kept by the package `package` (importable, of the shape
    journal/games/interface.py describes)."""
    GAMES[name] = package
    game.cache_clear()


def names() -> tuple[str, ...]:
    """The names of the games spire keeps, in the order it lists them."""
    return tuple(GAMES)


def package(name: str) -> str:
    """The package that keeps the game `name`; an unknown name is bad input."""
    if name not in GAMES:
        raise NotFound(f"unknown game {name!r}; choose one of: {', '.join(GAMES)}")
    return GAMES[name]


@cache
def game(name: str) -> Game:
    """The rules file of the game called `name` (its package's `GAME`); an unknown name is
    bad input. (Nothing of the game registers itself: the core learns its events from its
    events module's `EVENTS` and finds how each folds and is said in its evolve and
    describe modules, journal/core/events.py.)"""
    found: Game = importlib.import_module(package(name)).GAME
    return found


T = TypeVar("T")


def valid(make: Callable[[], T], what: str) -> T:
    """`make()`, a card (or a part of one) the players typed; what pydantic or the model
    refuses in it is bad input, said in one line."""
    from pydantic import ValidationError

    try:
        return make()
    except ValidationError as e:
        raise BadInput(f"cannot read {what!r}: {invalid(e.errors()[0])}") from None
    except ValueError as e:
        raise BadInput(f"cannot read {what!r}: {e}") from None
