"""Issue 31, Volume 2: where the third reading of the rulebook found spire's score
different (D1 and D2 in shared/reviews/rules-volume2.md).

Each test plays its case through the real CLI against a journal file and quotes the
rulebook sentence it follows (rulebooks/volume2-episode1.txt). A rule refusal exits 1 in
one line with the journal unmoved; `--force` records it as an override, and the audit
lists it.
"""

from __future__ import annotations

import shlex
from typing import Any

import pytest
from conftest import Spire, play, quoted

WADE = "Wade Slocum"


def says(*sentences: str) -> None:
    quoted("volume2-episode1", *sentences)


def overrides(spire: Spire) -> list[tuple[str, str]]:
    """The audit's overrides: (event type, what each broke)."""
    report = spire.json("audit")
    return [(o["type"], str(o)) for o in report["overrides"]]


def resources(spire: Spire) -> Any:
    return spire.json("status")["resources"]


@pytest.fixture
def v2(spire: Spire) -> Spire:
    play(spire, "new plains --game volume2", "card add Finnian --ally --recoup 1",
         'card add Dunstan --ally --hp 6 --ap 2 --combo "Double Shot: black white: 2 damage" '
         '--combo "Repair: ping: repair 1"',
         f'card add "{WADE}" --enemy --hp 8 --ap 2 --ferocity 1 --attacks 1 --retreat 2 --meat',
         "draw Dunstan")
    return spire


# -- D1: the deployment limit counts every deploy of the turn ------------------------------

LIMIT = "DEPLOYMENT LIMIT: You may deploy up to 4 Bees/Pollen per turn if a Hive is rolled."
HIVE_TO_DUNSTAN = ("gain bees 3", "gain pollen 3", f'fight "{WADE}" --with Dunstan',
                   "roll hive blank", "stop", "upkeep")
"""Finnian locks a hive and ends his turn: Dunstan's turn, the hive active, before his roll."""


def test_d1_deploys_before_the_ally_s_first_roll_count_on_its_turn(v2: Spire) -> None:
    says(LIMIT)
    play(v2, *HIVE_TO_DUNSTAN, "deploy pollen 4 --on Finnian", "roll black white", "stop",
         'action "Double Shot"')
    line = v2.refused("deploy", "bee", "4", code=1)
    assert "at most 4 bees and pollen a turn; 4 deployed already" in line
    assert "Finnian/Hive Overview & Actions" in line
    out = play(v2, "deploy bee 4 --force")
    assert "sting: 4 damage" in out
    assert v2.json("status")["encounter"]["dice"]["deployed"] == 8
    assert [t for t, _ in overrides(v2)] == ["hive-deployed"]


def test_d1_deploys_before_the_roll_count_as_after_it(v2: Spire) -> None:
    """The same four deploys, before or after the roll: refused alike."""
    says(LIMIT)
    play(v2, *HIVE_TO_DUNSTAN, "deploy pollen 2 --on Finnian", "deploy pollen 1 --on Finnian",
         "gain pollen 3")
    assert "3 deployed already" in v2.refused("deploy", "pollen", "2", "--on", "Finnian",
                                              code=1)
    play(v2, "roll black white")
    assert v2.json("status")["encounter"]["dice"]["deployed"] == 3
    assert "3 deployed already" in v2.refused("deploy", "pollen", "2", "--on", "Finnian",
                                              code=1)
    play(v2, "deploy pollen 1 --on Finnian")
    assert v2.json("status")["encounter"]["dice"]["deployed"] == 4


def test_d1_each_turn_has_its_own_four(v2: Spire) -> None:
    says(LIMIT, "HIVE DEPLOYMENT: You only need 1 Hive to deploy up to 4 Bees and/or Pollen.")
    play(v2, "gain bees 3", "gain pollen 3", f'fight "{WADE}" --with Dunstan',
         "roll hive blank", "stop", "deploy pollen 3", "upkeep", "gain pollen 3")
    out = play(v2, "deploy pollen 2 --on Finnian")   # Dunstan's turn: his own four
    assert "Deployed 2 pollen" in out


def test_d1_a_turn_passed_leaves_its_deploys_behind(v2: Spire) -> None:
    says(LIMIT)
    play(v2, "card add Imrie --ally --hp 4 --ap 1 --recoup 2 --dice shot "
         '--combo "Bullseye: half circle: 3 damage"', "draw Imrie", "gain pollen 3",
         f'fight "{WADE}" --with Dunstan --with Imrie', "roll hive blank", "stop", "upkeep",
         "deploy pollen 4 --on Finnian", "upkeep", "gain pollen 2")
    assert "Deployed 2 pollen" in play(v2, "deploy pollen 2 --on Finnian")   # Imrie's turn


