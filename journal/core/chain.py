"""The hash chain: each event's hash covers its predecessor's hash and its own canonical
encoding, so an edit made behind spire's back shows at the exact position."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cached_property
from json.encoder import encode_basestring
from typing import Any, ClassVar

GENESIS = "0" * 64


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
"""Made once: `json.dumps` with these options makes an encoder for every value, which cost
a fifth of the encoding (0.37 s against 0.29 s for 100k payloads). CPython's C encoder
called directly saved a third more (0.20 s), through a name the json module does not
publish; not worth it at about 1 us an event, when an import takes 25 us."""


def canonical_json(value: Any) -> str:
    """One spelling of a JSON value: sorted keys, no spaces, UTF-8 kept as is."""
    return _CANONICAL.encode(value)


def envelope(
    position: int, type_: str, version: int, payload_json: str,
    recorded_at: str, player: int | None, override: str | None,
) -> str:
    """The canonical encoding of one event; `payload_json` must already be canonical.

    Equal to canonical_json of the whole envelope, assembled without re-parsing the payload.
    """
    text = encode_basestring  # an import spells every event: no call to _scalar here
    over = "null" if override is None else text(override)
    who = "null" if player is None else player
    return (
        f'{{"override":{over},"payload":{payload_json},"player":{who},"position":{position},'
        f'"recorded_at":{text(recorded_at)},"type":{text(type_)},"v":{version}}}'
    )


def _scalar(value: str | int | None) -> str:
    """canonical_json of a string, a number or None, without the encoder's set-up."""
    if value is None:
        return "null"
    if isinstance(value, str):
        return encode_basestring(value)
    return canonical_json(value)


def link(prev_hash: str, encoded: str) -> str:
    """SHA-256 over the predecessor's hash and this event's canonical encoding."""
    return hashlib.sha256((prev_hash + encoded).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class RawEvent:
    """An event exactly as stored: what the hash covers, what export writes."""

    position: int
    type: str
    v: int
    payload: dict[str, Any]
    recorded_at: str
    player: int | None
    override: str | None
    prev_hash: str
    hash: str

    ROW: ClassVar[tuple[str, ...]] = (
        "position", "type", "version", "payload", "recorded_at", "player", "override",
        "prev_hash", "hash")
    """The stored columns, in the order of `row()`."""

    @classmethod
    def spelt(
        cls, payload_json: str, position: int, type_: str, v: int, payload: dict[str, Any],
        recorded_at: str, player: int | None, override: str | None, prev_hash: str, hash_: str,
    ) -> RawEvent:
        """A RawEvent whose payload's canonical spelling is known already (an import spells
        it to check the hash, and stores that spelling). Made without `__init__`, which
        sets each field of a frozen dataclass through object.__setattr__: an import makes
        one a line."""
        event = object.__new__(cls)
        object.__setattr__(event, "__dict__", {
            "position": position, "type": type_, "v": v, "payload": payload,
            "recorded_at": recorded_at, "player": player, "override": override,
            "prev_hash": prev_hash, "hash": hash_,
            "payload_json": payload_json,  # where cached_property keeps it
        })
        return event

    @cached_property
    def payload_json(self) -> str:
        """The payload's canonical spelling, as the hash covers it and the store keeps it."""
        return canonical_json(self.payload)

    def encoded(self) -> str:
        return envelope(
            self.position, self.type, self.v, self.payload_json,
            self.recorded_at, self.player, self.override)

    def row(self) -> tuple[Any, ...]:
        """The stored values, in the order of ROW."""
        return (self.position, self.type, self.v, self.payload_json, self.recorded_at,
                self.player, self.override, self.prev_hash, self.hash)

    def to_row(self) -> dict[str, Any]:
        return dict(zip(self.ROW, self.row(), strict=True))


@dataclass(frozen=True)
class Section:
    """Where a branch's own events begin in an export: the branch forked from `parent`
    after position `fork`, whose event there has `fork_hash`; its first event links to it."""

    name: str
    parent: str
    fork: int
    fork_hash: str


@dataclass(frozen=True)
class Closing:
    """What an export's last record says of one branch: its own events, its head and the
    head's hash, and its own checkpoints (name, position, time). An import checks the file
    against it, so a file cut short, or a checkpoint line deleted, renamed or moved, is
    found."""

    name: str
    events: int
    head: int
    hash: str
    checkpoints: tuple[tuple[str, int, str], ...] = ()

    def said(self) -> dict[str, Any]:
        """As the closing record says it."""
        return {"name": self.name, "events": self.events, "head": self.head,
                "hash": self.hash, "checkpoints": [list(c) for c in self.checkpoints]}


@dataclass(frozen=True)
class Mark:
    """A checkpoint as exported: a named position on the branch whose events it follows."""

    name: str
    position: int
    created_at: str
