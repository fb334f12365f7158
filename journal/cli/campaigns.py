"""Campaigns: start one, list them, pick the current one, play the demo."""

from __future__ import annotations

from pathlib import Path

import typer

from journal.cli import app
from journal.cli.common import Force, Json, journal, reading
from journal.core.words import listed
from journal.games import names

GAMES = listed(names(), "or")


@app.command()
def new(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="NAME", help="A name for the campaign."),
    game: str = typer.Option(..., "--game", "-g", metavar="GAME", help=f"The game: {GAMES}."),
    players: int = typer.Option(1, "--players", "-p", metavar="N", min=1, help="How many play."),
    quick_start: bool = typer.Option(
        False, "--quick-start", help="Begin at the game's Quick Start card (a game that has one)."),
    carried: Path = typer.Option(
        None, "--from", metavar="FILE", help="Begin where an episode ended (a game of "
        "episodes), from the file `spire episode end --output` wrote."),
    force: Force = False,
) -> None:
    """Start a campaign and make it the current one.

    \b
    Examples:
      spire new gray-oaks --game hildegard --players 2
      spire new tower --game spires-end --quick-start
      spire new plains-2 --game volume2 --from plains-episode-1.json
    """
    from journal.render import lines as render

    view = journal(ctx).new(name, game.casefold(), players, force=force, quick_start=quick_start,
                            carried=_carried(carried))
    render.say(f"Started {view.campaign.name!r}; it is now the current campaign.")
    render.written(view)


def _carried(path: Path | None) -> str | None:
    """The carry-over file's text, read before anything is written; the game's rules say
    whether it carries over at all."""
    from journal.errors import BadInput

    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8")[:1_000_000]
    except (OSError, UnicodeDecodeError) as e:
        raise BadInput(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None


@app.command("campaigns")
def list_campaigns(ctx: typer.Context, as_json: Json = False) -> None:
    """List the campaigns in the journal; * marks the current one.

    \b
    Example:
      spire campaigns --json
    """
    from journal.render import lines as render

    rows = reading(ctx).campaigns()
    if as_json:
        render.print_json(render.campaigns_json(rows))
    else:
        render.campaigns(rows)


@app.command()
def use(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="NAME", help="The campaign's name."),
) -> None:
    """Make NAME the current campaign.

    \b
    Example:
      spire use gray-oaks
    """
    campaign = journal(ctx).use(name)
    typer.echo(f"Now playing {campaign.name!r} ({campaign.game}).")


@app.command()
def demo(
    ctx: typer.Context,
    game: str = typer.Option(None, "--game", "-g", metavar="GAME", show_default=False,
                             help="Which game's demo; the first of `spire demo --list` by "
                             "default."),
    list_games: bool = typer.Option(False, "--list", help="List the games with a demo."),
) -> None:
    """Play a short stretch of a campaign into the game's demo campaign, to watch.

    It shows the journal at work: reveals, a pulled card, an item, notes and an undo, and
    the dice, typed as the rulebook rolls them in its worked examples; then the status and
    the log. Run it again to see it without replaying.

    \b
    Examples:
      spire --db /tmp/try.sqlite demo
      spire --db /tmp/try.sqlite demo --list
      spire --db /tmp/try.sqlite demo --game volume2
    """
    from journal.render import lines as render
    from journal.render import status as render_status
    from journal.service.demo import play

    if list_games:
        from journal.service.demo import demo_of, games

        for name in games():
            render.say(f"{name}: {demo_of(name).ABOUT}")
        return
    j = journal(ctx)
    played = play(j, game.casefold() if game else None)
    if not played.fresh:
        render.say("The demo campaign is already in this journal; here it is.")
    for caption, state in played.shown:
        render.say(caption, "bold")
        for line in render.encounter_lines(state):
            render.say(line)
        render.say("")
    render_status.show(j.read.status())
    render.say("")
    render.log(played.view, played.view.history)


@app.command()
def where(ctx: typer.Context, as_json: Json = False) -> None:
    """Which journal is in use: its file (or database), size, schema revision, campaigns.

    A mistyped --db shows here as a journal that is not there; nothing is made by looking.

    \b
    Examples:
      spire where
      spire --db ~/tables/thursday.sqlite where --json
    """
    from journal.cli import where as shown
    from journal.cli.common import Options, default_db

    options: Options = ctx.find_root().obj
    found = shown.info(journal(ctx), options.db or default_db(), options.db is None)
    if as_json:
        shown.show_json(found)
    else:
        shown.show(found)


@app.command(hidden=True)
def info(ctx: typer.Context, as_json: Json = False) -> None:
    """The same as `spire where`.

    \b
    Example:
      spire info
    """
    where(ctx, as_json)
