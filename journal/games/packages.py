"""Each game's package, its layers imported when first asked for and typed by the game
interface (journal/games/interface.py).

Above the registry (journal/games/__init__.py) and the interface, so that the rules'
layer can name a game's rules file without importing what the upper layers ask of a game:
a module of the service, the audit or the CLI asks `package_of(name)` here.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, cast

from journal.games import Game, game, package

if TYPE_CHECKING:
    from journal.games import interface


@cache
def package_of(name: str) -> GamePackage:
    """The game called `name`; an unknown name is bad input."""
    return GamePackage(name, package(name))


@dataclass(frozen=True)
class GamePackage:
    """One game's package: each layer of it imported when it is first asked for, so a
    command loads only what it uses (`spire status` no game's commands, `--help` none).

    The modules' names are the same in every game; journal/games/interface.py says what
    each one the core's lower layers ask provides, the upper layers say what they ask
    (journal/report/parts.py, journal/service/demo.py, journal/cli/complete.py), and each game's
    `shape` module has mypy hold the game to all of it."""

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
        """The game's rules file."""
        return game(self.name)

    # -- the layers the rules' and the service's modules ask of the game

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

    def view(self) -> interface.View:
        """What the table reads of the game's part of the state (journal/core/shown.py)."""
        return cast("interface.View", self.module("view"))

    def catalog(self) -> interface.Catalog:
        """The game's cards: the rulebook's examples, a stored card read, a card told."""
        return cast("interface.Catalog", self.module("catalog"))

    def index(self) -> interface.Index:
        """The game's verbs listed without importing them (its generated `index`); a
        game with none (a test's) raises ModuleNotFoundError."""
        return cast("interface.Index", self.module("index"))
