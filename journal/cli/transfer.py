"""Export a campaign as JSON Lines; import such a file as a new campaign."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from journal.cli import app
from journal.cli.common import journal, reading, written_whole
from journal.errors import BadInput


@app.command()
def export(
    ctx: typer.Context,
    output: str = typer.Option(
        None, "--output", "-o", metavar="FILE", help="File to write [default: stdout]."),
    branch: str = typer.Option(
        None, "--branch", "-b", metavar="NAME",
        help="Only this branch's path, as a campaign of its own [default: every branch]."),
) -> None:
    """Write the campaign's events as JSON Lines.

    They are written one event a line, with their hashes. Every branch is written (each
    after a line naming where it forks), and last a closing record with each branch's
    event count and head hash, so an import finds a file cut short. A file given with -o
    is replaced whole or not at all.

    \b
    Example:
      spire export -o gray-oaks.jsonl
    """
    from journal.render.progress import tracked
    from journal.service.exchange import export as exported
    from journal.service.transfer import dump

    lines = tracked((line + "\n" for line in dump(exported(reading(ctx), branch))),
                    "exporting, lines", streams=output is None)
    if output is None:
        for line in lines:  # as they are read: a long campaign is never all in memory
            sys.stdout.write(line)
        return
    written_to = Path(output)
    written = written_whole(written_to, lines)
    typer.echo(f"Wrote the JSON Lines export to {written_to} ({written:,} bytes)")


@app.command("import")
def import_(
    ctx: typer.Context,
    file: Path = typer.Argument(
        ..., metavar="FILE", help="A file written by `spire export`; - reads standard input."),
    name: str = typer.Option(
        None, "--name", metavar="NAME", help="The new campaign's name [default: the file's name]."),
) -> None:
    """Read an exported file into a new campaign.

    Every hash is checked first. Every branch in the file comes back. A file without its
    closing record (cut short, or from an older spire), or whose events disagree with
    it, is refused, as is a campaign of a game this spire does not know. With - for FILE
    it reads standard input, so a campaign moves between journals in one line.

    \b
    Examples:
      spire import gray-oaks.jsonl --name gray-oaks-copy
      spire export | spire --db postgresql://table.local/spire import - --name gray-oaks
    """
    import sys

    from journal.render import lines as render
    from journal.render.progress import tracked
    from journal.service.transfer import lines, parse

    piped = str(file) == "-"
    if piped and not name:
        raise BadInput("reading standard input, the campaign needs a name: --name NAME")
    try:
        if piped:
            read = tracked(lines(sys.stdin), "importing standard input, lines")
            journal(ctx).import_(name, parse(read))
        else:
            with file.open(encoding="utf-8") as text:
                read = tracked(lines(text), f"importing {file.name}, lines")
                journal(ctx).import_(name or file.stem, parse(read))
    except (OSError, UnicodeDecodeError) as e:
        raise BadInput(f"cannot read {file}: "
                       + (f"not UTF-8 text; {e}" if isinstance(e, UnicodeDecodeError)
                          else getattr(e, "strerror", None) or str(e))) from None
    from journal.core.words import plural

    done = journal(ctx).read
    found = done.branches(cards=False)  # each branch's own events, past its fork
    events = sum(b.branch.head - (b.branch.fork_position or 0) for b in found)
    on = f" on {len(found)} branches" if len(found) > 1 else ""
    render.say(f"Imported {plural(events, 'event')}{on} into {done.campaign().name!r}; "
               "it is now the current campaign.")
