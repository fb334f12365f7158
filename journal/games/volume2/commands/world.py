"""Volume 2's world between encounters: waterfall events, single-use items, and the
episode's end."""

from __future__ import annotations

from pathlib import Path

import typer

from journal.cli.common import Force
from journal.games.volume2.commands.acting import GAME, act

app = typer.Typer(rich_markup_mode=None)


# -- waterfall events --------------------------------------------------------------------

waterfall_app = typer.Typer(
    help="A waterfall event, played row by row.\n\n"
    "Lay it out, choose a card a row, remove what a card removes, end on the story card "
    "it names.\n\n\b\nExamples:\n"
    "  spire retrieve \"Morwen's Carriage\"\n  spire waterfall lay 3 4 4 4\n"
    "  spire waterfall choose 1 2\n  spire waterfall remove B D\n"
    "  spire waterfall choose 2 C\n  spire waterfall end 112",
    rich_markup_mode=None, no_args_is_help=True)
app.add_typer(waterfall_app, name="waterfall")


@waterfall_app.command("lay")
def waterfall_lay(
    ctx: typer.Context,
    rows: list[int] = typer.Argument(..., metavar="CARDS...", help="How many cards each row "
                                     "holds, row 1 first (at most 5 rows of 6)."),
    force: Force = False,
) -> None:
    """Lay the event cards retrieved last face down, row by row.

    \b
    Example:
      spire waterfall lay 4 6 6 5 6
    """
    from journal.games.volume2 import world

    act(ctx, lambda view: world.lay(view.state, rows), force)


@waterfall_app.command("choose")
def waterfall_choose(
    ctx: typer.Context,
    row: int = typer.Argument(..., metavar="ROW", min=1, max=8, help="The row (1-5)."),
    card: str = typer.Argument(..., metavar="CARD", help="Row 1: the card's place (1, 2 ...); "
                               "later rows: its letter (A-F)."),
    force: Force = False,
) -> None:
    """Choose a row's card and reveal it.

    The rest of that row is discarded.

    \b
    Examples:
      spire waterfall choose 1 3
      spire waterfall choose 2 B
    """
    from journal.games.volume2 import world

    act(ctx, lambda view: world.choose(view.state, row, card), force)


@waterfall_app.command("remove")
def waterfall_remove(
    ctx: typer.Context,
    cards: list[str] = typer.Argument(..., metavar="CARDS...", help="The letters removed."),
    row: int = typer.Option(None, "--row", metavar="N", min=1, max=8,
                            help="The row [default: the next row to choose from]."),
    force: Force = False,
) -> None:
    """Remove the cards a revealed card names from the next row.

    The revealed card says which, as in "Remove Row 2 cards B and F".

    \b
    Example:
      spire waterfall remove B F
    """
    from journal.games.volume2 import world

    act(ctx, lambda view: world.remove(view.state, cards, row), force)


@waterfall_app.command("end")
def waterfall_end(
    ctx: typer.Context,
    card: int = typer.Argument(..., metavar="CARD", min=1, max=9999,
                               help="The story card the event names."),
    force: Force = False,
) -> None:
    """End the waterfall event by revealing the story card it names.

    \b
    Example:
      spire waterfall end 112
    """
    from journal.games.volume2 import world

    act(ctx, lambda view: world.end_waterfall(view.state, card), force)


# -- the episode -------------------------------------------------------------------------

episode_app = typer.Typer(
    help="End the episode, recording what carries into the next.\n\n\b\nExamples:"
    "\n  spire episode end --output plains-episode-1.json\n"
    "  spire new plains-2 --game volume2 --from plains-episode-1.json",
    rich_markup_mode=None, no_args_is_help=True)
app.add_typer(episode_app, name="episode")


@episode_app.command("end")
def episode_end(
    ctx: typer.Context,
    output: Path = typer.Option(None, "--output", "-o", metavar="FILE", help="Also write the "
                                "carry-over to FILE, for `spire new --from FILE`."),
    force: Force = False,
) -> None:
    """End the episode, recording what carries into the next.

    The story card it ended on, the allies, the milestones in play, the items, bees,
    pollen, meat and pelts are recorded to carry into the next.

    \b
    Example:
      spire episode end --output plains-episode-1.json
    """
    from journal.cli.common import journal
    from journal.errors import BadInput
    from journal.games.volume2 import events as v2
    from journal.games.volume2 import world
    from journal.paths import write_whole
    from journal.service.journal import of_game

    decision = of_game(GAME, lambda view: world.end_episode(view.state, view.campaign.name))(
        journal(ctx).read.view())
    if decision.violations and not force:
        raise decision.violations[0]
    if output is not None:  # written first: a file that cannot be written records nothing
        ended = decision.events[0]
        assert isinstance(ended, v2.EpisodeEnded)
        try:
            write_whole(output, ended.carried.model_dump_json(indent=2) + "\n")
        except OSError as e:
            raise BadInput(f"cannot write {output}: {e.strerror}; nothing recorded") from None
    act(ctx, lambda view: world.end_episode(view.state, view.campaign.name), force)
    if output is not None:
        from journal.render import lines as render

        render.say(f"Wrote the carry-over to {output}")


# -- items -------------------------------------------------------------------------------

item_app = typer.Typer(rich_markup_mode=None)
app.add_typer(item_app, name="item")


@item_app.command("use")
def item_use(
    ctx: typer.Context,
    name: str = typer.Argument(
        ..., metavar="NAME", help="The item's name as printed on its card."),
    holder: str = typer.Option(
        None, "--from", metavar="WHO", help="Whose, when two carry one of that name."),
    force: Force = False,
) -> None:
    """Use up a single-use item (only while an ally is in play).

    \b
    Example:
      spire item use "Smoked Honey"
    """
    from journal.games.volume2 import world

    act(ctx, lambda view: world.use_item(view.state, name, holder), force)
