"""Insight: the roads taken (`spire map`) and the odds from here (`spire odds`). Both only
read: neither appends to the journal."""

from __future__ import annotations

import typer

from journal.cli import app
from journal.cli.common import Json, reading


@app.command("map")
def story_map(ctx: typer.Context, as_json: Json = False) -> None:
    """The story cards every road reached, chapter by chapter.

    The roads are the campaign's branches and every campaign of its game in the journal;
    each card shows how often they reached it, and when first. Spoiler-safe: only cards
    the players have seen are named or counted; the numbers between them appear only as
    a count of numbers skipped.

    \b
    Example:
      spire map
      spire map --json
    """
    from journal.insight import mapping
    from journal.render import insight as render_insight
    from journal.terminal import print_json

    game, current, roads = mapping.roads(reading(ctx))
    found = mapping.story_map(game, current, roads)
    if as_json:
        print_json(mapping.to_json(found))
    else:
        render_insight.story_map(found)


@app.command()
def odds(
    ctx: typer.Context,
    advise: bool = typer.Option(
        False, "--advise", help="Name the finesse choice (the dice to lock) that gives the "
        "best chance now, and every other one with its chance."),
    as_json: Json = False,
) -> None:
    """Exact chances from where the players stand.

    Each chance is with the best finesse. Hildegard, a target under way: the chance to
    reach its bullseye limit in the sets left, and its bonus, from the dice rolled and
    locked and the effects waiting (Hone, Flub, Graze), spending no feats and the feats
    held at best; before any wild shot, whose faces the rulebook does not print. A
    face-off, on the players' turn: the chance the round defeats the enemy, and of each
    number of bullseyes; and the chance the enemy's set hits each square of the meter.
    Volume 2: each ally's combinations by HP spent, each enemy's target roll, attack and
    turn damage. Spire's End: each bar of the ally whose turn it is against the enemy,
    and the enemy's selection roll and bars. Nothing is appended to the journal. See
    docs/odds.md.

    \b
    Examples:
      spire odds
      spire odds --advise
      spire odds --json
    """
    from journal.insight.odds import odds as weigh
    from journal.render import insight as render_insight
    from journal.terminal import print_json

    found = weigh(reading(ctx).view().state)
    if as_json:
        print_json(found)
    else:
        render_insight.odds(found, advise)
