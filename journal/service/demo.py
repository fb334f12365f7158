"""The demo: a short scripted stretch of a game, for a newcomer to watch (`spire demo`).

A game with a demo has a `demo` module, a `Demo`: the name of its demo campaign and its
script, scenes of steps decided by the game's own rules as the commands at the table
decide them, each with the command line a player types for it (the demo shows the line,
then what that command prints; tests/test_first_steps.py types each line into a fresh
journal and holds it to the same answer).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, cast

from journal.core.words import listed
from journal.errors import BadInput, NotFound, meant
from journal.games import names
from journal.games.packages import package_of

if TYPE_CHECKING:
    from journal.service.journal import Command, Journal, View


@dataclass(frozen=True)
class Step:
    """One command of the script: the line a player types (after `spire`), and what it
    decides."""

    line: str
    command: Command


@dataclass(frozen=True)
class Scene:
    """Steps played in a row; a caption, if any, is said before them."""

    steps: tuple[Step, ...]
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
class Typed:
    """A step played: the line typed, and the view its command left (what it wrote)."""

    line: str
    view: View


@dataclass(frozen=True)
class Played:
    """The demo campaign now; if it was played just now, the lines typed, each with the
    view it left, and each scene's caption before its lines."""

    view: View
    fresh: bool
    shown: tuple[str | Typed, ...] = ()


def quoted(words: str) -> str:
    """`words` as a player types them on a command line: bare if one word, else in double
    quotes (as the docs write `target "Street Merchant"`), or as the shell needs them."""
    import shlex

    if shlex.quote(words) == words:
        return words
    if not any(c in words for c in '"$`\\!'):
        return f'"{words}"'
    return shlex.quote(words)


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
        raise BadInput(f"the demo plays {listed(having, 'or')}, not {game!r}",
                       hint=meant(game, having, "`spire demo --list` says what each plays"))
    demo = demo_of(game)
    try:
        journal.use(demo.NAME)
        return Played(journal.read.view(), fresh=False)
    except NotFound:
        pass
    view = journal.new(demo.NAME, game, 1)
    shown: list[str | Typed] = [Typed(f"new {demo.NAME} --game {game}", view)]
    for scene in demo.SCRIPT:
        if scene.caption:
            shown.append(scene.caption)
        for step in scene.steps:
            view = journal.execute(step.command)
            shown.append(Typed(step.line, view))
    return Played(journal.read.view(), True, tuple(shown))
