"""The play report: a branch as a Markdown, HTML or JSON document."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from journal.cli import app
from journal.cli.common import Branch, reading, written_whole


@app.command()
def report(
    ctx: typer.Context,
    fmt: Annotated[str | None, typer.Option(
        "--format", "-f", metavar="md|html|json", show_default=False,
        help="The document's format [default: the output file's suffix, else md].")] = None,
    output: Annotated[str | None, typer.Option(
        "--output", "-o", metavar="FILE", help="File to write [default: stdout].")] = None,
    branch: Branch = None,
) -> None:
    """A play report of the session, to keep or share.

    It tells the story of the session in order (cards, chapters, checkpoints, notes),
    each encounter step by step, resources, items, overrides and undos, dice statistics
    and the players' luck. HTML is one self-contained file (charts included, no script,
    nothing fetched) that prints well; JSON follows docs/report.schema.json. With -o the
    format comes from the file's suffix; the file is written whole or not at all.

    \b
    Examples:
      spire report -o gray-oaks.html
      spire report --format md --branch bolder
    """
    from journal.report import KEEPS, format_for, gather, pieces

    # A name, taken as text: typer's check of a Path would build a pydantic adapter, a
    # twentieth of a long campaign's report, and check nothing a file to write needs.
    written_to = None if output is None else Path(output)
    kind = format_for(fmt, written_to)
    from journal.render.progress import working

    with working(f"writing the {kind} report"):
        text = pieces(gather(reading(ctx), branch, KEEPS[kind]), kind)
        if written_to is not None:
            written = written_whole(written_to, text)
    if written_to is None:  # on the terminal once the progress line is gone
        from journal.terminal import visible_json, visible_lines

        for piece in text:
            typer.echo((visible_json if kind == "json" else visible_lines)(piece), nl=False)
        return
    typer.echo(f"Wrote the {kind} report to {written_to} ({written:,} bytes)")

