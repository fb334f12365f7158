"""Volume 2 at the table: encounters (`fight`, `roll`, `lock`, `stop`, `action`,
`deploy`, `upkeep`, `target-roll`, `enemy`, `end`), allies drawn, trading posts, waterfall
events, the episode's end, and the cards it enters (`card add`). Dice typed from the
table, or rolled by spire when none are given. journal/cli/dispatch.py reaches these
commands when the campaign plays Volume 2.

One app, composed of the modules' apps, each by what it does: `encounter` (and trading
posts), `world` (pull decks, waterfall events, items, the episode), `cards` (`card
add`); `tab` says what Tab offers.
"""

from __future__ import annotations

import typer

from journal.games.volume2.commands import cards, encounter, world
from journal.games.volume2.commands.acting import GAME
from journal.games.volume2.commands.tab import OPTION_VALUES, POSITIONALS

__all__ = ["GAME", "OPTION_VALUES", "PANEL", "POSITIONALS", "app"]

PANEL = "Volume 2"
app = typer.Typer(rich_markup_mode=None)
for part in (encounter.app, world.app, cards.app):
    app.add_typer(part)
