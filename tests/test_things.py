"""Resources, items, characters, notes, undo and the reading commands."""

from __future__ import annotations

from conftest import Spire, quoted
from freezegun import freeze_time


def test_status_json_has_what_scripts_need(hildegard: Spire) -> None:
    hildegard.ok("reveal", "1")
    status = hildegard.json("status")
    for key in ("campaign", "game", "branch", "head", "card", "chapter", "resources", "items",
                "characters"):
        assert key in status
    assert (status["campaign"], status["game"], status["branch"]) == (
        "gray-oaks", "hildegard", "main")
    assert (status["head"], status["card"]) == (2, 1)
    assert status["resources"] == {"feats": 0, "gold": 0}
    assert status["characters"][0]["name"] == "Hildegard"


def test_volume2_begins_with_finnian_a_bee_and_a_pollen(spire: Spire) -> None:
    quoted("volume2-episode1", "Finnian has 5 Hit Points (HP) and 3 Armor Points (AP)",
           "place 1 Bee and 1 Pollen Disc under Finnian")
    spire.ok("new", "plains", "--game", "volume2")
    status = spire.json("status")
    assert status["resources"] == {"bees": 1, "pollen": 1, "meat": 0, "pelts": 0}
    assert status["characters"] == [
        {"name": "Finnian", "hp": 5, "hp_max": 5, "ap": 3, "ap_max": 3}]


def test_two_player_hildegard_has_hallveig(spire: Spire) -> None:
    spire.ok("new", "sisters", "--game", "hildegard", "--players", "2")
    names = [c["name"] for c in spire.json("status")["characters"]]
    assert names == ["Hildegard", "Hallveig"]


def test_feats_at_most_six(hildegard: Spire) -> None:
    quoted("hildegard", "You can hold up to 6 Feats at a time")
    hildegard.ok("gain", "feats", "6")
    assert "feats at most 6" in hildegard.refused("gain", "feat", "1", code=1)
    hildegard.ok("spend", "feats", "2", "--on", "a ferry ride")
    assert hildegard.json("status")["resources"]["feats"] == 4


def test_items_follow_their_holders(spire: Spire) -> None:
    spire.ok("new", "sisters", "--game", "hildegard", "--players", "2")
    spire.ok("item", "gain", "Slingshot", "--to", "hildegard")
    spire.ok("item", "gain", "Worm Tin", "--kind", "fishing")
    spire.ok("item", "pass", "slingshot", "--to", "Hallveig")
    items = spire.json("status")["items"]
    assert items == [
        {"name": "Slingshot", "kind": "story", "holder": "Hallveig"},
        {"name": "Worm Tin", "kind": "fishing", "holder": None},
    ]
    spire.ok("item", "lose", "worm tin")
    assert [i["name"] for i in spire.json("status")["items"]] == ["Slingshot"]


def test_one_character_holds_by_default(hildegard: Spire) -> None:
    out = hildegard.ok("item", "gain", "Slingshot")
    assert "Hildegard gained Slingshot (story item)" in out


def test_spires_end_extra_combat_items_are_set_aside(spire: Spire) -> None:
    quoted("spires-end", "Each Ally can hold up to 3 Combat Items.")
    spire.ok("new", "tower", "--game", "spires-end", "--players", "2")
    spire.ok("ally", "Millicent", "--hp", "5", "--ap", "2")
    for knife in ("Knife", "Dagger", "Axe"):
        spire.ok("item", "gain", knife, "--kind", "combat", "--to", "Millicent")
    spire.ok("item", "gain", "Mace", "--kind", "combat", "--to", "aside")
    spire.ok("item", "gain", "The Cursed Key", "--to", "Millicent")  # story items: unlimited
    held = [(i["name"], i["holder"]) for i in spire.json("status")["items"]]
    assert ("Mace", None) in held and ("The Cursed Key", "Millicent") in held
    assert "Mace [combat] (aside)" in spire.ok("status")


def test_undo_retracts_the_latest_action_and_log_keeps_it(hildegard: Spire) -> None:
    hildegard.ok("gain", "gold", "2")
    hildegard.ok("gain", "feats", "1")
    hildegard.ok("undo")
    assert hildegard.json("status")["resources"] == {"feats": 0, "gold": 2}
    hildegard.ok("undo")
    assert hildegard.json("status")["resources"] == {"feats": 0, "gold": 0}
    log = hildegard.json("log")
    assert [(e["seq"], e["type"], e["retracted"]) for e in log] == [
        (1, "campaign-started", False), (2, "resource-gained", True),
        (3, "resource-gained", True), (4, "retracted", False), (5, "retracted", False)]
    assert [e["payload"] for e in log[3:]] == [{"positions": [3]}, {"positions": [2]}]
    assert "[undone]" in hildegard.ok("log")


def test_undo_of_a_forced_event_removes_its_override(hildegard: Spire) -> None:
    hildegard.ok("spend", "gold", "1", "--force")
    assert len(hildegard.json("status")["overrides"]) == 1
    hildegard.ok("undo")
    assert hildegard.json("status")["overrides"] == []


def test_log_and_show(hildegard: Spire) -> None:
    with freeze_time("2026-11-30 20:15:00"):
        hildegard.ok("reveal", "1")
        hildegard.ok("note", "Took", "the", "north", "road")
    assert "2026-11-30 20:15  Note: Took the north road" in hildegard.ok("log")
    shown = hildegard.json("show", "3")
    assert shown["payload"] == {"text": "Took the north road"}
    assert shown["recorded_at"] == "2026-11-30T20:15:00+00:00"
    assert len(shown["hash"]) == 64
    text = hildegard.ok("show", "2")
    assert "#2 Revealed card 1" in text and shown["hash"] not in text
    assert hildegard.json("log", "--last", "1")[0]["seq"] == 3


def test_campaigns_lists_and_marks_the_current_one(spire: Spire) -> None:
    assert "no journal at" in spire.refused("campaigns", code=3)  # nothing made by looking
    spire.ok("new", "one", "--game", "hildegard")
    spire.ok("new", "two", "--game", "spires-end")
    spire.ok("use", "one")
    listed = spire.json("campaigns")
    assert [(c["name"], c["current"]) for c in listed] == [("one", True), ("two", False)]
    assert "* one" in " ".join(spire.ok("campaigns").split()).replace("*  one", "* one")


def test_demo_plays_once_then_shows(spire: Spire) -> None:
    out = spire.ok("demo")
    assert "$ spire reveal 26\n#9 Revealed card 26" in out and "$ spire undo\n#14 Undid #13" in out
    status = spire.json("status")
    assert status["campaign"] == "demo" and status["card"] == 27
    again = spire.ok("demo")
    assert "already in this journal" in again
    assert spire.json("status")["head"] == status["head"]


def test_the_demo_shows_the_dice_at_work(spire: Spire) -> None:
    out = spire.ok("demo")
    for line in ("Street Merchant defeated with 3 bullseyes", "reveal card 26 next",
                 "Face-off, round 1: The Crows 3/7 | meter X......",
                 "the enemy must keep: 1; re-roll the rest",
                 "Face-off, round 2: The Crows 3/7 | meter XXX...."):
        assert line in out, line
    encounter = spire.json("status")["encounter"]
    assert encounter["squares"][:3] == ["hit", "hit", "hit"]
    assert encounter["enemies"][0]["bullseyes"] == 3
