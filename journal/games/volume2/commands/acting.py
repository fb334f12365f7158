"""What Volume 2's commands share: acting on the campaign (the player whose ally acts
recorded as the one who acted), the dice spire rolls, the catalog's cards."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import typer

from journal.cli import common

if TYPE_CHECKING:
    from journal.core.state import State
    from journal.service.journal import Command

GAME = "volume2"


def act(ctx: typer.Context, decide: Command, force: bool = False) -> None:
    """Decide and append; in a game of several players, the player whose ally acts is
    recorded as the one who acted."""
    from journal.games.volume2 import rules
    from journal.service.journal import of_game

    def player(state: State) -> int | None:  # told from the state the command is decided on
        return rules.player_for(state) if state.game == GAME else None

    common.act(ctx, of_game(GAME, decide), force, player)


def chance() -> random.SystemRandom:
    return random.SystemRandom()


def cards(ctx: typer.Context) -> dict[str, Any]:
    return common.journal(ctx).cards(GAME)
