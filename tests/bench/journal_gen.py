"""Build a benchmark journal: a Hildegard (or Volume 2) campaign of N events, chained as
spire chains them, written in bulk (the import path) so a million events take seconds, not
hours."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

from journal.core import chain
from journal.core.chain import RawEvent

STREET_MERCHANT = {
    "name": "Street Merchant", "bullseye_limit": 2, "accuracy": 3, "sets": 2,
    "parts": ["crescent", "ring", "dot"], "hit_card": 26,
    "bonus": {"bullseyes": 3, "reward": {"resource": "feats", "amount": 1}},
}
BENCH_TARGET = {
    "name": "Bench Target", "bullseye_limit": 1, "accuracy": 3, "sets": 1_000_000,
    "parts": ["crescent", "ring", "dot"],
}


def _cycle(n: int) -> dict[str, object]:
    """The n-th event after the campaign's start: the Street Merchant played again and again."""
    step = n % 8
    return [
        {"type": "card-revealed", "card": 1 + n // 8 % 400},
        {"type": "target-started", "card": STREET_MERCHANT, "shooter": "Hildegard"},
        {"type": "shot-dice-rolled", "roller": "Hildegard",
         "faces": ["crescent", "crescent", "ring"]},
        {"type": "wild-shot-rolled", "die": "black", "effect": "whoopsie", "shooter": "Hildegard",
         "target_die": 3},
        {"type": "shot-dice-rolled", "roller": "Hildegard", "faces": ["ring", "dot", "crescent"]},
        {"type": "wild-shot-rolled", "die": "black", "effect": "bullseye", "shooter": "Hildegard"},
        {"type": "note-added", "text": f"round {n // 8}: the merchant again"},
        {"type": "resource-gained", "resource": "gold", "amount": 1},
    ][step]


FINNIAN = {"kind": "ally", "name": "Finnian", "hp": 5, "ap": 3, "recoup": 1, "dice": "hive"}
DUNSTAN = {"kind": "ally", "name": "Dunstan", "hp": 6, "ap": 2, "recoup": 4, "dice": "shot",
           "combos": [{"name": "Double Shot", "faces": ["black", "white"], "effect": "damage",
                       "amount": 2}]}
WADE = {"kind": "enemy", "name": "Wade Slocum", "hp": 8, "ap": 2, "ferocity": 1, "attacks": 1,
        "retreat": 3, "quickdraw": 4,
        "table": [{"low": 5, "high": 15, "damage": 3}, {"low": 16, "high": 19, "damage": 4},
                  {"low": 20, "high": 20, "damage": 5}]}
BENCH_FOE = {"kind": "enemy", "name": "Bench Foe", "hp": 999, "ap": 0, "ferocity": 0,
             "attacks": 1, "retreat": "never", "table": [{"low": 10, "high": 20, "damage": 1}]}


def _encounter(n: int) -> dict[str, object]:
    """The n-th event of a Volume 2 campaign: Finnian and Dunstan against Wade Slocum, one
    round again and again, with a note and a card between encounters."""
    return [
        {"type": "card-revealed", "card": 1 + n // 14 % 140},
        {"type": "encounter-began", "allies": [FINNIAN, DUNSTAN], "enemies": [WADE]},
        {"type": "action-dice-rolled", "ally": "Finnian", "die": "hive",
         "faces": ["sickle", "sickle", "hive"], "spent": 3},
        {"type": "action-dice-locked", "ally": "Finnian", "dice": [1, 2, 3]},
        {"type": "action-taken", "ally": "Finnian", "action": "sickles", "target": "Wade Slocum"},
        {"type": "turn-ended", "ally": "Finnian"},
        {"type": "action-dice-rolled", "ally": "Dunstan", "die": "shot",
         "faces": ["black", "white"], "spent": 2},
        {"type": "finesse-ended", "ally": "Dunstan"},
        {"type": "action-taken", "ally": "Dunstan", "action": "Double Shot",
         "target": "Wade Slocum"},
        {"type": "turn-ended", "ally": "Dunstan"},
        {"type": "target-rolled", "allies": ["Finnian", "Dunstan"], "rolls": [12, 5]},
        {"type": "enemy-attacked", "enemy": "Wade Slocum", "roll": 15, "target": "Finnian"},
        {"type": "encounter-closed"},
        {"type": "note-added", "text": f"encounter {n // 14}: Wade again"},
    ][n % 14]


SLIP = {"type": "note-added", "text": "a slip: on the wrong card"}


def payloads(count: int, game: str = "hildegard",
             undo_every: int | None = None) -> Iterator[dict[str, object]]:
    """`count` payloads (with their type): the campaign's start, the cycle, and at the end
    an encounter to play on (a target with sets to spare; Finnian alone against a foe who
    never retreats). With `undo_every`, a slip and its undo land at every multiple of it,
    as players at the table make them (the cycle goes on after)."""
    if game == "volume2":
        opening: list[dict[str, object]] = [
            {"type": "campaign-started", "game": "volume2", "players": 1,
             "resources": [["bees", 1], ["pollen", 1], ["meat", 0], ["pelts", 0]],
             "characters": [{"name": "Finnian", "hp": 5, "ap": 3}]},
            {"type": "ally-joined", "card": DUNSTAN}]
        cycle, length = _encounter, 14
        last: dict[str, object] = {
            "type": "encounter-began", "allies": [FINNIAN], "enemies": [BENCH_FOE]}
    else:
        opening = [{"type": "campaign-started", "game": "hildegard", "players": 1,
                    "resources": [["gold", 0], ["feats", 0]],
                    "characters": [{"name": "Hildegard"}]}]
        cycle, length = _cycle, 1
        last = {"type": "target-started", "card": BENCH_TARGET, "shooter": "Hildegard"}
    yield from opening
    body, made, n = count - len(opening) - 1, 0, 0
    room = length + 2 * (length // undo_every + 1) if undo_every else length
    while made < body:
        position = len(opening) + made + 1
        if undo_every and position % undo_every == 0 and made + 2 <= body:
            yield dict(SLIP)
            yield {"type": "retracted", "positions": [position]}
            made += 2
        elif n % length or body - made >= room:  # whole encounters, then notes
            yield cycle(n)
            made, n = made + 1, n + 1
        else:
            yield {"type": "note-added", "text": f"after the plains: {made}"}
            made += 1
    yield last


def raw_events(count: int, start: datetime | None = None,
               game: str = "hildegard", undo_every: int | None = None) -> Iterator[RawEvent]:
    """`count` events chained as spire chains them; with `undo_every`, one undo in so many."""
    prev = chain.GENESIS
    when = start or datetime(2026, 1, 1, tzinfo=UTC)
    for position, data in enumerate(payloads(count, game, undo_every), start=1):
        type_ = str(data.pop("type"))
        stamp = (when + timedelta(seconds=position)).isoformat()
        raw = RawEvent(position, type_, 2 if type_ == "item-gained" else 1, data, stamp,
                       None, None, prev, "")
        digest = chain.link(prev, raw.encoded())
        yield RawEvent(position, type_, raw.v, data, stamp, None, None, prev, digest)
        prev = digest


def build(db: Path, count: int, game: str = "hildegard", undo_every: int | None = None,
          name: str = "bench") -> None:
    """A journal file at `db` holding a campaign `name` of `count` events (one undo in
    every `undo_every` if given)."""
    from journal.service.journal import Journal

    journal = Journal(str(db))
    journal.import_(name, raw_events(count, game=game, undo_every=undo_every))
