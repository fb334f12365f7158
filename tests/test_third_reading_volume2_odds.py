"""Issue 31, Volume 2, D6 (shared/reviews/rules-volume2.md): `spire odds` after a tied target
roll, and Volume 2's finesse advice.

Each case plays through the real CLI and quotes the rulebook sentence it follows; every
chance is compared with a brute force computed here, over ordered dice and every d20.
"""

from __future__ import annotations

import shlex
from fractions import Fraction
from functools import cache
from itertools import combinations, product
from typing import Any

from conftest import Spire, quoted
from test_odds import BruteCombination

from journal.games.volume2.dice import HIVE_DIE, SHOT_DIE

WADE = "Wade Slocum"
TIE = ("Before each Enemy attack, determine which Ally is being targeted.",
       "If multiple dice tie for highest, roll again only for those tied Allies.",
       "MULTIPLE ATTACKS: If an Enemy makes more than one attack in the same turn, roll "
       "separately for each attack.")
FINESSE = ("To Finesse, you must lock in at least 1 or more results. Then, re-roll the "
           "remaining dice. Repeat this process—locking at least 1 result each time—until "
           "you're out of dice to Finesse.")


def play(spire: Spire, *commands: str) -> str:
    out = ""
    for command in commands:
        out = spire.ok(*shlex.split(command))
    return out


def fraction(chance: dict[str, Any]) -> Fraction:
    return Fraction(chance["fraction"])


@cache
def brute_target(allies: int) -> tuple[Fraction, ...]:
    """Each of `allies` d20s rolled, every roll enumerated: the unique highest is hit; a tie
    for highest rolls again among the tied. A tie of all is the same roll again, so its
    chance is spread over the rest (the geometric series summed)."""
    if allies == 1:
        return (Fraction(1),)
    hit = [Fraction(0)] * allies
    again = Fraction(0)
    for rolled in product(range(1, 21), repeat=allies):
        tied = [i for i, r in enumerate(rolled) if r == max(rolled)]
        if len(tied) == allies:
            again += Fraction(1, 20 ** allies)
            continue
        for i, p in zip(tied, brute_target(len(tied)), strict=True):
            hit[i] += p / 20 ** allies
    return tuple(h / (1 - again) for h in hit)


def _tied(spire: Spire) -> None:
    """Finnian, Dunstan and Imrie against Duster A (2 attacks) and Wade; the allies' turns
    pass, and Duster A's first target roll ties Finnian and Dunstan."""
    play(spire, "new t --game volume2", "card add Finnian --ally --recoup 1",
         'card add Dunstan --ally --hp 6 --ap 2 --combo "Double Shot: black white: 2 damage" '
         '--combo "Repair: ping: repair 1"',
         f'card add "{WADE}" --enemy --hp 8 --ap 2 --ferocity 1 --attacks 1 --retreat 2 --meat',
         'card add Imrie --ally --hp 4 --ap 1 --recoup 2 --dice shot '
         '--combo "Bullseye: half circle: 3 damage"',
         'card add "Duster A" --enemy --hp 3 --ap 0 --ferocity 0 --attacks 2 --retreat never '
         '--table "1-10: 1; 11-20: 2" --pelt',
         "draw Dunstan", "draw Imrie",
         f'fight "Duster A" "{WADE}" --with Dunstan --with Imrie', "upkeep", "upkeep", "upkeep",
         "target-roll 9 9 3")


def test_d6_a_tie_narrows_only_the_attack_it_was_rolled_for(spire: Spire) -> None:
    quoted("volume2-episode1", *TIE)
    _tied(spire)
    before = spire.journal_rows()
    duster, wade = spire.json("odds")["enemies"]
    tied, everyone = brute_target(2), brute_target(3)
    assert {k: fraction(v) for k, v in duster["targeted"].items()} == \
        dict(zip(["Finnian", "Dunstan"], tied, strict=True))
    assert {k: fraction(v) for k, v in wade["targeted"].items()} == \
        dict(zip(["Finnian", "Dunstan", "Imrie"], everyone, strict=True))
    assert "targeted    Finnian 33.3%, Dunstan 33.3%, Imrie 33.3%" in spire.ok("odds")
    assert spire.journal_rows() == before


def test_d6_once_the_tie_is_settled_the_next_attack_rolls_among_all(spire: Spire) -> None:
    quoted("volume2-episode1", *TIE)
    _tied(spire)
    play(spire, "target-roll 12 4", "enemy 5")  # Finnian is hit; Duster A's second attack
    duster = spire.json("odds")["enemies"][0]
    assert duster["attacks"] == 1
    assert {k: fraction(v) for k, v in duster["targeted"].items()} == \
        dict(zip(["Finnian", "Dunstan", "Imrie"], brute_target(3), strict=True))


# -- the finesse advice ---------------------------------------------------------------------

