"""Exact odds on a Hildegard target, from where it stands, with the best finesse.

Pure: no I/O, no randomness. A shot die is "three Crescent icons ..., a Ring icon, a Dot
icon, and a Blank side" (Shot Dice), so a roll of n dice is a multinomial over the four
faces, and dice are interchangeable: what a set holds is a count of each face. The best
finesse is found by expectimax over those counts: after each roll the players either stop
(the dice stand) or lock in at least one more die and re-roll the rest ("As long as you
lock in at least 1 Dice result, you may re-roll the remaining Shot Dice", Finesse the Shot),
until one die or none is left to re-roll. Every chance is a `Fraction`, exactly.

The wild shot is left out: the rulebook prints no wild die's faces and spire knows them
only as the players type them, so the odds are those before any wild shot (as if each
were a Miss). Graze (no finesse), Hone and Flub (a die more or fewer) count on the next set.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from math import factorial
from typing import Literal, TypeAlias

from journal.games.hildegard.cards import TargetCard
from journal.games.hildegard.dice import FACES, Face
from journal.games.hildegard.split import EVERY_PART
from journal.games.hildegard.state import FaceOff, NextSet, ShotSet, Target

Counts: TypeAlias = tuple[int, int, int, int]
"""How many dice show crescent, ring, dot and blank."""
Goal: TypeAlias = Literal["hit", "bonus"]
Chances: TypeAlias = tuple[Fraction, Fraction]
"""The chance of the goal played for, then of the other goal under that same play."""

WEIGHTS = (3, 1, 1, 1)
"""Each face's share of a shot die's six sides: crescent x3, ring, dot, blank."""
NONE: Counts = (0, 0, 0, 0)

MOST_DICE = 10
"""The most dice in a set the odds weigh: the box holds "Shot Dice x 8" (Components) and a
Hone adds one. Every lock of every roll is weighed: a set of 10 dice takes seconds, of 16
minutes."""
MOST_SETS = 100
"""The most fresh sets the odds weigh (a card asks a few; a Reset adds one)."""
MOST_WORK = 5000
"""The most work the odds take on, in sets weighed for every standing a set may leave
(bullseyes up to the cap, the bonus combination met or not, feats left), each set of 5 dice
one unit and a die more about 2.3 times that: 0.004 s a unit on a 2-core machine, so about
twenty seconds at most (a 3-die target of 2 sets is about ten units)."""


@dataclass(frozen=True)
class Aim:
    """What the target asks: its limit and parts, and its bonus challenge (if any)."""

    limit: int
    parts: frozenset[Face]
    bonus_bullseyes: int | None = None
    bonus_combination: Counts | None = None
    bonus_done: bool = False

    @property
    def has_bonus(self) -> bool:
        return self.bonus_done or self.bonus_bullseyes is not None or \
            self.bonus_combination is not None

    @property
    def cap(self) -> int:
        """Bullseyes past this change nothing: counted up to it."""
        return max(self.limit, self.bonus_bullseyes or 0)


@dataclass(frozen=True)
class Going:
    """A set under way: the dice locked in and the dice free to re-roll (counts), whether a
    lock was made since the last roll, and whether its finesse is over."""

    locked: Counts
    free: Counts
    fresh_lock: bool = False
    over: bool = False
    bullseye_used: bool = False
    """The set's Bullseye feat is spent (once a set)."""


@dataclass(frozen=True)
class Position:
    """Where a target stands, as the odds need it."""

    aim: Aim
    made: int
    met: bool
    """The bonus combination was the final results of a set already tallied."""
    accuracy: int
    sets: int
    """Fresh sets still to roll, after the set under way (if any)."""
    next_size: int
    """Dice in the next fresh set: accuracy with Hone and Flub."""
    next_graze: bool = False
    going: Going | None = None
    feats: int = 0
    """Feats the players may spend on it: Hone, Bullseye, Reset (0: none spent)."""
    honed: bool = False
    """The next fresh set has its Hone already (one a set)."""


