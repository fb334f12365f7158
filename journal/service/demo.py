"""The demo: a short scripted stretch of a game, for a newcomer to watch (`spire demo`).

A game with a demo has a `demo` module, a `Demo`: the name of its demo campaign and its
script, scenes of steps decided by the game's own rules as the commands at the table
decide them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, cast

from journal.core.words import listed
from journal.errors import BadInput, NotFound
from journal.games import names
from journal.games.packages import package_of

if TYPE_CHECKING:
    from journal.core.state import State
    from journal.service.journal import Command, Journal, View


@dataclass(frozen=True)
class Scene:
    """Steps played in a row; with a caption, the demo shows the encounter they leave."""

    steps: tuple[Command, ...]
    caption: str = ""


class Demo(Protocol):
    """A short scripted stretch of the game for a newcomer to watch: its demo.py."""

    NAME: str
    """The demo campaign's name."""

    ABOUT: str
    """What it plays, in a line (`spire demo --list`)."""

    SCRIPT: tuple[Scene, ...]
    """The scenes played, in order, each decided by the game's own rules."""


@dataclass(frozen=True)
class Played:
    """The demo campaign now; if it was played just now, each caption and the state its
    scene left."""

    view: View
    fresh: bool
    shown: tuple[tuple[str, State], ...] = ()


def games() -> tuple[str, ...]:
    """The games that have a demo, in the registry's order (the first is `spire demo`'s)."""
    return tuple(name for name in names() if package_of(name).has("demo"))


def demo_of(game: str) -> Demo:
    """The demo of `game`, one of `games()`."""
    return cast("Demo", package_of(game).module("demo"))


def play(journal: Journal, game: str | None = None) -> Played:
    """Play `game`'s script (the first game with a demo's, by default) into its demo
    campaign, or show it if it is there already; it becomes the current campaign."""
    having = games()
    game = game or having[0]
    if game not in having:
        raise BadInput(f"the demo plays {listed(having, 'or')}, not {game!r}")
    demo = demo_of(game)
    try:
        journal.use(demo.NAME)
        return Played(journal.read.view(), fresh=False)
    except NotFound:
        pass
    view = journal.new(demo.NAME, game, 1)
    shown = []
    for scene in demo.SCRIPT:
        for step in scene.steps:
            view = journal.execute(step)
        if scene.caption:
            shown.append((scene.caption, view.state))
    return Played(journal.read.view(), True, tuple(shown))
