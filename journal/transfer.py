"""Export and import: a branch as JSON Lines, one event a line, with its hashes.

An import checks every line before anything is written: the JSON, the fields, the
positions, the chain of hashes and every payload. The first fault is reported with its
line number.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from datetime import datetime
from operator import itemgetter
from typing import Any, TextIO

from journal import chain
from journal import events as ev
from journal.chain import RawEvent
from journal.errors import BadInput, SpireError
from journal.terminal import visible_json

FIELDS = ("seq", "type", "v", "payload", "recorded_at", "player", "override", "prev_hash", "hash")
KINDS: dict[str, tuple[type, ...]] = {
    "seq": (int,), "v": (int,), "payload": (dict,), "type": (str,), "recorded_at": (str,),
    "prev_hash": (str,), "hash": (str,), "player": (int, type(None)),
    "override": (str, type(None)),
}


def dump(raw: Iterable[RawEvent]) -> Iterator[str]:
    """Each event as one line of JSON (without the newline). The control characters JSON
    leaves raw (C1) are escaped: the same value, and nothing a terminal acts on when the
    export is shown; the import hashes the values, not their spelling."""
    for r in raw:
        yield visible_json(chain.canonical_json({
            "seq": r.position, "type": r.type, "v": r.v, "payload": r.payload,
            "recorded_at": r.recorded_at, "player": r.player, "override": r.override,
            "prev_hash": r.prev_hash, "hash": r.hash,
        }))


LONGEST_LINE = 1_000_000
"""An export's line is one event, a few hundred characters (an encounter's first event,
with its cards, a few thousand): a line longer than this is not an export's."""
LARGEST = 10**9
"""The largest position, version or player an import takes (the command line's limit)."""
DIGITS = sys.get_int_max_str_digits() or 4300


def lines(stream: TextIO, longest: int = LONGEST_LINE) -> Iterator[str]:
    """The lines of `stream`, each read no further than `longest` characters: a file that
    never ends a line (/dev/zero) is refused at that length, not read until memory runs out."""
    number = 0
    while line := stream.readline(longest + 1):
        number += 1
        if len(line) > longest:
            raise BadInput(f"line {number} is longer than {longest:,} characters; "
                           "an export's lines are shorter (not an export?)")
        yield line


def _said(value: int) -> str:
    return str(value) if abs(value) < 10**15 else f"of {len(str(abs(value)))} digits"


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
    position, type_, v, payload, recorded_at, player, override, prev_hash, digest = \
        _record(line)
    if position != seq:
        raise BadInput(f"event seq {position} where {seq} was expected")
    if seq == 1 and type_ != "campaign-started":
        raise BadInput(f"the first event must be campaign-started, not {type_}")
    if prev_hash != prev:
        raise BadInput("prev_hash does not match the hash of the event before it")
    payload_json = chain.canonical_json(payload)
    encoded = chain.envelope(position, type_, v, payload_json, recorded_at, player, override)
    try:
        linked = chain.link(prev, encoded)
    except UnicodeEncodeError:
        raise BadInput("not Unicode text (a lone surrogate escape such as \\ud800)") from None
    if linked != digest:
        raise BadInput("hash does not match the event's content (edited?)")
    ev.parse_stored(type_, v, payload_json)
    return RawEvent.spelt(payload_json, position, type_, v, payload, recorded_at, player,
                          override, prev_hash, digest)


_values = itemgetter(*FIELDS)
_WELL_TYPED = {
    (int, str, int, dict, str, player, override, str, str)
    for player in (int, type(None)) for override in (str, type(None))}
"""The types of FIELDS' values in a sound line: one test for the line, not one a field."""


def _record(line: str) -> tuple[Any, ...]:
    """A line's values in the order of FIELDS, each of its kind."""
    try:
        record = _loads(line)
    except json.JSONDecodeError as e:
        raise BadInput(f"not JSON ({e.msg})") from None
    except ValueError:  # Python's own limit on the digits of a number it reads
        raise BadInput(f"not an export's JSON: a number of more than {DIGITS} digits") from None
    except RecursionError:
        raise BadInput("not an export's JSON: arrays or objects nested too deeply") from None
    if not isinstance(record, dict):
        raise BadInput("not a JSON object")
    try:
        values: tuple[Any, ...] = _values(record)
    except KeyError:
        raise BadInput(f"missing {', '.join(f for f in FIELDS if f not in record)}") from None
    if tuple(map(type, values)) not in _WELL_TYPED:
        _check_kinds(record)
    for key, value in (("seq", values[0]), ("v", values[2]), ("player", values[5])):
        if value is not None and not 0 <= value <= LARGEST:
            raise BadInput(f"{key} {_said(value)} is out of range (0 to {LARGEST:,})")
    try:
        datetime.fromisoformat(values[4])
    except ValueError:
        raise BadInput(f"recorded_at is not a time: {values[4]!r}") from None
    return values


_DECODER = json.JSONDecoder()


def _loads(line: str) -> Any:
    """`json.loads(line)`, by way of raw_decode when the line is plain JSON and only JSON
    whitespace follows it (json.loads makes two more calls and two regex matches a line).
    Anything else goes to json.loads, for its value or its error."""
    try:
        value, end = _DECODER.raw_decode(line)
    except json.JSONDecodeError:
        return json.loads(line)
    if line[end:].strip(" \t\n\r"):
        return json.loads(line)  # says "Extra data"
    return value


def _check_kinds(record: dict[str, Any]) -> None:
    """Say which field is not of its kind."""
    for key, kind in KINDS.items():
        value = record[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise BadInput(f"{key} must be {kind[0].__name__}")
