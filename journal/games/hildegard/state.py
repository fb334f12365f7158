"""Hildegard's state: the set being shot, the target or face-off under way, the effects
waiting for the next set; and `evolve` for Hildegard's events.

Everything that follows from the dice is worked out here, from the events alone: the
bullseyes a set forms, a target's outcome and rewards, the squares an enemy's dice hit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from journal.games.hildegard import events as hv
from journal.games.hildegard.cards import Bonus, EnemyCard, HitMeter, Reward, TargetCard
from journal.games.hildegard.dice import Face, WildEffect, bullseyes, contains
from journal.games.hildegard.meter import Mark, enemy_set_over, full, lowest_open, strike
from journal.games.hildegard.split import Pool, formed, pool, split
from journal.state import State, applies, make, recent, replace
from journal.words import plural

FEAT_LIMIT = 6


@dataclass(frozen=True)
class NextSet:
    """Effects waiting for the next set (Hone; Flub, Tame, Graze)."""

    hone: int = 0
    flub: int = 0
    tame: bool = False
    graze: bool = False


NO_EFFECTS = NextSet()
"""No effects waiting (one value shared: a NextSet is frozen)."""


@dataclass(frozen=True)
class ShotSet:
    """One set of shot dice, as it stands: `dice[i]` None once a Whoopsie removed it."""

    roller: str
    size: int
    dice: tuple[Face | None, ...] = ()
    locked: frozenset[int] = frozenset()
    fresh_lock: bool = False
    finesse_over: bool = False
    wild: WildEffect | None = None
    wild_rolls: int = 0
    wild_rolls_allowed: int = 1
    before_wild: tuple[Face | None, ...] = ()
    feats: frozenset[str] = frozenset()
    extra: int = 0
    """Bullseyes from the wild shot and from the Bullseye feat."""
    tame: bool = False
    graze: bool = False
    blocks: frozenset[int] = frozenset()
    used: frozenset[int] = frozenset()
    """An enemy's dice already spent on hits this set."""
    hit: bool = False
    """A die of the enemy's latest roll hit or cleared a block: it counts as locked in."""

    @property
    def rolled(self) -> bool:
        # A set Flub leaves without dice is rolled at once: its wild shot still follows.
        # (`complete` spells this and `wild_done` out: change them together.)
        return bool(self.dice) or self.size == 0

    @property
    def unused(self) -> tuple[int, ...]:
        """Dice on the table: not removed by a Whoopsie, not spent on a hit."""
        return tuple(i for i, f in enumerate(self.dice) if f is not None and i not in self.used)

    @property
    def free(self) -> tuple[int, ...]:
        """Dice that may still be re-rolled: on the table and not locked."""
        return tuple(i for i in self.unused if i not in self.locked)

    @property
    def wild_done(self) -> bool:
        # (`complete` spells this out: change them together.)
        return self.tame or (self.wild_rolls >= self.wild_rolls_allowed)

    @property
    def complete(self) -> bool:
        # rolled, finesse over and wild done, spelt out: a replay asks this twice an event
        return (bool(self.dice) or self.size == 0) and self.finesse_over and (
            self.tame or self.wild_rolls >= self.wild_rolls_allowed)

    def final(self) -> tuple[Face | None, ...]:
        """The set's final results, less dice spent on blocks."""
        if not self.blocks:
            return self.dice
        return tuple(None if i in self.blocks else f for i, f in enumerate(self.dice))


@dataclass(frozen=True)
class Tally:
    made: int
    gained: tuple[tuple[str, int], ...]
    """The resources the set's bonus and the target's reward actually added."""
    bonus_before: bool
    ended: bool
    paid_before: bool = False


@dataclass(frozen=True)
class Target:
    card: TargetCard
    shooter: str
    sets_allowed: int
    shot: ShotSet | None = None
    sets_done: int = 0
    bullseyes: int = 0
    set_bullseyes: tuple[int, ...] = ()
    bonus_awarded: bool = False
    outcome: str | None = None
    """None while under way; then "hit" or "miss"."""
    reward_paid: bool = False
    """The card's reward is paid once per target card, a Redo notwithstanding."""
    paid_before: bool = False
    """A Redo retries a target whose reward was paid already."""
    last_tally: Tally | None = None
    """What the last set's tally changed, so a Wild feat bought after its wild shot can
    take it back and let the second result count."""
    passed: bool = False
    """Over, and the players have revealed a card since: it is off the screen."""

    @property
    def next_card(self) -> int | None:
        if self.outcome is None:
            return None
        return self.card.hit_card if self.outcome == "hit" else self.card.miss_card

    @property
    def sets_left(self) -> int:
        return self.sets_allowed - self.sets_done


