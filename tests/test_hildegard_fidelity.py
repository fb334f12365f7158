"""Issue 31, Hildegard: where spire's score still differed from the rulebook (the third
reading, shared/reviews/rules-hildegard-se.md N1, N2, N5, N6, N8, and several enemies'
bullseyes past a limit).

Each test quotes the rulebook sentence it follows (rulebooks/hildegard.txt) and plays its
case through the real CLI against a journal file. A refusal exits 1 in one line with the
journal unmoved; `--force` records it as an override, and the audit lists it.
"""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from typing import Any

import pytest
from conftest import Spire, play, quoted, refused


def book_says(*sentences: str) -> None:
    quoted("hildegard", *sentences)


def encounter(spire: Spire) -> Any:
    return spire.json("status")["encounter"]


def enemies(spire: Spire) -> dict[str, int]:
    return {e["name"]: e["bullseyes"] for e in encounter(spire)["enemies"]}


def gold(spire: Spire) -> int:
    return int(spire.json("status")["resources"]["gold"])


def overridden(spire: Spire) -> list[str]:
    """What the audit lists of each step recorded with --force: the rules it broke, as
    today's rules decide it again."""
    run = spire("audit", "--json")
    return [rule for o in json.loads(run.out)["overrides"] for rule in o["rules_now"]]


def unlawful(spire: Spire) -> list[dict[str, Any]]:
    """The audit's legality findings: steps today's rules refuse, recorded without --force
    (as an old journal holds them)."""
    run = spire("audit", "--json")
    assert run.code == 1
    return [f for f in json.loads(run.out)["findings"] if f["kind"] == "legality"]


# -- N1: two enemies of one name ----------------------------------------------------------

SPLIT = ("Important: If there are multiple enemies, you DO NOT get a Set against each of "
         "them, although your rolls can be split up however you like.")
CARDS = ("When this occurs Hildegard's Hit Meter Card will be revealed, along with an Enemy "
         "Card (or cards).")
WOLF = 'card add Wolf --enemy --limit 2 --accuracy 2 --parts c,r,d --reward "1 gold"'


def test_n1_two_enemies_of_one_name_are_told_apart(hildegard: Spire) -> None:
    book_says(SPLIT, CARDS)
    out = play(hildegard, WOLF, "faceoff Wolf Wolf")
    assert "Face-off against Wolf 1 (2 bullseyes), Wolf 2 (2 bullseyes)" in out
    assert list(enemies(hildegard)) == ["Wolf 1", "Wolf 2"]
    out = play(hildegard, "roll c c r d", 'assign "Wolf 2" 1')
    assert "this round: 1 bullseye on Wolf 1, 1 bullseye on Wolf 2" in out
    play(hildegard, "stop", "wild miss")
    assert encounter(hildegard)["outcome"] is None      # 2 bullseyes defeat neither alone
    play(hildegard, "roll b b")
    assert enemies(hildegard) == {"Wolf 1": 1, "Wolf 2": 1}
    assert gold(hildegard) == 0


def test_n1_each_of_two_pups_is_defeated_by_a_bullseye_of_its_own(hildegard: Spire) -> None:
    book_says(SPLIT)
    play(hildegard, WOLF.replace("Wolf", "Pup").replace("--limit 2", "--limit 1"),
         "faceoff Pup Pup", "roll c c b b", "stop", "wild miss")
    assert (encounter(hildegard)["outcome"], gold(hildegard)) == (None, 0)   # one bullseye
    play(hildegard, "undo", "undo", "lock 1 2", "roll c c", 'assign "Pup 2" 1')
    out = play(hildegard, "wild miss")
    assert "Pup 1 1/1, Pup 2 1/1" in out and "face-off won" in out
    assert gold(hildegard) == 2                       # each card's reward, once


# -- N2: an enemy defeated this round does not attack --------------------------------------

ENDS = ("A Face-Off ends when you defeat the enemy by reaching its Bullseye limit (like a "
        "Target Card) or when the enemy defeats you by filling in Hildegard's Hit Meter.")