@dataclass(frozen=True)
class Choice:
    """A finesse choice now: the dice to lock in (counts; all the free ones is a stop),
    and the chances it leaves."""

    lock: Counts
    stop: bool
    chances: Chances


# -- counts ------------------------------------------------------------------------------

def counts(faces: tuple[Face | None, ...] | list[Face]) -> Counts:
    found = [sum(1 for f in faces if f == name) for name in FACES]
    return (found[0], found[1], found[2], found[3])


def _add(a: Counts, b: Counts) -> Counts:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def _less(a: Counts, b: Counts) -> Counts:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3])


@cache
def rolls(n: int) -> tuple[tuple[Counts, Fraction], ...]:
    """Every result of rolling `n` shot dice, as counts, with its exact chance."""
    found = []
    for c, r, d in product(range(n + 1), repeat=3):
        b = n - c - r - d
        if b < 0:
            continue
        ways = factorial(n) // (factorial(c) * factorial(r) * factorial(d) * factorial(b))
        weight = WEIGHTS[0] ** c * WEIGHTS[1] ** r * WEIGHTS[2] ** d * WEIGHTS[3] ** b
        found.append(((c, r, d, b), Fraction(ways * weight, 6 ** n)))
    return tuple(found)


def _subsets(free: Counts) -> Iterator[Counts]:
    yield from product(*(range(k + 1) for k in free))


def bullseyes(final: Counts, parts: frozenset[Face]) -> int:
    """The most disjoint bullseyes: crescent pairs, and rings each with a dot."""
    made = final[0] // 2 if "crescent" in parts else 0
    if "ring" in parts and "dot" in parts:
        made += min(final[1], final[2])
    return made


def _holds(final: Counts, wanted: Counts) -> bool:
    return all(have >= need for have, need in zip(final, wanted, strict=True))


# -- the expectimax ----------------------------------------------------------------------

def _mean(outcomes: list[tuple[Fraction, Chances]]) -> Chances:
    return (sum((p * c[0] for p, c in outcomes), Fraction(0)),
            sum((p * c[1] for p, c in outcomes), Fraction(0)))


def _won(aim: Aim, made: int, met: bool, goal: Goal) -> Chances:
    hit = made >= aim.limit
    bonus = aim.bonus_done or met or (
        aim.bonus_bullseyes is not None and made >= aim.bonus_bullseyes)
    first, second = (hit, bonus) if goal == "hit" else (bonus, hit)
    return Fraction(int(first)), Fraction(int(second))


@cache
def _after_set(aim: Aim, goal: Goal, final: Counts, made: int, met: bool,
               accuracy: int, sets: int, feats: int = 0) -> Chances:
    """A set ends with `final`: tally it (with a Bullseye feat bought, if it helps), then
    shoot the sets left."""
    made = made + bullseyes(final, aim.parts)
    met = met or (aim.bonus_combination is not None and _holds(final, aim.bonus_combination))
    return max(_between(aim, goal, min(made + extra, aim.cap), met, accuracy, sets,
                        feats - cost) for extra, cost in _bullseye_feat(feats, False))


def _bullseye_feat(feats: int, used: bool) -> list[tuple[int, int]]:
    """Bullseyes added and feats spent: none, or the Bullseye feat ("bullseye 2", once a set)."""
    return [(0, 0), (1, 2)] if feats >= 2 and not used else [(0, 0)]


def _between(aim: Aim, goal: Goal, made: int, met: bool, accuracy: int, sets: int,
             feats: int) -> Chances:
    """Between sets: the sets left, or, with none left, a Reset bought ("reset 2": a set
    more; bought at the last set's end, it loses nothing to buying it earlier)."""
    found = _fresh(aim, goal, made, met, accuracy, sets, accuracy, False, feats, False)
    if sets == 0 and feats >= 2:
        found = max(found, _fresh(aim, goal, made, met, accuracy, 1, accuracy, False,
                                  feats - 2, False))
    return found


