"""Coin Tally at the table: `spire toss heads|tails`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from journal.cli.common import Force, act

if TYPE_CHECKING:
    from journal.cli.complete import Source

PANEL = "Coin Tally"
app = typer.Typer(rich_markup_mode=None)


@app.command()
def toss(
    ctx: typer.Context,
    side: str = typer.Argument(..., metavar="heads|tails", help="How the coin fell."),
    force: Force = False,
) -> None:
    """Toss the coin: once per card.

    \b
    Example:
      spire toss heads
    """
    from journal.errors import BadInput
    from toygame import rules

    if side not in ("heads", "tails"):
        raise BadInput(f"a coin falls heads or tails, not {side!r}")
    act(ctx, lambda view: rules.toss(view.state, side == "heads"), force)


POSITIONALS: dict[tuple[str, ...], tuple[Source, int]] = {
    ("toss",): (lambda table: ["heads", "tails"], 0)}
OPTION_VALUES: dict[str, Source] = {}