ONCE_SET = "Once Hildegard's Set is complete, you roll for the enemy."
CROWS = ('card add "Crow A" --enemy --limit 1 --accuracy 2 --parts c',
         'card add "Crow B" --enemy --limit 5 --accuracy 3 --parts r,d',
         'faceoff "Crow A" "Crow B"')


def test_n2_an_enemy_defeated_this_round_does_not_roll(hildegard: Spire) -> None:
    book_says(ENDS, ONCE_SET)
    out = play(hildegard, *CROWS, "roll c c b b", "stop", "wild miss")
    assert "the players' sets are over; Crow B's roll next" in out
    assert hildegard.json("odds")["enemy_set"]["enemy"] == "Crow B"
    out = play(hildegard, "roll c c b")                  # Crow B's three dice, not Crow A's two
    assert "Crow B rolled crescent, crescent, blank" in out
    assert "Crow A 1/1, Crow B 0/5 | meter XX....." in out
    assert encounter(hildegard)["enemy_set"]["roller"] == "Crow B"


def test_n2_whose_turn_names_the_enemy_standing(hildegard: Spire) -> None:
    book_says(ENDS)
    play(hildegard, *CROWS, "roll c c b b", "stop", "wild miss")
    assert "Crow B" in play(hildegard, "status").splitlines()[-1]
    assert "Crow A" not in play(hildegard, "status").splitlines()[-1]


def test_n2_the_audit_lists_a_defeated_enemy_s_roll(hildegard: Spire) -> None:
    """An old journal (or a table that typed it) where the defeated Crow A rolled."""
    from test_rulebook_scores import recorded_by_old_rules

    play(hildegard, *CROWS, "roll c c b b", "stop", "wild miss")
    at = recorded_by_old_rules(hildegard, "shot-dice-rolled",
                               {"roller": "Crow A", "faces": ["crescent", "crescent"]})
    found = unlawful(hildegard)
    assert [(f["seq"], f["section"]) for f in found] == [(at, "Face-Offs")]
    assert "Crow A was defeated" in found[0]["message"]


# -- several enemies: bullseyes past one enemy's limit ---------------------------------------

def test_bullseyes_past_one_enemy_s_limit_go_on_to_the_next(hildegard: Spire) -> None:
    book_says(SPLIT)
    play(hildegard, 'card add "Crow A" --enemy --limit 1 --accuracy 2 --parts c',
         'card add "Crow B" --enemy --limit 3 --accuracy 2 --parts c',
         'faceoff "Crow A" "Crow B"')
    out = play(hildegard, "roll c c c c")
    assert "this round: 1 bullseye on Crow A, 1 bullseye on Crow B" in out
    play(hildegard, "stop", "wild miss", "roll b b")
    assert enemies(hildegard) == {"Crow A": 1, "Crow B": 1}


def test_assign_says_while_it_can_be_done_and_after_when_it_is_too_late(
        hildegard: Spire) -> None:
    book_says(SPLIT)
    play(hildegard, 'card add "Crow A" --enemy --limit 3 --accuracy 2 --parts c,r,d',
         'card add "Crow B" --enemy --limit 3 --accuracy 2 --parts c,r,d',
         'faceoff "Crow A" "Crow B"', "roll c c r d", "stop")
    out = play(hildegard, "wild miss")
    assert "`spire assign ENEMY N` splits them otherwise, until the enemy's first roll" in out
    play(hildegard, "roll b b")                                  # Crow A's set: counted
    assert enemies(hildegard) == {"Crow A": 2, "Crow B": 0}
    line = refused(hildegard, 'assign "Crow B" 1')
    assert "were counted at the enemy's first roll" in line and "`spire undo`" in line
    play(hildegard, 'assign "Crow B" 1 --force')                # the table wins: re-split
    assert enemies(hildegard) == {"Crow A": 1, "Crow B": 1}
    assert ["counted at the enemy's first roll" in o and "Face-Off Scenario" in o
            for o in overridden(hildegard)] == [True]


# -- N2: the odds with several enemies ------------------------------------------------------

