"""Build a play report from a branch's events: pure, no clock, no journal, no output.

The events are folded once (`fold`), undone ones aside; the sections are read off the
steps. Undone events and overrides are listed from the full history, as they were kept.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from journal import events as ev
from journal.describe import describe
from journal.dice_stats import DiceStats, Luck, luck, stats
from journal.games import Game
from journal.games import game as game_named
from journal.report import hildegard, story
from journal.report.fold import Step, fold
from journal.report.model import (
    CampaignInfo,
    CardStep,
    Chapter,
    CheckpointMark,
    Death,
    Dice,
    Encounter,
    ItemRecord,
    MilestoneRecord,
    Note,
    OverrideRecord,
    Report,
    Series,
    UndoRecord,
)
from journal.state import State, retracted_positions

Move = Literal["revealed", "pulled", "retrieved"]
MOVES: dict[type[ev.Payload], Move] = {
    ev.CardRevealed: "revealed", ev.CardPulled: "pulled", ev.CardRetrieved: "retrieved"}


@dataclass(frozen=True)
class Source:
    """What a report is built from: the branch's events and where it sits."""

    campaign: str
    game: str
    branch: str
    history: Sequence[ev.Recorded]
    checkpoints: Sequence[CheckpointMark] = ()
    parent: str | None = None
    fork: int | None = None


def build(source: Source) -> Report:
    """The play report of one branch."""
    rules = game_named(source.game)
    steps = fold(source.history)
    state = steps[-1].after if steps else State()
    path = _path(steps, story.card_names(steps))
    encounters = _encounters(rules.name, steps)
    fallen = deaths(steps)
    return Report(
        campaign=_campaign(source, rules, state, encounters, fallen),
        path=path, chapters=_chapters(steps, path), checkpoints=tuple(source.checkpoints),
        encounters=encounters, resources=_resources(steps), items=_items(steps),
        deaths=fallen, notes=_notes(steps), overrides=_overrides(source.history),
        undos=_undos(source.history), dice=_dice(rules, steps, state),
        milestones=_milestones(steps),
        timeline=story.timeline(steps, path, source.checkpoints, encounters, fallen),
        **_world(rules.name, steps))


def _milestones(steps: Sequence[Step]) -> tuple[MilestoneRecord, ...]:
    """Each milestone retrieved, and when it left play."""
    found: list[MilestoneRecord] = []
    for step in steps:
        e = step.recorded.event
        if isinstance(e, ev.MilestoneRetrieved):
            found.append(MilestoneRecord(e.milestone, step.position, None))
        elif isinstance(e, ev.MilestoneDiscarded):
            at = next((i for i in reversed(range(len(found))) if found[i].number == e.milestone
                       and found[i].discarded is None), None)
            if at is not None:
                found[at] = MilestoneRecord(e.milestone, found[at].retrieved, step.position)
    return tuple(found)


def _world(game: str, steps: Sequence[Step]) -> dict[str, Any]:
    if game != "volume2":
        return {}
    from journal.report import volume2

    return {"trades": volume2.trades(steps), "waterfalls": volume2.waterfalls(steps)}


def _encounters(game: str, steps: Sequence[Step]) -> tuple[Encounter, ...]:
    if game == "hildegard":
        return hildegard.encounters(steps)
    if game == "volume2":
        from journal.report import volume2

        return volume2.encounters(steps)
    from journal.report import spires_end

    return spires_end.encounters(steps)


def _campaign(source: Source, rules: Game, state: State, encounters: Sequence[Encounter],
              fallen: Sequence[Death]) -> CampaignInfo:
    history = source.history
    return CampaignInfo(
        name=source.campaign, game=rules.name, title=rules.title, players=state.players,
        characters=tuple(c.name for c in state.characters), branch=source.branch,
        parent=source.parent, fork=source.fork, first_at=history[0].recorded_at,
        last_at=history[-1].recorded_at, events=history[-1].position,
        standing=standing(state, encounters, fallen), head_hash=history[-1].hash)


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


def _path(steps: Sequence[Step], names: dict[int, str]) -> tuple[CardStep, ...]:
    found = []
    for step in steps:
        e = step.recorded.event
        how = MOVES.get(type(e))
        if how is not None:
            card: int = e.card  # type: ignore[attr-defined]  # every event in MOVES has one
            found.append(CardStep(step.position, card, how, step.after.chapter, names.get(card)))
    return tuple(found)


def _chapters(steps: Sequence[Step], path: Sequence[CardStep]) -> tuple[Chapter, ...]:
    starts = [(s.recorded.event.chapter, s.position) for s in steps
              if isinstance(s.recorded.event, ev.ChapterStarted)]
    ends = [at for _, at in starts[1:]] + [None]
    return tuple(
        Chapter(number, at, tuple(c.card for c in path
                                  if c.position > at and (end is None or c.position < end)))
        for (number, at), end in zip(starts, ends))