@dataclass(frozen=True)
class Foe:
    card: EnemyCard
    bullseyes: int = 0

    @property
    def defeated(self) -> bool:
        return self.bullseyes >= self.card.bullseye_limit


@dataclass(frozen=True)
class FaceOff:
    meter: HitMeter
    foes: tuple[Foe, ...]
    marks: tuple[Mark, ...]
    shooters: tuple[str, ...]
    round: int = 1
    turn: str = "players"
    shots: tuple[tuple[str, ShotSet], ...] = ()
    """The players' sets this round, by shooter."""
    round_effects: NextSet | None = None
    """The effects on the players' sets this round (both players' in a two-player game)."""
    assigned: tuple[tuple[str, int], ...] = ()
    """This round's bullseyes given to enemies by name (the rest go to the first standing)."""
    enemy: str | None = None
    enemy_shot: ShotSet | None = None
    enemies_done: tuple[str, ...] = ()
    outcome: str | None = None
    """None while under way; then "won" or "lost"."""
    rewarded: bool = False
    """The enemies' rewards were paid, before a Redo: they are paid once."""
    tag_team: bool = False
    """Tag Team this round: the players' sets combine into bullseyes."""
    passed: bool = False
    """Over, and the players have revealed a card since: it is off the screen."""

    @property
    def next_card(self) -> int | None:
        if self.outcome is None:
            return None
        return self.meter.win_card if self.outcome == "won" else self.meter.lose_card

    def shot(self, shooter: str) -> ShotSet | None:
        return next((s for who, s in self.shots if who == shooter), None)

    def standing(self) -> tuple[Foe, ...]:
        return tuple(f for f in self.foes if not f.defeated)

    @property
    def wild_done(self) -> bool:
        """The round's one wild shot is rolled (or every set is Tamed)."""
        shots = [s for _, s in self.shots]
        return any(s.wild_rolls and s.wild_rolls >= s.wild_rolls_allowed for s in shots) or (
            bool(shots) and all(s.tame for s in shots))


@dataclass(frozen=True)
class Hildegard:
    encounter: Target | FaceOff | None = None
    next_set: NextSet = field(default_factory=NextSet)
    finished: tuple[str, ...] = ()
    """One line per encounter that ended, for the log of the campaign."""
    aside: tuple[Target, ...] = ()
    """The other player's target under way, while `encounter` is this player's: "If both
    players are engaged with different Targets outside of a Face-Off (such as Fishing), each
    player will roll their own Wild Shot" (Two Player Face-Off Rules)."""

    def lines(self) -> list[str]:
        from journal.games.hildegard.view import lines, waiting

        shown = [line for t in (self.encounter, *self.aside) for line in lines(t)]
        pending = waiting(self.next_set)
        if not pending:
            return shown
        if shown:  # on the head line, so the play shell's prompt shows it too
            return [f"{shown[0]} | next set: {pending}", *shown[1:]]
        return [f"next set: {pending}"]

    def moved_on(self) -> Hildegard:
        """A card was revealed: an encounter that is over leaves the screen."""
        encounter = self.encounter
        if encounter is None or encounter.outcome is None or encounter.passed:
            return self
        return replace(self, encounter=replace(encounter, passed=True))

    def changes(self, before: object) -> list[str]:
        """What the latest event changed, for `spire replay`: each line of the encounter
        that moved (bullseyes and sets, the dice rolled and locked, the hit meter, the
        enemies), and each encounter that ended; nothing if it left this state alone."""
        if before is self:
            return []
        then = before if isinstance(before, Hildegard) else Hildegard()
        shown = set(then.lines())
        moved = [line.strip() for line in self.lines() if line not in shown]
        ended = [] if self.finished == then.finished else [self.finished[-1]]
        return [line for line in moved if line not in ended] + ended

    def to_json(self) -> dict[str, Any]:
        from journal.games.hildegard.view import encounter_json

        shown: dict[str, Any] = {"encounter": encounter_json(self.encounter)}
        if self.aside:
            shown["other_targets"] = [encounter_json(t) for t in self.aside]
        return {
            **shown,
            "next_set": {
                "hone": self.next_set.hone, "flub": self.next_set.flub,
                "tame": self.next_set.tame, "graze": self.next_set.graze,
            },
        }


def hildegard(state: State) -> Hildegard:
    game_state = state.game_state
    return game_state if isinstance(game_state, Hildegard) else Hildegard()


def _with(state: State, h: Hildegard) -> State:
    return replace(state, game_state=h)


