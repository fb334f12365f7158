"""Volume 2, Episode 1: an encounter through the real CLI, rule by rule, quoting the
rulebook (rulebooks/volume2-episode1.txt). Numbers the rulebook does not print (Dunstan's
HP and AP, Finnian's Recoup, Wade Slocum's HP, AP, ferocity, attacks and retreat) are
entered as a table would enter them from its cards."""

from __future__ import annotations

import json
import shlex
from typing import Any

import pytest
from conftest import Spire, quoted

BOOK = "volume2-episode1"
WADE = "Wade Slocum"


def says(*sentences: str) -> None:
    """The Volume 2 rulebook prints each sentence (quoted in the test that checks its rule)."""
    quoted(BOOK, *sentences)


@pytest.fixture
def v2(spire: Spire) -> Spire:
    spire.ok("new", "plains", "--game", "volume2")
    spire.ok("card", "add", "Finnian", "--ally", "--recoup", "1")
    spire.ok("card", "add", "Dunstan", "--ally", "--hp", "6", "--ap", "2",
             "--combo", "Double Shot: black white: 2 damage", "--combo", "Repair: ping: repair 1")
    spire.ok("card", "add", WADE, "--enemy", "--hp", "8", "--ap", "2", "--ferocity", "1",
             "--attacks", "1", "--retreat", "3", "--meat")
    spire.ok("draw", "Dunstan")
    return spire


def encounter(spire: Spire) -> Any:
    return spire.json("status")["encounter"]


def ally(spire: Spire, name: str) -> Any:
    return next(a for a in encounter(spire)["allies"] if a["name"] == name)


def enemy(spire: Spire, name: str = WADE) -> Any:
    return next(e for e in encounter(spire)["enemies"] if e["name"] == name)


def resources(spire: Spire) -> Any:
    return spire.json("status")["resources"]


def fight(spire: Spire, *more: str) -> None:
    spire.ok("fight", WADE, "--with", "Dunstan", *more)


def finnian_rolls(spire: Spire, *faces: str) -> None:
    spire.ok("roll", *faces)
    spire.ok("stop")


def to_enemies(spire: Spire) -> None:
    """End every ally's turn still to come this round."""
    while encounter(spire)["phase"] == "allies":
        spire.ok("upkeep")


# -- the shipped cards -------------------------------------------------------------------

def test_only_what_the_rulebook_prints_ships(spire: Spire) -> None:
    says("Finnian has 5 Hit Points (HP) and 3 Armor Points (AP).",
         "As shown, Dunstan has a Recoup of 4.")
    spire.ok("new", "plains", "--game", "volume2")
    listed = {c["name"]: c for c in spire.json("card", "list")}
    assert (listed["Finnian"]["hp"], listed["Finnian"]["ap"], listed["Finnian"]["recoup"]) == \
        (5, 3, None)
    assert (listed["Dunstan"]["recoup"], listed["Dunstan"]["hp"]) == (4, None)
    line = spire.refused("fight", WADE, code=2)
    assert f"Finnian and {WADE} need numbers the rulebook does not print" in line
    assert "`spire card add Finnian --ally --recoup N`" in line


def test_a_fight_names_every_card_whose_numbers_are_missing_at_once(spire: Spire) -> None:
    """The README's `spire fight "Wade Slocum" --with Dunstan` in a new campaign: three
    cards lack numbers the rulebook does not print. One refusal names them all, and its
    hint, typed as it is with the numbers in, makes the fight go (it said one card a time)."""
    spire.ok("new", "plains", "--game", "volume2")
    reason, hint = spire.refused("fight", WADE, "--with", "Dunstan", code=2).split("\n")
    assert reason == (f"spire: Finnian, Dunstan and {WADE} need numbers the rulebook does "
                      "not print")
    commands = hint.removeprefix("enter them: ").split("; ")
    assert commands == [
        "`spire card add Finnian --ally --recoup N`",
        "`spire card add Dunstan --ally --hp N --ap N`",
        f'`spire card add "{WADE}" --enemy --hp N --ap N --ferocity N --attacks N --retreat N`']
    for command in commands:
        spire.ok(*shlex.split(command.strip("`").replace(" N", " 3"))[1:])
    refused = spire.refused("fight", WADE, "--with", "Dunstan", code=1)
    assert refused.startswith("spire: Dunstan has not joined the party (`spire draw Dunstan`)")
    spire.ok("draw", "Dunstan")
    assert spire.ok("fight", WADE, "--with", "Dunstan").startswith(
        f"#3 Encounter: Finnian, Dunstan against {WADE}")


def test_two_cards_of_one_name_missing_numbers_are_named_once(spire: Spire) -> None:
    """Two pawprints, two Boars of one card: one card to enter, named once."""
    spire.ok("new", "plains", "--game", "volume2")
    spire.ok("card", "add", "Finnian", "--ally", "--recoup", "1")
    spire.ok("card", "add", "Old Boar", "--enemy", "--hp", "3", "--ap", "0", "--attacks", "1")
    line = spire.refused("fight", "Old Boar", "Old Boar", code=2)
    assert line.startswith("spire: Old Boar's ferocity, retreat, table numbers are not entered")
    assert line.count("spire card add") == 1


def test_one_card_missing_numbers_is_named_with_its_command(spire: Spire) -> None:
    spire.ok("new", "plains", "--game", "volume2")
    spire.ok("card", "add", "Finnian", "--ally", "--recoup", "1")
    spire.ok("card", "add", "Old Boar", "--enemy", "--hp", "3", "--ap", "0", "--attacks", "1")
    line = spire.refused("fight", "Old Boar", code=2)
    assert line == ("spire: Old Boar's ferocity, retreat, table numbers are not entered\n"
                    "the rulebook does not print them: `spire card add \"Old Boar\" --enemy "
                    "--ferocity N --retreat N --table TABLE`")


