"""Hildegard at the table, through the real CLI: wild shots, feats, blocks, the enemy's
finesse, negative effects, the end of a target, bonuses, and two players. Each table
quotes the rulebook (rulebooks/hildegard.txt); every refusal leaves the journal as it was.
"""

from __future__ import annotations

import shlex
from typing import Any

import pytest
from conftest import Spire, play
from conftest import quoted as checked

PRACTICE = ("target Practice --limit 1 --accuracy 3 --sets 2 --parts c,r,d "
            "--hit 40 --miss 41")
"""A target typed inline: 1 bullseye to hit, 3 dice, 2 sets."""
ONE_SET = PRACTICE.replace("--sets 2", "--sets 1")
CROWS = 'faceoff "The Crows"'
TEST_METER = ('card add "Test Meter" --meter --accuracy 3 '
              '--squares "c,c!,r,d:flub,c:tame,r:graze,d"')
"""A hit meter of our own: square 2 gray, tabs on squares 4 (flub), 5 (tame), 6 (graze)."""
CROWS_ON_TEST_METER = 'faceoff "The Crows" --meter "Test Meter"'


def refused(spire: Spire, command: str, code: int) -> str:
    return spire.refused(*shlex.split(command), code=code)


def encounter(spire: Spire) -> Any:
    return spire.json("status")["encounter"]


def feats(spire: Spire) -> int:
    return int(spire.json("status")["resources"]["feats"])


def quoted(*sentences: str) -> None:
    """Hildegard's rulebook says it (conftest.quoted)."""
    checked("hildegard", *sentences)


C, R, D, B = "crescent", "ring", "dot", "blank"


@pytest.fixture
def sisters(spire: Spire) -> Spire:
    spire.ok("new", "sisters", "--game", "hildegard", "--players", "2")
    return spire


# -- wild shots ---------------------------------------------------------------------------

@pytest.mark.parametrize("rolled, wild, dice, made, quote", [
    ("c c b", "wild bullseye", [C, C, B], 2, "Bullseye: Gain 1 Bullseye"),
    ("c b b", "wild b", [C, B, B], 1, "Bullseye: Gain 1 Bullseye"),
    ("c b b", "wild instinct --on 2 --face crescent", [C, C, B], 1,
     "Instinct: Change 1 Shot Dice roll to any result you choose"),
    ("r b b", "wild i --on 3 --face d", [R, B, D], 1,
     "Instinct: Change 1 Shot Dice roll to any result you choose"),
    ("c c b", "wild instinct", [C, C, B], 1, "The other 3 effects are optional."),
    ("c c b", "wild whoopsie --on 1", [None, C, B], 0,
     "Whoopsie: Remove 1 Shot Dice result of your choice"),
    ("c c r", "wild w --on 3", [C, C, None], 1, "You remove: Ring."),
    ("c c b", "wild miss", [C, C, B], 1, "Miss: No effect occurs"),
    ("r d b", "wild m", [R, D, B], 1, "Miss: No effect occurs"),
    ("c b b", "wild ricochet --on 3 --face c", [C, B, C], 1,
     "Ricochet: Reroll 1 Shot Dice of your choice"),
    ("c c b", "wild ricochet --on 1 --face blank", [B, C, B], 0,
     "Ricochet: Reroll 1 Shot Dice of your choice"),
    ("c c b", "wild ricochet", [C, C, B], 1, "The other 3 effects are optional."),
])
def test_each_wild_effect(hildegard: Spire, rolled: str, wild: str, dice: list[str | None],
                          made: int, quote: str) -> None:
    quoted(quote)
    play(hildegard, PRACTICE, f"roll {rolled}", wild)
    target = encounter(hildegard)
    assert (target["set"]["dice"], target["set_bullseyes"]) == (dice, [made])
    assert target["sets_done"] == 1


def test_a_ricochet_without_a_face_is_rolled_by_spire(hildegard: Spire) -> None:
    quoted("Ricochet: Reroll 1 Shot Dice of your choice")
    play(hildegard, PRACTICE, "roll c c b", "wild ricochet --on 3")
    dice = encounter(hildegard)["set"]["dice"]
    assert dice[:2] == [C, C] and dice[2] in (C, R, D, B)
    assert "die 3 re-rolled" in hildegard.ok("log")


def test_the_wild_shot_ends_the_set_and_the_next_one_begins(hildegard: Spire) -> None:
    quoted("Once the Wild Shot has been rolled, and any resulting Wild Shot Side Effects have "
           "been applied, the Set is complete.")
    out = play(hildegard, PRACTICE, "roll b b b", "wild miss")
    assert "Practice: 0 of 1 bullseye | 1 set done, 1 left" in out
    out = play(hildegard, "roll c c b")
    assert "Hildegard's dice: 1:crescent 2:crescent 3:blank (1 bullseye this set so far)" in out


