"""A long campaign told in a readable length: what the Markdown and HTML reports show when
a branch holds more than a page can carry (the JSON report keeps everything).

Repeated encounters become one row per card (how often, how each ended, first and last);
the detail is kept for the latest of each card and the notable ones (under way, or an
outcome that card seldom had). The timeline keeps every chapter, checkpoint and death,
and the latest of the rest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from journal.report.model import (
    CardStep,
    Encounter,
    EncounterReport,
    FaceOffReport,
    Position,
    Report,
    TargetReport,
    TimelineEntry,
)

T = TypeVar("T")

DETAILED = 40
"""Encounters told in full before the report summarises them."""
TIMELINE = 400
"""Timeline entries shown before the earlier cards, notes and encounters are counted."""
PATH = 200
"""Cards on the one-line path before the earlier ones are counted."""
SERIES = 60
"""Changes of a resource listed before the earlier ones are counted."""
RARE = 0.1
"""An outcome a card had in fewer than this share of its encounters is notable."""
ALWAYS = ("chapter", "checkpoint", "death")


@dataclass(frozen=True, slots=True)
class EncounterGroup:
    """Every encounter with one card: how often, how each ended, the first and the last."""

    kind: str
    name: str
    count: int
    outcomes: tuple[tuple[str, int], ...]
    first: Position
    last: Position

    @property
    def outcome_text(self) -> str:
        return ", ".join(f"{outcome} {count:,}" for outcome, count in self.outcomes)


@dataclass(frozen=True, slots=True)
class Encounters:
    """What a report shows of its encounters: all of them, or a summary and a few."""

    groups: tuple[EncounterGroup, ...]
    """Empty when every encounter is told in full."""
    detailed: tuple[Encounter, ...]
    total: int

    @property
    def summarised(self) -> bool:
        return bool(self.groups)


def kind_of(x: Encounter) -> str:
    if isinstance(x, TargetReport):
        return "target"
    if isinstance(x, FaceOffReport):
        return "face-off"
    return x.noun.lower() if isinstance(x, EncounterReport) else "encounter"


def _outcome(x: Encounter) -> str:
    return x.outcome or "under way"


def encounters(report: Report, limit: int = DETAILED) -> Encounters:
    every = report.encounters
    if len(every) <= limit:
        return Encounters((), tuple(every), len(every))
    groups: dict[tuple[str, str], list[Encounter]] = {}
    for x in every:
        groups.setdefault((kind_of(x), x.name), []).append(x)
    summary = tuple(_group(kind, name, xs) for (kind, name), xs in groups.items())
    return Encounters(summary, _notable(list(groups.values()), limit), len(every))


def _group(kind: str, name: str, xs: Sequence[Encounter]) -> EncounterGroup:
    outcomes = Counter(_outcome(x) for x in xs).most_common()
    return EncounterGroup(kind, name, len(xs), tuple(outcomes), xs[0].started, xs[-1].started)


def _notable(groups: list[list[Encounter]], limit: int) -> tuple[Encounter, ...]:
    """The latest of each card, then those under way or with a rare outcome, the most
    recent first, at most `limit`; told in the order they began."""
    chosen: dict[int, Encounter] = {}
    for xs in groups:
        chosen.setdefault(id(xs[-1]), xs[-1])
    for xs in groups:
        counts = Counter(_outcome(x) for x in xs)
        for x in reversed(xs):
            if len(chosen) >= limit:
                break
            if x.outcome is None or counts[_outcome(x)] < RARE * len(xs):
                chosen.setdefault(id(x), x)
    latest = sorted(chosen.values(), key=lambda x: x.started)[-limit:]
    return tuple(latest)


@dataclass(frozen=True, slots=True)
class Timeline:
    entries: tuple[TimelineEntry, ...]
    left_out: int
    """Earlier cards, notes and encounters not shown."""


def timeline(report: Report, limit: int = TIMELINE) -> Timeline:
    every = report.timeline
    if len(every) <= limit:
        return Timeline(tuple(every), 0)
    rest = [i for i, m in enumerate(every) if m.kind not in ALWAYS]
    keep = set(rest[-limit:]) | {i for i, m in enumerate(every) if m.kind in ALWAYS}
    return Timeline(tuple(m for i, m in enumerate(every) if i in keep), len(every) - len(keep))


def path(report: Report, limit: int = PATH) -> tuple[tuple[CardStep, ...], int]:
    """The latest `limit` cards of the path, and how many came before them."""
    steps = report.path
    return (tuple(steps[-limit:]), max(len(steps) - limit, 0))


def series(points: Sequence[T], limit: int = SERIES) -> tuple[Sequence[T], int]:
    """A resource's latest `limit` changes, and how many came before them."""
    return (points[-limit:], max(len(points) - limit, 0))