def test_wade_slocums_table_as_printed(spire: Spire) -> None:
    says("Rolls of 5–15 deal 3 DMG", "Rolls of 16–19 deal 4 DMG", "Roll of 20 deals 5 DMG")
    spire.ok("new", "plains", "--game", "volume2")
    shown = spire.ok("card", "show", WADE)
    assert "damage table: 5-15: 3; 16-19: 4; 20: 5" in shown
    assert "QUICKDRAW on a natural 4 or lower" in shown


@pytest.mark.parametrize(("natural", "damage"), [
    (3, 0),    # 3 + 1 = 4: below the lowest row, a miss (our ruling)
    (4, 3),    # 5-15: 3
    (14, 3),
    (15, 4),   # 16-19: 4
    (18, 4),
    (19, 5),   # 20: 5
    (20, 5),   # 21: above the highest row uses that row (our ruling)
])
def test_d20_plus_ferocity_on_the_table(v2: Spire, natural: int, damage: int) -> None:
    says("ADD FEROCITY: Add the Enemy's Ferocity to each result.",
         "Add this number to each of the Enemy's D20 attack rolls (not to the damage result).")
    fight(v2)
    to_enemies(v2)
    v2.ok("target-roll", "20", "1")
    out = v2.ok("enemy", str(natural))
    dealt = f"{damage} damage to Finnian" if damage else "a miss"
    assert f"Wade Slocum rolls {natural} + 1 ferocity = {natural + 1}: {dealt}" in out


# -- Finnian's hive dice -------------------------------------------------------------------

def test_two_sickles_and_a_bee(v2: Spire) -> None:
    says("2 DMG (Sickles) + 1 DMG (Hive/Bee).",
         "Notice: Bees add damage to a successful attack; they do not deal damage on their own.")
    fight(v2)
    finnian_rolls(v2, "sickle", "sickle", "hive")
    v2.ok("action", "sickles")
    assert (enemy(v2)["ap"], enemy(v2)["hp"]) == (0, 8)
    v2.ok("deploy", "bee")
    assert (enemy(v2)["ap"], enemy(v2)["hp"]) == (0, 7)
    assert resources(v2)["bees"] == 0


def test_a_sickle_and_a_pollen(v2: Spire) -> None:
    says("1 DMG (Sickle) + 1 HEAL (Hive/Pollen).")
    fight(v2)
    finnian_rolls(v2, "s", "h", "blank")  # 3 HP spent: Finnian at 2
    v2.ok("action", "sickles")
    v2.ok("deploy", "pollen", "--on", "Finnian")
    assert (enemy(v2)["ap"], ally(v2, "Finnian")["hp"], resources(v2)["pollen"]) == (1, 3, 0)


def test_three_sickles_still_make_two(v2: Spire) -> None:
    says("1 DMG per Sickle (Max 2): Finnian wields two sickles; only two may count per attack.")
    fight(v2)
    finnian_rolls(v2, "sickle", "sickle", "sickle")
    out = v2.ok("action", "sickles")
    assert "2 damage to Wade Slocum" in out


def test_a_bee_with_no_successful_attack_deals_nothing(v2: Spire) -> None:
    says("Bees only augment successful attacks; they cannot deal damage on their own.")
    fight(v2)
    finnian_rolls(v2, "hive", "blank")
    line = v2.refused("deploy", "bee", code=1)
    assert "only augment successful attacks" in line
    out = v2.ok("deploy", "bee", "--force")
    assert "no successful attack to sting: 0 damage" in out
    assert (enemy(v2)["hp"], enemy(v2)["ap"]) == (8, 2)
    assert v2.json("status")["overrides"], "the forced sting is recorded as an override"


def test_no_sting_without_a_hive(v2: Spire) -> None:
    says("You only need 1 Hive to deploy up to 4 Bees and/or Pollen.")
    fight(v2)
    finnian_rolls(v2, "sickle", "sickle", "blank")
    v2.ok("action", "sickles")
    assert "no hive" in v2.refused("deploy", "bee", code=1)


def test_locked_bees_and_pollen_are_gained_up_to_four(v2: Spire) -> None:
    says("GAIN 1 BEE: Per locked roll.",
         "Finnian can hold up to 4 Bees and 4 Pollen at a time.",
         "Bees may come from your Hive inventory or locked rolls.")
    v2.ok("gain", "bees", "2")  # 3 bees
    fight(v2)
    v2.ok("roll", "bee", "bee", "hive", "sickle")
    out = v2.ok("lock", "1", "2")
    assert "+1 bees (4); the hive holds 4: 1 more may be deployed this turn, then lost" in out
    assert resources(v2)["bees"] == 4
    v2.ok("stop")
    v2.ok("action", "sickles")
    v2.ok("deploy", "bee", "2")  # the one on the dice first, then one from the hive
    assert (resources(v2)["bees"], enemy(v2)["ap"], enemy(v2)["hp"]) == (3, 0, 7)


def test_a_bee_the_full_hive_cannot_hold_is_lost_after_the_turn(v2: Spire) -> None:
    says("Finnian can hold up to 4 Bees and 4 Pollen at a time.")
    v2.ok("gain", "bees", "3")
    fight(v2)
    v2.ok("roll", "bee", "blank")
    out = v2.ok("upkeep")  # the dice stand as rolled: the bee is gained, but has no room
    assert "Lost 1 bees the full hive could not hold" in out
    assert resources(v2)["bees"] == 4


def test_the_dice_left_free_stand_at_upkeep(v2: Spire) -> None:
    says("Finessing is optional, but often necessary to complete the desired combinations.")
    fight(v2)
    v2.ok("roll", "bee", "pollen", "hive")
    v2.ok("upkeep")
    assert (resources(v2)["bees"], resources(v2)["pollen"]) == (2, 2)


