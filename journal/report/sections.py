"""The report's sections as collectors: each takes the steps of a branch one at a time, as
they stream, and keeps only what it reports (`build` runs them all in one pass).

Pure: no journal, no clock, no output.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

from journal.core import events as ev
from journal.core.describe import describe
from journal.core.dice_stats import DiceStats, stats
from journal.core.state import State
from journal.report.as_json import note_item, undo_item
from journal.report.fold import Reads, Step, Taker
from journal.report.model import (
    CardStep,
    Chapter,
    Death,
    ItemRecord,
    MilestoneRecord,
    Note,
    OverrideRecord,
    Series,
    UndoRecord,
)
from journal.report.spool import Spooled
from journal.report.story import PATH, Timeline

if TYPE_CHECKING:
    from journal.games.interface import DieKind

Move = Literal["revealed", "pulled", "retrieved"]
MOVES: dict[type[ev.Payload], Move] = {
    ev.CardRevealed: "revealed", ev.CardPulled: "pulled", ev.CardRetrieved: "retrieved"}

_card_step: Callable[[tuple[int, int, Move, int | None, str | None]], CardStep] = partial(
    tuple.__new__, CardStep)
"""`CardStep._make` without its Python frame (a story moves to a card every few events)."""


class Story:
    """The path of cards, the chapters and the notes; each card and note on the timeline.
    With a `limit`, only the latest `limit` cards are kept (the rest counted), and no notes
    or chapter cards (the timeline tells them): what a long campaign's Markdown and HTML
    show."""

    def __init__(self, timeline: Timeline, limit: int | None = None,
                 spooled: Spooled | None = None) -> None:
        self.timeline, self.whole, self.spooled = timeline, limit is None, spooled
        self.path: deque[CardStep] = deque(maxlen=0 if spooled else limit)
        self.cards = 0
        self.chapters: list[tuple[int, int, list[int]]] = []
        self.notes: list[Note] = []

    def taker(self, kind: type) -> Taker | None:
        if kind in MOVES:
            return self._moved
        if issubclass(kind, ev.ChapterStarted):
            return self._chapter
        return self._note if issubclass(kind, ev.NoteAdded) and self.whole else None

    def _moved(self, recorded: ev.Entry, before: State, after: State) -> None:
        position, e, chapter = recorded.position, recorded.event, after.chapter
        card: int = e.card  # type: ignore[attr-defined]  # every event in MOVES has one
        found = _card_step((position, card, MOVES[type(e)], chapter, None))
        self.path.append(found)
        self.cards += 1
        if self.spooled is not None:
            self.spooled.path.add([position, card, found.how, chapter])
        if self.chapters and self.whole:
            self.chapters[-1][2].append(card)
        self.timeline.add(position, 0, PATH, "card", found, recorded.recorded_at)

    def _chapter(self, recorded: ev.Entry, before: State, after: State) -> None:
        chapter: int = recorded.event.chapter  # type: ignore[attr-defined]
        self.chapters.append((chapter, recorded.position, []))

    def _note(self, recorded: ev.Entry, before: State, after: State) -> None:
        text: str = recorded.event.text  # type: ignore[attr-defined]
        found = Note(recorded.position, text, recorded.recorded_at)
        if self.spooled is not None:
            self.spooled.notes.add(note_item(found))
        else:
            self.notes.append(found)

    def named(self, names: dict[int, str]) -> tuple[CardStep, ...]:
        return tuple(CardStep(c.position, c.card, c.how, c.chapter, names.get(c.card))
                     for c in self.path)

    def chapters_of(self) -> tuple[Chapter, ...]:
        return tuple(Chapter(number, at, tuple(cards)) for number, at, cards in self.chapters)


class Resources:
    """Each resource's value at every change."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.points: dict[str, list[tuple[int, int]]] = {}
        self.first = True

    def take(self, recorded: ev.Entry, then: State, now: State) -> None:
        after, before = now.resources, then.resources
        if after is before and not self.first:
            return
        first, self.first, points = self.first, False, self.points
        for name, value in after.items():
            if not first and before.get(name) == value:
                continue  # as it was: only what changed is a point
            line = points.get(name)
            if line is None:
                line = points[name] = []
                if after is not before:
                    self.names.add(name)
            if not line or line[-1][1] != value:
                line.append((recorded.position, value))

    def series(self) -> tuple[Series, ...]:
        return tuple(Series(name, tuple(self.points[name])) for name in sorted(self.names))


@dataclass
class _Carried:
    name: str
    kind: str
    gained: int
    holders: list[str | None] = field(default_factory=list)
    lost: int | None = None

    def held_by(self, name: str, holder: str | None) -> bool:
        return self.lost is None and self.name.casefold() == name.casefold() \
            and self.holders[-1] == holder