# -- a set -------------------------------------------------------------------------------

def new_set(
    roller: str, accuracy: int, effects: NextSet, faces: tuple[Face, ...] | None = None,
) -> ShotSet:
    """A new set; given `faces`, after its first roll.

    Made by `make` rather than ShotSet(...) (a frozen dataclass's __init__ sets its
    seventeen fields one at a time), made and rolled in one copy: a replay starts a set
    every few events."""
    size = max(accuracy + effects.hone - effects.flub, 0)
    if faces is not None and size:
        return make(ShotSet, roller=roller, size=size, tame=effects.tame, graze=effects.graze,
                    **_first_roll(effects.graze, faces))
    shot = make(ShotSet, roller=roller, size=size, tame=effects.tame, graze=effects.graze)
    return shot if faces is None else roll(shot, faces)


def roll(shot: ShotSet, faces: tuple[Face, ...]) -> ShotSet:
    """The first roll fills the set; a re-roll replaces the free dice in order."""
    if not shot.rolled:
        return replace(shot, **_first_roll(shot.graze, faces))
    dice, free = list(shot.dice), shot.free
    if not free and faces:  # forced with every die locked: the table re-rolls the last ones
        free = shot.unused[-len(faces):]
        shot = replace(shot, locked=shot.locked - set(free))
    for position, new in zip(free, faces):
        dice[position] = new
    rerolled = replace(shot, dice=tuple(dice), fresh_lock=False)
    return replace(rerolled, finesse_over=len(rerolled.free) <= 1)


def _first_roll(graze: bool, faces: tuple[Face, ...]) -> dict[str, Any]:
    """What a set's first roll sets: its dice, and the end of finesse for a set Grazed or
    of one die."""
    return {"dice": faces, "finesse_over": graze or len(faces) <= 1}


def lock(shot: ShotSet, positions: tuple[int, ...]) -> ShotSet:
    locked = shot.locked | {p - 1 for p in positions}
    shot = replace(shot, locked=locked, fresh_lock=True)
    return replace(shot, finesse_over=shot.finesse_over or not shot.free)


def wild(shot: ShotSet, event: hv.WildShotRolled) -> ShotSet:
    """Apply a wild shot; a second one (the Wild feat) replaces the first's result."""
    base = shot.before_wild if shot.wild_rolls else shot.dice
    dice = list(base)
    index = event.target_die - 1 if event.target_die else None
    if index is not None and 0 <= index < len(dice):
        if event.effect == "whoopsie":
            dice[index] = None
        elif event.effect in ("instinct", "ricochet") and event.face is not None:
            dice[index] = event.face
    extra = shot.extra - (1 if shot.wild == "bullseye" else 0) + (event.effect == "bullseye")
    return replace(
        shot, dice=tuple(dice), before_wild=tuple(base), wild=event.effect,
        wild_rolls=shot.wild_rolls + 1, extra=extra, finesse_over=True)


def set_bullseyes(shot: ShotSet, parts: tuple[Face, ...]) -> int:
    """The set's bullseyes: combinations of its final results with the parts available
    (every part, when the card's parts were never entered), plus wild and feat bullseyes."""
    usable = parts or ("crescent", "ring", "dot")
    return _bullseyes(shot.final(), usable) + shot.extra


# The dice's sums are pure and a campaign repeats the same few sets: a replay tallies a set
# every few events, so it looks each up rather than counting faces again.
_bullseyes = lru_cache(maxsize=1024)(bullseyes)
_contains = lru_cache(maxsize=1024)(contains)


# -- targets -----------------------------------------------------------------------------

@applies
def _(event: hv.TargetStarted, state: State) -> State:
    h = focus(hildegard(state), event.shooter)
    target = make(Target, card=event.card, shooter=event.shooter, sets_allowed=event.card.sets)
    now = h.encounter
    if isinstance(now, Target) and now.outcome is None:
        if now.shooter != event.shooter:
            h = replace(h, aside=(*h.aside, now))  # the other player's target stays under way
        else:  # forced over the shooter's own target: it ends as `spire end` ends it
            state = _target_over(state, h, now)
            h = hildegard(state)
    return _with(state, replace(h, encounter=target))


def focus(h: Hildegard, who: str) -> Hildegard:
    """`who`'s own target brought to the fore, when two players each shoot one; an ended
    target it replaces leaves the table (its line is in `finished`)."""
    now = h.encounter
    if not h.aside or not isinstance(now, Target) or now.shooter == who:
        return h
    found = next((t for t in h.aside if t.shooter == who), None)
    if found is None:
        return h
    rest = tuple(t for t in h.aside if t is not found)
    return replace(h, encounter=found, aside=(*rest, now) if now.outcome is None else rest)


