"""Every refusal path: its exit code, one line on stderr, and the journal untouched.

Exit codes: 1 refused by a rule (with the rulebook section; --force records it anyway),
2 bad input (usage, unknown name, malformed value), 3 storage trouble.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Spire, quoted

from journal.errors import parted

BACKENDS = ("sqlite", "postgresql")  # every refusal, on a file and on a shared server

# (game, setup commands, refused command, exit code, a fragment of the one line)
CASES = [
    # campaigns
    ("hildegard", [], ["new", "x", "--game", "monopoly"], 2, "unknown game 'monopoly'"),
    ("hildegard", [], ["new", "gray-oaks", "--game", "hildegard"], 2, "already exists"),
    ("hildegard", [], ["new", "x", "--game", "hildegard", "--players", "3"], 1, "1 to 2 players"),
    ("hildegard", [], ["new", "x", "--game", "hildegard", "--players", "two"], 2, "invalid value"),
    ("hildegard", [], ["new", "  ", "--game", "hildegard"], 2, "needs a name"),
    ("hildegard", [], ["new", "x"], 2, "missing option"),
    ("hildegard", [], ["use", "nowhere"], 2, "no campaign named 'nowhere'"),
    # looking
    ("hildegard", [], ["status", "--branch", "side"], 2, "no branch named 'side'"),
    ("hildegard", [], ["log", "--last", "-1"], 2, "invalid value"),
    ("hildegard", [], ["show", "99"], 2, "no event 99"),
    ("hildegard", [], ["show", "first"], 2, "invalid value"),
    # the deck
    ("hildegard", [], ["reveal", "twelve"], 2, "invalid value"),
    ("hildegard", [], ["reveal", "0"], 2, "invalid value"),
    ("hildegard", [], ["reveal"], 2, "missing argument"),
    ("hildegard", [["reveal", "1"], ["pull", "30"]], ["reveal", "31"], 1, "return"),
    ("spires-end", [["reveal", "10"], ["reveal", "20"]], ["reveal", "13"], 1,
     "removed from the game"),
    ("spires-end", [["reveal", "10"], ["reveal", "20"]], ["pull", "13"], 1,
     "removed from the game"),
    ("hildegard", [["reveal", "1"]], ["return"], 1, "no pulled card"),
    ("hildegard", [["reveal", "1"]], ["discard", "40"], 1, "has not been revealed"),
    ("volume2", [["discard", "40"]], ["discard", "40"], 1, "already out of the game"),
    ("hildegard", [["reveal", "1"]], ["retrieve", "1"], 1, "has no Retrieve"),
    ("volume2", [["reveal", "1"]], ["retrieve", "7"], 1, "has not been played"),
    ("volume2", [["reveal", "1"]], ["retrieve", "Waterfall"], 2, "cannot read 'Waterfall'"),
    ("hildegard", [], ["chapter", "5"], 1, "chapters 1 to 4"),
    ("hildegard", [["chapter", "2"]], ["chapter", "2"], 1, "rewind"),
    ("spires-end", [], ["chapter", "2"], 1, "has no chapters"),
    ("hildegard", [], ["chapter", "two"], 2, "invalid value"),
    # things
    ("hildegard", [], ["item", "gain", "Rope", "--to", "Oswin"], 2, "no character named 'Oswin'"),
    ("hildegard", [], ["item", "gain", "Rope", "--kind", "combat"], 2,
     "unknown item kind 'combat'"),
    ("hildegard", [], ["item", "gain", " "], 2, "needs a name"),
    ("hildegard", [], ["item", "lose", "Rope"], 2, "no item named 'Rope'"),
    ("hildegard", [], ["item", "pass", "Rope", "--to", "Hildegard"], 2, "no item named 'Rope'"),
    ("hildegard", [["item", "gain", "Rope"]], ["item", "pass", "Rope", "--to", "Oswin"], 2,
     "no character named 'Oswin'"),
    ("hildegard", [], ["item", "frob"], 2, "no such command"),
    ("spires-end", [["ally", "Millicent", "--hp", "5", "--ap", "2"]]
     + [["item", "gain", f"Knife {i}", "--kind", "combat", "--to", "Millicent"] for i in range(3)],
     ["item", "gain", "Axe", "--kind", "combat", "--to", "Millicent"], 1,
     "Loot Types & Limitations"),
    ("spires-end", [["ally", "Millicent", "--hp", "5", "--ap", "2"], ["ally", "Oswin"],
                    ["item", "gain", "Axe", "--kind", "combat", "--to", "Oswin"]]
     + [["item", "gain", f"Knife {i}", "--kind", "combat", "--to", "Millicent"] for i in range(3)],
     ["item", "pass", "Axe", "--to", "Millicent"], 1, "3 combat items"),
    ("spires-end", [["ally", "Millicent"]], ["ally", "millicent"], 2, "already in the campaign"),
    ("spires-end", [], ["ally", "Millicent", "--hp", "-1"], 2, "cannot be negative"),
    ("hildegard", [], ["gain", "rubies", "2"], 2, "no resource 'rubies'"),
    ("hildegard", [], ["gain", "gold", "0"], 2, "at least 1"),
    ("hildegard", [], ["gain", "gold", "lots"], 2, "invalid value"),
    ("hildegard", [["gain", "feats", "5"]], ["gain", "feats", "2"], 1, "Feats of Marksmanship"),
    ("volume2", [["gain", "bees", "3"]], ["gain", "bees", "1"], 1, "bees at most 4"),
    ("volume2", [["gain", "pollen", "3"]], ["gain", "pollen", "1"], 1, "pollen at most 4"),
    ("hildegard", [["gain", "gold", "2"]], ["spend", "gold", "3"], 1, "you have 2 gold, not 3"),
    ("volume2", [], ["spend", "meat", "1"], 1, "you have 0 meat"),
    ("hildegard", [], ["note", ""], 2, "the note is empty"),
    ("hildegard", [], ["note"], 2, "missing argument"),
    ("hildegard", [], ["undo"], 1, "nothing to undo"),
    ("hildegard", [["gain", "gold", "1"], ["undo"]], ["undo"], 1, "nothing to undo"),
    # export and import
    ("hildegard", [], ["export", "--branch", "side"], 2, "no branch named 'side'"),
    ("hildegard", [], ["import", "missing.jsonl"], 2, "cannot read"),
    ("hildegard", [], ["export", "-o", "/"], 2, "cannot write /"),
    ("hildegard", [], ["--db", "nosuch://x", "status"], 2, "cannot use 'nosuch://x'"),
    # Hildegard's table, time travel and proof: bad input is exit 2 and appends nothing
    ("hildegard", [], ["roll", "zz"], 2, "unknown face 'zz'"),
    ("hildegard", [], ["target", "Nope"], 2, "no target card named 'Nope'"),
    ("hildegard", [], ["faceoff", "Nope"], 2, "`spire card add --enemy` enters it"),
    ("hildegard", [["target", "Street Merchant"], ["roll", "c", "c", "r"]], ["wild", "zap"], 2,
     "unknown wild shot 'zap'"),
    ("hildegard", [], ["feat", "nap"], 2, "unknown feat 'nap'"),
    ("hildegard", [], ["block", "1"], 2, "missing option '--square'"),
    ("hildegard", [], ["replay", "--to", "x"], 2, "neither a position nor a checkpoint"),
    ("hildegard", [], ["rewind"], 2, "missing argument 'CHECKPOINT|POSITION'"),
    ("hildegard", [], ["audit", "--branch", "nosuch"], 2, "no branch named 'nosuch'"),
    ("hildegard", [], ["report", "--format", "md", "--branch", "nosuch"], 2,
     "no branch named 'nosuch'"),
    # usage
    ("hildegard", [], ["frobnicate"], 2, "no such command"),
    ("hildegard", [], ["reveal", "3", "--frce"], 2, "no such option"),
    ("hildegard", [], ["play", "--keep-goin"], 2, "no such option"),
]


@pytest.mark.parametrize(("game", "setup", "command", "code", "says"), CASES,
                         ids=[" ".join(c[2]) for c in CASES])
def test_refused(spire: Spire, game: str, setup: list[list[str]], command: list[str],
                 code: int, says: str) -> None:
    spire.ok("new", "gray-oaks", "--game", game)
    for step in setup:
        spire.ok(*step)
    line = spire.refused(*command, code=code)
    assert says in line
    if code == 1:
        assert "rulebook: " in line or "nothing to undo" in line


RULE_BREAKS = [case for case in CASES if case[3] == 1 and case[2][0] not in ("undo", "new")]


@pytest.mark.parametrize(("game", "setup", "command", "code", "says"), RULE_BREAKS,
                         ids=[" ".join(c[2]) for c in RULE_BREAKS])
def test_the_table_wins_with_force(spire: Spire, game: str, setup: list[list[str]],
                                   command: list[str], code: int, says: str) -> None:
    """Every rule refusal can be overridden; the override is recorded and shown."""
    spire.ok("new", "gray-oaks", "--game", game)
    for step in setup:
        spire.ok(*step)
    out = spire.ok(*command, "--force")
    assert "override recorded" in out
    head = spire.json("status")["head"]
    overrides = spire.json("status")["overrides"]
    assert [o["seq"] for o in overrides] == [head]
    assert says in overrides[0]["reason"]
    logged = spire.json("log", "--last", "1")[0]
    assert logged["override"] and "(rulebook: " in logged["override"]
    assert "override:" in spire.ok("log")


def test_new_with_force_records_the_override(spire: Spire) -> None:
    spire.ok("new", "trio", "--game", "hildegard", "--players", "3", "--force")
    status = spire.json("status")
    assert status["players"] == 3
    assert "1 to 2 players" in status["overrides"][0]["reason"]


def test_no_campaign_yet(spire: Spire) -> None:
    assert "no journal at" in spire.refused("status", code=3)     # a read makes none
    assert "no current campaign" in spire.refused("reveal", "1", code=2)
    spire.ok("card", "add", "Rat", "--game", "hildegard", "--enemy", "--limit", "1",
             "--accuracy", "1")
    assert "no current campaign" in spire.refused("status", code=2)  # a journal, no campaign


def test_several_campaigns_and_none_chosen(spire: Spire) -> None:
    spire.ok("new", "one", "--game", "hildegard")
    spire.ok("new", "two", "--game", "volume2")
    assert spire.json("status")["campaign"] == "two"
    assert spire.json("status")["campaign"] == "two"
    spire.ok("use", "one")
    assert spire.json("status")["game"] == "hildegard"
    assert "no campaign named 'three'" in spire.refused("--campaign", "three", "status", code=2)


def test_storage_trouble_exits_3(spire: Spire, tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_text("these are not the droids\n" * 100)
    other = Spire(junk)
    assert "is not a spire journal" in other.refused("status", code=3)
    assert junk.read_text().startswith("these are not")


def test_db_that_is_a_directory(spire: Spire, tmp_path: Path) -> None:
    assert "is a directory" in Spire(tmp_path).refused("demo", code=2)


def test_a_hint_is_never_cut_inside_brackets(spire: Spire) -> None:
    """A refusal is cut before its hint, never between a bracket and its close: the
    checkpoints a mistyped name could have meant go under it whole."""
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    for name in ("before-the-long-bridge", "after-the-crows-flew", "chapter-nine"):
        spire.ok("checkpoint", name)
    first, under = spire.refused("rewind", "x", code=2).split("\n")
    assert first == "spire: no checkpoint named 'x' on this branch"
    assert under == ("its checkpoints: after-the-crows-flew, before-the-long-bridge, "
                     "chapter-nine, start; or give an event's position, 1 to 1")
    assert parted("a long reason (with a bracket; that holds a cut) and more words than fit"
                  "; the hint", room=40) == ("a long reason (with a bracket; that holds a cut) and "
                                    "more words than fit", "the hint")


def test_a_session_files_refusal_fits_with_its_line_number(hildegard: Spire) -> None:
    """`line 100: ` is longer than `spire: `: a reason that fits beside `spire: ` is cut
    before its hint to fit beside the line number."""
    mistyped = "goldcoins"
    alone = hildegard.refused("gain", mistyped, "1", code=2)
    assert alone == ("spire: no resource 'goldcoins' in Spire's End: Hildegard; it keeps: gold, "
                     "feats")
    before = hildegard.journal_rows()
    run = hildegard("play", input="# before\n" * 99 + f"gain {mistyped} 1\n")
    assert run.code == 2 and hildegard.journal_rows() == before
    assert run.err.splitlines() == [
        "line 100: no resource 'goldcoins' in Spire's End: Hildegard", "  it keeps: gold, feats"]


@pytest.mark.parametrize(("game", "book", "section", "says"), [
    ("hildegard", "hildegard", "Two Players: Hildegard & Hallveig", "1 to 2 players, not 4"),
    ("spires-end", "spires-end", "Co-Op", "1 to 3 players, not 4"),
    ("volume2", "volume2-episode1", "Players & Roles", "1 to 3 players, not 4"),
])
def test_too_many_players_cites_the_section_that_says_how_many(
    spire: Spire, game: str, book: str, section: str, says: str,
) -> None:
    # Each game's rulebook says it where its own section does; the refusal cited a
    # "Players" that none of them prints (a newcomer's first hour).
    quoted(book, section)
    line, under = spire.refused("new", "four", "--game", game, "--players", "4",
                                code=1).split("\n")
    assert line.endswith(says) and under == f"rulebook: {section}; --force records it anyway"
