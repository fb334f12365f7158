"""A mistyped --db makes nothing (issue 18): a command that only reads, pointed at a journal
that is not there, says so in one line (exit 3, storage) and leaves no file and no directory;
`spire where` says which journal is in use, its size, schema revision and campaigns."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Spire

from journal import store

READS = [["status"], ["log"], ["show", "1"], ["campaigns"], ["checkpoints"], ["branches"],
         ["replay"], ["replay", "--verify"], ["diff", "main", "other"], ["audit"],
         ["report", "--format", "md"], ["export"], ["map"], ["odds"], ["status", "--json"]]


@pytest.mark.parametrize("args", READS, ids=" ".join)
def test_a_read_of_a_journal_that_is_not_there_makes_nothing(tmp_path: Path,
                                                             args: list[str]) -> None:
    missing = Spire(tmp_path / "typo" / "deeper" / "jornal.sqlite")
    line = missing.refused(*args, code=3)
    assert line == (f"spire: no journal at {missing.db}\n"
                    "`spire new NAME --game GAME` starts one; --db or SPIRE_DB names another")
    assert list(tmp_path.iterdir()) == [], "a read made a file or a directory"


def test_a_write_still_makes_the_journal_and_its_directories(tmp_path: Path) -> None:
    fresh = Spire(tmp_path / "new" / "journal.sqlite")
    fresh.ok("new", "gray-oaks", "--game", "hildegard")
    assert fresh.db.is_file()
    assert "gray-oaks" in fresh.ok("status")


def test_where_names_the_journal_its_size_schema_and_campaigns(hildegard: Spire) -> None:
    hildegard.ok("new", "thornfield", "--game", "volume2")
    out = hildegard.ok("where")
    lines = out.splitlines()
    assert lines[:2] == [f"journal    {hildegard.db}", "chosen by  --db or SPIRE_DB"]
    assert lines[2].startswith("size       ") and lines[2].endswith("kB")
    assert lines[3] == f"schema     revision {store.SCHEMA_REVISION}"
    assert lines[4:] == ["campaigns  gray-oaks (hildegard, 1 event on main)",
                         "           thornfield (volume2, 1 event on main) *"]
    found = hildegard.json("where")
    assert found["bytes"] == hildegard.db.stat().st_size + (
        Path(f"{hildegard.db}-wal").stat().st_size if Path(f"{hildegard.db}-wal").exists()
        else 0)
    assert [c["name"] for c in found["campaigns"]] == ["gray-oaks", "thornfield"]
    assert hildegard.ok("info") == out                     # the other name people type


def test_where_a_journal_is_not_there_says_so_and_makes_nothing(tmp_path: Path) -> None:
    missing = Spire(tmp_path / "typo" / "journal.sqlite")
    out = missing.ok("where")
    assert out.splitlines() == [f"journal    {missing.db}", "chosen by  --db or SPIRE_DB",
                                "No journal there yet: `spire new NAME --game GAME` starts one."]
    assert missing.json("where")["there"] is False
    assert list(tmp_path.iterdir()) == []
