"""The card catalog (issue 3, Catalog): cards entered once and reused, the rulebook's
examples shipped with it, and listing that never shows a card the campaign has not met."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from conftest import Spire

from journal import store
from journal.paths import shipped

OGRE = ("card", "add", "Ogre", "--target", "--number", "140", "--limit", "2", "--accuracy",
        "3", "--sets", "2", "--parts", "c,r,d", "--reward", "1 gold", "--bonus",
        "3 bullseyes, 1 feat", "--hit", "141", "--miss", "142")
CROW_KING = ("card", "add", "Crow King", "--enemy", "--limit", "5", "--accuracy", "3",
             "--parts", "c,r,d", "--reward", "2 feats")
EXAMPLES = ["Pesky Jackalope", "Street Merchant", "Card Peddler", "The Crows",
            "Hildegard's Hit Meter"]


def names(spire: Spire) -> list[str]:
    return [card["name"] for card in spire.json("card", "list")]


def catalog_rows(spire: Spire) -> list[tuple[Any, ...]]:
    with sqlite3.connect(spire.db) as conn:
        return conn.execute("SELECT game, name, kind, number, data FROM cards").fetchall()


# -- entering, listing, showing -----------------------------------------------------------

def test_a_target_is_entered_once_and_shown_with_its_printed_numbers(hildegard: Spire) -> None:
    out = hildegard.ok(*OGRE)
    assert out.splitlines()[0] == "Entered Ogre: target, card 140"
    hildegard.ok("reveal", "140")

    assert hildegard.ok("card", "show", "ogre").splitlines() == [
        "Ogre: target, card 140 (entered)",
        "  bullseye limit 2, accuracy 3, 2 sets",
        "  parts: crescent, ring, dot",
        "  reward: 1 gold",
        "  bonus: 3 bullseyes over all sets, 1 feat",
        "  hit: card 141; miss: card 142",
    ]
    shown = hildegard.json("card", "show", "Ogre")
    assert shown == {
        "kind": "target", "name": "Ogre", "number": 140, "bullseye_limit": 2, "accuracy": 3,
        "sets": 2, "parts": ["crescent", "ring", "dot"],
        "reward": {"resource": "gold", "amount": 1},
        "bonus": {"bullseyes": 3, "combination": None,
                  "reward": {"resource": "feats", "amount": 1}},
        "hit_card": 141, "miss_card": 142, "source": "entered", "rulebook_example": False,
    }
    assert "Ogre" in hildegard.ok("card", "list").splitlines()[-1]


def test_an_entered_target_is_taken_aim_at_by_name(hildegard: Spire) -> None:
    hildegard.ok(*OGRE)
    assert "takes aim at Ogre: 2 bullseyes to hit, accuracy 3, 2 sets" in hildegard.ok(
        "target", "ogre")
    assert hildegard.json("status")["encounter"]["card"]["hit_card"] == 141


def test_an_enemy_and_a_hit_meter_are_entered_and_face_off(hildegard: Spire) -> None:
    hildegard.ok(*CROW_KING)
    hildegard.ok("card", "add", "Iron Meter", "--meter", "--accuracy", "4", "--number", "12",
                 "--squares", "c,c,r!,d:flub,?", "--win", "20", "--lose", "21")
    hildegard.ok("faceoff", "Crow King", "--meter", "iron meter")

    assert hildegard.ok("card", "show", "Iron Meter").splitlines() == [
        "Iron Meter: meter, card 12 (entered)",
        "  hit accuracy 4",
        "  squares: 1 crescent, 2 crescent, 3 ring (gray), 4 dot (tab: flub), 5 ?",
        "  win: card 20; lose: card 21",
    ]
    assert hildegard.ok("card", "show", "Crow King").splitlines() == [
        "Crow King: enemy (entered)",
        "  bullseye limit 5, hit accuracy 3",
        "  parts: crescent, ring, dot",
        "  reward: 2 feats",
    ]


def test_the_rulebooks_examples_are_listed_even_before_a_campaign(spire: Spire) -> None:
    from journal.games.volume2.catalog import rulebook_cards

    listed = spire.json("card", "list")  # every game's, with no campaign to say which
    assert [c["name"] for c in listed] == [*EXAMPLES, *rulebook_cards()]
    assert {(c["source"], c["rulebook_example"]) for c in listed} == {("rulebook", True)}
    assert "rulebook example" in spire.ok("card", "list").splitlines()[0]
    assert spire.ok("card", "show", "The Crows").splitlines() == [
        "The Crows: enemy (rulebook example)",
        "  bullseye limit 7, hit accuracy 3",
        "  parts: not entered (every part counts)",
        "  reward: 1 feat",
    ]


def test_a_card_is_entered_without_a_campaign_and_kept_for_every_campaign(spire: Spire) -> None:
    # `card add` is each game's own: with no campaign yet, --game says whose catalog.
    assert "with no campaign yet, --game says which" in spire.refused(*OGRE, code=2)
    spire.ok(*OGRE, "--game", "hildegard")
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("reveal", "140")
    assert names(spire)[-1] == "Ogre"


def test_game_names_the_catalog_whatever_the_campaign(spire: Spire) -> None:
    spire.ok("new", "plains", "--game", "volume2")
    spire.ok(*OGRE, "--game", "hildegard")
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("reveal", "140")
    assert names(spire)[-1] == "Ogre"
    assert "unknown game 'chess'" in spire.refused(*OGRE, "--game", "chess", code=2)


# -- replacing ----------------------------------------------------------------------------

def test_entering_a_name_again_replaces_that_card_whatever_its_case(hildegard: Spire) -> None:
    hildegard.ok(*OGRE)
    out = hildegard.ok("card", "add", "OGRE", "--target", "--number", "140", "--limit", "3",
                       "--accuracy", "4", "--sets", "1", "--parts", "c")
    assert out.splitlines()[0] == "Replaced OGRE: target, card 140"
    assert [(name, number) for _, name, _, number, _ in catalog_rows(hildegard)] == [("OGRE", 140)]
    hildegard.ok("reveal", "140")
    shown = hildegard.json("card", "show", "ogre")
    assert (shown["bullseye_limit"], shown["accuracy"], shown["sets"], shown["reward"]) == (
        3, 4, 1, None)


def test_a_replaced_card_can_change_its_kind(hildegard: Spire) -> None:
    hildegard.ok(*OGRE)
    hildegard.ok("card", "add", "Ogre", "--enemy", "--number", "140", "--limit", "4",
                 "--accuracy", "3")
    hildegard.ok("reveal", "140")
    assert hildegard.json("card", "show", "Ogre")["kind"] == "enemy"
    line = hildegard.refused("target", "Ogre", code=2)
    assert "no target card named 'Ogre'" in line


def test_a_card_entered_under_an_examples_name_is_used_and_listed_in_its_place(
    hildegard: Spire,
) -> None:
    hildegard.ok("card", "add", "The Crows", "--enemy", "--limit", "7", "--accuracy", "3",
                 "--parts", "c,r", "--reward", "1 feat")
    crows = [c for c in hildegard.json("card", "list") if c["name"] == "The Crows"]
    assert len(crows) == 1
    assert (crows[0]["parts"], crows[0]["source"], crows[0]["rulebook_example"]) == (
        ["crescent", "ring"], "entered", True)
    assert "entered, in place of the rulebook example" in hildegard.ok(
        "card", "show", "The Crows")
    hildegard.ok("faceoff", "The Crows")
    started = hildegard.json("log")[-1]["payload"]
    assert started["enemies"][0]["parts"] == ["crescent", "ring"]


# -- an encounter keeps its own copy ------------------------------------------------------

def test_replacing_a_card_never_changes_an_encounter_already_under_way(hildegard: Spire) -> None:
    hildegard.ok(*OGRE)
    hildegard.ok("target", "Ogre")
    hildegard.ok("card", "add", "Ogre", "--target", "--number", "140", "--limit", "5",
                 "--accuracy", "4", "--sets", "3", "--parts", "c")

    card = hildegard.json("status")["encounter"]["card"]
    assert (card["bullseye_limit"], card["accuracy"], card["sets"]) == (2, 3, 2)
    assert "Ogre: 0 of 2 bullseyes | 0 sets done, 2 left" in hildegard.ok("status")
    assert hildegard.json("log")[-1]["payload"]["card"]["bullseye_limit"] == 2
    assert hildegard.json("card", "show", "Ogre")["bullseye_limit"] == 5


# -- spoiler-safe ---------------------------------------------------------------------------

def test_an_entered_card_is_listed_only_once_its_number_is_revealed(hildegard: Spire) -> None:
    hildegard.ok(*OGRE)
    assert names(hildegard) == EXAMPLES
    assert "Ogre" not in hildegard.ok("card", "list")
    hildegard.ok("reveal", "140")
    assert names(hildegard) == [*EXAMPLES, "Ogre"]


def test_showing_an_unmet_card_says_no_more_than_for_an_unknown_name(hildegard: Spire) -> None:
    hildegard.ok(*OGRE)
    unmet = hildegard.refused("card", "show", "Ogre", code=2)
    unknown = hildegard.refused("card", "show", "Troll", code=2)
    assert unmet == "spire: no card named 'Ogre' that this campaign has met\n" \
        "`spire card list` lists the cards it may see"
    assert unmet.replace("Ogre", "Troll") == unknown
    run = hildegard("card", "show", "Ogre", "--json")
    assert (run.code, run.out) == (2, "")


def test_an_undone_reveal_meets_nothing(hildegard: Spire) -> None:
    hildegard.ok(*OGRE)
    hildegard.ok("reveal", "140")
    hildegard.ok("undo")
    assert "Ogre" not in names(hildegard)


def test_an_unnumbered_card_is_listed_once_an_encounter_of_the_campaign_used_it(
    hildegard: Spire,
) -> None:
    hildegard.ok(*CROW_KING)
    hildegard.ok("reveal", "5")
    assert "Crow King" not in names(hildegard)
    hildegard.ok("faceoff", "Crow King")
    assert names(hildegard)[-1] == "Crow King"


def test_a_card_one_campaign_met_stays_hidden_from_another(hildegard: Spire) -> None:
    hildegard.ok(*OGRE)
    hildegard.ok("reveal", "140")
    hildegard.ok("new", "second-run", "--game", "hildegard")
    assert "Ogre" not in names(hildegard)
    hildegard.refused("card", "show", "Ogre", code=2)
    assert "Ogre" in names_of(hildegard, "gray-oaks")


def names_of(spire: Spire, campaign: str) -> list[str]:
    return [c["name"] for c in spire.json("--campaign", campaign, "card", "list")]


def test_another_games_campaign_lists_none_of_hildegards_cards(spire: Spire) -> None:
    spire.ok("new", "old-tower", "--game", "spires-end")
    assert spire.json("card", "list") == []  # its own cards, once met: tests/test_spires_end_cli


# -- refusals -------------------------------------------------------------------------------

TARGET = ("--limit", "2", "--accuracy", "3", "--sets", "2", "--parts", "c,r,d")


@pytest.mark.parametrize(("args", "says"), [
    (("Ogre", *TARGET), "one of --target, --enemy, --meter"),
    (("Ogre", "--target", "--enemy", *TARGET), "one of --target, --enemy, --meter"),
    (("Ogre", "--target", "--limit", "2", "--accuracy", "3"),
     "a target card needs --sets, --parts"),
    (("Ogre", "--enemy", "--limit", "2", "--accuracy", "3", "--sets", "2"),
     "--sets is not printed on an enemy card"),
    (("Ogre", "--meter", "--accuracy", "4"), "a meter card needs --squares"),
    (("Ogre", "--target", *TARGET, "--squares", "c,c"), "--squares is not printed on a target"),
    (("Ogre", "--target", "--limit", "2", "--accuracy", "3", "--sets", "2", "--parts", "c,x"),
     "unknown face 'x'"),
    (("Ogre", "--target", *TARGET, "--reward", "lots of gold"), "cannot read reward"),
    (("Ogre", "--target", *TARGET, "--bonus", "3 bullseyes"), "cannot read bonus"),
    (("Ogre", "--target", *TARGET, "--bonus", "0 bullseyes, 1 feat"),
     "cannot enter 'Ogre': bullseyes"),
    (("Ogre", "--target", *TARGET, "--number", "0"), "--number"),
    (("Ogre", "--target", *TARGET, "--limit", "many"), "--limit"),
    (("Ogre", "--meter", "--accuracy", "4", "--squares", "c,c:sneeze"), "unknown status effect"),
    (("Ogre", "--meter", "--accuracy", "4", "--squares", ","), "needs its squares"),
    (("  ", "--target", *TARGET), "the card needs a name"),
    (("x" * 201, "--target", *TARGET), "at most 200 characters"),
])
def test_a_malformed_card_is_refused_in_one_line_and_nothing_is_entered(
    hildegard: Spire, args: tuple[str, ...], says: str,
) -> None:
    hildegard.ok(*OGRE)
    before = catalog_rows(hildegard)
    line = hildegard.refused("card", "add", *args, code=2)
    assert says in line
    assert catalog_rows(hildegard) == before


# -- the schema -----------------------------------------------------------------------------

def downgraded_to_0001(db: Path) -> None:
    """Make `db` a journal as a spire at revision 0001 left it (no catalog)."""
    config = Config()
    config.set_main_option("script_location", str(shipped("migrations")))
    engine = sa.create_engine(f"sqlite:///{db}")
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0001")
    engine.dispose()


def test_a_0001_journal_is_copied_aside_and_gains_the_catalog(hildegard: Spire) -> None:
    hildegard.ok("note", "kept across the upgrade")
    downgraded_to_0001(hildegard.db)
    before = hildegard.journal_rows()

    hildegard.ok(*OGRE)

    copy = hildegard.db.with_name(f"journal.sqlite.before-{store.SCHEMA_REVISION}-from-0001")
    assert Spire(copy).journal_rows() == before == hildegard.journal_rows()
    with sqlite3.connect(copy) as conn:
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [("0001",)]
        assert not conn.execute("SELECT name FROM sqlite_master WHERE name = 'cards'").fetchall()
    assert [row[1] for row in catalog_rows(hildegard)] == ["Ogre"]
    assert hildegard.json("status")["notes"] == ["kept across the upgrade"]


def test_a_campaign_with_no_card_to_list_says_so(spire: Spire) -> None:
    # Spire's End prints no example card: `spire card list` printed nothing at all, as
    # if it had not run (a newcomer's first hour). It says so, and how to enter one,
    # without a word of a card entered but not yet met.
    spire.ok("new", "tower", "--game", "spires-end")
    said = "no cards this campaign has met are entered; `spire card add` enters one"
    assert spire.ok("card", "list").splitlines() == [said]
    spire.ok("card", "add", "Ogre", "--enemy", "--number", "31", "--hp", "8", "--ap", "2",
             "--bar", "Club; 4-6: 2; 7-8: 3")
    assert spire.ok("card", "list").splitlines() == [said]      # not met: not shown
    assert spire.json("card", "list") == []
