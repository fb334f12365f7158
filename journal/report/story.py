"""The report's one timeline: chapters, cards, checkpoints, notes, encounters and deaths,
each at the position it happened, and the names the players gave the cards they entered.

Pure: read off the folded steps as they pass. A card's name comes only from the branch's own events
(a target, an enemy or an ally entered with its number), never from the catalog, so the
report names no card its players were not told to reveal.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from functools import partial
from typing import NamedTuple

from journal.core import events as ev
from journal.core.state import State
from journal.report.fold import Step, Taker
from journal.report.model import (
    CardStep,
    CheckpointMark,
    Death,
    Encounter,
    Ended,
    FaceOffReport,
    Moment,
    TargetReport,
    TimelineEntry,
    card_text,
)
from journal.report.spool import Spool


class Names:
    """Card numbers the players entered by name in this branch's events: targets, enemies,
    allies (the first name given to a number wins)."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}

    def taker(self, kind: type) -> Taker | None:
        return self.take if _fields_of(kind) else None

    def take(self, recorded: ev.Entry, before: State, after: State) -> None:
        event, names = recorded.event, self.names
        for attribute in _fields_of(type(event)):
            found = getattr(event, attribute)
            for card in found if attribute == "enemies" else (found,):
                if card is None or isinstance(card, (int, str)):
                    continue
                number = getattr(card, "number", None)
                if isinstance(number, int) and number not in names:  # the first name wins
                    name = getattr(card, "name", None)
                    if isinstance(name, str):
                        names[number] = name


def card_names(steps: Iterable[Step]) -> dict[int, str]:
    found = Names()
    for step in steps:
        found.take(*step)
    return found.names


def _fields_of(kind: type) -> tuple[str, ...]:
    fields = _CARD_FIELDS.get(kind)
    if fields is None:
        fields = _CARD_FIELDS[kind] = _card_fields(kind)
    return fields


_CARD_FIELDS: dict[type, tuple[str, ...]] = {}
"""Per event type, the fields that may hold a card: asked of the model once, not of each
event (a missing attribute costs a pydantic model a raised and caught error)."""


def _card_fields(kind: type) -> tuple[str, ...]:
    """The fields of an event of `kind` that may hold a card the players entered (not
    those that hold only a number or a name: a card revealed, an enemy named)."""
    fields = getattr(kind, "model_fields", {})
    return tuple(f for f in ("card", "enemy", "enemies")
                 if f in fields and fields[f].annotation not in _NO_CARD)


_NO_CARD = (int, str, int | None, str | None)


_Entry = tuple[int, int, int, int, Moment, "str | CardStep | _Told", datetime]
"""A timeline entry as it is kept: its place (position, order at that position, the
section it came from, the count of entries before it), kind, text (a card's is written
once the names are known) and time."""
STEPS, PATH, CHECKPOINTS, ENCOUNTERS, DEATHS = range(5)
"""The sections an entry comes from, in the order entries at one place are told."""
ALWAYS = ("chapter", "checkpoint", "death")
"""Kinds a long campaign's timeline keeps every one of."""