def test_a_fifth_bee_is_refused(v2: Spire) -> None:
    v2.ok("gain", "bees", "3")
    assert "bees at most 4" in v2.refused("gain", "bees", "1", code=1)


def test_at_most_four_deployed_a_turn(v2: Spire) -> None:
    says("DEPLOYMENT LIMIT: You may deploy up to 4 Bees/Pollen per turn if a Hive is rolled.")
    v2.ok("gain", "bees", "3")
    v2.ok("gain", "pollen", "3")
    fight(v2)
    finnian_rolls(v2, "sickle", "hive")
    v2.ok("action", "sickles")
    v2.ok("deploy", "bee", "3")
    assert "at most 4 bees and pollen a turn" in v2.refused("deploy", "pollen", "2", code=1)


# -- an ally's turn ------------------------------------------------------------------------

def test_accuracy_is_hp_spent_and_one_hp_is_kept(v2: Spire) -> None:
    says("Accuracy equals the HP you spend this Turn. Spend 3 HP, roll 3 dice.",
         "you must keep at least 1 HP to stay alive.")
    fight(v2)
    assert "must keep 1: at most 4 dice, not 5" in v2.refused("roll", "--hp", "5", code=1)
    v2.ok("roll", "--hp", "4")
    assert ally(v2, "Finnian")["hp"] == 1
    assert len(encounter(v2)["dice"]["faces"]) == 4


def test_finesse_locks_one_more_before_each_reroll(v2: Spire) -> None:
    says("To Finesse, you must lock in at least 1 or more results. Then, re-roll the "
         "remaining dice.")
    fight(v2)
    v2.ok("roll", "sickle", "blank", "blank")
    assert "lock at least 1 more die" in v2.refused("roll", "s", "s", "s", code=1)
    v2.ok("lock", "1")
    v2.ok("roll", "sickle", "blank")
    assert encounter(v2)["dice"]["faces"] == ["sickle", "sickle", "blank"]
    assert ally(v2, "Finnian")["hp"] == 2, "a re-roll spends no HP"
    assert "lock at least 1 more die" in v2.refused("roll", "s", "s", code=1)


def _dice_line(out: str) -> str:
    return next(line for line in out.splitlines() if "'s dice (" in line)


def test_the_locked_legend_shows_only_when_a_die_is_locked(v2: Spire) -> None:
    # A newcomer's review: "(* locked)" stood under dice none of which was locked.
    says("To Finesse, you must lock in at least 1 or more results.")
    fight(v2)
    rolled = v2.ok("roll", "sickle", "blank", "hive")
    assert _dice_line(rolled) == "Finnian's dice (3 HP): 1 sickle, 2 blank, 3 hive"
    assert _dice_line(v2.ok("lock", "3")) == \
        "Finnian's dice (3 HP): 1 sickle, 2 blank, 3 hive* (* locked)"


@pytest.mark.parametrize(("locked", "said"), [(("1",), "Finnian locked die 1"),
                                              (("1", "3"), "Finnian locked dice 1, 3")])
def test_a_lock_says_die_for_one_and_dice_for_more(v2: Spire, locked: tuple[str, ...],
                                                   said: str) -> None:
    fight(v2)
    v2.ok("roll", "sickle", "blank", "hive")
    assert f"#5 {said}" in v2.ok("lock", *locked)
    assert v2.json("log", "--last", "1")[0]["type"] == "action-dice-locked"
    assert said in v2.ok("replay")


def test_an_action_lets_the_dice_stand_first(v2: Spire) -> None:
    """Actions come from the locked dice; typed during the finesse, an action ends it (the
    one move left: `stop`), and spire says so by recording the dice standing first (issue
    34, item 7: the `stop` before every `action` is typing spire can spare)."""
    says("ACTION RESULTS: Perform any Actions triggered by your locked Action Dice results.",
         "FINNIAN'S TURN: Spend HP, Roll Hive Dice, Finesse, Perform Actions.")
    fight(v2)
    v2.ok("roll", "sickle", "blank")
    head = v2.json("status")["head"]
    out = v2.ok("action", "sickles")
    assert f"#{head + 1} Finnian let the dice stand" in out
    assert f"#{head + 2} Finnian: sickles" in out
    assert encounter(v2)["dice"]["final"]
    assert "finish finessing" not in out
    v2.ok("undo")                     # takes back the action; the dice still stand
    assert encounter(v2)["dice"]["final"] and v2.json("status")["head"] == head + 3
    assert "the dice stand already" in v2.refused("stop", code=1)
    assert not v2.json("audit")["findings"]


def test_finnian_goes_first(v2: Spire) -> None:
    says("Finnian goes first, followed by the other Allies in any order.")
    fight(v2)
    line = v2.refused("roll", "--ally", "Dunstan", "black", code=1)
    assert "Finnian goes first" in line


def test_a_combination_on_one_target(v2: Spire) -> None:
    says("Damage from a single combination must be applied to one target.")
    fight(v2)
    v2.ok("upkeep")  # Finnian passes
    v2.ok("roll", "black", "white", "ping")
    v2.ok("stop")
    v2.ok("action", "Double Shot")
    assert (enemy(v2)["ap"], enemy(v2)["hp"]) == (0, 8)
    line = v2.refused("action", "Double Shot", code=1)
    assert "Double Shot needs black, white" in line


def test_a_support_action_repairs_armor(v2: Spire) -> None:
    says("Support Actions (e.g., Dunstan's REPAIR) usually require a single die face and don't "
         "need a Bullseye.")
    fight(v2)
    to_enemies(v2)
    v2.ok("target-roll", "1", "20")
    v2.ok("enemy", "10")  # 11: 3 damage to Dunstan, AP 2->0, HP 6->5
    v2.ok("roll", "sickle")  # round 2: Finnian
    v2.ok("upkeep")
    v2.ok("roll", "ping")
    v2.ok("stop")
    v2.ok("action", "Repair")
    assert ally(v2, "Dunstan")["ap"] == 1


