"""How many story cards a game has, as its rulebook's Components print it: a command that
names a story card past the count is refused, citing Components, and `--force` records it
anyway; the original Spire's End prints no count, and holds no card number to one.

"Story Cards x 408" (Hildegard, Components) and "Episode Cards x 149" (Volume 2,
Components). The cards are numbered in order from 1, so none is numbered past the count.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Spire, quoted, rulebook

from journal.core import decide

HILDEGARD = "Spire's End: Hildegard has 408 story cards"
VOLUME2 = "Spire's End: Volume 2, Episode 1 has 149 episode cards"
CITED = "rulebook: Components; --force"


def _components() -> None:
    quoted("hildegard", "Components Story Cards x 408", "The cards are in numerical order.")
    quoted("volume2-episode1", "Components - Episode Cards x 149",
           "The Story Cards are in numerical order.")


def _refusal(counted: str, card: int, forced: str = "records it anyway") -> str:
    """The refusal; `card add`'s --force "enters it anyway" (the catalog is no event)."""
    return f"spire: {counted}: no card {card}\n{CITED} {forced}"


# (game, command, card, the count it breaks, or None: recorded)
CASES = [
    ("hildegard", "reveal", 1, None),
    ("hildegard", "reveal", 408, None),
    ("hildegard", "reveal", 409, HILDEGARD),
    ("hildegard", "reveal", 99999, HILDEGARD),
    ("hildegard", "pull", 408, None),
    ("hildegard", "pull", 409, HILDEGARD),
    ("volume2", "reveal", 1, None),
    ("volume2", "reveal", 149, None),
    ("volume2", "reveal", 150, VOLUME2),
    ("volume2", "reveal", 500, VOLUME2),
    ("volume2", "pull", 149, None),
    ("volume2", "pull", 150, VOLUME2),
    ("volume2", "discard", 149, None),
    ("volume2", "discard", 150, VOLUME2),
    ("spires-end", "reveal", 1, None),
    ("spires-end", "reveal", 409, None),
    ("spires-end", "reveal", 99999, None),
    ("spires-end", "pull", 99999, None),
]


@pytest.mark.parametrize(("game", "command", "card", "counted"), CASES,
                         ids=[f"{g} {c} {n}" for g, c, n, _ in CASES])
def test_a_story_card_past_the_count_is_refused(
    spire: Spire, game: str, command: str, card: int, counted: str | None,
) -> None:
    _components()
    spire.ok("new", "deck", "--game", game)
    if counted is None:
        spire.ok(command, str(card))
        return
    assert spire.refused(command, str(card), code=1) == _refusal(counted, card)


def test_quote_the_original_spires_end_prints_no_count_of_its_cards() -> None:
    """Its Components & Play Field name the decks and no number of cards ("Seven of five
    hundred and eighteen souls" counts people): no card number is past a count there."""
    text = rulebook("spires-end")
    assert "Components & Play Field" in text and "B Story Deck" in text
    assert " x " not in text and "Cards x" not in text


def test_the_count_comes_before_the_other_rules(hildegard: Spire) -> None:
    """A card past the count, not revealed either: the count is said, the first reason."""
    assert hildegard.refused("discard", "409", code=1) == _refusal(HILDEGARD, 409)
    hildegard.ok("reveal", "1")
    hildegard.ok("pull", "30")
    assert hildegard.refused("reveal", "409", code=1) == _refusal(HILDEGARD, 409)


def test_retrieve_and_a_waterfall_end_name_story_cards(spire: Spire) -> None:
    quoted("volume2-episode1",
           "RETRIEVE: Draw a card that has already been played or from a non-story deck",
           "FINAL OUTCOME: When you reach a conclusion, Reveal the indicated Story Card.")
    spire.ok("new", "plains", "--game", "volume2")
    spire.ok("reveal", "149")
    spire.ok("reveal", "2")
    assert spire.refused("retrieve", "150", code=1) == _refusal(VOLUME2, 150)
    spire.ok("retrieve", "149")
    spire.ok("return")
    spire.ok("retrieve", "Morwen's Carriage")
    spire.ok("waterfall", "lay", "3", "4", "4", "4")
    spire.ok("waterfall", "choose", "1", "2")
    assert spire.refused("waterfall", "end", "150", code=1) == _refusal(VOLUME2, 150)
    spire.ok("waterfall", "end", "149")


