"""The hash chain: each event's hash covers its predecessor's hash and its own canonical
encoding, so an edit made behind spire's back shows at the exact position."""

from __future__ import annotations

import hashlib
import json
from json.encoder import encode_basestring
from dataclasses import dataclass
from functools import cached_property
from typing import Any

GENESIS = "0" * 64


def canonical_json(value: Any) -> str:
    """One spelling of a JSON value: sorted keys, no spaces, UTF-8 kept as is."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def envelope(
    position: int, type_: str, version: int, payload_json: str,
    recorded_at: str, player: int | None, override: str | None,
) -> str:
    """The canonical encoding of one event; `payload_json` must already be canonical.

    Equal to canonical_json of the whole envelope, assembled without re-parsing the payload.
    """
    c = _scalar
    return (
        f'{{"override":{c(override)},"payload":{payload_json},"player":{c(player)},'
        f'"position":{position},"recorded_at":{c(recorded_at)},"type":{c(type_)},"v":{version}}}'
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

    @cached_property
    def payload_json(self) -> str:
        """The payload's canonical spelling, as the hash covers it and the store keeps it."""
        return canonical_json(self.payload)

    def encoded(self) -> str:
        return envelope(
            self.position, self.type, self.v, self.payload_json,
            self.recorded_at, self.player, self.override)

    def to_row(self) -> dict[str, Any]:
        return {
            "position": self.position, "type": self.type, "version": self.v,
            "payload": self.payload_json, "recorded_at": self.recorded_at,
            "player": self.player, "override": self.override, "prev_hash": self.prev_hash,
            "hash": self.hash,
        }
