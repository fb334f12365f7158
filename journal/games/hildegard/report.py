"""Hildegard in a report: each target and face-off with its numbers, the dice rolled, and
the players' luck on them.

The numbers are read from the state the events fold into (`journal.games.hildegard.state`),
never recomputed here, so the report cannot disagree with what the table was told.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Iterator
from datetime import datetime
from functools import cache
from typing import Any, Literal, TypeVar

from journal.core.dice_stats import Luck, luck, stats
from journal.core.events import Entry
from journal.core.state import State
from journal.games import Game
from journal.games.hildegard import events as hv
from journal.games.hildegard.cards import Bonus, Reward, TargetCard
from journal.games.hildegard.dice import BULLSEYES
from journal.games.hildegard.state import FaceOff, Hildegard, Target, set_bullseyes
from journal.report import fold
from journal.report.fold import Taker
from journal.report.model import Dice as DiceSection
from journal.report.model import (
    Encounter,
    Ended,
    Enemy,
    FaceOffReport,
    Found,
    Rollers,
    Round,
    TargetReport,
)
from journal.report.parts import GameParts

STARTED = (hv.TargetStarted, hv.FaceOffStarted)
ROLLS = (hv.ShotDiceRolled, hv.WildShotRolled)
"""The events that roll a die: a face-off round is under way from the first."""
E = TypeVar("E")

PARTS: tuple[str, ...] = tuple(dict.fromkeys(face for pair in BULLSEYES for face in pair))
"""The faces that form bullseyes ("two Crescent icons", "a Ring and a Dot"): the faces
the players hope for, for the luck line."""


DEATHS = False
"""Hildegard's characters have no HP: the report keeps no deaths."""


def parts(rules: Game, found: Found) -> GameParts:
    """A report's Hildegard sections: its targets and face-offs, its shot dice and luck."""
    dice = Dice()
    return GameParts(Encounters(found), dice, lambda state: dice.told(rules, state))


class Dice:
    """Every shot die rolled, counted by who rolled it and the face it showed: first rolls,
    finesse re-rolls, and a Ricochet's re-roll ("Reroll 1 Shot Dice of your choice"); an
    Instinct's face is chosen, not rolled. And the effects each wild shot die showed, by die
    (their faces per tier are not printed)."""

    def __init__(self) -> None:
        self.rolled: list[hv.ShotDiceRolled] = []
        self.wilds: list[hv.WildShotRolled] = []
        """Each roll and each wild shot die as its event, counted once at the end (`faces`,
        `wild`): a long campaign rolls on nearly every other event, and repeats its rolls
        (a repeated payload is the same event, `events.parse_stored`'s memo)."""
        self._faces: Counter[tuple[str, str]] | None = None

    def taker(self, kind: type) -> Taker | None:
        if kind is hv.ShotDiceRolled:
            return self._rolled
        return self._wild if kind is hv.WildShotRolled else None

    def _rolled(self, recorded: Entry, before: State, after: State) -> None:
        self.rolled.append(recorded.event)  # type: ignore[arg-type]  # its taker

    def _wild(self, recorded: Entry, before: State, after: State) -> None:
        self.wilds.append(recorded.event)  # type: ignore[arg-type]  # its taker

    @property
    def wild(self) -> dict[str, Counter[str]]:
        """Per wild shot die, how often it showed each effect."""
        shown: dict[str, Counter[str]] = {}
        for wild, n in _distinct(self.wilds):
            shown.setdefault(wild.die, Counter())[wild.effect] += n
        return shown

    def faces(self, rollers: Container[str] | None = None) -> Counter[str]:
        """How often each face was rolled (by `rollers` only, if given): first rolls,
        finesse re-rolls and a Ricochet's re-roll."""
        if self._faces is None:
            by_roller: Counter[tuple[str, str]] = Counter()
            for roll, n in _distinct(self.rolled):
                for face in roll.faces:
                    by_roller[roll.roller, face] += n
            for wild, n in _distinct(self.wilds):
                if wild.effect == "ricochet" and wild.face:
                    by_roller[wild.shooter, wild.face] += n
            self._faces = by_roller
        counted: Counter[str] = Counter()
        for (roller, shown), n in self._faces.items():
            if rollers is None or roller in rollers:
                counted[shown] += n
        return counted


    def told(self, rules: Game, state: State) -> DiceSection:
        """The report's dice: the shot die's faces, each wild die's effects, and the
        players' luck (the characters' rolls, not the enemies')."""
        faces = tuple(rules.raw["dice"]["shot"]["faces"])
        shot = stats("shot die", every := self.faces(), faces)
        kinds = [shot, *(stats(f"wild shot die ({die})", shown)
                         for die, shown in self.wild.items())]
        players = self.faces({c.name for c in state.characters})
        theirs = luck(players, PARTS, faces)
        # The table tells the players' dice from the enemies' as the luck line counts them.
        split = Rollers(shot.die, ("players", "enemies"), tuple(
            (players[f.face], every[f.face] - players[f.face]) for f in shot.faces))
        return DiceSection(tuple(kinds), theirs, luck_line(theirs), (split,))


