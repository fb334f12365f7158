"""docs/shared-journal.md runs (issue 19): its SQL makes the roles on the throwaway server,
its console transcript replays against it (the page's host is this server, the
passwords come from a .pgpass file as the page says), and its `spire` shell lines move a
campaign to the server and back. `spire watch` runs until Ctrl-C, so its line is not run
here: tests/test_watch.py runs it."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import CliRunner, Spire
from test_docs import fenced
from transcripts import _printed, transcript

from journal.cli import app

pytestmark = pytest.mark.postgresql

PAGE = Path(__file__).resolve().parents[1] / "docs" / "shared-journal.md"
HOST = "db.example.org"


def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def on_server(text: str, server: Any) -> str:
    """The page's URLs, pointed at the test's server."""
    return text.replace(f"@{HOST}/", f"@127.0.0.1:{server.port}/")


def test_the_shared_journal_page_runs(
    pg_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    server = pg_server
    roles, in_spire = fenced(page(), "sql")
    with server.admin() as conn:
        for statement in filter(str.strip, roles.split(";")):
            conn.execute(statement)
    passwords = dict(re.findall(r"CREATE ROLE (\w+) LOGIN PASSWORD '([^']+)'", roles))
    pgpass = tmp_path / "pgpass"
    pgpass.write_text("".join(f"127.0.0.1:{server.port}:spire:{role}:{secret}\n"
                              for role, secret in passwords.items()))
    pgpass.chmod(0o600)
    monkeypatch.setenv("PGPASSFILE", str(pgpass))
    import psycopg

    with psycopg.connect(host="127.0.0.1", port=server.port, user="keeper", dbname="spire",
                         password=passwords["keeper"], autocommit=True) as conn:
        for statement in filter(str.strip, in_spire.split(";")):
            conn.execute(statement)

    runner = CliRunner()
    steps = transcript(page())
    assert len(steps) >= 5
    for args, shown in steps:
        args = [on_server(arg, server) for arg in args]
        journal = Spire(server.url("spire"))  # the superuser's look at the tables
        before = journal.journal_rows()
        run = runner.invoke(app, args, env={"COLUMNS": "100"})
        command = f"spire {shlex.join(args)}"
        assert "Traceback" not in run.output, run.output
        if shown and shown[0].startswith("spire: "):
            assert run.exit_code == 3, f"`{command}` -> {run.exit_code}: {run.output}"
            assert _printed(run.stderr) == shown, f"`{command}` is refused otherwise:\n{run.stderr}"
            assert journal.journal_rows() == before, f"`{command}` wrote something"
            continue
        assert run.exit_code == 0, f"`{command}` -> {run.exit_code}: {run.stderr}"
        assert _printed(run.stdout) == shown, f"`{command}` prints otherwise:\n{run.stdout}"
        for secret in passwords.values():
            assert secret not in run.output

    # The shell lines: a campaign of a file moves to the server and back.
    home = Spire(tmp_path / "river-run.sqlite")
    home.ok("new", "river-run", "--game", "volume2")
    home.ok("reveal", "1")
    home.ok("note", "we cross at dawn")
    lines = [line for block in fenced(page(), "sh") for line in block.splitlines()
             if line.startswith("spire ") and " watch" not in line]
    assert any("import -" in line for line in lines)
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "PYTHONPATH": str(PAGE.parents[1])}
    for line in lines:
        ran = subprocess.run(on_server(line, server), shell=True, cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=120, check=False)
        assert ran.returncode == 0, f"{line}\n{ran.stderr}"
    back = Spire(tmp_path / "back-home.sqlite")
    assert back.ok("export") == home.ok("export")
