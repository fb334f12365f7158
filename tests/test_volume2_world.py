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