@cache
def _fresh(aim: Aim, goal: Goal, made: int, met: bool, accuracy: int, sets: int,
           size: int, graze: bool, feats: int = 0, honed: bool = False) -> Chances:
    """`sets` fresh sets to shoot, the first of `size` dice (Grazed or not); with feats,
    a Hone ("hone 1", a die more, once a set) bought for it if that is better."""
    if sets <= 0:  # (a set forced past the last leaves none, never fewer)
        return _won(aim, made, met, goal)
    found = _rolled(aim, goal, made, met, accuracy, sets, size, graze, feats)
    if feats >= 1 and not honed:
        found = max(found, _rolled(aim, goal, made, met, accuracy, sets, size + 1, graze,
                                   feats - 1))
    return found


def _rolled(aim: Aim, goal: Goal, made: int, met: bool, accuracy: int, sets: int,
            size: int, graze: bool, feats: int) -> Chances:
    outcomes = []
    for result, chance in rolls(size):
        if size <= 1 or graze:
            value = _after_set(aim, goal, result, made, met, accuracy, sets - 1, feats)
        else:
            value = _finesse(aim, goal, NONE, result, False, made, met, accuracy, sets - 1,
                             feats)
        outcomes.append((chance, value))
    return _mean(outcomes)


@cache
def _finesse(aim: Aim, goal: Goal, locked: Counts, free: Counts, fresh_lock: bool,
             made: int, met: bool, accuracy: int, sets: int, feats: int = 0) -> Chances:
    """The best of every finesse choice from here."""
    return max((c.chances for c in _choices(aim, goal, locked, free, fresh_lock, made, met,
                                            accuracy, sets, feats)),
               default=(Fraction(0), Fraction(0)))


def _choices(aim: Aim, goal: Goal, locked: Counts, free: Counts, fresh_lock: bool,
             made: int, met: bool, accuracy: int, sets: int, feats: int) -> list[Choice]:
    found = []
    for lock in _subsets(free):
        if lock == free:
            chances = _after_set(aim, goal, _add(locked, free), made, met, accuracy, sets,
                                 feats)
            found.append(Choice(lock, True, chances))
        elif sum(lock) or fresh_lock:
            found.append(Choice(lock, False, _reroll(
                aim, goal, _add(locked, lock), sum(free) - sum(lock), made, met, accuracy,
                sets, feats)))
    return found


@cache
def _reroll(aim: Aim, goal: Goal, locked: Counts, n: int, made: int, met: bool,
            accuracy: int, sets: int, feats: int = 0) -> Chances:
    outcomes = []
    for result, chance in rolls(n):
        if n <= 1:  # the last die re-rolled: the finesse is over
            value = _after_set(aim, goal, _add(locked, result), made, met, accuracy, sets,
                               feats)
        else:
            value = _finesse(aim, goal, locked, result, False, made, met, accuracy, sets,
                             feats)
        outcomes.append((chance, value))
    return _mean(outcomes)


# -- from a position ---------------------------------------------------------------------

def too_big(position: Position) -> str | None:
    """Why the odds do not weigh `position` (None when they do): more dice in a set than
    `MOST_DICE`, or more sets left than `MOST_SETS`."""
    p = position
    dice = max(p.accuracy, p.next_size)
    if p.feats and not p.honed:  # a Hone bought with a feat: a die more
        dice += 1
    if p.going is not None:
        dice = max(dice, sum(p.going.locked) + sum(p.going.free))
    if dice > MOST_DICE:
        return f"the odds weigh sets of at most {MOST_DICE} dice, not {dice}"
    if p.sets > MOST_SETS:
        return f"the odds weigh at most {MOST_SETS} sets left, not {p.sets}"
    mets = 2 if p.aim.bonus_combination is not None else 1
    work = max(p.sets, 1) * (p.aim.cap + 1) * mets * (p.feats + 1) * 2.3 ** (dice - 5)
    if work > MOST_WORK:
        return f"{p.sets} sets of {dice} dice would take too long to weigh"
    return None


def chances(position: Position, goal: Goal = "hit") -> Chances:
    """The chance of `goal` with the best finesse for it (and, with feats to spend, the
    best use of them), and of the other goal on that play."""
    p, going = position, position.going
    _weigh_sets_first(p, goal)
    if going is None:
        return _first(p, min(p.made, p.aim.cap), p.met, p.feats, goal)
    return _going(p, going, goal)


