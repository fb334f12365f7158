"""A long campaign told in a readable length: what the Markdown and HTML reports show when
a branch holds more than a page can carry (the JSON report keeps everything).

Repeated encounters become one row per card (how often, how each ended, first and last);
the detail is kept for the latest of each card and the notable ones (under way, or an
outcome that card seldom had). The timeline keeps every chapter, checkpoint and death,
and the latest of the rest.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from journal.report.model import (
    CardStep,
    Encounter,
    Ended,
    Position,
    Report,
    TimelineEntry,
    UndoRecord,
    kind_of,
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
UNDOS = 100
"""Undos listed (the latest) before the earlier ones are counted."""
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


class Told(Protocol):
    """An encounter as the summary weighs it (a report, or one not yet made)."""

    @property
    def outcome(self) -> str | None: ...

    @property
    def started(self) -> int: ...


X = TypeVar("X", bound=Told)


def _outcome(x: Told) -> str:
    return x.outcome or "under way"


def encounters(report: Report, limit: int = DETAILED) -> Encounters:
    if isinstance(report.shown, Shown):
        return report.shown.encounters
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
    return _chosen([(xs[-1], len(xs), Counter(_outcome(x) for x in xs), reversed(xs))
                    for xs in groups], limit)


def _chosen(groups: Sequence[tuple[X, int, Counter[str], Iterable[X]]],
            limit: int) -> tuple[X, ...]:
    """Per group its latest, its count, its outcomes counted and its encounters newest
    first (those that may be notable, at least)."""
    chosen: dict[int, X] = {}
    for last, _, _, _ in groups:
        chosen.setdefault(id(last), last)
    for _, count, counts, newest in groups:
        for x in newest:
            if len(chosen) >= limit:
                break
            if x.outcome is None or counts[_outcome(x)] < RARE * count:
                chosen.setdefault(id(x), x)
    latest = sorted(chosen.values(), key=lambda x: x.started)[-limit:]
    return tuple(latest)


@dataclass(frozen=True, slots=True)
class Timeline:
    entries: tuple[TimelineEntry, ...]
    left_out: int
    """Earlier cards, notes and encounters not shown."""


def timeline(report: Report, limit: int = TIMELINE) -> Timeline:
    if isinstance(report.shown, Shown):
        return report.shown.timeline
    every = report.timeline
    if len(every) <= limit:
        return Timeline(tuple(every), 0)
    rest = [i for i, m in enumerate(every) if m.kind not in ALWAYS]
    keep = set(rest[-limit:]) | {i for i, m in enumerate(every) if m.kind in ALWAYS}
    return Timeline(tuple(m for i, m in enumerate(every) if i in keep), len(every) - len(keep))


def path(report: Report, limit: int = PATH) -> tuple[tuple[CardStep, ...], int]:
    """The latest `limit` cards of the path, and how many came before them."""
    if isinstance(report.shown, Shown):
        return report.shown.path
    steps = report.path
    return (tuple(steps[-limit:]), max(len(steps) - limit, 0))


def undos(report: Report, limit: int = UNDOS) -> tuple[tuple[UndoRecord, ...], int]:
    """The latest `limit` undos, and how many came before them."""
    if isinstance(report.shown, Shown):
        return report.undos, report.shown.undos
    every = report.undos
    return (tuple(every[-limit:]), max(len(every) - limit, 0))


def series(points: Sequence[T], limit: int = SERIES) -> tuple[Sequence[T], int]:
    """A resource's latest `limit` changes, and how many came before them."""
    return (points[-limit:], max(len(points) - limit, 0))


@dataclass(frozen=True, slots=True)
class Shown:
    """What a long campaign's Markdown and HTML show, kept as the branch streamed (the
    report holds no more than this): `encounters`, `timeline` and `path` as above."""

    encounters: Encounters
    timeline: Timeline
    path: tuple[tuple[CardStep, ...], int]
    undos: int = 0
    """The earlier undos left out of `Report.undos` (which holds the latest `UNDOS`)."""


@dataclass
class _Group:
    kind: str
    name: str
    count: int
    first: Position
    latest: Ended
    outcomes: Counter[str]
    newest: dict[str, deque[Ended]]
    """Per outcome, the latest of them: enough to choose the notable ones from."""


class Kept:
    """The encounters of a branch as they end: every one (`limit` None, the JSON's), or
    per card a count, its outcomes and the few the Markdown and HTML can show in full."""

    def __init__(self, limit: int | None = DETAILED, hold: bool = True) -> None:
        self.limit, self.total, self.hold = limit, 0, hold
        self.every: list[Encounter] = []
        self.groups: dict[tuple[str, str], _Group] = {}
        self.last: Ended | None = None

    def add(self, x: Ended) -> None:
        self.total, self.last = self.total + 1, x
        if self.limit is None:
            if self.hold:
                self.every.append(x.made())
            return
        kind, outcome = x.kind, x.outcome or "under way"  # `_outcome`, without its call
        group = self.groups.get((kind, x.name))
        if group is None:
            group = self.groups[kind, x.name] = _Group(kind, x.name, 0, x.started, x,
                                                       Counter(), {})
        group.count, group.latest = group.count + 1, x
        group.outcomes[outcome] += 1
        # One more than can be shown: the latest of a card is shown whatever its outcome.
        newest = group.newest.get(outcome)
        if newest is None:
            newest = group.newest[outcome] = deque(maxlen=self.limit + 1)
        newest.append(x)

    def encounters(self) -> tuple[Encounter, ...]:
        """Every encounter (kept whole), or those shown in full."""
        return tuple(self.every) if self.limit is None else self.shown().detailed

    def shown(self) -> Encounters:
        assert self.limit is not None
        groups = list(self.groups.values())
        if self.total <= self.limit:
            every = sorted((x for g in groups for xs in g.newest.values() for x in xs),
                           key=lambda x: x.started)
            return Encounters((), tuple(x.made() for x in every), self.total)
        summary = tuple(EncounterGroup(g.kind, g.name, g.count,
                                       tuple(g.outcomes.most_common()), g.first,
                                       g.latest.started) for g in groups)
        chosen = _chosen([(g.latest, g.count, g.outcomes, _newest(g)) for g in groups],
                         self.limit)
        return Encounters(summary, tuple(x.made() for x in chosen), self.total)


def _newest(group: _Group) -> list[Ended]:
    """The group's encounters kept, newest first."""
    return sorted((x for xs in group.newest.values() for x in xs),
                  key=lambda x: x.started, reverse=True)
