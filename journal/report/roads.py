"""The story map as an inline SVG for the HTML report: the cards seen as nodes on a line,
in number order, and each road as arcs from card to card in the order it reached them
(an arc diagram); the current road drawn bold and dark, the others thin and grey.

Plain text, no script, a fixed size: as wide as its cards need and as tall as its highest
arc, its card numbers below it (a few cards make a small chart, not a large empty one).
Only the map's cards are drawn, and the map holds only cards the players saw; a gap between
two cards is drawn as a break in the line, never with its numbers. Every label is escaped
(road names come from the players).
"""

from __future__ import annotations

from html import escape
from itertools import pairwise
from typing import TYPE_CHECKING

from journal.report.model import plural

if TYPE_CHECKING:
    from journal.insight.mapping import Road, StoryMap

FONT = 15
STEP = 40
"""Units between two cards seen: a wide map scrolls (its figure does, in the page) rather
than shrinks its labels."""
MARGIN = 24
ROOM = 90.0
"""The highest an arc rises above the line, however far apart its two cards are."""
ABOVE, BELOW = 10, 36
"""Units above the highest arc (half the bold road's stroke, and air), and below the line
(a node's radius and the card numbers under it)."""
CURRENT, OTHER = "#1b6ca8", "#9a9a9a"


def _places(found: StoryMap) -> dict[int, float]:
    return {seen.card: MARGIN + STEP * i for i, seen in enumerate(found.cards)}


def _rise(x1: float, x2: float) -> float:
    """How high the arc between two cards peaks: higher the further apart they are."""
    return min(abs(x2 - x1) / 2, ROOM)


def _arc(x1: float, x2: float, base: float) -> str:
    """A curve above the line whose control point sits twice its rise up: a quadratic
    peaks halfway to its control point, so it rises `_rise` above the line."""
    return (f"M {x1:.0f} {base} Q {(x1 + x2) / 2:.0f} {base - 2 * _rise(x1, x2):.0f} "
            f"{x2:.0f} {base}")


def _steps(road: Road, places: dict[int, float]) -> list[tuple[float, float]]:
    """Each step of the road between two cards drawn, once: a road that goes round the
    same cards again and again (a long campaign) would otherwise draw the same arc
    thousands of times."""
    path = [places[r.card] for r in road.reaches if r.card in places]
    return list(dict.fromkeys((a, b) for a, b in pairwise(path) if a != b))


def _road_paths(road: Road, steps: list[tuple[float, float]], base: float,
                current: bool) -> list[str]:
    colour, width = (CURRENT, 3) if current else (OTHER, 1.5)
    return [f'<path d="{_arc(a, b, base)}" fill="none" stroke="{colour}" '
            f'stroke-width="{width}"><title>{escape(road.name)}</title></path>'
            for a, b in steps]


def svg(found: StoryMap) -> str:
    """The map drawn: nodes for the cards seen, arcs for the roads, the current road on top."""
    places = _places(found)
    width = MARGIN * 2 + STEP * max(len(found.cards) - 1, 0)
    roads = sorted(found.roads, key=lambda r: r.name == found.current)  # current drawn last
    steps = [_steps(road, places) for road in roads]
    highest = max((_rise(a, b) for drawn in steps for a, b in drawn), default=0.0)
    base = ABOVE + max(highest, 6.0)  # a node's circle fits with no arc at all
    height = base + BELOW
    title = escape(f"The roads taken: {plural(len(found.roads), 'road')}, "
                   f"{plural(len(found.cards), 'card')} seen")
    body = [f"<title>{title}</title>"]
    for road, drawn in zip(roads, steps, strict=True):
        body += _road_paths(road, drawn, base, road.name == found.current)
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
        (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart roads" role="img" '
         f'aria-label="{title}" width="{width:.0f}" height="{height:.0f}" '
         f'viewBox="0 0 {width:.0f} {height:.0f}" font-size="{FONT}">'),
        *body, "</svg>"])
