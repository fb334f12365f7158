"""Build a benchmark journal: a Hildegard campaign of N events, chained as spire chains
them, written in bulk (the import path) so a million events take seconds, not hours."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

from journal import chain
from journal.chain import RawEvent

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
        {"type": "shot-dice-rolled", "roller": "Hildegard", "faces": ["crescent", "crescent", "ring"]},
        {"type": "wild-shot-rolled", "die": "black", "effect": "whoopsie", "shooter": "Hildegard",
         "target_die": 3},
        {"type": "shot-dice-rolled", "roller": "Hildegard", "faces": ["ring", "dot", "crescent"]},
        {"type": "wild-shot-rolled", "die": "black", "effect": "bullseye", "shooter": "Hildegard"},
        {"type": "note-added", "text": f"round {n // 8}: the merchant again"},
        {"type": "resource-gained", "resource": "gold", "amount": 1},
    ][step]


def payloads(count: int) -> Iterator[dict[str, object]]:
    """`count` payloads (with their type): the campaign's start, the cycle, and at the end
    a target with sets to spare, so a benchmark can roll on."""
    yield {"type": "campaign-started", "game": "hildegard", "players": 1,
           "resources": [["gold", 0], ["feats", 0]], "characters": [{"name": "Hildegard"}]}
    for n in range(count - 2):
        yield _cycle(n)
    yield {"type": "target-started", "card": BENCH_TARGET, "shooter": "Hildegard"}


def raw_events(count: int, start: datetime | None = None) -> Iterator[RawEvent]:
    prev = chain.GENESIS
    when = start or datetime(2026, 1, 1, tzinfo=timezone.utc)
    for position, data in enumerate(payloads(count), start=1):
        type_ = str(data.pop("type"))
        stamp = (when + timedelta(seconds=position)).isoformat()
        raw = RawEvent(position, type_, 2 if type_ == "item-gained" else 1, data, stamp,
                       None, None, prev, "")
        digest = chain.link(prev, raw.encoded())
        yield RawEvent(position, type_, raw.v, data, stamp, None, None, prev, digest)
        prev = digest


def build(db: Path, count: int) -> None:
    """A journal file at `db` holding one campaign `bench` of `count` events."""
    from journal.service import Journal

    journal = Journal(str(db))
    journal.import_("bench", raw_events(count))