# -- who fights ----------------------------------------------------------------------------

def test_at_most_three_allies(v2: Spire) -> None:
    says("Choose up to 2 additional Allies to join him (for a maximum of 3 Allies).")
    for name in ("Imrie", "Morwen"):
        v2.ok("card", "add", name, "--ally", "--hp", "4", "--ap", "1", "--recoup", "1",
              "--dice", "shot")
        v2.ok("draw", name)
    args = ("fight", WADE, "--with", "Dunstan", "--with", "Imrie", "--with", "Morwen")
    assert "at most 3 allies fight" in v2.refused(*args, code=1)
    v2.ok(*args, "--force")
    assert len(encounter(v2)["allies"]) == 4


def test_no_swapping_during_the_encounter(v2: Spire) -> None:
    says("No swapping or substitutions occur during the fight.")
    fight(v2)
    assert "an encounter is under way" in v2.refused("fight", WADE, code=1)


def test_only_the_nibbler_while_the_party_is_one(spire: Spire) -> None:
    says("Until your party is more than one Ally, you may only pull a Minor Needlegrass "
         "Nibbler.")
    spire.ok("new", "plains", "--game", "volume2")
    spire.ok("card", "add", "Finnian", "--ally", "--recoup", "1")
    for name in ("Minor Needlegrass Nibbler", "Thornback Boar"):
        spire.ok("card", "add", name, "--enemy", "--wildlife", "--hp", "2", "--ap", "0",
                 "--ferocity", "0", "--attacks", "1", "--retreat", "never", "--table",
                 "10-20: 1", "--pelt")
    assert "only the Minor Needlegrass Nibbler" in spire.refused(
        "fight", "Thornback Boar", code=1)
    spire.ok("fight", "Minor Needlegrass Nibbler")
    spire.ok("roll", "sickle", "sickle")
    spire.ok("stop")
    out = spire.ok("action", "sickles")
    assert "Minor Needlegrass Nibbler is defeated (+1 pelt)" in out
    assert spire.json("status")["resources"]["pelts"] == 1


# -- the enemies' turn ---------------------------------------------------------------------

def test_the_target_roll_rerolls_only_the_tied(v2: Spire) -> None:
    says("If multiple dice tie for highest, roll again only for those tied Allies.")
    v2.ok("card", "add", "Imrie", "--ally", "--hp", "4", "--ap", "1", "--recoup", "1",
          "--dice", "shot")
    v2.ok("draw", "Imrie")
    fight(v2, "--with", "Imrie")
    to_enemies(v2)
    assert "one d20 for each of Finnian, Dunstan, Imrie" in v2.refused(
        "target-roll", "3", "4", code=2)
    v2.ok("target-roll", "17", "3", "17")
    assert "one d20 for each of Finnian, Imrie" in v2.refused("target-roll", "3", "4", "5",
                                                              code=2)
    v2.ok("target-roll", "2", "9")
    assert encounter(v2)["target"] == "Imrie"


def test_a_bee_chooses_the_target(v2: Spire) -> None:
    says("At the start of the Target Roll Phase, you may spend 1 Bee to skip the roll and "
         "choose which Ally is targeted.")
    fight(v2)
    to_enemies(v2)
    v2.ok("target-roll", "--choose", "Dunstan")
    assert (encounter(v2)["target"], resources(v2)["bees"]) == ("Dunstan", 0)


def test_an_attack_needs_its_target_roll(v2: Spire) -> None:
    says("Before each Enemy attack, determine which Ally is being targeted.")
    fight(v2)
    assert "the allies' turns come first" in v2.refused("enemy", "12", code=1)
    to_enemies(v2)
    assert "the target roll comes before each attack" in v2.refused("enemy", "12", code=1)


@pytest.mark.parametrize(("natural", "again"), [(4, True), (5, False)])
def test_quickdraw(v2: Spire, natural: int, again: bool) -> None:
    says("Wade Slocum has the ability QUICKDRAW, which states, anytime Wade rolls a 4 or "
         "lower, he gets another attack.")
    fight(v2)
    to_enemies(v2)
    v2.ok("target-roll", "20", "1")
    v2.ok("enemy", str(natural))
    assert (encounter(v2)["phase"] == "enemies") is again


def test_recoup_at_the_end_of_the_round(v2: Spire) -> None:
    says("As shown, Dunstan has a Recoup of 4. At the end of every Round, he automatically "
         "regains 4 HP.",
         "You may not Recoup beyond an Ally's maximum HP or AP Limits")
    fight(v2)
    v2.ok("roll", "sickle", "blank", "blank")  # Finnian 5 -> 2
    v2.ok("upkeep")
    v2.ok("roll", "blank", "blank", "blank", "blank", "blank")  # Dunstan 6 -> 1
    v2.ok("upkeep")
    v2.ok("target-roll", "20", "1")
    v2.ok("enemy", "5")  # 6: 3 damage to Finnian, all through AP
    status = encounter(v2)
    assert status["round"] == 2
    assert [(a["name"], a["hp"]) for a in status["allies"]] == [("Finnian", 3), ("Dunstan", 5)]


def test_a_kod_ally_is_out_and_finnians_hive_is_lost(v2: Spire) -> None:
    says("Once an Ally's HP is reduced to 0, that character is Knocked Out and removed from "
         "play until the current Encounter ends.",
         "If Finnian is Knocked Out, all Bees and Pollen are lost.")
    fight(v2)
    v2.ok("roll", "blank", "blank", "blank", "blank")  # Finnian at 1 HP
    to_enemies(v2)
    v2.ok("target-roll", "20", "1")
    v2.ok("enemy", "20")  # 21: 5 damage: AP 3, then HP 1 -> 0
    assert ally(v2, "Finnian")["ko"]
    assert (resources(v2)["bees"], resources(v2)["pollen"]) == (0, 0)
    assert "KO'd" in v2.refused("roll", "--ally", "Finnian", "--hp", "1", code=1)
    v2.ok("roll", "--ally", "Dunstan", "black")  # Finnian is out: Dunstan goes first


