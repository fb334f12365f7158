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
"""Made once: `json.dumps` with options makes an encoder a call, and an import spells
every payload."""


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
    def spelt(cls, payload_json: str, *fields: Any) -> RawEvent:
        """A RawEvent of `fields` whose payload's canonical spelling is known already (an
        import spells it to check the hash, and stores that spelling)."""
        event = cls(*fields)
        event.__dict__["payload_json"] = payload_json  # where cached_property keeps it
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
        return dict(zip(self.ROW, self.row()))