# -- D2: after the game is over ------------------------------------------------------------

GAME_OVER = "If all Allies in play are KO'd, the game ends immediately."
KO_DEATHS = "If all 3 active Allies are Knocked Out, the game is over."
LOST = (f'fight "{WADE}"', "roll blank blank blank blank", "upkeep", "enemy 19")
"""Finnian alone spends 4 HP, and Wade's 19 + 1 deals 5: every ally in play is KO'd."""


@pytest.mark.parametrize("command", [
    "reveal 5",
    "pull 7",
    "gain bees 2",
    "spend meat 1",
    "trade Knife --meat 1",
    "item gain Rope",
    "episode end",
    "chapter 1",
    "draw Dunstan",
])
def test_d2_after_the_game_is_over_play_is_refused(spire: Spire, command: str) -> None:
    says(GAME_OVER, KO_DEATHS)
    play(spire, "new plains --game volume2", "card add Finnian --ally --recoup 1",
         "card add Dunstan --ally --hp 6 --ap 2",
         f'card add "{WADE}" --enemy --hp 8 --ap 2 --ferocity 1 --attacks 1 --retreat 2 --meat',
         "gain meat 1", *LOST)
    assert spire.json("status")["game_over"]
    line = spire.refused(*shlex.split(command), code=1)
    assert "the game is over" in line and "KOs and Deaths" in line and "--force" in line
    play(spire, f"{command} --force")
    assert len(overrides(spire)) == 1


def test_d2_bees_gained_after_the_ko_carry_over_only_when_forced(v2: Spire,
                                                               tmp_path: Any) -> None:
    says(GAME_OVER, "If Finnian is Knocked Out, all Bees and Pollen are lost.")
    play(v2, *LOST)
    assert resources(v2)["bees"] == 0
    assert "the game is over" in v2.refused("gain", "bees", "2", code=1)
    assert "the game is over" in v2.refused("episode", "end", code=1)
    assert resources(v2)["bees"] == 0
    play(v2, "gain bees 2 --force")
    assert [t for t, _ in overrides(v2)] == ["resource-gained"]


def test_d2_undo_and_rewind_still_play_on(v2: Spire) -> None:
    says(GAME_OVER)
    play(v2, "checkpoint before", *LOST)
    play(v2, "note the Sweetwater crossing was too much", "undo")
    play(v2, "rewind before")
    assert not v2.json("status")["game_over"]
    play(v2, "reveal 5")


# -- D3: a combination that deals damage and does something else -------------------------

COMBINATIONS = ("Each Ally has unique Actions triggered by specific dice results. Roll the "
                "right combinations to attack or activate special abilities.")
ARMOR = "AP soaks incoming damage before HP is touched."


def test_d3_damage_and_more_goes_through_ap_then_hp_and_keeps_the_rest(v2: Spire) -> None:
    says(COMBINATIONS, ARMOR, "Refer to each Ally's character card for full combination logic.")
    out = play(v2, 'card add Dunstan --ally --hp 6 --ap 2 '
               '--combo "Stun Shot: black white: 2 damage and stun"')
    assert "action Stun Shot: black + white: damage 2 and stun" in out
    play(v2, f'fight "{WADE}" --with Dunstan', "upkeep", "roll k w", "stop")
    out = play(v2, 'action "Stun Shot"')
    assert "2 damage to Wade Slocum (AP 2->0, HP 8->8)" in out
    assert "Stun Shot also: stun" in out
    enemy = v2.json("status")["encounter"]["enemies"][0]
    assert (enemy["hp"], enemy["ap"]) == (8, 0)


@pytest.mark.parametrize("effect", ["heal 2 and 3 damage", "2 damage, 1 more if stunned",
                                    "damage twice 2"])
def test_d3_a_combination_spire_cannot_read_is_refused_saying_what(v2: Spire,
                                                                  effect: str) -> None:
    says(COMBINATIONS)
    line = v2.refused("card", "add", "Dunstan", "--ally", "--combo",
                      f"Odd Shot: black white: {effect}", code=2)
    assert "Odd Shot" in line and "cannot read" in line


# -- D4: an enemy's rewards are received --------------------------------------------------