def test_every_ally_kod_is_game_over(v2: Spire) -> None:
    says("If all Allies in play are KO'd, it's game over.")
    v2.ok("fight", WADE)  # Finnian alone
    v2.ok("roll", "blank", "blank", "blank", "blank")
    v2.ok("upkeep")
    v2.ok("enemy", "20")  # one ally in play: the target roll has one answer
    status = v2.json("status")
    assert status["game_over"] and status["encounter"]["outcome"] == "lost"
    assert "the game is over" in v2.refused("fight", WADE, code=1)


# -- the end of an encounter ---------------------------------------------------------------

def test_victory_spoils_and_reset(v2: Spire) -> None:
    says("MEAT: Defeat Wildlife or Enemy with this icon to gain 1 Meat.",
         "At the end of an Encounter, all Allies restore their HP and AP to their Limit. Bee "
         "and Pollen counts do not reset")
    v2.ok("card", "add", "Wade Slocum", "--enemy", "--hp", "2", "--ap", "0", "--ferocity", "1",
          "--attacks", "1", "--retreat", "3", "--meat", "--reward", "a battered hat")
    fight(v2)
    v2.ok("roll", "sickle", "sickle", "bee")
    out = v2.ok("stop")
    assert "+1 bees (2)" in out
    out = v2.ok("action", "sickles")
    assert "Wade Slocum is defeated (+1 meat, a battered hat set aside)" in out and "won" in out
    status = v2.json("status")
    assert status["resources"]["meat"] == 1 and status["resources"]["bees"] == 2
    assert [(c["hp"], c["ap"]) for c in status["characters"]] == [(5, 3), (6, 2)]


def test_an_enemy_that_retreats_gives_no_rewards(v2: Spire) -> None:
    says("Indicates how many Rounds this Enemy will fight before they are no longer in play.")
    v2.ok("card", "add", "Wade Slocum", "--enemy", "--hp", "8", "--ap", "2", "--ferocity", "1",
          "--attacks", "1", "--retreat", "1", "--meat")
    fight(v2)
    to_enemies(v2)
    v2.ok("target-roll", "20", "1")
    out = v2.ok("enemy", "10")
    assert "Wade Slocum retreats after 1 round (not defeated: no rewards)" in out
    status = v2.json("status")
    assert status["encounter"]["outcome"] == "retreated" and status["resources"]["meat"] == 0


# -- mistakes, time and proof --------------------------------------------------------------

def test_undo_through_an_encounter(v2: Spire) -> None:
    fight(v2)
    v2.ok("roll", "sickle", "sickle")
    v2.ok("undo")
    assert ally(v2, "Finnian")["hp"] == 5 and encounter(v2)["dice"] is None


def test_audit_redecides_every_step(v2: Spire) -> None:
    fight(v2)
    finnian_rolls(v2, "sickle", "blank")
    v2.ok("deploy", "bee", "--force")
    v2.ok("action", "sickles")
    to_enemies(v2)
    v2.ok("target-roll", "4", "9")
    v2.ok("enemy", "12")
    report = v2.json("audit")
    assert report["clean"], report["findings"]
    assert [o["type"] for o in report["overrides"]] == ["hive-deployed"]
    assert {d["kind"] for d in report["dice"]} >= {"Volume 2 hive die", "Volume 2 d20"}
    forged = v2.refused("deploy", "bee", "4", code=1)  # nothing left to sting with
    assert "hive" in forged


def test_the_demo_plays_an_encounter(spire: Spire) -> None:
    out = spire.ok("demo", "--game", "volume2")
    assert "Encounter with Wade Slocum won (round 3)" in out
    assert "a natural 3 misses but QUICKDRAW gives another attack" in out
    status = spire.json("status")
    assert status["campaign"] == "demo-volume2"
    assert status["encounter"]["outcome"] == "won"
    assert "made up for this demo" in status["notes"][0]
    assert spire.json("card", "list")[0]["source"] == "rulebook", "the demo enters no card"
    assert spire.json("audit")["clean"]
    assert "already in this journal" in spire.ok("demo", "--game", "volume2")


def test_the_demo_plays_only_the_games_it_has(spire: Spire) -> None:
    """Every shipped game has a demo now; a registered game without one is refused in
    tests/test_toy_game.py."""
    assert spire.refused("demo", "--game", "nosuch", code=2) == (
        "spire: the demo plays hildegard, spires-end or volume2, not 'nosuch'\n"
        "`spire demo --list` says what each plays")
    assert spire.refused("demo", "--game", "spire-end", code=2).endswith(
        "\ndid you mean 'spires-end'?")
    listed = spire.ok("demo", "--list").splitlines()
    assert [line.split(":")[0] for line in listed] == ["hildegard", "spires-end", "volume2"]
    assert all(len(line) <= 80 for line in listed), listed
    assert "Ogre" in listed[1] and "Wade Slocum" in listed[2]
    assert spire.journal_rows()[0] == (), "listing plays nothing"


