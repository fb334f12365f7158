"""The report as one self-contained HTML file, from the Jinja2 template
`templates/report.html.j2` with autoescaping: inline CSS, inline SVG charts, no script,
nothing fetched from anywhere, and a print stylesheet so it reads well on paper.

Whatever the players typed reaches the page through the template, escaped there; the
charts are SVG drawn by `svg`, which escapes its own labels, and are marked safe.
Jinja2 is imported here only, when an HTML report is asked for.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Callable
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any

from journal.core.dice_stats import DiceStats
from journal.report import digest, svg
from journal.report.model import (
    Dice,
    EncounterReport,
    FaceOffReport,
    Report,
    TargetReport,
    characters,
    fairness,
    has_deaths,
    path_step,
    plural,
)

if TYPE_CHECKING:
    from jinja2 import BytecodeCache, Environment
    from markupsafe import Markup

Row = tuple[object, ...]


def render(report: Report) -> str:
    """The whole report as one HTML document."""
    return _environment().get_template("report.html.j2").render(_context(report))


@cache
def _environment() -> Environment:
    from jinja2 import Environment, PackageLoader, StrictUndefined

    env = Environment(loader=PackageLoader("journal.report", "templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      keep_trailing_newline=True, bytecode_cache=_compiled())
    env.filters.update(when=when, plural=plural, characters=characters, path_step=path_step,
                       fairness=fairness, thousands=lambda n: f"{n:,}")
    env.tests.update(target=lambda x: isinstance(x, TargetReport),
                     face_off=lambda x: isinstance(x, FaceOffReport))
    env.globals.update(_HELPERS)
    return env


def _compiled() -> BytecodeCache | None:
    """Where the template is kept compiled: the user's cache directory (platformdirs:
    ~/.cache/spire/templates on Linux), so a report compiles it once per version of the
    template, not each time (a tenth of a second). Best effort: without a directory that
    can be made, or a cache that reads, the template is compiled as before."""
    from jinja2 import FileSystemBytecodeCache
    from jinja2.bccache import Bucket
    from platformdirs import user_cache_path

    class Kept(FileSystemBytecodeCache):
        def load_bytecode(self, bucket: Bucket) -> None:
            try:
                super().load_bytecode(bucket)
            except (OSError, ValueError, EOFError, TypeError):  # damaged: compiled afresh
                bucket.reset()

        def dump_bytecode(self, bucket: Bucket) -> None:
            with contextlib.suppress(OSError):  # a full disk or a read-only home: not kept
                super().dump_bytecode(bucket)

    where = user_cache_path("spire", appauthor=False) / "templates"
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return Kept(str(where))


def _roads(report: Report) -> Any:
    """The story map as an inline SVG (it escapes its own labels), or None."""
    found = report.story_map
    if found is None or not found.cards:
        return None
    from markupsafe import Markup

    from journal.report import roads

    return Markup(roads.svg(found))  # noqa: S704 (roads.svg escapes every label it writes)


def when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M %Z").strip()


def _context(report: Report) -> dict[str, Any]:
    cards, before = digest.path(report)
    undos, undos_before = digest.undos(report)
    return {
        "r": report, "c": report.campaign, "cards": cards, "cards_before": before,
        "timeline": digest.timeline(report), "encounters": (shown := digest.encounters(report)),
        "summary_rows": [(g.kind, g.name, g.count, g.outcome_text, f"#{g.first}", f"#{g.last}")
                         for g in shown.groups],
        "milestone_rows": [(f"M{m.number}", f"#{m.retrieved}", _at(m.discarded))
                           for m in report.milestones],
        "trade_rows": [(t.item, t.price, f"#{t.position}", _at(t.bought))
                       for t in report.trades],
        "waterfall_lines": [
            f"{w.event} (#{w.laid}): chose {', '.join(w.chosen) or 'nothing yet'}"
            + (f"; ended on card {w.ended}" if w.ended is not None else "; under way")
            for w in report.waterfalls],
        "roads": _roads(report),
        "resources_chart": _resources_chart(report), "resource_rows": _resource_rows(report),
        "item_rows": [(i.name, i.kind, " → ".join("aside" if h is None else h for h in i.holders),
                       f"#{i.gained}", _at(i.lost)) for i in report.items],
        "deaths_kept": has_deaths(report),
        "death_lines": [f"{d.name} fell at #{d.position}" for d in report.deaths],
        "override_rows": [(f"#{o.position}", o.says + (" (undone)" if o.undone else ""),
                           o.reason) for o in report.overrides],
        "undo_rows": [(f"#{u.position}", "; ".join(f"#{p} {s}" for p, s in u.undid))
                      for u in undos],
        "undos_left_out": undos_before,
    }


def _at(position: int | None) -> str:
    return "" if position is None else f"#{position}"


def _safe(chart: str) -> Markup:
    from markupsafe import Markup

    return Markup(chart)  # svg.py escapes every label it draws


# -- what the template asks of an encounter or a die -------------------------------------

def _target_rows(t: TargetReport) -> list[Row]:
    return [*((f"set {i}", n) for i, n in enumerate(t.set_bullseyes, 1)), ("total", t.bullseyes)]


def _target_chart(t: TargetReport) -> Markup:
    # The bullseyes add up over the sets: the bars climb to the limit, so a hit reaches it.
    sets = [f"after set {i}" for i in range(1, len(t.set_bullseyes) + 1)]
    running = list(itertools.accumulate(t.set_bullseyes))
    return _safe(svg.bars(f"{t.name}: bullseyes so far after each set", sets,
                          [("bullseyes so far", running)], limit=t.bullseye_limit))


def _face_off_chart(f: FaceOffReport) -> Markup:
    return _safe(svg.bars(
        f"Face-off with {f.name}: bullseyes and hits per round",
        [f"round {r.label}" for r in f.rounds],
        [("bullseyes", [r.bullseyes for r in f.rounds]), ("hits", [r.hits for r in f.rounds])]))


def _fight_chart(f: EncounterReport) -> Markup:
    return _safe(svg.bars(
        f"{f.noun} with {f.name}: damage per round", [f"round {r.number}" for r in f.rounds],
        [("dealt", [r.dealt for r in f.rounds]), ("taken", [r.taken for r in f.rounds])]))


def _allies(f: EncounterReport) -> str:
    return ", ".join(f"{a.name} (HP {a.hp}/{a.hp_max}, AP {a.ap}/{a.ap_max}, {a.fate})"
                     for a in f.allies)


def _die_head(dice: Dice, kind: DiceStats) -> list[str]:
    """A die both the players and the enemies roll has a column for each and one for all
    (and, to fit a phone, no fair share: the expected count and the chart's mark give it)."""
    split = dice.split(kind)
    if split is None:
        return ["face", "rolled", "fair share", "expected"]
    return ["face", *split.who, "in all", "expected"]


def _die_rows(dice: Dice, kind: DiceStats) -> list[Row]:
    """Each face's count (by the players and by the enemies, for a die both roll, then
    in all, with a row of totals), a fair die's share, and what a fair die gives."""
    split = dice.split(kind)
    by = split.counts if split else [()] * len(kind.faces)
    rows: list[Row] = []
    for f, theirs in zip(kind.faces, by, strict=True):
        expected = f.expected(kind.total)
        share = () if split else ("" if f.share is None else str(f.share),)
        rows.append((f.face, *theirs, f.count, *share,
                     "" if expected is None else f"{expected:.1f}"))
    if split:
        rows.append(("total", *split.totals(), kind.total, f"{kind.total:.1f}"))
    return rows


def _die_chart(kind: DiceStats) -> Markup | str:
    if not kind.total or any(f.share is None for f in kind.faces):
        return ""
    return _safe(svg.bars(
        f"{kind.die}: faces rolled against a fair die", [f.face for f in kind.faces],
        [("rolled", [f.count for f in kind.faces])],
        fair=[f.expected(kind.total) or 0.0 for f in kind.faces]))


def _resources_chart(report: Report) -> Markup | str:
    if not report.resources:
        return ""
    chapters = [(c.position, f"ch {c.number}") for c in report.chapters]
    return _safe(svg.steps("Resources over time",
                           [(s.resource, s.points) for s in report.resources],
                           report.campaign.events, chapters))


def _resource_rows(report: Report) -> list[Row]:
    rows: list[Row] = []
    for s in report.resources:
        kept, before = digest.series(s.points)
        changes = ", ".join(f"#{at}: {v}" for at, v in kept)
        rows.append((s.resource, s.points[0][1], s.points[-1][1],
                     f"… {before:,} earlier, then {changes}" if before else changes))
    return rows


_HELPERS: dict[str, Callable[..., object]] = {
    "target_rows": _target_rows, "target_chart": _target_chart,
    "face_off_chart": _face_off_chart,
    "face_off_enemies": lambda f: [(x.name, x.bullseyes, x.bullseye_limit,
                                    "yes" if x.defeated else "no") for x in f.enemies],
    "face_off_rounds": lambda f: [(r.label if r.under_way else r.number, r.bullseyes, r.hits)
                                  for r in f.rounds],
    "fight_chart": _fight_chart, "allies": _allies,
    "fight_enemies": lambda f: [(x.name, f"{x.hp}/{x.hp_max}", f"{x.ap}/{x.ap_max}", x.fate)
                                for x in f.enemies],
    "fight_rounds": lambda f: [(r.number, r.dealt, r.taken) for r in f.rounds],
    "beats": lambda f: [(f"#{b.position}", b.round, b.says,
                         "; ".join(d.replace("->", "→") for d in b.did)) for b in f.beats],
    "die_head": _die_head, "die_rows": _die_rows, "die_chart": _die_chart,
}
