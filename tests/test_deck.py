"""The deck keywords, as each rulebook's Navigation section defines them."""

from __future__ import annotations

from conftest import Spire, quoted


def test_spires_end_reveal_removes_the_cards_in_between(spire: Spire) -> None:
    quoted("spires-end", "Any card in between must be removed from the game.")
    spire.ok("new", "tower", "--game", "spires-end")
    spire.ok("reveal", "10")
    out = spire.ok("reveal", "20")
    assert "cards 13-19 left the game" in out       # instruction cards 11 and 12 stay
    state = spire.json("status")
    assert state["card"] == 20
    assert state["removed"] == list(range(13, 20))
    assert "card 15 was removed from the game" in spire.refused("reveal", "15", code=1)


def test_pulled_card_returns_to_the_card_it_interrupted(hildegard: Spire) -> None:
    quoted("hildegard", "return to the previous Story Card")
    hildegard.ok("reveal", "1")
    hildegard.ok("pull", "33")
    hildegard.ok("pull", "34")
    assert hildegard.json("status")["pull_stack"] == [1, 33]
    hildegard.ok("return")
    assert hildegard.json("status")["card"] == 33
    hildegard.ok("return")
    state = hildegard.json("status")
    assert (state["card"], state["pull_stack"]) == (1, [])
    assert "no pulled card" in hildegard.refused("return", code=1)


def test_hildegard_cards_may_share_a_number(hildegard: Spire) -> None:
    quoted("hildegard", "Reveal 1 of the 3 starting cards")
    hildegard.ok("reveal", "1")
    hildegard.ok("reveal", "1")
    assert hildegard.json("status")["card"] == 1


def test_hildegard_chapters_one_to_four_each_a_checkpoint(hildegard: Spire) -> None:
    hildegard.ok("chapter", "1")
    hildegard.ok("chapter", "2")
    assert "start (#1)" in hildegard.ok("status")
    assert "chapter-2 (#3)" in hildegard.ok("status")
    assert "chapters 1 to 4, not 5" in hildegard.refused("chapter", "5", code=1)
    assert "rewind" in hildegard.refused("chapter", "1", code=1)


def test_an_undone_chapter_is_no_checkpoint(hildegard: Spire) -> None:
    hildegard.ok("chapter", "1")
    hildegard.ok("chapter", "2")
    hildegard.ok("undo")
    status = hildegard.ok("status")
    assert "chapter-1 (#2)" in status and "chapter-2" not in status
    assert hildegard.json("status")["chapter"] == 1
    hildegard.ok("chapter", "2")
    assert "chapter-2 (#5)" in hildegard.ok("status")


def test_volume2_discard_removes_and_retrieve_brings_back(spire: Spire) -> None:
    quoted("volume2-episode1", "DISCARD: Remove a card from the game entirely.")
    spire.ok("new", "plains", "--game", "volume2")
    spire.ok("reveal", "1")
    spire.ok("discard", "45")
    assert spire.json("status")["removed"] == [45]
    assert "removed from the game" in spire.refused("reveal", "45", code=1)
    spire.ok("reveal", "2")
    spire.ok("retrieve", "1")
    assert spire.json("status")["card"] == 1
    spire.ok("return")
    spire.ok("retrieve", "M4")
    spire.ok("retrieve", "dunstan")
    state = spire.json("status")
    assert state["milestones"] == [4]
    assert state["event_cards"] == ["Dunstan Duel"]
    assert "has not been played" in spire.refused("retrieve", "99", code=1)
    assert "cannot read" in spire.refused("retrieve", "Nowhere", code=2)


def test_retrieve_is_volume2s_keyword(hildegard: Spire) -> None:
    hildegard.ok("reveal", "1")
    assert "has no Retrieve" in hildegard.refused("retrieve", "1", code=1)
    assert "override recorded" in hildegard.ok("retrieve", "1", "--force")


def test_one_card_left_the_game_is_one_card(spire: Spire) -> None:
    """Issue 31's messages: "cards 13 left the game" for one card."""
    spire.ok("new", "tower", "--game", "spires-end")
    spire.ok("reveal", "10")
    out = spire.ok("reveal", "14")
    assert "; card 13 left the game" in out and "cards 13" not in out
