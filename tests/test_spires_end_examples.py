"""The Spire's End rulebook's worked examples, played through the real CLI, quoted."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Spire, quoted

MILLICENT = ["draw", "Millicent", "--hp", "5", "--ap", "2", "--bar", "Back Hand",
             "--recoup", "Recoup Bar Example", "--death", "Death Bar Example"]
OSWIN = ["draw", "Oswin", "--hp", "4", "--ap", "1", "--bar", "Jab; cost 1; 5-8: 1",
         "--recoup", "heal 6-8: 1"]


def _quotes(*sentences: str) -> None:
    quoted("spires-end", *sentences)


def _ally(spire: Spire, name: str) -> dict[str, Any]:
    allies = spire.json("status")["allies"]
    return next(a for a in allies if a["name"] == name)


def _enemy(spire: Spire) -> dict[str, Any]:
    enemy: dict[str, Any] = spire.json("status")["fight"]["enemy"]
    return enemy


@pytest.fixture
def table(spire: Spire) -> Spire:
    """Millicent with the rulebook's example bars, Oswin, and a dummy with no armor."""
    spire.ok("new", "tower", "--game", "spires-end", "--players", "2")
    spire.ok(*MILLICENT)
    spire.ok(*OSWIN)
    spire.ok("fight", "Dummy", "--hp", "20", "--bar", "Gash; 1-8: 0, A", "--status",
             "A: bleed x3", "--bar", "Crush; 1-8: 5", "--recoup", "heal 8: 1")
    return spire


def test_the_ally_card_anatomy_thresholds(table: Spire) -> None:
    _quotes("In the Ally Card above, you would place 5 HP Cubes and 2 AP Cubes.",
            "Allies cannot exceed their thresholds.")
    millicent = _ally(table, "Millicent")
    assert (millicent["hp"], millicent["hp_max"], millicent["ap"], millicent["ap_max"]) == (
        5, 5, 2, 2)


@pytest.mark.parametrize(("roll", "said", "damage"), [
    ("3", "Back Hand, roll 3: 0 damage", 0),
    ("5", "Back Hand, roll 5: 1 damage to Dummy", 1),
    ("8", "Back Hand, roll 8: 3 damage to Dummy; kickback +1 HP to Millicent", 3),
])
def test_the_back_hand_bar(table: Spire, roll: str, said: str, damage: int) -> None:
    _quotes("Reading left to right: HP Cost — Back Hand (1) — Roll Numbers 4-6 → Action "
            "Result (Damage Dealt) 1 — 7 → 2 — 8 → 3 — Kickback (circled).",
            "Example: You roll 3 — DMG: 0 Example: You roll a 5 — DMG: 1 damage to an Enemy",
            "If you had rolled an 8 you would do 3 DMG and receive 1 HP Kickback to give to "
            "an Ally.")
    out = table.ok("action", "Back Hand", roll)
    assert "Millicent pays 1 HP for Back Hand" in out
    assert said in out
    assert _enemy(table)["hp"] == 20 - damage
    assert _ally(table, "Millicent")["hp"] == (5 if roll == "8" else 4)


def test_a_kickback_goes_to_the_ally_the_players_choose(table: Spire) -> None:
    table.ok("upkeep")
    table.ok("action", "Jab", "5")  # Oswin pays 1 HP: 3 of 4
    table.ok("upkeep")
    table.ok("enemy", "1", "1", "--select", "1")
    table.ok("upkeep")
    out = table.ok("action", "Back Hand", "8", "--kickback-to", "Oswin")
    assert "kickback +1 HP to Oswin" in out
    assert (_ally(table, "Millicent")["hp"], _ally(table, "Oswin")["hp"]) == (4, 4)


def test_the_recoup_bar_heals_on_a_7(table: Spire) -> None:
    _quotes("Reading left to right: Heal — Roll Numbers 4-6 → 1, 7 → 2, 8 → 3 — Cleanse "
            "(5-8, circled).",
            "Example: You roll a 7 — Heal: +2 HP to an Ally",
            "BE AWARE, an Ally can give points gained to another Ally but they CANNOT be "
            "split up.")
    table.ok("action", "Back Hand", "5")  # Millicent pays 1 HP: 4 of 5
    table.ok("upkeep")
    table.ok("upkeep")
    table.ok("enemy", "2", "1", "--select", "1")  # Crush: 5 damage, 2 AP then 3 HP
    table.ok("upkeep")
    assert (_ally(table, "Millicent")["hp"], _ally(table, "Millicent")["ap"]) == (1, 0)
    out = table.ok("recoup", "heal", "7")
    assert "recoup roll 7: +2 HP to Millicent" in out
    assert _ally(table, "Millicent")["hp"] == 3


