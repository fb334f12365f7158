"""Looking: the state of the campaign, its log, one event."""

from __future__ import annotations

import typer

from journal.cli import app
from journal.cli.common import Branch, Json, journal, reading


@app.command()
def status(
    ctx: typer.Context,
    branch: Branch = None,
    as_json: Json = False,
) -> None:
    """Where the campaign stands.

    It shows the card, chapter, resources, characters and items.

    \b
    Example:
      spire status --json
    """
    from journal.render import status as render_status

    seen = reading(ctx).status(branch)
    if as_json:
        render_status.show_json(seen)
    else:
        render_status.show(seen)


@app.command()
def log(
    ctx: typer.Context,
    last: int = typer.Option(
        20, "--last", "-n", min=0, metavar="N", help="How many of the latest events; 0 for all."),
    branch: Branch = None,
    as_json: Json = False,
) -> None:
    """The events of the current branch, undone ones marked.

    \b
    Examples:
      spire log --last 0
      spire log --branch main
    """
    from itertools import islice

    from journal.render import lines as render

    read = reading(ctx)
    if last:  # the latest read backwards, a chunk at a time: no fold, not the whole branch
        _, current = read.at(branch)
        events = list(islice(read.store.log.backwards(current), last))[::-1]
        retracted = read.retracted(current)
    else:
        view = read.view(branch)
        events, retracted = view.history, view.retracted
    if as_json:
        render.print_json([render.event_json(r, retracted) for r in events])
    else:
        render.events_table(events, retracted)


@app.command()
def watch(
    ctx: typer.Context,
    last: int = typer.Option(
        10, "--last", "-n", min=0, metavar="N", help="How many of the latest events to show."),
) -> None:
    """Follow the campaign live: its status and latest events.

    They are shown again whenever anyone appends. For the second screen at the table or
    a player at home: it only reads (a role that may only read the journal can run it),
    and Ctrl-C ends it. On a shared PostgreSQL journal it is told of each append; on a
    SQLite file it looks several times a second.

    \b
    Example:
      spire --db postgresql://table.local/spire watch --last 5
    """
    from journal.cli.watch import watch as follow

    follow(journal(ctx), last)


@app.command()
def show(
    ctx: typer.Context,
    seq: int = typer.Argument(..., metavar="SEQ", min=1, help="The event's number in the log."),
    as_json: Json = False,
) -> None:
    """One event in full: its payload, time, override and hashes.

    \b
    Example:
      spire show 3
    """
    from journal.render import lines as render

    view, recorded = reading(ctx).event(seq)
    if as_json:
        render.print_json(render.event_json(recorded, view.retracted))
    else:
        render.show(recorded, view.retracted)
