"""The three games spire keeps, each named by its rules file in rules/.

A game module names its resources, limits and deck rules; the core commands (reveal, pull,
gain, items...) read them here, and each game's own encounter rules live beside it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeVar

from journal.errors import BadInput, NotFound
from journal.paths import shipped

GAME_NAMES = ("hildegard", "spires-end", "volume2")


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
    event_sets: tuple[str, ...] = ()
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def characters_at_start(self, players: int) -> tuple[StartingCharacter, ...]:
        chars = self.raw.get("characters", {})
        if "start" in chars:
            return tuple(StartingCharacter(**c) for c in chars["start"])
        names = chars.get("two_players" if players >= 2 else "one_player", [])
        return tuple(StartingCharacter(name) for name in names)


def _load(name: str) -> Game:
    import tomllib  # here: a command that loads no game's rules (status) does without it

    raw = tomllib.loads((shipped("rules") / f"{name}.toml").read_text(encoding="utf-8"))
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
        event_sets=tuple(deck.get("event_sets", ())),
        raw=raw,
    )


@cache
def load(name: str) -> Game:
    """A game's rules file from rules/, read once: the game's package and its modules
    each take their `GAME` from here, so none imports the package it belongs to."""
    return _load(name)


_MODULES = {"hildegard": "hildegard", "spires-end": "spires_end", "volume2": "volume2"}


@cache
def game(name: str) -> Game:
    """The rules of the game called `name`; an unknown name is bad input."""
    if name not in GAME_NAMES:
        raise NotFound(f"unknown game {name!r}; choose one of: {', '.join(GAME_NAMES)}")
    module = importlib.import_module(f"journal.games.{_MODULES[name]}")
    rules: Game = module.GAME
    return rules


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
