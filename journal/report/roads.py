"""The story map as an inline SVG for the HTML report: the cards seen as nodes on a line,
in number order, and each road as arcs from card to card in the order it reached them
(an arc diagram); the current road drawn bold and dark, the others thin and grey.

Plain text, no script, a fixed size. Only the map's cards are drawn, and the map holds only
cards the players saw; a gap between two cards is drawn as a break in the line, never with
its numbers. Every label is escaped (road names come from the players).
"""

from __future__ import annotations

from html import escape
from itertools import pairwise
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from journal.insight.mapping import Road, StoryMap

WIDTH = 480
FONT = 15
STEP = 40
"""Units between two cards seen: a wide map scrolls rather than shrinks its labels."""
MARGIN = 24
CURRENT, OTHER = "#1b6ca8", "#9a9a9a"


def _places(found: StoryMap) -> dict[int, float]:
    return {seen.card: MARGIN + STEP * i for i, seen in enumerate(found.cards)}


def _arc(x1: float, x2: float, base: float, room: float) -> str:
    """A half-ellipse above the line, higher the further the cards are apart."""
    rise = min(abs(x2 - x1) / 2, room)
    return f"M {x1:.0f} {base} Q {(x1 + x2) / 2:.0f} {base - 2 * rise:.0f} {x2:.0f} {base}"


def _road_paths(road: Road, places: dict[int, float], base: float, room: float,
                current: bool) -> list[str]:
    path = [places[r.card] for r in road.reaches if r.card in places]
    colour, width = (CURRENT, 3) if current else (OTHER, 1.5)
    # Each step between two cards drawn once: a road that goes round the same cards again
    # and again (a long campaign) would otherwise draw the same arc thousands of times.
    steps = dict.fromkeys((a, b) for a, b in pairwise(path) if a != b)
    return [f'<path d="{_arc(a, b, base, room)}" fill="none" stroke="{colour}" '
            f'stroke-width="{width}"><title>{escape(road.name)}</title></path>'
            for a, b in steps]


def svg(found: StoryMap) -> str:
    """The map drawn: nodes for the cards seen, arcs for the roads, the current road on top."""
    places = _places(found)
    width = max(WIDTH, MARGIN * 2 + STEP * max(len(found.cards) - 1, 0))
    room = 90.0
    base = 16 + 2 * room
    height = base + 40
    title = escape(f"The roads taken: {len(found.roads)} roads, {len(found.cards)} cards seen")
    body = [f"<title>{title}</title>"]
    roads = sorted(found.roads, key=lambda r: r.name == found.current)  # current drawn last
    for road in roads:
        body += _road_paths(road, places, base, room, road.name == found.current)
    gaps = {g.after for g in found.gaps}
    for seen in found.cards:
        x = places[seen.card]
        body.append(f'<circle cx="{x:.0f}" cy="{base:.0f}" r="6" fill="#ffffff" '
                    f'stroke="#222222" stroke-width="1.5"><title>card {seen.card}: reached '
                    f'{seen.times} times</title></circle>')
        body.append(f'<text x="{x:.0f}" y="{base + 26:.0f}" text-anchor="middle">'
                    f"{seen.card}</text>")
        if seen.card in gaps:  # numbers skipped: a break between this card and the next
            body.append(f'<text x="{x + STEP / 2:.0f}" y="{base + 5:.0f}" '
                        f'text-anchor="middle" fill="#666666">…</text>')
    return "\n".join([
        (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" '
         f'aria-label="{title}" width="{width:.0f}" height="{height:.0f}" '
         f'viewBox="0 0 {width:.0f} {height:.0f}" font-size="{FONT}">'),
        *body, "</svg>"])