# (setup after PRACTICE, refused command, exit code, a fragment of the one line, quote)
WILD_REFUSALS = [
    ([], "wild miss", 1, "roll the shot dice before the wild shot",
     "Roll 1 Wild Shot Dice"),
    (["roll c c b"], "wild whoopsie", 1, "Whoopsie must occur",
     "The Whoopsie Effect Icon is Red because it must occur."),
    (["roll c c b", "wild miss"], "wild bullseye", 1, "one wild shot per set",
     "One Wild Shot Dice is selected and rolled at the end of each Set."),
    (["roll c c b", "wild miss"], "wild bullseye --die black", 1, "one wild shot per set",
     "Wild Shot Dice cannot be re-rolled (unless stated otherwise)."),
    (["roll c c b"], "wild bullseye --die gray", 1, "you have no gray wild shot die",
     "Fishing Items: Add additional Wild Shot Dice to play."),
    (["roll c c b"], "wild bullseye --die blue", 1, "(yours: black)",
     "The Black Wild Shot Dice is available at the start of the game"),
    (["item gain Rod --kind fishing", "roll c c b"], "wild bullseye --die gray", 1,
     "you have no gray wild shot die", "Fishing Items: Add additional Wild Shot Dice to play."),
    (["item gain Rod --kind fishing --wild gray", "item lose Rod", "roll c c b"],
     "wild miss --die gray", 1, "you have no gray wild shot die",
     "Fishing Items: Add additional Wild Shot Dice to play."),
    (["effect tame", "roll c c b"], "wild bullseye", 1, "Tame: no wild shot this set",
     "Tame: No Wild Shot on next Set"),
    (["roll c c b"], "wild jackpot", 2, "unknown wild shot 'jackpot'", "Wild Shot Side Effects"),
    (["roll c c b"], "wild miss --die purple", 2, "unknown wild shot die 'purple'",
     "Blue — Wild Shot Dice, Tier 4"),
    (["roll c c b"], "wild whoopsie --on 4", 2, "there is no die 4",
     "Whoopsie: Remove 1 Shot Dice result of your choice"),
    (["roll c c b"], "wild instinct --on 2", 2, "with --face",
     "Instinct: Change 1 Shot Dice roll to any result you choose"),
    (["roll c c b"], "wild instinct --face ring", 2, "with --on N",
     "Instinct: Change 1 Shot Dice roll to any result you choose"),
    (["roll c c b"], "wild ricochet --face ring", 2, "with --on N",
     "Ricochet: Reroll 1 Shot Dice of your choice"),
    (["roll c c b"], "wild instinct --on 2 --face star", 2, "unknown face 'star'",
     "Instinct: Change 1 Shot Dice roll to any result you choose"),
    (["roll c c b"], "wild miss --face ring", 2, "miss changes no face", "Miss: No effect occurs"),
    (["roll c c b"], "wild miss --on 1", 2, "miss affects no die", "Miss: No effect occurs"),
    (["roll c c b"], "wild bullseye --on 1", 2, "bullseye affects no die",
     "Bullseye: Gain 1 Bullseye"),
    (["roll c c b"], "wild whoopsie --on 1 --face ring", 2, "whoopsie changes no face",
     "Whoopsie: Remove 1 Shot Dice result of your choice"),
]


@pytest.mark.parametrize("setup, command, code, says, quote", WILD_REFUSALS)
def test_wild_shot_refusals(hildegard: Spire, setup: list[str], command: str, code: int,
                            says: str, quote: str) -> None:
    quoted(quote)
    play(hildegard, PRACTICE, *setup)
    assert says in refused(hildegard, command, code)


@pytest.mark.parametrize("colour", ["gray", "gold", "blue"])
def test_a_fishing_item_adds_its_wild_shot_die(hildegard: Spire, colour: str) -> None:
    quoted("Fishing Items: Add additional Wild Shot Dice to play.",
           "You can have up to 4 Wild Shot Dice to choose from, depending on which ones you "
           "discover.")
    play(hildegard, PRACTICE, f"item gain Rod --kind fishing --wild {colour}", "roll c c b")
    out = play(hildegard, f"wild bullseye --die {colour}")
    assert f"Wild shot ({colour}) for Hildegard: bullseye" in out
    assert encounter(hildegard)["set_bullseyes"] == [2]
    play(hildegard, "roll c c b", "wild miss --die black")   # black stays at hand


def test_a_forced_wild_shot_is_kept_as_an_override(hildegard: Spire) -> None:
    play(hildegard, PRACTICE, "roll c c b", "wild bullseye --die gold --force")
    assert encounter(hildegard)["set_bullseyes"] == [2]
    overrides = hildegard.json("status")["overrides"]
    assert any("no gold wild shot die" in str(o) for o in overrides)


# -- feats of marksmanship ----------------------------------------------------------------

# (feat, its cost, setup that makes it legal, its row in Positive Status Effects)
FEAT_COSTS = [
    ("hone", 1, [PRACTICE], "| Hone | Add 1 Shot Dice on next Set | x1 |"),
    ("wild", 1, [PRACTICE, "roll c c b"], "| Wild | May Reroll a Wild Shot on Set* | x1 |"),
    ("bullseye", 2, [PRACTICE, "roll c c b"],
     "| Bullseye | Add 1 Bullseye on a Target or Face-Off | x2 |"),
    ("reset", 2, [PRACTICE], "| Reset | Add 1 additional Set on Target | x2 |"),
    ("redo", 3, [PRACTICE], "| Redo | Retry a Target or Face-Off | x3 |"),
    ("block --square 1", 1, [CROWS], "| Block | Add 1 Block to Hit Meter** | x1 |"),
]


@pytest.mark.parametrize("feat, cost, setup, row", FEAT_COSTS)
def test_each_feat_costs_what_the_rulebook_prints(hildegard: Spire, feat: str, cost: int,
                                                  setup: list[str], row: str) -> None:
    quoted(row)
    name = feat.split()[0]
    if cost > 1:
        play(hildegard, f"gain feats {cost - 1}")
    play(hildegard, *setup)
    line = refused(hildegard, f"feat {feat}", code=1)
    price = "1 feat" if cost == 1 else f"{cost} feats"                # "1 feats" no more
    assert f"{name} costs {price}; you have {cost - 1}" in line
    play(hildegard, "gain feats 1", f"feat {feat}")
    assert feats(hildegard) == 0


def test_hone_adds_a_die_to_the_next_set_only(hildegard: Spire) -> None:
    quoted("Hone | Add 1 Shot Dice on next Set")
    play(hildegard, "gain feats 2", PRACTICE.replace("--sets 2", "--sets 3"), "roll c b b",
         "feat hone", "wild miss")
    assert "Hildegard rolls 4 dice now" in refused(hildegard, "roll c c b", code=2)
    play(hildegard, "roll c c b b", "wild miss")
    assert encounter(hildegard)["set"]["size"] == 4
    assert "rolls 3 dice now" in refused(hildegard, "roll c c b b", code=2)


