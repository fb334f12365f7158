"""Small inline SVG charts for the HTML report: step lines and grouped bars.

Plain strings, no library and no script: each chart has a fixed width, height and
viewBox, so it has a size before any stylesheet applies, and prints as drawn. Colours
come with dash patterns, so the lines stay apart on a black-and-white printout. Every
label is escaped: resource, card and enemy names come from the players.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from html import escape

WIDTH, HEIGHT = 560, 220
LEFT, RIGHT, TOP, BOTTOM = 44, 16, 30, 34
COLOURS = ("#1b6ca8", "#c8553d", "#2e8b57", "#8a5a00", "#6a4c93", "#444444")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")

_FADED = ' fill-opacity="0.45" stroke="#444444" stroke-dasharray="3 2"'
"""Every second series of bars is drawn faded with a dashed edge: apart in grey too."""

Points = Sequence[tuple[int, int]]
Scale = Callable[[int], float]


def _plot_size() -> tuple[int, int]:
    return WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM


def nice_top(value: float) -> int:
    """The axis top: the smallest of 1, 2, 5 x 10^k (or a small whole number) above `value`."""
    if value <= 5:
        return max(1, math.ceil(value))
    power = 10 ** math.floor(math.log10(value))
    return next(int(m * power) for m in (1, 2, 5, 10) if m * power >= value)


def _ticks(top: int) -> list[int]:
    step = max(1, math.ceil(top / 5))
    return list(range(0, top + 1, step))


def _svg(label: str, body: list[str]) -> str:
    title = escape(label)
    return "\n".join([
        (f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" '
         f'aria-label="{title}" width="{WIDTH}" height="{HEIGHT}" '
         f'viewBox="0 0 {WIDTH} {HEIGHT}">'),
        f"<title>{title}</title>", *body, "</svg>"])


def _y_axis(top: int) -> list[str]:
    width, height = _plot_size()
    out = []
    for tick in _ticks(top):
        y = TOP + height - height * tick / top
        out.append(f'<line class="grid" x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + width}" '
                   f'y2="{y:.1f}"/>')
        out.append(f'<text class="tick" x="{LEFT - 6}" y="{y + 4:.1f}" '
                   f'text-anchor="end">{tick}</text>')
    return out


def _legend(names: Sequence[str], swatch: str = "line") -> list[str]:
    out, x = [], LEFT
    for i, name in enumerate(names):
        colour, dash = COLOURS[i % len(COLOURS)], DASHES[i % len(DASHES)]
        if swatch == "bar":
            out.append(f'<rect x="{x}" y="7" width="22" height="12" fill="{colour}"'
                       f'{_FADED if i % 2 else ""}/>')
        else:
            out.append(f'<line x1="{x}" y1="14" x2="{x + 22}" y2="14" stroke="{colour}" '
                       f'stroke-width="3" stroke-dasharray="{dash}"/>')
        out.append(f'<text class="legend" x="{x + 28}" y="18">{escape(name)}</text>')
        x += 40 + 8 * len(name)
    return out


def steps(label: str, series: Sequence[tuple[str, Points]], last: int) -> str:
    """Values over event positions 1..`last`, each held until it changes."""
    width, height = _plot_size()
    top = nice_top(max((v for _, points in series for _, v in points), default=1))
    low = min((v for _, points in series for _, v in points), default=0)
    low = min(low, 0)
    span = max(last - 1, 1)

    def x(at: int) -> float:
        return LEFT + width * (at - 1) / span

    def y(value: int) -> float:
        return TOP + height - height * (value - low) / (top - low)

    body = _y_axis(top) if low == 0 else []
    for i, (name, points) in enumerate(series):
        body.append(_step_path(points, last, x, y, i))
    body += _x_labels([(x(1), "#1"), (x(last), f"#{last}")])
    return _svg(label, body + _legend([name for name, _ in series]))


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


def _x_labels(labels: Sequence[tuple[float, str]]) -> list[str]:
    _, height = _plot_size()
    base = TOP + height
    out = [f'<line class="axis" x1="{LEFT}" y1="{base}" x2="{WIDTH - RIGHT}" y2="{base}"/>']
    for x, text in labels:
        out.append(f'<text class="tick" x="{x:.1f}" y="{base + 18}" '
                   f'text-anchor="middle">{escape(text)}</text>')
    return out


def bars(label: str, categories: Sequence[str], groups: Sequence[tuple[str, Sequence[float]]],
         limit: float | None = None) -> str:
    """Grouped bars: one group of bars per category, one bar per named series; `limit`
    draws a dashed line (a target's bullseye limit)."""
    width, height = _plot_size()
    highest = max([v for _, values in groups for v in values] + [limit or 0, 1])
    top = nice_top(highest)
    band = width / max(len(categories), 1)
    bar = band * 0.7 / max(len(groups), 1)
    body = _y_axis(top)
    for g, (_, values) in enumerate(groups):
        for c, value in enumerate(values):
            x = LEFT + band * c + band * 0.15 + bar * g
            h = height * value / top
            body.append(_bar(x, TOP + height - h, bar, h, g, value))
    if limit is not None:
        y = TOP + height - height * limit / top
        body.append(f'<line class="limit" x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + width}" '
                    f'y2="{y:.1f}"/>')
        body.append(f'<text class="tick" x="{LEFT + width}" y="{y - 4:.1f}" '
                    f'text-anchor="end">limit {limit:g}</text>')
    body += _x_labels([(LEFT + band * (c + 0.5), name) for c, name in enumerate(categories)])
    return _svg(label, body + _legend([name for name, _ in groups], "bar"))


def _bar(x: float, y: float, width: float, height: float, index: int, value: float) -> str:
    colour = COLOURS[index % len(COLOURS)]
    shown = f"{value:.1f}" if value != int(value) else f"{value:.0f}"
    faded = _FADED if index % 2 else ""
    return (f'<rect class="bar" x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" '
            f'height="{height:.1f}" fill="{colour}"{faded}/>'
            f'<text class="value" x="{x + width / 2:.1f}" y="{y - 3:.1f}" '
            f'text-anchor="middle">{shown}</text>')
