"""The games spire keeps: one registry, `GAMES`, and what the core reads of a game.

Each game is a package under journal/games/ of one shape (journal/games/interface.py says
what each of its modules provides). The core asks `package_of(name)` for the campaign's
game and reads the module of the layer it needs (`.odds()`, `.report()`...), imported
then and not before.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar, cast

from journal.errors import BadInput, NotFound
from journal.paths import shipped

if TYPE_CHECKING:
    from journal.games import interface

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
    return Game(
        name=game["name"],
        title=game["title"],
        players=(game["players"][0], game["players"][1]),
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
    package_of.cache_clear()


def names() -> tuple[str, ...]:
    """The names of the games spire keeps, in the order it lists them."""
    return tuple(GAMES)


@cache
def package_of(name: str) -> GamePackage:
    """The game called `name`; an unknown name is bad input."""
    if name not in GAMES:
        raise NotFound(f"unknown game {name!r}; choose one of: {', '.join(GAMES)}")
    return GamePackage(name, GAMES[name])


def game(name: str) -> Game:
    """The rules file of the game called `name` (its package's `GAME`), its events and how
    they fold known from then on; an unknown name is bad input."""
    return package_of(name).rules


@dataclass(frozen=True)
class GamePackage:
    """One game's package: each layer of it imported when it is first asked for, so a
    command loads only what it uses (`spire status` no game's commands, `--help` none).

    The modules' names are the same in every game; journal/games/interface.py says what
    each one provides, and mypy holds each game to it."""

    name: str
    package: str

    def module(self, layer: str) -> ModuleType:
        """The game's module of `layer` (`"odds"`, `"view"`, `"commands"`...)."""
        return importlib.import_module(f"{self.package}.{layer}")

    def has(self, layer: str) -> bool:
        """Whether the game has a module of `layer` (a game may have no `demo`), found
        without importing it."""
        import importlib.util

        return importlib.util.find_spec(f"{self.package}.{layer}") is not None

    @property
    def rules(self) -> Game:
        """The game's rules file; its events and evolve are registered from then on."""
        root = importlib.import_module(self.package)
        for layer in _REGISTERING:
            importlib.import_module(f"{self.package}.{layer}")
        found: Game = root.GAME
        return found

    # -- the layers the core asks of the game (odds, insight, recheck, rules, report, demo)

    def odds(self) -> interface.Odds:
        """The game's odds (`spire odds`) from the position the journal holds."""
        return cast("interface.Odds", self.module("odds"))

    def insight(self) -> interface.Insight:
        """The game's odds told to people."""
        return cast("interface.Insight", self.module("insight"))

    def recheck(self) -> interface.Recheck:
        """What the audit re-asks of the game's events: the rule each one records."""
        return cast("interface.Recheck", self.module("recheck"))

    def rules_module(self) -> interface.Rules:
        """The game's rules (its `decide`s, and whose turn it is)."""
        return cast("interface.Rules", self.module("rules"))

    def report(self) -> interface.Report:
        """The game's part of the play report."""
        return cast("interface.Report", self.module("report"))

    def catalog(self) -> interface.Catalog:
        """The game's cards: the rulebook's examples, a stored card read, a card told."""
        return cast("interface.Catalog", self.module("catalog"))

    def commands(self) -> interface.Commands:
        """The game's own verbs (journal/cli/dispatch.py reaches them)."""
        return cast("interface.Commands", self.module("commands"))

    def demo(self) -> interface.Demo:
        """The game's demo (`spire demo`), for a game that `has("demo")`."""
        return cast("interface.Demo", self.module("demo"))

    def index(self) -> interface.Index:
        """The game's verbs listed without importing them (its generated `index`); a
        game with none (a test's) raises ModuleNotFoundError."""
        return cast("interface.Index", self.module("index"))


_REGISTERING = ("events", "evolve", "describe")
"""The layers that register themselves with the core as they are imported (their events'
types, how each folds, how each is told): imported with the game's rules, in every game."""


T = TypeVar("T")


def valid(make: Callable[[], T], what: str) -> T:
    """`make()`, a card (or a part of one) the players typed; what pydantic or the model
    refuses in it is bad input, said in one line."""
    from pydantic import ValidationError

    try:
        return make()
    except ValidationError as e:
        error = e.errors()[0]
        where = ".".join(str(p) for p in error["loc"])
        raise BadInput(f"cannot read {what!r}: {where + ': ' if where else ''}"
                       f"{error['msg'].removeprefix('Value error, ')}") from None
    except ValueError as e:
        raise BadInput(f"cannot read {what!r}: {e}") from None