def test_hone_before_a_target_is_rolled_adds_to_its_first_set(hildegard: Spire) -> None:
    play(hildegard, "gain feats 1", PRACTICE, "feat hone", "roll c c b b")
    assert encounter(hildegard)["set"]["size"] == 4


def test_wild_rerolls_the_wild_shot_and_only_the_second_result_counts(hildegard: Spire) -> None:
    quoted("Wild | May Reroll a Wild Shot on Set*", "*Only the second result is used.")
    play(hildegard, "gain feats 1", PRACTICE, "roll c c b", "feat wild", "wild whoopsie --on 1")
    assert encounter(hildegard)["sets_done"] == 0          # the set waits for its second roll
    play(hildegard, "wild bullseye")
    target = encounter(hildegard)
    assert (target["set"]["dice"], target["set_bullseyes"]) == ([C, C, B], [2])
    assert "one wild shot per set" in refused(hildegard, "wild miss", code=1)


def test_wild_after_the_wild_shot_takes_back_its_result(hildegard: Spire) -> None:
    """Bought after seeing the wild shot, Wild takes back what it did (here a Whoopsie that
    ended the target with a miss) and only the second result counts."""
    play(hildegard, "gain feats 2", ONE_SET, "roll c c b", "wild whoopsie --on 1")
    assert encounter(hildegard)["outcome"] == "miss"
    out = play(hildegard, "feat wild")
    target = encounter(hildegard)
    assert (target["outcome"], target["sets_done"], target["set"]["dice"]) == (None, 0, [C, C, B])
    assert "(1 bullseye this set so far)" in out
    play(hildegard, "wild bullseye")
    target = encounter(hildegard)
    assert (target["outcome"], target["set_bullseyes"]) == ("hit", [2])
    assert hildegard.json("status")["resources"]["feats"] == 1
    assert "once per set" in refused(hildegard, "feat wild", code=1)


def test_the_bullseye_feat_adds_a_bullseye(hildegard: Spire) -> None:
    quoted("Bullseye | Add 1 Bullseye on a Target or Face-Off")
    out = play(hildegard, "gain feats 2", ONE_SET, "roll b b b", "feat bullseye")
    assert "(1 bullseye this set so far)" in out
    out = play(hildegard, "wild miss")
    assert "Practice defeated with 1 bullseye" in out


def test_the_bullseye_feat_in_a_face_off(hildegard: Spire) -> None:
    out = play(hildegard, "gain feats 2", CROWS, "roll b b b b", "feat bullseye")
    assert "this round: 1 bullseye on The Crows" in out


def test_reset_adds_a_set(hildegard: Spire) -> None:
    quoted("Reset | Add 1 additional Set on Target")
    out = play(hildegard, "gain feats 4", ONE_SET, "feat reset")
    assert "Practice: 0 of 1 bullseye | 0 sets done, 2 left" in out
    play(hildegard, "roll b b b", "feat reset")             # not limited to once per set
    assert encounter(hildegard)["sets_left"] == 3


def test_redo_retries_a_missed_target(hildegard: Spire) -> None:
    quoted("Redo | Retry a Target or Face-Off")
    play(hildegard, "gain feats 3", ONE_SET, "roll b b b",
         "wild miss")
    assert encounter(hildegard)["outcome"] == "miss"
    out = play(hildegard, "feat redo")
    assert "Practice: 0 of 1 bullseye | 0 sets done, 1 left" in out
    out = play(hildegard, "roll c c b", "wild miss")
    assert "Practice defeated with 1 bullseye" in out and "reveal card 40 next" in out


def test_redo_retries_a_face_off(hildegard: Spire) -> None:
    play(hildegard, "gain feats 3", CROWS, "roll c c b b", "stop", "wild miss", "roll c b b",
         "roll b b", "lock 2", "roll b")
    assert encounter(hildegard)["squares"][0] == "hit"
    out = play(hildegard, "feat redo")
    assert "Face-off, round 1: The Crows 0/7 | meter ......." in out


def test_block_bought_with_a_feat(hildegard: Spire) -> None:
    quoted("Block | Add 1 Block to Hit Meter**", "**Face-Offs Only, when applicable.")
    out = play(hildegard, "gain feats 2", CROWS, "feat block --square 1")
    assert "meter B......" in out
    out = play(hildegard, "feat block --square 2")
    assert "meter BB....." in out


@pytest.mark.parametrize("feat", ["hone", "wild", "bullseye"])
def test_hone_wild_and_bullseye_once_per_set(hildegard: Spire, feat: str) -> None:
    quoted("Please Note: Hone, Wild, and Bullseye may only be used once per Set in either 1 "
           "or 2 Player Games.")
    play(hildegard, "gain feats 6", PRACTICE, "roll c c b", f"feat {feat}")
    assert f"{feat} may be used once per set" in refused(hildegard, f"feat {feat}", code=1)
    play(hildegard, f"feat {feat} --force")
    assert "once per set" in str(hildegard.json("status")["overrides"])


@pytest.mark.parametrize("feat", ["hone", "bullseye"])
def test_once_per_set_allows_one_in_the_next_set(hildegard: Spire, feat: str) -> None:
    play(hildegard, "gain feats 6", PRACTICE, "roll c c b", f"feat {feat}", "wild miss")
    roll = "roll c c b b" if feat == "hone" else "roll c c b"
    play(hildegard, roll, f"feat {feat}")
    used = [e for e in hildegard.json("log", "--last", "0") if e["type"] == "feat-used"]
    assert [e["payload"]["feat"] for e in used] == [feat, feat]
    assert hildegard.json("status")["overrides"] == [], "the second set's feat broke no rule"