def test_the_other_decks_are_not_story_cards(spire: Spire) -> None:
    """Milestones are numbered on their own; pull cards, event cards and trading post cards
    are drawn by name: none is held to the count of story cards."""
    quoted("volume2-episode1", "PULL CARDS: These cards aren't numbered",
           "you may be instructed to retrieve a specific Milestone Card. Each is numbered.")
    spire.ok("new", "plains", "--game", "volume2")
    assert spire.ok("retrieve", "M150").startswith("#2 Retrieved milestone 150")
    assert spire.ok("discard", "M150").startswith("#3 Discarded milestone 150")
    assert spire.ok("pull", "--deck", "wildlife", "Minor Needlegrass Nibbler").startswith(
        "#4 Pulled Minor Needlegrass Nibbler from the Wildlife Deck")


def test_hildegards_supplemental_cards_share_the_numbers_they_swap(spire: Spire) -> None:
    quoted("hildegard", "Pull Cards 377 and 378. These are Hallveig's Character and Weapon Cards.",
           "They swap out with Cards 67, 75, 117, 156 and 373.")
    spire.ok("new", "sisters", "--game", "hildegard", "--players", "2")
    assert "2 Player Supplemental" in spire.ok("reveal", "373")
    assert spire.refused("pull", "409", code=1) == _refusal(HILDEGARD, 409)


def test_force_records_a_card_past_the_count(hildegard: Spire) -> None:
    out = hildegard.ok("reveal", "409", "--force")
    reason = f"{HILDEGARD}: no card 409 (rulebook: Components)"
    assert f"override recorded: {reason}" in out
    status = hildegard.json("status")
    assert status["card"] == 409
    assert [o["reason"] for o in status["overrides"]] == [reason]
    assert hildegard.json("log", "--last", "1")[0]["override"] == reason
    audit = hildegard.json("audit")
    assert audit["clean"] and len(audit["overrides"]) == 1