def _on_shot(state: State, h: Hildegard, shooter: str, change: Any) -> State:
    """Change the set of `shooter` (a target's, a face-off player's or an enemy's)."""
    encounter = h.encounter
    if isinstance(encounter, Target) and encounter.shot is not None:
        return _target_shot(state, h, encounter, change(encounter.shot))
    if isinstance(encounter, FaceOff):
        return _face_off_shot(state, h, encounter, shooter, change)
    return state


@applies
def _(event: hv.ShotDiceRolled, state: State) -> State:
    h = focus(hildegard(state), event.roller)
    encounter = h.encounter
    if isinstance(encounter, Target):
        shot = encounter.shot
        if shot is None or shot.complete:  # a new set: the last one's tally stands
            shot = new_set(event.roller, encounter.card.accuracy, h.next_set, event.faces)
            if h.next_set is not NO_EFFECTS:  # spent on this set
                h = replace(h, next_set=NO_EFFECTS)
            return _target_shot(state, h, encounter, shot, new=True)
        return _target_shot(state, h, encounter, roll(shot, event.faces))
    if isinstance(encounter, FaceOff):
        return _face_off_roll(state, h, encounter, event)
    return state


@applies
def _(event: hv.DiceLocked, state: State) -> State:
    h = focus(hildegard(state), event.roller)
    return _on_shot(state, h, event.roller, lambda s: lock(s, event.dice))


@applies
def _(event: hv.FinesseStopped, state: State) -> State:
    h = focus(hildegard(state), event.roller)
    return _on_shot(state, h, event.roller, lambda s: replace(s, finesse_over=True))


@applies
def _(event: hv.WildShotRolled, state: State) -> State:
    h = focus(hildegard(state), event.shooter)
    target = h.encounter
    if isinstance(target, Target) and target.shot is not None:
        # `_on_shot`'s first case, without its closure and its call: a replay rolls a wild
        # shot on a target every few events.
        return _target_shot(state, h, target, wild(target.shot, event))
    return _on_shot(state, h, event.shooter, lambda s: wild(s, event))


def _target_shot(
    state: State, h: Hildegard, target: Target, shot: ShotSet, new: bool = False,
) -> State:
    """`target` with its set now `shot`, tallied if the set is complete. A `new` set
    clears the last set's tally (a Wild feat can no longer take it back)."""
    if shot.complete and target.outcome is None:
        return _set_complete(state, h, target, shot)
    if new:
        target = replace(target, shot=shot, last_tally=None)
    else:
        target = replace(target, shot=shot)
    return replace(state, game_state=replace(h, encounter=target))


def _set_complete(state: State, h: Hildegard, target: Target, shot: ShotSet) -> State:
    """Tally a complete set: its bullseyes, the bonus challenge, and the target's end after
    its last set. The state, Hildegard's state and the target are each copied once with all
    of it: a replay tallies a set every few events."""
    made = set_bullseyes(shot, target.card.parts)
    made_in_all = target.bullseyes + made
    before = resources = state.resources
    finished = h.finished
    awarded = target.bonus_awarded
    bonus = target.card.bonus
    if bonus is not None and not awarded and _bonus_met(bonus, made_in_all, shot):
        resources, awarded = rewarded(resources, bonus.reward), True
    sets_done = target.sets_done + 1
    ended = sets_done >= target.sets_allowed
    outcome = None  # under way (a target that ended tallies no more sets)
    paid = target.reward_paid
    if ended:
        outcome, resources, finished = _ended(resources, finished, target, made_in_all)
        paid = paid or outcome == "hit"
    tally = make(Tally, made=made, gained=_gained(before, resources),
                 bonus_before=target.bonus_awarded, ended=ended, paid_before=target.reward_paid)
    target = replace(
        target, shot=shot, sets_done=sets_done, bullseyes=made_in_all,
        set_bullseyes=(*target.set_bullseyes, made), bonus_awarded=awarded, outcome=outcome,
        reward_paid=paid, last_tally=tally)
    return replace(state, resources=resources,
                   game_state=replace(h, encounter=target, finished=finished))


def _gained(before: dict[str, int], after: dict[str, int]) -> tuple[tuple[str, int], ...]:
    """What the resources gained between two states (`rewarded` copies what it changes)."""
    if after is before:
        return ()
    return tuple((k, v - before.get(k, 0)) for k, v in after.items() if v != before.get(k, 0))