DEEP = 8
"""Sets left past which the fresh sets are weighed from the last back first (each of the
expectimax's sets nests a few calls in the one before it: Python's recursion limit would
be met at about fifty)."""


def _weigh_sets_first(p: Position, goal: Goal) -> None:
    """With many sets left, weigh every fresh set from the last back, each from the one after
    it (already in the cache), so the position's own weighing nests one set deep, not one
    call per set: the same numbers, for every standing a set may leave (bullseyes, the bonus
    combination met, feats left)."""
    if p.sets <= DEEP:
        return
    mets = (False, True) if p.aim.bonus_combination is not None else (False,)
    for sets in range(1, p.sets + 1):
        for made in range(min(p.made, p.aim.cap), p.aim.cap + 1):  # (bullseyes only grow)
            for met in mets:
                for feats in range(p.feats + 1):
                    _fresh(p.aim, goal, made, met, p.accuracy, sets, p.accuracy, False, feats,
                           False)


def _first(p: Position, made: int, met: bool, feats: int, goal: Goal) -> Chances:
    """The position's fresh sets, the first with the effects waiting for it."""
    found = _fresh(p.aim, goal, made, met, p.accuracy, p.sets, p.next_size, p.next_graze,
                   feats, p.honed)
    if p.sets == 0 and feats >= 2:  # a Reset: one set more, with the effects waiting
        found = max(found, _fresh(p.aim, goal, made, met, p.accuracy, 1, p.next_size,
                                  p.next_graze, feats - 2, p.honed))
    return found


def _going(p: Position, going: Going, goal: Goal) -> Chances:
    if going.over or not sum(going.free):
        return _tally_then(p, _add(going.locked, going.free), goal)
    return choices(p, goal)[0].chances


def _rest(p: Position) -> bool:
    """The position differs from what the cached expectimax assumes past the set under
    way: effects waiting (Hone, Flub, Graze), or the set's Bullseye feat spent."""
    return p.next_size != p.accuracy or p.next_graze or p.honed or (
        p.going is not None and p.going.bullseye_used)


def _tally_then(p: Position, final: Counts, goal: Goal) -> Chances:
    made = p.made + bullseyes(final, p.aim.parts)
    met = p.met or (p.aim.bonus_combination is not None and
                    _holds(final, p.aim.bonus_combination))
    used = p.going is not None and p.going.bullseye_used
    return max(_first(p, min(made + extra, p.aim.cap), met, p.feats - cost, goal)
               for extra, cost in _bullseye_feat(p.feats, used))


def choices(position: Position, goal: Goal = "hit") -> list[Choice]:
    """Every finesse choice open on the set under way, each with its chances (best first);
    none when no set is under way or its finesse is over."""
    if position.going is None or position.going.over or not sum(position.going.free):
        return []
    _weigh_sets_first(position, goal)
    return _choices_now(position, goal)


def _choices_now(p: Position, goal: Goal) -> list[Choice]:
    """`choices`, the later sets weighed already (a re-roll's choices ask it again)."""
    going = p.going
    assert going is not None
    made = min(p.made, p.aim.cap)
    found = []
    for lock in _subsets(going.free):
        if lock == going.free:
            chances = _tally_then(p, _add(going.locked, going.free), goal)
            found.append(Choice(lock, True, chances))
        elif sum(lock) or going.fresh_lock:
            found.append(Choice(lock, False, _reroll_from(
                p, _add(going.locked, lock), sum(going.free) - sum(lock), made, goal)))
    return sorted(found, key=lambda c: (c.chances, c.stop, -sum(c.lock)), reverse=True)


def _reroll_from(p: Position, locked: Counts, n: int, made: int, goal: Goal) -> Chances:
    """A re-roll of `n` dice on the set under way; after it, the next fresh set carries
    the effects waiting for it."""
    if not _rest(p):
        return _reroll(p.aim, goal, locked, n, made, p.met, p.accuracy, p.sets, p.feats)
    outcomes = []
    for result, chance in rolls(n):
        if n <= 1:
            value = _tally_then(p, _add(locked, result), goal)
        else:
            assert p.going is not None
            value = max(c.chances for c in _choices_now(dataclasses.replace(
                p, made=made, going=Going(locked, result,
                                          bullseye_used=p.going.bullseye_used)), goal))
        outcomes.append((chance, value))
    return _mean(outcomes)


