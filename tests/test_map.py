"""`spire map`: the story cards every road reached, across a campaign's branches and every
campaign of its game, spoiler-safe, through the real CLI."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from conftest import Spire
from freezegun import freeze_time

SEEN = {201, 204, 210, 211, 215, 220, 230, 240}
"""Every card a road of the Hildegard campaigns reached (undone reveals aside)."""


def _roads(spire: Spire) -> None:
    """Campaign `oaks` with three branches (main, bolder, third), campaign `elms` of the same
    game, and a Spire's End campaign that must stay off the map."""
    spire.ok("new", "oaks", "--game", "hildegard")
    spire.ok("reveal", "201")
    spire.ok("chapter", "1")
    spire.ok("reveal", "210")
    spire.ok("checkpoint", "fork")
    spire.ok("target", "Pesky Jackalope")  # its hit and miss cards (30, 32) are not seen
    spire.ok("end")
    spire.ok("reveal", "220")
    spire.ok("rewind", "fork", "--as", "bolder")
    spire.ok("reveal", "230")
    spire.ok("pull", "240")
    spire.ok("rewind", "fork", "--as", "third")
    spire.ok("reveal", "299")
    spire.ok("undo")  # an undone reveal: never seen
    spire.ok("reveal", "215")
    spire.ok("reveal", "210")  # again, on this road
    spire.ok("new", "elms", "--game", "hildegard")
    spire.ok("reveal", "201")
    spire.ok("reveal", "204")
    spire.ok("reveal", "211")
    spire.ok("new", "other", "--game", "spires-end")
    spire.ok("reveal", "205")  # another game: not on Hildegard's map
    spire.ok("use", "oaks")
    spire.ok("switch", "bolder")


@pytest.fixture
def mapped(spire: Spire) -> Spire:
    with freeze_time("2020-01-01 00:00:00", tick=True):
        _roads(spire)
    return spire


def test_map_json_counts_every_road_of_every_campaign_of_the_game(mapped: Spire) -> None:
    found = mapped.json("map")
    assert found["game"] == "hildegard"
    assert found["current"] == "oaks/bolder"
    assert found["campaigns"] == ["oaks", "elms"]
    cards = {c["card"]: c for c in found["cards"]}
    assert set(cards) == SEEN
    assert found["seen"] == len(SEEN)
    assert cards[201]["times"] == 2  # once in each campaign: the branches share oaks' reach
    assert cards[210]["times"] == 2  # revealed on main, and again on third
    assert cards[201]["roads"] == ["oaks/main", "oaks/bolder", "oaks/third", "elms/main"]
    assert cards[201]["first"]["road"] == "oaks/main"
    assert cards[204]["first"]["road"] == "elms/main"
    assert cards[201]["chapter"] is None and cards[210]["chapter"] == 1
    assert cards[240]["chapter"] == 1


def test_map_json_shows_where_each_road_parted_and_its_own_cards(mapped: Spire) -> None:
    roads = {(r["campaign"], r["branch"]): r for r in mapped.json("map")["roads"]}
    assert set(roads) == {("oaks", "main"), ("oaks", "bolder"), ("oaks", "third"),
                          ("elms", "main")}
    main, bolder, third = roads["oaks", "main"], roads["oaks", "bolder"], roads["oaks", "third"]
    assert main["path"] == [201, 210, 220] and main["parent"] is None
    assert bolder["parent"] == "main" and bolder["card_at_fork"] == 210
    assert bolder["path"] == [201, 210, 230, 240] and bolder["own"] == [230, 240]
    assert third["own"] == [215, 210] and third["fork"] == bolder["fork"]
    assert bolder["current"] and not main["current"]


def test_map_skips_unseen_numbers_as_counts_only(mapped: Spire) -> None:
    skipped = mapped.json("map")["skipped"]
    assert skipped[0] == {"after": 201, "before": 204, "count": 2}
    ordered = sorted(SEEN)
    assert sum(s["count"] for s in skipped) == ordered[-1] - ordered[0] + 1 - len(SEEN)
    assert {s["after"] for s in skipped} | {s["before"] for s in skipped} <= SEEN


def test_no_unseen_card_number_or_name_appears(mapped: Spire) -> None:
    """Neither the view nor the JSON names a card the players did not see: not a number
    between the cards seen, not the undone reveal, not the target's hit or miss card, not a
    card of another game, and no card's name (the catalog's target included)."""
    unseen = set(range(1, 300)) - SEEN
    for text in (mapped.ok("map"), mapped.ok("map", "--json")):
        shown = {int(n) for n in re.findall(r"(?<![\d.:-])\d+(?![\d:-])", text)}
        # Counts, positions and such are small; every card here is numbered in the 200s.
        assert not (shown & unseen & set(range(200, 300))), shown & unseen
        assert "Pesky Jackalope" not in text and "Jackalope" not in text
        assert not {30, 32, 205} & {int(n) for n in re.findall(r"card\D{0,3}(\d+)", text)}
    found = mapped.json("map")
    numbers = [c["card"] for c in found["cards"]]
    numbers += [n for r in found["roads"] for n in (*r["path"], *r["own"])]
    numbers += [r["card_at_fork"] for r in found["roads"] if r["card_at_fork"] is not None]
    assert set(numbers) <= SEEN


