"""`spire odds` for a Hildegard target: exact chances, checked against a brute force that
shares nothing with journal/games/hildegard/odds.py (it rolls ordered dice, side by side,
and locks dice by position, as the table does)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from datetime import UTC
from fractions import Fraction
from functools import cache
from itertools import combinations, product

import pytest
from conftest import Spire, quoted

from journal.games.hildegard import finesse as odds
from journal.games.hildegard.dice import Face

SIDES: tuple[Face, ...] = ("crescent", "crescent", "crescent", "ring", "dot", "blank")
"""A shot die's six sides, each 1/6: its faces as the rulebook prints them."""
SHORT = {"c": "crescent", "r": "ring", "d": "dot", "b": "blank"}

Pair = tuple[Fraction, Fraction]


class Brute:
    """Expectimax over every ordered roll of the six sides and every lock by position: the
    chance of the goal played for, then of the other goal on that play (compared as pairs,
    as the odds compare them)."""

    def __init__(self, limit: int, parts: str, accuracy: int, goal: str = "hit",
                 bonus_bullseyes: int | None = None, combination: str | None = None) -> None:
        self.limit, self.parts, self.accuracy, self.goal = limit, set(parts), accuracy, goal
        self.bonus_bullseyes = bonus_bullseyes
        self.combination = [SHORT[c] for c in combination] if combination else None

    def made(self, final: tuple[Face | None, ...]) -> int:
        c = sum(1 for f in final if f == "crescent")
        r = sum(1 for f in final if f == "ring")
        d = sum(1 for f in final if f == "dot")
        return (c // 2 if "c" in self.parts else 0) + \
            (min(r, d) if "r" in self.parts and "d" in self.parts else 0)

    def met(self, final: tuple[Face | None, ...]) -> bool:
        if self.combination is None:
            return False
        left = list(final)
        for face in self.combination:
            if face not in left:
                return False
            left.remove(face)
        return True

    def end(self, made: int, met: bool) -> Pair:
        hit = made >= self.limit
        bonus = met or (self.bonus_bullseyes is not None and made >= self.bonus_bullseyes)
        first, second = (hit, bonus) if self.goal == "hit" else (bonus, hit)
        return Fraction(int(first)), Fraction(int(second))

    def target(self, sets: int, made: int, met: bool, size: int | None = None,
               graze: bool = False) -> Pair:
        """`sets` sets to shoot from their first roll, the first of `size` dice."""
        return self._target(sets, made, met, self.accuracy if size is None else size, graze)

    @cache  # noqa: B019 (a test's object, dropped with the test)
    def _target(self, sets: int, made: int, met: bool, size: int, graze: bool) -> Pair:
        if sets == 0:
            return self.end(made, met)
        then = self.after(sets - 1)
        return _average([
            then(tuple(SIDES[s] for s in sides), made, met) if size <= 1 or graze else
            self.finesse(tuple(SIDES[s] for s in sides), frozenset(), False, made, met, then)
            for sides in product(range(6), repeat=size)])

    @cache  # noqa: B019 (one closure a number of sets: the memo below keys on it)
    def after(self, sets: int) -> Callable[[tuple[Face | None, ...], int, bool], Pair]:
        def tally(final: tuple[Face | None, ...], made: int, met: bool) -> Pair:
            return self.target(sets, made + self.made(final), met or self.met(final))
        return tally

    @cache  # noqa: B019
    def finesse(self, dice: tuple[Face | None, ...], locked: frozenset[int], fresh: bool,
                made: int, met: bool,
                then: Callable[[tuple[Face | None, ...], int, bool], Pair]) -> Pair:
        free = [i for i, f in enumerate(dice) if f is not None and i not in locked]
        best = then(dice, made, met)  # stop: the dice stand
        for k in range(0 if fresh else 1, len(free)):
            for more in combinations(free, k):
                best = max(best, self.reroll(dice, locked | set(more), made, met, then))
        return best

    def reroll(self, dice: tuple[Face | None, ...], locked: frozenset[int], made: int,
               met: bool, then: Callable[[tuple[Face | None, ...], int, bool], Pair]) -> Pair:
        again = [i for i, f in enumerate(dice) if f is not None and i not in locked]
        values = []
        for sides in product(range(6), repeat=len(again)):
            new = list(dice)
            for i, s in zip(again, sides, strict=True):
                new[i] = SIDES[s]
            if len(again) <= 1:
                values.append(then(tuple(new), made, met))
            else:
                values.append(self.finesse(tuple(new), locked, False, made, met, then))
        return _average(values)


def _average(values: list[Pair]) -> Pair:
    n = len(values)
    return (sum((v[0] for v in values), Fraction(0)) / n,
            sum((v[1] for v in values), Fraction(0)) / n)


def _fraction(chance: dict[str, object]) -> Fraction:
    return Fraction(str(chance["fraction"]))


# -- the pure odds against the brute force ------------------------------------------------

CARDS = {  # name: (limit, parts, accuracy, sets, bonus bullseyes, bonus combination)
    "Pesky Jackalope": (1, "crd", 2, 1, 2, None),
    "Street Merchant": (2, "crd", 3, 2, 3, None),
    "Card Peddler": (1, "crd", 3, 1, None, "rd"),
    "crescents only, 4 dice": (2, "c", 4, 1, None, "cc"),
    "two sets of 2": (2, "crd", 2, 2, None, "rd"),
}


def _aim(limit: int, parts: str, bonus: int | None, combination: str | None) -> odds.Aim:
    wanted = odds.counts([SHORT[c] for c in combination]) if combination else None
    return odds.Aim(limit, frozenset(SHORT[p] for p in parts), bonus, wanted)


@pytest.mark.parametrize("name", CARDS)
@pytest.mark.parametrize("goal", ["hit", "bonus"])
def test_a_target_at_its_start_agrees_with_brute_force(name: str, goal: odds.Goal) -> None:
    limit, parts, accuracy, sets, bonus, combination = CARDS[name]
    at = odds.Position(_aim(limit, parts, bonus, combination), 0, False, accuracy, sets,
                       accuracy)
    brute = Brute(limit, parts, accuracy, goal, bonus, combination)
    assert odds.chances(at, goal) == brute.target(sets, 0, False)


@pytest.mark.parametrize(("hone", "flub", "graze"), [(1, 0, False), (0, 1, False),
                                                     (0, 2, False), (0, 0, True)])
def test_effects_on_the_next_set_agree_with_brute_force(hone: int, flub: int,
                                                        graze: bool) -> None:
    """Hone adds a die, Flub takes one away, Graze forbids finesse: on the next set only."""
    size = max(3 + hone - flub, 0)
    at = odds.Position(_aim(2, "crd", 3, None), 0, False, 3, 2, size, graze)
    brute = Brute(2, "crd", 3, "hit", 3)
    assert odds.chances(at) == brute.target(2, 0, False, size, graze)


def test_a_cap_on_bullseyes_changes_nothing_beyond_it() -> None:
    at = odds.Position(_aim(1, "crd", None, None), 3, False, 3, 2, 3)
    assert odds.chances(at) == (1, 0)


# -- through the CLI ----------------------------------------------------------------------

def _street_merchant(spire: Spire) -> Brute:
    spire.ok("new", "oaks", "--game", "hildegard")
    spire.ok("target", "Street Merchant")
    return Brute(2, "crd", 3, "hit", 3)


def _dice(text: str) -> tuple[Face | None, ...]:
    return tuple(SHORT[c] for c in text.split())


def test_odds_at_a_targets_start_agree_with_brute_force(spire: Spire) -> None:
    brute = _street_merchant(spire)
    found = spire.json("odds")
    assert _fraction(found["hit"]) == brute.target(2, 0, False)[0]
    assert found["set_under_way"] is None and found["next_set"] == {"dice": 3, "graze": False}
    assert found["bonus"]["challenge"] == "3 bullseyes"
    # Without a wild shot, two sets of three dice make two bullseyes at most.
    assert _fraction(found["bonus"]["playing_for_it"]) == 0


def test_odds_after_a_lock_agree_with_brute_force(spire: Spire) -> None:
    brute = _street_merchant(spire)
    spire.ok("roll", "c", "b", "r")
    spire.ok("lock", "1", "3")
    found = spire.json("odds")
    expected = brute.finesse(_dice("c b r"), frozenset({0, 2}), True, 0, False, brute.after(1))
    assert _fraction(found["hit"]) == expected[0]
    assert found["set_under_way"]["locked"] == {"crescent": 1, "ring": 1}


def test_odds_with_a_flub_pending_agree_with_brute_force(spire: Spire) -> None:
    """Flub on the next set: the set under way keeps its dice, the one after loses one."""
    brute = _street_merchant(spire)
    spire.ok("roll", "c", "b", "r")
    spire.ok("effect", "flub")
    found = spire.json("odds")
    assert found["next_set"] == {"dice": 2, "graze": False}

    def then(final: tuple[Face | None, ...], made: int, met: bool) -> Pair:
        return brute.target(1, made + brute.made(final), met, size=2)
    expected = brute.finesse(_dice("c b r"), frozenset(), False, 0, False, then)
    assert _fraction(found["hit"]) == expected[0]
    spire.ok("lock", "1")
    spire.ok("roll", "c", "d")  # crescent, crescent, dot: a bullseye; stopping keeps it
    found = spire.json("odds")
    assert found["set_under_way"]["free"] == {"crescent": 1, "dot": 1}
    assert _fraction(found["hit"]) == brute.target(1, 1, False, size=2)[0]
    assert found["advice"]["choices"][0]["stop"]


def test_the_advised_lock_is_the_one_brute_force_finds_best(spire: Spire) -> None:
    brute = _street_merchant(spire)
    spire.ok("roll", "c", "b", "r")
    advice = spire.json("odds")["advice"]
    assert advice["now"] == "lock"
    dice, then = _dice("c b r"), brute.after(1)
    by_lock = {(): brute.finesse(dice, frozenset({0, 1, 2}), False, 0, False, then)}
    for k in (1, 2):
        for chosen in combinations(range(3), k):
            by_lock[tuple(p + 1 for p in chosen)] = brute.reroll(
                dice, frozenset(chosen), 0, False, then)
    best = max(v[0] for v in by_lock.values())
    first = advice["choices"][0]
    assert not first["stop"] and by_lock[tuple(first["lock"])][0] == best
    assert _fraction(first["hit"]) == best
    for choice in advice["choices"]:
        key = () if choice["stop"] else tuple(choice["lock"])
        assert _fraction(choice["hit"]) == by_lock[key][0]
    out = spire.ok("odds", "--advise")
    assert f"advice  lock {' '.join(map(str, first['lock']))}, re-roll 2 dice: " in out


def test_odds_in_words(spire: Spire) -> None:
    _street_merchant(spire)
    out = spire.ok("odds").splitlines()
    assert out[0] == "target  Street Merchant: 0 of 2 bullseyes, 2 sets left"
    assert out[1] == "next    a fresh set rolls 3 dice"
    assert out[2].startswith("hit     93.05% (") and out[2].endswith(") with the best finesse")
    assert out[-1].startswith("Odds before any wild shot")


def test_odds_append_nothing(spire: Spire) -> None:
    _street_merchant(spire)
    spire.ok("roll", "c", "b", "r")
    before = spire.journal_rows()
    spire.ok("odds", "--advise")
    spire.ok("odds", "--json")
    assert spire.journal_rows() == before


def test_odds_with_nothing_to_weigh_are_refused_in_one_line(spire: Spire) -> None:
    assert "no journal at" in spire.refused("odds", code=3)
    spire.ok("card", "add", "Rat", "--game", "hildegard", "--enemy", "--limit", "1",
             "--accuracy", "1")
    assert "no current campaign" in spire.refused("odds", code=2)   # a journal, no campaign
    spire.ok("new", "oaks", "--game", "hildegard")
    assert "a target or a face-off under way" in spire.refused("odds", code=1)
    spire.ok("target", "Card Peddler")
    spire.ok("end")
    assert "is over (miss)" in spire.refused("odds", code=1)



# -- Volume 2 -------------------------------------------------------------------------------

class BruteCombination:
    """The best chance a combination stands among ordered dice rolled side by side from the
    printed sides (the hive die's sickle twice), locking dice by position."""

    def __init__(self, sides: tuple[str, ...], combination: tuple[str, ...]) -> None:
        self.sides, self.combination = sides, combination

    def holds(self, dice: tuple[str, ...]) -> bool:
        left = list(dice)
        for face in self.combination:
            if face not in left:
                return False
            left.remove(face)
        return True

    def start(self, n: int) -> Fraction:
        values = [self.finesse(dice, frozenset(), False)
                  for dice in product(self.sides, repeat=n)]
        return sum(values, Fraction(0)) / len(values)

    @cache  # noqa: B019
    def finesse(self, dice: tuple[str, ...], locked: frozenset[int], fresh: bool) -> Fraction:
        free = [i for i in range(len(dice)) if i not in locked]
        best = Fraction(int(self.holds(dice)))
        if len(dice) <= 1 and not locked:
            return best
        for k in range(0 if fresh else 1, len(free)):
            for more in combinations(free, k):
                best = max(best, self.reroll(dice, locked | set(more)))
        return best

    def reroll(self, dice: tuple[str, ...], locked: frozenset[int]) -> Fraction:
        again = [i for i in range(len(dice)) if i not in locked]
        values = []
        for sides in product(self.sides, repeat=len(again)):
            new = list(dice)
            for i, s in zip(again, sides, strict=True):
                new[i] = s
            values.append(Fraction(int(self.holds(tuple(new)))) if len(again) <= 1
                          else self.finesse(tuple(new), locked, False))
        return sum(values, Fraction(0)) / len(values)


V2_COMBOS = [("hive", ("sickle",)), ("hive", ("hive", "bee")), ("hive", ("sickle", "sickle")),
             ("shot", ("black", "white")), ("shot", ("ping",)),
             ("shot", ("black", "black", "circle")), ("shot", ("half", "circle", "ping"))]


@pytest.mark.parametrize(("kind", "combination", "spent"), [
    (kind, combination, spent) for kind, combination in V2_COMBOS for spent in (1, 2, 3, 4)
    if spent < 4 or kind == "hive"])  # four shot dice: seconds each by brute force
def test_volume2_combination_chances_agree_with_brute_force(
        kind: str, combination: tuple[str, ...], spent: int) -> None:
    from journal.games.volume2 import odds as v2
    from journal.games.volume2.dice import HIVE_DIE, SHOT_DIE

    sides = HIVE_DIE if kind == "hive" else SHOT_DIE
    brute = BruteCombination(sides, combination)
    assert v2.combination_chance(kind, combination, spent) == brute.start(spent)  # type: ignore[arg-type]


def test_volume2_chance_from_dice_locked_agrees_with_brute_force() -> None:
    from journal.games.volume2 import odds as v2
    from journal.games.volume2.dice import SHOT_DIE

    brute = BruteCombination(SHOT_DIE, ("black", "white", "circle"))
    dice = ("black", "ping", "blank", "circle")
    expected = brute.finesse(dice, frozenset({0, 3}), True)
    assert v2.chance_from("shot", brute.combination, ["black", "circle"], ["ping", "blank"],
                          True, False) == expected
    expected = brute.finesse(dice, frozenset(), False)
    assert v2.chance_from("shot", brute.combination, [], list(dice), False, False) == expected


@pytest.mark.parametrize("allies", [1, 2, 3])
def test_each_ally_is_targeted_evenly_with_ties_rolled_again(allies: int) -> None:
    from journal.games.volume2 import odds as v2

    assert v2.targeted(allies) == (Fraction(1, allies),) * allies


def _brute_turn(card: object, attacks: int, depth: int) -> tuple[dict[int, Fraction], Fraction]:
    """Every sequence of natural d20 rolls, read by the card's own table, QUICKDRAW adding
    an attack; sequences of more than `attacks + depth` attacks are left apart."""
    from journal.games.volume2.rounds import attack_damage
    from journal.games.volume2.state import Foe

    foe = Foe(card, 8, 2)  # type: ignore[arg-type]
    done: dict[int, Fraction] = {}
    beyond = Fraction(0)

    def walk(left: int, damage: int, p: Fraction, made: int) -> None:
        nonlocal beyond
        if left == 0:
            done[damage] = done.get(damage, Fraction(0)) + p
            return
        if made == attacks + depth:
            beyond += p
            return
        for roll in range(1, 21):
            again = foe.card.quickdraw is not None and roll <= foe.card.quickdraw
            walk(left - 1 + int(again), damage + attack_damage(foe, roll), p / 20, made + 1)

    walk(attacks, 0, Fraction(1), 0)
    return dict(sorted(done.items())), beyond


@pytest.mark.parametrize(("ferocity", "attacks"), [(1, 1), (0, 2), (-3, 1), (6, 1)])
def test_an_enemys_turn_damage_agrees_with_every_sequence_of_rolls(
        ferocity: int, attacks: int) -> None:
    """Wade Slocum's printed table and QUICKDRAW, with a ferocity and attacks of our own."""
    from journal.games.volume2 import odds as v2
    from journal.games.volume2.cards import EnemyCard, Row

    card = EnemyCard(name="Wade Slocum", ferocity=ferocity, attacks=attacks, quickdraw=4,
                     table=(Row(low=5, high=15, damage=3), Row(low=16, high=19, damage=4),
                            Row(low=20, high=20, damage=5)))
    table = [(r.low, r.high, r.damage) for r in card.table]
    outcomes = v2.attack(table, ferocity, 0, 4)
    assert v2.turn_damage(outcomes, attacks, depth=3) == _brute_turn(card, attacks, 3)


def _plains(spire: Spire) -> None:
    spire.ok("new", "plains", "--game", "volume2")
    spire.ok("card", "add", "Finnian", "--ally", "--recoup", "1")
    spire.ok("card", "add", "Dunstan", "--ally", "--hp", "6", "--ap", "2", "--combo",
             "Double Shot: black white: 2 damage", "--combo", "Repair: ping: repair 1")
    spire.ok("card", "add", "Wade Slocum", "--enemy", "--hp", "8", "--ap", "2", "--ferocity",
             "1", "--attacks", "1", "--retreat", "2", "--meat")
    spire.ok("draw", "Dunstan")
    spire.ok("fight", "Wade Slocum", "--with", "Dunstan")


def test_volume2_odds_through_the_cli(spire: Spire) -> None:
    from journal.games.volume2.dice import HIVE_DIE, SHOT_DIE

    _plains(spire)
    found = spire.json("odds")
    finnian, dunstan = found["allies"]
    assert list(finnian["combinations"][0]["by_hp_spent"]) == ["1", "2", "3", "4"]
    double = dunstan["combinations"][0]
    assert double["name"] == "Double Shot"
    assert _fraction(double["by_hp_spent"]["3"]) == \
        BruteCombination(SHOT_DIE, ("black", "white")).start(3)
    repair = dunstan["combinations"][1]
    per_hp = {int(n): _fraction(c) / int(n) for n, c in repair["by_hp_spent"].items()}
    assert repair["best_hp"] == max(per_hp, key=lambda n: (per_hp[n], -n)) == 3
    wade = found["enemies"][0]
    assert {k: _fraction(v) for k, v in wade["targeted"].items()} == \
        {"Finnian": Fraction(1, 2), "Dunstan": Fraction(1, 2)}
    assert {k: _fraction(v) for k, v in wade["attack_damage"].items()} == \
        {"0": Fraction(3, 20), "3": Fraction(11, 20), "4": Fraction(4, 20), "5": Fraction(2, 20)}
    spire.ok("roll", "sickle", "blank", "hive")
    spire.ok("lock", "3")
    before = spire.journal_rows()
    now = spire.json("odds")["allies"][0]["combinations"][0]["now"]
    assert _fraction(now) == BruteCombination(HIVE_DIE, ("sickle",)).finesse(
        ("sickle", "blank", "hive"), frozenset({2}), True)
    assert "sickles (sickle: damage 1)" in spire.ok("odds")
    assert spire.journal_rows() == before


# -- Spire's End ----------------------------------------------------------------------------

def _brute_bar(ranges: list[tuple[int, int, int]], twice: bool, hp: int, ap: int,
               ) -> tuple[dict[int, Fraction], Fraction]:
    """Every d8 (two for a (!) bar), each read on the bar's ranges (low, high, damage), the
    damage through armor, then HP, hit by hit, none past 0 HP: the HP lost and the chance
    the target falls."""
    lost: dict[int, Fraction] = {}
    falls = Fraction(0)
    rolls = list(product(range(1, 9), repeat=2 if twice else 1))
    for rolled in rolls:
        left_hp, left_ap = hp, ap
        for roll in rolled:
            damage = next((d for low, high, d in ranges if low <= roll <= high), 0)
            armor = min(left_ap, damage)
            left_ap, left_hp = left_ap - armor, max(left_hp - (damage - armor), 0)
        share = Fraction(1, len(rolls))
        lost[hp - left_hp] = lost.get(hp - left_hp, Fraction(0)) + share
        falls += share if left_hp <= 0 else 0
    return dict(sorted(lost.items())), falls


def _tower(spire: Spire) -> None:
    """The fight of docs/spires-end.md: Millicent (Back Hand) and Oswin against the Ogre,
    with a (!) bar of our own for Oswin."""
    _allies(spire)
    spire.ok("fight", "Ogre", "--hp", "4", "--ap", "2", "--bar", "Club; 3-5: 2; 6-8: 4",
             "--bar", "Gash; 5-8: 1, A", "--status", "A: bleed x3", "--recoup", "heal 7-8: 1")


def _allies(spire: Spire) -> None:
    spire.ok("new", "tower", "--game", "spires-end", "--players", "2")
    spire.ok("draw", "Millicent", "--hp", "5", "--ap", "2", "--bar", "Back Hand", "--recoup",
             "Recoup Bar Example", "--death", "Death Bar Example")
    spire.ok("draw", "Oswin", "--hp", "4", "--ap", "1", "--bar", "Jab; cost 1; 5-8: 1",
             "--bar", "Flurry; cost 2; twice; 4-6: 2; 7-8: 3", "--recoup", "heal 6-8: 1")


def _lost(outcome: dict[str, object]) -> tuple[dict[int, Fraction], Fraction]:
    hp_lost = outcome["hp_lost"]
    assert isinstance(hp_lost, dict)
    falls = outcome["falls"]
    assert isinstance(falls, dict)
    return {int(k): _fraction(v) for k, v in hp_lost.items()}, _fraction(falls)


def test_spires_end_bars_agree_with_every_roll_of_the_d8(spire: Spire) -> None:
    """The rulebook's Back Hand ("4-6 -> 1, 7 -> 2, 8 -> 3") against the Ogre's 2 AP, and
    a (!) bar rolling two d8, each hit through the armor left."""
    _tower(spire)
    found = spire.json("odds")
    back_hand = found["ally"]["bars"][0]
    assert back_hand["name"] == "Back Hand"
    assert _lost(back_hand) == _brute_bar([(4, 6, 1), (7, 7, 2), (8, 8, 3)], False, 4, 2)
    spire.ok("rest")
    spire.ok("upkeep")  # Oswin's turn
    found = spire.json("odds")
    assert found["turn"] == "Oswin"
    jab, flurry = found["ally"]["bars"]
    assert _lost(jab) == _brute_bar([(5, 8, 1)], False, 4, 2)
    assert _lost(flurry) == _brute_bar([(4, 6, 2), (7, 8, 3)], True, 4, 2)
    assert _fraction(flurry["falls"]) > 0


def test_spires_end_enemy_turn_selection_and_damage(spire: Spire) -> None:
    _tower(spire)
    turn = spire.json("odds")["enemy_turn"]
    assert {k: _fraction(v) for k, v in turn["selected"].items()} == \
        {"Millicent": Fraction(1, 2), "Oswin": Fraction(1, 2)}
    club = turn["bars"][0]["against"]
    assert _lost(club["Millicent"]) == _brute_bar([(3, 5, 2), (6, 8, 4)], False, 5, 2)
    assert _lost(club["Oswin"]) == _brute_bar([(3, 5, 2), (6, 8, 4)], False, 4, 1)
    out = spire.ok("odds")
    assert "  1 Back Hand (cost 1): 0: 87.5%, 1: 12.5%; falls 0.0%" in out
    assert "Ogre's turn: selection roll Millicent 50.0%, Oswin 50.0%" in out


STUN = "Stun: No action next turn (can still perform recoup or rest)"
"""The Status Effects Glossary's Stun: a stunned fighter's turn has no action to weigh."""


def _stomped(spire: Spire) -> None:
    """The tower's fight with an Ogre whose Stomp stuns: both allies rest, and its Stomp
    (a roll of 8 on Millicent) takes 1 AP and stuns her for her next turn, round 2's."""
    _allies(spire)
    spire.ok("fight", "Ogre", "--hp", "4", "--ap", "2", "--bar", "Club; 3-5: 2; 6-8: 4",
             "--bar", "Stomp; 5-8: 1, A", "--status", "A: stun", "--recoup", "heal 7-8: 1")
    for step in ("rest", "upkeep", "rest", "upkeep"):
        spire.ok(step)
    spire.ok("enemy", "2", "8", "--select", "1")
    spire.ok("upkeep")


def test_a_stunned_ally_has_no_action_to_weigh(spire: Spire) -> None:
    """Every roll of every bar a stunned Millicent might choose is refused (the brute
    force: no roll of hers reaches the enemy), so the odds weigh no bar of hers and say
    why; the enemy's turn is weighed as ever, against every roll of its d8."""
    quoted("spires-end", STUN)
    _stomped(spire)
    found = spire.json("odds")
    assert found["turn"] == "Millicent"
    assert found["ally"]["stunned"] is True and found["ally"]["bars"] == []
    for roll in range(1, 9):
        assert "Millicent is stunned" in spire.refused("action", "Back Hand", str(roll), code=1)
    club = found["enemy_turn"]["bars"][0]["against"]
    assert _lost(club["Millicent"]) == _brute_bar([(3, 5, 2), (6, 8, 4)], False, 5, 1)
    out = spire.ok("odds")
    assert "Millicent is stunned: rest, recoup or upkeep next" in out
    assert "Back Hand" not in out and "Millicent's bars" not in out
    spire.ok("rest")
    assert "Stun on Millicent: over" in spire.ok("upkeep")
    found = spire.json("odds")  # Oswin's turn: his bars, every roll of the d8
    assert found["ally"]["stunned"] is False
    assert _lost(found["ally"]["bars"][0]) == _brute_bar([(5, 8, 1)], False, 4, 2)


def test_a_stunned_enemy_has_no_turn_to_weigh(spire: Spire) -> None:
    """A stunned enemy has no selection roll and no bar to weigh ("At the same time as the
    attack roll there must also be a Selection Roll"); the ally's bars are weighed as
    ever, and at the enemy's turn each action card is refused."""
    quoted("spires-end", STUN, "At the same time as the attack roll there must also be a "
           "Selection Roll (1D8) to determine WHO they attack.")
    _tower(spire)
    spire.ok("effect", "stun", "--on", "Ogre")
    found = spire.json("odds")
    turn = found["enemy_turn"]
    assert (turn["stunned"], turn["steps"], turn["selected"], turn["bars"]) == \
        (True, ["recoup", "upkeep"], {}, [])
    back_hand = found["ally"]["bars"][0]
    assert _lost(back_hand) == _brute_bar([(4, 6, 1), (7, 7, 2), (8, 8, 3)], False, 4, 2)
    out = spire.ok("odds")
    assert "Ogre is stunned: recoup or upkeep on its turn" in out
    assert "selection roll" not in out and "Club" not in out
    for step in ("rest", "upkeep", "rest", "upkeep"):
        spire.ok(step)
    assert spire.json("odds")["enemy_turn"]["stunned"] is True
    for card in ("1", "2"):
        assert "Ogre is stunned" in spire.refused("enemy", card, "5", "--select", "3", code=1)


def _simulated(rng: random.Random, aim: odds.Aim, accuracy: int, sets: int) -> bool:
    """One target shot with dice from `rng`, finessed as `odds.best` advises."""
    def roll(n: int) -> odds.Counts:
        return odds.counts([rng.choice(SIDES) for _ in range(n)])

    made = 0
    for done in range(sets):
        locked, free = odds.NONE, roll(accuracy)
        while sum(free) > 1:
            at = odds.Position(aim, made, False, accuracy, sets - done - 1, accuracy,
                               going=odds.Going(locked, free))
            choice = odds.best(at)
            assert choice is not None
            if choice.stop:
                break
            locked = tuple(a + b for a, b in zip(locked, choice.lock, strict=True))  # type: ignore[assignment]
            free = roll(sum(free) - sum(choice.lock))
        made += odds.bullseyes(tuple(a + b for a, b in zip(locked, free, strict=True)),  # type: ignore[arg-type]
                               aim.parts)
    return made >= aim.limit


@pytest.mark.parametrize("limit", [5, 6])
def test_a_large_target_agrees_with_a_seeded_simulation(limit: int) -> None:
    """3 sets of 4 dice, too many rolls to brute-force in a test: played 4,000 times with
    seeded dice and the advised locks, the share of hits is within four standard errors of
    the exact chance (and the advice is as good as the exact chance says)."""
    aim = _aim(limit, "crd", None, None)
    exact = float(odds.chances(odds.Position(aim, 0, False, 4, 3, 4))[0])
    rng = random.Random(20)
    runs = 4000
    hits = sum(_simulated(rng, aim, 4, 3) for _ in range(runs))
    error = (exact * (1 - exact) / runs) ** 0.5
    assert abs(hits / runs - exact) < 4 * error, (hits / runs, exact)


def test_a_targets_chance_at_its_start_is_the_odds_before_its_first_roll(spire: Spire) -> None:
    """For the report: the chance a target card had at its start, effects aside."""
    from journal.games.hildegard.cards import TargetCard
    from journal.games.hildegard.catalog import rulebook_cards

    card = rulebook_cards()["Street Merchant"]
    assert isinstance(card, TargetCard)
    brute = _street_merchant(spire)
    spire.ok("roll", "c", "b", "r")
    assert odds.chances(odds.at_start(card))[0] == brute.target(2, 0, False)[0]


# -- Hildegard: a face-off round --------------------------------------------------------------

def test_a_face_off_round_agrees_with_brute_force(spire: Spire) -> None:
    """Against the Crows (limit 7, every part: theirs are not printed) a round of 4 dice
    cannot defeat them; the chance of each number of bullseyes, and the advice for the most
    the dice can still make, agree with the brute force."""
    spire.ok("new", "oaks", "--game", "hildegard")
    spire.ok("faceoff", "The Crows")
    found = spire.json("odds")
    assert found["kind"] == "face-off" and _fraction(found["defeat"]) == 0
    assert found["next_set"] == {"dice": 4, "graze": False}
    for n in (1, 2):
        assert _fraction(found["at_least"][str(n)]) == Brute(n, "crd", 4).target(1, 0, False)[0]
    spire.ok("roll", "c", "r", "b", "d")
    found = spire.json("odds")
    dice = _dice("c r b d")
    brute = Brute(2, "crd", 4)
    then = brute.after(0)
    assert found["this_round"] == 1  # ring + dot: 2 is 1 still to come
    assert _fraction(found["at_least"]["1"]) == brute.finesse(dice, frozenset(), False, 0,
                                                             False, then)[0]
    advice = found["advice"]
    assert advice["for"] == 2
    best = brute.finesse(dice, frozenset(), False, 0, False, then)[0]
    first = advice["choices"][0]
    assert brute.reroll(dice, frozenset(p - 1 for p in first["lock"]), 0, False, then)[0] == best
    assert "to make 2+ bullseyes" in spire.ok("odds", "--advise")


THATS_2 = ("The results are: Crescent, Crescent. You have another Bullseye. That's 2. You "
           "roll your Wild Shot.")
"""Hildegard's Face-Off Scenario counts the set's bullseyes as its dice stand, before the
wild shot ends the set."""


def _this_round(status: str) -> str:
    return next(line.strip() for line in status.splitlines() if "this round:" in line)


def test_a_face_off_rounds_bullseyes_are_the_statuss_as_the_dice_stand(spire: Spire) -> None:
    """The rulebook's Face-Off Scenario, played through: `spire odds` said "0 more this
    round" where `spire status` (and the rulebook) said 1, then 2; the bullseyes still to
    come are those beyond the ones the dice show, by brute force; in round 2 the Crows have
    3, and the round's 2 are said alike."""
    quoted("hildegard", "You roll your 4 Shot Dice. The results are: Crescent, Crescent, "
           "Blank, Blank. Nice! You're able to make 1 Bullseye with Crescent + Crescent.",
           THATS_2)
    spire.ok("new", "oaks", "--game", "hildegard")
    spire.ok("faceoff", "The Crows")
    assert _this_round(spire.ok("roll", "c", "c", "b", "b")) == \
        "this round: 1 bullseye on The Crows"
    found = spire.json("odds")
    assert found["this_round"] == 1
    brute, dice = Brute(2, "crd", 4), _dice("c c b b")
    assert _fraction(found["at_least"]["1"]) == \
        brute.finesse(dice, frozenset(), False, 0, False, brute.after(0))[0]
    assert set(found["at_least"]) == {"1", "2", "3", "4", "5", "6"}  # 7 to make, 1 made
    assert "The Crows: 0 of 7 bullseyes, 1 more this round, round 1" in spire.ok("odds")
    spire.ok("lock", "1", "2")
    assert _this_round(spire.ok("roll", "c", "c")) == "this round: 2 bullseyes on The Crows"
    found = spire.json("odds")
    assert found["this_round"] == 2 and found["advice"]["for"] == 2
    assert all(_fraction(p) == 0 for p in found["at_least"].values())  # 4 dice: 2 at most
    out = spire.ok("odds", "--advise")
    assert "The Crows: 0 of 7 bullseyes, 2 more this round, round 1" in out
    assert "still to come" not in out and "to make 2+ bullseyes" in out
    spire.ok("wild", "bullseye")
    for step in (("roll", "r", "c", "b"), ("lock", "1"), ("roll", "b")):  # the Crows' set
        spire.ok(*step)
    assert _this_round(spire.ok("roll", "c", "c", "c", "c")) == \
        "this round: 2 bullseyes on The Crows"
    found = spire.json("odds")
    assert (found["round"], found["bullseyes"], found["this_round"]) == (2, 3, 2)
    assert "The Crows: 3 of 7 bullseyes, 2 more this round, round 2" in spire.ok("odds")


def test_two_players_sets_count_alike_in_odds_and_status(spire: Spire) -> None:
    """Hildegard's set is over with 2 bullseyes, Hallveig's under way shows 1: the round
    has 3, in the status and in the odds; the advice plays for the round's bullseyes (4+),
    and the one still to come agrees with the brute force of Hallveig's dice."""
    quoted("hildegard", "Player 1 and Player 2's Sets cannot be combined to create "
           "Bullseyes.")
    spire.ok("new", "sisters", "--game", "hildegard", "--players", "2")
    spire.ok("faceoff", "The Crows")
    for step in (("roll", "c", "c", "r", "d"), ("stop",), ("wild", "miss")):
        spire.ok(*step)
    status = spire.ok("roll", "c", "c", "b", "b", "--player", "2")
    assert _this_round(status) == "this round: 3 bullseyes on The Crows"
    found = spire.json("odds")
    assert (found["this_round"], found["advice"]["for"]) == (3, 4)
    brute = Brute(2, "crd", 4)
    assert _fraction(found["at_least"]["1"]) == \
        brute.finesse(_dice("c c b b"), frozenset(), False, 0, False, brute.after(0))[0]
    out = spire.ok("odds", "--advise")
    assert "The Crows: 0 of 7 bullseyes, 3 more this round, round 1" in out
    assert "to make 4+ bullseyes" in out


def test_face_off_odds_on_the_enemys_turn(spire: Spire) -> None:
    """Before the enemy's first roll: what its set does to the meter; once it has rolled,
    refused in one line."""
    spire.ok("new", "oaks", "--game", "hildegard")
    spire.ok("faceoff", "The Crows")
    spire.ok("roll", "c", "c", "r", "d")
    spire.ok("stop")
    spire.ok("wild", "miss")
    found = spire.json("odds")
    assert found["kind"] == "enemy-set" and found["enemy_set"]["enemy"] == "The Crows"
    assert "The Crows' next set (3 dice) leaves each square hit: 1:" in spire.ok("odds")
    spire.ok("roll", "b", "b", "b")
    assert "the enemy's set is under way" in spire.refused("odds", code=1)


class BruteFeats(Brute):
    """The brute force with feats to spend, each as the rulebook prices it: Hone (1, a die
    more on a set, once a set), Bullseye (2, a bullseye on a set, once a set), Reset (2, a
    set more on the target), tried at every set."""

    @cache  # noqa: B019
    def shoot(self, sets: int, made: int, feats: int) -> Fraction:
        if sets == 0:
            won = Fraction(int(made >= self.limit))
            return max(won, self.shoot(1, made, feats - 2)) if feats >= 2 else won
        best = Fraction(0)
        for honed in (0, 1) if feats >= 1 else (0,):
            size = self.accuracy + honed
            best = max(best, sum((self.finished(sides, sets, made, feats - honed)
                                  for sides in product(range(6), repeat=size)),
                                 Fraction(0)) / 6 ** size)
        return best

    def finished(self, sides: tuple[int, ...], sets: int, made: int, feats: int) -> Fraction:
        def then(final: tuple[Face | None, ...], made_: int, _met: bool) -> Pair:
            got = made_ + self.made(final)
            options = [self.shoot(sets - 1, got, feats)]
            if feats >= 2:
                options.append(self.shoot(sets - 1, got + 1, feats - 2))
            return max(options), Fraction(0)
        dice = tuple(SIDES[s] for s in sides)
        if len(dice) <= 1:
            return then(dice, made, False)[0]
        return self.finesse(dice, frozenset(), False, made, False, then)[0]


@pytest.mark.parametrize(("limit", "accuracy", "sets", "feats"), [
    (1, 2, 1, 1), (2, 2, 1, 2), (2, 2, 2, 3), (3, 2, 1, 4)])  # 3 dice honed: minutes
def test_feats_spent_at_best_agree_with_brute_force(limit: int, accuracy: int, sets: int,
                                                    feats: int) -> None:
    aim = _aim(limit, "crd", None, None)
    at = odds.Position(aim, 0, False, accuracy, sets, accuracy, feats=feats)
    brute = BruteFeats(limit, "crd", accuracy)
    assert odds.chances(at)[0] == brute.shoot(sets, 0, feats)
    assert odds.chances(dataclasses.replace(at, feats=0))[0] == brute.shoot(sets, 0, 0)


def test_odds_say_the_chance_spending_the_feats_held(spire: Spire) -> None:
    spire.ok("new", "oaks", "--game", "hildegard")
    spire.ok("gain", "feats", "1")
    spire.ok("target", "Jackalope", "--limit", "2", "--accuracy", "2", "--sets", "1",
             "--parts", "c,r,d")
    found = spire.json("odds")
    assert found["spending"]["feats"] == 1
    assert _fraction(found["spending"]["hit"]) == BruteFeats(2, "crd", 2).shoot(1, 0, 1)
    assert _fraction(found["hit"]) == BruteFeats(2, "crd", 2).shoot(1, 0, 0)
    assert "spending up to 1 feat at best" in spire.ok("odds")


def _fold_enemy_set(
    state: object, sides: tuple[Face, ...] = SIDES,
) -> dict[tuple[str, ...], Fraction]:
    """The enemy's set driven through the rules and the fold: every ordered roll of the six
    sides, the locks the rules demand (each step decided by `rules`, none refused), until
    the enemy's turn passes or the face-off ends; the meter's marks at the end."""
    from datetime import datetime

    from journal.core.events import Recorded
    from journal.core.state import State, evolve
    from journal.games.hildegard import rules
    from journal.games.hildegard.state import FaceOff, hildegard

    def apply(st: State, decision: object) -> State:
        assert not decision.violations, decision.violations  # type: ignore[attr-defined]
        for event in decision.events:  # type: ignore[attr-defined]
            st = evolve(st, Recorded(1, event, datetime.now(UTC)))
        return st

    found: dict[tuple[str, ...], Fraction] = {}

    def walk(st: State, n: int, p: Fraction, first: bool) -> None:
        for rolled in product(sides, repeat=n):
            after = apply(st, rules.roll(st, rolled, None))
            fight = hildegard(after).encounter
            assert isinstance(fight, FaceOff)
            shot = fight.enemy_shot
            share = p / len(sides) ** n
            if fight.outcome is not None or shot is None:  # the set is over
                found[fight.marks] = found.get(fight.marks, Fraction(0)) + share
                continue
            keep = rules.enemy_keeps(fight, shot)
            if keep and not shot.fresh_lock:
                after = apply(after, rules.lock(after, tuple(k + 1 for k in sorted(keep)), None))
            elif not keep and not shot.hit:
                after = apply(after, rules.lock(after, (shot.free[0] + 1,), None))
            fight = hildegard(after).encounter
            assert isinstance(fight, FaceOff) and fight.enemy_shot is not None
            walk(after, len(fight.enemy_shot.free), share, False)

    walk(state, 3, Fraction(1), True)  # type: ignore[arg-type]
    return found


def test_the_enemys_set_agrees_with_the_rules_and_the_fold(spire: Spire) -> None:
    """The Crows' set on Hildegard's meter (squares 1-3: crescent, crescent, ring), after
    the rulebook's round: meter_odds against every roll driven through the rules."""
    from journal.games.hildegard import meter_odds
    from journal.service.reading import Reading

    spire.ok("new", "oaks", "--game", "hildegard")
    spire.ok("faceoff", "The Crows")
    spire.ok("roll", "c", "c", "b", "b")
    spire.ok("lock", "1", "2")
    spire.ok("roll", "c", "c")
    spire.ok("wild", "bullseye")
    state = Reading(str(spire.db)).view().state
    found = spire.json("odds")["enemy_set"]
    expected = _fold_enemy_set(state)
    from journal.games.hildegard.state import FaceOff, hildegard
    fight = hildegard(state).encounter
    assert isinstance(fight, FaceOff)
    exact = meter_odds.enemy_set(fight.meter, fight.marks, 3)
    assert exact == expected
    assert [_fraction(p) for p in found["squares"]] == \
        meter_odds.squares_hit(expected, fight.marks)


# -- targets past what is weighed, or of many sets -----------------------------------------

def test_a_target_of_many_sets_is_weighed_exactly(spire: Spire) -> None:
    """Each set of a one-bullseye target is a fresh chance, so with n sets the chance to
    hit is 1 - (1 - p)^n, p that of one set: exact at 60 sets, where the expectimax once
    ran past Python's recursion limit."""
    spire.ok("new", "oaks", "--game", "hildegard")
    spire.ok("target", "One", "--limit", "1", "--accuracy", "3", "--sets", "1", "--parts", "c")
    one = _fraction(spire.json("odds")["hit"])
    assert 0 < one < 1
    spire.ok("end")
    spire.ok("target", "Sixty", "--limit", "1", "--accuracy", "3", "--sets", "60",
             "--parts", "c")
    found = spire.json("odds")
    assert found["sets_left"] == 60
    assert _fraction(found["hit"]) == 1 - (1 - one) ** 60


@pytest.mark.parametrize("accuracy, sets, said", [
    ("11", "2", "the odds weigh sets of at most 10 dice, not 11"),
    ("2", "101", "the odds weigh at most 100 sets left, not 101"),
    ("10", "100", "100 sets of 10 dice would take too long to weigh"),
])
def test_a_target_past_what_the_odds_weigh_is_refused_in_one_line(
        spire: Spire, accuracy: str, sets: str, said: str) -> None:
    spire.ok("new", "oaks", "--game", "hildegard")
    spire.ok("target", "Big", "--limit", "2", "--accuracy", accuracy, "--sets", sets,
             "--parts", "c,r,d")
    assert spire.refused("odds", code=1) == f"spire: Big: {said}"
    assert spire.refused("odds", "--advise", code=1) == f"spire: Big: {said}"


def test_spire_rolls_no_more_dice_than_a_table_could(spire: Spire) -> None:
    """A card entered with an accuracy of a billion (a slip) is refused at the roll, in one
    line, where spire once tried to roll every die; the table ends it and aims again."""
    spire.ok("new", "oaks", "--game", "hildegard")
    spire.ok("target", "Slip", "--limit", "1", "--accuracy", "1000000000", "--sets", "1",
             "--parts", "c")
    assert spire.refused("roll", code=2) == (
        "spire: 1000000000 dice are too many to roll (at most 100): check the accuracy")
    spire.ok("end")
    spire.ok("target", "Slip", "--limit", "1", "--accuracy", "2", "--sets", "1", "--parts", "c")
    assert "rolled" in spire.ok("roll")


def test_an_enemy_set_past_what_the_odds_weigh_is_refused_in_one_line(spire: Spire) -> None:
    spire.ok("new", "oaks", "--game", "hildegard")
    spire.ok("card", "add", "Giant", "--enemy", "--limit", "2", "--accuracy", "6",
             "--parts", "c,r,d")
    spire.ok("faceoff", "Giant", "--enemy-first", "--force")
    assert spire.refused("odds", code=1) == (
        "spire: Giant: the odds weigh an enemy's set of at most 5 dice, not 6")


def test_the_players_odds_stand_beside_an_enemy_too_big_to_weigh(spire: Spire) -> None:
    """On the players' turn the odds weigh their sets; the next enemy's set, past what is
    weighed, is left out (`enemy_set` null) rather than refusing the players' own."""
    spire.ok("new", "oaks", "--game", "hildegard")
    spire.ok("card", "add", "Giant", "--enemy", "--limit", "2", "--accuracy", "6",
             "--parts", "c,r,d")
    spire.ok("faceoff", "Giant")
    found = spire.json("odds")
    assert found["kind"] == "face-off" and found["enemy"] == "Giant"
    assert 0 < _fraction(found["defeat"]) < 1
    assert found["enemy_set"] is None
    assert "next set (" not in spire.ok("odds")  # the enemy's line, left out