def test_the_recoup_bar_cleanses_on_a_6(table: Spire) -> None:
    _quotes("Example: You roll 6 — Remove 1 Status Effect")
    table.ok("upkeep")
    table.ok("upkeep")
    table.ok("enemy", "1", "1", "--select", "1")  # Gash: Bleed on Millicent
    assert [e["name"] for e in _ally(table, "Millicent")["effects"]] == ["bleed"]
    table.ok("upkeep")
    out = table.ok("recoup", "heal", "6")     # the Cleanse comes with the result (issue 14)
    assert "Bleed cleansed from Millicent" in out
    assert _ally(table, "Millicent")["effects"] == []


def test_bleed_with_three_clocks(table: Spire) -> None:
    _quotes("If you suffer Bleed (three clocks), you will place 3 Cubes on that Ally. That "
            "character will have Bleed for 3 turns.",
            "During Upkeep, remove 1 Cube per turn. Since Bleed's effect is -1 HP on your "
            "target, you will remove 1 HP from that Ally.",
            "If you suffer Bleed again and you still have previous Bleed Cubes, add the new "
            "ones to the existing amount.")
    table.ok("upkeep")
    table.ok("upkeep")
    out = table.ok("enemy", "1", "4", "--select", "7")  # Gash on Oswin
    assert "Bleed on Oswin (3 turns)" in out
    assert "Bleed (3 turns left)" in out
    table.ok("upkeep")
    table.ok("upkeep")  # Millicent
    out = table.ok("upkeep")  # Oswin's upkeep: a cube off, 1 HP off
    assert "Bleed: -1 HP on Oswin" in out and "Bleed on Oswin: 2 turns left" in out
    assert _ally(table, "Oswin")["hp"] == 3
    table.ok("enemy", "1", "4", "--select", "8")  # Bleed again: 2 + 3 cubes
    assert _ally(table, "Oswin")["effects"][0]["turns"] == 5
    table.ok("upkeep")
    table.ok("upkeep")
    table.ok("upkeep")
    oswin = _ally(table, "Oswin")
    assert (oswin["hp"], oswin["effects"][0]["turns"]) == (2, 4)


def test_damage_goes_through_armor_then_hit_points(spire: Spire) -> None:
    _quotes("Damage taken goes through Armor Points, THEN Hit Points.",
            "For example: If the Enemy hits an Ally for 5 DMG, and that Ally has 5 AP / 2 HP, "
            "the Ally would be left with 0 AP / 2 HP.")
    spire.ok("new", "tower", "--game", "spires-end")
    spire.ok("draw", "Wynn", "--hp", "2", "--ap", "5")
    spire.ok("fight", "Brute", "--hp", "9", "--bar", "Crush; 1-8: 5")
    spire.ok("upkeep")
    out = spire.ok("enemy", "1", "6", "--select", "2")
    assert "Crush, roll 6: 5 damage to Wynn" in out
    assert "Ally 1 Wynn: HP 2/2, AP 0/5" in out


@pytest.mark.parametrize(("roll", "ally"), [(r, "Millicent") for r in range(1, 5)]
                         + [(r, "Oswin") for r in range(5, 9)])
def test_the_selection_roll(table: Spire, roll: int, ally: str) -> None:
    _quotes("Roll 1-4: Attack Ally 1 Roll 5-8: Attack Ally 2",
            "Use the Selection Roll any time you need to determine which Ally is affected "
            "during the course of the story.")
    assert f"Selection roll {roll}: {ally}" in table.ok("select", str(roll))
    table.ok("upkeep")
    table.ok("upkeep")
    out = table.ok("enemy", "1", "3", "--select", str(roll))
    assert f"selection roll {roll}: {ally}" in out and f"Bleed on {ally}" in out