def test_the_report_and_the_replay_tell_the_encounter(spire: Spire) -> None:
    import jsonschema
    from test_report import SCHEMA

    spire.ok("demo", "--game", "volume2")
    report = json.loads(spire.ok("report", "--format", "json"))
    jsonschema.validate(report, SCHEMA)
    [fight] = report["encounters"]
    assert (fight["kind"], fight["outcome"], fight["headline"]) == (
        "encounter", "won", "Encounter with Wade Slocum: won in round 3")
    assert [(r["round"], r["dealt"], r["taken"]) for r in fight["rounds"]] == [
        (1, 5, 3), (2, 4, 4), (3, 1, 0)]
    assert [(a["name"], a["hp"], a["ap"]) for a in fight["allies"]] == [
        ("Finnian", 1, 0), ("Dunstan", 6, 0)], "the allies as the fight left them"
    assert {d["die"] for d in report["dice"]["kinds"]} == {"hive die", "shot die", "d20"}
    markdown = spire.ok("report", "--format", "md")
    assert "### Encounter: Wade Slocum" in markdown
    replay = spire.ok("replay")
    assert "    sting: 1 damage to Wade Slocum (AP 0->0, HP 8->7)" in replay
    assert "    QUICKDRAW: a natural 3 gives Wade Slocum another attack" in replay


def test_rewind_to_a_checkpoint_mid_encounter(v2: Spire) -> None:
    fight(v2)
    finnian_rolls(v2, "sickle", "sickle", "hive")
    v2.ok("checkpoint", "before-the-sickles")
    v2.ok("action", "sickles")
    v2.ok("rewind", "before-the-sickles")
    assert (enemy(v2)["ap"], encounter(v2)["dice"]["final"]) == (2, True)
    v2.ok("action", "sickles")
    assert enemy(v2)["ap"] == 0
    assert v2.json("audit", "--all")["clean"]


def test_play_completes_volume2s_faces_and_names(v2: Spire) -> None:
    from test_play import shell

    from journal.cli.play import Completer

    complete = Completer(shell(v2)).candidates
    assert complete("fight ", "Wa") == ['"Wade Slocum"']
    assert complete("fight Wade --with ", "D") == ["Dunstan"]
    fight(v2)
    assert complete("roll ", "s") == ["sickle"], "Finnian rolls hive dice"
    assert complete("deploy ", "")[:2] == ["bee", "pollen"]
    v2.ok("upkeep")
    assert complete("roll ", "")[:6] == ["black", "white", "half", "circle", "ping", "blank"]
    v2.ok("roll", "black", "white")
    assert complete("action ", "")[:2] == ['"Double Shot"', "Repair"]
    assert complete("action Repair --on ", "") == ['"Wade Slocum"', "Finnian", "Dunstan"]


def test_a_long_campaign_folds_alike_from_snapshots_and_streams(tmp_path: Any) -> None:
    """Snapshots keep the Volume 2 state whole: `replay --verify` folds every branch from
    scratch and compares with what the journal serves from its snapshots and glances."""
    import sys
    from pathlib import Path

    from journal.core import snapshots
    from journal.core.state import project
    from journal.service.journal import Journal

    sys.path.insert(0, str(Path(__file__).parent / "bench"))
    from journal_gen import build

    db = tmp_path / "plains.sqlite"
    build(db, 2_000, game="volume2")
    spire = Spire(db)
    spire.ok("roll", "sickle")  # the head's encounter, folded from a snapshot
    assert "Finnian spends 1 HP" in spire.ok("status")
    spire.ok("replay", "--verify")
    journal = Journal(str(db))
    state = journal.read.replays.rebuild()
    branch = journal.store.tree.branch(journal.read.campaign())
    assert state == project(journal.store.log.read(branch))
    assert snapshots.decode(snapshots.encode(state)) == state
    assert len(state.game_state.finished) == 10


def test_each_player_plays_an_ally(spire: Spire) -> None:
    says("With additional players, each may take on the role of a specific Ally, making "
         "decisions and rolling dice for them.")
    spire.ok("new", "plains", "--game", "volume2", "--players", "2")
    spire.ok("card", "add", "Finnian", "--ally", "--recoup", "1")
    spire.ok("card", "add", "Dunstan", "--ally", "--hp", "6", "--ap", "2")
    spire.ok("card", "add", WADE, "--enemy", "--hp", "8", "--ap", "2", "--ferocity", "1",
             "--attacks", "1", "--retreat", "3")
    spire.ok("draw", "Dunstan")
    fight(spire)
    spire.ok("roll", "sickle")
    spire.ok("upkeep")
    spire.ok("roll", "black")
    players = [e["player"] for e in spire.json("log")[-3:]]
    assert players == [1, 1, 2]


def test_an_ability_that_stacks_does_not_reset(v2: Spire) -> None:
    says("NOTE If an ability says (stacks), its effect increases each time it is triggered and "
         "does not reset at the end of a round.")
    v2.ok("card", "add", WADE, "--enemy", "--hp", "8", "--ap", "2", "--ferocity", "1",
          "--attacks", "1", "--retreat", "3", "--ability", "RAGE: +1 ferocity (stacks)",
          "--ability", "FRENZY: +1 damage")
    assert "RAGE: +1 ferocity when triggered (stacks)" in v2.ok("card", "show", WADE)
    fight(v2)
    v2.ok("ability", "rage")
    v2.ok("ability", "FRENZY")
    out = v2.ok("ability", "RAGE")
    assert "RAGE: Wade Slocum's ferocity +1 (+1 -> +2; stacks: for the encounter)" in out
    assert enemy(v2)["ferocity"] == 3
    to_enemies(v2)
    v2.ok("target-roll", "20", "1")
    out = v2.ok("enemy", "13")  # 13 + 3 = 16: 4, and FRENZY's +1 this round
    assert "Wade Slocum rolls 13 + 3 ferocity = 16: 5 damage to Finnian" in out
    assert enemy(v2)["triggered"] == ["RAGE", "RAGE"], "FRENZY did not stack: the round reset it"
    assert "has no ability 'QUICKDRAW' that changes a number" in v2.refused(
        "ability", "QUICKDRAW", code=2)


