"""The play report: a branch told as a document to keep or share.

`build` (pure) turns a branch's events into a `Report`; `markdown`, `html` and `as_json`
render it. `gather` reads what `build` needs from a journal.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from journal.report.build import Keep, Source, build
from journal.report.model import CheckpointMark, Report
from journal.service import collector

if TYPE_CHECKING:
    from pathlib import Path

    from journal.service.reading import Reading

__all__ = ["FORMATS", "KEEPS", "Report", "Source", "build", "format_for", "gather", "pieces",
           "render"]


def gather(journal: Reading, branch: str | None = None, keep: Keep = "whole") -> Report:
    """The report of `branch` (default: the current one) of the journal's campaign, read
    in one pass as the branch streams. `keep`: everything in memory; only what the
    Markdown and HTML show ("shown"); or everything, what grows with the campaign on disk
    ("spooled", for the JSON). A long campaign's report holds a bounded amount with
    "shown" or "spooled"."""
    from journal.insight import mapping

    with collector.paused():  # a state an event, no cycles: see journal.service.collector
        current, gone, events = journal.replays.events(branch)
        campaign = journal.campaign()
        marks = [CheckpointMark(c.name, c.position, None) for c in journal.marks(current)]
        parent = next((b.parent for b in journal.branches(cards=False)
                       if b.branch.id == current.id), None)
        reader = mapping.Reader(gone)
        report = build(Source(
            campaign=campaign.name, game=campaign.game, branch=current.name,
            head_hash=current.head_hash, history=events,
            checkpoints=marks, parent=parent, fork=current.fork_position, gone=gone,
            keep=keep, seen=reader))
        game, now, roads = mapping.roads(journal, {current.name: reader})
        return replace(report, story_map=mapping.story_map(game, now, roads))


FORMATS = ("md", "html", "json")
SUFFIXES = {".md": "md", ".markdown": "md", ".html": "html", ".htm": "html", ".json": "json"}


def format_for(fmt: str | None, output: Path | None) -> str:
    """The format asked for, or the one the output file's suffix names (`session.html`);
    Markdown on the terminal. Anything else is refused in one line naming the formats."""
    from journal.errors import BadInput

    if fmt is None:
        if output is None:
            return "md"
        found = SUFFIXES.get(output.suffix.casefold())
        if found is None:
            raise BadInput(f"cannot tell the format from {output.name!r}; give --format "
                           f"{'|'.join(FORMATS)}, or a file ending in .md, .html or .json")
        return found
    if fmt.casefold() not in FORMATS:
        raise BadInput(f"unknown format {fmt!r}: spire writes {', '.join(FORMATS)}")
    return fmt.casefold()


KEEPS: dict[str, Keep] = {"md": "shown", "html": "shown", "json": "spooled"}
"""What each format needs kept (`gather`)."""


def render(report: Report, fmt: str) -> str:
    """The report as a Markdown, HTML or JSON document."""
    return "".join(pieces(report, fmt))


def pieces(report: Report, fmt: str) -> Iterator[str]:
    """The report as a Markdown, HTML or JSON document, in pieces to be written as they
    come (a long JSON report is read back from disk a piece at a time)."""
    if fmt == "json" and report.shown is not None:
        raise ValueError("the JSON report keeps everything: gather it with keep='spooled'")
    if fmt == "json":
        from journal.report import as_json

        # With the collector on, even in a one-shot command (which pauses it): `json.dumps
        # (indent=...)` leaves a cycle behind each call (its encoder's closures), which
        # only the collector frees (337 MB at 100k events with it off, against 72 MB).
        with collector.running():
            yield from as_json.pieces(report)
        return
    with collector.paused():
        if fmt == "md":
            from journal.report import markdown

            yield markdown.render(report)
        else:
            from journal.report import html

            yield html.render(report)