def best(position: Position, goal: Goal = "hit") -> Choice | None:
    """The finesse choice that maximises the chance of `goal` now (None: nothing to choose)."""
    found = choices(position, goal)
    return found[0] if found else None


# -- from the journal's state ------------------------------------------------------------

def position(target: Target, waiting: NextSet) -> Position:
    """The target as the odds see it: its set under way (if any), the sets left after it,
    and the effects waiting for the next set."""
    card, shot = target.card, target.shot
    aim = Aim(card.bullseye_limit, frozenset(card.parts or EVERY_PART),
              card.bonus.bullseyes if card.bonus else None,
              counts(list(card.bonus.combination))
              if card.bonus and card.bonus.combination else None,
              target.bonus_awarded)
    size = max(card.accuracy + waiting.hone - waiting.flub, 0)
    honed = waiting.hone > 0
    if shot is None or shot.complete:
        return Position(aim, target.bullseyes, False, card.accuracy,
                        max(target.sets_left, 0), size, waiting.graze, honed=honed)
    used = "bullseye" in shot.feats
    if shot.finesse_over:
        going = Going(counts(shot.final()), NONE, over=True, bullseye_used=used)
    else:
        locked = tuple(shot.dice[i] for i in shot.unused if i in shot.locked)
        free = tuple(shot.dice[i] for i in shot.free)
        going = Going(counts(locked), counts(free), shot.fresh_lock or shot.hit,
                      bullseye_used=used)
    return Position(aim, target.bullseyes + shot.extra, False, card.accuracy,
                    max(target.sets_left - 1, 0), size, waiting.graze, going, honed=honed)


def positions(shot: ShotSet, lock: Counts) -> tuple[int, ...]:
    """The free dice (1-based) a lock of these counts names: of each face, the first."""
    chosen: list[int] = []
    for face, wanted in zip(FACES, lock, strict=True):
        chosen += [i + 1 for i in shot.free if shot.dice[i] == face][:wanted]
    return tuple(sorted(chosen))


def at_start(card: TargetCard) -> Position:
    """A target card as it stands before its first set, with no effects waiting: the
    chance it had at its start (the report's)."""
    return position(Target(card=card, shooter="", sets_allowed=card.sets), NextSet())


def face_off_position(fight: FaceOff, waiting: NextSet) -> Position:
    """The players' side of a face-off round as the odds see it: the bullseyes still needed
    to bring the first enemy standing to its limit, formed against its parts, from the sets
    this round still holds (each player's; the set under way first). Sets already shot this
    round count with what they formed; the round's effects count on every fresh set (a
    Graze on the first only). Tag Team's pooled dice are not weighed."""
    foe = fight.standing()[0]
    parts = frozenset(foe.card.parts or EVERY_PART)
    effects = fight.round_effects or waiting
    size = max(fight.meter.accuracy + effects.hone - effects.flub, 0)
    shot_done = [s for _, s in fight.shots if s.rolled and s.finesse_over]
    made = sum(bullseyes(counts(s.final()), parts) + s.extra for s in shot_done)
    aim = Aim(max(foe.card.bullseye_limit - foe.bullseyes, 0), parts)
    going_shot = next((s for _, s in fight.shots if s.rolled and not s.finesse_over), None)
    fresh = len(fight.shooters) - len(fight.shots)
    if going_shot is None:
        return Position(aim, made, False, size, fresh, size, effects.graze)
    locked = tuple(going_shot.dice[i] for i in going_shot.unused if i in going_shot.locked)
    free = tuple(going_shot.dice[i] for i in going_shot.free)
    going = Going(counts(locked), counts(free), going_shot.fresh_lock)
    return Position(aim, made + going_shot.extra, False, size, fresh, size, effects.graze,
                    going)