def test_hone_once_for_the_set_it_adds_to(hildegard: Spire) -> None:
    play(hildegard, "gain feats 6", PRACTICE, "feat hone")
    assert "the next set has its Hone already" in refused(hildegard, "feat hone", code=1)


# (setup, refused command, exit code, fragment)
FEAT_REFUSALS = [
    (["gain feats 6", CROWS], "feat reset", 1, "Reset adds a set on a target"),
    (["gain feats 6", PRACTICE], "feat block --square 1", 1, "Block is for face-offs only"),
    (["gain feats 6"], "feat block --square 1", 1, "Block is for face-offs only"),
    (["gain feats 6", CROWS], "feat block", 2, "--square N"),
    (["gain feats 6", CROWS], "feat block --square 2", 1, "until square 1 is filled"),
    (["gain feats 6", CROWS], "feat block --square 8", 1, "squares 1 to 7"),
    (["gain feats 6"], "feat redo", 1, "Redo retries a target or face-off"),
    (["gain feats 6", PRACTICE], "feat bullseye", 1, "during a set under way"),
    (["gain feats 6", PRACTICE], "feat wild", 1, "roll the set first"),
    (["gain feats 6", PRACTICE, "roll c c b", "wild miss", "feat wild", "wild bullseye"],
     "feat wild", 1, "wild may be used once per set"),
    (["gain feats 6", PRACTICE, "roll c c b", "wild miss", "end"], "feat wild", 1,
     "the wild shot of the set just shot"),
    (["gain feats 6", PRACTICE, "roll c c b", "wild miss"], "feat bullseye", 1,
     "during a set under way"),
    (["gain feats 6"], "feat juggle", 2, "unknown feat 'juggle'"),
    ([], "feat hone", 1, "hone costs 1 feat; you have 0"),
]


@pytest.mark.parametrize("setup, command, code, says", FEAT_REFUSALS)
def test_feat_refusals(hildegard: Spire, setup: list[str], command: str, code: int,
                      says: str) -> None:
    play(hildegard, *setup)
    assert says in refused(hildegard, command, code)


def test_at_most_six_feats(hildegard: Spire) -> None:
    quoted("You can hold up to 6 Feats at a time in either 1 or 2 Player Games.")
    assert "feats at most 6" in refused(hildegard, "gain feats 7", code=1)
    play(hildegard, "gain feats 6")
    assert "feats at most 6" in refused(hildegard, "gain feats 1", code=1)
    # a reward never takes them past six: the Street Merchant's bonus feat is not kept
    out = play(hildegard, 'target "Street Merchant"', "roll c c r", "wild whoopsie --on 3",
               "roll r d c", "wild bullseye")
    assert "bonus reached: 3 bullseyes -> 1 feat" in out
    assert feats(hildegard) == 6


# -- blocks -------------------------------------------------------------------------------

BLOCK_RULES = ("After Hildegard's Shot Dice are locked, if any of your results match a "
               "Bullseye part on an eligible Color Hit Square you may use that Shot Dice to "
               "Block.")
GRAY = "You cannot Block Gray Hit Squares."
PREVIOUS = ("You cannot Block a Color Hit Square unless the previous square is filled with "
            "either a Hit or a Block.")


def test_blocks_in_a_row_on_color_squares(hildegard: Spire) -> None:
    quoted(BLOCK_RULES, PREVIOUS, "In some cases, you will be able to place more than one "
           "Block on a Hit Meter (when Color Hit Squares are placed together).")
    play(hildegard, CROWS, "roll c c r d", "stop")
    out = play(hildegard, "block 1 --square 1")
    assert "meter B......" in out
    assert "this round: 1 bullseye on The Crows" in out       # die 1 blocks, it shoots no more
    out = play(hildegard, "block 2 --square 2", "block 3 --square 3")
    assert "meter BBB...." in out
    assert "1:crescent* 2:crescent* 3:ring* 4:dot" in out
    assert "this round: 0 bullseyes on The Crows" in out


# (setup after CROWS, refused command, exit code, fragment, quote)
BLOCK_REFUSALS = [
    (["roll c c r b"], "block 1 --square 1", 1, "blocks come after the shot dice are locked",
     BLOCK_RULES),
    (["roll c c r b", "stop"], "block 4 --square 1", 1,
     "die 4 shows blank; square 1 needs crescent", BLOCK_RULES),
    (["roll c c r b", "stop"], "block 3 --square 1", 1, "die 3 shows ring", BLOCK_RULES),
    (["roll c c r b", "stop"], "block 1 --square 2", 1, "until square 1 is filled", PREVIOUS),
    (["roll c c r b", "stop", "block 1 --square 1"], "block 3 --square 3", 1,
     "until square 2 is filled", PREVIOUS),
    (["roll c c r c", "stop", "block 1 --square 1", "block 2 --square 2", "block 3 --square 3"],
     "block 4 --square 4", 1, "square 4 needs a part not entered", BLOCK_RULES),
    (["roll c c r b", "stop", "block 1 --square 1"], "block 1 --square 2", 2,
     "die 1 is not on the table to block with", BLOCK_RULES),
    (["roll c c r b", "stop"], "block 5 --square 1", 2, "die 5 is not on the table", BLOCK_RULES),
    (["roll c c r b", "stop"], "block 1 --square 8", 1, "squares 1 to 7", BLOCK_RULES),
    (["roll c c r b", "stop", "block 1 --square 1"], "block 2 --square 1", 1,
     "square 1 is already blocked", BLOCK_RULES),
    (["effect hit", "roll c c r b", "stop"], "block 1 --square 1", 1, "square 1 is already hit",
     BLOCK_RULES),
    ([], "block 1 --square 1", 1, "Hildegard has no dice rolled this round", BLOCK_RULES),
]


