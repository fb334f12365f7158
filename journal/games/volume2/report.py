"""Volume 2's encounters, read off the folded steps of a branch for the play report.

The numbers come from the state the events fold into (`journal.games.volume2.state`):
each round's damage is what the enemies' and the allies' HP and AP lost in it, never a
second reading of the dice; HP an ally spends on its own roll is not damage taken. The
allies are shown as the fight left them, before the reset restores them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from journal.core import events as ev
from journal.core.describe import describe
from journal.core.events import Entry
from journal.core.state import State
from journal.games import Game
from journal.games.volume2 import events as v2
from journal.games.volume2.rounds import attack_damage
from journal.games.volume2.state import Encounter as Fight
from journal.games.volume2.state import Fighter as Ally
from journal.games.volume2.state import Foe, volume2
from journal.games.volume2.view import state_changes
from journal.report import fold
from journal.report.fold import Reads, Step
from journal.report.model import (
    Beat,
    Dice,
    EncounterReport,
    Ended,
    Exchange,
    Fighter,
    Found,
    TradeRecord,
    WaterfallRecord,
)
from journal.report.parts import GameParts
from journal.report.sections import Counted

DEATHS = True
"""Volume 2's allies have HP, and may fall."""


def parts(rules: Game, found: Found) -> GameParts:
    """A report's Volume 2 sections: its encounters, its dice counted, its trades and
    waterfalls."""
    from journal.games.volume2.recheck import DIE_KINDS

    dice = Counted(DIE_KINDS, "Volume 2 ")
    return GameParts(Encounters(found), dice, lambda state: Dice(
        dice.stats(), None, "Luck is measured on Hildegard's bullseye parts; Volume 2's "
        "dice are counted above."), World())


STRIKES = (v2.ActionTaken, v2.HiveDeployed)


@dataclass
class _Track:
    started: int
    started_at: datetime
    ended: int | None = None
    ended_at: datetime | None = None
    latest: Fight | None = None
    rounds: dict[int, list[int]] = field(default_factory=dict)
    """Each round's [damage dealt, damage taken]."""
    beats: list[Beat] = field(default_factory=list)


class Encounters(fold.Encounters[_Track]):
    """Each Volume 2 encounter of the branch, handed to `found` in the order they began,
    each once it is over; only the one under way is followed."""

    def take(self, recorded: Entry, old: State, new: State) -> None:
        step = Step(recorded, old, new)  # (an encounter's helpers read one)
        if isinstance(step.recorded.event, v2.EncounterBegan):
            self.close()
            self.track = _Track(step.position, step.recorded.recorded_at)
        then, now = volume2(step.before), volume2(step.after)
        before, after = then.encounter, now.encounter
        track = self.track
        if track is None or after is None or track.ended is not None:
            return
        if before is not None and before.under_way:
            _tally(track, before, after, step.recorded.event)
            _beat(track, step, before.round, state_changes(then, now))
        track.latest = after
        if not after.under_way:  # over: no later event changes it
            track.ended, track.ended_at = step.position, step.recorded.recorded_at
            self.close()

    def ended(self, track: _Track) -> Ended:
        return Ended.of(_report(track))


def _beat(track: _Track, step: Step, round_: int, did: Sequence[str]) -> None:
    """The step as `spire replay` tells it (a note written during the encounter too)."""
    if did or isinstance(step.recorded.event, ev.NoteAdded):
        track.beats.append(Beat(step.position, round_, describe(step.recorded.event),
                                tuple(did)))


def _tally(track: _Track, before: Fight, after: Fight, event: object) -> None:
    tally = track.rounds.setdefault(before.round, [0, 0])
    if isinstance(event, STRIKES):
        tally[0] += _lost(before.enemies, after.enemies)
    elif isinstance(event, v2.EnemyAttacked):
        # Read from the table, as the fold did: the same event also ends the round, and
        # the recoup it brings would hide the damage in the allies' HP.
        foe, target = before.enemy(event.enemy), before.ally(event.target)
        if foe is not None and target is not None and not target.ko:
            tally[1] += min(attack_damage(foe, event.roll), target.hp + target.ap)


def _lost(before: Sequence[Ally | Foe], after: Sequence[Ally | Foe]) -> int:
    return sum(max(b.hp + b.ap - a.hp - a.ap, 0) for b, a in zip(before, after, strict=False))


def _report(track: _Track) -> EncounterReport:
    fight = track.latest
    assert fight is not None
    allies = tuple(Fighter(a.name, max(a.hp, 0), a.hp_max, a.ap, a.ap_max,
                           "KO'd" if a.ko else "standing") for a in fight.allies)
    enemies = tuple(Fighter(f.name, f.hp, f.card.hp or 0, f.ap, f.card.ap or 0,
                            f.out or "standing") for f in fight.enemies)
    rounds = tuple(Exchange(n, *track.rounds[n]) for n in sorted(track.rounds))
    return EncounterReport(track.started, track.ended, allies, enemies,
                           rounds or (Exchange(1, 0, 0),), fight.outcome,
                           beats=tuple(track.beats))


class World(Reads):
    """Each Trading Post Card revealed and when its item was bought; each waterfall event
    laid out, the card chosen in each row and the card it ended on."""

    def __init__(self) -> None:
        self.trades: list[TradeRecord] = []
        self.waterfalls: list[WaterfallRecord] = []

    @staticmethod
    def wants(kind: type) -> bool:
        return issubclass(kind, (v2.TradingCardRevealed, v2.ItemBought, v2.WaterfallLaid,
                                 v2.WaterfallCardChosen, v2.WaterfallEnded))

    def take(self, recorded: Entry, before: State, after: State) -> None:
        step = Step(recorded, before, after)
        e, found = step.recorded.event, self.trades
        if isinstance(e, v2.TradingCardRevealed):
            found.append(TradeRecord(step.position, e.card.name, e.card.price(), None))
        elif isinstance(e, v2.ItemBought):
            at = next((i for i in reversed(range(len(found)))
                       if found[i].item == e.card.name and found[i].bought is None), None)
            if at is not None:
                t = found[at]
                found[at] = TradeRecord(t.position, t.item, t.price, step.position)
        else:
            self._waterfall(step)

    def _waterfall(self, step: Step) -> None:
        from journal.games.volume2.state import card_name

        e, found = step.recorded.event, self.waterfalls
        if isinstance(e, v2.WaterfallLaid):
            found.append(WaterfallRecord(e.event, step.position, (), None))
        elif found and isinstance(e, v2.WaterfallCardChosen):  # as chosen (forced: any row)
            w = found[-1]
            found[-1] = WaterfallRecord(w.event, w.laid, (*w.chosen, card_name(e.row, e.card)),
                                        w.ended)
        elif found and isinstance(e, v2.WaterfallEnded):
            w = found[-1]
            found[-1] = WaterfallRecord(w.event, w.laid, w.chosen, e.card)

    def sections(self) -> dict[str, Any]:
        return {"trades": tuple(self.trades), "waterfalls": tuple(self.waterfalls)}
