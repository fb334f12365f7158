"""What several games' commands share: `ally`, which Hildegard and Spire's End each
register, and the end of every game's `card add` (the card kept, and shown). No command is
registered here: a game's commands module registers what it plays."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from journal.cli.common import Force, act, journal


def ally(
    ctx: typer.Context,
    name: str = typer.Argument(
        ..., metavar="NAME", help="The ally's name as printed on the card."),
    hp: int = typer.Option(None, "--hp", metavar="N", help="The card's Hit Point threshold."),
    ap: int = typer.Option(None, "--ap", metavar="N", help="The card's Armor Point threshold."),
    force: Force = False,
) -> None:
    """An ally joins the party.

    It joins with the thresholds printed on its card.

    \b
    Example:
      spire ally Millicent --hp 5 --ap 2
    """
    from journal.core import decide

    act(ctx, lambda view: decide.ally_joins(view.state, name, hp, ap), force)


CardGame = Annotated[str | None, typer.Option(
    "--game", metavar="GAME",
    help="The game whose catalog keeps it [default: the campaign's].")]
"""`card add --game`: read by journal/cli/dispatch.py to pick the game's `card add`."""


def kind(**flags: bool) -> str:
    """The one kind of card the flags given say (`--target`, `--ally`...)."""
    from journal.errors import BadInput

    chosen = [k for k, on in flags.items() if on]
    if len(chosen) != 1:
        raise BadInput("say which kind of card it is: one of "
                       + ", ".join(f"--{k}" for k in flags))
    return chosen[0]


CardForce = Annotated[bool, typer.Option(
    "--force", help="Enter it even if a rule forbids it (a story card past the game's "
    "count); the override is shown.")]
"""`card add --force`: the catalog is no event, so the override is shown, not recorded."""


def card_added(ctx: typer.Context, game: str, card: Any, force: bool = False) -> None:
    """Keep `card` in the journal's catalog of `game` and say what was entered, and over
    which rule if `force` entered it over one."""
    from journal.cli.cards import details, title
    from journal.render.lines import say

    replaced, override = journal(ctx).add_card(game, card, force)
    say(f"{'Replaced' if replaced else 'Entered'} {title(card)}")
    if override is not None:
        say(f"   override: {override}", "yellow")
    for line in details(game, card):
        say(f"  {line}")
