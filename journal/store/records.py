"""What the store hands out and takes in: campaigns, branches, cards, events to append,
and the store's own errors."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from journal.errors import Conflict, StorageError

if TYPE_CHECKING:
    from journal.core import events as ev


class Unreadable(StorageError):
    """A stored event that no longer reads: the journal was edited outside spire."""


class StaleHead(Conflict):
    """The branch head moved since it was read: another writer appended first."""


@dataclass(frozen=True)
class Campaign:
    id: int
    name: str
    game: str
    current_branch: str
    created_at: str


@dataclass(frozen=True)
class Branch:
    id: int
    campaign_id: int
    name: str
    parent_id: int | None
    fork_position: int | None
    head: int
    head_hash: str


@dataclass(frozen=True)
class StoredCard:
    """A catalog card as stored: its printed numbers are `data`, as the game describes them."""

    game: str
    name: str
    kind: str
    number: int | None
    data: dict[str, Any]
    created_at: str


@dataclass(frozen=True)
class NewEvent:
    """An event to append: its payload and provenance; the store gives position and hashes."""

    event: ev.Payload
    recorded_at: datetime
    player: int | None = None
    override: str | None = None

