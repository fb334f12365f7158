"""The current campaign belongs to the person (issue 32, item 8): on a shared journal each
database role has its own, a spectator's too, so one player's `new`, `import` or `use`
moves nobody else's next write; on a file each user of the machine has theirs; a journal an
older spire wrote keeps the one it had for whoever has not chosen since.
Through the real CLI, against a throwaway PostgreSQL server (tests/pgserver.py) and a file."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import Spire

from journal import store

PASSWORD = "own-choice-5521"  # the test roles', on a throwaway server reachable from loopback


# -- a club on one PostgreSQL journal: the keeper, two players, a spectator ---------------

def club_role(server: Any, database: str, name: str, group: str) -> Spire:
    """A login role in `group` (made once per server: roles are the server's, not a
    database's), allowed to connect to `database`."""
    with server.admin(database) as conn:
        for role, login in ((group, ""), (name, f" LOGIN PASSWORD '{PASSWORD}' IN ROLE {group}")):
            if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone():
                conn.execute(f"CREATE ROLE {role}{login}")
        conn.execute(f'GRANT CONNECT ON DATABASE "{database}" TO {name}')
    return Spire(server.url(database, user=name, password=PASSWORD))


def club_database(server: Any) -> str:
    """A database set up as docs/shared-journal.md says: what the keeper's tables will let
    the players and the spectators do, said before the keeper's first command makes them
    (its roles named apart from the page's, which tests/test_docs_shared.py makes)."""
    database = server.fresh_database()
    with server.admin(database) as conn:
        for group in ("camp_players", "camp_spectators"):
            if not conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (group,)).fetchone():
                conn.execute(f"CREATE ROLE {group}")
            conn.execute(f"GRANT USAGE ON SCHEMA public TO {group}")
        conn.execute("ALTER DEFAULT PRIVILEGES IN SCHEMA public "
                     "GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO camp_players")
        conn.execute("ALTER DEFAULT PRIVILEGES IN SCHEMA public "
                     "GRANT USAGE, SELECT ON SEQUENCES TO camp_players")
        conn.execute("ALTER DEFAULT PRIVILEGES IN SCHEMA public "
                     "GRANT SELECT ON TABLES TO camp_spectators")
    return database


@pytest.fixture
def club(pg_server: Any) -> tuple[Spire, Spire, Spire, Spire]:
    """The keeper (who makes the tables) with two campaigns, its current one river-run;
    mira and tomas, who play; sofa, who only looks."""
    database = club_database(pg_server)
    keeper = Spire(pg_server.url(database))
    keeper.ok("new", "gray-oaks", "--game", "hildegard", "--players", "2")
    keeper.ok("new", "river-run", "--game", "volume2")
    mira, tomas = (club_role(pg_server, database, f"camp_{name}", "camp_players")
                   for name in ("mira", "tomas"))
    sofa = club_role(pg_server, database, "camp_sofa", "camp_spectators")
    return keeper, mira, tomas, sofa


def current(spire: Spire) -> str:
    return str(spire.json("status")["campaign"])


def notes(spire: Spire, campaign: str) -> list[str]:
    return list(spire.json("--campaign", campaign, "status")["notes"])


@pytest.mark.postgresql
def test_two_players_each_write_to_the_campaign_they_chose(
    club: tuple[Spire, Spire, Spire, Spire], tmp_path: Path,
) -> None:
    keeper, mira, tomas, _ = club
    assert "Now playing 'gray-oaks'" in mira.ok("use", "gray-oaks")
    tomas.ok("use", "river-run")
    mira.ok("note", "mira at the oaks")
    tomas.ok("note", "tomas by the river")
    assert notes(keeper, "gray-oaks") == ["mira at the oaks"]
    assert notes(keeper, "river-run") == ["tomas by the river"]

    tomas.ok("use", "gray-oaks")  # tomas's use moves tomas alone
    mira.ok("note", "mira still at the oaks")
    tomas.ok("use", "river-run")
    mira.ok("new", "tower", "--game", "spires-end")  # and mira's new, mira alone
    tomas.ok("note", "tomas still by the river")
    assert (current(mira), current(tomas), current(keeper)) == ("tower", "river-run", "river-run")
    assert notes(keeper, "river-run") == ["tomas by the river", "tomas still by the river"]
    assert notes(keeper, "gray-oaks") == ["mira at the oaks", "mira still at the oaks"]

    exported = tmp_path / "oaks.jsonl"  # an import by one moves nobody else either
    keeper.ok("--campaign", "gray-oaks", "export", "-o", str(exported))
    tomas.ok("import", str(exported), "--name", "oaks-copy")
    assert (current(mira), current(tomas), current(keeper)) == ("tower", "oaks-copy", "river-run")
    marked = {c["name"] for c in mira.json("campaigns") if c["current"]}
    assert marked == {"tower"}

    # --campaign still picks one for a single command, and moves nothing.
    tomas.ok("--campaign", "river-run", "note", "a word for the river")
    assert notes(keeper, "river-run")[-1] == "a word for the river"
    assert current(tomas) == "oaks-copy"


