"""Spire's End's fights, read off the folded steps of a branch for the play report.

Each step of a fight is told as `spire replay` tells it (`view.changes`): the lines the
event resolved and every number it changed, for every ally and the enemy. Each round's
damage is what the enemy's and the allies' HP and AP lost in it, read from the state;
the HP an ally pays for its own action is not damage taken.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from journal.core import events as ev
from journal.core.describe import describe
from journal.core.events import Entry
from journal.core.state import State
from journal.games import Game
from journal.games.spires_end import events as se
from journal.games.spires_end.state import Fighter as Cubes
from journal.games.spires_end.state import SpiresEnd, spires_end
from journal.games.spires_end.view import changes
from journal.report import fold
from journal.report.fold import Step
from journal.report.model import Beat, Dice, EncounterReport, Ended, Exchange, Fighter, Found
from journal.report.parts import GameParts
from journal.report.sections import Counted

DEATHS = True
"""Spire's End's allies have HP, and may fall."""


def parts(rules: Game, found: Found) -> GameParts:
    """A report's Spire's End sections: its fights and its d8s counted."""
    from journal.games.spires_end.recheck import DIE_KINDS

    dice = Counted(DIE_KINDS, "Spire's End ")
    return GameParts(Encounters(found), dice, lambda state: Dice(
        dice.stats(), None, "Luck is measured on Hildegard's bullseye parts; Spire's End's "
        "d8 is counted above."))


QUIET = ("upkeep: ", "Round ")
"""Lines a report leaves out of a beat: an upkeep with no effects, the turn passing (the
round has a column of its own)."""


@dataclass
class _Track:
    started: int
    started_at: datetime
    ended: int | None = None
    ended_at: datetime | None = None
    latest: SpiresEnd | None = None
    fought: list[str] = field(default_factory=list)
    """The allies in play at some step of the fight, in the order they came in."""
    rounds: dict[int, list[int]] = field(default_factory=dict)
    beats: list[Beat] = field(default_factory=list)


class Encounters(fold.Encounters[_Track]):
    """Each Spire's End fight of the branch, handed to `found` in the order they began,
    each once it is over; only the one under way is followed."""

    def take(self, recorded: Entry, before: State, after: State) -> None:
        step = Step(recorded, before, after)  # (a fight is a few events: its helpers read one)
        if isinstance(step.recorded.event, se.FightBegan):
            self.close()
            self.track = _Track(step.position, step.recorded.recorded_at)
        track = self.track
        if track is None or track.ended is not None:
            return
        _follow(track, step, spires_end(step.before), spires_end(step.after))
        if track.ended is not None:  # over: no later event changes it
            track.ended_at = step.recorded.recorded_at
            self.close()

    def ended(self, track: _Track) -> Ended:
        return Ended.of(_report(track))


def _follow(track: _Track, step: Step, before: SpiresEnd, after: SpiresEnd) -> None:
    fight = after.fight
    if fight is None:
        return
    track.latest = after
    track.fought += [a.name for a in after.in_play() if a.name not in track.fought]
    then = before.fight
    if then is not None and then.under_way and before is not after:
        _tally(track, step, before, after, then.round)
    elif then is not None and then.under_way and isinstance(step.recorded.event, ev.NoteAdded):
        track.beats.append(Beat(step.position, then.round, describe(step.recorded.event), ()))
    if not fight.under_way:
        track.ended = step.position


def _tally(track: _Track, step: Step, before: SpiresEnd, after: SpiresEnd, round_: int) -> None:
    tally = track.rounds.setdefault(round_, [0, 0])
    assert before.fight is not None and after.fight is not None
    tally[0] += _lost([before.fight.enemy], [after.fight.enemy])
    if not isinstance(step.recorded.event, se.ActionPerformed):
        tally[1] += _lost(before.allies, after.allies)
    did = tuple(_told(line) for line in changes(before, after) if not line.startswith(QUIET))
    if did:
        track.beats.append(Beat(step.position, round_, describe(step.recorded.event), did))


def _told(line: str) -> str:
    """A line as the story tells it: "Millicent dies", without the table's next command
    ("the death move comes next (spire death), ...")."""
    return line.split(": the death move comes next")[0]


def _lost(before: Sequence[Cubes], after: Sequence[Cubes]) -> int:
    return sum(max(max(b.hp, 0) + b.ap - max(a.hp, 0) - a.ap, 0)
               for b, a in zip(before, after, strict=False))


def _report(track: _Track) -> EncounterReport:
    game = track.latest
    assert game is not None and game.fight is not None
    allies = tuple(_fighter(a, "dead" if a.dead else "standing")
                   for a in game.allies if a.name in track.fought)
    enemy = game.fight.enemy
    rounds = tuple(Exchange(n, *track.rounds[n]) for n in sorted(track.rounds))
    return EncounterReport(
        track.started, track.ended, allies,
        (_fighter(enemy, "defeated" if enemy.dead else "standing"),),
        rounds or (Exchange(1, 0, 0),), game.fight.outcome, noun="Fight",
        beats=tuple(track.beats))


def _fighter(f: Cubes, fate: str) -> Fighter:
    return Fighter(f.name, max(f.hp, 0), f.card.hp, f.ap, f.card.ap, fate)
