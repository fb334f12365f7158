"""Build a play report from a branch's events: pure, no clock, no journal, no output.

The events are read once, as they stream: each that counts is folded (undone ones aside,
as `fold.steps` does), and each section that reads it takes the event with the states
before and after it as it passes, and keeps only what it reports (`sections`, `story`,
each game's encounters). Undone events and overrides are listed from the full history,
as they were kept. No list of the branch's events or states is made.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import chain
from typing import Any, Literal, Protocol

from journal.core import events as ev
from journal.core.state import Handler, State, handler, overridden, retracted_positions
from journal.games import Game
from journal.games import game as game_named
from journal.games.packages import package_of
from journal.report import as_json, digest, story
from journal.report.fold import Taker
from journal.report.model import (
    CampaignInfo,
    CheckpointMark,
    Death,
    Encounter,
    Ended,
    Report,
)
from journal.report.parts import Typed, report_of
from journal.report.sections import (
    Deaths,
    Items,
    Ledger,
    Milestones,
    Resources,
    Story,
    deaths,
)
from journal.report.spool import Spooled

__all__ = ["Source", "build", "deaths", "standing"]


class Seen(Protocol):
    """A reader of some kinds of event, undone ones too."""

    def wants(self, kind: type) -> bool: ...

    def take(self, recorded: ev.Entry) -> None: ...


Keep = Literal["whole", "shown", "spooled"]
"""What a report keeps: everything in memory; only what the Markdown and HTML show; or
everything, the sections that grow with the campaign on disk (the JSON's)."""


@dataclass(frozen=True)
class Source:
    """What a report is built from: the branch's events and where it sits (`head_hash`:
    the hash of its latest event).

    `history` may be a stream read once (`store.log.events`), with `gone`, the positions its
    undos take back, known beforehand (`store.log.retracted`); without `gone` it is a list.
    `keep`: what the report keeps (`Keep`).
    `seen`: handed every event read that it `wants`, undone ones too (the map's own
    reading)."""

    campaign: str
    game: str
    branch: str
    head_hash: str
    history: Iterable[ev.Entry]
    checkpoints: Sequence[CheckpointMark] = ()
    parent: str | None = None
    fork: int | None = None
    gone: frozenset[int] | None = None
    keep: Keep = "whole"
    seen: Seen | None = None


def build(source: Source) -> Report:
    """The play report of one branch."""
    rules = game_named(source.game)
    history = source.history
    if source.gone is None:
        history = list(history)
        gone = retracted_positions(history)
    else:
        gone = source.gone
    history = iter(history)
    first = next(history, None)  # when the campaign began
    if first is not None:
        history = chain((first,), history)
    whole = source.keep != "shown"
    spooled = Spooled() if source.keep == "spooled" else None
    timeline = story.Timeline(source.checkpoints, None if whole else digest.TIMELINE,
                              spooled.timeline if spooled else None)
    kept = digest.Kept(None if whole else digest.DETAILED, hold=spooled is None)

    def found(x: Ended, started: Any, ended: Any) -> None:
        kept.add(x)
        if spooled is not None:
            spooled.encounters.add(as_json.encounter(x.made()))
        timeline.encounter(x, started, ended)

    told = Story(timeline, None if whole else digest.PATH, spooled)
    names, resources, items = story.Names(), Resources(), Items()
    fallen, milestones = Deaths(timeline), Milestones()
    game = report_of(package_of(rules.name)).parts(rules, found)
    encounters, dice, world = game.encounters, game.dice, game.world
    ledger = Ledger(gone, spooled, None if whole else digest.UNDOS)
    ledger.first = first
    # The game's encounters last: an encounter ended is told after what its event began.
    typed: list[Typed] = [timeline, told, names, milestones, dice]
    if world is not None:
        typed.append(world)
    typed.append(encounters)
    plans: dict[type, _Plan] = {}
    seen, marked = source.seen, {m.position: m.card for m in source.checkpoints}
    attention = gone | marked.keys()  # an event undone, or a checkpoint made at it
    spooling = spooled is not None
    state, latest, recorded = State(), None, None
    # One pass: the sections that read only some events are handed those (`taker`, asked
    # once per kind of event); the others look at what changed, the cheap check made here.
    # The loop runs once an event, and each test in it costs a long campaign's report: an
    # event set aside (an undo, a kind the map reads, a rule overridden, undone, a
    # checkpoint made at it) is told apart by one test, and only it is looked at further.
    for recorded in history:
        event = recorded.event
        try:  # (`type(x)`, not `x.__class__`: an event's attributes are a model's, slow)
            plain, takers, apply, undo, watch, passed = plans[type(event)]
        except KeyError:
            plain, takers, apply, undo, watch, passed = plans[type(event)] = _plan(
                type(event), typed, seen)
        aside = not plain or recorded.override is not None or recorded.position in attention
        if aside:
            position, override = recorded.position, recorded.override
            if watch:
                seen.take(recorded)  # type: ignore[union-attr]  # watch: there is one
            if undo or override or position in gone:
                ledger.take(recorded)
                if position in gone:
                    continue
        if not undo:
            after = apply(event, state)  # `evolve`, its handler looked up once per kind
            if aside and override:
                after = overridden(after, position, override)
            for take in takers:
                take(recorded, state, after)
            # From the first state, empty: a first event that sets resources changes them.
            if after.resources is not state.resources:
                resources.take(recorded, state, after)
            if after.items is not state.items or passed:
                items.take(recorded, state, after)
            if after.characters is not state.characters:
                fallen.take(recorded, state, after)
            state, latest = after, recorded
        if aside and position in marked:  # the card a checkpoint marks, and its moment
            marked[position] = state.card
            if latest is not None:
                timeline.checkpoints(position, latest.recorded_at)
        if spooling:  # what no later event can come before, written out
            at = recorded.position
            timeline.flush(min(at, encounters.opened() or at))
    ledger.last = recorded
    encounters.close()
    path = told.named(names.names)
    entries, left_out = timeline.entries(names.names)
    shown = None if whole else digest.Shown(
        kept.shown(), digest.Timeline(entries, left_out), (path, max(told.cards - len(path), 0)),
        ledger.counted - len(ledger.undos))
    xs, dead = kept.encounters(), tuple(fallen.found)
    return Report(
        campaign=_campaign(source, rules, state, kept.last.made() if kept.last else None,
                           dead, ledger),
        path=path, chapters=told.chapters_of(),
        checkpoints=tuple(replace(m, card=marked[m.position]) for m in source.checkpoints),
        encounters=xs, resources=resources.series(), items=items.records(),
        deaths=dead, notes=tuple(told.notes), overrides=tuple(ledger.overrides),
        undos=tuple(ledger.undos), dice=game.dice_told(state),
        deaths_kept=report_of(package_of(rules.name)).DEATHS,
        milestones=tuple(milestones.found), timeline=entries, shown=shown,
        spooled=None if spooled is None else replace(spooled, names=names.names),
        **(world.sections() if world is not None else {}))


_Plan = tuple[bool, tuple[Taker, ...], Handler, bool, bool, bool]


def _plan(kind: type, typed: Sequence[Typed], seen: Seen | None) -> _Plan:
    """For one kind of event: is it plain (neither an undo nor a kind the map reads), which
    sections read it, how it changes the state; is it an undo, does the map's reader want
    it, is it an item passed (which the items section reads whatever it changed)."""
    takers = (t.taker(kind) for t in typed)
    undo = issubclass(kind, ev.Retracted)
    watch = seen is not None and seen.wants(kind)
    return (not (undo or watch), tuple(take for take in takers if take is not None),
            handler(kind), undo, watch, kind is ev.ItemPassed)


def _campaign(source: Source, rules: Game, state: State, last: Encounter | None,
              fallen: Sequence[Death], ledger: Ledger) -> CampaignInfo:
    assert ledger.first is not None and ledger.last is not None, "a campaign has its start"
    return CampaignInfo(
        name=source.campaign, game=rules.name, title=rules.title, players=state.players,
        characters=tuple(c.name for c in state.characters), branch=source.branch,
        parent=source.parent, fork=source.fork, first_at=ledger.first.recorded_at,
        last_at=ledger.last.recorded_at, events=ledger.last.position,
        standing=standing(state, () if last is None else (last,), fallen),
        head_hash=source.head_hash)


def standing(state: State, encounters: Sequence[Encounter], fallen: Sequence[Death]) -> str:
    """Where the campaign stands, in one sentence: the card, the chapter, what the players
    hold, the encounter under way or the last one played, and who fell."""
    where = "No card revealed yet" if state.card is None else f"At card {state.card}"
    if state.chapter is not None:
        where += f" in chapter {state.chapter}"
    held = [f"{name} {n}" for name, n in sorted(state.resources.items())]
    if held:
        where += ", holding " + ", ".join(held)
    parts = [where]
    if encounters:
        last = encounters[-1]
        parts.append(last.headline if last.outcome is None else f"last encounter: {last.headline}")
    parts += [f"{d.name} fell at #{d.position}" for d in fallen]
    return "; ".join(parts) + "."
