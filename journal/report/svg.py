"""Small inline SVG charts for the HTML report: step lines and bars.

Plain strings, no library and no script: each chart has a fixed width, height and
viewBox, so it has a size before any stylesheet applies, and prints as drawn. Colours
come with dash patterns, so the lines stay apart on a black-and-white printout. Every
label is escaped: resource, card and enemy names come from the players.

Legible on a phone: the charts are drawn 480 units wide with 15-unit text, so on a
screen 400 px wide (a 368 px column) the smallest text is still above 11 px. The legend
has rows of its own above the plot, so it never sits over a label or a bar.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape

WIDTH = 480
PLOT_HEIGHT = 170
LEFT, RIGHT, BOTTOM = 44, 16, 34
FONT = 15
"""Text size in the chart's own units; 15 x 368 / 480 is 11.5 px on a 400 px phone."""
LEGEND_ROW = 22
COLOURS = ("#1b6ca8", "#c8553d", "#2e8b57", "#8a5a00", "#6a4c93", "#444444")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")
CHAR = 0.6 * FONT
"""A generous width for one character of the chart's text, to lay the legend out."""

_FADED = ' fill-opacity="0.45" stroke="#444444" stroke-dasharray="3 2"'
"""Every second series of bars is drawn faded with a dashed edge: apart in grey too."""

Points = Sequence[tuple[int, int]]
Scale = Callable[[int], float]


class Frame:
    """Where the plot sits: below the legend's rows, above the x labels."""

    def __init__(self, legend_rows: int) -> None:
        self.top = 14 + LEGEND_ROW * legend_rows
        self.width = WIDTH - LEFT - RIGHT
        self.height = PLOT_HEIGHT
        self.base = self.top + self.height
        self.total = self.base + BOTTOM

    def y(self, value: float, top: float, low: float = 0) -> float:
        return self.base - self.height * (value - low) / (top - low)


def nice_top(value: float) -> int:
    """The axis top: the smallest of 1, 2, 5 x 10^k (or a small whole number) above `value`."""
    if value <= 5:
        return max(1, math.ceil(value))
    power = 10 ** math.floor(math.log10(value))
    return next(int(m * power) for m in (1, 2, 5, 10) if m * power >= value)


def _ticks(top: int) -> list[int]:
    step = max(1, math.ceil(top / 5))
    return list(range(0, top + 1, step))


def _svg(label: str, frame: Frame, body: list[str]) -> str:
    title = escape(label)
    return "\n".join([
        (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" '
         f'aria-label="{title}" width="{WIDTH}" height="{frame.total}" '
         f'viewBox="0 0 {WIDTH} {frame.total}" font-size="{FONT}">'),
        f"<title>{title}</title>", *body, "</svg>"])


def _y_axis(frame: Frame, top: int) -> list[str]:
    out = []
    for tick in _ticks(top):
        y = frame.y(tick, top)
        out.append(f'<line class="grid" x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + frame.width}" '
                   f'y2="{y:.1f}"/>')
        out.append(f'<text class="tick" x="{LEFT - 6}" y="{y + 5:.1f}" '
                   f'text-anchor="end">{tick}</text>')
    return out


Swatch = tuple[str, str]
"""A legend entry: its name and how it is drawn ("line", "bar", "mark", "limit")."""


def _legend_places(entries: Sequence[Swatch]) -> list[tuple[float, int]]:
    """Each entry's x and row: rows of their own, wrapped at the chart's width."""
    places, x, row = [], float(LEFT), 0
    for name, _ in entries:
        width = 30 + CHAR * len(name) + 14
        if x + width > WIDTH - RIGHT and x > LEFT:
            x, row = float(LEFT), row + 1
        places.append((x, row))
        x += width
    return places


def legend_rows(entries: Sequence[Swatch]) -> int:
    places = _legend_places(entries)
    return (places[-1][1] + 1) if places else 0


def _legend(entries: Sequence[Swatch]) -> list[str]:
    out = []
    places = _legend_places(entries)
    for i, ((name, swatch), (x, row)) in enumerate(zip(entries, places, strict=True)):
        y = 14 + LEGEND_ROW * row
        colour, dash = COLOURS[i % len(COLOURS)], DASHES[i % len(DASHES)]
        if swatch == "bar":
            out.append(f'<rect x="{x:.1f}" y="{y - 12}" width="22" height="13" fill="{colour}"'
                       f'{_FADED if i % 2 else ""}/>')
        elif swatch in ("mark", "limit"):
            out.append(f'<line class="{"fair" if swatch == "mark" else "limit"}" '
                       f'x1="{x:.1f}" y1="{y - 5}" x2="{x + 22:.1f}" y2="{y - 5}"/>')
        else:
            out.append(f'<line x1="{x:.1f}" y1="{y - 5}" x2="{x + 22:.1f}" y2="{y - 5}" '
                       f'stroke="{colour}" stroke-width="3" stroke-dasharray="{dash}"/>')
        out.append(f'<text class="legend" x="{x + 28:.1f}" y="{y}">{escape(name)}</text>')
    return out


def steps(label: str, series: Sequence[tuple[str, Points]], last: int,
          marks: Sequence[tuple[int, str]] = ()) -> str:
    """Values over event positions 1..`last`, each held until it changes; `marks` are
    dashed verticals at positions (the chapters). Lines that sit on the same value are
    drawn a few units apart, in their own colour and dash, so none hides another."""
    entries = [(name, "line") for name, _ in series]
    frame = Frame(legend_rows(entries))
    top = nice_top(max((v for _, points in series for _, v in points), default=1))
    low = min(0, min((v for _, points in series for _, v in points), default=0))
    span = max(last - 1, 1)

    def x(at: int) -> float:
        return LEFT + frame.width * (at - 1) / span

    body = _y_axis(frame, top) if low == 0 else []
    body += _marks(frame, [(x(at), text) for at, text in marks])
    for i, (_, points) in enumerate(series):
        apart = (i - (len(series) - 1) / 2) * 3

        def y(value: int, apart: float = apart) -> float:
            return frame.y(value, top, low) + apart

        body.append(_step_path(decimated(points, last), last, x, y, i))
    body += _x_labels(frame, [(x(1), "#1", "start"), (x(last), f"#{last}", "end")])
    return _svg(label, frame, body + _legend(entries))


