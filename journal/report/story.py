"""The report's one timeline: chapters, cards, checkpoints, notes, encounters and deaths,
each at the position it happened, and the names the players gave the cards they entered.

Pure: read off the folded steps. A card's name comes only from the branch's own events
(a target, an enemy or an ally entered with its number), never from the catalog, so the
report names no card its players were not told to reveal.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime

from journal import events as ev
from journal.report.fold import Step
from journal.report.model import (
    CardStep,
    CheckpointMark,
    Death,
    Encounter,
    FaceOffReport,
    Moment,
    TargetReport,
    TimelineEntry,
)

HOW = {"revealed": "Revealed", "pulled": "Pulled", "retrieved": "Retrieved"}


def card_names(steps: Sequence[Step]) -> dict[int, str]:
    """Card numbers the players entered by name in this branch's events: targets, enemies,
    allies (the first name given to a number wins)."""
    names: dict[int, str] = {}
    for step in steps:
        for card in _cards(step.recorded.event):
            number, name = getattr(card, "number", None), getattr(card, "name", None)
            if isinstance(number, int) and isinstance(name, str):
                names.setdefault(number, name)
    return names


def _cards(event: object) -> Iterator[object]:
    fields = _CARD_FIELDS.get(type(event))
    if fields is None:
        fields = _CARD_FIELDS[type(event)] = _card_fields(type(event))
    for attribute in fields:
        found = getattr(event, attribute)
        if attribute == "enemies":
            yield from found
        elif found is not None and not isinstance(found, (int, str)):
            yield found


_CARD_FIELDS: dict[type, tuple[str, ...]] = {}
"""Per event type, the fields that may hold a card: asked of the model once, not of each
event (a missing attribute costs a pydantic model a raised and caught error)."""


def _card_fields(kind: type) -> tuple[str, ...]:
    fields = getattr(kind, "model_fields", {})
    return tuple(f for f in ("card", "enemy", "enemies") if f in fields)


def timeline(steps: Sequence[Step], path: Sequence[CardStep],
             checkpoints: Sequence[CheckpointMark], encounters: Sequence[Encounter],
             fallen: Sequence[Death]) -> tuple[TimelineEntry, ...]:
    """Everything that happened, in order; at one position, in the order it happened
    (the event, then a checkpoint made there, then an encounter ended or a death by it)."""
    at = {s.position: s.recorded.recorded_at for s in steps}
    found: list[tuple[int, int, TimelineEntry]] = []

    def add(position: int, order: int, kind: Moment, text: str) -> None:
        when = at.get(position) or _nearest(at, position)
        found.append((position, order, TimelineEntry(position, kind, text, when)))

    for step in steps:
        e = step.recorded.event
        if isinstance(e, ev.ChapterStarted):
            add(step.position, 0, "chapter", f"Chapter {e.chapter} began")
        elif isinstance(e, ev.NoteAdded):
            add(step.position, 0, "note", e.text)
        elif isinstance(e, ev.PulledCardReturned) and step.after.card is not None:
            add(step.position, 0, "card", f"Returned to card {step.after.card}")
    for card in path:
        add(card.position, 0, "card", f"{HOW[card.how]} card {card.label}")
    for mark in checkpoints:
        add(mark.position, 1, "checkpoint", f"Checkpoint {mark.name}")
    for x in encounters:
        add(x.started, 0, "encounter", _began(x))
        if x.ended is not None:
            add(x.ended, 2, "encounter", x.headline)
    for death in fallen:
        add(death.position, 3, "death", f"{death.name} fell")
    found.sort(key=lambda entry: entry[:2])
    return tuple(entry for _, _, entry in found)


def _began(x: Encounter) -> str:
    if isinstance(x, TargetReport):
        return f"Target {x.name} began"
    if isinstance(x, FaceOffReport):
        return f"Face-off with {x.name} began"
    return f"{x.noun} with {x.name} began"


def _nearest(at: dict[int, datetime], position: int) -> datetime:
    """The time of the latest event at or before `position` (a checkpoint at an undone
    event's position), or the first event's."""
    earlier = [p for p in at if p <= position]
    return at[max(earlier)] if earlier else at[min(at)]
