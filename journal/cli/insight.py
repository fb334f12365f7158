"""Insight: the roads taken (`spire map`) and the odds from here (`spire odds`). Both only
read: neither appends to the journal."""

from __future__ import annotations

import typer

from journal.cli import app
from journal.cli.common import Json, journal


@app.command("map")
def story_map(ctx: typer.Context, as_json: Json = False) -> None:
    """The story cards every road reached: across the campaign's branches and every campaign
    of its game in the journal, by chapter, how often and when first.

    Spoiler-safe: only cards the players have seen are named or counted; the numbers between
    them appear only as a count of numbers skipped.

    \b
    Example:
      spire map
      spire map --json
    """
    from journal import mapping, render_insight
    from journal.terminal import print_json

    game, current, roads = mapping.roads(journal(ctx))
    found = mapping.story_map(game, current, roads)
    if as_json:
        print_json(mapping.to_json(found))
    else:
        render_insight.story_map(found)
