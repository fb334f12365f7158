"""The report as Markdown: headings and pipe tables, as GitHub and most viewers show them.

Whatever the players typed is escaped, so a note with `*`, `|` or `<b>` shows as typed
and cannot break a table or become markup.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime

from journal.core.dice_stats import DiceStats
from journal.report import digest
from journal.report.model import (
    Encounter,
    EncounterReport,
    FaceOffReport,
    ItemRecord,
    Report,
    Rollers,
    TargetReport,
    TimelineEntry,
    characters,
    fairness,
    has_deaths,
    path_step,
    plural,
)

_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&])")
"""What could turn typed text into markup mid-line (player text never starts a line here,
so the line-start markers # + - need no escape)."""


def text(value: str) -> str:
    """Player text made inert: Markdown punctuation backslash-escaped, on one line."""
    return _SPECIAL.sub(r"\\\1", " ".join(value.split()))


def when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M %Z").strip()


def table(head: Sequence[str], rows: Iterable[Sequence[object]]) -> list[str]:
    """A pipe table; numbers align right."""
    cells = [[str(cell) for cell in row] for row in rows]
    numeric = [bool(cells) and all(_number(r[i]) for r in cells) for i in range(len(head))]
    rule = ["---:" if n else "---" for n in numeric]
    return ["| " + " | ".join(row) + " |" for row in (list(head), rule, *cells)]


def _number(cell: str) -> bool:
    return bool(re.fullmatch(r"[#+-]?\d+(\.\d+)?%?", cell))


def render(report: Report) -> str:
    """The whole report as one Markdown document."""
    sections = [_campaign(report), _timeline(report), _roads(report), _encounters(report),
                _world(report), _resources(report), _items(report), _deaths(report),
                _corrections(report), _dice(report)]
    return "\n\n".join("\n".join(lines) for lines in sections if lines) + "\n"


def _roads(report: Report) -> list[str]:
    """The roads taken, in a line (the HTML draws them; `spire map` lists them)."""
    found = report.story_map
    if found is None or not found.cards or len(found.roads) < 2:
        return []
    campaigns = len({road.campaign for road in found.roads})
    return ["## The roads taken", "",
            f"{plural(len(found.roads), 'road')} in {plural(campaigns, 'campaign')} of this "
            f"game reached {plural(len(found.cards), 'story card')}; `spire map` shows each."]


def _world(report: Report) -> list[str]:
    """Milestones, Trading Post Cards and waterfall events; nothing if there were none."""
    if not (report.milestones or report.trades or report.waterfalls):
        return []
    lines = ["## Milestones, trading and waterfall events"]
    if report.milestones:
        lines += ["", *table(["milestone", "retrieved", "left play"], (
            (f"M{m.number}", f"#{m.retrieved}", "" if m.discarded is None else f"#{m.discarded}")
            for m in report.milestones))]
    if report.trades:
        lines += ["", *table(["trading post card", "price", "revealed", "bought"], (
            (text(t.item), t.price, f"#{t.position}", "" if t.bought is None else f"#{t.bought}")
            for t in report.trades))]
    for w in report.waterfalls:
        end = f"; ended on card {w.ended}" if w.ended is not None else "; under way"
        lines += ["", (f"- {text(w.event)} (#{w.laid}): chose "
                  f"{', '.join(w.chosen) or 'nothing yet'}{end}")]
    return lines


def _campaign(report: Report) -> list[str]:
    c = report.campaign
    who = f"; {characters(c.characters, text)}" if c.characters else ""
    branch = f"branch `{text(c.branch)}`"
    if c.parent is not None:
        branch += f", forked from `{text(c.parent)}` at #{c.fork}"
    return [
        f"# {text(c.name)}: play report", "",
        f"{c.title}, {plural(c.players, 'player')}{who}; {branch}.", "",
        (f"First event {when(c.first_at)}, last event {when(c.last_at)}; "
         f"{plural(c.events, 'event')} on the branch."), "",
        f"**Where it stands:** {text(c.standing)}", "",
        (f"Head hash `{c.head_hash}`: `spire audit --expect {c.head_hash[:12]}` checks a "
        "journal against it."),
    ]


def _timeline(report: Report) -> list[str]:
    """The path of cards in one line, then everything in the order it happened: chapters,
    cards, checkpoints, notes as they were written, encounters, deaths."""
    cards, before = digest.path(report)
    path = " → ".join(text(path_step(s)) for s in cards) or "no card revealed yet"
    if before:
        path = f"… {before:,} earlier cards … → {path}"
    lines = ["## Timeline", "", f"**Path of cards:** {path}", ""]
    shown = digest.timeline(report)
    if shown.left_out:
        lines += [(f"{shown.left_out:,} earlier cards, notes and encounters are left out here "
                  "(every chapter, checkpoint and death is kept); the JSON report has them "
                  "all."), ""]
    return lines + [_moment(m) for m in shown.entries]


def _moment(m: TimelineEntry) -> str:
    if m.kind == "note":
        return f"- #{m.position} note ({when(m.at)}): {text(m.text)}"
    if m.kind in ("chapter", "checkpoint"):
        return f"- #{m.position} **{text(m.text)}**"
    return f"- #{m.position} {text(m.text)}"


def _encounters(report: Report) -> list[str]:
    lines = ["## Encounters"]
    if not report.encounters:
        return lines + ["", "No encounters."]
    shown = digest.encounters(report)
    if shown.summarised:
        lines += ["", (f"{shown.total:,} encounters, a row for each card; below, the latest "
                       f"with each card and the notable ones ({len(shown.detailed)})."), "",
                  *table(["kind", "name", "times", "outcomes", "first", "latest"], (
                      (g.kind, text(g.name), g.count, g.outcome_text, f"#{g.first}",
                       f"#{g.last}") for g in shown.groups))]
    for encounter in shown.detailed:
        lines += ["", *_encounter(encounter)]
    return lines


def _encounter(e: Encounter) -> list[str]:
    if isinstance(e, EncounterReport):
        return _fight(e)
    return _target(e) if isinstance(e, TargetReport) else _face_off(e)


def _fight(f: EncounterReport) -> list[str]:
    allies = ", ".join(f"{text(a.name)} (HP {a.hp}/{a.hp_max}, AP {a.ap}/{a.ap_max}, {a.fate})"
                       for a in f.allies)
    lines = [f"### {f.noun}: {text(f.name)}", "", f"- Allies: {allies}",
             f"- Events: {_span(f)}", f"- Outcome: {f.outcome or 'under way'}", ""]
    lines += table(["enemy", "HP", "AP", "fate"], (
        (text(x.name), f"{x.hp}/{x.hp_max}", f"{x.ap}/{x.ap_max}", x.fate) for x in f.enemies))
    lines += ["", *table(["round", "damage dealt", "damage taken"], (
        (r.number, r.dealt, r.taken) for r in f.rounds))]
    if not f.beats:
        return lines
    return lines + ["", *table(["#", "round", "what happened", "what it did"], (
        (f"#{b.position}", b.round, text(b.says),
         "; ".join(text(d.replace("->", "→")) for d in b.did))
        for b in f.beats))]


def _span(e: Encounter) -> str:
    return f"#{e.started}" + (f" to #{e.ended}" if e.ended is not None else ", under way")


def _target(t: TargetReport) -> list[str]:
    number = f" {t.number}" if t.number is not None else ""
    card = (f"{plural(t.bullseye_limit, 'bullseye')} to hit, accuracy {t.accuracy}, "
            f"{plural(t.sets, 'set')}, parts {', '.join(t.parts)}")
    lines = [f"### Target: {text(t.name)}", "",
             f"- Card{number}: {card}", f"- Shooter: {text(t.shooter)}; {_span(t)}"]
    if t.reward:
        lines.append(f"- Reward: {t.reward}")
    if t.bonus:
        lines.append(f"- Bonus: {t.bonus} ({'reached' if t.bonus_awarded else 'not reached'})")
    if t.chance is not None:
        lines.append(f"- Chance: {t.chance_text}")
    lines.append(f"- Outcome: {t.result}")
    rows = [(i, n) for i, n in enumerate(t.set_bullseyes, 1)]
    return lines + ["", *table(["set", "bullseyes"], [*rows, ("total", t.bullseyes)])]


def _face_off(f: FaceOffReport) -> list[str]:
    lines = [f"### Face-off: {text(f.name)}", "",
             (f"- Meter: {text(f.meter)}, accuracy {f.accuracy}, "
              f"{f.hits} of {plural(f.squares, 'square')} hit, {plural(f.blocks, 'block')}"),
             f"- Events: {_span(f)}", f"- Outcome: {f.status}", ""]
    lines += table(["enemy", "bullseyes", "limit", "defeated"], (
        (text(x.name), x.bullseyes, x.bullseye_limit, "yes" if x.defeated else "no")
        for x in f.enemies))
    return lines + ["", *table(["round", "bullseyes", "hits"], (
        (r.label if r.under_way else r.number, r.bullseyes, r.hits) for r in f.rounds))]


def _resources(report: Report) -> list[str]:
    lines = ["## Resources over time", ""]
    if not report.resources:
        return lines + ["No resources kept."]
    names = [s.resource for s in report.resources]
    moments = sorted({at for s in report.resources for at, _ in s.points})
    values = {s.resource: dict(s.points) for s in report.resources}
    rows, current = [], {name: "" for name in names}
    for at in moments:
        for name in names:
            current[name] = str(values[name].get(at, current[name]))
        rows.append([f"#{at}", *(current[name] for name in names)])
    kept, before = digest.series(rows)
    if before:
        lines += [(f"The latest {len(kept)} changes; {before:,} earlier ones are in the JSON "
                  "report."), ""]
    return lines + table(["#", *(text(n) for n in names)], kept)


def _items(report: Report) -> list[str]:
    lines = ["## Items", ""]
    if not report.items:
        return lines + ["No items."]
    return lines + table(["item", "kind", "carried by", "gained", "lost"], (
        (text(i.name), i.kind, _holders(i), f"#{i.gained}",
         "" if i.lost is None else f"#{i.lost}") for i in report.items))


def _holders(item: ItemRecord) -> str:
    return " → ".join("aside" if h is None else text(h) for h in item.holders)


def _deaths(report: Report) -> list[str]:
    if not has_deaths(report):
        return []
    lines = ["## Deaths", ""]
    if not report.deaths:
        return lines + ["No character's HP reached 0."]
    return lines + [f"- {text(d.name)} fell at #{d.position}" for d in report.deaths]


def _corrections(report: Report) -> list[str]:
    lines = ["## Overrides and undos", ""]
    if not report.overrides and not report.undos:
        return lines + ["No overrides and no undos."]
    if report.overrides:
        lines += table(["#", "forced", "rule overridden"], (
            (f"#{o.position}", text(o.says) + (" (undone)" if o.undone else ""),
             text(o.reason)) for o in report.overrides)) + [""]
    if report.undos:
        latest, earlier = digest.undos(report)
        if earlier:
            lines += [(f"The latest {len(latest):,} undos; {earlier:,} earlier ones are left "
                       "out here (the JSON report has them all)."), ""]
        lines += table(["#", "undid"], (
            (f"#{u.position}", "; ".join(f"#{p} {text(s)}" for p, s in u.undid))
            for u in latest))
    return lines if lines[-1] else lines[:-1]


def _dice(report: Report) -> list[str]:
    lines = ["## Dice", ""]
    if not report.dice.kinds:
        return lines + [report.dice.luck_line]
    for kind in report.dice.kinds:
        split = report.dice.split(kind)
        lines += [f"### {kind.die.capitalize()}", "", *_face_table(kind, split), "",
                  fairness(kind), ""]
    return lines + [f"**{report.dice.luck_line}**"]


def _face_table(kind: DiceStats, split: Rollers | None) -> list[str]:
    """Each face: how often it was rolled (by the players and by the enemies, for a die
    both roll, and in all), its share, a fair die's share, and what a fair die gives."""
    rows: list[tuple[object, ...]] = []
    by = split.counts if split else [()] * len(kind.faces)
    for f, theirs in zip(kind.faces, by, strict=True):
        expected = f.expected(kind.total)
        rows.append((f.face, *theirs, f.count, _share(f.count, kind.total),
                     "" if f.share is None else _share(f.share.numerator, f.share.denominator),
                     "" if expected is None else f"{expected:.1f}"))
    if split is None:
        return table(["face", "rolled", "share", "fair share", "expected"], rows)
    rows.append(("total", *split.totals(), kind.total, _share(kind.total, kind.total),
                 "100%", f"{kind.total:.1f}"))
    return table(["face", *split.who, "in all", "share",
                  "fair share", "expected"], rows)


def _share(part: float, whole: float) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"