class Items:
    """Each item gained, who carried it in turn, and when it was lost (as `evolve` finds
    an item: by name and holder)."""

    def __init__(self) -> None:
        self.carried: list[_Carried] = []

    def take(self, recorded: ev.Entry, before: State, after: State) -> None:
        e = recorded.event
        if isinstance(e, ev.ItemPassed):
            found = next((c for c in self.carried if c.held_by(e.item, e.giver)), None)
            if found is not None:
                found.holders.append(e.holder)
        elif before.items is not after.items:
            # Gained and lost as the state shows them, whichever event did it (a purchase,
            # a single-use item used, an episode carried over).
            self._moved(Step(recorded, before, after))

    def _moved(self, step: Step) -> None:
        """Items gained, lost, or passed on with no pass of their own (a dead ally's items
        go to the ally who takes its place)."""
        carried = self.carried
        before = Counter((i.name, i.kind, i.holder) for i in step.before.items)
        after = Counter((i.name, i.kind, i.holder) for i in step.after.items)
        gained = after - before
        for name, kind, holder in (before - after).elements():
            found = next((c for c in carried if c.held_by(name, holder)), None)
            heir = next((g for g in gained if g[:2] == (name, kind) and gained[g] > 0), None)
            if found is not None and heir is not None:
                found.holders.append(heir[2])
                gained[heir] -= 1
            elif found is not None:
                found.lost = step.position
        for name, kind, holder in gained.elements():
            carried.append(_Carried(name, kind, step.position, [holder]))

    def records(self) -> tuple[ItemRecord, ...]:
        return tuple(ItemRecord(c.name, c.kind, c.gained, tuple(c.holders), c.lost)
                     for c in self.carried)


class Deaths:
    """Characters whose HP reached 0, at the event that brought it there."""

    def __init__(self, timeline: Timeline | None = None) -> None:
        self.found: list[Death] = []
        self.timeline = timeline

    def take(self, recorded: ev.Entry, before: State, after: State) -> None:
        if after.characters is before.characters:
            return
        for c in after.characters:
            old = before.character(c.name)
            if c.hp == 0 and (old is None or old.hp != 0):
                self.found.append(death := Death(c.name, recorded.position))
                if self.timeline is not None:
                    self.timeline.death(death, recorded.recorded_at)


def deaths(steps: Iterable[Step]) -> tuple[Death, ...]:
    found = Deaths()
    for step in steps:
        found.take(*step)
    return tuple(found.found)


class Milestones(Reads):
    """Each milestone retrieved, and when it left play."""

    def __init__(self) -> None:
        self.found: list[MilestoneRecord] = []

    @staticmethod
    def wants(kind: type) -> bool:
        return issubclass(kind, (ev.MilestoneRetrieved, ev.MilestoneDiscarded))

    def take(self, recorded: ev.Entry, before: State, after: State) -> None:
        e, found, position = recorded.event, self.found, recorded.position
        if isinstance(e, ev.MilestoneRetrieved):
            found.append(MilestoneRecord(e.milestone, position, None))
        elif isinstance(e, ev.MilestoneDiscarded):
            at = next((i for i in reversed(range(len(found))) if found[i].number == e.milestone
                       and found[i].discarded is None), None)
            if at is not None:
                found[at] = MilestoneRecord(e.milestone, found[at].retrieved, position)


class Ledger:
    """What the whole history tells, undone events and undos with it: the overrides, the
    undos (with what each took back), the first and the latest event."""

    def __init__(self, gone: frozenset[int], spooled: Spooled | None = None,
                 latest: int | None = None) -> None:
        """`latest`: keep only that many undos, the latest (`counted` counts them all)."""
        self.gone, self.spooled = gone, spooled
        self.overrides: list[OverrideRecord] = []
        self.undos: deque[UndoRecord] = deque(maxlen=latest)
        self.counted = 0
        self.said: dict[int, str] = {}
        self.first: ev.Entry | None = None
        self.last: ev.Entry | None = None
        """Set as the branch streams past (`take` is handed only what it lists)."""

    def take(self, r: ev.Entry) -> None:
        """An event overridden, undone, or an undo."""
        if r.override:
            self.overrides.append(OverrideRecord(r.position, describe(r.event), r.override,
                                                 r.position in self.gone))
        if r.position in self.gone:
            self.said[r.position] = describe(r.event)
        elif isinstance(r.event, ev.Retracted):
            self.counted += 1
            undo = UndoRecord(r.position, tuple(
                (p, self.said.pop(p, "?")) for p in r.event.positions))
            if self.spooled is not None:
                self.spooled.undos.add(undo_item(undo))
            else:
                self.undos.append(undo)




class Counted(Reads):
    """Every die of `kinds` (a game's, `recheck.DIE_KINDS`) that the events rolled, counted
    per face as the audit counts them; each named without the game's `prefix`."""

    def __init__(self, kinds: Sequence[DieKind], prefix: str) -> None:
        self.prefix = prefix
        self.kinds = list(kinds)
        self.counts: list[Counter[str]] = [Counter() for _ in self.kinds]
        self.reads: dict[type, list[tuple[Counter[str], Callable[[Any], Iterable[str]]]]] = {}
        """Per event class, the dice it rolls and how to read them (asked once a class)."""

    def stats(self) -> tuple[DiceStats, ...]:
        """Each kind of die's faces against a fair die's."""
        return tuple(stats(kind.name.removeprefix(self.prefix), counted, kind.printed)
                     for kind, counted in zip(self.kinds, self.counts, strict=True))

    def wants(self, kind: type) -> bool:
        tag = getattr(kind, "model_fields", {}).get("type")
        return tag is not None and any(tag.default in k.rolls for k in self.kinds)

    def take(self, recorded: ev.Entry, before: State, after: State) -> None:
        e = recorded.event
        reads = self.reads.get(type(e))
        if reads is None:
            tag = ev.tag_of(type(e))
            reads = self.reads[type(e)] = [
                (counted, found.rolls[tag])
                for found, counted in zip(self.kinds, self.counts, strict=True)
                if found.rolls.get(tag)]
        for counted, read in reads:
            counted.update(read(e))
