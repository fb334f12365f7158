"""Exact odds in a Volume 2 encounter: an ally's combinations, and an enemy's attacks.

Pure: no I/O, no randomness; every chance a `Fraction`.

An ally: "Accuracy equals the HP you spend this Turn. Spend 3 HP, roll 3 dice", then
"lock in at least 1 or more results. Then, re-roll the remaining dice. Repeat this
process ... until you're out of dice to Finesse" (Turns). The chance of a combination is
the chance its faces stand among the dice at the end, with the finesse best for it (found
by expectimax over the count of each face; the dice are interchangeable). The hive die has
"Sickle x 2, Bee, Pollen, Hive, and Blank"; the shot die six faces, one each.

An enemy: "The highest result determines which Ally is hit. If multiple dice tie for
highest, roll again only for those tied Allies" (Target Roll Phase); its d20 plus ferocity
read on its damage table (our ruling: above the top row is the top row, below the lowest a
miss); QUICKDRAW, a natural roll at or under its number, gives another attack.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import product
from math import factorial

from journal.games.volume2.dice import HIVE_DIE, SHOT_DIE, DieKind

Counts = tuple[int, ...]
"""How many dice show each face of the die, in the order of `faces(kind)`."""


def faces(kind: DieKind) -> tuple[str, ...]:
    return tuple(dict.fromkeys(HIVE_DIE if kind == "hive" else SHOT_DIE))


def weights(kind: DieKind) -> tuple[int, ...]:
    """Each face's sides out of six (the hive die's sickle is printed twice)."""
    sides = HIVE_DIE if kind == "hive" else SHOT_DIE
    return tuple(sides.count(f) for f in faces(kind))


@cache
def rolls(shares: tuple[int, ...], n: int) -> tuple[tuple[Counts, Fraction], ...]:
    """Every result of rolling `n` dice whose faces have these `shares` of six sides, as
    counts, with its exact chance."""
    found = []
    for split in product(range(n + 1), repeat=len(shares) - 1):
        last = n - sum(split)
        if last < 0:
            continue
        counts = (*split, last)
        ways = factorial(n)
        weight = 1
        for k, share in zip(counts, shares, strict=True):
            ways //= factorial(k)
            weight *= share ** k
        found.append((counts, Fraction(ways * weight, 6 ** n)))
    return tuple(found)


def _reduced(kind: DieKind, combination: Sequence[str]) -> tuple[tuple[int, ...], Counts]:
    """The die as a combination sees it: each face it needs, and every other face as one
    (a blank and a ping are the same to it); the shares of six sides, and the needs."""
    wanted = Counter(combination)
    needed = [f for f in faces(kind) if wanted[f]]
    all_shares = dict(zip(faces(kind), weights(kind), strict=True))
    shares = (*(all_shares[f] for f in needed), 6 - sum(all_shares[f] for f in needed))
    return shares, (*(wanted[f] for f in needed), 0)


def _split(kind: DieKind, combination: Sequence[str], dice: Sequence[str]) -> Counts:
    needed = [f for f in faces(kind) if f in combination]
    return (*(sum(1 for d in dice if d == f) for f in needed),
            sum(1 for d in dice if d not in needed))


def _holds(final: Counts, needs: Counts) -> bool:
    return all(have >= need for have, need in zip(final, needs, strict=True))


def _add(a: Counts, b: Counts) -> Counts:
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _capped(locked: Counts, needs: Counts) -> Counts:
    """Locked dice past what the combination needs of a face count as any other face."""
    extra = sum(max(k - n, 0) for k, n in zip(locked[:-1], needs[:-1], strict=True))
    return (*(min(k, n) for k, n in zip(locked[:-1], needs[:-1], strict=True)),
            locked[-1] + extra)


def _subsets(free: Counts) -> list[Counts]:
    return list(product(*(range(k + 1) for k in free)))


@cache
def _finesse(shares: tuple[int, ...], needs: Counts, locked: Counts, free: Counts,
             fresh_lock: bool) -> Fraction:
    """The best chance the combination stands, from dice `locked` and `free`."""
    best = Fraction(int(_holds(_add(locked, free), needs)))  # stop: every die stands
    for lock in _subsets(free):
        if lock == free or (not sum(lock) and not fresh_lock):
            continue
        kept = _capped(_add(locked, lock), needs)
        best = max(best, _reroll(shares, needs, kept, sum(free) - sum(lock)))
    return best


@cache
def _reroll(shares: tuple[int, ...], needs: Counts, locked: Counts, n: int) -> Fraction:
    total = Fraction(0)
    for result, chance in rolls(shares, n):
        if n <= 1:  # the last die: it stands
            total += chance * int(_holds(_add(locked, result), needs))
        else:
            total += chance * _finesse(shares, needs, locked, result, False)
    return total


def combination_chance(kind: DieKind, combination: Sequence[str], spent: int) -> Fraction:
    """The chance `combination` stands after rolling `spent` dice, with the best finesse."""
    shares, needs = _reduced(kind, combination)
    if sum(needs) > spent:
        return Fraction(0)
    return _reroll(shares, needs, (0,) * len(needs), spent) if spent <= 1 else \
        sum((chance * _finesse(shares, needs, (0,) * len(needs), result, False)
             for result, chance in rolls(shares, spent)), Fraction(0))


def chance_from(kind: DieKind, combination: Sequence[str], locked: Sequence[str],
                free: Sequence[str], fresh_lock: bool, over: bool) -> Fraction:
    """The chance `combination` stands, from a turn's dice as they are."""
    shares, needs = _reduced(kind, combination)
    have = _capped(_split(kind, combination, locked), needs)
    loose = _split(kind, combination, free)
    if over or not free:
        return Fraction(int(_holds(_add(have, loose), needs)))
    return _finesse(shares, needs, have, loose, fresh_lock)


