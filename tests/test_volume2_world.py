"""Volume 2 between fights (issue 13), through the real CLI, quoting the rulebook
(rulebooks/volume2-episode1.txt): chapters, cards discarded for good, milestones in play."""

from __future__ import annotations

import pytest

from conftest import Spire, rulebook


def says(*sentences: str) -> None:
    text = " ".join(rulebook("volume2-episode1").split())
    for sentence in sentences:
        assert " ".join(sentence.split()) in text, sentence


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
    assert "2 of 5" not in plains.ok("status") and "5 of 5 this playthrough" in plains.ok("status")
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