def luck_line(found: Luck) -> str:
    """The players' luck in one sentence, e.g. "... (z = +1.20): luckier than expected"."""
    if found.z is None:
        return "Luck: the players have rolled no shot dice yet."
    parts = ", ".join(found.faces[:-1]) + f" or {found.faces[-1]}"
    dice = "shot die" if found.total == 1 else "shot dice"
    return (f"Luck: the players' {found.total} {dice} showed "
            f"{found.count} bullseye parts ({parts}) against {found.expected:.1f} expected "
            f"(z = {found.z:+.2f}): {found.verdict}.")


def _distinct(events: list[E]) -> list[tuple[E, int]]:
    """Each distinct event object of `events` and how many times it is there (by identity,
    in C: a campaign's repeated rolls are the same objects)."""
    times = Counter(map(id, events))
    return [(e, times[i]) for i, e in dict(zip(map(id, events), events, strict=True)).items()]


# -- encounters --------------------------------------------------------------------------

class _Track:
    """One encounter followed through the events: its latest state and, for a face-off,
    the running totals (bullseyes scored, squares hit) at the latest event of each round.
    (A plain class with slots: a long campaign begins an encounter every few events.)"""

    __slots__ = ("ended", "ended_at", "latest", "started", "started_at", "totals")

    def __init__(self, started: int, started_at: datetime) -> None:
        self.started, self.started_at = started, started_at
        self.latest: Target | FaceOff | None = None
        self.ended: int | None = None
        self.ended_at: datetime | None = None
        self.totals: dict[int, tuple[int, int]] = {}

    def tally(self, played_in: FaceOff | None, fight: FaceOff, event: object) -> None:
        """The running totals after an event, kept for the round it was played in (the
        enemy's last die ends the round in the same event: its hits are that round's). A
        round enters at its first die rolled: the next round, once one ends, is not yet
        rolled, and no row of noughts stands for it."""
        if played_in is None or (isinstance(event, hv.FeatUsed) and event.feat == "redo"):
            self.totals = {}  # begun, or a Redo: the face-off starts afresh
            return
        if played_in.round in self.totals or isinstance(event, ROLLS):
            self.totals[played_in.round] = (
                sum(f.bullseyes for f in fight.foes), fight.marks.count("hit"))


class Encounters(fold.Encounters[_Track]):
    """Each target and face-off of the branch, handed to `found` in the order they began,
    each once no later event can change it; only the one under way is followed."""

    def taker(self, kind: type) -> Taker | None:
        """Hildegard's own events: no other kind changes a target or a face-off (a card
        revealed takes the one that ended off the screen, which the report ignores)."""
        if kind in STARTED:
            return self._started
        return self._followed if kind.__module__ == hv.__name__ else None

    def _started(self, recorded: Entry, before: State, after: State) -> None:
        self.close()
        self.track = _Track(recorded.position, recorded.recorded_at)
        self._followed(recorded, before, after)  # a start always changes the game's state

    def _followed(self, recorded: Entry, before: State, after: State) -> None:
        now = after.game_state  # Hildegard's, after its event
        track = self.track
        if track is None or now is before.game_state or not isinstance(now, Hildegard):
            return  # as it was: following it again changes nothing
        encounter = now.encounter
        if encounter is None:
            return
        played_in, track.latest = track.latest, encounter
        if track.ended is None and encounter.outcome is not None:
            track.ended, track.ended_at = recorded.position, recorded.recorded_at
        if type(encounter) is FaceOff:  # (no class derives from either)
            track.tally(played_in if isinstance(played_in, FaceOff) else None, encounter,
                        recorded.event)

    def ended(self, track: _Track) -> Ended:
        """The encounter's kind, name and outcome as its report will have them; the report
        itself made only if it is kept."""
        latest = track.latest
        if type(latest) is Target:  # (no class derives from either)
            return Ended("target", latest.card.name, latest.outcome if latest.outcome in (
                "hit", "miss") else None, track.started, track.ended, lambda: _report(track))
        assert isinstance(latest, FaceOff)  # handed on only once it has one
        return Ended("face-off", ", ".join(x.card.name for x in latest.foes),
                     latest.outcome if latest.outcome in ("won", "lost") else None,
                     track.started, track.ended, lambda: _report(track))


