"""Hildegard's state: the set being shot, the target or face-off under way, the effects
waiting for the next set; and what a set of shot dice does as it is rolled, locked and
wild-shot.

What each event does to it is `evolve` (journal.games.hildegard.evolve, registered when
the game is loaded), a face-off's steps are journal.games.hildegard.combat: everything
that follows from the dice is worked out from the events alone, the bullseyes a set
forms, a target's outcome and rewards, the squares an enemy's dice hit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from journal.core.state import State, make, replace
from journal.errors import RuleViolation
from journal.games.hildegard import events as hv
from journal.games.hildegard.cards import EnemyCard, HitMeter, Reward, TargetCard
from journal.games.hildegard.dice import Face, WildEffect, bullseyes
from journal.games.hildegard.meter import Mark
from journal.games.hildegard.split import Pool

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


def combined(a: NextSet, b: NextSet) -> NextSet:
    if b is NO_EFFECTS:
        return a
    if a is NO_EFFECTS:
        return b
    return NextSet(a.hone + b.hone, a.flub + b.flub, a.tame or b.tame, a.graze or b.graze)


def set_taken(h: Hildegard, shooter: str) -> Hildegard:
    """`shooter`'s new set on a target took the effects waiting for it: the team's are
    owed to the other player's next set, if her own target is under way ("Any Feats spent
    on Effects that alter a player's rolls affect both players", Two Player Face-Off
    Rules), and hers owed are paid."""
    owed = tuple((who, e) for who, e in h.owed if who != shooter)
    if h.next_set is not NO_EFFECTS:
        others = {t.shooter for t in (h.encounter, *h.aside) if isinstance(t, Target)
                  and t.outcome is None and t.shooter != shooter}
        for who in sorted(others):
            before = next((e for w, e in owed if w == who), NO_EFFECTS)
            owed = (*((w, e) for w, e in owed if w != who), (who, combined(before, h.next_set)))
    return replace(h, next_set=NO_EFFECTS, owed=owed)


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
class Counted:
    """A face-off round's bullseyes as counted: the pool the players' sets held, each
    enemy's bullseyes before them (in the face-off's order), and the split assigned."""

    have: Pool
    before: tuple[int, ...]
    assigned: tuple[tuple[str, int], ...]


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
    counted: Counted | None = None
    """The players' round as it was counted at the enemy's first roll, so a split forced
    in the enemy's turn splits it again."""
    enemy: str | None = None
    enemy_shot: ShotSet | None = None
    enemies_done: tuple[str, ...] = ()
    outcome: str | None = None
    """None while under way; then "won" or "lost"."""
    meter_new: bool = True
    """The campaign's first face-off on this meter (its missing parts are said in full)."""
    rewarded: bool = False
    """The enemies' rewards were paid, before a Redo: they are paid once."""
    tag_team: bool = False
    """Tag Team this round: the players' sets combine into bullseyes."""
    passed: bool = False
    """Over, and the players have revealed a card since: it is off the screen."""
    abandoned: bool = False
    """Ended by the players (`spire end`) before the enemy or the meter ended it: lost."""

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
    owed: tuple[tuple[str, NextSet], ...] = ()
    """Effects one player's set took while the other's target was under way, still owed to
    the other's next set there: effects that alter a player's rolls "affect both players"."""
    meters_met: tuple[str, ...] = ()
    """The hit meters face-offs have been fought on, by name: a meter's squares without a
    part are said in full at its first face-off, and reminded in a line after."""

    def effects_for(self, shooter: str) -> NextSet:
        """What waits for `shooter`'s next set on a target: the team's, and hers owed."""
        owed = next((e for who, e in self.owed if who == shooter), None)
        return self.next_set if owed is None else combined(self.next_set, owed)

    @property
    def in_encounter(self) -> bool:
        """A target or face-off is under way (not yet won, lost or ended)."""
        return self.encounter is not None and self.encounter.outcome is None

    @property
    def ended_by(self) -> RuleViolation | None:
        """None: spire keeps no early end of a Hildegard campaign."""
        return None

    def limited(self, character: str, hp: int | None, ap: int | None) -> Hildegard:
        """Gear raises no limit in Hildegard: nothing changes."""
        return self

    def moved_on(self) -> Hildegard:
        """A card was revealed: an encounter that is over leaves the screen."""
        encounter = self.encounter
        if encounter is None or encounter.outcome is None or encounter.passed:
            return self
        return replace(self, encounter=replace(encounter, passed=True))


def hildegard(state: State) -> Hildegard:
    game_state = state.game_state
    return game_state if isinstance(game_state, Hildegard) else Hildegard()


def with_game(state: State, h: Hildegard) -> State:
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
    for position, new in zip(free, faces, strict=False):
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


def suffer(effects: NextSet, effect: str) -> NextSet:
    if effect == "flub":
        return replace(effects, flub=effects.flub + 1)
    if effect in ("tame", "graze"):
        return replace(effects, **{effect: True})
    return effects


def wild_dice(state: State) -> tuple[str, ...]:
    """The wild shot dice the players have: black from the start, more from fishing items."""
    found = [i.wild_die for i in state.items if i.wild_die]
    return ("black", *dict.fromkeys(d for d in found if d != "black"))


STATE = Hildegard
"""The game's own state (`State.game_state`), as snapshots name it."""
