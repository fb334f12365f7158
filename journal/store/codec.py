"""Rows to events and back: how an event is chained and hashed, written as a row, and
read back (a row edited behind spire's back is named, not a traceback)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from journal.core import chain
from journal.errors import BadInput, StorageError, TooNew
from journal.store.records import Branch, NewEvent, StoredCard, Unreadable

if TYPE_CHECKING:
    from journal.core import events as ev


def card_of(row: Any) -> StoredCard:
    return StoredCard(
        row.game, row.name, row.kind, row.number, json.loads(row.data), row.created_at)


def branch_of(row: Any) -> Branch:
    return Branch(
        row.id, row.campaign_id, row.name, row.parent_id, row.fork_position,
        row.head_position, row.head_hash)


def stale(branch: Branch, expected: int) -> str:
    return f"another writer appended to branch {branch.name!r} after position {expected}"


def chained(new: NewEvent, position: int) -> ev.Recorded:
    from journal.core import events as ev

    return ev.Recorded(position, new.event, new.recorded_at, new.player, new.override)


def payload_json(recorded: ev.Recorded) -> str:
    from journal.core import events as ev

    return chain.canonical_json(ev.payload_data(recorded.event))


def encoded(recorded: ev.Recorded) -> str:
    """The canonical encoding the hash covers."""
    from journal.core import events as ev

    return chain.envelope(
        recorded.position, recorded.type, ev.current_version(recorded.type),
        payload_json(recorded), recorded.recorded_at.isoformat(), recorded.player,
        recorded.override)


def linked(recorded: ev.Recorded, prev: str) -> ev.Recorded:
    from journal.core import events as ev

    digest = chain.link(prev, encoded(recorded))
    return ev.Recorded(
        recorded.position, recorded.event, recorded.recorded_at, recorded.player,
        recorded.override, prev, digest)


def row_of(recorded: ev.Recorded) -> dict[str, Any]:
    from journal.core import events as ev

    return {
        "position": recorded.position, "type": recorded.type,
        "version": ev.current_version(recorded.type), "payload": payload_json(recorded),
        "recorded_at": recorded.recorded_at.isoformat(), "player": recorded.player,
        "override": recorded.override, "prev_hash": recorded.prev_hash, "hash": recorded.hash,
    }


def recorded_from(rows: Sequence[Any], branch: Branch) -> list[ev.Recorded]:
    """Events as read back, each row unpacked in the order of STREAMED."""
    from journal.core.events import Recorded, parse_stored

    when = datetime.fromisoformat
    try:
        return [Recorded(position, parse_stored(type_, version, payload), when(at), player,
                         override, prev, digest)
                for position, type_, version, payload, at, player, override, prev, digest
                in rows]
    except TooNew:
        raise
    except UNREADABLE as e:
        raise unreadable(branch, rows, e) from None


UNREADABLE: tuple[type[Exception], ...] = (ValueError, KeyError, TypeError, BadInput)
"""What reading a stored row raises when it was edited behind spire's back: JSON that does
not parse, a payload its model refuses (pydantic's error is a ValueError), a time that
is not one, an unknown type or version."""


def unreadable(branch: Branch, rows: Sequence[Any], error: Exception) -> StorageError:
    """The first of `rows` (position, type, version, payload, [recorded_at]...) that does
    not read, named: the journal was changed behind spire's back, and the audit says how."""
    from journal.core.events import parse_stored

    position, why = None, reason(error)
    for row in rows:
        try:
            parse_stored(row[1], row[2], row[3])
            if len(row) > 5 and isinstance(row[4], str):
                datetime.fromisoformat(row[4])
        except UNREADABLE as e:
            position, why = row[0], reason(e)
            break
    where = f"event #{position}" if position is not None else "an event"
    return Unreadable(f"{where} of branch {branch.name!r} does not read; the journal was "
                      f"changed outside spire ({why}): `spire audit` says what is wrong")


def reason(error: Exception) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"its payload is not JSON: {error.msg}"
    return str(error).splitlines()[0] if str(error) else type(error).__name__

