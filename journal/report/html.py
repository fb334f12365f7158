"""The report as one self-contained HTML file: inline CSS, inline SVG charts, no script,
nothing fetched from anywhere, and a print stylesheet so it reads well on paper.

Every text the players typed goes through `html.escape` (the `e` below) on its way in:
a note that holds markup shows the markup as text.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from datetime import datetime
from html import escape

from journal.dice_stats import DiceStats
from journal.report import svg
from journal.report.model import (
    Encounter,
    EncounterReport,
    FaceOffReport,
    Report,
    TargetReport,
    TimelineEntry,
    characters,
    fairness,
    has_deaths,
    path_step,
    plural,
)

CSS = """
:root { color-scheme: light; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d1d1d;
       max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.8rem; margin-bottom: .2rem; }
h2 { font-size: 1.3rem; border-bottom: 1px solid #ccc; margin-top: 2rem; }
h3 { font-size: 1.05rem; margin-bottom: .3rem; }
.lede { color: #444; margin-top: 0; }
.standing { background: #f3f1ea; border-left: 4px solid #8a5a00; padding: .5rem .8rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border: 1px solid #ccc; padding: .2rem .6rem; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
figure { margin: .5rem 0 1.2rem; }
figcaption { font-size: .85rem; color: #555; }
svg.chart { max-width: 100%; height: auto; display: block; }
table { display: block; max-width: 100%; overflow-x: auto; }
code { overflow-wrap: anywhere; }
svg .grid { stroke: #e2e2e2; stroke-width: 1; }
svg .axis { stroke: #888; stroke-width: 1; }
svg .limit { stroke: #c8553d; stroke-width: 1.5; stroke-dasharray: 5 3; }
svg text { font-family: system-ui, sans-serif; font-size: 15px; fill: #333; }
svg .fair { stroke: #111; stroke-width: 2; stroke-dasharray: 4 3; }
svg text.value { paint-order: stroke; stroke: #fff; stroke-width: 4px; stroke-linejoin: round; }
svg .chapter { stroke: #999; stroke-width: 1; stroke-dasharray: 2 3; }
.path { word-spacing: .1rem; }
ol.timeline { list-style: none; padding-left: 0; }
ol.timeline li { padding: .1rem 0; }
ol.timeline li.chapter, ol.timeline li.checkpoint { margin-top: .4rem; }
ol.timeline li.note { font-style: italic; }
ol.timeline li.death { color: #8b1e1e; }
.luck { font-weight: 600; }
.muted { color: #666; }
@media print {
  @page { margin: 14mm; }
  body { font-size: 10.5pt; max-width: none; margin: 0; padding: 0; color: #000; }
  h2 { break-after: avoid; }
  h3 { break-after: avoid; }
  table, figure, .encounter { break-inside: avoid; }
  th { background: none; }
  .standing { background: none; border-left-color: #000; }
  svg.chart { max-width: 16cm; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""


def e(value: object) -> str:
    """Escaped text, quotes included (safe in an attribute as well as in content)."""
    return escape(str(value), quote=True)


def when(moment: datetime) -> str:
    return e(moment.strftime("%Y-%m-%d %H:%M %Z").strip())


def table(head: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A table of escaped cells; whole numbers align right."""
    out = ["<table>", "<tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr>"]
    for row in rows:
        cells = "".join(
            f'<td class="n">{cell}</td>' if isinstance(cell, int) else f"<td>{e(cell)}</td>"
            for cell in row)
        out.append(f"<tr>{cells}</tr>")
    return "\n".join([*out, "</table>"])


def figure(chart: str, caption: str) -> str:
    return f"<figure>\n{chart}\n<figcaption>{e(caption)}</figcaption>\n</figure>"


def render(report: Report) -> str:
    """The whole report as one HTML document."""
    c = report.campaign
    sections = [_campaign(report), _timeline(report), _encounters(report),
                _world(report), _resources(report), _items(report), _deaths(report),
                _corrections(report), _dice(report)]
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(c.name)}: play report</title>", f"<style>{CSS}</style>", "</head>",
        "<body>", *sections, "</body>", "</html>", ""])


def _section(title: str, *parts: str) -> str:
    return "\n".join([f"<section>\n<h2>{e(title)}</h2>", *parts, "</section>"])


def _campaign(report: Report) -> str:
    c = report.campaign
    who = f"; {e(characters(c.characters))}" if c.characters else ""
    branch = f"branch <strong>{e(c.branch)}</strong>"
    if c.parent is not None:
        branch += f", forked from <strong>{e(c.parent)}</strong> at #{c.fork}"
    return "\n".join([
        "<header>", f"<h1>{e(c.name)}: play report</h1>",
        f'<p class="lede">{e(c.title)}, {e(plural(c.players, "player"))}{who}; {branch}.</p>',
        (f"<p>First event {when(c.first_at)}, last event {when(c.last_at)}; "
         f"{e(plural(c.events, 'event'))} on the branch.</p>"),
        f'<p class="standing"><strong>Where it stands:</strong> {e(c.standing)}</p>',
        (f"<p>Head hash <code>{e(c.head_hash)}</code>: <code>spire audit --expect "
         f"{e(c.head_hash[:12])}</code> checks a journal against it.</p>"),
        "</header>"])


def _timeline(report: Report) -> str:
    """The path of cards in one line, then everything in the order it happened."""
    path = " → ".join(path_step(s) for s in report.path) or "no card revealed yet"
    items = "\n".join(_moment(m) for m in report.timeline)
    return _section("Timeline", f'<p class="path"><strong>Path of cards:</strong> {e(path)}</p>',
                    f'<ol class="timeline">\n{items}\n</ol>' if items else "")


def _moment(m: TimelineEntry) -> str:
    if m.kind == "note":
        return (f'<li class="note">#{m.position} note ({when(m.at)}): '
                f"<q>{e(m.text)}</q></li>")
    if m.kind in ("chapter", "checkpoint"):
        return f'<li class="{m.kind}">#{m.position} <strong>{e(m.text)}</strong></li>'
    return f'<li class="{m.kind}">#{m.position} {e(m.text)}</li>'


def _world(report: Report) -> str:
    """Milestones, Trading Post Cards and waterfall events; nothing if there were none."""
    if not (report.milestones or report.trades or report.waterfalls):
        return ""
    parts = []
    if report.milestones:
        parts.append(table(["milestone", "retrieved", "left play"], (
            (f"M{m.number}", f"#{m.retrieved}", "" if m.discarded is None else f"#{m.discarded}")
            for m in report.milestones)))
    if report.trades:
        parts.append(table(["trading post card", "price", "revealed", "bought"], (
            (t.item, t.price, f"#{t.position}", "" if t.bought is None else f"#{t.bought}")
            for t in report.trades)))
    if report.waterfalls:
        parts.append(_facts([
            f"{w.event} (#{w.laid}): chose {', '.join(w.chosen) or 'nothing yet'}"
            + (f"; ended on card {w.ended}" if w.ended is not None else "; under way")
            for w in report.waterfalls]))
    return _section("Milestones, trading and waterfall events", *parts)


def _encounters(report: Report) -> str:
    if not report.encounters:
        return _section("Encounters", "<p>No encounters.</p>")
    return _section("Encounters", *(_encounter(x) for x in report.encounters))


def _encounter(x: Encounter) -> str:
    if isinstance(x, EncounterReport):
        inner = _fight(x)
    else:
        inner = _target(x) if isinstance(x, TargetReport) else _face_off(x)
    return f'<div class="encounter">\n{inner}\n</div>'


def _fight(f: EncounterReport) -> str:
    allies = ", ".join(f"{a.name} (HP {a.hp}/{a.hp_max}, AP {a.ap}/{a.ap_max}, {a.fate})"
                       for a in f.allies)
    facts = [f"Allies: {allies}", f"Events: {_span(f)}", f"Outcome: {f.outcome or 'under way'}"]
    rounds = [f"round {r.number}" for r in f.rounds]
    chart = figure(svg.bars(
        f"{f.noun} with {f.name}: damage per round", rounds,
        [("dealt", [r.dealt for r in f.rounds]), ("taken", [r.taken for r in f.rounds])]),
        f"{f.noun} with {f.name}: the damage the allies dealt and took per round")
    beats = table(["#", "round", "what happened", "what it did"], (
        (f"#{b.position}", b.round, b.says, "; ".join(d.replace("->", "→") for d in b.did))
        for b in f.beats)) if f.beats else ""
    return "\n".join([
        f"<h3>{e(f.noun)}: {e(f.name)}</h3>", _facts(facts),
        table(["enemy", "HP", "AP", "fate"], (
            (x.name, f"{x.hp}/{x.hp_max}", f"{x.ap}/{x.ap_max}", x.fate) for x in f.enemies)),
        table(["round", "damage dealt", "damage taken"],
              ((r.number, r.dealt, r.taken) for r in f.rounds)),
        chart, beats])


def _span(x: Encounter) -> str:
    return f"#{x.started}" + (f" to #{x.ended}" if x.ended is not None else ", under way")


def _target(t: TargetReport) -> str:
    number = f" {t.number}" if t.number is not None else ""
    facts = [(f"Card{number}: {plural(t.bullseye_limit, 'bullseye')} to hit, accuracy "
              f"{t.accuracy}, {plural(t.sets, 'set')}, parts {', '.join(t.parts)}"),
             f"Shooter: {t.shooter}; {_span(t)}"]
    if t.reward:
        facts.append(f"Reward: {t.reward}")
    if t.bonus:
        facts.append(f"Bonus: {t.bonus} ({'reached' if t.bonus_awarded else 'not reached'})")
    facts.append(f"Outcome: {t.result}")
    sets = [f"after set {i}" for i in range(1, len(t.set_bullseyes) + 1)]
    running = list(itertools.accumulate(t.set_bullseyes))
    # The bullseyes add up over the sets: the bars climb to the limit, so a hit reaches it.
    chart = figure(svg.bars(f"{t.name}: bullseyes so far after each set", sets,
                            [("bullseyes so far", running)], limit=t.bullseye_limit),
                   f"{t.name}: the bullseyes added up set by set, against the limit of "
                   f"{t.bullseye_limit}") if sets else "<p class=\"muted\">No set finished yet.</p>"
    rows = [*((f"set {i}", n) for i, n in enumerate(t.set_bullseyes, 1)), ("total", t.bullseyes)]
    return "\n".join([f"<h3>Target: {e(t.name)}</h3>", _facts(facts),
                      table(["set", "bullseyes"], rows), chart])


def _facts(facts: Sequence[str]) -> str:
    return "<ul>\n" + "\n".join(f"<li>{e(f)}</li>" for f in facts) + "\n</ul>"


def _face_off(f: FaceOffReport) -> str:
    outcome: str = "under way" if f.outcome is None else f.outcome
    if f.next_card is not None:
        outcome += f"; card {f.next_card} next"
    facts = [(f"Meter: {f.meter}, accuracy {f.accuracy}, {f.hits} of "
              f"{plural(f.squares, 'square')} hit, {plural(f.blocks, 'block')}"),
             f"Events: {_span(f)}", f"Outcome: {outcome}"]
    rounds = [f"round {r.number}" for r in f.rounds]
    chart = figure(svg.bars(
        f"Face-off with {f.name}: bullseyes and hits per round", rounds,
        [("bullseyes", [r.bullseyes for r in f.rounds]), ("hits", [r.hits for r in f.rounds])]),
        f"Face-off with {f.name}: the players' bullseyes and the enemies' hits per round")
    return "\n".join([
        f"<h3>Face-off: {e(f.name)}</h3>", _facts(facts),
        table(["enemy", "bullseyes", "limit", "defeated"], (
            (x.name, x.bullseyes, x.bullseye_limit, "yes" if x.defeated else "no")
            for x in f.enemies)),
        table(["round", "bullseyes", "hits"], ((r.number, r.bullseyes, r.hits) for r in f.rounds)),
        chart])


def _resources(report: Report) -> str:
    if not report.resources:
        return _section("Resources over time", "<p>No resources kept.</p>")
    last = report.campaign.events
    chapters = [(c.position, f"ch {c.number}") for c in report.chapters]
    chart = svg.steps("Resources over time", [(s.resource, s.points) for s in report.resources],
                      last, chapters)
    rows = [(s.resource, s.points[0][1], s.points[-1][1],
             ", ".join(f"#{at}: {v}" for at, v in s.points)) for s in report.resources]
    return _section("Resources over time",
                    figure(chart, f"Each resource from #1 to #{last}, as it changed"
                           + ("; the dotted lines mark where each chapter began" if chapters
                              else "")),
                    table(["resource", "start", "end", "changes"], rows))


def _items(report: Report) -> str:
    if not report.items:
        return _section("Items", "<p>No items.</p>")
    return _section("Items", table(["item", "kind", "carried by", "gained", "lost"], (
        (i.name, i.kind, " → ".join("aside" if h is None else h for h in i.holders),
         f"#{i.gained}", "" if i.lost is None else f"#{i.lost}") for i in report.items)))


def _deaths(report: Report) -> str:
    if not has_deaths(report):
        return ""
    if not report.deaths:
        return _section("Deaths", "<p>No character's HP reached 0.</p>")
    return _section("Deaths", _facts([f"{d.name} fell at #{d.position}" for d in report.deaths]))


def _corrections(report: Report) -> str:
    parts = []
    if report.overrides:
        parts.append(table(["#", "forced", "rule overridden"], (
            (f"#{o.position}", o.says + (" (undone)" if o.undone else ""), o.reason)
            for o in report.overrides)))
    if report.undos:
        parts.append(table(["#", "undid"], (
            (f"#{u.position}", "; ".join(f"#{p} {s}" for p, s in u.undid))
            for u in report.undos)))
    return _section("Overrides and undos", *parts or ["<p>No overrides and no undos.</p>"])


def _dice(report: Report) -> str:
    parts = [_die(kind) for kind in report.dice.kinds]
    parts.append(f'<p class="luck">{e(report.dice.luck_line)}</p>')
    return _section("Dice", *parts)


def _die(kind: DiceStats) -> str:
    rows = []
    for f in kind.faces:
        expected = f.expected(kind.total)
        rows.append((f.face, f.count, "" if f.share is None else str(f.share),
                     "" if expected is None else f"{expected:.1f}"))
    parts = [f"<h3>{e(kind.die.capitalize())}</h3>",
             table(["face", "rolled", "fair share", "expected"], rows), f"<p>{e(fairness(kind))}</p>"]
    if kind.total and all(f.share is not None for f in kind.faces):
        parts.append(figure(svg.bars(
            f"{kind.die}: faces rolled against a fair die", [f.face for f in kind.faces],
            [("rolled", [f.count for f in kind.faces])],
            fair=[f.expected(kind.total) or 0.0 for f in kind.faces]),
            f"{kind.die.capitalize()}: each face's count, the dashed mark what a fair die "
            f"gives in {kind.total} rolls"))
    return "\n".join(parts)