def _resources(steps: Sequence[Step]) -> tuple[Series, ...]:
    names = sorted({name for step in steps if step.after.resources is not step.before.resources
                    for name in step.after.resources})
    points: dict[str, list[tuple[int, int]]] = {name: [] for name in names}
    for step in steps:
        if step.after.resources is step.before.resources and step is not steps[0]:
            continue
        for name, value in step.after.resources.items():
            line = points[name]
            if not line or line[-1][1] != value:
                line.append((step.position, value))
    return tuple(Series(name, tuple(points[name])) for name in names)


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


def _items(steps: Sequence[Step]) -> tuple[ItemRecord, ...]:
    """Each item gained, who carried it in turn, and when it was lost (as `evolve` finds
    an item: by name and holder)."""
    carried: list[_Carried] = []
    for step in steps:
        e = step.recorded.event
        if isinstance(e, ev.ItemPassed):
            found = next((c for c in carried if c.held_by(e.item, e.giver)), None)
            if found is not None:
                found.holders.append(e.holder)
        elif step.before.items is not step.after.items:
            # Gained and lost as the state shows them, whichever event did it (a purchase,
            # a single-use item used, an episode carried over).
            _moved(carried, step)
    return tuple(ItemRecord(c.name, c.kind, c.gained, tuple(c.holders), c.lost) for c in carried)


def _moved(carried: list[_Carried], step: Step) -> None:
    """Items gained, lost, or passed on with no pass of their own (a dead ally's items go
    to the ally who takes its place)."""
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


def deaths(steps: Sequence[Step]) -> tuple[Death, ...]:
    """Characters whose HP reached 0, at the event that brought it there."""
    found = []
    for step in steps:
        if step.after.characters is step.before.characters:
            continue
        for c in step.after.characters:
            old = step.before.character(c.name)
            if c.hp == 0 and (old is None or old.hp != 0):
                found.append(Death(c.name, step.position))
    return tuple(found)


def _notes(steps: Sequence[Step]) -> tuple[Note, ...]:
    return tuple(Note(s.position, s.recorded.event.text, s.recorded.recorded_at)
                 for s in steps if isinstance(s.recorded.event, ev.NoteAdded))


def _overrides(history: Sequence[ev.Recorded]) -> tuple[OverrideRecord, ...]:
    gone = retracted_positions(history)
    return tuple(OverrideRecord(r.position, describe(r.event), r.override, r.position in gone)
                 for r in history if r.override)


def _undos(history: Sequence[ev.Recorded]) -> tuple[UndoRecord, ...]:
    undone = {p for r in history if isinstance(r.event, ev.Retracted) for p in r.event.positions}
    said = {r.position: describe(r.event) for r in history if r.position in undone}
    return tuple(
        UndoRecord(r.position, tuple((p, said.get(p, "?")) for p in r.event.positions))
        for r in history if isinstance(r.event, ev.Retracted))


def _dice(rules: Game, steps: Sequence[Step], state: State) -> Dice:
    if rules.name == "volume2":
        return Dice(_counted("Volume 2 ", steps), None, "Luck is measured on Hildegard's "
                    "bullseye parts; Volume 2's dice are counted above.")
    if rules.name == "spires-end":
        return Dice(_counted("Spire's End ", steps), None, "Luck is measured on Hildegard's "
                    "bullseye parts; Spire's End's d8 is counted above.")
    if rules.name != "hildegard":
        return Dice((), None, f"No dice are kept for {rules.title} yet.")
    faces = tuple(rules.raw["dice"]["shot"]["faces"])
    rolls = hildegard.rolls(steps)
    kinds = [stats("shot die", [r.face for r in rolls], faces)]
    kinds += [stats(f"wild shot die ({die})", shown)
              for die, shown in hildegard.wild_shots(steps).items()]
    players = {c.name for c in state.characters}
    theirs = luck([r.face for r in rolls if r.roller in players], hildegard.PARTS, faces)
    return Dice(tuple(kinds), theirs, luck_line(theirs))


def _counted(game: str, steps: Sequence[Step]) -> tuple[DiceStats, ...]:
    """Every die of the game named `game` that the events rolled, counted as the audit
    counts them (`recheck.DIE_KINDS`)."""
    from journal.recheck import DIE_KINDS

    kinds = []
    for kind in (k for k in DIE_KINDS if k.name.startswith(game)):
        shown = [face for s in steps if (read := kind.rolls.get(s.recorded.type))
                 for face in read(s.recorded.event)]
        kinds.append(stats(kind.name.removeprefix(game), shown, kind.printed))
    return tuple(kinds)


def luck_line(found: Luck) -> str:
    """The players' luck in one sentence, e.g. "... (z = +1.20): luckier than expected"."""
    if found.z is None:
        return "Luck: the players have rolled no shot dice yet."
    parts = ", ".join(found.faces[:-1]) + f" or {found.faces[-1]}"
    dice = "shot die" if found.total == 1 else "shot dice"
    return (f"Luck: the players' {found.total} {dice} showed "
            f"{found.count} bullseye parts ({parts}) against {found.expected:.1f} expected "
            f"(z = {found.z:+.2f}): {found.verdict}.")