REWARDS = "C | REWARDS: Items received if this Enemy is defeated."
THIEF = ('card add Thief --enemy --hp 1 --ap 0 --ferocity 0 --attacks 1 --retreat never '
         '--table "10-20: 1" --reward "Rusty Key" --meat --pelt')


def items(spire: Spire) -> list[Any]:
    return [(i["name"], i["holder"]) for i in spire.json("status")["items"]]


def test_d4_a_defeated_enemy_s_reward_is_received_aside(v2: Spire) -> None:
    says(REWARDS)
    play(v2, THIEF, "fight Thief", "roll s", "stop")
    out = play(v2, "action sickles")
    assert "Thief is defeated (+1 meat, +1 pelt, Rusty Key set aside)" in out
    assert items(v2) == [("Rusty Key", None)]
    assert (resources(v2)["meat"], resources(v2)["pelts"]) == (1, 1)
    play(v2, "undo")
    assert items(v2) == []


def test_d4_a_sting_that_defeats_receives_the_rewards_too(v2: Spire) -> None:
    says(REWARDS)
    play(v2, 'card add Thief --enemy --hp 2 --ap 0 --ferocity 0 --attacks 1 --retreat never '
         '--table "10-20: 1" --reward "Rusty Key, Old Map"', "gain bees 1", "fight Thief",
         "roll s h", "stop", "action sickles")
    assert items(v2) == []
    play(v2, "deploy bee")
    assert items(v2) == [("Rusty Key", None), ("Old Map", None)]


def test_d4_an_enemy_that_retreats_gives_no_reward(v2: Spire) -> None:
    says(REWARDS)
    play(v2, 'card add Thief --enemy --hp 9 --ap 0 --ferocity 0 --attacks 1 --retreat 1 '
         '--table "10-20: 1" --reward "Rusty Key"', "fight Thief", "upkeep", "enemy 2")
    assert items(v2) == []


# -- D7: gear lost mid-encounter takes its raised limits with it --------------------------

GEAR = "Allies cannot exceed the HP Limit without additional gear."
COAT = ('item gain "Thick Coat" --to Finnian --raises hp+1 --raises ap+1',
        f'fight "{WADE}"', "roll s h p p p", "stop", "deploy pollen 4", "upkeep")
"""Finnian in the Thick Coat (HP 6, AP 4) heals back to 5 of 6 and ends his turn."""


def fighter(spire: Spire, name: str) -> Any:
    allies = spire.json("status")["encounter"]["allies"]
    return next(a for a in allies if a["name"] == name)


def character(spire: Spire, name: str) -> Any:
    return next(c for c in spire.json("status")["characters"] if c["name"] == name)


def limits(found: Any) -> tuple[int, int, int, int]:
    return found["hp"], found["hp_max"], found["ap"], found["ap_max"]


def test_d7_gear_lost_mid_encounter_lowers_its_holder_s_limits(v2: Spire) -> None:
    says(GEAR, "Allies cannot exceed the AP Limit without additional gear.",
         "You may not Recoup beyond an Ally's maximum HP or AP Limits")
    play(v2, *COAT)
    assert limits(fighter(v2, "Finnian")) == (5, 6, 4, 4)
    out = play(v2, 'item lose "Thick Coat" --from Finnian')
    assert "Ally Finnian: HP 5/5, AP 3/3" in out
    assert limits(fighter(v2, "Finnian")) == limits(character(v2, "Finnian")) == (5, 5, 3, 3)
    out = play(v2, "enemy 2")
    assert "HP 5->6" not in out
    assert limits(fighter(v2, "Finnian")) == (5, 5, 3, 3)


def test_d7_gear_passed_away_mid_encounter_lowers_the_giver_s_limits(v2: Spire) -> None:
    says(GEAR)
    play(v2, *COAT[:2], "roll s", "stop")
    play(v2, 'item pass "Thick Coat" --to Dunstan')
    assert limits(fighter(v2, "Finnian")) == (5, 5, 3, 3)


def test_d7_gear_gained_mid_encounter_and_lost_leaves_the_card_s_limits(v2: Spire) -> None:
    says(GEAR)
    play(v2, f'fight "{WADE}"', 'item gain Vest --to Finnian --raises hp+1',
         'item lose Vest --from Finnian')
    assert limits(fighter(v2, "Finnian")) == (5, 5, 3, 3)


# -- D8: a re-entered ally card ---------------------------------------------------------