@pytest.mark.parametrize("setup, command, code, says, quote", BLOCK_REFUSALS)
def test_block_refusals(hildegard: Spire, setup: list[str], command: str, code: int,
                        says: str, quote: str) -> None:
    quoted(quote)
    play(hildegard, CROWS, *setup)
    assert says in refused(hildegard, command, code)


def test_blocks_are_for_face_offs_only(hildegard: Spire) -> None:
    quoted("There are no Set Limits, and Blocking is now in play.")
    play(hildegard, PRACTICE, "roll c c b", "stop")
    assert "blocks are placed in face-offs" in refused(hildegard, "block 1 --square 1", code=1)


def test_gray_squares_cannot_be_blocked(hildegard: Spire) -> None:
    quoted(GRAY, "E — Unblockable Square: Gray squares cannot be Blocked.")
    play(hildegard, "gain feats 1", TEST_METER, CROWS_ON_TEST_METER, "roll c c r", "stop",
         "block 1 --square 1")
    line = refused(hildegard, "block 2 --square 2", code=1)
    assert "square 2 is gray: gray hit squares cannot be blocked" in line
    assert "square 2 is gray" in refused(hildegard, "feat block --square 2", code=1)
    play(hildegard, "effect hit")   # "That square is now Blocked from 1 Hit."
    assert encounter(hildegard)["squares"][:2] == ["empty", "empty"]
    play(hildegard, "effect hit", "effect hit", "block 3 --square 3")   # the gray square hit
    assert encounter(hildegard)["squares"][:3] == ["hit", "hit", "block"]


def test_an_enemy_removes_a_block_with_its_part_before_it_hits(hildegard: Spire) -> None:
    quoted("On the enemy's next Set, they will need to roll that Hit Square's Bullseye part to "
           "remove that Block. After that, they can Hit that square normally with the "
           "appropriate roll.")
    play(hildegard, CROWS, "roll c c b b", "stop", "block 1 --square 1", "wild miss")
    out = play(hildegard, "roll c b b")
    assert "meter ......." in out                            # the block is gone, no hit
    assert "1:crescent*" in out
    assert encounter(hildegard)["squares"][0] == "empty"
    out = play(hildegard, "roll c b")     # the die that cleared the block counts as locked
    assert "meter X......" in out


def test_a_block_stays_until_the_enemy_rolls_its_part(hildegard: Spire) -> None:
    quoted("If the enemy fails to roll the Bullseye part needed to remove the Block on their "
           "next Set, it stays in place until they do.")
    play(hildegard, CROWS, "roll c c b b", "stop", "block 1 --square 1", "wild miss",
         "roll r d b", "lock 1", "roll d b", "lock 2", "roll b")
    fight = encounter(hildegard)
    assert (fight["squares"][0], fight["round"], fight["turn"]) == ("block", 2, "players")


def test_a_blocked_tab_square_triggers_no_effect(hildegard: Spire) -> None:
    quoted("Status Effect Tabs are not triggered when a square is Blocked.")
    play(hildegard, TEST_METER, CROWS_ON_TEST_METER, "effect hit", "effect hit", "effect hit",
         "roll d b b", "stop", "block 1 --square 4", "wild miss",
         "roll d b b", "roll b b", "lock 2", "roll b")
    assert encounter(hildegard)["squares"][3] == "empty"     # the block removed, not hit
    assert hildegard.json("status")["next_set"]["flub"] == 0


# -- the enemy's finesse ------------------------------------------------------------------

ENEMY_FINESSE = ("Any roll results that can't fill, or potentially fill, a Hit Square this "
                 "Set must be Finessed until they can, or until the enemy runs out of rolls to "
                 "Finesse.")
ENEMY_KEEPS = ("When the enemy Finesses the Shot, they will ALWAYS keep a roll they could "
               "potentially use in that Set.")

def crows_to_roll(spire: Spire) -> None:
    """A face-off where the players' set is done and the Crows roll next."""
    play(spire, CROWS, "roll b b b b", "stop", "wild miss")


# (the Crows' roll and locks so far, refused lock, fragment)
ENEMY_LOCK_REFUSALS = [
    (["roll r c b"], "lock 3", "lock 1"),                  # the Crows keep their Ring
    (["roll r c b"], "lock 1 3", "lock 1"),
    (["roll c r d"], "lock 3", "lock 2"),                  # Crescent hit 1; Ring for square 3
    # nothing useful: one die only
    (["roll b b b"], "lock 1 2", "it locks any one, re-rolls the rest"),
    (["roll b b b"], "lock 1 2 3", "it locks any one, re-rolls the rest"),
]


@pytest.mark.parametrize("rolled, command, says", ENEMY_LOCK_REFUSALS)
def test_the_enemy_finesse_lock_refusals(hildegard: Spire, rolled: list[str], command: str,
                                         says: str) -> None:
    quoted(ENEMY_FINESSE, ENEMY_KEEPS)
    crows_to_roll(hildegard)
    play(hildegard, *rolled)
    line = refused(hildegard, command, code=1)
    assert says in line and "Enemy Turn Flow" in line


def test_the_enemy_with_nothing_useful_locks_any_one(hildegard: Spire) -> None:
    quoted("When you roll the Shot Dice, you're required to keep only 1 of your results.")
    crows_to_roll(hildegard)
    out = play(hildegard, "roll b d b")
    assert "the enemy must keep: any one die; re-roll the rest" in out
    out = play(hildegard, "lock 2", "roll c b")
    assert "meter X......" in out