def test_map_view_lists_cards_gaps_and_the_road_tree(mapped: Spire) -> None:
    out = mapped.ok("map")
    assert out.splitlines()[0] == (
        "Story map of Spire's End: Hildegard: 2 campaigns, 4 roads, 8 cards seen")
    assert "Cards first seen by chapter: before any chapter: 3; chapter 1: 5" in out
    assert "2 numbers skipped" in out
    assert "*     bolder (from main at #4, card 210): 230 → 240" in out
    assert "      third (from main at #4, card 210): 215 → 210" in out
    assert "    main: 201 → 204 → 211" in out


def test_map_appends_nothing(mapped: Spire) -> None:
    before = mapped.journal_rows()
    mapped.ok("map")
    mapped.ok("map", "--json")
    assert mapped.journal_rows() == before


def test_map_of_a_new_campaign_has_no_card(spire: Spire) -> None:
    spire.ok("new", "fresh", "--game", "volume2")
    assert spire.json("map")["cards"] == []
    assert "No story card reached yet." in spire.ok("map")


def test_map_without_a_campaign_is_one_line(spire: Spire) -> None:
    assert "no journal at" in spire.refused("map", code=3)
    spire.ok("card", "add", "Rat", "--game", "hildegard", "--enemy", "--limit", "1",
             "--accuracy", "1")
    assert "no current campaign" in spire.refused("map", code=2)    # a journal, no campaign
    spire.ok("new", "oaks", "--game", "hildegard")
    assert "no campaign named 'nope'" in spire.refused("--campaign", "nope", "map", code=2)


def test_a_reach_undone_on_its_own_branch_after_a_fork_still_counts_on_the_fork(
        spire: Spire) -> None:
    """The child forked after the reveal keeps it; the parent undid it since: once, on the
    branch that holds it."""
    spire.ok("new", "oaks", "--game", "hildegard")
    spire.ok("reveal", "201")
    spire.ok("checkpoint", "after")
    spire.ok("rewind", "after", "--as", "kept")
    spire.ok("switch", "main")
    spire.ok("undo")
    found = spire.json("map")
    assert found["cards"][0]["card"] == 201 and found["cards"][0]["times"] == 1
    assert found["cards"][0]["roads"] == ["oaks/kept"]


def test_the_reports_map_draws_only_cards_seen_and_highlights_the_current_road(
        mapped: Spire) -> None:
    """The inline SVG (journal/report/roads.py): a node and a label for each card seen and
    nothing else, the current road's arcs in its own colour, names escaped."""
    from journal.insight import mapping
    from journal.report import roads
    from journal.service.reading import Reading

    game, current, found_roads = mapping.roads(Reading(str(mapped.db)))
    drawn = roads.svg(mapping.story_map(game, current, found_roads))
    labels = {int(n) for n in re.findall(r">(\d+)</text>", drawn)}
    assert labels == SEEN
    assert drawn.count("<circle") == len(SEEN)
    assert drawn.count(f'stroke="{roads.CURRENT}"') == 3  # 201 -> 210 -> 230 -> 240
    assert "<script" not in drawn and drawn.startswith("<svg")
    reached = tuple(mapping.Reach(card, card, None, datetime(2020, 1, 1), "revealed")
                    for card in (1, 3))
    road = mapping.Road("<b>&", "main", None, None, True, reached)
    assert "&lt;b&gt;&amp;" in roads.svg(mapping.story_map("hildegard", "<b>&/main", [road]))


def test_a_road_parted_after_a_return_parted_at_the_card_returned_to(spire: Spire) -> None:
    """"Once you are finished with the pulled card, return to the previous Story Card"
    (Hildegard, Pull): a branch rewound to after the return parted at card 1, as status
    says there, not at the card pulled (the map said card 12)."""
    spire.ok("new", "oaks", "--game", "hildegard")
    spire.ok("reveal", "1")
    spire.ok("pull", "12")
    spire.ok("return")
    spire.ok("checkpoint", "back")
    spire.ok("reveal", "26")
    spire.ok("rewind", "back", "--as", "other")
    assert spire.json("status")["card"] == 1
    spire.ok("reveal", "30")
    roads = {r["branch"]: r for r in spire.json("map")["roads"]}
    assert roads["other"]["card_at_fork"] == 1
    assert roads["main"]["path"] == [1, 12, 26]  # a return reaches no card: it goes back
    assert "other (from main at #4, card 1): 30" in spire.ok("map")