def _marks(frame: Frame, marks: Sequence[tuple[float, str]]) -> list[str]:
    out = []
    for x, text in marks:
        out.append(f'<line class="chapter" x1="{x:.1f}" y1="{frame.top}" x2="{x:.1f}" '
                   f'y2="{frame.base}"/>')
        out.append(f'<text class="tick" x="{x + 3:.1f}" y="{frame.top + FONT}">'
                   f"{escape(text)}</text>")
    return out


COLUMNS = 840
"""Columns across a step chart (two to a unit of its 420-unit plot) past which a line's
changes are drawn a column at a time (`decimated`)."""


def decimated(points: Points, last: int, columns: int = COLUMNS) -> Points:
    """A line with more changes than the chart has columns, drawn as the eye sees it: in
    each column where it changed, its lowest, its highest and its last value there (the
    whole of its reach in the column, and where it leaves it). A long campaign changes a
    resource thousands of times; its chart stays a few hundred steps, and its file small."""
    if len(points) <= 2 * columns:
        return points
    per = columns / max(last - 1, 1)
    kept = [points[0]]
    column, start, low, high, end, value = -1, 0, 0, 0, 0, 0
    for at, value_at in points[1:]:
        here = int((at - 1) * per)
        if here != column:
            if column >= 0:
                kept += _column(start, low, high, end, value)
            column, start, low, high = here, at, value_at, value_at
        elif value_at < low:
            low = value_at
        elif value_at > high:
            high = value_at
        end, value = at, value_at
    return kept + _column(start, low, high, end, value)


def _column(start: int, low: int, high: int, end: int, value: int) -> list[tuple[int, int]]:
    if low == high:
        return [(start, value)]
    return [(start, low), (start, high), (end, value)]


def _step_path(points: Points, last: int, x: Scale, y: Scale, index: int) -> str:
    if not points:
        return ""
    (first_at, first), rest = points[0], points[1:]
    d = [f"M {x(first_at):.1f} {y(first):.1f}"]
    for at, value in rest:
        d.append(f"H {x(at):.1f} V {y(value):.1f}")
    d.append(f"H {x(last):.1f}")
    colour, dash = COLOURS[index % len(COLOURS)], DASHES[index % len(DASHES)]
    return (f'<path class="series" d="{" ".join(d)}" fill="none" stroke="{colour}" '
            f'stroke-width="2.5" stroke-dasharray="{dash}"/>')


def _x_labels(frame: Frame, labels: Sequence[tuple[float, str, str]]) -> list[str]:
    out = [(f'<line class="axis" x1="{LEFT}" y1="{frame.base}" x2="{WIDTH - RIGHT}" '
           f'y2="{frame.base}"/>')]
    for x, text, anchor in labels:
        out.append(f'<text class="tick" x="{x:.1f}" y="{frame.base + 20}" '
                   f'text-anchor="{anchor}">{escape(text)}</text>')
    return out


def bars(label: str, categories: Sequence[str], groups: Sequence[tuple[str, Sequence[float]]],
         limit: float | None = None, fair: Sequence[float] | None = None) -> str:
    """Grouped bars: one group of bars per category, one bar per named series; `limit`
    draws a dashed line (a target's bullseye limit); `fair` a dashed mark across each
    category at what a fair die gives."""
    entries = [(name, "bar") for name, _ in groups] + ([("fair die", "mark")] if fair else [])
    entries += [(f"limit {limit:g}", "limit")] if limit is not None else []
    frame = Frame(legend_rows(entries))
    highest = max([v for _, values in groups for v in values] + [limit or 0, 1, *(fair or ())])
    top = nice_top(highest)
    band = frame.width / max(len(categories), 1)
    bar = band * 0.7 / max(len(groups), 1)
    body = _y_axis(frame, top)
    for g, (_, values) in enumerate(groups):
        for c, value in enumerate(values):
            x = LEFT + band * c + band * 0.15 + bar * g
            h = frame.height * value / top
            body.append(_bar(x, frame.base - h, bar, h, g, value))
    for c, value in enumerate(fair or ()):
        y = frame.y(value, top)
        body.append(f'<line class="fair" x1="{LEFT + band * c + 2:.1f}" y1="{y:.1f}" '
                    f'x2="{LEFT + band * (c + 1) - 2:.1f}" y2="{y:.1f}"/>')
    if limit is not None:
        y = frame.y(limit, top)
        body.append(f'<line class="limit" x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + frame.width}" '
                    f'y2="{y:.1f}"/>')
    body += _x_labels(frame, [(LEFT + band * (c + 0.5), name, "middle")
                              for c, name in enumerate(categories)])
    return _svg(label, frame, body + _legend(entries))


def _bar(x: float, y: float, width: float, height: float, index: int, value: float) -> str:
    colour = COLOURS[index % len(COLOURS)]
    shown = f"{value:.1f}" if value != int(value) else f"{value:.0f}"
    faded = _FADED if index % 2 else ""
    return (f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" '
            f'height="{height:.1f}" fill="{colour}"{faded}/>'
            f'<text class="value" x="{x + width / 2:.1f}" y="{y - 4:.1f}" '
            f'text-anchor="middle">{shown}</text>')