def test_the_enemy_finesse_can_be_forced(hildegard: Spire) -> None:
    quoted(ENEMY_KEEPS)
    crows_to_roll(hildegard)
    play(hildegard, "roll r c b")
    out = play(hildegard, "lock 3 --force")
    assert "[3:blank]" in out
    overrides = str(hildegard.json("status")["overrides"])
    assert "keeps every die it could use and re-rolls the rest: lock 1" in overrides
    out = play(hildegard, "roll d")
    assert encounter(hildegard)["squares"][:3] == ["hit", "empty", "empty"]


def test_the_enemy_cannot_stop_while_it_must_finesse(hildegard: Spire) -> None:
    quoted(ENEMY_FINESSE)
    crows_to_roll(hildegard)
    play(hildegard, "roll r c b")
    line = refused(hildegard, "stop", code=1)
    assert "the enemy finesses until a die can fill a square or its rolls run out" in line
    play(hildegard, "stop --force")
    fight = encounter(hildegard)
    assert (fight["round"], fight["turn"]) == (2, "players")


def test_the_enemy_rolls_no_wild_shot(hildegard: Spire) -> None:
    quoted("Be Aware: Enemies DO NOT roll Wild Shot Dice.")
    crows_to_roll(hildegard)
    play(hildegard, "roll r c b")
    assert "has not rolled this round" in refused(hildegard, "wild bullseye", code=1)


# -- negative effects ---------------------------------------------------------------------

def test_flub_takes_a_die_from_the_next_set_only(hildegard: Spire) -> None:
    quoted("Flub: Minus 1 Shot Dice on next Set")
    play(hildegard, PRACTICE, "effect flub")
    assert "Hildegard rolls 2 dice now" in refused(hildegard, "roll c c b", code=2)
    play(hildegard, "roll c c", "wild miss", "roll c c b")


def test_flub_twice_takes_two_dice(hildegard: Spire) -> None:
    play(hildegard, PRACTICE, "effect flub", "effect flub")
    assert "Hildegard rolls 1 die now" in refused(hildegard, "roll c c", code=2)


def test_flub_on_a_one_die_target_leaves_a_set_of_no_dice(hildegard: Spire) -> None:
    play(hildegard, PRACTICE.replace("--accuracy 3", "--accuracy 1"), "effect flub")
    out = play(hildegard, "roll")
    assert "no dice this set" in out
    out = play(hildegard, "wild bullseye")
    assert "Practice: 1 of 1 bullseye | 1 set done, 1 left" in out


def test_tame_takes_the_wild_shot_from_the_next_set(hildegard: Spire) -> None:
    quoted("Tame: No Wild Shot on next Set")
    play(hildegard, PRACTICE, "effect tame", "roll c c b")
    assert "Tame: no wild shot this set" in refused(hildegard, "wild bullseye", code=1)
    out = play(hildegard, "stop")
    assert "Practice: 1 of 1 bullseye | 1 set done, 1 left" in out
    play(hildegard, "roll c c b", "wild bullseye")          # the set after has its wild shot
    assert encounter(hildegard)["set_bullseyes"] == [1, 2]


def test_graze_takes_the_finesse_from_the_next_set(hildegard: Spire) -> None:
    quoted("Graze: No Finesse on next Set")
    play(hildegard, PRACTICE, "effect graze", "roll c b b")
    assert "Graze: no finesse this set" in refused(hildegard, "lock 1", code=1)
    assert "Graze: no finesse this set" in refused(hildegard, "roll c c b", code=1)
    play(hildegard, "wild miss", "roll c b b", "lock 1", "roll c b")   # finesse is back


@pytest.mark.parametrize("encounter_line, tallied", [
    (PRACTICE, "`spire roll` rolls Hildegard's next set"),
    (CROWS, "The Crows' roll next"),
])
def test_a_lock_after_a_grazed_set_names_the_graze(hildegard: Spire, encounter_line: str,
                                                   tallied: str) -> None:
    """Grazed and Tamed, a set is tallied at its first roll, so the turn has moved on: a
    `lock` then says the Graze took the finesse, not that nobody has dice."""
    quoted("Graze: No Finesse on next Set", "Tame: No Wild Shot on next Set")
    play(hildegard, encounter_line, "effect graze", "effect tame")
    play(hildegard, "roll c c r d" if encounter_line == CROWS else "roll c c r")
    said = refused(hildegard, "lock 1", code=1)
    assert said.startswith("spire: Graze: Hildegard's set had no finesse and was tallied\n")
    assert tallied in said
    assert "no dice rolled" not in said


def test_hit_is_an_instant_hit_in_a_face_off(hildegard: Spire) -> None:
    quoted("Hit: Instant Hit on Face-Off (on Hildegard's Hit Meter)")
    out = play(hildegard, CROWS, "effect hit")
    assert "meter X......" in out
    out = play(hildegard, "effect hit")
    assert "meter XX....." in out


def test_hit_outside_a_face_off_is_refused(hildegard: Spire) -> None:
    play(hildegard, PRACTICE)
    assert "in a face-off" in refused(hildegard, "effect hit", code=1)
    assert "in a face-off" in refused(hildegard, "effect hit", code=1)


def test_hit_on_the_last_square_loses_the_face_off(hildegard: Spire) -> None:
    quoted("when the enemy defeats you by filling in Hildegard's Hit Meter")
    play(hildegard, CROWS, *["effect hit"] * 6)
    out = play(hildegard, "effect hit")
    assert "face-off lost" in out
    assert encounter(hildegard)["outcome"] == "lost"


def test_a_tab_hit_triggers_its_effect_on_the_next_set(hildegard: Spire) -> None:
    quoted("When the square with a Status Effect Tab is Hit, the Status Effect listed is "
           "triggered on Hildegard's next Set.")
    play(hildegard, TEST_METER, CROWS_ON_TEST_METER, "effect hit", "effect hit", "effect hit",
         "effect hit")
    assert hildegard.json("status")["next_set"]["flub"] == 1
    assert "Hildegard rolls 2 dice now" in refused(hildegard, "roll c c b", code=2)


