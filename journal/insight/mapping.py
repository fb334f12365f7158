"""The story map: the cards every road reached, across the branches of a campaign and every
campaign of the same game in the journal (Volume 2's "Roads Less Traveled").

Spoiler-safe by construction: a road is read from the events only, and the events hold only
the cards the players were told to reveal, pull or retrieve. A card they did not see is never
named or counted; the numbers between two cards seen appear as a count of numbers skipped,
never as numbers. (Cards a Spire's End reveal took out of the game are not seen: the map
leaves them among the skipped.)

`roads` reads the journal through the service; the rest is pure.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple

from journal.core import events as ev

if TYPE_CHECKING:
    from journal.service.reading import Reading
    from journal.service.views import BranchInfo


class Reach(NamedTuple):
    """One time a road reached a story card (a named tuple: a long road has one a card)."""

    card: int
    position: int
    chapter: int | None
    at: datetime
    how: str
    """revealed, pulled, retrieved, or start (a card the campaign's start pulled)."""


@dataclass(frozen=True)
class Road:
    """A branch as the map sees it: every card its path reached, its ancestors' included."""

    campaign: str
    branch: str
    parent: str | None
    fork: int | None
    current: bool
    reaches: tuple[Reach, ...]
    returns: tuple[tuple[int, int | None], ...] = ()
    """Where the road went back from a pulled card, and to which card: a return reaches no
    card, it goes back to one (`card_at`)."""

    @property
    def name(self) -> str:
        return f"{self.campaign}/{self.branch}"

    @property
    def own(self) -> tuple[Reach, ...]:
        """The reaches past the fork: this road's own (a root branch owns them all)."""
        return tuple(r for r in self.reaches if self.fork is None or r.position > self.fork)

    def card_at(self, position: int) -> int | None:
        """The card the road stood at, at `position` (where it parted): the last reached by
        then, or returned to from a pulled card."""
        found: list[tuple[int, int | None]] = [
            (r.position, r.card) for r in self.reaches if r.position <= position]
        found += [(at, card) for at, card in self.returns if at <= position]
        return max(found, key=lambda moved: moved[0])[1] if found else None


@dataclass(frozen=True)
class Seen:
    """A card seen on some road: when first, in which chapter, how many times, by whom."""

    card: int
    chapter: int | None
    times: int
    first_at: str
    first_road: str
    roads: tuple[str, ...]


@dataclass(frozen=True)
class Gap:
    """Card numbers between two cards seen that no road reached: only their count."""

    after: int
    before: int

    @property
    def skipped(self) -> int:
        return self.before - self.after - 1


@dataclass(frozen=True)
class StoryMap:
    game: str
    current: str
    campaigns: tuple[str, ...]
    roads: tuple[Road, ...]
    cards: tuple[Seen, ...]
    gaps: tuple[Gap, ...]

    def chapters(self) -> list[tuple[int | None, list[Seen]]]:
        """The cards seen by the chapter they were first reached in, cards before any
        chapter first."""
        grouped: dict[int | None, list[Seen]] = {}
        for seen in self.cards:
            grouped.setdefault(seen.chapter, []).append(seen)
        return sorted(grouped.items(), key=lambda kv: -1 if kv[0] is None else kv[0])


# -- reading a road from its events ----------------------------------------------------------

WATCHED = (ev.ChapterStarted, ev.CampaignStarted, ev.PulledCardReturned)


class Reader:
    """A branch's reaches as its events stream past, undone ones (`gone`) left out; and the
    chapters begun, so that a branch forked from it shares the reaches before its fork
    rather than reading them again."""

    def __init__(self, gone: frozenset[int], chapter: int | None = None) -> None:
        self.gone, self.chapter = gone, chapter
        self.found: list[Reach] = []
        self.returns: list[tuple[int, int | None]] = []
        self.chapters: list[tuple[int, int]] = []

    @staticmethod
    def wants(kind: type) -> bool:
        return kind in MOVED or issubclass(kind, WATCHED)

    def take(self, recorded: ev.Entry) -> None:
        position, event = recorded.position, recorded.event
        if position in self.gone:
            return
        how = MOVED.get(type(event))
        if how is not None:  # a card moved to: most of what a road reads
            self.found.append(_reach((event.card, position,  # type: ignore[attr-defined]
                                      self.chapter, recorded.recorded_at, how)))
        elif isinstance(event, ev.PulledCardReturned):
            self.returns.append((position, event.card))
        elif isinstance(event, ev.ChapterStarted):
            self.chapter = event.chapter
            self.chapters.append((position, event.chapter))
        elif isinstance(event, ev.CampaignStarted):
            at = recorded.recorded_at
            self.found += [Reach(card, position, self.chapter, at, "start")
                           for card in event.pulled]

    def read(self, history: Iterable[ev.Entry]) -> Reader:
        wanted: dict[type, bool] = {}
        for recorded in history:
            kind = type(recorded.event)
            if wanted.get(kind) or (kind not in wanted and wanted.setdefault(
                    kind, self.wants(kind))):
                self.take(recorded)
        return self

    def forked(self, gone: frozenset[int], fork: int) -> Reader | None:
        """A reader for a branch forked from this one at `fork` that undid what this one
        undid up to there, holding this one's reaches up to the fork (the same objects);
        None when their undos up to the fork differ."""
        if {p for p in gone if p <= fork} != {p for p in self.gone if p <= fork}:
            return None
        chapter = next((c for at, c in reversed(self.chapters) if at <= fork), None)
        found = Reader(gone, chapter)
        found.found = self.found[:bisect.bisect_right(self.found, fork,
                                                      key=lambda r: r.position)]
        found.returns = [(at, card) for at, card in self.returns if at <= fork]
        return found


def reaches(history: Iterable[ev.Entry],
            gone: frozenset[int] | None = None) -> tuple[Reach, ...]:
    """The story cards a branch's events reached, in order, undone events left out (`gone`,
    or the positions the events' own undos name)."""
    if gone is None:
        from journal.core.state import retracted_positions

        history = list(history)
        gone = retracted_positions(history)
    return tuple(Reader(gone).read(history).found)


MOVED: dict[type, str] = {
    ev.CardRevealed: "revealed", ev.CardPulled: "pulled", ev.CardRetrieved: "retrieved"}

_reach: Callable[[tuple[int, int, int | None, datetime, str]], Reach] = partial(
    tuple.__new__, Reach)
"""`Reach._make` without its Python frame (a long road reaches a card every few events)."""


# -- the map -------------------------------------------------------------------------------------

def story_map(game: str, current: str, roads: Sequence[Road]) -> StoryMap:
    """The map of `roads`: each card with the times it was reached (a reach the roads share,
    an event before a fork, counts once), its first reach by time, and the gaps between
    the cards seen."""
    by_name = {(road.campaign, road.branch): road for road in roads}
    by_card: dict[int, dict[tuple[str, str, int], tuple[Road, Reach]]] = {}
    for road in roads:
        fork = road.fork if road.fork is not None else -1
        for reach in road.reaches:  # (a long road reaches thousands of cards: kept lean)
            owner = road if reach.position > fork else _owner(road, reach.position, by_name)
            reached = by_card.get(reach.card)
            if reached is None:
                reached = by_card[reach.card] = {}
            reached.setdefault((owner.campaign, owner.branch, reach.position), (owner, reach))
    on = [(road.name, {r.card for r in road.reaches}) for road in roads]
    cards = tuple(_seen(card, list(by_card[card].values()), on) for card in sorted(by_card))
    numbers = [c.card for c in cards]
    gaps = tuple(Gap(a, b) for a, b in itertools.pairwise(numbers) if b - a > 1)
    campaigns = tuple(dict.fromkeys(road.campaign for road in roads))
    return StoryMap(game, current, campaigns, tuple(roads), cards, gaps)


def _owner(road: Road, position: int, by_name: dict[tuple[str, str], Road]) -> Road:
    """The road whose own events hold `position` (a reach before a fork is its parent's)."""
    while road.fork is not None and position <= road.fork and road.parent is not None \
            and (road.campaign, road.parent) in by_name:
        road = by_name[road.campaign, road.parent]
    return road


def _seen(card: int, owned: list[tuple[Road, Reach]],
          on: Sequence[tuple[str, set[int]]]) -> Seen:
    """A card: its reaches, the first of them by time, and the roads (by name, each with
    the cards it reached) that reached it."""
    # By the instant (a time without its offset, from an old import, taken as local).
    first_road, first = min(owned, key=lambda pair: (pair[1].at.timestamp(), pair[1].position))
    return Seen(card, first.chapter, len(owned), first.at.isoformat(), first_road.name,
                tuple(name for name, cards in on if card in cards))


def to_json(found: StoryMap) -> dict[str, Any]:
    return {
        "game": found.game,
        "current": found.current,
        "campaigns": list(found.campaigns),
        "seen": len(found.cards),
        "cards": [{"card": s.card, "chapter": s.chapter, "times": s.times,
                   "first": {"at": s.first_at, "road": s.first_road},
                   "roads": list(s.roads)} for s in found.cards],
        "skipped": [{"after": g.after, "before": g.before, "count": g.skipped}
                    for g in found.gaps],
        "roads": [_road_json(road) for road in found.roads],
    }


def _road_json(road: Road) -> dict[str, Any]:
    return {
        "campaign": road.campaign, "branch": road.branch, "parent": road.parent,
        "fork": road.fork, "card_at_fork": road.card_at(road.fork) if road.fork else None,
        "current": road.current, "path": [r.card for r in road.reaches],
        "own": [r.card for r in road.own],
    }


# -- reading the journal -------------------------------------------------------------------------

def roads(journal: Reading, read: dict[str, Reader] | None = None,
          ) -> tuple[str, str, list[Road]]:
    """The game and current road of the current campaign, and every road of every campaign
    of its game in the journal, read through the service (no SQL here), each branch as it
    streams. `read`: some of the current campaign's branches, by name, already read (the
    report's): those are not read again, nor what a branch forked from one of them shares
    with it."""
    campaign = journal.campaign()
    found: list[Road] = []
    current = ""
    for other, _, _ in journal.campaigns():
        if other.game != campaign.game:
            continue
        # The same journal seen through the other campaign (one store, one connection pool).
        seen = journal if other.name == campaign.name else journal.through(other.name)
        known = read if read and seen is journal else {}
        for info in seen.branches(cards=False):
            reader = _read(seen, info, known)
            road = Road(other.name, info.branch.name, info.parent, info.branch.fork_position,
                        info.current, tuple(reader.found), tuple(reader.returns))
            found.append(road)
            if info.current and other.name == campaign.name:
                current = road.name
    return campaign.game, current, found


def _read(journal: Reading, info: BranchInfo, known: dict[str, Reader]) -> Reader:
    name, fork = info.branch.name, info.branch.fork_position
    if name in known:
        return known[name]
    _, gone, events = journal.replays.events(name)  # (nothing is read until they are asked for)
    parent = known.get(info.parent) if info.parent is not None else None
    shared = parent.forked(gone, fork) if parent is not None and fork is not None else None
    if shared is not None and fork is not None:
        return shared.read(journal.replays.events(name, fork)[2])
    return Reader(gone).read(events)