KO_FINNIAN = [["fight", WADE, "--with", "Dunstan"], ["roll", *["blank"] * 4],
              ["upkeep"], ["upkeep"], ["target-roll", "20", "1"], ["enemy", "20"]]
TWO_MORE = [step for name in ("Imrie", "Morwen") for step in (
    ["card", "add", name, "--ally", "--hp", "4", "--ap", "1", "--recoup", "1", "--dice", "shot"],
    ["draw", name])]


@pytest.mark.parametrize(("given", "command", "why"), [
    ([["gain", "bees", "3"]], ["gain", "bees", "1"], "bees at most 4"),
    ([["fight", WADE]], ["roll", "--hp", "5"], "must keep 1"),
    (TWO_MORE, ["fight", WADE, "--with", "Dunstan", "--with", "Imrie", "--with", "Morwen"],
     "at most 3 allies"),
    ([["fight", WADE]], ["fight", WADE, "--with", "Dunstan"], "an encounter is under way"),
    (KO_FINNIAN, ["roll", "--ally", "Finnian", "sickle"], "KO'd"),
    ([["fight", WADE], ["roll", "s", "s", "blank"], ["stop"], ["action", "sickles"]],
     ["deploy", "bee"], "no hive"),
    ([["fight", WADE]], ["enemy", "12"], "the allies' turns come first"),
], ids=["a fifth bee", "the last HP", "a fourth ally", "a swap", "a KO'd ally", "no hive",
        "an attack out of turn"])
def test_every_refusal_can_be_forced_and_is_recorded(
    v2: Spire, given: list[list[str]], command: list[str], why: str,
) -> None:
    for step in given:
        v2.ok(*step)
    assert why in v2.refused(*command, code=1)
    v2.ok(*command, "--force")
    [override] = v2.json("status")["overrides"]
    assert why in override["reason"]
    if command[0] == "enemy":  # the damage, and the allies' turn goes on
        assert (ally(v2, "Finnian")["ap"], encounter(v2)["phase"]) == (0, "allies")
    assert v2.json("audit")["clean"], "a forced step is an override, not a finding"


def test_the_hive_stays_active_for_a_later_allys_attack(v2: Spire) -> None:
    says("A Hive remains active until all Allies have completed their turns.",
         "NOTE Bees can be deployed to Sting or Heal during any Ally's turn. Once the Enemy's "
         "turn begins, the Hive is no longer in play.")
    fight(v2)
    finnian_rolls(v2, "hive", "blank")
    v2.ok("upkeep")
    v2.ok("roll", "black", "white")
    v2.ok("stop")
    v2.ok("action", "Double Shot")
    v2.ok("deploy", "bee")
    assert (enemy(v2)["ap"], enemy(v2)["hp"]) == (0, 7)
    v2.ok("upkeep")
    assert "the hive is no longer in play" in v2.refused("deploy", "pollen", "--on", "Finnian",
                                                         code=1)


def test_several_enemies_act_left_to_right(v2: Spire) -> None:
    says("If there is more than one Enemy, they take turns left to right.")
    v2.ok("card", "add", "Morwen's Hound", "--enemy", "--hp", "3", "--ap", "0", "--ferocity",
          "0", "--attacks", "2", "--retreat", "never", "--table", "10-20: 1")
    v2.ok("fight", WADE, "Morwen's Hound", "--with", "Dunstan")
    status = encounter(v2)
    assert [e["rounds_left"] for e in status["enemies"]] == [3, None]
    to_enemies(v2)
    v2.ok("target-roll", "20", "1")
    assert "left to right: Wade Slocum first" in v2.refused(
        "enemy", "12", "--name", "Morwen's Hound", code=1)
    out = v2.ok("enemy", "12")
    assert "Morwen's Hound attacks (2): the target roll first" in out
    for _ in range(2):
        v2.ok("target-roll", "1", "20")
        v2.ok("enemy", "12", "--name", "Morwen's Hound")
    assert (encounter(v2)["round"], ally(v2, "Dunstan")["ap"]) == (2, 0)


def test_two_enemies_of_one_name_are_told_apart(spire: Spire) -> None:
    says("For each icon shown, pull a card from the Wildlife Deck and see what you've found")
    spire.ok("new", "plains", "--game", "volume2")
    spire.ok("card", "add", "Finnian", "--ally", "--recoup", "1")
    spire.ok("card", "add", "Minor Needlegrass Nibbler", "--enemy", "--wildlife", "--hp", "1",
             "--ap", "0", "--ferocity", "0", "--attacks", "1", "--retreat", "never",
             "--table", "12-20: 1", "--meat")
    spire.ok("fight", "Minor Needlegrass Nibbler", "Minor Needlegrass Nibbler")
    names = [e["name"] for e in encounter(spire)["enemies"]]
    assert names == ["Minor Needlegrass Nibbler 1", "Minor Needlegrass Nibbler 2"]
    spire.ok("roll", "sickle")
    spire.ok("stop")
    spire.ok("action", "sickles", "--on", "Minor Needlegrass Nibbler 2")
    spire.ok("upkeep")
    spire.ok("enemy", "1")
    spire.ok("roll", "sickle")
    spire.ok("stop")
    assert "is defeated: no longer in play" in spire.refused(
        "action", "sickles", "--on", "Minor Needlegrass Nibbler 2", code=1)
    out = spire.ok("action", "sickles")
    assert "won" in out and spire.json("status")["resources"]["meat"] == 2


def test_a_sting_adds_to_the_attack_on_its_own_enemy(v2: Spire) -> None:
    says("STING: Deploy a Bee to add +1 DMG to any successful attack.")
    v2.ok("card", "add", "Crow", "--enemy", "--hp", "3", "--ap", "0", "--ferocity", "0",
          "--attacks", "1", "--retreat", "never", "--table", "12-20: 1")
    v2.ok("fight", WADE, "Crow", "--with", "Dunstan")
    finnian_rolls(v2, "sickle", "hive")
    v2.ok("action", "sickles", "--on", WADE)
    assert "the successful attack, on Wade Slocum, not Crow" in v2.refused(
        "deploy", "bee", "--on", "Crow", code=1)