def test_an_enemy_hit_on_a_tab_square_triggers_it(hildegard: Spire) -> None:
    play(hildegard, TEST_METER, CROWS_ON_TEST_METER, "effect hit", "effect hit", "effect hit",
         "roll b b b", "stop", "wild miss", "roll d c b")
    assert encounter(hildegard)["squares"][3:5] == ["hit", "hit"]
    assert hildegard.json("status")["next_set"] == {
        "hone": 0, "flub": 1, "tame": True, "graze": False}


def test_unknown_effect(hildegard: Spire) -> None:
    assert "unknown effect 'fumble'" in refused(hildegard, "effect fumble", code=2)


# -- the end of a target ------------------------------------------------------------------

def test_a_target_missed_sends_you_to_its_miss_card(hildegard: Spire) -> None:
    quoted("Pesky Jackalope: Hit → Card 30, or Miss → Card 32",
           "Once all of the Sets are complete, follow the prompts at the bottom of the Target "
           "or Story Card depending on your success or failure.")
    out = play(hildegard, 'target "Pesky Jackalope"', "roll b b", "stop", "wild miss")
    assert "Pesky Jackalope missed with 0 bullseyes" in out
    assert "reveal card 32 next" in out
    status = hildegard.json("status")
    assert (status["encounter"]["outcome"], status["resources"]["gold"]) == ("miss", 0)
    assert "Pesky Jackalope is over (miss): reveal card 32 next" in \
        refused(hildegard, "roll b b", code=1)


def test_pesky_jackalope_hit_pays_its_gold(hildegard: Spire) -> None:
    quoted("In this example you would earn 1 Gold.")
    out = play(hildegard, 'target "Pesky Jackalope"', "roll c c", "wild miss")
    assert "Pesky Jackalope defeated with 1 bullseye; reward 1 gold" in out
    assert "reveal card 30 next" in out
    assert hildegard.json("status")["resources"]["gold"] == 1


def test_end_a_target_early(hildegard: Spire) -> None:
    out = play(hildegard, PRACTICE, "roll c c b", "wild miss", "end")
    assert "Practice defeated with 1 bullseye" in out and "reveal card 40 next" in out
    assert "Practice is over (hit): reveal card 40 next" in refused(hildegard, "end", code=1)
    play(hildegard, 'target "Card Peddler"')                 # the next target may begin


def test_end_a_target_short_of_its_limit_is_a_miss(hildegard: Spire) -> None:
    out = play(hildegard, 'target "Street Merchant"', "roll c c b", "wild miss", "end")
    assert "Street Merchant missed with 1 bullseye" in out
    assert "follow the card's prompt (its card number was not entered)" in out


def test_end_abandons_a_face_off(hildegard: Spire) -> None:
    out = play(hildegard, CROWS, "end")
    assert "face-off abandoned: it counts as lost" in out
    assert hildegard.json("status")["encounter"]["outcome"] == "lost"


@pytest.mark.parametrize("setup, command, says", [
    ([], "end", "no target or face-off under way"),
    ([], "roll c c b", "no target or face-off under way"),
    ([], "lock 1", "no target or face-off under way"),
    ([], "wild miss", "no target or face-off under way"),
    ([PRACTICE], 'target "Card Peddler"', "Practice is under way"),
    ([PRACTICE], CROWS, "Practice is under way"),
    ([CROWS], PRACTICE, "the face-off is under way"),
    ([PRACTICE, "roll c c b", "lock 1", "roll c b"], "roll c b", "lock in at least one die"),
    ([PRACTICE, "roll c c b", "lock 1 2", "roll b"], "roll b", "the set's finesse is over"),
    ([PRACTICE, "roll c c b", "lock 1 2 3"], "roll", "every die is locked in"),
])
def test_encounter_refusals(hildegard: Spire, setup: list[str], command: str, says: str) -> None:
    play(hildegard, *setup)
    assert says in refused(hildegard, command, code=1)


# -- bonus challenges ---------------------------------------------------------------------

def test_a_bullseye_challenge_counts_over_all_sets(hildegard: Spire) -> None:
    quoted("Bullseye Challenges can be achieved over the course of all Sets available on a "
           "Target Card.")
    play(hildegard, PRACTICE + ' --bonus "2 bullseyes, 1 feat"', "roll c c b", "wild miss")
    assert feats(hildegard) == 0
    out = play(hildegard, "roll r d b", "wild miss")
    assert "bonus reached: 2 bullseyes -> 1 feat" in out
    assert feats(hildegard) == 1


@pytest.mark.parametrize("sets, awarded", [
    (["roll c b b", "wild miss", "roll c b b", "wild miss"], False),   # split over two sets
    (["roll c c b", "wild whoopsie --on 1", "roll b b b", "wild miss"], False),  # not final
    (["roll c b b", "wild instinct --on 2 --face c", "roll b b b", "wild miss"], True),
    (["roll c b b", "wild miss", "roll c b c", "wild miss"], True),
    (["roll c c b", "wild miss", "roll c c b", "wild miss"], True),     # once per card
])
def test_a_combination_challenge_is_one_sets_final_results(
        hildegard: Spire, sets: list[str], awarded: bool) -> None:
    quoted("Combination Challenges must occur within a single Set. The combination must "
           "represent the final results of that Set.",
           "You can only be rewarded once per Target Card regardless of how many times you "
           "roll the correct Bullseye combination")
    play(hildegard, PRACTICE + ' --bonus "c+c, 1 gold"', *sets)
    assert hildegard.json("status")["resources"]["gold"] == (1 if awarded else 0)


