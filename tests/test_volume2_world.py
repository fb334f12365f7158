"""Volume 2 between fights (issue 13), through the real CLI, quoting the rulebook
(rulebooks/volume2-episode1.txt): chapters, cards discarded for good, milestones in play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import Spire, quoted


def says(*sentences: str) -> None:
    """The Volume 2 rulebook prints each sentence (quoted in the test that checks its rule)."""
    quoted("volume2-episode1", *sentences)


@pytest.fixture
def plains(spire: Spire) -> Spire:
    spire.ok("new", "plains", "--game", "volume2")
    return spire


def test_a_discarded_card_is_never_retrieved(plains: Spire) -> None:
    says("DISCARD: Remove a card from the game entirely. This card will not be used again.")
    plains.ok("reveal", "50")
    plains.ok("discard", "50")
    assert "will not be used again" in plains.refused("retrieve", "50", code=1)
    assert "override recorded" in plains.ok("retrieve", "50", "--force")
    assert plains.json("status")["card"] == 50


def test_milestones_stay_in_play_until_a_card_says_otherwise(plains: Spire) -> None:
    says("Once retrieved, place the Milestone Card face-up in your play area. It remains there "
         "unless instructed otherwise.")
    plains.ok("retrieve", "M4")
    plains.ok("chapter", "1")
    plains.ok("chapter", "2")
    assert plains.json("status")["milestones"] == [4], "in play across chapters"
    assert "milestones   4" in plains.ok("status")
    assert "in play already" in plains.refused("retrieve", "M4", code=1)
    assert "not in play" in plains.refused("discard", "M7", code=1)
    plains.ok("discard", "M4")
    assert plains.json("status")["milestones"] == []
    assert plains.json("audit")["clean"]


def test_chapters_and_their_checkpoints(plains: Spire) -> None:
    says("Get the Chapter 1 Story Deck.")
    plains.ok("chapter", "1")
    plains.ok("reveal", "1")
    plains.ok("chapter", "2")
    checkpoints = [c["name"] for c in plains.json("checkpoints")]
    assert checkpoints == ["start", "chapter-1", "chapter-2"]
    assert "chapter 2 has begun" in plains.refused("chapter", "1", code=1)
    plains.ok("reveal", "9")
    plains.ok("rewind", "chapter-2")
    status = plains.json("status")
    assert (status["branch"], status["chapter"], status["card"]) == ("from-chapter-2", 2, 1)


def test_trading_posts(plains: Spire) -> None:
    says("Trading Post Cards show items and their cost in Meat and/or Pelts.",
         "Only 5 Trading Post Cards may be revealed each playthrough.")
    plains.ok("gain", "meat", "3")
    plains.ok("gain", "pelts", "1")
    plains.ok("trade", "Bone Knife", "--meat", "2", "--pelts", "1")
    plains.ok("trade", "Smoked Honey", "--meat", "2", "--kind", "single-use")
    plains.ok("buy", "bone knife")
    status = plains.json("status")
    assert (status["resources"]["meat"], status["resources"]["pelts"]) == (1, 0)
    assert status["items"] == [{"name": "Bone Knife", "kind": "gear", "holder": "Finnian"}]
    assert "you have 1 meat" in plains.refused("buy", "Smoked Honey", code=1)
    assert "bought already" in plains.refused("buy", "Bone Knife", code=1)
    assert "no Trading Post Card 'Lantern'" in plains.refused("buy", "Lantern", code=2)
    for item in ("Lantern", "Rope", "Snare"):
        plains.ok("trade", item, "--pelts", "1")
    assert "only 5 may be" in plains.refused("trade", "Map", "--meat", "1", code=1)
    assert "Trading Post Cards, 5 of 5 this playthrough:" in plains.ok("status")
    plains.ok("trade", "Map", "--meat", "1", "--force")
    assert len(plains.json("status")["trading"]) == 6
    assert plains.json("audit")["clean"]


def test_the_trading_count_belongs_to_the_playthrough(plains: Spire) -> None:
    says("Only 5 Trading Post Cards may be revealed each playthrough.")
    plains.ok("checkpoint", "before-the-post")
    for item in ("Lantern", "Rope", "Snare", "Map", "Flint"):
        plains.ok("trade", item, "--pelts", "1")
    plains.ok("rewind", "before-the-post")
    plains.ok("trade", "Lantern", "--pelts", "1")
    assert len(plains.json("status")["trading"]) == 1


def test_a_waterfall_event_row_by_row(plains: Spire) -> None:
    says("CHOOSE A CARD (ROW 1): Select 1 card from Row 1. Reveal it and Discard the rest from "
         "that row.",
         "RESOLVE: Follow the card's instructions. This usually means removing specific cards "
         "from the next row (e.g., Remove Row 2 cards B and F).",
         "ADVANCE TO NEXT ROW: From the remaining cards in the next row, choose 1. Reveal it.",
         "FINAL OUTCOME: When you reach a conclusion, Reveal the indicated Story Card.",
         "Morwen's Carriage: 15 Cards")
    plains.ok("reveal", "40")
    assert "no event cards retrieved" in plains.refused("waterfall", "lay", "3", "4", code=1)
    plains.ok("retrieve", "Morwen's Carriage")
    assert "has 15 cards; the rows hold 14" in plains.refused(
        "waterfall", "lay", "3", "4", "4", "3", code=1)
    assert "no row will contain more than 6" in plains.refused(
        "waterfall", "lay", "7", "4", "4", code=1)
    plains.ok("waterfall", "lay", "3", "4", "4", "4")
    assert "row 1 comes first" in plains.refused("waterfall", "choose", "2", "A", code=1)
    plains.ok("waterfall", "choose", "1", "2")
    plains.ok("waterfall", "remove", "B", "D")
    shown = plains.ok("status")
    assert "row 1: 2 chosen, the rest discarded" in shown
    assert "row 2: A (B removed) C (D removed)" in shown
    assert "one card a row" in plains.refused("waterfall", "choose", "1", "3", code=1)
    assert "was removed" in plains.refused("waterfall", "choose", "2", "B", code=1)
    assert "lettered A-F" in plains.refused("waterfall", "choose", "2", "3", code=2)
    plains.ok("waterfall", "choose", "2", "C")
    plains.ok("waterfall", "end", "112")
    status = plains.json("status")
    assert status["card"] == 112 and status["waterfall"]["ended"] == 112
    assert "Waterfall" not in plains.ok("status")
    assert plains.json("audit")["clean"]


def test_the_grid_never_shows_a_face_down_card(plains: Spire) -> None:
    says("All cards should be face down: Row 1 at the top, followed by Row 2, and so on.")
    plains.ok("retrieve", "Saving Imrie")
    plains.ok("waterfall", "lay", "3", "5", "5", "5")
    shown = plains.ok("status")
    assert "Waterfall: Saving Imrie, row 1 next" in shown
    assert "  row 1: 1 2 3" in shown and "  row 4: A B C D E" in shown


def test_the_episode_carries_over(plains: Spire, tmp_path: Path) -> None:
    says("This information will carry over into the next episode.",
         "- The Story Card your playthrough ended on", "- Your current Allies",
         "- Any Milestone Cards in play", "- Your current Item Cards")
    plains.ok("card", "add", "Dunstan", "--ally", "--hp", "6", "--ap", "2")
    plains.ok("draw", "Dunstan")
    plains.ok("retrieve", "M3")
    plains.ok("gain", "meat", "2")
    plains.ok("gain", "bees", "2")
    plains.ok("item", "gain", "Bone Knife", "--to", "Dunstan")
    plains.ok("reveal", "148")
    kept = tmp_path / "plains-1.json"
    missing = tmp_path / "no" / "such" / "dir.json"
    assert "nothing recorded" in plains.refused("episode", "end", "--output", str(missing),
                                                code=2)
    out = plains.ok("episode", "end", "--output", str(kept))
    assert "The episode ends on card 148" in out and f"Wrote the carry-over to {kept}" in out
    assert "has ended already" in plains.refused("episode", "end", code=1)
    carried = json.loads(kept.read_text())
    assert (carried["ended_on"], carried["allies"], carried["milestones"]) == (
        148, ["Finnian", "Dunstan"], [3])
    plains.ok("new", "plains-2", "--game", "volume2", "--from", str(kept))
    status = plains.json("status")
    assert (status["campaign"], status["milestones"]) == ("plains-2", [3])
    assert [c["name"] for c in status["characters"]] == ["Finnian", "Dunstan"]
    assert status["items"] == [{"name": "Bone Knife", "kind": "gear", "holder": "Dunstan"}]
    assert (status["resources"]["bees"], status["resources"]["meat"]) == (3, 2)
    assert "Carried over from plains, which ended on card 148" in status["notes"][0]
    assert plains.json("audit")["clean"]
    forged = {**carried, "resources": [["gold", 5]]}
    kept.write_text(json.dumps(forged))
    assert "Volume 2 keeps bees, pollen, meat, pelts" in plains.refused(
        "new", "plains-3", "--game", "volume2", "--from", str(kept), code=2)
    kept.write_text('{"spire_carry_over": 1, "allies": 3}')
    assert "not a carry-over file" in plains.refused(
        "new", "plains-3", "--game", "volume2", "--from", str(kept), code=2)
    assert "Hildegard has no episodes to carry over with --from" in plains.refused(
        "new", "oaks", "--game", "hildegard", "--from", str(kept), code=2)


SESSION = Path(__file__).parent / "sessions" / "volume2-episode1.txt"


def test_a_written_down_episode_runs_and_carries_over(plains: Spire, tmp_path: Path) -> None:
    """Reveals, a wildlife pull, fights, a trading post, a waterfall event, a milestone and
    the end of the episode, written down line by line and run with `spire play < file`."""
    kept = tmp_path / "plains-1.json"
    run = plains("play", input=SESSION.read_text().replace("OUTPUT", str(kept)))
    assert run.code == 0, run.err
    ended = plains.json("status")
    assert ended["card"] == 41 and ended["episode_ended"] == 41
    assert [(f["item"], f["bought"]) for f in ended["trading"]] == [("Bone Knife", True)]
    assert ended["waterfall"]["ended"] == 40
    assert plains.json("audit")["clean"]
    plains.ok("new", "plains-2", "--game", "volume2", "--from", str(kept))
    begun = plains.json("status")
    for kept_key in ("characters", "items", "milestones"):
        assert begun[kept_key] == ended[kept_key], kept_key
    assert begun["resources"] == ended["resources"]


def test_the_report_shows_the_trading_the_events_and_the_milestones(plains: Spire,
                                                                    tmp_path: Path) -> None:
    import jsonschema
    from test_report import SCHEMA

    session = SESSION.read_text().replace("OUTPUT", str(tmp_path / "kept.json"))
    assert plains("play", input=session).code == 0
    plains.ok("discard", "M2")
    report = json.loads(plains.ok("report", "--format", "json"))
    jsonschema.validate(report, SCHEMA)
    assert [(m["milestone"], m["discarded"] is not None) for m in report["milestones"]] == [
        (2, True)]
    assert [(t["item"], t["price"], t["bought"] is not None) for t in report["trades"]] == [
        ("Bone Knife", "1 meat and 1 pelt", True)]
    assert [(w["event"], w["chosen"], w["ended"]) for w in report["waterfalls"]] == [
        ("Morwen's Carriage", ["row 1 card 2", "row 2 card C"], 40)]
    assert [e["headline"] for e in report["encounters"]] == [
        "Encounter with Minor Needlegrass Nibbler: won in round 1",
        "Encounter with Wade Slocum: won in round 1"]
    markdown = plains.ok("report", "--format", "md")
    assert "## Milestones, trading and waterfall events" in markdown
    assert "- Morwen's Carriage (#" in markdown
    assert "Milestones, trading" in plains.ok("report", "--format", "html")


def test_the_pull_decks_are_pulled_by_name(plains: Spire) -> None:
    says("PULL CARDS: These cards aren't numbered and will come into play out of order. Pull "
         "Cards include the Ally Deck, the Duster Deck and the Wildlife Deck.",
         "Until your party is more than one Ally, you may only pull a Minor Needlegrass "
         "Nibbler.")
    assert "a party of one ally may pull only the Minor Needlegrass Nibbler" in plains.refused(
        "pull", "--deck", "wildlife", "Thornback Boar", code=1)
    out = plains.ok("pull", "--deck", "Wildlife", "Minor Needlegrass Nibbler")
    assert "Pulled Minor Needlegrass Nibbler from the Wildlife Deck" in out
    plains.ok("pull", "--deck", "duster", "Sheriff's Notice")
    assert "Volume 2's are ally, duster, wildlife" in plains.refused(
        "pull", "--deck", "story", "x", code=2)
    assert "give its number" in plains.refused("pull", "Dunstan", code=2)
    assert [e["type"] for e in plains.json("log")[-2:]] == ["deck-card-pulled"] * 2
    assert plains.json("audit")["clean"]


def test_gear_raises_a_limit_while_it_is_held(plains: Spire) -> None:
    says("Allies cannot exceed the HP Limit without additional gear.")
    plains.ok("card", "add", "Finnian", "--ally", "--recoup", "1")
    plains.ok("card", "add", "Wade Slocum", "--enemy", "--hp", "4", "--ap", "0", "--ferocity",
              "1", "--attacks", "1", "--retreat", "3")
    plains.ok("item", "gain", "Thick Coat", "--raises", "hp+1", "--raises", "ap+2")
    assert "Finnian (HP 5/6, AP 3/5)" in plains.ok("status")
    plains.ok("fight", "Wade Slocum")
    finnian = plains.json("status")["encounter"]["allies"][0]
    assert (finnian["hp"], finnian["hp_max"], finnian["ap"], finnian["ap_max"]) == (6, 6, 5, 5)
    plains.ok("end")
    plains.ok("item", "lose", "Thick Coat")
    assert "Finnian (HP 5/5, AP 3/3)" in plains.ok("status")
    assert "only gear raises an ally's HP or AP limit" in plains.refused(
        "item", "gain", "Lucky Charm", "--kind", "story", "--raises", "hp+1", code=2)
    assert "write hp+1 or ap+2" in plains.refused(
        "item", "gain", "Odd Hat", "--raises", "luck+1", code=2)


def test_a_single_use_item_is_used_up(plains: Spire) -> None:
    says("NOTE Single use Items can only be used if at least one Ally is in play. If all "
         "Allies are KO'd, items can't be used.")
    plains.ok("item", "gain", "Smoked Honey", "--kind", "single-use")
    plains.ok("item", "gain", "Bone Knife")
    assert "not single-use" in plains.refused("item", "use", "Bone Knife", code=2)
    plains.ok("item", "use", "smoked honey")
    assert [i["name"] for i in plains.json("status")["items"]] == ["Bone Knife"]
    assert plains.json("audit")["clean"]


WATERFALL = [["retrieve", "Morwen's Carriage"], ["waterfall", "lay", "3", "4", "4", "4"],
             ["waterfall", "choose", "1", "2"]]


@pytest.mark.parametrize(("given", "command", "why"), [
    ([["gain", "pelts", "1"], *[["trade", f"Card {n}", "--pelts", "1"] for n in range(5)]],
     ["trade", "Card 5", "--pelts", "1"], "only 5 may be"),
    (WATERFALL, ["waterfall", "choose", "1", "3"], "one card a row"),
    ([*WATERFALL, ["waterfall", "remove", "B"]], ["waterfall", "choose", "2", "B"],
     "was removed"),
    ([["trade", "Bone Knife", "--meat", "2"]], ["buy", "Bone Knife"], "you have 0 meat"),
    ([["reveal", "50"], ["discard", "50"]], ["retrieve", "50"], "will not be used again"),
], ids=["a sixth trading post card", "a second card of a row", "a removed card",
        "a purchase without the meat", "a discarded card"])
def test_every_refusal_between_fights_can_be_forced(
    plains: Spire, given: list[list[str]], command: list[str], why: str,
) -> None:
    for step in given:
        plains.ok(*step)
    assert why in plains.refused(*command, code=1)
    plains.ok(*command, "--force")
    [override] = plains.json("status")["overrides"]
    assert why in override["reason"]
    assert plains.json("audit")["clean"]


def test_gear_carries_its_raise_into_the_next_episode(plains: Spire, tmp_path: Path) -> None:
    plains.ok("item", "gain", "Thick Coat", "--raises", "hp+1")
    kept = tmp_path / "e1.json"
    plains.ok("episode", "end", "--output", str(kept))
    plains.ok("new", "plains-2", "--game", "volume2", "--from", str(kept))
    assert "Finnian (HP 5/6, AP 3/3)" in plains.ok("status")


def test_a_trading_post_card_is_bought_when_revealed(plains: Spire) -> None:
    says("When revealed, decide if you can purchase, then return the card to the deck.")
    plains.ok("reveal", "7")
    plains.ok("trade", "Bone Knife", "--meat", "1")
    plains.ok("reveal", "8")
    plains.ok("gain", "meat", "1")
    assert "was revealed at card 7" in plains.refused("buy", "Bone Knife", code=1)
    plains.ok("trade", "Bone Knife", "--meat", "1")  # the card comes up again
    plains.ok("buy", "Bone Knife")
    assert [t["bought"] for t in plains.json("status")["trading"]] == [False, True]
    assert [i["name"] for i in json.loads(plains.ok("report", "--format", "json"))["items"]] \
        == ["Bone Knife"], "the report counts an item bought"


def test_a_discarded_milestone_is_never_retrieved(plains: Spire) -> None:
    says("DISCARD: Remove a card from the game entirely. This card will not be used again.")
    plains.ok("retrieve", "M4")
    plains.ok("discard", "M4")
    assert "will not be used again" in plains.refused("retrieve", "M4", code=1)
    assert plains.refused("retrieve", "M0", code=2) == (
        "spire: milestones are numbered 1 to 9999, not 0")
    assert plains.refused("retrieve", "M10000", code=2) == (
        "spire: milestones are numbered 1 to 9999, not 10000")
    assert "numbered 1 to 9999" in plains.refused("retrieve", "M" + "9" * 23, code=2)


def test_the_episode_ends_on_the_story_card_and_play_goes_on_in_the_next(
        plains: Spire, tmp_path: Path) -> None:
    says("The Story Card your playthrough ended on")
    plains.ok("reveal", "5")
    plains.ok("pull", "30")
    plains.ok("episode", "end")
    assert plains.json("status")["episode_ended"] == 5
    line = plains.refused("trade", "Rope", "--pelts", "1", code=1)
    assert "episode over; `spire new NAME --game volume2 --from FILE`" in line


def test_a_forced_waterfall_choice_keeps_one_card_a_row(plains: Spire) -> None:
    plains.ok("retrieve", "Saving Imrie")
    plains.ok("waterfall", "lay", "3", "5", "5", "5")
    plains.ok("waterfall", "choose", "1", "1")
    plains.ok("waterfall", "choose", "3", "B", "--force")
    shown = plains.ok("status")
    assert "row 2: A B C D E" in shown and "row 3: B chosen" in shown
    assert "row 1's cards are unlettered" in plains.refused("waterfall", "choose", "1", "a",
                                                            code=2)
    plains.ok("waterfall", "end", "60", "--force")
    plains.ok("retrieve", "Saving Imrie")
    plains.ok("waterfall", "lay", "3", "7", "4", "4", "--force")  # no traceback on 7 cards
    assert "row 2: A B C D E F G" in plains.ok("status")


def test_a_waterfall_event_is_laid_once_a_retrieval(plains: Spire) -> None:
    plains.ok("retrieve", "Morwen's Carriage")
    plains.ok("waterfall", "lay", "3", "4", "4", "4")
    plains.ok("waterfall", "choose", "1", "1")
    plains.ok("waterfall", "end", "50")
    assert "has been played" in plains.refused("waterfall", "lay", "3", "4", "4", "4", code=1)


@pytest.mark.parametrize(("edit", "why"), [
    ({"milestones": [-1]}, "a milestone numbered below 1"),
    ({"allies": ["Finnian", "Dunstan"]}, "allies and cards that differ"),
    ({"items": [{"name": "Rope", "kind": "gear", "holder": "Imrie"}]},
     "an item held by someone not in the party"),
    ({"resources": [["bees", 1], ["bees", 2]]}, "a resource listed twice"),
])
def test_a_carry_over_file_spire_never_writes_is_refused(
        plains: Spire, tmp_path: Path, edit: dict[str, object], why: str) -> None:
    kept = tmp_path / "e1.json"
    plains.ok("episode", "end", "--output", str(kept))
    kept.write_text(json.dumps({**json.loads(kept.read_text()), **edit}))
    assert why in plains.refused("new", "p2", "--game", "volume2", "--from", str(kept), code=2)


def test_a_forced_debt_carries_over(plains: Spire, tmp_path: Path) -> None:
    plains.ok("trade", "Rope", "--meat", "1")
    plains.ok("buy", "Rope", "--force")
    kept = tmp_path / "e1.json"
    plains.ok("episode", "end", "--output", str(kept))
    plains.ok("new", "p2", "--game", "volume2", "--from", str(kept))
    assert plains.json("status")["resources"]["meat"] == -1
