"""The play report: a branch told as a document to keep or share.

`build` (pure) turns a branch's events into a `Report`; `markdown`, `html` and `as_json`
render it. `gather` reads what `build` needs from a journal.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING

from journal.report.build import Source, build
from journal.report.model import CheckpointMark, Report

if TYPE_CHECKING:
    from pathlib import Path

    from journal.events import Recorded
    from journal.service import Journal

__all__ = ["FORMATS", "Report", "Source", "build", "format_for", "gather", "render"]


def gather(journal: Journal, branch: str | None = None) -> Report:
    """The report of `branch` (default: the current one) of the journal's campaign."""
    with collector_paused():
        view = journal.view(branch)
        marks = [CheckpointMark(c.name, c.position, c.card) for c in journal.checkpoints(view)]
        parent = next((b.parent for b in journal.branches() if b.branch.id == view.branch.id),
                      None)
        report = build(Source(
            campaign=view.campaign.name, game=view.campaign.game, branch=view.branch.name,
            history=view.history, checkpoints=marks, parent=parent,
            fork=view.branch.fork_position))
        return replace(report, story_map=_story_map(journal, view.branch.name, view.history))


def _story_map(journal: Journal, branch: str, history: Sequence[Recorded]) -> object:
    """The roads taken by every playthrough of the game in the journal (`spire map`); the
    report's own branch is not read twice."""
    from journal import mapping

    game, current, roads = mapping.roads(journal, {branch: history})
    return mapping.story_map(game, current, roads)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused: a report holds every state of the branch at
    once, and each collection would walk them all again (at 100k events it took four
    fifths of the time). The states hold no cycles; the collector resumes after."""
    import gc

    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


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
            raise BadInput(f"cannot tell the format from {output.name!r}: give --format "
                           f"{'|'.join(FORMATS)}, or a file ending in .md, .html or .json")
        return found
    if fmt.casefold() not in FORMATS:
        raise BadInput(f"unknown format {fmt!r}: spire writes {', '.join(FORMATS)}")
    return fmt.casefold()


def render(report: Report, fmt: str) -> str:
    """The report as a Markdown, HTML or JSON document."""
    with collector_paused():
        return _rendered(report, fmt)


def _rendered(report: Report, fmt: str) -> str:
    if fmt == "md":
        from journal.report import markdown

        return markdown.render(report)
    if fmt == "html":
        from journal.report import html

        return html.render(report)
    import json

    from journal.report import as_json

    return json.dumps(as_json.render(report), indent=2, ensure_ascii=False) + "\n"