def test_d8_a_re_entered_ally_card_keeps_its_combinations(v2: Spire) -> None:
    says("Refer to each Ally's character card for full combination logic.")
    out = play(v2, "card add Dunstan --ally --hp 8 --ap 3")
    assert "action Double Shot: black + white: damage 2" in out
    assert "action Repair: ping: repair 1" in out


def test_d8_the_encounter_the_reset_and_the_status_read_one_card(v2: Spire) -> None:
    says("At the end of an Encounter, all Allies restore their HP and AP to their Limit.")
    play(v2, "card add Dunstan --ally --hp 8 --ap 3", f'fight "{WADE}" --with Dunstan')
    assert limits(fighter(v2, "Dunstan")) == limits(character(v2, "Dunstan")) == (8, 8, 3, 3)
    play(v2, "end")
    assert limits(character(v2, "Dunstan")) == (8, 8, 3, 3)


# -- D9: a target roll between the allies in question -----------------------------------

QUESTION = ("If a discrepancy arises and it is unclear which Ally an Enemy should attack due "
            "to an ability or special rule, resolve it with a Target Roll between the Allies "
            "in question.")


def test_d9_a_target_roll_between_the_allies_in_question_outside_the_enemies_turn(
        v2: Spire) -> None:
    says(QUESTION)
    play(v2, f'fight "{WADE}" --with Dunstan')
    out = play(v2, "target-roll 5 9 --between Finnian --between Dunstan")
    assert "Target roll between Finnian and Dunstan: Finnian 5, Dunstan 9; Dunstan" in out
    assert overrides(v2) == []
    assert "Finnian's turn" in out   # the allies' turn goes on
    line = v2.refused("target-roll", "5", "--between", "Finnian", code=2)
    assert "between" in line


# -- messages found on the way ------------------------------------------------------------

def test_pollen_before_the_roll_heals_the_ally_whose_turn_it_is(v2: Spire) -> None:
    says("HEAL: Deploy a Pollen to restore +1 HP to an Ally.")
    play(v2, "gain pollen 2", f'fight "{WADE}" --with Dunstan', "roll hive blank blank",
         "stop", "upkeep", "roll black white")       # Dunstan's turn: 2 HP spent (6->4)
    out = play(v2, "deploy pollen")
    assert "Dunstan heals 1 HP (HP 4->5)" in out


def test_pollen_that_heals_nothing_says_so(v2: Spire) -> None:
    """A pollen heals "+1 HP" up to the ally's limit: one spent on an ally at the limit is
    recorded (the table may mean it) and said, with the way back."""
    says("HEAL: Deploy a Pollen to restore +1 HP to an Ally.",
         "At the end of an Encounter, all Allies restore their HP and AP to their Limit.")
    play(v2, "gain pollen 3", f'fight "{WADE}" --with Dunstan', "roll hive blank blank",
         "stop", "upkeep")                       # Dunstan's turn, before his roll: HP 6 of 6
    out = play(v2, "deploy pollen")
    assert ("Dunstan heals 0 HP (HP 6->6); 1 HP past the limit is lost "
            "(`spire undo` takes it back)") in out
    play(v2, "undo", "roll black white")         # HP 4 of 6
    out = play(v2, "deploy pollen 1")
    assert "Dunstan heals 1 HP (HP 4->5)" in out and "past the limit" not in out
    out = play(v2, "deploy pollen 2")            # one heals, the other meets the limit
    assert "Dunstan heals 1 HP (HP 5->6); 1 HP past the limit is lost" in out


def test_b_on_the_hive_die_is_bee_or_blank_so_it_is_asked(v2: Spire) -> None:
    """"The Hive Dice have five faces: Sickle x 2, Bee, Pollen, Hive, and Blank.": two start
    with b. `s b h`, meant as sickle bee hive, would record a blank; it is asked instead."""
    says("The Hive Dice have five faces: Sickle x 2, Bee, Pollen, Hive, and Blank.")
    play(v2, f'fight "{WADE}" --with Dunstan')
    line = v2.refused("roll", "s", "b", "h", code=2)
    assert "'b' on the hive die could be bee or blank: type e (bee) or blank" in line
    out = play(v2, "roll s e blank")
    assert "Finnian rolled sickle, bee, blank" in out


def test_a_face_of_the_other_die_says_whose_dice_roll(v2: Spire) -> None:
    says("Allies use Shot Dice instead of Hive Dice.")
    play(v2, f'fight "{WADE}" --with Dunstan', "roll hive blank", "stop", "upkeep")
    line = v2.refused("roll", "s", "s", code=2)
    assert "unknown shot die face 's' (Dunstan rolls shot dice)" in line
