"""`spire serve`: the table's screen, a live page of the campaign in a browser."""

from __future__ import annotations

import typer

from journal.cli import app
from journal.cli.common import reading

DEFAULT_PORT = 8035
"""The port `spire serve` listens on unless told (0 asks the system for a free one)."""


@app.command()
def serve(
    ctx: typer.Context,
    host: str = typer.Option(
        "127.0.0.1", "--host", metavar="HOST",
        help="Where to listen: this machine only (the default), or an address of the "
             "table's network (0.0.0.0 for all); then the address printed holds a token."),
    port: int = typer.Option(
        DEFAULT_PORT, "--port", "-p", min=0, max=65535, metavar="PORT",
        help="The port to listen on; 0 for any free one."),
) -> None:
    """Serve the campaign's live page and history to a browser.

    Open it on the tablet or the TV. It only reads the journal (no request changes it)
    and follows every write, from any process, within a second. Beyond this machine
    (--host) every request needs the random token in the address printed. Ctrl-C stops
    it.

    \b
    Example:
      spire serve --host 0.0.0.0 --port 8035
    """
    from journal.web.server import serve as run

    run(reading(ctx), host, port)
