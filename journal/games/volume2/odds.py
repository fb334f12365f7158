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
from itertools import combinations, product
from math import factorial
from typing import Any

from journal.core.dice_stats import chance as said
from journal.core.state import State
from journal.errors import Refused
from journal.games.volume2.combat import attacks_of
from journal.games.volume2.dice import HIVE_DIE, SHOT_DIE, DieKind
from journal.games.volume2.state import volume2

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


Choice = tuple[tuple[int, ...] | None, int, Fraction]
"""A finesse choice: the dice it locks by position (1-based; None: stop, every die
stands), how many dice it re-rolls, and the chance the combination then stands."""


def choices(kind: DieKind, combination: Sequence[str], faces: Sequence[str],
            locked: Sequence[bool], fresh_lock: bool) -> list[Choice]:
    """Every finesse choice open on a turn's dice, best first (then stopping, then locking
    fewer dice), each played best after it: stop, or lock dice and re-roll the rest ("you
    must lock in at least 1 or more results"; after a lock, the free dice may be re-rolled
    with no more locked). Choices the combination cannot tell apart are listed once, by
    their lowest positions."""
    shares, needs = _reduced(kind, combination)
    have = _capped(_split(kind, combination, [f for f, k in zip(faces, locked, strict=True)
                                              if k]), needs)
    free = [i for i, k in enumerate(locked) if not k]
    loose = _split(kind, combination, [faces[i] for i in free])
    found: list[Choice] = [(None, 0, Fraction(int(_holds(_add(have, loose), needs))))]
    seen = set()
    for k in range(0 if fresh_lock else 1, len(free)):
        for more in combinations(free, k):
            lock = _split(kind, combination, [faces[i] for i in more])
            if lock in seen:
                continue
            seen.add(lock)
            kept = _capped(_add(have, lock), needs)
            found.append((tuple(i + 1 for i in more), len(free) - k,
                          _reroll(shares, needs, kept, len(free) - k)))
    return sorted(found, key=lambda c: (c[2], c[0] is None, -len(c[0] or ())), reverse=True)


HIVE_GOALS = (("2 sickles", ("sickle", "sickle"), "damage 2"),
              ("a bee", ("bee",), "gain 1 bee"),
              ("a pollen", ("pollen",), "gain 1 pollen"),
              ("a hive", ("hive",), "deploy bees and pollen"))
"""What the hive die's faces do besides one sickle, weighed beside Finnian's actions:
"1 DMG per Sickle (Max 2)", "GAIN 1 BEE: Per locked roll.", "GAIN 1 POLLEN: Per locked
roll.", "You only need 1 Hive to deploy up to 4 Bees and/or Pollen"."""


def _goals(card: Any) -> list[tuple[str, tuple[str, ...], str, bool]]:
    """(name, faces, what it does, whether it is an action) for each row of an ally's odds:
    its combinations, and with hive dice the goals no combination names already."""
    rows = [(c.name, tuple(c.faces), c.says(), True) for c in card.actions()]
    if card.dice == "hive":
        have = {tuple(sorted(faces)) for _, faces, _, _ in rows}
        rows += [(name, faces, does, False) for name, faces, does in HIVE_GOALS
                 if tuple(sorted(faces)) not in have]
    return rows


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


# -- `spire odds`: the encounter under way, as plain data -------------------------------

MOST_DICE = 7
"""The most HP spent the odds weigh (a die an HP): beyond it every chance is within a
hair of 1, and the table would take seconds."""


def odds(state: State) -> dict[str, Any]:
    enc = volume2(state).encounter
    if enc is None or not enc.under_way:
        raise Refused("the odds weigh a Volume 2 encounter under way; none is now "
                      "(`spire fight ENEMY` begins one)")
    up = enc.up()
    return {
        "game": "volume2", "kind": "encounter", "round": enc.round, "phase": enc.phase,
        "allies": [_ally(enc, fighter) for fighter in up],
        "enemies": [_enemy(enc, foe, [a.name for a in up]) for foe in enc.standing()],
    }


def _ally(enc: Any, fighter: Any) -> dict[str, Any]:
    """Each combination's chance for each HP the ally could spend (keeping 1), and from
    its dice as they stand if its turn is under way."""
    card, kind = fighter.card, fighter.card.dice
    most = min(fighter.hp - 1, MOST_DICE)
    turn = enc.turn if enc.turn is not None and enc.turn.ally == fighter.name else None
    combos = []
    for name, faces, does, action in _goals(card) if kind is not None else ():
        by_hp = {n: combination_chance(kind, faces, n) for n in range(1, most + 1)}
        row: dict[str, Any] = {
            "name": name, "faces": list(faces), "does": does, "action": action,
            "by_hp_spent": {str(n): said(p) for n, p in by_hp.items()},
            "best_hp": _best_hp(by_hp)}
        if turn is not None and turn.rolled:
            locked = [f for f, lock in zip(turn.faces, turn.locked, strict=True) if lock]
            free = [f for f, lock in zip(turn.faces, turn.locked, strict=True) if not lock]
            row["now"] = said(chance_from(kind, faces, locked, free, turn.relock, turn.final))
            row["advice"] = [] if turn.final else [
                {"lock": list(lock or ()), "stop": lock is None, "rerolled": rerolled,
                 "chance": said(p)}
                for lock, rerolled, p in choices(kind, faces, turn.faces, turn.locked,
                                                 turn.relock)]
        combos.append(row)
    return {"ally": fighter.name, "hp": fighter.hp, "dice": kind, "combinations": combos,
            "turn": None if turn is None else {"spent": turn.spent,
                                                "faces": list(turn.faces),
                                                "locked": list(turn.locked)}}


def _best_hp(by_hp: dict[int, Fraction]) -> int | None:
    """The HP that buys the most chance per HP spent ("HP isn't just health; it's the fuel
    for your attacks"): the fewest HP of those tied. None when no HP spent can make it."""
    if not any(by_hp.values()):
        return None
    return max(by_hp, key=lambda n: (by_hp[n] / n, -n))


def _enemy(enc: Any, foe: Any, allies: list[str]) -> dict[str, Any]:
    """The chance each ally is its target, one attack's damage, and its turn's total."""
    card = foe.card
    table = [(r.low, r.high, r.damage) for r in card.table]
    outcomes = attack(table, foe.ferocity, foe.raised("damage"), card.quickdraw)
    acting = enc.acting() is foe
    attacks = enc.attacks_left if acting and enc.attacks_left else attacks_of(foe)
    total, beyond = turn_damage(outcomes, attacks)
    per_attack: dict[int, Fraction] = {}
    for (damage, _), p in outcomes.items():
        per_attack[damage] = per_attack.get(damage, Fraction(0)) + p
    again = sum((p for (_, more), p in outcomes.items() if more), Fraction(0))
    # A tie narrows the target roll of the attack it was rolled for, no other: "Before
    # each Enemy attack, determine which Ally is being targeted".
    contenders = allies
    if acting and enc.contenders:
        contenders = [a for a in allies if a in enc.contenders]
    if acting and enc.target is not None:  # the target roll (or a bee) has said
        contenders = [enc.target]
    return {
        "enemy": foe.name, "ferocity": foe.ferocity, "quickdraw": card.quickdraw,
        "attacks": attacks, "table_entered": bool(table),
        "targeted": {name: said(p) for name, p in
                     zip(contenders, targeted(len(contenders)), strict=True)},
        "attack_damage": {str(d): said(p) for d, p in sorted(per_attack.items())},
        "another_attack": said(again),
        "turn_damage": {str(d): said(p) for d, p in total.items()},
        "turn_damage_beyond": said(beyond),
    }
