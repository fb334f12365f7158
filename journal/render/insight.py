"""What `spire map` and `spire odds` show people: Rich tables and plain lines.

Only the cards the map holds are shown, and the map holds only cards the players saw; the
numbers between them are a count, never numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from journal.terminal import emit, say

if TYPE_CHECKING:
    from journal.insight.mapping import Road, Seen, StoryMap


def story_map(found: StoryMap) -> None:
    """The cards seen by chapter (with the numbers skipped between them), then the roads."""
    from journal.games import game

    roads, seen = len(found.roads), len(found.cards)
    say(f"Story map of {game(found.game).title}: {_count(len(found.campaigns), 'campaign')}, "
        f"{_count(roads, 'road')}, {_count(seen, 'card')} seen", "bold")
    if not found.cards:
        say("No story card reached yet.")
    else:
        say(chapter_line(found))
        emit(_cards_table(found))
    say("")
    say("Roads (* the current one; a branch's own cards, after where it parted):", "bold")
    for line in road_lines(found):
        say(line)


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _cards_table(found: StoryMap) -> object:
    """The cards seen in number order; between two, how many numbers no road reached."""
    from rich.table import Table

    table = Table(box=None, pad_edge=False, show_edge=False)
    for column, justify in (("card", "right"), ("chapter", "right"), ("times", "right"),
                            ("first seen", "left"), ("first on", "left"), ("roads", "right")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    gaps = {g.after: g.skipped for g in found.gaps}
    for seen in found.cards:
        table.add_row(*_card_row(seen))
        if seen.card in gaps:
            table.add_row("…", "", "", f"{_count(gaps[seen.card], 'number')} skipped",
                          style="dim")
    return table


def chapter_line(found: StoryMap) -> str:
    """How many cards were first seen in each chapter."""
    parts = [f"{'before any chapter' if chapter is None else f'chapter {chapter}'}: "
             f"{len(cards)}" for chapter, cards in found.chapters()]
    return "Cards first seen by chapter: " + "; ".join(parts)


def _card_row(seen: Seen) -> tuple[str, ...]:
    first = seen.first_at[:16].replace("T", " ")
    chapter = "-" if seen.chapter is None else str(seen.chapter)
    return (str(seen.card), chapter, str(seen.times), first, seen.first_road,
            str(len(seen.roads)))


def road_lines(found: StoryMap) -> list[str]:
    """Each campaign's roads as a tree: the root's whole path, each branch's own cards."""
    lines = []
    for campaign in found.campaigns:
        roads = [r for r in found.roads if r.campaign == campaign]
        lines.append(f"{campaign}")
        lines += _walk(roads, None, 1, found.current)
    return lines


def _walk(roads: list[Road], parent: str | None, depth: int, current: str) -> list[str]:
    lines = []
    for road in (r for r in roads if r.parent == parent):
        mark = "*" if road.name == current else " "
        cards = road.reaches if road.parent is None else road.own
        path = " → ".join(str(r.card) for r in cards) or "(no card)"
        parted = ""
        if road.parent is not None and road.fork is not None:
            at = road.card_at(road.fork)
            parted = f" (from {road.parent} at #{road.fork}" + \
                (f", card {at})" if at is not None else ")")
        lines.append(f"{mark} {'  ' * depth}{road.branch}{parted}: {path}")
        lines += _walk(roads, road.branch, depth + 1, current)
    return lines


# -- spire odds ------------------------------------------------------------------------------

def odds(found: dict[str, Any], advise: bool) -> None:
    """The odds `spire odds --json` gives, told to people by the game they weigh (with
    `advise`, its advice too)."""
    from journal.games.packages import package_of

    package_of(found["game"]).insight().show_odds(found, advise)
