"""The play report: a branch as a Markdown, HTML or JSON document."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from journal.cli import app
from journal.cli.common import journal
from journal.errors import BadInput
from journal.paths import write_whole


class Format(str, Enum):
    md = "md"
    html = "html"
    json = "json"


@app.command()
def report(
    ctx: typer.Context,
    fmt: Annotated[Format, typer.Option(
        "--format", "-f", metavar="md|html|json", help="The document's format.")],
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", metavar="FILE", help="File to write [default: stdout].")] = None,
    branch: Annotated[str | None, typer.Option(
        "--branch", "-b", metavar="NAME", help="A branch other than the current.")] = None,
) -> None:
    """A play report to keep or share: the path of cards, each encounter, resources,
    items, notes, overrides and undos, dice statistics and the players' luck.

    HTML is one self-contained file (charts included, no script, nothing fetched) that
    prints well; JSON follows docs/report.schema.json.

    \b
    Examples:
      spire report --format html -o gray-oaks.html
      spire report --format md --branch bolder
    """
    from journal.report import gather, render

    text = render(gather(journal(ctx), branch), fmt.value)
    if output is None:
        from journal.terminal import visible_json, visible_lines

        typer.echo((visible_json if fmt is Format.json else visible_lines)(text), nl=False)
        return
    try:
        write_whole(output, text)
    except OSError as e:
        raise BadInput(f"cannot write {output}: {e.strerror}; it is as it was") from None