def _report(track: _Track) -> Encounter:
    if isinstance(track.latest, Target):
        return _target(track, track.latest)
    assert isinstance(track.latest, FaceOff)
    return _face_off(track, track.latest)


def _target(track: _Track, t: Target) -> TargetReport:
    outcome: Literal["hit", "miss"] | None = (
        "hit" if t.outcome == "hit" else "miss" if t.outcome == "miss" else None)
    return TargetReport(
        started=track.started, ended=track.ended, shooter=t.shooter,
        bonus_awarded=t.bonus_awarded, set_bullseyes=t.set_bullseyes, bullseyes=t.bullseyes,
        outcome=outcome, next_card=t.next_card, playing=_so_far(t), **_printed(t.card))


def _so_far(t: Target) -> int | None:
    """The bullseyes of the set under way, not yet tallied (None if none is)."""
    if t.outcome is not None or t.shot is None or t.shot.complete:
        return None
    return set_bullseyes(t.shot, t.card.parts)


@cache
def _printed(card: TargetCard) -> dict[str, Any]:
    """What the report tells of a target card, worked out once per card (a long campaign
    plays the same card thousands of times)."""
    return {"name": card.name, "number": card.number, "bullseye_limit": card.bullseye_limit,
            "accuracy": card.accuracy, "sets": card.sets, "parts": tuple(card.parts),
            "reward": reward_text(card.reward), "bonus": bonus_text(card.bonus),
            "chance": chance_at_start(card)}


WEIGHED = (8, 6)
"""The most sets and dice a set of a target whose chance the report works out: the odds
are exact, and a card past these (a benchmark's target of a million sets) is not weighed."""


@cache
def chance_at_start(card: TargetCard) -> float | None:
    """The chance the card gave to hit at its start (Issue 20: the report shows it)."""
    if card.sets > WEIGHED[0] or card.accuracy > WEIGHED[1]:
        return None
    from journal.games.hildegard import finesse as odds

    return float(odds.chances(odds.at_start(card))[0])


def _face_off(track: _Track, f: FaceOff) -> FaceOffReport:
    outcome: Literal["won", "lost"] | None = (
        "won" if f.outcome == "won" else "lost" if f.outcome == "lost" else None)
    enemies = tuple(Enemy(x.card.name, x.card.bullseye_limit, x.bullseyes, x.defeated)
                    for x in f.foes)
    return FaceOffReport(
        meter=f.meter.name, started=track.started, ended=track.ended,
        accuracy=f.meter.accuracy, squares=len(f.marks), hits=f.marks.count("hit"),
        blocks=f.marks.count("block"), enemies=enemies,
        rounds=tuple(_rounds(track.totals, None if outcome else f.round)), outcome=outcome,
        next_card=f.next_card,
        unrolled=f.round if outcome is None and f.round not in track.totals else None)


def _rounds(totals: dict[int, tuple[int, int]], playing: int | None) -> Iterator[Round]:
    """Each round's own numbers: the running totals less the round before's; the round
    being `playing` is under way, its numbers so far."""
    previous = (0, 0)
    for number in sorted(totals):
        scored, hit = totals[number]
        yield Round(number, scored - previous[0], hit - previous[1], number == playing)
        previous = (scored, hit)


def reward_text(reward: Reward | None) -> str | None:
    if reward is None:
        return None
    name = reward.resource if reward.amount != 1 else reward.resource.rstrip("s")
    return f"{reward.amount} {name}"


def bonus_text(bonus: Bonus | None) -> str | None:
    if bonus is None:
        return None
    challenge = (f"{bonus.bullseyes} bullseyes" if bonus.bullseyes is not None
                 else " + ".join(bonus.combination or ()))
    return f"{challenge} for {reward_text(bonus.reward)}"