def _untally(state: State, h: Hildegard, target: Target) -> tuple[State, Hildegard, Target]:
    """Take back the last set's tally (and the target's end, if it ended the target)."""
    tally = target.last_tally
    if tally is None:
        return state, h, target
    resources = dict(state.resources)
    for name, amount in tally.gained:
        resources[name] = resources.get(name, 0) - amount
    target = replace(
        target, sets_done=target.sets_done - 1, bullseyes=target.bullseyes - tally.made,
        set_bullseyes=target.set_bullseyes[:-1], bonus_awarded=tally.bonus_before,
        outcome=None if tally.ended else target.outcome, reward_paid=tally.paid_before,
        last_tally=None)
    finished = h.finished[:-1] if tally.ended else h.finished
    return replace(state, resources=resources), replace(h, finished=finished), target


def _bonus_met(bonus: Bonus, made_in_all: int, shot: ShotSet) -> bool:
    """A bonus challenge met is rewarded once per target card (Bonus Challenges)."""
    return (bonus.bullseyes is not None and made_in_all >= bonus.bullseyes) or (
        bonus.combination is not None and _contains(shot.final(), bonus.combination))


def reward(state: State, given: Reward | None) -> State:
    """Add a reward; feats stop at six ("You can hold up to 6 Feats at a time")."""
    if given is None:
        return state
    return replace(state, resources=rewarded(state.resources, given))


def rewarded(resources: dict[str, int], given: Reward | None) -> dict[str, int]:
    """`resources` with a reward added (a copy; the same dict when there is no reward)."""
    if given is None:
        return resources
    resources = dict(resources)
    have = resources.get(given.resource, 0)
    total = have + given.amount
    if given.resource == "feats":
        total = max(min(total, FEAT_LIMIT), have)
    resources[given.resource] = total
    return resources


def _target_over(state: State, h: Hildegard, target: Target) -> State:
    outcome, resources, finished = _ended(
        state.resources, h.finished, target, target.bullseyes)
    target = replace(target, outcome=outcome, last_tally=None,
                     reward_paid=target.reward_paid or outcome == "hit")
    h = replace(h, encounter=target, finished=finished)
    return replace(state, resources=resources, game_state=h)


def _ended(
    resources: dict[str, int], finished: tuple[str, ...], target: Target, made_in_all: int,
) -> tuple[str, dict[str, int], tuple[str, ...]]:
    """A target's outcome with `made_in_all` bullseyes, the resources with its reward (paid
    once per target card: a Redo of a target defeated pays nothing again), and the log of
    ended encounters with its line."""
    card = target.card
    outcome = "hit" if made_in_all >= card.bullseye_limit else "miss"
    if outcome == "hit" and not target.reward_paid:
        resources = rewarded(resources, card.reward)
    line = f"{card.name}: {outcome} with {plural(made_in_all, 'bullseye')}"
    return outcome, resources, recent(finished, line)


@applies
def _(event: hv.EncounterEnded, state: State) -> State:
    h = hildegard(state)
    h = focus(h, event.shooter) if event.shooter else h
    encounter = h.encounter
    if isinstance(encounter, Target) and encounter.outcome is None:
        return _target_over(state, h, encounter)
    if isinstance(encounter, FaceOff) and encounter.outcome is None:
        return _face_off_over(state, h, encounter, "lost")
    return _with(state, replace(h, encounter=h.aside[0] if h.aside else None, aside=h.aside[1:]))


# -- feats and effects -------------------------------------------------------------------

@applies
def _(event: hv.FeatUsed, state: State) -> State:
    h = focus(hildegard(state), event.shooter)
    resources = dict(state.resources)
    resources["feats"] = resources.get("feats", 0) - event.cost
    state = replace(state, resources=resources)
    return _FEATS[event.feat](state, h, event)


def _hone(state: State, h: Hildegard, event: hv.FeatUsed) -> State:
    h = replace(h, next_set=replace(h.next_set, hone=h.next_set.hone + 1))
    return _on_shot(_with(state, h), h, event.shooter, lambda s: _used(s, "hone"))


def _wild(state: State, h: Hildegard, event: hv.FeatUsed) -> State:
    """"May Reroll a Wild Shot on Set ... Only the second result is used." Bought after
    the wild shot, it takes back what the first result did (the set's tally, on a
    target) and the set waits for its second wild shot; bought before, the wild shot is
    rolled twice."""
    target = h.encounter
    if isinstance(target, Target) and target.shot is not None and target.shot.wild_rolls \
            and target.last_tally is not None and "wild" not in target.shot.feats:
        state, h, target = _untally(state, h, target)
        shot = _reopened(target.shot)  # type: ignore[arg-type]
        return _with(state, replace(h, encounter=replace(target, shot=shot)))
    return _on_shot(state, h, event.shooter, _reopened)


