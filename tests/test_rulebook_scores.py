"""Issue 14: where spire kept a score the rulebook would not, or refused what it allows.

Each test reproduces its case through the real CLI against a journal file, and quotes
the rulebook sentence it follows (rulebooks/hildegard.txt, rulebooks/spires-end.txt).
A refusal exits 1 in one line with the journal unmoved; `--force` records it as an
override.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest
from conftest import Spire, play, quoted, refused

from journal.core import chain
from journal.core import events as ev


def hildegard_quoted(*sentences: str) -> None:
    quoted("hildegard", *sentences)


def encounter(spire: Spire) -> Any:
    return spire.json("status")["encounter"]


def overrides(spire: Spire) -> str:
    return str(spire.json("status")["overrides"])


@pytest.fixture
def sisters(spire: Spire) -> Spire:
    spire.ok("new", "sisters", "--game", "hildegard", "--players", "2")
    return spire


def enemies(spire: Spire) -> dict[str, int]:
    return {e["name"]: e["bullseyes"] for e in encounter(spire)["enemies"]}


# -- Hildegard: several enemies (cases 1 and 2) -------------------------------------------

TWO_CROWS = (
    'card add "Crow A" --enemy --limit 3 --accuracy 2 --parts c',
    'card add "Crow B" --enemy --limit 3 --accuracy 2 --parts r,d',
    'faceoff "Crow A" "Crow B"',
)
SPLIT = "although your rolls can be split up however you like"
PARTS = "Bullseye Parts Available: These are the parts that can be used to create Bullseyes."


def test_1_assign_cannot_credit_bullseyes_nobody_rolled(hildegard: Spire) -> None:
    hildegard_quoted(SPLIT, PARTS)
    play(hildegard, *TWO_CROWS, "roll b b b b")
    line = refused(hildegard, 'assign "Crow B" 4')
    assert "at most 0 bullseyes on Crow B" in line and "Face-Off Scenario" in line
    play(hildegard, "stop", "wild miss", 'assign "Crow B" 4 --force')
    assert "at most 0 bullseyes on Crow B" in overrides(hildegard)
    play(hildegard, "roll b b")                     # the table wins: Crow B takes 4
    assert enemies(hildegard) == {"Crow A": 0, "Crow B": 4}


def test_2_each_enemy_s_bullseyes_are_formed_with_its_own_parts(hildegard: Spire) -> None:
    hildegard_quoted(SPLIT, PARTS)
    out = play(hildegard, *TWO_CROWS, "roll r d c c", 'assign "Crow B" 1')
    assert "this round: 1 bullseye on Crow A, 1 bullseye on Crow B" in out
    play(hildegard, "stop", "wild miss", "roll b b")   # Crow A's set begins: the round counts
    assert enemies(hildegard) == {"Crow A": 1, "Crow B": 1}


def test_2_dice_used_on_one_enemy_are_not_used_again(hildegard: Spire) -> None:
    hildegard_quoted(SPLIT)
    play(hildegard, 'card add "Crow C" --enemy --limit 3 --accuracy 2 --parts c,r,d',
         'card add "Crow A" --enemy --limit 3 --accuracy 2 --parts c',
         'faceoff "Crow C" "Crow A"', "roll c c r d")
    play(hildegard, 'assign "Crow A" 1')    # the crescents: Crow C keeps ring + dot
    assert "1 bullseye on Crow C, 1 bullseye on Crow A" in play(hildegard, "status")
    line = refused(hildegard, 'assign "Crow A" 2')
    assert "at most 1 bullseye on Crow A" in line


# -- Hildegard: the hit meter as shipped (case 13) ----------------------------------------

def test_13_the_meter_s_unprinted_squares_are_said_and_can_be_entered(hildegard: Spire) -> None:
    hildegard_quoted("In this example, the enemy has 7 squares to fill.",
                     "If all the Hit Squares on the meter are filled, Hildegard loses.")
    out = play(hildegard, 'faceoff "The Crows"')
    assert ("  squares 4-7 have no part entered: no die can hit there. Enter your card's:\n"
            "  spire card add \"Hildegard's Hit Meter\" --meter --accuracy 4 --squares ...\n"
            ) in out
    assert max(map(len, out.splitlines())) <= 80
    assert [s["part"] for s in encounter(hildegard)["meter"]["squares"]] == [
        "crescent", "crescent", "ring", None, None, None, None]
    play(hildegard, "end", 'card add "Hildegard\'s Hit Meter" --meter --accuracy 4 '
         '--squares c,c,r,d,c,r,d')
    out = play(hildegard, 'faceoff "The Crows"')
    assert "no part entered" not in out
    set_ = ("roll b b b b", "stop", "wild miss")
    play(hildegard, *set_, "roll c c r", *set_, "roll d c r", *set_, "roll d b b")
    fight = encounter(hildegard)
    assert fight["squares"] == ["hit"] * 7 and fight["outcome"] == "lost"


# -- Hildegard: the enemy's finesse after a die is used (case 10) -------------------------

ENEMY_FINESSE = ("Any roll results that can't fill, or potentially fill, a Hit Square this Set "
                 "must be Finessed until they can, or until the enemy runs out of rolls to "
                 "Finesse.")


def crows_to_roll(spire: Spire) -> None:
    play(spire, 'faceoff "The Crows"', "roll b b b b", "stop", "wild miss")


def test_10_a_die_that_hit_counts_as_locked_and_the_rest_is_re_rolled(hildegard: Spire) -> None:
    hildegard_quoted(ENEMY_FINESSE)
    crows_to_roll(hildegard)
    out = play(hildegard, "roll c c b")
    assert "the enemy re-rolls the dice that hit nothing" in out
    assert encounter(hildegard)["turn"] == "enemy"      # re-rolls remain: the set goes on
    play(hildegard, "roll r")                            # the blank, re-rolled: square 3
    fight = encounter(hildegard)
    assert fight["squares"][:3] == ["hit", "hit", "hit"] and fight["round"] == 2


def test_10_no_useless_die_is_locked_after_a_hit(hildegard: Spire) -> None:
    hildegard_quoted(ENEMY_FINESSE)
    crows_to_roll(hildegard)
    play(hildegard, "roll c b b")
    line = refused(hildegard, "lock 2")
    assert "a die that hit stays locked in; re-roll the other" in line
    assert "Enemy Turn Flow" in line
    play(hildegard, "roll c b")                          # square 2; the blank goes again
    assert encounter(hildegard)["squares"][:2] == ["hit", "hit"]
    play(hildegard, "roll r")
    fight = encounter(hildegard)
    assert fight["squares"][:3] == ["hit"] * 3 and fight["round"] == 2


def test_10_the_enemy_runs_out_of_rolls(hildegard: Spire) -> None:
    crows_to_roll(hildegard)
    play(hildegard, "roll c c b", "roll b")              # nothing hit: one die, no lock left
    fight = encounter(hildegard)
    assert fight["squares"][:3] == ["hit", "hit", "empty"] and fight["round"] == 2


def test_10_a_kept_die_is_locked_before_the_re_roll(hildegard: Spire) -> None:
    hildegard_quoted("the Crows are smart enough to keep it")
    crows_to_roll(hildegard)
    play(hildegard, "roll r c b")
    assert "lock 1 before the re-roll" in refused(hildegard, "roll b b")
    play(hildegard, "roll b b --force")
    assert "lock 1 before the re-roll" in overrides(hildegard)


def test_10_the_kept_die_locks_itself_when_only_the_rest_is_rolled(hildegard: Spire) -> None:
    """Issue 34, item 7: the enemy's lock has one legal answer (the dice that could fill a
    square), so a re-roll of the rest, typed without it, makes it: two steps recorded, each
    said, each undone on its own, and the audit finds nothing to override."""
    hildegard_quoted("the Crows are smart enough to keep it", ENEMY_FINESSE)
    crows_to_roll(hildegard)
    play(hildegard, "roll r c b")                        # the ring must stay: die 1
    head = hildegard.json("status")["head"]
    out = play(hildegard, "roll b")                      # the blank, re-rolled
    assert f"#{head + 1} The Crows locked die 1" in out
    assert f"#{head + 2} The Crows rolled blank" in out
    assert overrides(hildegard) == "[]"
    play(hildegard, "undo")                              # the re-roll back; the lock stands
    assert encounter(hildegard)["enemy_set"]["locked"] == [1]
    assert "rolls 1 die now" in refused(hildegard, "roll b b", code=2)   # the ring stays


# -- Spire's End: an effect an ally puts on itself (case 14) ------------------------------

def spires_quoted(*sentences: str) -> None:
    quoted("spires-end", *sentences)


def ally(spire: Spire, name: str) -> Any:
    return next(a for a in spire.json("status")["allies"] if a["name"] == name)


def foe(spire: Spire) -> Any:
    return spire.json("status")["fight"]["enemy"]


BO = ('draw Bo --hp 6 --ap 0 --bar "Pump; cost 1; 1-8: strength x1" '
      '--bar "Hit; cost 1; 4: 1; 5: 2; 6-8: 3" --bar "Hum; cost 1; 1-8: chant" '
      '--recoup "heal 6-8: 3"')
OGRE = 'fight Ogre --hp 9 --ap 0 --bar "Club; 1-8: 3" --recoup "heal 7-8: 1"'
NEXT_TURN = "If it's listed once it occurs the next turn."


def test_14_a_strength_an_ally_casts_on_itself_lasts_into_its_next_turn(spire: Spire) -> None:
    spires_quoted(NEXT_TURN)
    play(spire, "new t --game spires-end", BO, OGRE, "action Pump 3")
    out = play(spire, "upkeep")
    assert "Strength: over" not in out and "Strength on Bo: gained this turn, 1 turn left" in out
    play(spire, "enemy 1 5 --select 1", "upkeep")
    out = play(spire, "action Hit 4")
    assert "Hit, roll 4 (as 5): 2 damage to Ogre" in out
    assert foe(spire)["hp"] == 7
    assert "Strength on Bo: over" in play(spire, "upkeep")


def test_14_a_chant_an_ally_casts_on_itself_holds_through_the_enemy_s_turn(spire: Spire) -> None:
    spires_quoted(NEXT_TURN, "Chant: Take 0 DMG from all attacks")
    play(spire, "new t --game spires-end", BO, OGRE, "action Hum 2", "upkeep")
    out = play(spire, "enemy 1 5 --select 1")
    assert "Bo takes 0 damage (Chant)" in out and ally(spire, "Bo")["hp"] == 5


def test_14_a_boost_spent_after_the_action_is_not_wasted(spire: Spire) -> None:
    spires_quoted("Once you have the meter filled you can spend it for Strength (1 turn).")
    play(spire, "new t --game spires-end", BO, OGRE, "rest", "recoup heal 8")
    assert ally(spire, "Bo")["boost"] == 3
    play(spire, "boost", "upkeep", "enemy 1 5 --select 1", "upkeep")
    assert "Hit, roll 4 (as 5): 2 damage" in play(spire, "action Hit 4")


# -- Hildegard: a reward once per target card (case 8) ------------------------------------

def test_8_redo_on_a_target_already_defeated_pays_no_reward_again(hildegard: Spire) -> None:
    hildegard_quoted("D — Reward: This is awarded for defeating a Target.",
                     "| Redo | Retry a Target or Face-Off | x3 |")
    play(hildegard, "gain feats 3", 'target "Pesky Jackalope"', "roll c c", "wild bullseye")
    resources = hildegard.json("status")["resources"]
    assert (resources["gold"], resources["feats"]) == (1, 4)   # its reward and its bonus
    play(hildegard, "feat redo", "roll c c")
    out = play(hildegard, "wild bullseye")
    assert "its reward was paid already (once per target card)" in out
    resources = hildegard.json("status")["resources"]
    assert (resources["gold"], resources["feats"]) == (1, 1)   # neither paid again


def test_8_redo_on_a_face_off_won_pays_no_reward_again(hildegard: Spire) -> None:
    play(hildegard, 'card add "Rat" --enemy --limit 1 --accuracy 1 --parts c --reward "1 gold"',
         "gain feats 3", 'faceoff "Rat"', "roll c c b b", "stop", "wild miss")
    assert encounter(hildegard)["outcome"] == "won"
    assert hildegard.json("status")["resources"]["gold"] == 1
    play(hildegard, "feat redo", "roll c c b b", "stop", "wild miss")
    assert encounter(hildegard)["outcome"] == "won"
    assert hildegard.json("status")["resources"]["gold"] == 1


# -- Hildegard: Reset once the target is over (case 3) ------------------------------------

FEATS_DURING_A_SET = ("at your disposal to use anytime during your Set on a Target or "
                      "Face-Off.")


def test_3_reset_after_the_target_ended_is_refused(hildegard: Spire) -> None:
    hildegard_quoted(FEATS_DURING_A_SET, "| Reset | Add 1 additional Set on Target | x2 |")
    play(hildegard, "gain feats 2", 'target "Card Peddler"', "roll b b b", "stop", "wild miss")
    assert encounter(hildegard)["outcome"] == "miss"
    line = refused(hildegard, "feat reset")
    assert "Card Peddler is over (miss)" in line and "Feats of Marksmanship" in line


def test_3_a_forced_reset_reopens_the_target_for_its_extra_set(hildegard: Spire) -> None:
    play(hildegard, "gain feats 2", 'target "Card Peddler"', "roll b b b", "stop", "wild miss",
         "feat reset --force")
    assert "Reset is bought during a set" in overrides(hildegard)
    target = encounter(hildegard)
    assert (target["outcome"], target["sets_left"]) == (None, 1)
    play(hildegard, "roll r d b", "stop", "wild miss")
    target = encounter(hildegard)
    assert (target["outcome"], target["bullseyes"], target["next_card"]) == ("hit", 1, 27)
    assert hildegard.json("status")["resources"]["feats"] == 0


# -- Hildegard: a hit meter's Hit tab (case 4) --------------------------------------------

HIT_TAB_METER = ('card add "Tab Meter" --meter --accuracy 4 --squares "c,r:hit,d,d:hit,c,r"')


def test_4_a_square_with_a_hit_tab_when_hit_hits_the_next_square(hildegard: Spire) -> None:
    hildegard_quoted("When the square with a Status Effect Tab is Hit, the Status Effect "
                     "listed is triggered", "Hit: Instant Hit on Face-Off")
    play(hildegard, HIT_TAB_METER, 'faceoff "The Crows" --meter "Tab Meter"',
         "roll b b b b", "stop", "wild miss")
    play(hildegard, "roll c r b")                # 1; 2 and its tab: 3 at once
    assert encounter(hildegard)["squares"][:4] == ["hit", "hit", "hit", "empty"]
    play(hildegard, "roll d")                    # 4 and its tab: 5 at once
    assert encounter(hildegard)["squares"] == ["hit"] * 5 + ["empty"]


def test_4_an_instant_hit_on_a_hit_tab_square_hits_on(hildegard: Spire) -> None:
    play(hildegard, HIT_TAB_METER, 'faceoff "The Crows" --meter "Tab Meter"',
         "effect hit", "effect hit")
    assert encounter(hildegard)["squares"] == ["hit"] * 3 + ["empty"] * 3


# -- Spire's End: the rest meter at the end of a fight (case 16) --------------------------

def test_16_the_end_of_a_fight_leaves_the_rest_meter(spire: Spire) -> None:
    spires_quoted("The Rest Meter resets if you perform an Action, or after 3 Rests. Be "
                  "Warned! If you roll a 1, Rest fails and the meter is cleared.")
    play(spire, "new t --game spires-end", BO, OGRE, "rest", "recoup heal 3")
    assert ally(spire, "Bo")["rest"] == 1
    play(spire, "end")
    assert ally(spire, "Bo")["rest"] == 1
    play(spire, OGRE, "rest")
    assert ally(spire, "Bo")["rest"] == 2


# -- Spire's End: the recoup bar's Cleanse (case 18) --------------------------------------

MILLICENT = ('draw Millicent --hp 5 --ap 2 --bar "Back Hand" --recoup "Recoup Bar Example" '
             '--death "Death Bar Example"')
BLEEDING = ("new t --game spires-end", MILLICENT, OGRE, "effect bleed --on Millicent --turns 3",
            'action "Back Hand" 5')


def test_18_the_cleanse_comes_with_the_recoup_roll_s_result(spire: Spire) -> None:
    spires_quoted("Heal — Roll Numbers 4-6 → 1, 7 → 2, 8 → 3 — Cleanse (5-8, circled).",
                  "Example: You roll 6 — Remove 1 Status Effect")
    play(spire, *BLEEDING)
    out = play(spire, "recoup heal 6")
    assert "recoup roll 6: +1 HP to Millicent; Bleed cleansed from Millicent" in out
    millicent = ally(spire, "Millicent")
    assert (millicent["hp"], millicent["effects"]) == (5, [])


def test_18_a_heal_below_the_cleanse_range_cleanses_nothing(spire: Spire) -> None:
    play(spire, *BLEEDING)
    out = play(spire, "recoup heal 4")
    assert "recoup roll 4: +1 HP to Millicent" in out and "cleansed" not in out
    assert [e["name"] for e in ally(spire, "Millicent")["effects"]] == ["bleed"]


def test_18_a_cleanse_chosen_before_the_roll_is_an_override(spire: Spire) -> None:
    play(spire, *BLEEDING)
    line = refused(spire, "recoup cleanse 6")
    assert ("the Cleanse comes with the roll's result\n"
            "`spire recoup heal` rolls the bar, and cleanses") in line
    assert "Recoup Bar Example" in line
    out = play(spire, "recoup cleanse 6 --force")
    assert "recoup roll 6: Bleed cleansed from Millicent" in out
    assert ally(spire, "Millicent")["hp"] == 4                 # the other reading: no heal
    assert "the Cleanse comes with the roll" in overrides(spire)


# -- Hildegard: effects waiting for the next set (case 7) ---------------------------------

TAB_NEXT_SET = ("When the square with a Status Effect Tab is Hit, the Status Effect listed is "
                "triggered on Hildegard's next Set.")


def test_7_status_shows_the_effects_waiting_for_the_next_set(hildegard: Spire) -> None:
    hildegard_quoted("Flub: Minus 1 Shot Dice on next Set", "Tame: No Wild Shot on next Set")
    out = play(hildegard, "effect flub", "effect tame")
    assert "next set: Flub -1 die, Tame (no wild shot)" in out
    assert "next set: Flub -1 die, Tame (no wild shot)" in play(hildegard, "status")
    out = play(hildegard, 'target "Card Peddler"')
    assert ("Card Peddler: 0 of 1 bullseye | 0 sets done, 1 left | next set: Flub -1 die, "
            "Tame (no wild shot)") in out
    out = play(hildegard, "roll r d")
    assert "next set" not in out


def test_7_a_face_off_s_effects_end_with_the_face_off(hildegard: Spire) -> None:
    hildegard_quoted(TAB_NEXT_SET)
    play(hildegard, 'card add "Flub Meter" --meter --accuracy 4 --squares "c:flub,c"',
         'faceoff "The Crows" --meter "Flub Meter"', "roll b b b b", "stop", "wild miss",
         "roll c b b")
    assert "next set: Flub -1 die" in play(hildegard, "status")
    play(hildegard, "end")                            # the face-off is abandoned: lost
    assert "next set" not in play(hildegard, "status")
    play(hildegard, 'target "Card Peddler"', "roll b b b")   # all three dice


# -- Spire's End: the enemy's turn (case 17) ----------------------------------------------

ENEMY_FLOW = "Enemy: Selection Roll → Action → Recoup → Upkeep"


def enemy_up(spire: Spire) -> None:
    play(spire, "new t --game spires-end", BO, OGRE, 'action Hit 2', "upkeep")


def test_17_the_enemy_does_not_rest(spire: Spire) -> None:
    spires_quoted(ENEMY_FLOW, "If you skip your Action you can elect to Rest.")
    enemy_up(spire)
    line = refused(spire, "rest")
    assert "Ogre does not rest" in line and "Enemy Combat" in line
    play(spire, "rest --force")
    assert "Ogre does not rest" in overrides(spire)


def test_17_the_enemy_does_not_skip_its_action(spire: Spire) -> None:
    spires_quoted(ENEMY_FLOW)
    enemy_up(spire)
    assert "Ogre's action comes first" in refused(spire, "upkeep")
    assert "Ogre's action comes first" in refused(spire, "recoup heal 8")
    play(spire, "enemy 1 5 --select 1", "recoup heal 8", "upkeep")


def test_17_a_stunned_enemy_skips_its_action(spire: Spire) -> None:
    spires_quoted("Stun: No action next turn (can still perform recoup or rest)")
    enemy_up(spire)
    play(spire, "effect stun --on Ogre")
    line = refused(spire, "enemy 1 5 --select 3")
    assert "Ogre is stunned: no action this turn" in line
    assert "Stun on Ogre: over" in play(spire, "upkeep")  # its turn passes without one


# -- Spire's End: instruction cards never leave (case 15) ---------------------------------

@pytest.mark.parametrize("card", [6, 11, 12])
def test_15_an_instruction_card_is_not_removed_by_a_reveal_past_it(spire: Spire,
                                                                   card: int) -> None:
    spires_quoted("Pull Instruction Card 11 to consult this glossary during combat.",
                  "(See Status Effects on Instruction Card 6).",
                  "you can use the Status Effects Tracker (Card 12)")
    play(spire, "new t --game spires-end --quick-start", "reveal 20")
    removed = spire.json("status")["removed"]
    assert card not in removed and 13 in removed
    play(spire, f"pull {card}", "return")


# -- Hildegard: feats in the enemy's set (case 5) -----------------------------------------

def test_5_the_block_feat_is_not_bought_in_the_enemy_s_set(hildegard: Spire) -> None:
    hildegard_quoted(FEATS_DURING_A_SET, "| Block | Add 1 Block to Hit Meter** | x1 |")
    play(hildegard, "gain feats 2", 'faceoff "The Crows"', "roll c b b b", "stop", "wild miss",
         "feat block --square 1", "roll c b b")    # bought in her set; the Crows clear it
    assert encounter(hildegard)["squares"][0] == "empty"
    line = refused(hildegard, "feat block --square 1")
    assert "block is spent during your own set, not during the enemy's" in line
    assert "Feats of Marksmanship" in line
    play(hildegard, "feat block --square 1 --force")
    assert "not during the enemy's" in overrides(hildegard)


# -- Hildegard: what a refusal says (case 11) ---------------------------------------------

def test_11_a_roll_with_every_die_locked_is_a_rule_not_bad_input(hildegard: Spire) -> None:
    hildegard_quoted("The rest can be re-rolled until you are out of Shot Dice to Finesse.")
    play(hildegard, 'target "Card Peddler"', "roll r d b", "lock 1 2 3")
    line = refused(hildegard, "roll b")
    assert "every die is locked in" in line and "Finesse the Shot" in line
    play(hildegard, "roll c --force")               # the table re-rolls the last die
    shot = encounter(hildegard)["set"]
    assert (shot["dice"], shot["locked"]) == (["ring", "dot", "crescent"], [1, 2])
    assert "every die is locked in" in overrides(hildegard)


ENDED = [
    ('target "Card Peddler"', ("roll r d b", "stop", "wild miss"),
     "Card Peddler is over (hit): reveal card 27 next"),
    ('faceoff "Rat"', ("roll c c b b", "stop", "wild miss"), "the face-off is over (won)"),
]


@pytest.mark.parametrize("start, shots, outcome", ENDED)
@pytest.mark.parametrize("command", ["roll d d", "roll d d d d", "lock 1", "wild bullseye",
                                     "stop"])
def test_11_after_an_encounter_ends_each_command_says_it_is_over(
        hildegard: Spire, start: str, shots: tuple[str, ...], outcome: str, command: str) -> None:
    hildegard_quoted("This Target Card encounter is over.")
    play(hildegard, 'card add Rat --enemy --limit 1 --accuracy 1 --parts c', start, *shots)
    line = refused(hildegard, command)
    assert outcome in line and "Targets/Encounters" in line


# -- Hildegard: "unless stated otherwise" (case 12) ---------------------------------------

FIRST = "Hildegard (and Hallveig in 2 Player Games) always attack first unless stated otherwise."


def test_12_the_enemy_goes_first_when_forced(hildegard: Spire) -> None:
    hildegard_quoted(FIRST)
    line = refused(hildegard, 'faceoff "The Crows" --enemy-first')
    assert "attack first unless a card says otherwise" in line and "Face-Offs" in line
    play(hildegard, 'faceoff "The Crows" --enemy-first --force')
    assert encounter(hildegard)["turn"] == "enemy"
    out = play(hildegard, "roll c c r")                   # the Crows' 3 dice
    assert "meter XXX...." in out
    assert encounter(hildegard)["turn"] == "players"
    play(hildegard, "roll b b b b")                       # then Hildegard's 4


def test_12_the_other_player_shoots_a_target_when_forced(sisters: Spire) -> None:
    quoted("hildegard", "decide between you which player will handle it.")
    play(sisters, 'target "Card Peddler"')
    line = refused(sisters, "roll r d c --player 2")
    assert "Hildegard handles Card Peddler, not Hallveig" in line
    assert "Two Player Overview" in line
    play(sisters, "roll r d c --player 2 --force", "stop --player 2 --force",
         "wild miss --player 2 --force")
    target = encounter(sisters)
    assert (target["outcome"], target["set"]["roller"]) == ("hit", "Hallveig")
    assert "Hildegard handles Card Peddler, not Hallveig" in overrides(sisters)


# -- the audit: old journals judged by the rules as they are now --------------------------

def recorded_by_old_rules(spire: Spire, type_: str, payload: dict[str, Any]) -> int:
    """Append, correctly chained, an event the old rules accepted (as an old journal holds
    it; the new rules refuse its command); its position."""
    with sqlite3.connect(spire.db) as conn:
        branch_id, head, head_hash = conn.execute(
            "SELECT id, head_position, head_hash FROM branches WHERE name = 'main'").fetchone()
        raw = chain.RawEvent(head + 1, type_, ev.current_version(type_), payload,
                             "2026-11-01T12:00:00+00:00", None, None, head_hash, "")
        digest = chain.link(head_hash, raw.encoded())
        row = {**raw.to_row(), "hash": digest, "branch_id": branch_id}
        conn.execute(f"INSERT INTO events ({', '.join(row)}) VALUES "
                     f"({', '.join('?' * len(row))})", tuple(row.values()))
        conn.execute("UPDATE branches SET head_position = ?, head_hash = ? WHERE id = ?",
                     (head + 1, digest, branch_id))
    return int(head) + 1


OLD_STEPS = [
    # case 1: assign credited bullseyes nobody rolled
    (("new g --game hildegard", *TWO_CROWS, "roll b b b b", "stop", "wild miss"),
     "bullseyes-assigned", {"shooter": "Hildegard", "enemy": "Crow B", "bullseyes": 4},
     "at most 0 bullseyes on Crow B", "Face-Off Scenario"),
    # case 5: a Block feat bought in the middle of the enemy's set
    (("new g --game hildegard", "gain feats 1", 'faceoff "The Crows"', "roll b b b b",
      "stop", "wild miss", "roll c b b"),
     "feat-used", {"feat": "block", "cost": 1, "shooter": "Hildegard", "square": 2},
     "not during the enemy's", "Feats of Marksmanship"),
    # case 17: the enemy rested
    (("new t --game spires-end", BO, OGRE, "action Hit 2", "upkeep"),
     "rested", {"actor": "Ogre"}, "Ogre does not rest", "Enemy Combat"),
    # case 18: a cleanse chosen before the recoup roll
    (("new t --game spires-end", MILLICENT, OGRE, "effect bleed --on Millicent --turns 3",
      'action "Back Hand" 5'),
     "recouped", {"actor": "Millicent", "kind": "cleanse", "roll": 6},
     "the Cleanse comes with the roll", "Recoup Bar Example"),
]


@pytest.mark.parametrize("setup, type_, payload, says, section", OLD_STEPS)
def test_the_audit_lists_a_step_the_old_rules_accepted_and_the_new_refuse(
        spire: Spire, setup: tuple[str, ...], type_: str, payload: dict[str, Any], says: str,
        section: str) -> None:
    play(spire, *setup)
    at = recorded_by_old_rules(spire, type_, payload)
    run = spire("audit", "--json")
    legality = [f for f in json.loads(run.out)["findings"] if f["kind"] == "legality"]
    assert run.code == 1
    assert [(f["seq"], f["section"]) for f in legality] == [(at, section)]
    assert says in legality[0]["message"]


# -- Hildegard: two players, two targets (case 6) -----------------------------------------

TWO_TARGETS = ("If both players are engaged with different Targets outside of a Face-Off "
               "(such as Fishing), each player will roll their own Wild Shot like they would "
               "in a 1 Player Game.")


def test_6_each_player_shoots_a_target_of_her_own(sisters: Spire) -> None:
    quoted("hildegard", TWO_TARGETS)
    play(sisters, 'target "Card Peddler"', 'target "Street Merchant" --player 2')
    status = sisters.json("status")
    assert status["encounter"]["card"]["name"] == "Street Merchant"
    assert [t["card"]["name"] for t in status["other_targets"]] == ["Card Peddler"]
    out = play(sisters, "roll c c b --player 2", "roll r d b --player 1")
    assert "Card Peddler: 0 of 1 bullseye" in out and "Street Merchant: 0 of 2" in out
    play(sisters, "stop --player 1", "wild miss --player 1")         # her own wild shot
    status = sisters.json("status")
    assert (status["encounter"]["card"]["name"], status["encounter"]["outcome"]) == (
        "Card Peddler", "hit")
    assert status["other_targets"][0]["outcome"] is None
    play(sisters, "stop --player 2", "wild bullseye --player 2")     # and hers
    hallveig = encounter(sisters)
    assert (hallveig["card"]["name"], hallveig["bullseyes"], hallveig["sets_done"]) == (
        "Street Merchant", 2, 1)
    assert "other_targets" not in sisters.json("status")   # Card Peddler is over


def test_6_end_says_whose_target(sisters: Spire) -> None:
    play(sisters, 'target "Card Peddler"', 'target "Street Merchant" --player 2',
         "end --player 1")
    status = sisters.json("status")
    assert status["encounter"]["card"]["name"] == "Card Peddler"
    assert status["encounter"]["outcome"] == "miss"
    assert status["other_targets"][0]["outcome"] is None


def test_6_a_second_target_of_the_same_player_is_refused(sisters: Spire) -> None:
    play(sisters, 'target Practice --limit 1 --accuracy 3 --sets 2 --parts c,r,d '
                  '--reward "1 gold"', "roll c c b", "stop", "wild miss")
    line = refused(sisters, 'target "Street Merchant"')
    assert "Practice is under way" in line
    play(sisters, 'target "Street Merchant" --force')     # Practice ends with its outcome
    assert sisters.json("status")["resources"]["gold"] == 1
    assert encounter(sisters)["card"]["name"] == "Street Merchant"


# -- Hildegard: the two-player set-up and Tag Team (case 9) -------------------------------

def test_9_a_two_player_campaign_pulls_hallveig_s_cards(sisters: Spire) -> None:
    quoted("hildegard", "Pull Cards 377 and 378. These are Hallveig's Character and Weapon "
           "Cards.")
    assert "pulled cards 377-378" in play(sisters, "log")
    status = sisters.json("status")
    assert (status["card"], status["pull_stack"]) == (None, [])
    play(sisters, "reveal 1")


@pytest.mark.parametrize("card, says", [
    (67, "Revealed card 67 (the 2 Player Supplemental Card)"),
    (373, "Revealed card 373 (the 2 Player Supplemental Card)"),
    (68, "Revealed card 68\n"),
])
def test_9_the_journal_says_which_version_was_revealed(sisters: Spire, card: int,
                                                       says: str) -> None:
    quoted("hildegard", "They swap out with Cards 67, 75, 117, 156 and 373.")
    assert says in play(sisters, f"reveal {card}")


def test_9_one_player_plays_the_cards_as_they_are(hildegard: Spire) -> None:
    assert "Supplemental" not in play(hildegard, "reveal 67")
    assert "pulled" not in play(hildegard, "log")


def test_9_tag_team_combines_the_two_players_sets(sisters: Spire) -> None:
    quoted("hildegard", "Player 1 and Player 2's Sets cannot be combined to create Bullseyes. "
           "Unless aided by the Tag Team Effect")
    play(sisters, 'faceoff "The Crows"', "roll c r b b --player 1", "stop --player 1",
         "roll c d b b --player 2", "stop --player 2")
    assert "this round: 0 bullseyes on The Crows" in play(sisters, "status")
    out = play(sisters, "effect tag-team")
    assert "this round: 2 bullseyes on The Crows" in out
    play(sisters, "wild miss --player 1", "roll b b b")
    assert encounter(sisters)["enemies"][0]["bullseyes"] == 2


def test_9_tag_team_is_a_two_player_face_off_s(hildegard: Spire) -> None:
    play(hildegard, 'faceoff "The Crows"')
    line = refused(hildegard, "effect tag-team")
    assert "Tag Team is Hallveig's, in a two-player game" in line