def brute_choices(sides: tuple[str, ...], combination: tuple[str, ...], dice: tuple[str, ...],
                  locked: frozenset[int], fresh: bool) -> dict[tuple[int, ...] | None, Fraction]:
    """Every choice open on ordered dice, by the positions it locks (1-based; None: stop),
    with the chance the combination then stands, played best after it."""
    brute = BruteCombination(sides, combination)
    free = [i for i in range(len(dice)) if i not in locked]
    found: dict[tuple[int, ...] | None, Fraction] = {None: Fraction(int(brute.holds(dice)))}
    for k in range(0 if fresh else 1, len(free)):
        for more in combinations(free, k):
            found[tuple(i + 1 for i in more)] = brute.reroll(dice, locked | set(more))
    return found


def _plains(spire: Spire) -> None:
    play(spire, "new plains --game volume2", "card add Finnian --ally --recoup 1",
         'card add Dunstan --ally --hp 6 --ap 2 --combo "Double Shot: black white: 2 damage" '
         '--combo "Repair: ping: repair 1"',
         f'card add "{WADE}" --enemy --hp 8 --ap 2 --ferocity 1 --attacks 1 --retreat 2 --meat',
         "draw Dunstan", f'fight "{WADE}" --with Dunstan')


def _check_advice(row: dict[str, Any], sides: tuple[str, ...], dice: tuple[str, ...],
                  locked: frozenset[int], fresh: bool) -> None:
    brute = brute_choices(sides, tuple(row["faces"]), dice, locked, fresh)
    best = max(brute.values())
    advice = row["advice"]
    first = advice[0]
    assert fraction(first["chance"]) == best, row["name"]
    assert brute[None if first["stop"] else tuple(first["lock"])] == best, row["name"]
    assert fraction(row["now"]) == best
    for choice in advice:  # each choice named is the chance brute force finds for it
        assert fraction(choice["chance"]) == \
            brute[None if choice["stop"] else tuple(choice["lock"])], (row["name"], choice)


def test_d6_finnian_s_odds_name_two_sickles_a_bee_and_a_pollen(spire: Spire) -> None:
    quoted("volume2-episode1", "The Hive Dice have five faces: Sickle x 2, Bee, Pollen, Hive, "
           "and Blank.", "1 DMG per Sickle (Max 2): Finnian wields two sickles; only two may "
           "count per attack.", "GAIN 1 BEE: Per locked roll.", "GAIN 1 POLLEN: Per locked roll.")
    _plains(spire)
    finnian = spire.json("odds")["allies"][0]
    rows = {tuple(r["faces"]): r for r in finnian["combinations"]}
    assert {("sickle",), ("sickle", "sickle"), ("bee",), ("pollen",)} <= set(rows)
    for faces, row in rows.items():
        brute = BruteCombination(HIVE_DIE, faces)
        for n, chance in row["by_hp_spent"].items():
            assert fraction(chance) == brute.start(int(n)), (faces, n)
    out = spire.ok("odds")
    assert "2 sickles (sickle+sickle: damage 2)" in out
    assert "a bee (bee: gain 1 bee)" in out and "a pollen (pollen: gain 1 pollen)" in out


def test_d6_advise_names_the_best_lock_for_each_of_finnian_s_goals(spire: Spire) -> None:
    quoted("volume2-episode1", FINESSE)
    _plains(spire)
    spire.ok("roll", "sickle", "blank", "bee", "pollen")
    before = spire.journal_rows()
    dice = ("sickle", "blank", "bee", "pollen")
    for row in spire.json("odds", "--advise")["allies"][0]["combinations"]:
        _check_advice(row, HIVE_DIE, dice, frozenset(), False)
    out = spire.ok("odds", "--advise")
    assert out != spire.ok("odds")
    assert "advice" in out and "2 sickles: lock 1, re-roll 3 dice" in out
    assert spire.journal_rows() == before


def test_d6_advise_after_a_lock_weighs_a_re_roll_of_the_rest(spire: Spire) -> None:
    """After a lock, the free dice may be re-rolled with no more locked."""
    quoted("volume2-episode1", FINESSE)
    _plains(spire)
    play(spire, "roll sickle blank hive", "stop", "upkeep", "roll black ping blank", "lock 1")
    dice = ("black", "ping", "blank")
    rows = spire.json("odds", "--advise")["allies"][1]["combinations"]
    assert [r["name"] for r in rows] == ["Double Shot", "Repair"]
    for row in rows:
        _check_advice(row, SHOT_DIE, dice, frozenset({0}), True)
    assert any(c["lock"] == [] and not c["stop"] for c in rows[0]["advice"])
    out = spire.ok("odds", "--advise")
    assert "Double Shot: re-roll 2 dice" in out


def test_d6_advise_with_the_dice_standing_says_so(spire: Spire) -> None:
    _plains(spire)
    play(spire, "roll sickle blank hive", "stop")
    assert "advice  Finnian's dice stand: nothing left to lock" in spire.ok("odds", "--advise")


def test_d6_advise_before_the_roll_points_to_the_best_hp(spire: Spire) -> None:
    _plains(spire)
    out = spire.ok("odds", "--advise")
    assert "advice  no dice rolled yet: `best` is the HP" in out
    assert "advice" not in spire.ok("odds")
