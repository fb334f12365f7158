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

    The current campaign is yours alone: on a shared journal (PostgreSQL) it is your
    database role's, on a file your user's, so another player's `spire use` does not
    move yours. `-c NAME` picks a campaign for one command.

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
    """Play a short stretch of a campaign, to watch.

    It is played into the game's demo campaign. It shows each command as it is typed,
    then what it prints, the dice typed as each rulebook rolls them in its worked examples
    where it has them; then what to try next.
    Hildegard's, the default: reveals, a pulled card, an item, notes, an undo, a target
    and a face-off. Spire's End's and Volume 2's: a fight, the numbers their rulebooks do
    not print made up and named in a note. Run it again to see where it stands, without
    replaying.

    \b
    Examples:
      spire --db /tmp/try.sqlite demo
      spire --db /tmp/try.sqlite demo --list
      spire --db /tmp/try.sqlite demo --game spires-end
      spire --db /tmp/try.sqlite demo --game volume2
    """
    from journal.render import lines as render
    from journal.render import status as render_status
    from journal.service.demo import Typed, play

    if list_games:
        from journal.service.demo import demo_of, games

        for name in games():
            render.say(f"{name}: {demo_of(name).ABOUT}")
        return
    j = journal(ctx)
    played = play(j, game.casefold() if game else None)
    name = played.view.campaign.name
    if not played.fresh:
        render.say(f"The demo campaign {name!r} is already in this journal; here it is.")
        render_status.show(j.read.status())
    else:
        render.say(f"Playing the demo into {_journal_named(ctx)}, as the campaign {name!r}, "
                   "now the current one.")
    for shown in played.shown:
        render.say("")
        if isinstance(shown, Typed):
            render.say(f"$ spire {shown.line}", "bold")
            if shown.line.startswith("new "):
                render.say(f"Started {name!r}; it is now the current campaign.")
            render.written(shown.view)
        else:
            render.say(shown, "bold")
    render.say("")
    _next_steps(ctx)


def _journal_named(ctx: typer.Context) -> str:
    """The journal the command wrote to, as `spire where` names it."""
    from journal.cli.common import Options, default_db
    from journal.store.opening import shown

    options: Options = ctx.find_root().obj
    return shown(options.db or default_db())


def _next_steps(ctx: typer.Context) -> None:
    """What to try after the demo, on the journal it played into."""
    import shlex

    from journal.cli.common import Options
    from journal.render import lines as render

    options: Options = ctx.find_root().obj
    spire = "spire" if options.db is None else f"spire --db {shlex.quote(options.db)}"
    steps = ((f"{spire} status", "where it stands"),
             (f"{spire} play", "a shell to type them in"),
             (f"{spire} report -o demo.html", "the story, as a page"))
    width = max(len(command) for command, _ in steps)
    render.say("Next:")
    for command, why in steps:
        render.say(f"  {command.ljust(width)}  {why}")


@app.command()
def where(ctx: typer.Context, as_json: Json = False) -> None:
    """Which journal is in use, and what it holds.

    It shows the journal's file (or database), size, schema revision and campaigns. A
    mistyped --db shows here as a journal that is not there; nothing is made by looking.

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