@pytest.mark.postgresql
def test_a_spectator_chooses_its_campaign_and_still_writes_nothing(
    club: tuple[Spire, Spire, Spire, Spire],
) -> None:
    import psycopg

    keeper, mira, _, sofa = club
    mira.ok("use", "gray-oaks")
    mira.ok("note", "seen from the sofa?")
    assert "Now playing 'gray-oaks'" in sofa.ok("use", "gray-oaks")
    assert current(sofa) == "gray-oaks"
    assert sofa.json("status")["notes"] == ["seen from the sofa?"]
    sofa.ok("use", "river-run")
    assert (current(sofa), current(mira), current(keeper)) == ("river-run", "gray-oaks",
                                                               "river-run")
    assert "Began a Spire's End: Volume 2" in sofa.ok("log")

    for write in (["note", "a spectator's aside"], ["gain", "bees", "1"], ["reveal", "5"],
                  ["checkpoint", "mine"], ["new", "other", "--game", "volume2"],
                  ["--campaign", "gray-oaks", "note", "nor here"]):
        line = sofa.refused(*write, code=3)
        assert "this role may only read the journal" in line, line
    assert current(sofa) == "river-run"

    # What the spectator's choice may write, it may write for itself alone.
    for statement in ("INSERT INTO current_campaigns VALUES ('camp_mira', 'gray-oaks')",
                      "INSERT INTO events (branch_id, position, type, version, payload, "
                      "recorded_at, prev_hash, hash) VALUES (1, 99, 'x', 1, '{}', '', '', '')",
                      "UPDATE settings SET value = 'x'"):
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            sofa.sql(statement)
    sofa.sql("UPDATE current_campaigns SET campaign = 'gray-oaks'")  # its own row alone
    assert (current(sofa), current(mira), current(keeper)) == ("gray-oaks", "gray-oaks",
                                                               "river-run")
    assert sofa.sql("SELECT person FROM current_campaigns") == [("camp_sofa",)], "nor others'"



@pytest.mark.postgresql
def test_a_server_journal_from_an_older_spire_keeps_its_current_campaign(
    pg_server: Any,
) -> None:
    """The keeper's upgrade of a journal an older spire wrote (one current campaign, a
    setting, for everyone) lets its spectators choose; whoever has not chosen keeps the one
    the older spire left."""
    database = club_database(pg_server)
    keeper = Spire(pg_server.url(database))
    keeper.ok("new", "gray-oaks", "--game", "hildegard")
    keeper.ok("new", "river-run", "--game", "volume2")
    keeper.sql("DROP TABLE current_campaigns")  # as spire at revision 0007 left it
    keeper.sql("UPDATE alembic_version SET version_num = '0007'")
    keeper.sql("INSERT INTO settings (key, value) VALUES ('current_campaign', 'gray-oaks')")
    mira = club_role(pg_server, database, "camp_mira", "camp_players")
    sofa = club_role(pg_server, database, "camp_sofa", "camp_spectators")
    before = keeper.journal_rows()

    assert current(keeper) == "gray-oaks"  # the keeper's command upgrades the journal
    assert keeper.sql("SELECT version_num FROM alembic_version") == [(store.SCHEMA_REVISION,)]
    assert keeper.journal_rows() == before
    sofa.ok("use", "river-run")
    assert (current(sofa), current(mira)) == ("river-run", "gray-oaks")
    mira.ok("use", "river-run")
    assert current(keeper) == "gray-oaks"
    assert keeper.sql("SELECT value FROM settings WHERE key = 'current_campaign'") == [
        ("gray-oaks",)]


# -- a file: each user of the machine ------------------------------------------------------

def as_user(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Run the next commands as the OS user `name`, as getpass tells it."""
    for variable in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        monkeypatch.setenv(variable, name)


def test_each_user_of_a_journal_file_has_their_own_current_campaign(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    spire = Spire(tmp_path / "family.sqlite")
    as_user(monkeypatch, "ada")
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("new", "river-run", "--game", "volume2")
    as_user(monkeypatch, "bo")  # two campaigns, none chosen by bo
    line = spire.refused("note", "which one?", code=2)
    assert "no current campaign" in line and "spire use NAME" in line
    spire.ok("use", "gray-oaks")
    spire.ok("note", "bo at the oaks")
    as_user(monkeypatch, "ada")
    spire.ok("note", "ada by the river")
    assert current(spire) == "river-run"
    assert notes(spire, "gray-oaks") == ["bo at the oaks"]
    assert notes(spire, "river-run") == ["ada by the river"]
    as_user(monkeypatch, "bo")
    assert current(spire) == "gray-oaks"


def test_a_journal_file_from_an_older_spire_keeps_its_current_campaign(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    spire = Spire(tmp_path / "old.sqlite")
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("new", "river-run", "--game", "volume2")
    with sqlite3.connect(spire.db) as conn:  # as spire at revision 0007 left it
        conn.execute("DROP TABLE current_campaigns")
        conn.execute("UPDATE alembic_version SET version_num = '0007'")
        conn.execute("INSERT INTO settings (key, value) VALUES ('current_campaign', 'gray-oaks')")
    before = spire.journal_rows()

    assert current(spire) == "gray-oaks"
    assert spire.journal_rows() == before
    assert list(tmp_path.glob("old.sqlite.before-*-from-0007"))
    spire.ok("use", "river-run")
    assert current(spire) == "river-run"
    as_user(monkeypatch, "someone-else")  # who has not chosen: the older spire's
    assert current(spire) == "gray-oaks"