def test_the_death_bar_gives_strength_for_three_turns(spire: Spire) -> None:
    _quotes("Death Move: Strength (three circled clock icons) on chosen target",
            "In the example above, you would cast Strength (for 3 turns).",
            "Strength: +1 on action roll")
    spire.ok("new", "tower", "--game", "spires-end")
    spire.ok("draw", "Millicent", "--hp", "1", "--ap", "0", "--death", "Death Bar Example")
    spire.ok(*OSWIN)
    spire.ok("fight", "Brute", "--hp", "30", "--bar", "Crush; 1-8: 5", "--bar", "Tap; 1-8: 0")
    spire.ok("upkeep")
    spire.ok("upkeep")
    out = spire.ok("enemy", "1", "2", "--select", "1")
    assert "Millicent dies" in out and "death move due: Millicent" in out
    out = spire.ok("death", "--to", "Oswin")
    assert "Strength on Oswin (3 turns)" in out
    assert "Oswin: HP 4/4, AP 1/1 | rest 0/3, boost 0/3 | Strength (3 turns left)" in out
    spire.ok("upkeep")  # the enemy's turn ends; Millicent is dead, so Oswin's turn comes
    for left in (2, 1):
        out = spire.ok("action", "Jab", "4")  # 4 +1 (Strength) = 5: a hit
        assert "Jab, roll 4 (as 5): 1 damage to Brute" in out
        out = spire.ok("upkeep")
        assert f"Strength on Oswin: {left} turn{'s' if left > 1 else ''} left" in out
        spire.ok("enemy", "2", "1", "--select", "8")
        spire.ok("upkeep")
    out = spire.ok("action", "Jab", "4")
    assert "Jab, roll 4 (as 5)" in out
    out = spire.ok("upkeep")
    assert "Strength on Oswin: over" in out


def test_the_demo_plays_the_rulebooks_examples_in_a_fight(spire: Spire) -> None:
    """`spire demo --game spires-end`, into a fresh journal: each worked example above as the
    demo shows it, the made-up numbers and the cards' contents said in notes, nothing
    entered into the catalog, and the fight left under way for the player to go on."""
    from journal.games.spires_end.demo import SCRIPT

    _quotes("if you are on card #10 and it states Reveal Card 20 you must advance to that card. "
            "Any card in between must be removed from the game.",
            "In the Ally Card above, you would place 5 HP Cubes and 2 AP Cubes.",
            "Example: You roll 3 — DMG: 0 Example: You roll a 5 — DMG: 1 damage to an Enemy",
            "If you had rolled an 8 you would do 3 DMG and receive 1 HP Kickback to give to "
            "an Ally.",
            "Example: You roll a 7 — Heal: +2 HP to an Ally Example: You roll 6 — Remove 1 "
            "Status Effect",
            "If the Enemy hits an Ally for 5 DMG, and that Ally has 5 AP / 2 HP, the Ally would "
            "be left with 0 AP / 2 HP.")
    out = spire.ok("demo", "--game", "spires-end").splitlines()
    assert out[2:4] == ["$ spire new demo-spires-end --game spires-end",
                        "Started 'demo-spires-end'; it is now the current campaign."]
    for line in ("#4 Revealed card 20; cards 13-19 left the game",
                 "#6 Drew Millicent as Ally 1 (5 HP, 2 AP)",
                 "  Back Hand, roll 3: 0 damage",
                 "  Back Hand, roll 5: 1 damage to Ogre",
                 "  Back Hand, roll 8: 3 damage to Ogre; kickback +1 HP to Oswin",
                 "  recoup roll 7: +2 HP to Millicent",
                 "  recoup roll 6: +1 HP to Millicent; Bleed cleansed from Millicent",
                 "  Oswin rests (rest meter 1/3: +1 on a heal)",
                 "  Crush, roll 6: 5 damage to Oswin",
                 "Ally 2 Oswin: HP 2/2, AP 0/5 | rest 1/3, boost 2/3 | no effects"):
        assert line in out, line
    captions = [scene.caption for scene in SCRIPT if scene.caption]
    assert [c for c in captions if c in out] == captions
    assert all(len(c) <= 80 for c in captions), "a caption reads whole at 80 columns"
    status = spire.json("status")
    assert (status["campaign"], status["card"], status["removed"]) == (
        "demo-spires-end", 20, list(range(13, 20)))
    assert "made up for this demo" in status["notes"][0]
    assert "what they hold is not told" in status["notes"][1]
    fight = status["fight"]
    assert (fight["round"], fight["turn"], fight["outcome"]) == (3, "Oswin", None)
    assert (fight["enemy"]["hp"], fight["enemy"]["ap"]) == (5, 0)
    assert spire.json("card", "list") == [], "the demo types its cards inline, enters none"
    assert spire.json("audit")["clean"]
