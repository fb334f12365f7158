"""The report as JSON, in the shape docs/report.schema.json describes (a test checks it).

`REPORT_VERSION` goes up when a field changes meaning or goes away; new fields may be
added without it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from journal.core.dice_stats import DiceStats, Luck
from journal.report.model import (
    CampaignInfo,
    CardStep,
    Encounter,
    EncounterReport,
    FaceOffReport,
    Fighter,
    Note,
    Report,
    Rollers,
    TargetReport,
    TimelineEntry,
    UndoRecord,
    card_text,
    fairness,
)
from journal.report.spool import Spooled

REPORT_VERSION = 1


class Streamed:
    """A list written item by item as it is read (a spooled section)."""

    def __init__(self, items: Iterable[Any]) -> None:
        self.items = items


class Fields:
    """An object some of whose values are streamed."""

    def __init__(self, pairs: Iterable[tuple[str, Any]]) -> None:
        self.pairs = pairs


def render(report: Report) -> dict[str, Any]:
    """The whole report as plain JSON values."""
    found: dict[str, Any] = _plain(Fields(_sections(report)))
    return found


def _plain(value: Any) -> Any:
    if isinstance(value, Streamed):
        return [_plain(item) for item in value.items]
    if isinstance(value, Fields):
        return {key: _plain(item) for key, item in value.pairs}
    return value


def pieces(report: Report, size: int = 1 << 16) -> Iterator[str]:
    """The report as JSON text, as `json.dumps(render(report), indent=2)` writes it, in
    pieces of about `size` characters: each item of a long list is written as it is
    read, none held after."""
    held: list[str] = []
    length = 0
    for piece in _written(Fields(_sections(report)), 0):
        held.append(piece)
        length += len(piece)
        if length >= size:
            yield "".join(held)
            held, length = [], 0
    yield "".join(held) + "\n"


def _written(value: Any, level: int) -> Iterator[str]:
    """`value` as `json.dumps(indent=2)` writes it `level` deep, streamed parts and all."""
    pad = "\n" + "  " * level
    if isinstance(value, Streamed):
        opened = False
        for item in value.items:
            yield ("," if opened else "[") + pad + "  "
            yield from _written(item, level + 1)
            opened = True
        yield pad + "]" if opened else "[]"
    elif isinstance(value, Fields):
        opened = False
        for key, item in value.pairs:
            yield ("," if opened else "{") + pad + "  " + json.dumps(key, ensure_ascii=False) + ": "
            yield from _written(item, level + 1)
            opened = True
        yield pad + "}" if opened else "{}"
    else:
        yield _dumps(value).replace("\n", pad)


def _dumps(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def _sections(report: Report) -> list[tuple[str, Any]]:
    s = report.spooled if isinstance(report.spooled, Spooled) else None
    return [
        ("report_version", REPORT_VERSION),
        ("campaign", _campaign(report.campaign)),
        ("path", Streamed(_path(s) if s else (path_item(c) for c in report.path))),
        ("timeline", Streamed(_timeline(s) if s else (
            timeline_item(m) for m in report.timeline))),
        ("chapters", [{"chapter": c.number, "seq": c.position, "cards": list(c.cards)}
                      for c in report.chapters]),
        ("checkpoints", [{"name": m.name, "seq": m.position, "card": m.card}
                         for m in report.checkpoints]),
        ("encounters", Streamed(s.encounters if s else map(encounter, report.encounters))),
        ("resources", Fields((r.resource, Streamed({"seq": at, "value": v}
                                                   for at, v in r.points))
                             for r in report.resources)),
        ("items", [{"name": i.name, "kind": i.kind, "gained": i.gained, "lost": i.lost,
                    "holders": list(i.holders)} for i in report.items]),
        ("deaths", [{"name": d.name, "seq": d.position} for d in report.deaths]),
        ("notes", Streamed(s.notes if s else map(note_item, report.notes))),
        ("overrides", [{"seq": o.position, "says": o.says, "reason": o.reason,
                        "undone": o.undone} for o in report.overrides]),
        ("undos", Streamed(s.undos if s else map(undo_item, report.undos))),
        ("dice", {"kinds": [_die(k, report.dice.split(k)) for k in report.dice.kinds],
                  "luck": _luck(report.dice.luck), "luck_line": report.dice.luck_line}),
        ("map", _map(report)),
        ("milestones", [{"milestone": m.number, "retrieved": m.retrieved,
                         "discarded": m.discarded} for m in report.milestones]),
        ("trades", [{"item": t.item, "price": t.price, "seq": t.position, "bought": t.bought}
                    for t in report.trades]),
        ("waterfalls", [{"event": w.event, "seq": w.laid, "chosen": list(w.chosen),
                         "ended": w.ended} for w in report.waterfalls]),
    ]


def path_item(s: CardStep) -> dict[str, Any]:
    return {"seq": s.position, "card": s.card, "how": s.how, "chapter": s.chapter,
            "name": s.name}


def timeline_item(m: TimelineEntry) -> dict[str, Any]:
    return {"seq": m.position, "kind": m.kind, "text": m.text, "recorded_at": m.at.isoformat()}


def note_item(n: Note) -> dict[str, Any]:
    return {"seq": n.position, "text": n.text, "recorded_at": n.at.isoformat()}


def undo_item(u: UndoRecord) -> dict[str, Any]:
    return {"seq": u.position, "undid": [{"seq": p, "says": s} for p, s in u.undid]}


def _path(s: Spooled) -> Iterator[dict[str, Any]]:
    for seq, card, how, chapter in s.path:
        yield {"seq": seq, "card": card, "how": how, "chapter": chapter,
               "name": s.names.get(card)}


def _timeline(s: Spooled) -> Iterator[dict[str, Any]]:
    for seq, kind, text, at, card, how in s.timeline:
        if text is None:
            text = card_text(CardStep(seq, card, how, None, s.names.get(card)))
        yield {"seq": seq, "kind": kind, "text": text, "recorded_at": at}


def _campaign(c: CampaignInfo) -> dict[str, Any]:
    return {
        "name": c.name, "game": c.game, "title": c.title, "players": c.players,
        "characters": list(c.characters), "branch": c.branch, "parent": c.parent,
        "fork": c.fork, "first_event_at": c.first_at.isoformat(),
        "last_event_at": c.last_at.isoformat(), "events": c.events, "standing": c.standing,
        "head_hash": c.head_hash,
    }


def encounter(x: Encounter) -> dict[str, Any]:
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
        "chance_at_start": t.chance, "set_under_way": t.playing,
    }


def _face_off(f: FaceOffReport) -> dict[str, Any]:
    return {
        "kind": "face-off", "name": f.name, "meter": f.meter, "started": f.started,
        "ended": f.ended, "accuracy": f.accuracy, "squares": f.squares, "hits": f.hits,
        "blocks": f.blocks,
        "enemies": [{"name": x.name, "bullseye_limit": x.bullseye_limit,
                     "bullseyes": x.bullseyes, "defeated": x.defeated} for x in f.enemies],
        "rounds": [{"round": r.number, "bullseyes": r.bullseyes, "hits": r.hits,
                    "under_way": r.under_way} for r in f.rounds],
        "unrolled_round": f.unrolled,
        "outcome": f.outcome, "next_card": f.next_card, "headline": f.headline,
    }


def _die(kind: DiceStats, split: Rollers | None = None) -> dict[str, Any]:
    faces: list[dict[str, Any]] = [
        {"face": f.face, "count": f.count, "fair_share": None if f.share is None else
         float(f.share), "expected": f.expected(kind.total)} for f in kind.faces]
    if split is not None:  # a die both the players and the enemies roll: each one's count
        for face, theirs in zip(faces, split.counts, strict=True):
            face["by"] = dict(zip(split.who, theirs, strict=True))
    return {
        "die": kind.die, "total": kind.total, "faces": faces,
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
    from journal.insight import mapping

    return mapping.to_json(report.story_map)