# -- an enemy's turn ---------------------------------------------------------------------

@cache
def targeted(allies: int) -> tuple[Fraction, ...]:
    """The chance each of `allies` is hit: every one rolls a d20, the highest is hit, and a
    tie for highest rolls again between the tied alone (enumerated, not assumed even)."""
    if allies <= 1:
        return (Fraction(1),) * allies
    won = [Fraction(0)] * allies
    everyone = Fraction(0)
    share = Fraction(1, 20 ** allies)
    for rolled in product(range(1, 21), repeat=allies):
        top = max(rolled)
        tied = [i for i, r in enumerate(rolled) if r == top]
        if len(tied) == allies:  # every die tied: the same roll again
            everyone += share
            continue
        again = targeted(len(tied))
        for i, chance in zip(tied, again, strict=True):
            won[i] += share * chance
    return tuple(w / (1 - everyone) for w in won)


def attack(table: Sequence[tuple[int, int, int]], ferocity: int, raised: int,
           quickdraw: int | None) -> dict[tuple[int, bool], Fraction]:
    """One attack's outcomes: (damage, another attack given) with their chances. `table`
    holds (low, high, damage) rows; `raised` is what abilities add to a hit's damage."""
    found: dict[tuple[int, bool], Fraction] = {}
    for roll in range(1, 21):
        damage = read(table, roll + ferocity)
        damage = max(damage + raised, 0) if damage else 0
        again = quickdraw is not None and roll <= quickdraw
        found[damage, again] = found.get((damage, again), Fraction(0)) + Fraction(1, 20)
    return found


def read(table: Sequence[tuple[int, int, int]], total: int) -> int:
    """The table's damage at `total`: above the top row, the top row; below the lowest, 0."""
    if not table:
        return 0
    top = max(table, key=lambda r: r[1])
    if total > top[1]:
        return top[2]
    return next((d for low, high, d in table if low <= total <= high), 0)


def turn_damage(outcomes: dict[tuple[int, bool], Fraction], attacks: int,
                depth: int = 12) -> tuple[dict[int, Fraction], Fraction]:
    """The total damage of an enemy's turn of `attacks` attacks, each QUICKDRAW adding one:
    the chance of each total when at most `depth` attacks are added, and the chance more
    are (QUICKDRAW can chain without end; that chance is left apart, exact)."""
    dist: dict[tuple[int, int], Fraction] = {(0, attacks): Fraction(1)}  # (damage, to come)
    done: dict[int, Fraction] = {}
    beyond = Fraction(0)
    for added in range(depth + attacks + 1):
        step: dict[tuple[int, int], Fraction] = {}
        for (damage, left), p in dist.items():
            if left == 0:
                done[damage] = done.get(damage, Fraction(0)) + p
                continue
            for (hit, again), q in outcomes.items():
                key = (damage + hit, left - 1 + int(again))
                step[key] = step.get(key, Fraction(0)) + p * q
        dist = step
        if added == depth + attacks:
            beyond = sum(dist.values(), Fraction(0))
    return dict(sorted(done.items())), beyond