def _units(final: tuple[Any, ...]) -> list[str]:
    """The bullseyes a set's final results hold, by kind: crescent pairs, ring + dot."""
    c, r, d = (sum(1 for f in final if f == face) for face in ("crescent", "ring", "dot"))
    return ["c"] * (c // 2) + ["r"] * min(r, d)


def _split_defeats(units: list[str], enemies: list[tuple[str, int]]) -> bool:
    """Every way to give each bullseye to one enemy whose parts form it, or to none."""
    for owners in product(range(len(enemies) + 1), repeat=len(units)):
        got = [0] * len(enemies)
        ok = True
        for unit, owner in zip(units, owners, strict=True):
            if owner == len(enemies):
                continue
            if unit not in enemies[owner][0]:
                ok = False
                break
            got[owner] += 1
        if ok and all(n >= need for n, (_, need) in zip(got, enemies, strict=True)):
            return True
    return False


TWO_KINDS = ('card add "Crow A" --enemy --limit 1 --accuracy 2 --parts c',
             'card add "Crow B" --enemy --limit 1 --accuracy 2 --parts r,d',
             'faceoff "Crow A" "Crow B"')


def test_n2_the_defeat_chance_with_two_enemies_agrees_with_brute_force(hildegard: Spire,
                                                                        ) -> None:
    """Crow A falls to two crescents, Crow B to a ring and a dot: the face-off is won this
    round only when one set of 4 dice holds both, split between them."""
    from test_odds import SHORT, Brute

    book_says(SPLIT, ENDS)
    play(hildegard, *TWO_KINDS)
    found = hildegard.json("odds")
    assert found["enemies"] == ["Crow A", "Crow B"]
    brute = Brute(1, "crd", 4)

    def then(final: tuple[Any, ...], made: int, met: bool) -> tuple[Fraction, Fraction]:
        won = _split_defeats(_units(final), [("c", 1), ("r", 1)])
        return Fraction(int(won)), Fraction(0)

    start = sum((brute.finesse(tuple(SHORT[x] for x in sides), frozenset(), False, 0, False,
                               then)[0] for sides in product("cccrdb", repeat=4)),
                Fraction(0)) / 6 ** 4
    assert Fraction(found["defeat"]["fraction"]) == start
    one = Fraction(hildegard.json("odds")["at_least"]["1"]["fraction"])
    assert start < one                                     # Crow A alone is likelier
    play(hildegard, "roll c r b d")
    dice = tuple(SHORT[x] for x in "c r b d".split())
    found = hildegard.json("odds")
    assert Fraction(found["defeat"]["fraction"]) == brute.finesse(
        dice, frozenset(), False, 0, False, then)[0]
    assert "this round (all of Crow A, Crow B)" in play(hildegard, "odds")


ENEMY_KINDS = {"c": ("crescent",), "rd": ("ring", "dot"), "crd": ("crescent", "ring", "dot")}


@pytest.mark.parametrize("crescents, rings, extra", list(product(range(3), range(3), range(2))))
@pytest.mark.parametrize("kinds", [("c", "rd"), ("crd", "c"), ("rd", "crd", "c")])
def test_the_split_defeats_every_enemy_whenever_some_split_does(
        crescents: int, rings: int, extra: int, kinds: tuple[str, ...]) -> None:
    """With nothing assigned, bullseyes go on past one enemy's limit to the next, so the
    split defeats them all whenever any split of the dice would (each needing 1 or 2)."""
    from journal.games.hildegard.split import Pool, defeats_all, split

    book_says(SPLIT)
    units = ["c"] * crescents + ["r"] * rings + ["e"] * extra
    for needs in product((1, 2), repeat=len(kinds)):
        enemies = [(f"E{i}", ENEMY_KINDS[k], n) for i, (k, n) in enumerate(zip(kinds, needs,
                                                                               strict=True))]
        brute = _split_defeats(units, [(k + "e", n) for k, n in zip(kinds, needs, strict=True)])
        have = Pool(crescents, rings, extra)
        assert defeats_all(have, enemies) == brute
        assert sum(split(have, enemies, ()).values()) <= crescents + rings + extra


def test_two_enemies_assigned_the_one_wild_bullseye_share_it() -> None:
    from journal.games.hildegard.split import Pool, formed

    found = formed(Pool(0, 0, 1), [("A", ("crescent",), 3), ("B", ("crescent",), 3)],
                   [("A", 1), ("B", 1)])
    assert sorted(found.values()) == [0, 1]


# -- N6: Hone outside a set ------------------------------------------------------------------

ANYTIME = ("You can review the 6 Status Effects (bars in gray) at your disposal to use anytime "
           "during your Set on a Target or Face-Off.")


def test_n6_hone_outside_a_target_or_face_off_is_refused(hildegard: Spire) -> None:
    book_says(ANYTIME)
    play(hildegard, "gain feats 5")
    line = refused(hildegard, "feat hone")
    assert "Hone is bought during a set on a target or face-off" in line
    assert "Feats of Marksmanship" in line
    play(hildegard, "target Practice --limit 1 --accuracy 2 --sets 1 --parts c", "roll c c",
         "wild miss")                                   # Practice is over: no set to hone
    assert "Hone is bought during a set" in refused(hildegard, "feat hone")
    out = play(hildegard, "feat hone --force")
    assert "next set: Hone +1 die" in out
    assert ["Hone is bought during a set" in o for o in overridden(hildegard)] == [True]
    assert hildegard.json("status")["resources"]["feats"] == 4


# -- N8: a pulled supplemental card ----------------------------------------------------------

SWAP = "They swap out with Cards 67, 75, 117, 156 and 373."


def test_n8_a_pulled_supplemental_card_is_recorded_as_one(spire: Spire) -> None:
    book_says(SWAP, "Pull: Instructs you to draw a card out of sequence")
    play(spire, "new sisters --game hildegard --players 2", "reveal 1")
    out = play(spire, "pull 117")
    assert "Pulled card 117 (the 2 Player Supplemental Card)" in out
    assert spire.json("show", "3")["payload"]["supplemental"] is True
    play(spire, "return")
    assert "Supplemental" not in play(spire, "pull 118")


def test_n8_one_player_pulls_the_card_as_it_is(hildegard: Spire) -> None:
    book_says(SWAP)
    assert "Supplemental" not in play(hildegard, "pull 117")
    assert hildegard.json("show", "2")["payload"].get("supplemental", False) is False


# -- N5: effects reach both players on separate targets ---------------------------------------

BOTH = ("Any Feats spent on Effects that alter a player's rolls affect both players. For "
        "example, if you decide as a team to spend 1 Feat of Marksmanship on Hone, both "
        "players will gain that Effect (in this case, +1 Shot Dice on the next Set).")
NEGATIVE = ("Just like Positive Effects, Negative Effects that alter a player's rolls affect "
            "both players.")


@pytest.mark.parametrize("effect, quote, hallveig, hildegard", [
    ("feat hone --player 1", BOTH, "c c b", "c c b b"),     # 3 + 1, 2 + 1
    ("effect flub", NEGATIVE, "c", "c c"),                  # 3 - 1, 2 - 1
])
def test_n5_an_effect_reaches_both_players_next_sets_on_two_targets(
        spire: Spire, effect: str, quote: str, hallveig: str, hildegard: str) -> None:
    book_says(quote)
    play(spire, "new sisters --game hildegard --players 2", "gain feats 2",
         'target "Street Merchant" --player 1', 'target "Pesky Jackalope" --player 2',
         "roll c c b --player 1", effect)
    play(spire, f"roll {hallveig} --player 2")             # Hallveig's next set has it
    out = play(spire, "stop --player 1", "wild miss --player 1")
    assert "Hildegard's next set:" in out
    play(spire, f"roll {hildegard} --player 1")            # and so has Hildegard's
    assert "next set" not in play(spire, "status")


# -- messages found on the way (issue 31): what a refusal or an ending says --------------

STEPS = ("Roll Shot Dice, and Finesse the Shot Dice (if needed)",
         "Repeat steps 2, 3, and 4 as many times as there are Sets")


def test_a_lock_before_the_next_set_is_rolled_says_to_roll_it(hildegard: Spire) -> None:
    """Between two sets of a target nothing is rolled: `lock` says to roll the next set,
    not that a finesse is over."""
    book_says(*STEPS)
    play(hildegard, "target Practice --limit 3 --accuracy 2 --sets 2 --parts c,r,d",
         "roll c b", "lock 1", "roll d", "wild miss")
    assert encounter(hildegard)["sets_done"] == 1
    line = refused(hildegard, "lock 2")
    assert "Hildegard has no dice rolled to lock" in line and "finesse is over" not in line
    assert "spire roll" in line
    out = play(hildegard, "roll c c", "lock 1")  # the next set's own finesse goes on
    assert "[1:crescent]" in out


FACE_OFF_ENDS = ("A Face-Off ends when you defeat the enemy by reaching its Bullseye limit "
                 "(like a Target Card) or when the enemy defeats you by filling in "
                 "Hildegard's Hit Meter.")


def test_ending_a_face_off_says_it_counts_as_a_loss(hildegard: Spire) -> None:
    """`spire end` abandons a face-off: spire counts it as lost, and says so beside the
    card it points to (the meter's lose card)."""
    book_says(FACE_OFF_ENDS, "depending on whether you Win or Lose")
    play(hildegard, WOLF, "faceoff Wolf")
    out = play(hildegard, "end")
    assert "face-off abandoned: it counts as lost" in out
    assert "Ended the face-off (counted as lost)" in play(hildegard, "log")
    assert encounter(hildegard)["outcome"] == "lost"


OWN_TURN = ("Face-Offs: When a Face-Off begins, both players will have their own turn and Set "
            "to attack the enemy or enemies (with the exception of the Wild Shot, which is "
            "shared).")


def test_after_the_shared_wild_shot_the_other_player_is_told_to_roll(spire: Spire) -> None:
    book_says(OWN_TURN, "During a Face-Off, only one Wild Shot Dice is rolled between 2 players.")
    play(spire, "new sisters --game hildegard --players 2", WOLF, "faceoff Wolf",
         "roll c b d b", "lock 1", "roll b b b")
    out = play(spire, "wild miss")
    assert "Hallveig's roll next" in out
    out = play(spire, "roll c c r b")                 # Hallveig's set: the line has gone
    assert "Hallveig's roll next" not in out


METER = ("C — Hildegard's Hit Meter: The meter fills from left to right as the enemy hits "
         "you. If all the Hit Squares on the meter are filled, Hildegard loses.")


def test_the_meter_s_missing_parts_are_said_in_full_once_then_in_a_line(
        hildegard: Spire) -> None:
    """The shipped meter has parts for squares 1-3 only (the rulebook prints no more): the
    first face-off says how to enter the card; later ones only remind, in a short line."""
    book_says(METER)
    first = play(hildegard, WOLF, "faceoff Wolf")
    assert first.count("spire card add \"Hildegard's Hit Meter\" --meter") == 1
    play(hildegard, "end")
    second = play(hildegard, "faceoff Wolf")
    assert "spire card add" not in second
    assert "(squares 4-7 of Hildegard's Hit Meter: no part entered)" in second
    play(hildegard, "undo", "undo", "undo")          # back before the first face-off
    assert "spire card add" in play(hildegard, "faceoff Wolf")


def test_a_name_ending_in_s_takes_the_apostrophe_alone(hildegard: Spire) -> None:
    """The rulebook writes "The Crows' Face-Off Card"; spire says "The Crows' roll", not
    "The Crows's", in the lines, the odds and the play shell's prompt alike."""
    book_says("The Crows' Face-Off Card")
    play(hildegard, 'card add "The Crows" --enemy --limit 2 --accuracy 2 --parts c,r,d',
         'faceoff "The Crows"', "roll c b b b", "stop")
    out = play(hildegard, "wild miss")
    assert "the players' sets are over; The Crows' roll next" in out
    assert "Crows's" not in out + play(hildegard, "odds")
