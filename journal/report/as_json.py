"""The report as JSON, in the shape docs/report.schema.json describes (a test checks it).

`REPORT_VERSION` goes up when a field changes meaning or goes away; new fields may be
added without it.
"""

from __future__ import annotations

from typing import Any

from journal.dice_stats import DiceStats, Luck
from journal.report.model import (
    CampaignInfo,
    Encounter,
    EncounterReport,
    FaceOffReport,
    Fighter,
    Report,
    TargetReport,
    fairness,
)

REPORT_VERSION = 1


def render(report: Report) -> dict[str, Any]:
    """The whole report as plain JSON values."""
    return {
        "report_version": REPORT_VERSION,
        "campaign": _campaign(report.campaign),
        "path": [{"seq": s.position, "card": s.card, "how": s.how, "chapter": s.chapter,
                  "name": s.name} for s in report.path],
        "timeline": [{"seq": m.position, "kind": m.kind, "text": m.text,
                      "recorded_at": m.at.isoformat()} for m in report.timeline],
        "chapters": [{"chapter": c.number, "seq": c.position, "cards": list(c.cards)}
                     for c in report.chapters],
        "checkpoints": [{"name": m.name, "seq": m.position, "card": m.card}
                        for m in report.checkpoints],
        "encounters": [_encounter(x) for x in report.encounters],
        "resources": {s.resource: [{"seq": at, "value": v} for at, v in s.points]
                      for s in report.resources},
        "items": [{"name": i.name, "kind": i.kind, "gained": i.gained, "lost": i.lost,
                   "holders": list(i.holders)} for i in report.items],
        "deaths": [{"name": d.name, "seq": d.position} for d in report.deaths],
        "notes": [{"seq": n.position, "text": n.text, "recorded_at": n.at.isoformat()}
                  for n in report.notes],
        "overrides": [{"seq": o.position, "says": o.says, "reason": o.reason,
                       "undone": o.undone} for o in report.overrides],
        "undos": [{"seq": u.position, "undid": [{"seq": p, "says": s} for p, s in u.undid]}
                  for u in report.undos],
        "dice": {"kinds": [_die(k) for k in report.dice.kinds],
                 "luck": _luck(report.dice.luck), "luck_line": report.dice.luck_line},
        "map": _map(report),
        "milestones": [{"milestone": m.number, "retrieved": m.retrieved,
                        "discarded": m.discarded} for m in report.milestones],
        "trades": [{"item": t.item, "price": t.price, "seq": t.position, "bought": t.bought}
                   for t in report.trades],
        "waterfalls": [{"event": w.event, "seq": w.laid, "chosen": list(w.chosen),
                        "ended": w.ended} for w in report.waterfalls],
    }


def _campaign(c: CampaignInfo) -> dict[str, Any]:
    return {
        "name": c.name, "game": c.game, "title": c.title, "players": c.players,
        "characters": list(c.characters), "branch": c.branch, "parent": c.parent,
        "fork": c.fork, "first_event_at": c.first_at.isoformat(),
        "last_event_at": c.last_at.isoformat(), "events": c.events, "standing": c.standing,
        "head_hash": c.head_hash,
    }


def _encounter(x: Encounter) -> dict[str, Any]:
    if isinstance(x, EncounterReport):
        return _fight(x)
    if isinstance(x, TargetReport):
        return _target(x)
    return _face_off(x)


def _fighter(f: Fighter) -> dict[str, Any]:
    return {"name": f.name, "hp": f.hp, "hp_max": f.hp_max, "ap": f.ap, "ap_max": f.ap_max,
            "fate": f.fate}


def _fight(f: EncounterReport) -> dict[str, Any]:
    return {
        "kind": "encounter", "noun": f.noun, "name": f.name, "started": f.started,
        "ended": f.ended,
        "allies": [_fighter(a) for a in f.allies],
        "enemies": [_fighter(x) for x in f.enemies],
        "rounds": [{"round": r.number, "dealt": r.dealt, "taken": r.taken} for r in f.rounds],
        "outcome": f.outcome, "headline": f.headline,
        "beats": [{"seq": b.position, "round": b.round, "says": b.says, "did": list(b.did)}
                  for b in f.beats],
    }


def _target(t: TargetReport) -> dict[str, Any]:
    return {
        "kind": "target", "name": t.name, "number": t.number, "started": t.started,
        "ended": t.ended, "shooter": t.shooter, "bullseye_limit": t.bullseye_limit,
        "accuracy": t.accuracy, "sets": t.sets, "parts": list(t.parts), "reward": t.reward,
        "bonus": t.bonus, "bonus_awarded": t.bonus_awarded,
        "set_bullseyes": list(t.set_bullseyes), "bullseyes": t.bullseyes,
        "outcome": t.outcome, "next_card": t.next_card, "headline": t.headline,
        "chance_at_start": t.chance,
    }


def _face_off(f: FaceOffReport) -> dict[str, Any]:
    return {
        "kind": "face-off", "name": f.name, "meter": f.meter, "started": f.started,
        "ended": f.ended, "accuracy": f.accuracy, "squares": f.squares, "hits": f.hits,
        "blocks": f.blocks,
        "enemies": [{"name": x.name, "bullseye_limit": x.bullseye_limit,
                     "bullseyes": x.bullseyes, "defeated": x.defeated} for x in f.enemies],
        "rounds": [{"round": r.number, "bullseyes": r.bullseyes, "hits": r.hits}
                   for r in f.rounds],
        "outcome": f.outcome, "next_card": f.next_card, "headline": f.headline,
    }


def _die(kind: DiceStats) -> dict[str, Any]:
    return {
        "die": kind.die, "total": kind.total,
        "faces": [{"face": f.face, "count": f.count,
                   "fair_share": None if f.share is None else float(f.share),
                   "expected": f.expected(kind.total)} for f in kind.faces],
        "chi_squared": kind.chi_squared, "degrees_of_freedom": kind.dof,
        "p_value": kind.p_value, "summary": fairness(kind),
    }


def _luck(luck: Luck | None) -> dict[str, Any] | None:
    if luck is None:
        return None
    return {"faces": list(luck.faces), "dice": luck.total, "count": luck.count,
            "expected": luck.expected, "z": luck.z, "verdict": luck.verdict}


def _map(report: Report) -> Any:
    if report.story_map is None:
        return None
    from journal import mapping

    return mapping.to_json(report.story_map)