def test_a_lost_encounter_keeps_the_last_blow(v2: Spire) -> None:
    v2.ok("fight", WADE)
    v2.ok("roll", "blank", "blank", "blank", "blank")
    v2.ok("upkeep")
    v2.ok("enemy", "20")
    assert [(c["name"], c["hp"], c["ap"]) for c in v2.json("status")["characters"]] == [
        ("Finnian", 0, 0), ("Dunstan", 6, 2)]


def test_finnian_stays_out_only_when_the_table_says_so(v2: Spire) -> None:
    says("On each Encounter, Finnian must be present.")
    args = ("fight", WADE, "--with", "Dunstan", "--without-finnian")
    assert "Finnian must be present" in v2.refused(*args, code=1)
    v2.ok(*args, "--force")
    assert [a["name"] for a in encounter(v2)["allies"]] == ["Dunstan"]


@pytest.mark.parametrize("forced", [(), ("--force",)])
def test_an_encounter_without_finnian_needs_an_ally_named(
    v2: Spire, forced: tuple[str, ...],
) -> None:
    """Without Finnian and with no one named, no one fights: refused in one line, even
    forced (it was a traceback: an encounter's allies cannot be none)."""
    assert v2.refused("fight", WADE, "--without-finnian", *forced, code=2) == (
        "spire: no ally fights: without Finnian, name who does with --with ALLY")


def test_a_forced_reroll_adds_no_die(v2: Spire) -> None:
    fight(v2)
    finnian_rolls(v2, "sickle", "blank")
    v2.ok("roll", "sickle", "sickle", "--force")
    assert encounter(v2)["dice"]["faces"] == ["sickle", "blank"]


def test_a_table_whose_rows_overlap_is_refused(v2: Spire) -> None:
    assert "overlap" in v2.refused("card", "add", "Rat", "--enemy", "--hp", "2", "--ap", "0",
                                   "--ferocity", "0", "--attacks", "1", "--retreat", "never",
                                   "--table", "1-20: 3; 10-12: 5", code=2)


@pytest.mark.parametrize("command", [["roll", "sickle"], ["lock", "1"], ["stop"], ["upkeep"]])
def test_player_is_not_volume2s(v2: Spire, command: list[str]) -> None:
    fight(v2)
    # Volume 2 records the player of the ally whose turn it is: its verbs take no --player.
    assert "no such option: --player" in v2.refused(*command, "--player", "1", code=2)


def test_status_json_says_whose_attack_and_how_many_are_left(v2: Spire) -> None:
    fight(v2)
    to_enemies(v2)
    v2.ok("target-roll", "9", "9")
    status = encounter(v2)
    assert (status["acting"], status["attacks_left"], status["rerolling"]) == (
        WADE, 1, ["Finnian", "Dunstan"])


@pytest.mark.parametrize(("command", "why"), [
    (["roll", "sickle", "banana"], "unknown hive die face 'banana'"),
    (["roll", "--hp", "0"], "0 is below 1"),
    (["roll", "--ally", "Imrie", "--hp", "1"], "no ally named 'Imrie'"),
    (["lock", "9"], "no die 9"),
    (["lock", "1", "1"], "each die once"),
    (["action", "Fireball"], "has no action 'Fireball'"),
    (["deploy", "honey"], "deploy bee or pollen, not 'honey'"),
    (["deploy", "bee", "9"], "9 is above 8"),
    (["target-roll", "21", "3"], "a d20 shows 1 to 20, not 21"),
    (["enemy", "0"], "a d20 shows 1 to 20, not 0"),
    (["enemy", "21"], "a d20 shows 1 to 20, not 21"),
    (["ability", "RAGE"], "has no ability 'RAGE'"),
    (["fight", "Nobody"], "no Volume 2 enemy card named 'Nobody'"),
    (["draw", "Nobody"], "no Volume 2 ally card named 'Nobody'"),
    (["trade", "Rope"], "what does Rope cost?"),
    (["trade", "Rope", "--meat", "1", "--kind", "magic"], "unknown item kind 'magic'"),
    (["buy", "Rope"], "no Trading Post Card 'Rope' was revealed"),
    (["pull", "--deck", "story", "x"], "Volume 2's are ally, duster, wildlife"),
    (["waterfall", "choose", "1", "1"], None),
    (["card", "add", "Rat", "--enemy", "--table", "lots"], "cannot read the table row 'lots'"),
    (["card", "add", "Rat", "--ally", "--dice", "d6"], "--dice hive or --dice shot"),
    (["card", "add", "Rat", "--ally", "--dice", "shot", "--combo", "Zap"],
     "write NAME: FACES: EFFECT"),
    (["card", "add", "Rat", "--enemy", "--retreat", "soon"], "retreat is a number of rounds"),
    (["item", "gain", "Hat", "--raises", "luck+1"], "write hp+1 or ap+2"),
    (["item", "use", "Hat"], "no item named 'Hat'"),
], ids=lambda value: " ".join(value) if isinstance(value, list) else None)
def test_bad_input_is_one_line_exit_2_and_nothing_appended(
    v2: Spire, command: list[str], why: str | None,
) -> None:
    fight(v2)
    v2.ok("roll", "sickle", "blank")  # Finnian's turn under way, his dice rolled
    if command[0] == "waterfall":  # no event laid out: a refusal of the rules, exit 1
        assert "no waterfall event laid out" in v2.refused(*command, code=1)
        return
    assert (why or "") in v2.refused(*command, code=2)
