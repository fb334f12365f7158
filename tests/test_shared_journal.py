"""A shared journal on PostgreSQL (issue 19): roles that may only read, passwords never
shown, a campaign moved from a file to the server and back, and a schema upgrade that
is all or nothing. Each test runs against the throwaway server of tests/pgserver.py."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from conftest import Spire

from journal import store
from journal.paths import shipped
from journal.store import migration

pytestmark = pytest.mark.postgresql

SPECTATOR_PASSWORD = "only-looks-8317"


def played(spire: Spire) -> None:
    spire.ok("new", "gray-oaks", "--game", "hildegard", "--players", "2")
    spire.ok("reveal", "1")
    spire.ok("gain", "gold", "3")
    spire.ok("note", "The jackalope got away")
    spire.ok("checkpoint", "camp")
    spire.ok("undo")


@pytest.fixture
def server(pg_server: Any) -> Any:
    return pg_server


@pytest.fixture
def shared(server: Any) -> Spire:
    """A campaign on the server, written by its owner."""
    spire = Spire(server.url(server.fresh_database()))
    played(spire)
    return spire


def spectator(server: Any, database: str) -> Spire:
    """A role granted only SELECT on the journal's tables, connecting with a password."""
    with server.admin(database) as conn:
        exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = 'spectator'").fetchone()
        if not exists:
            conn.execute(f"CREATE ROLE spectator LOGIN PASSWORD '{SPECTATOR_PASSWORD}'")
        conn.execute(f'GRANT CONNECT ON DATABASE "{database}" TO spectator')
        conn.execute("GRANT USAGE ON SCHEMA public TO spectator")
        conn.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO spectator")
    return Spire(server.url(database, user="spectator", password=SPECTATOR_PASSWORD))


def database_of(spire: Spire) -> str:
    return str(spire.db).rsplit("/", 1)[1]


def test_a_read_only_role_reads_everything_and_writes_nothing(shared: Spire, server: Any) -> None:
    reader = spectator(server, database_of(shared))
    assert reader.json("status") == shared.json("status")
    assert reader.json("log", "--last", "0") == shared.json("log", "--last", "0")
    assert "gray-oaks" in reader.ok("report", "--format", "md")
    audit = reader("audit", "--json")
    assert (audit.code, json.loads(audit.out)["findings"]) == (0, [])
    for command in (["campaigns"], ["branches"], ["checkpoints"], ["show", "2"]):
        reader.ok(*command)

    # (It may choose its own current campaign: tests/test_current_campaign.py.)
    for write in (["note", "a spectator's aside"], ["gain", "gold", "1"], ["undo"],
                  ["checkpoint", "mine"], ["new", "other", "--game", "volume2"],
                  ["rewind", "start", "--as", "side"]):
        line = reader.refused(*write, code=3)
        assert "this role may only read the journal" in line, line
        assert "nothing was written" in line
        assert SPECTATOR_PASSWORD not in line
    assert shared.json("status")["head"] == 5


def test_a_password_never_shows_in_an_error(server: Any, tmp_path: Path) -> None:
    database = server.fresh_database()
    wrong = Spire(server.url(database, password="not-the-password-2209"))
    line = wrong.refused("status", code=3)
    assert "password authentication failed" in line
    assert "not-the-password-2209" not in line

    # A message that happens to hold the password (here: a database named like it).
    secret = server.admin_password
    named = Spire(server.url(secret))
    line = named.refused("status", code=3)
    assert 'database "***" does not exist' in line and secret not in line

    closed = Spire(f"postgresql://player:secret-7070@127.0.0.1:1/{database}")
    line = closed.refused("status", code=3)
    assert "secret-7070" not in line


