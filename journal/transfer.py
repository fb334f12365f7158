"""Export and import: a branch as JSON Lines, one event a line, with its hashes.

An import checks every line before anything is written: the JSON, the fields, the
positions, the chain of hashes and every payload. The first fault is reported with its
line number.
"""

from __future__ import annotations

import json
from datetime import datetime
from collections.abc import Iterable, Iterator
from typing import Any

from journal import chain
from journal import events as ev
from journal.chain import RawEvent
from journal.errors import BadInput, SpireError

FIELDS = ("seq", "type", "v", "payload", "recorded_at", "player", "override", "prev_hash", "hash")
KINDS: dict[str, tuple[type, ...]] = {
    "seq": (int,), "v": (int,), "payload": (dict,), "type": (str,), "recorded_at": (str,),
    "prev_hash": (str,), "hash": (str,), "player": (int, type(None)),
    "override": (str, type(None)),
}


def dump(raw: Iterable[RawEvent]) -> Iterator[str]:
    """Each event as one line of JSON (without the newline)."""
    for r in raw:
        yield chain.canonical_json({
            "seq": r.position, "type": r.type, "v": r.v, "payload": r.payload,
            "recorded_at": r.recorded_at, "player": r.player, "override": r.override,
            "prev_hash": r.prev_hash, "hash": r.hash,
        })


def parse(lines: Iterable[str]) -> Iterator[RawEvent]:
    """Read an export as it comes, checking every line; `BadInput` names the first bad
    line (the import that reads it writes nothing then)."""
    prev, seq = chain.GENESIS, 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            event = _event(line, seq + 1, prev)
        except SpireError as e:
            raise BadInput(f"line {number}: {e}") from None
        yield event
        prev, seq = event.hash, seq + 1


def _event(line: str, seq: int, prev: str) -> RawEvent:
    record = _record(line)
    event = RawEvent(
        record["seq"], record["type"], record["v"], record["payload"], record["recorded_at"],
        record["player"], record["override"], record["prev_hash"], record["hash"])
    if event.position != seq:
        raise BadInput(f"event seq {event.position} where {seq} was expected")
    if seq == 1 and event.type != "campaign-started":
        raise BadInput(f"the first event must be campaign-started, not {event.type}")
    if event.prev_hash != prev:
        raise BadInput("prev_hash does not match the hash of the event before it")
    if chain.link(prev, event.encoded()) != event.hash:
        raise BadInput("hash does not match the event's content (edited?)")
    ev.parse_stored(event.type, event.v, event.payload_json)
    return event


def _record(line: str) -> dict[str, Any]:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as e:
        raise BadInput(f"not JSON ({e.msg})") from None
    if not isinstance(record, dict):
        raise BadInput("not a JSON object")
    missing = [f for f in FIELDS if f not in record]
    if missing:
        raise BadInput(f"missing {', '.join(missing)}")
    for key, kind in KINDS.items():
        value = record[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise BadInput(f"{key} must be {kind[0].__name__}")
    try:
        datetime.fromisoformat(record["recorded_at"])
    except ValueError:
        raise BadInput(f"recorded_at is not a time: {record['recorded_at']!r}") from None
    return record
