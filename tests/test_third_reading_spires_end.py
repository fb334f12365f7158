"""Issue 31, Spire's End: where the third reading of the rulebook found spire's score
different (N3, N4, N7 and the enemy named like an ally, in
shared/reviews/rules-hildegard-se.md).

Each test plays its case through the real CLI against a journal file and quotes the
rulebook sentence it follows (rulebooks/spires-end.txt). A refusal leaves the journal
unmoved, in one line on stderr.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import Spire, play, quoted


def says(*sentences: str) -> None:
    quoted("spires-end", *sentences)


def ally(spire: Spire, name: str) -> Any:
    return next(a for a in spire.json("status")["allies"] if a["name"] == name)


def ogre_hp(spire: Spire) -> int:
    return int(spire.json("status")["fight"]["enemy"]["hp"])


NEW = "new t --game spires-end"
ANN = ('draw Ann --hp 8 --ap 0 --bar "Hit; cost 1; 1-4: 1; 5-8: 2" '
       '--bar "Pump; cost 1; 1-8: strength x1" --recoup "Recoup Bar Example"')
OGRE = 'fight Ogre --hp 30 --ap 0 --bar "Smash; 1-8: 1" --recoup "heal 8: 1"'
ROUND_ENDS = ("enemy 1 1 --select 1", "upkeep")
"""The Ogre's turn after Ann's upkeep: Smash on Ann (1 damage), no recoup."""


# -- N3: one turn of Strength is one action ----------------------------------------------

STRENGTH_ONE_TURN = "Once you have the meter filled you can spend it for Strength (1 turn)."
CLOCKS = "This tells you how many subsequent turns the effect lasts."


def test_n3_a_boost_spent_before_the_action_strengthens_that_action_only(spire: Spire) -> None:
    says(STRENGTH_ONE_TURN, CLOCKS)
    play(spire, NEW, ANN, OGRE, "rest", "recoup heal 8", "upkeep", *ROUND_ENDS)
    assert ally(spire, "Ann")["boost"] == 3
    play(spire, "boost")
    assert "Hit, roll 4 (as 5): 2 damage to Ogre" in play(spire, "action Hit 4")
    out = play(spire, "upkeep")
    assert "Strength on Ann: over" in out and "gained this turn" not in out
    assert ally(spire, "Ann")["effects"] == []
    play(spire, *ROUND_ENDS)
    assert "Hit, roll 4: 1 damage to Ogre" in play(spire, "action Hit 4")
    assert ogre_hp(spire) == 30 - 2 - 1


def test_n3_a_self_cast_strength_spent_by_a_surge_action_is_over(spire: Spire) -> None:
    says(STRENGTH_ONE_TURN, "Surge: Additional 1 Action")
    play(spire, NEW, ANN, OGRE, "effect surge --on Ann --turns 1", "action Pump 2")
    assert "Hit, roll 4 (as 5): 2 damage to Ogre" in play(spire, "action Hit 4")
    assert "Strength on Ann: over" in play(spire, "upkeep")
    play(spire, *ROUND_ENDS)
    assert "Hit, roll 4: 1 damage to Ogre" in play(spire, "action Hit 4")


def test_n3_a_strength_cast_by_the_last_action_still_waits_for_the_next_turn(
        spire: Spire) -> None:
    """The other side of N3 (issue 14's reading): a Strength the turn's action gains,
    and no action of that turn uses, is the next turn's."""
    says(STRENGTH_ONE_TURN, "If it's listed once it occurs the next turn.")
    play(spire, NEW, ANN, OGRE, "action Pump 2")
    assert "Strength on Ann: gained this turn, 1 turn left" in play(spire, "upkeep")
    play(spire, *ROUND_ENDS)
    assert "Hit, roll 4 (as 5): 2 damage to Ogre" in play(spire, "action Hit 4")
    assert "Strength on Ann: over" in play(spire, "upkeep")


# -- N4: an Encore re-roll is owed after a miss ------------------------------------------

ENCORE = "Encore: If an action misses, roll again"
JAB = 'draw Ann --hp 9 --ap 0 --bar "Jab; cost 1; 5-8: 1"'


def test_n4_a_missed_roll_typed_alone_says_the_encore_re_roll_is_owed(spire: Spire) -> None:
    says(ENCORE)
    play(spire, NEW, JAB, OGRE, "effect encore --on Ann --turns 1")
    line = spire.refused("action", "Jab", "2", code=2)
    assert "roll 2 misses" in line and "Encore rolls again" in line
    assert "spire action Jab 2 N" in line
    assert "Jab, roll 6: 1 damage to Ogre" in play(spire, "action Jab 2 6")
    assert ogre_hp(spire) == 29 and ally(spire, "Ann")["hp"] == 8


def test_n4_a_hit_needs_no_encore_re_roll(spire: Spire) -> None:
    says(ENCORE)
    play(spire, NEW, JAB, OGRE, "effect encore --on Ann --turns 1")
    assert "Jab, roll 6: 1 damage to Ogre" in play(spire, "action Jab 6")
    assert ogre_hp(spire) == 29


def test_n4_luck_and_encore_refuse_too_few_dice_alike(spire: Spire) -> None:
    says(ENCORE, "Luck: On an action, roll twice / Pick best roll")
    play(spire, NEW, JAB, OGRE, "effect luck --on Ann --turns 1")
    luck = spire.refused("action", "Jab", "2", code=2)
    assert "Jab rolls 2 d8 now (Luck rolls one more); 1 given" in luck
    play(spire, "effect encore --on Ann --turns 1")
    line = spire.refused("action", "Jab", "2", "3", code=2)  # Luck's best, 3, misses
    assert "roll 3 misses" in line and "Encore rolls again" in line
    assert "spire action Jab 2 3 N" in line
    assert "Jab, roll 7: 1 damage to Ogre" in play(spire, "action Jab 2 3 7")


def test_n4_the_enemy_s_encore_is_owed_too(spire: Spire) -> None:
    says(ENCORE, "Recoup & Status Effects are performed the same as they are for Allies.")
    play(spire, NEW, JAB, 'fight Ogre --hp 30 --ap 0 --bar "Smash; 5-8: 2"', "action Jab 6",
         "upkeep", "effect encore --on Ogre --turns 1")
    line = spire.refused("enemy", "1", "3", "--select", "1", code=2)
    assert "roll 3 misses" in line and "Encore rolls again" in line
    play(spire, "enemy 1 3 6 --select 1")
    assert ally(spire, "Ann")["hp"] == 9 - 1 - 2


# -- N7: a turn with neither rest nor action ends the consecutive rests -------------------

CONSECUTIVE = ("Rest will add +1 HP (first turn), +2 HP (second turn), +3 HP (third turn) to "
               "your Recoup/Heal result. Keep track of your consecutive Rest count with the "
               "Rest Meter")
RULING = "a turn without a rest breaks the run"


@pytest.mark.parametrize("between", [
    ("upkeep",),                        # the turn passed: no action, no rest
    ("recoup heal 3", "upkeep"),        # a recoup alone is no rest
])
def test_n7_a_turn_without_a_rest_starts_the_rests_again(
        spire: Spire, between: tuple[str, ...]) -> None:
    says(CONSECUTIVE)
    play(spire, NEW, ANN, OGRE, "rest", "upkeep", *ROUND_ENDS)
    assert ally(spire, "Ann")["rest"] == 1
    out = play(spire, *between)
    assert "Ann did not rest: the rest meter is cleared" in out
    assert ally(spire, "Ann")["rest"] == 0
    play(spire, *ROUND_ENDS)
    assert "Ann rests (rest meter 1/3: +1 on a heal)" in play(spire, "rest")


def test_n7_rests_on_consecutive_turns_count_up(spire: Spire) -> None:
    says(CONSECUTIVE)
    play(spire, NEW, ANN, OGRE, "rest", "upkeep", *ROUND_ENDS)
    assert "rest meter 2/3: +2 on a heal" in play(spire, "rest")


def test_n7_the_reading_is_written_in_the_docs() -> None:
    docs = Path(__file__).resolve().parents[1] / "docs" / "spires-end.md"
    text = " ".join(docs.read_text(encoding="utf-8").split())
    assert RULING in text and "nothing else clears it" not in text


# -- item 10: an enemy named like an ally ------------------------------------------------

TWO_ALLIES = "These are your starting Allies. You can only use two Allies at a time."


@pytest.mark.parametrize("name", ["Ann", "ann"])
def test_10_an_enemy_named_like_an_ally_is_refused_with_a_hint(spire: Spire, name: str) -> None:
    says(TWO_ALLIES, "Proceed with this attack like you would an Ally's attack")
    play(spire, NEW, ANN)
    line = spire.refused("fight", name, "--hp", "5", "--ap", "0", "--bar", "Smash; 1-8: 1",
                         code=2)
    assert "Ann is Ally 1" in line and "another name" in line
    play(spire, 'fight "Ann the Shade" --hp 5 --ap 0 --bar "Smash; 1-8: 1"', "action Hit 5")
    assert ally(spire, "Ann")["hp"] == 7
    assert spire.json("status")["fight"]["enemy"]["hp"] == 3


def test_10_an_ally_named_like_the_enemy_is_refused_with_a_hint(spire: Spire) -> None:
    says(TWO_ALLIES)
    play(spire, NEW, ANN, OGRE)
    line = spire.refused("draw", "Ogre", "--hp", "4", "--ap", "0", code=2)
    assert "Ogre is the enemy" in line and "another name" in line
    assert [a["name"] for a in spire.json("status")["allies"]] == ["Ann"]


def test_10_a_dead_ally_s_name_is_not_an_enemy_s(spire: Spire) -> None:
    says("When an Ally comes to their dramatic end, they will trigger a Death Move before "
         "you discard them.")
    play(spire, NEW, 'draw Bo --hp 1 --ap 0 --bar "Hit; cost 1; 1-8: 1"', ANN, OGRE,
         "action Hit 5", "death", "end")
    line = spire.refused("fight", "Bo", "--hp", "3", "--ap", "0", code=2)
    assert "Bo is Ally 1" in line and "another name" in line