def test_a_password_from_pgpassword_or_pgpass_is_used(
    server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """libpq's conventions: a URL without a password takes it from PGPASSWORD or ~/.pgpass."""
    database = server.fresh_database()
    bare = Spire(server.url(database, password=None))
    monkeypatch.setenv("PGPASSWORD", server.admin_password)
    bare.ok("new", "by-env", "--game", "volume2")
    monkeypatch.delenv("PGPASSWORD")
    pgpass = tmp_path / "pgpass"
    pgpass.write_text(f"127.0.0.1:{server.port}:{database}:spire_admin:"
                      f"{server.admin_password}\n")
    pgpass.chmod(0o600)
    monkeypatch.setenv("PGPASSFILE", str(pgpass))
    assert bare.json("status")["campaign"] == "by-env"


def test_a_campaign_moves_to_the_server_and_back_with_every_hash(
    tmp_path: Path, server: Any,
) -> None:
    """`spire export | spire --db URL import -`, file -> server -> file, as a shell runs it."""
    start = Spire(tmp_path / "table.sqlite")
    played(start)
    start.ok("rewind", "start", "--as", "side")
    start.ok("note", "on the side branch")
    url = server.url(server.fresh_database())
    back = tmp_path / "back.sqlite"
    spire = [sys.executable, "-m", "journal"]
    for source, target in ((str(start.db), url), (url, str(back))):
        moved = subprocess.run(
            f"{' '.join(spire)} --db '{source}' export | "
            f"{' '.join(spire)} --db '{target}' import - --name gray-oaks",
            shell=True, capture_output=True, text=True, timeout=120, check=False)
        assert moved.returncode == 0, moved.stderr
        assert "Imported" in moved.stdout
    exported = start.ok("export")
    assert Spire(url).ok("export") == exported == Spire(back).ok("export")
    for where in (Spire(url), Spire(back)):
        for branch in ("main", "side"):
            assert where.json("status", "--branch", branch) == start.json(
                "status", "--branch", branch)
        audit = where("audit", "--all", "--json")
        assert (audit.code, json.loads(audit.out)["findings"]) == (0, [])


def test_import_from_standard_input_needs_a_name(shared: Spire) -> None:
    line = shared.refused("import", "-", code=2)
    assert "--name" in line

HEAD = store.SCHEMA_REVISION
NEXT = f"{int(HEAD) + 1:04d}"
BROKEN_MIGRATION = f'''
    """A later schema whose upgrade fails half-way.

    Revision ID: {NEXT}
    Revises: {store.SCHEMA_REVISION}
    """

    import sqlalchemy as sa
    from alembic import op

    revision = "{NEXT}"
    down_revision = "{store.SCHEMA_REVISION}"
    branch_labels = None
    depends_on = None


    def upgrade() -> None:
        op.create_table("later", sa.Column("id", sa.Integer, primary_key=True))
        op.execute("UPDATE campaigns SET name = 'renamed'")
        op.execute("SELECT 1 / 0")


    def downgrade() -> None:
        op.drop_table("later")
'''


def test_an_upgrade_on_postgresql_is_all_or_nothing(
    shared: Spire, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = shared.journal_rows()
    migrations = tmp_path / "migrations"
    shutil.copytree(shipped("migrations"), migrations, ignore=shutil.ignore_patterns("__pycache__"))
    (migrations / "versions" / f"{NEXT}_later.py").write_text(textwrap.dedent(BROKEN_MIGRATION))
    monkeypatch.setattr(migration, "shipped", lambda name: migrations)
    monkeypatch.setattr(migration, "SCHEMA_REVISION", NEXT)

    line = shared.refused("status", code=3)
    assert "division by zero" in line
    assert shared.journal_rows() == before
    assert shared.sql("SELECT version_num FROM alembic_version") == [(HEAD,)]
    assert shared.sql("SELECT to_regclass('later')") == [(None,)], "no table half-made"



def test_a_journal_from_a_newer_spire_is_refused_untouched(shared: Spire) -> None:
    shared.sql("UPDATE alembic_version SET version_num = '0099'")
    line = shared.refused("status", code=3)
    assert "0099" in line and "newer spire" in line
    assert shared.sql("SELECT version_num FROM alembic_version") == [("0099",)]


def test_a_spectator_watches_a_player_write(shared: Spire, server: Any) -> None:
    from test_watch import Watcher

    reader = spectator(server, database_of(shared))
    watcher = Watcher(reader.url, "--last", "2")
    try:
        assert watcher.shows("main at #5", within=60), watcher.text()
        shared.ok("note", "seen from the sofa")
        assert watcher.shows("Note: seen from the sofa", within=1.0), watcher.text()
        assert watcher.interrupt() == (0, "")
    finally:
        watcher.stop()


def test_where_names_the_server_journal_without_its_password(shared: Spire, server: Any) -> None:
    found = shared.json("where")
    assert found["journal"] == shared.url.replace(f":{server.admin_password}@", ":***@")
    assert server.admin_password not in shared.ok("where")