def _reopened(shot: ShotSet) -> ShotSet:
    shot = _used(shot, "wild")
    if not shot.wild_rolls:
        return replace(shot, wild_rolls_allowed=shot.wild_rolls_allowed + 1)
    extra = shot.extra - (1 if shot.wild == "bullseye" else 0)
    return replace(shot, dice=shot.before_wild, wild=None, extra=extra,
                   wild_rolls_allowed=shot.wild_rolls + 1)


def _bullseye(state: State, h: Hildegard, event: hv.FeatUsed) -> State:
    def add(shot: ShotSet) -> ShotSet:
        return replace(_used(shot, "bullseye"), extra=shot.extra + 1)
    return _on_shot(state, h, event.shooter, add)


def _reset(state: State, h: Hildegard, event: hv.FeatUsed) -> State:
    target = h.encounter
    if not isinstance(target, Target):
        return _with(state, h)
    # Bought (forced) after the target ended, it reopens the target for its extra set.
    target = replace(target, sets_allowed=target.sets_allowed + 1, outcome=None,
                     last_tally=None) if target.outcome is not None else \
        replace(target, sets_allowed=target.sets_allowed + 1)
    return _with(state, replace(h, encounter=target))


def _redo(state: State, h: Hildegard, event: hv.FeatUsed) -> State:
    encounter = h.encounter
    if isinstance(encounter, Target):
        again = Target(encounter.card, encounter.shooter, encounter.card.sets,
                       bonus_awarded=encounter.bonus_awarded,
                       reward_paid=encounter.reward_paid, paid_before=encounter.reward_paid)
        return _with(state, replace(h, encounter=again))
    if isinstance(encounter, FaceOff):
        fight = start_face_off(
            encounter.meter, tuple(f.card for f in encounter.foes), encounter.shooters)
        return _with(state, replace(h, encounter=replace(
            fight, rewarded=encounter.rewarded or encounter.outcome == "won")))
    return _with(state, h)


def _block(state: State, h: Hildegard, event: hv.FeatUsed) -> State:
    if event.square is None:
        return _with(state, h)
    return _place_block(_with(state, h), h, event.shooter, event.square, None)


def _used(shot: ShotSet, feat: str) -> ShotSet:
    return replace(shot, feats=shot.feats | {feat})


_FEATS = {"hone": _hone, "wild": _wild, "bullseye": _bullseye, "reset": _reset,
          "redo": _redo, "block": _block}


@applies
def _(event: hv.EffectSuffered, state: State) -> State:
    h = hildegard(state)
    if event.effect == "hit":
        encounter = h.encounter
        if isinstance(encounter, FaceOff) and encounter.outcome is None:
            return _instant_hit(state, h, encounter)
        return state
    return _with(state, replace(h, next_set=suffer(h.next_set, event.effect)))


def suffer(effects: NextSet, effect: str) -> NextSet:
    if effect == "flub":
        return replace(effects, flub=effects.flub + 1)
    if effect in ("tame", "graze"):
        return replace(effects, **{effect: True})
    return effects


# -- face-offs ---------------------------------------------------------------------------

def start_face_off(meter: HitMeter, enemies: tuple[EnemyCard, ...],
                   shooters: tuple[str, ...]) -> FaceOff:
    blank: Mark = "empty"
    empty = (blank,) * len(meter.squares)
    return FaceOff(meter, tuple(Foe(e) for e in enemies), empty, shooters)


@applies
def _(event: hv.FaceOffStarted, state: State) -> State:
    h = hildegard(state)
    shooters = tuple(c.name for c in state.characters) or ("Hildegard",)
    fight = start_face_off(event.meter, event.enemies, shooters)
    if event.enemy_first:  # a card said so: the enemy's set opens the face-off
        fight = replace(fight, turn="enemy")
    return _with(state, replace(h, encounter=fight))


def _face_off_roll(state: State, h: Hildegard, fight: FaceOff, event: hv.ShotDiceRolled) -> State:
    if fight.outcome is not None:
        return state
    if event.roller in fight.shooters:
        shot = fight.shot(event.roller)
        if shot is None:
            if fight.round_effects is None:
                fight = replace(fight, round_effects=h.next_set)
                h = replace(h, next_set=NO_EFFECTS)
            shot = new_set(event.roller, fight.meter.accuracy, fight.round_effects or NO_EFFECTS)
            fight = replace(fight, shots=(*fight.shots, (event.roller, shot)))
        return _face_off_shot(state, h, fight, event.roller, lambda s: roll(s, event.faces))
    return _enemy_roll(state, h, fight, event)