def test_events_in_a_journal_already_are_not_held_to_the_count(
    hildegard: Spire, new_journal: Callable[[str], Spire], tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A card an older spire recorded past the count (it held none) is read, shown,
    replayed, exported and imported as it was: only a new command is refused."""
    with monkeypatch.context() as older:
        older.setattr(decide, "past_the_count", lambda game, numbers: [])
        hildegard.ok("reveal", "500")
    assert hildegard.json("status")["card"] == 500
    assert "Revealed card 500" in hildegard.ok("log")
    hildegard.ok("replay")
    exported = tmp_path / "oaks.jsonl"
    hildegard.ok("export", "-o", str(exported))
    elsewhere = new_journal("elsewhere")
    elsewhere.ok("import", str(exported), "--name", "copy")
    assert elsewhere.json("status")["card"] == 500
    hildegard.ok("gain", "gold", "1")  # play goes on from it
    assert hildegard.refused("reveal", "501", code=1) == _refusal(HILDEGARD, 501)


# -- the cards the players enter ---------------------------------------------------------

OGRE = ["card", "add", "Ogre", "--target", "--limit", "2", "--accuracy", "3", "--sets", "2",
        "--parts", "c,r,d"]


def _entered(spire: Spire) -> list[tuple[object, ...]]:
    return spire.sql("SELECT name, number FROM cards ORDER BY id")


@pytest.mark.parametrize(("given", "card"), [
    (["--number", "409"], 409), (["--hit", "409"], 409), (["--miss", "500"], 500),
    (["--number", "140", "--hit", "141", "--miss", "409"], 409)])
def test_card_add_refuses_a_story_card_past_the_count(
    hildegard: Spire, given: list[str], card: int,
) -> None:
    assert hildegard.refused(*OGRE, *given, code=1) == _refusal(HILDEGARD, card, "enters it anyway")
    assert _entered(hildegard) == []
    hildegard.ok(*OGRE, "--number", "408", "--hit", "1", "--miss", "407")
    assert _entered(hildegard) == [("Ogre", 408)]


def test_card_add_refuses_a_meter_sending_the_players_past_the_count(hildegard: Spire) -> None:
    meter = ["card", "add", "Big Meter", "--meter", "--accuracy", "4", "--squares", "c,r"]
    entering = _refusal(HILDEGARD, 409, "enters it anyway")
    assert hildegard.refused(*meter, "--win", "409", code=1) == entering
    assert hildegard.refused(*meter, "--lose", "409", code=1) == entering
    assert _entered(hildegard) == []


def test_card_add_with_force_enters_it_and_says_so(hildegard: Spire) -> None:
    out = hildegard.ok(*OGRE, "--number", "409", "--force")
    assert out.splitlines()[:2] == [
        "Entered Ogre: target, card 409",
        f"   override: {HILDEGARD}: no card 409 (rulebook: Components)"]
    assert _entered(hildegard) == [("Ogre", 409)]


def test_card_add_in_volume2_and_in_the_original(spire: Spire) -> None:
    spire.ok("new", "plains", "--game", "volume2")
    wade = ["card", "add", "Wade", "--enemy", "--hp", "8"]
    assert spire.refused(*wade, "--number", "150", code=1) == \
        _refusal(VOLUME2, 150, "enters it anyway")
    assert _entered(spire) == []
    spire.ok(*wade, "--number", "149")
    spire.ok(*wade, "--number", "150", "--force")
    spire.ok("card", "add", "Ogre", "--game", "spires-end", "--enemy", "--hp", "8",
             "--number", "99999")
    assert _entered(spire) == [("Wade", 150), ("Ogre", 99999)]


def test_a_target_sending_the_players_past_the_count(hildegard: Spire) -> None:
    quoted("hildegard", "Card 30, or Miss → Card 32")
    inline = ["target", "Jackalope", "--limit", "1", "--accuracy", "2", "--sets", "1",
              "--parts", "c,r,d"]
    assert hildegard.refused(*inline, "--hit", "409", code=1) == _refusal(HILDEGARD, 409)
    assert hildegard.refused(*inline, "--miss", "409", code=1) == _refusal(HILDEGARD, 409)
    out = hildegard.ok(*inline, "--hit", "30", "--miss", "409", "--force")
    assert f"override recorded: {HILDEGARD}: no card 409 (rulebook: Components)" in out


def test_a_face_off_on_a_meter_sending_the_players_past_the_count(hildegard: Spire) -> None:
    """A card entered past the count with --force is held to it again where it is played."""
    hildegard.ok("card", "add", "Big Meter", "--meter", "--accuracy", "4", "--squares", "c,r",
                 "--win", "409", "--force")
    faceoff = ["faceoff", "The Crows", "--meter", "Big Meter"]
    assert hildegard.refused(*faceoff, code=1) == _refusal(HILDEGARD, 409)
    out = hildegard.ok(*faceoff, "--force")
    assert f"override recorded: {HILDEGARD}: no card 409 (rulebook: Components)" in out


def test_two_numbers_past_the_count_are_one_reason(hildegard: Spire) -> None:
    """A card naming two cards past the count says so once, both numbers in it (the
    override line said the count twice, in about 160 characters)."""
    line = hildegard.refused(*OGRE, "--number", "500", "--hit", "600", code=1)
    assert line == f"spire: {HILDEGARD}: no cards 500, 600\n{CITED} enters it anyway"
    out = hildegard.ok(*OGRE, "--number", "500", "--hit", "600", "--force")
    assert out.splitlines()[1] == \
        f"   override: {HILDEGARD}: no cards 500, 600 (rulebook: Components)"