def test_the_bonus_is_awarded_once_per_card_across_a_redo(hildegard: Spire) -> None:
    quoted("You can only be rewarded once per Target Card")
    play(hildegard, "gain feats 3", PRACTICE + ' --bonus "c+c, 1 gold"', "roll c c b",
         "wild miss")
    assert hildegard.json("status")["resources"]["gold"] == 1
    out = play(hildegard, "feat redo", "roll c c b", "wild miss", "roll c c b", "wild miss")
    assert "Practice defeated with 2 bullseyes" in out
    assert hildegard.json("status")["resources"]["gold"] == 1


# -- two players --------------------------------------------------------------------------

def test_hallveig_handles_a_target(sisters: Spire) -> None:
    quoted("Targets: When a Target is revealed, decide between you which player will handle "
           "it. The Target Card will be played exactly as it would be in a 1 Player Game.")
    out = play(sisters, ONE_SET + " --player 2")
    assert "#2 Hallveig takes aim at Practice" in out
    out = play(sisters, "roll c b b --player 2")
    assert "Hallveig rolled crescent, blank, blank" in out
    assert sisters.json("show", "3")["player"] == 2
    for command in ("roll c c c --player 1", "lock 1 --player 1", "stop --player 1",
                    "wild miss --player 1"):
        assert "Hallveig handles Practice, not Hildegard" in refused(sisters, command, code=1)
    out = play(sisters, "lock 1", "roll c b", "wild miss")   # without --player: hers
    assert "Practice defeated with 1 bullseye" in out


def test_player_two_in_a_one_player_campaign(hildegard: Spire) -> None:
    play(hildegard, PRACTICE)
    assert "players 1 to 1" in refused(hildegard, "roll c c b --player 2", code=2)
    assert "invalid value" in refused(hildegard, "roll c c b --player 3", code=2)


def test_each_player_rolls_her_own_set_and_sets_are_never_combined(sisters: Spire) -> None:
    quoted("Face-Offs: When a Face-Off begins, both players will have their own turn and Set "
           "to attack the enemy or enemies (with the exception of the Wild Shot, which is "
           "shared).",
           "Player 1 and Player 2's Sets cannot be combined to create Bullseyes.")
    out = play(sisters, CROWS, "roll c b b b --player 1", "stop --player 1",
               "roll c b b b --player 2", "stop --player 2")
    assert "Hildegard's dice: 1:crescent 2:blank 3:blank 4:blank" in out
    assert "Hallveig's dice: 1:crescent 2:blank 3:blank 4:blank" in out
    assert "this round: 0 bullseyes on The Crows" in out
    out = play(sisters, "wild bullseye --player 2")
    assert "Wild shot (black) for Hallveig: bullseye" in out
    out = play(sisters, "roll b b b")
    assert "The Crows 1/7" in out


def test_one_wild_shot_is_shared_per_round(sisters: Spire) -> None:
    quoted("During a Face-Off, only one Wild Shot Dice is rolled between 2 players.",
           "Together, you must decide which Wild Shot Dice to use, and whose Set it will affect.")
    play(sisters, CROWS, "roll c c b b --player 1", "stop --player 1",
         "roll r b b b --player 2", "stop --player 2")
    assert "say whose set it affects" in refused(sisters, "wild bullseye", code=2)
    out = play(sisters, "wild instinct --on 2 --face dot --player 2")
    assert "Hallveig's dice: 1:ring 2:dot 3:blank 4:blank" in out
    assert "this round: 2 bullseyes on The Crows" in out
    for player in ("1", "2"):
        line = refused(sisters, f"wild bullseye --player {player}", code=1)
        assert "one wild shot is shared per round" in line
    # the next round has its own wild shot
    play(sisters, "roll b b b", "lock 1", "roll b b", "lock 2", "roll b",
         "roll c c b b --player 1", "stop --player 1", "wild bullseye --player 1")


def test_effects_hit_both_players_next_sets(sisters: Spire) -> None:
    quoted("Effects triggered by the enemy affect both players!",
           "Any Feats spent on Effects that alter a player's rolls affect both players.")
    play(sisters, "gain feats 1", CROWS, "roll b b b b --player 1", "effect flub",
         "effect graze", "feat hone --player 2", "stop --player 1", "roll b b b b --player 2",
         "stop --player 2", "wild miss --player 1", "roll b b b", "lock 1", "roll b b",
         "lock 2", "roll b")
    fight = encounter(sisters)
    assert (fight["round"], fight["turn"]) == (2, "players")
    # accuracy 4, +1 Hone, -1 Flub: four dice each; Graze: no finesse for either
    for player in ("1", "2"):
        play(sisters, f"roll c c b b --player {player}")
        assert "Graze: no finesse" in refused(sisters, f"lock 1 --player {player}", code=1)
    sets = encounter(sisters)["sets"]
    assert [sets[who]["size"] for who in ("Hildegard", "Hallveig")] == [4, 4]


def test_a_second_hone_in_a_round_is_refused(sisters: Spire) -> None:
    quoted("Please Note: Hone, Wild, and Bullseye may only be used once per Set in either 1 "
           "or 2 Player Games.")
    play(sisters, "gain feats 2", CROWS, "roll b b b b --player 1", "feat hone --player 1",
         "roll b b b b --player 2")
    line = refused(sisters, "feat hone --player 2", code=1)
    assert "the next set has its Hone already" in line


def test_feats_and_gold_are_shared(sisters: Spire) -> None:
    quoted("Wild Shot Dice, Feats and Gold are shared.")
    play(sisters, 'target "Pesky Jackalope" --player 2', "roll c c", "wild bullseye")
    status = sisters.json("status")
    assert (status["resources"]["gold"], status["resources"]["feats"]) == (1, 1)
    play(sisters, "item gain Rod --kind fishing --wild gold --to Hildegard",
         'target "Pesky Jackalope" --player 2', "roll c c", "wild miss --die gold")