class Timeline:
    """Everything that happened, in order; at one position, in the order it happened
    (the event, then a checkpoint made there, then an encounter ended or a death by it).

    Entries come as the branch streams (an encounter's once it is over). With a `limit`,
    every chapter, checkpoint and death is kept and only the latest `limit` of the rest
    (the rest are counted): what a long campaign's Markdown and HTML show. With a `spool`,
    every entry is written to it in order as soon as no later one can come before it
    (`flush`): a long campaign's JSON."""

    def __init__(self, checkpoints: Sequence[CheckpointMark], limit: int | None = None,
                 spool: Spool | None = None) -> None:
        self.limit, self.added, self.spool = limit, 0, spool
        self.always: list[_Entry] = []
        self.rest: list[_Entry] = []
        """Every other entry; spooled, a heap."""
        self.latest: deque[_Entry] | None = None if limit is None else deque(maxlen=2 * limit)
        """With a limit, the latest `2 * limit` other entries to arrive, in place of `rest`.
        Entries arrive in order but for an encounter's two (its beginning and end come once
        it is over, and one encounter is under way at a time): an entry let go has 2 *
        limit - 2 later than it, so it could not be among the latest `limit`."""
        self.marks = {mark.position: [m for m in checkpoints if m.position == mark.position]
                      for mark in checkpoints}

    def add(self, position: int, order: int, source: int, kind: Moment,
            text: str | CardStep | _Told, at: datetime) -> None:
        self.added = added = self.added + 1
        entry = (position, order, source, added, kind, text, at)
        if self.spool is not None:
            heapq.heappush(self.rest, entry)
        elif kind in ALWAYS:
            self.always.append(entry)
        elif self.latest is not None:
            self.latest.append(entry)
        else:
            self.rest.append(entry)

    def taker(self, kind: type) -> Taker | None:
        if issubclass(kind, ev.ChapterStarted):
            return self._chapter
        if issubclass(kind, ev.NoteAdded):
            return self._note
        return self._returned if issubclass(kind, ev.PulledCardReturned) else None

    def _chapter(self, recorded: ev.Entry, before: State, after: State) -> None:
        self.add(recorded.position, 0, STEPS, "chapter",
                 f"Chapter {recorded.event.chapter} began",  # type: ignore[attr-defined]
                 recorded.recorded_at)

    def _note(self, recorded: ev.Entry, before: State, after: State) -> None:
        self.add(recorded.position, 0, STEPS, "note",
                 recorded.event.text, recorded.recorded_at)  # type: ignore[attr-defined]

    def _returned(self, recorded: ev.Entry, before: State, after: State) -> None:
        if after.card is not None:
            self.add(recorded.position, 0, STEPS, "card", f"Returned to card {after.card}",
                     recorded.recorded_at)

    def checkpoints(self, position: int, at: datetime) -> None:
        """The checkpoints made at `position`, at its event's time (an undo's, which is no
        step, gives the time of the latest event before it)."""
        for mark in self.marks.pop(position, ()):
            self.add(position, 1, CHECKPOINTS, "checkpoint", f"Checkpoint {mark.name}", at)

    def encounter(self, x: Ended, started: datetime, ended: datetime | None) -> None:
        self.add(x.started, 0, ENCOUNTERS, "encounter", _told((x, True)), started)
        if x.ended is not None and ended is not None:
            self.add(x.ended, 2, ENCOUNTERS, "encounter", _told((x, False)), ended)

    def death(self, death: Death, at: datetime) -> None:
        self.add(death.position, 3, DEATHS, "death", f"{death.name} fell", at)

    def flush(self, before: int | None = None) -> None:
        """Spool the entries at positions before `before` (all of them without)."""
        rest, spool = self.rest, self.spool
        if spool is None:
            return
        while rest and (before is None or rest[0][0] < before):
            position, _, _, _, kind, text, at = heapq.heappop(rest)
            if isinstance(text, CardStep):
                spool.add([position, kind, None, at.isoformat(), text.card, text.how])
            else:
                spool.add([position, kind, str(text), at.isoformat(), None, None])

    def entries(self, names: dict[int, str]) -> tuple[tuple[TimelineEntry, ...], int]:
        """The entries kept, in order, and how many others were left out (none are kept
        when they are spooled)."""
        self.flush()
        rest = self.rest
        if self.latest is not None and self.limit is not None:
            rest = sorted(self.latest)[-self.limit:]
        kept = sorted(self.always + rest)
        return (tuple(TimelineEntry(p, kind, _text(text, names), at)
                      for p, _, _, _, kind, text, at in kept),
                0 if self.spool is not None else self.added - len(self.always) - len(rest))


class _Told(NamedTuple):
    """An encounter's beginning or end, written only if the timeline keeps it (a named
    tuple: a long campaign makes two an encounter)."""

    encounter: Ended
    began: bool

    def __str__(self) -> str:
        x = self.encounter.made()
        return _began(x) if self.began else x.headline


_told: Callable[[tuple[Ended, bool]], _Told] = partial(tuple.__new__, _Told)
"""`_Told._make` without its Python frame (a long campaign makes two an encounter)."""


def _text(text: str | CardStep | _Told, names: dict[int, str]) -> str:
    if isinstance(text, str):
        return text
    if isinstance(text, _Told):
        return str(text)
    return card_text(text._replace(name=names.get(text.card)))


def _began(x: Encounter) -> str:
    if isinstance(x, TargetReport):
        return f"Target {x.name} began"
    if isinstance(x, FaceOffReport):
        return f"Face-off with {x.name} began"
    return f"{x.noun} with {x.name} began"
