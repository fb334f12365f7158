"""Two processes append to one campaign at once: nothing is lost, nothing is doubled,
and the hash chain stays whole (PRODUCT.md, Storage: "two writers can never both write
position N of a branch; the loser re-reads and retries or fails clearly")."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import Spire

import journal
from journal import chain, decide
from journal.chain import RawEvent
from journal.events import NoteAdded
from journal.service import Journal, View

WRITERS = 2
NOTES = 200

# Each writer runs the real `spire` command line in-process (one interpreter start, then
# 200 commands, each opening the journal afresh as `spire note` does), after a barrier so
# both write at the same time.
WRITER = textwrap.dedent("""
    import io, json, sys, time
    from contextlib import redirect_stdout
    from pathlib import Path

    import typer
    from journal.cli import app

    db, name, count, here = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
    command = typer.main.get_command(app)
    (here / f"ready-{name}").touch()
    while not (here / "go").exists():
        time.sleep(0.001)
    codes = []
    for i in range(count):
        try:
            with redirect_stdout(io.StringIO()):
                command.main(args=["--db", db, "note", f"{name} #{i}"], standalone_mode=True)
        except SystemExit as e:
            codes.append(e.code)
        else:
            codes.append(0)
    (here / f"done-{name}.json").write_text(json.dumps(codes))
""")


def start_writers(db: Path, here: Path, names: list[str]) -> list[subprocess.Popen[str]]:
    script = here / "writer.py"
    script.write_text(WRITER)
    env = {**os.environ, "PYTHONPATH": str(Path(journal.__file__).resolve().parents[1])}
    writers = [
        subprocess.Popen(
            [sys.executable, str(script), str(db), name, str(NOTES), str(here)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        for name in names
    ]
    deadline = time.monotonic() + 30
    while not all((here / f"ready-{name}").exists() for name in names):
        assert all(w.poll() is None for w in writers), [w.communicate()[1] for w in writers]
        assert time.monotonic() < deadline, "the writers did not start"
        time.sleep(0.01)
    (here / "go").touch()
    return writers


def stored_rows(db: Path) -> tuple[list[RawEvent], tuple[int, str]]:
    """The main branch's events and head, read with plain sqlite3."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT position, type, version, payload, recorded_at, player, override, "
            "prev_hash, hash FROM events WHERE branch_id = 1 ORDER BY position").fetchall()
        head = conn.execute(
            "SELECT head_position, head_hash FROM branches WHERE id = 1").fetchone()
    events = [
        RawEvent(p, t, v, json.loads(payload), at, player, override, prev, digest)
        for p, t, v, payload, at, player, override, prev, digest in rows
    ]
    return events, head


@pytest.mark.slow
def test_two_processes_appending_at_once_lose_nothing(spire: Spire, tmp_path: Path) -> None:
    spire.ok("new", "crowded", "--game", "hildegard")
    names = [f"p{n}" for n in range(1, WRITERS + 1)]
    writers = start_writers(spire.db, tmp_path, names)
    for writer in writers:
        _, err = writer.communicate(timeout=120)
        assert writer.returncode == 0, err
        assert err == "", err
    for name in names:
        codes = json.loads((tmp_path / f"done-{name}.json").read_text())
        assert codes == [0] * NOTES, f"{name}: exit codes {sorted(set(codes))}"

    events, (head_position, head_hash) = stored_rows(spire.db)
    assert len(events) == 1 + WRITERS * NOTES
    assert [e.position for e in events] == list(range(1, len(events) + 1))
    prev = chain.GENESIS
    for e in events:
        assert e.prev_hash == prev, f"broken link at position {e.position}"
        assert e.hash == chain.link(prev, e.encoded()), f"bad hash at position {e.position}"
        prev = e.hash
    assert (head_position, head_hash) == (events[-1].position, events[-1].hash)

    notes = [e.payload["text"] for e in events if e.type == "note-added"]
    expected = [f"{name} #{i}" for name in names for i in range(NOTES)]
    assert sorted(notes) == sorted(expected)
    for name in names:  # each writer's notes landed in the order it wrote them
        assert [n for n in notes if n.startswith(f"{name} ")] == [
            f"{name} #{i}" for i in range(NOTES)]
    assert spire.json("status")["head"] == len(events)


def test_a_writer_that_loses_the_race_decides_again_on_the_new_head(spire: Spire) -> None:
    spire.ok("new", "raced", "--game", "hildegard")
    mine, other = Journal(str(spire.db)), Journal(str(spire.db))
    heads: list[int] = []

    def overtaken_once(view: View) -> decide.Decision:
        heads.append(view.branch.head)
        if len(heads) == 1:  # another writer appends between our read and our append
            other.execute(lambda v: decide.note("overtaker"))
        return decide.note(f"decided at #{view.branch.head}")

    view = mine.execute(overtaken_once)
    assert heads == [1, 2]
    assert [r.event for r in view.written] == [NoteAdded(text="decided at #2")]
    assert spire.json("status")["notes"] == ["overtaker", "decided at #2"]