def _face_off_shot(state: State, h: Hildegard, fight: FaceOff, shooter: str, change: Any) -> State:
    if fight.turn == "enemy" and fight.enemy == shooter and fight.enemy_shot is not None:
        changed = change(fight.enemy_shot)
        if changed.finesse_over and not fight.enemy_shot.finesse_over:  # the table stops
            return _enemy_done(state, h, replace(fight, enemy_shot=changed))
        return _with(state, replace(h, encounter=replace(fight, enemy_shot=changed)))
    shot = fight.shot(shooter)
    if shot is None:
        return _with(state, replace(h, encounter=fight))
    shots = tuple((who, change(s) if who == shooter else s) for who, s in fight.shots)
    fight = replace(fight, shots=shots)
    return _settle(state, h, fight)


def round_bullseyes(fight: FaceOff) -> dict[str, int]:
    """This round's bullseyes, by enemy: each formed against that enemy's own parts, from
    dice no other enemy's bullseyes use; as assigned, the rest to the first standing
    (`split`). Player 1's and Player 2's sets never combine into one bullseye."""
    standing = fight.standing()
    if not standing:
        return {}
    return split(*_round_dice(fight, standing), fight.assigned)


def round_formed(fight: FaceOff) -> dict[str, int]:
    """This round's bullseyes by enemy as far as the dice form them (`split.formed`)."""
    standing = fight.standing()
    return formed(*_round_dice(fight, standing), fight.assigned) if standing else {}


def _round_dice(fight: FaceOff, standing: tuple[Foe, ...],
                ) -> tuple[Pool, list[tuple[str, tuple[Face, ...]]]]:
    rolled = [s for _, s in fight.shots if s.rolled]
    if fight.tag_team:  # "Unless aided by the Tag Team Effect": one pool of every set's dice
        have = pool([f for s in rolled for f in s.final()], sum(s.extra for s in rolled))
    else:
        have = sum((pool(s.final(), s.extra) for s in rolled), Pool())
    return have, [(f.card.name, f.card.parts) for f in standing]


def players_done(fight: FaceOff) -> bool:
    """Every player has shot a complete set this round (the wild shot is shared)."""
    if len(fight.shots) < len(fight.shooters):
        return False
    return all(s.rolled and s.finesse_over for _, s in fight.shots) and fight.wild_done


def _settle(state: State, h: Hildegard, fight: FaceOff) -> State:
    """The players win as soon as this round's bullseyes defeat every enemy."""
    if players_done(fight):
        scored = _scored(fight)
        if all(f.defeated for f in scored.foes):
            return _face_off_over(state, h, scored, "won")
    return _with(state, replace(h, encounter=fight))


def _scored(fight: FaceOff) -> FaceOff:
    split = round_bullseyes(fight)
    foes = tuple(replace(f, bullseyes=f.bullseyes + split.get(f.card.name, 0)) for f in fight.foes)
    return replace(fight, foes=foes)


@applies
def _(event: hv.BlockPlaced, state: State) -> State:
    return _place_block(state, hildegard(state), event.shooter, event.square, event.die)


def _place_block(state: State, h: Hildegard, shooter: str, square: int, die: int | None) -> State:
    fight = h.encounter
    if not isinstance(fight, FaceOff) or not 0 < square <= len(fight.marks):
        return state
    marks = list(fight.marks)
    marks[square - 1] = "block"
    fight = replace(fight, marks=tuple(marks))
    if die is not None:
        shots = tuple((who, replace(s, blocks=s.blocks | {die - 1}) if who == shooter else s)
                      for who, s in fight.shots)
        fight = replace(fight, shots=shots)
    return _settle(state, h, fight)


@applies
def _(event: hv.TagTeamUsed, state: State) -> State:
    h = hildegard(state)
    fight = h.encounter
    if not isinstance(fight, FaceOff) or fight.outcome is not None:
        return state
    return _settle(state, h, replace(fight, tag_team=True))


@applies
def _(event: hv.BullseyesAssigned, state: State) -> State:
    h = hildegard(state)
    fight = h.encounter
    if not isinstance(fight, FaceOff):
        return state
    assigned = tuple((n, b) for n, b in fight.assigned if n != event.enemy)
    fight = replace(fight, assigned=(*assigned, (event.enemy, event.bullseyes)))
    return _settle(state, h, fight)


def _enemy_roll(state: State, h: Hildegard, fight: FaceOff, event: hv.ShotDiceRolled) -> State:
    if fight.turn == "players":
        fight = replace(_scored(fight), turn="enemy", enemy=event.roller, enemy_shot=None,
                        enemies_done=(), shots=(), assigned=(), round_effects=None,
                        tag_team=False)
    shot = fight.enemy_shot
    if shot is None or fight.enemy != event.roller:
        foe = next((f for f in fight.foes if f.card.name == event.roller), None)
        size = foe.card.accuracy if foe else len(event.faces)
        shot = ShotSet(event.roller, size)
        fight = replace(fight, enemy=event.roller)
    return _enemy_changed(state, h, fight, roll(shot, event.faces))


def _enemy_changed(state: State, h: Hildegard, fight: FaceOff, shot: ShotSet) -> State:
    """An enemy's dice hit what they can, square by square; its set ends when it has no
    die left to re-roll."""
    hits = strike(fight.meter, fight.marks, shot.dice, shot.unused)
    # A die that hit or cleared a block counts as locked in: the re-roll needs no other.
    shot = replace(shot, used=shot.used | hits.used, hit=bool(hits.used))
    h, fight = _tabs(h, replace(fight, marks=hits.marks, enemy_shot=shot), hits.hit)
    if full(fight.marks):
        return _face_off_over(state, h, fight, "lost")
    if enemy_set_over(fight.meter, fight.marks, shot.dice, shot.unused, shot.locked,
                      shot.fresh_lock or shot.hit):
        return _enemy_done(state, h, fight)
    return _with(state, replace(h, encounter=fight))


def _enemy_done(state: State, h: Hildegard, fight: FaceOff) -> State:
    done = (*fight.enemies_done, fight.enemy or "")
    waiting = [f for f in fight.standing() if f.card.name not in done]
    if waiting:
        fight = replace(fight, enemies_done=done, enemy=None, enemy_shot=None)
    else:
        fight = replace(fight, turn="players", round=fight.round + 1, enemy=None,
                        enemy_shot=None, enemies_done=())
    return _with(state, replace(h, encounter=fight))


def _instant_hit(state: State, h: Hildegard, fight: FaceOff) -> State:
    """"Hit: Instant Hit on Face-Off": the lowest open square is hit, or its block removed
    ("That square is now Blocked from 1 Hit")."""
    h, fight = _tabs(h, fight, (), instant=1)
    if full(fight.marks):
        return _face_off_over(state, h, fight, "lost")
    return _with(state, replace(h, encounter=fight))


def _tabs(h: Hildegard, fight: FaceOff, squares: Sequence[int],
          instant: int = 0) -> tuple[Hildegard, FaceOff]:
    """The tabs of the squares just hit, and `instant` hits more: "When the square with a
    Status Effect Tab is Hit, the Status Effect listed is triggered". Flub, Tame and Graze
    wait for the next set; a Hit tab is an instant hit, on the next open square at once (and
    that square's tab in turn)."""
    if not instant and all(fight.meter.squares[i].tab is None for i in squares):
        return h, fight
    effects, marks = h.next_set, list(fight.marks)
    pending, instant_hits = list(squares), instant
    while pending or instant_hits:
        tab: str | None = "hit"
        if pending:
            tab = fight.meter.squares[pending.pop(0)].tab
        else:
            instant_hits -= 1
        if tab == "hit":
            index = lowest_open(marks)
            if index is not None:
                marks[index] = "empty" if marks[index] == "block" else "hit"
                pending += [index] if marks[index] == "hit" else []
        elif tab is not None:
            effects = suffer(effects, tab)
    return replace(h, next_set=effects), replace(fight, marks=tuple(marks))


def _face_off_over(state: State, h: Hildegard, fight: FaceOff, outcome: str) -> State:
    """The face-off's end: rewards if won, and the negative effects waiting for "Hildegard's
    next Set" of this face-off end with it (Hone, bought by the players, stays)."""
    fight = replace(fight, outcome=outcome)
    if h.next_set.flub or h.next_set.tame or h.next_set.graze:
        h = replace(h, next_set=replace(NO_EFFECTS, hone=h.next_set.hone)
                    if h.next_set.hone else NO_EFFECTS)
    if outcome == "won" and not fight.rewarded:
        for foe in fight.foes:
            state = reward(state, foe.card.reward)
    names = ", ".join(f.card.name for f in fight.foes)
    line = f"Face-off with {names}: {outcome} in round {fight.round}"
    return _with(state, replace(h, encounter=fight, finished=recent(h.finished, line)))
