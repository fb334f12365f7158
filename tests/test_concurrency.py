"""Processes append to one campaign at once: nothing is lost, nothing is doubled, and the
hash chain stays whole (PRODUCT.md, Storage: "two writers can never both write position N
of a branch; the loser re-reads and retries or fails clearly"): two on a SQLite file,
eight on a shared PostgreSQL journal.

A writer that loses the race re-reads the branch and decides its command again on the
fresh state, holding the write lock (the branch's row on PostgreSQL): if the command is
still legal there it is appended; if it no longer is, the writer is told in one line why
(the rule it now breaks), and nothing of it is written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import BOTH, Spire

import journal
from journal.core import chain, decide
from journal.core.chain import RawEvent
from journal.core.events import NoteAdded
from journal.errors import RuleViolation
from journal.service.journal import Journal, View

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


def start_writers(
    db: str | Path, here: Path, names: list[str], notes: int = 200,
) -> list[subprocess.Popen[str]]:
    script = here / "writer.py"
    script.write_text(WRITER)
    env = {**os.environ, "PYTHONPATH": str(Path(journal.__file__).resolve().parents[1])}
    writers = [
        subprocess.Popen(
            [sys.executable, str(script), str(db), name, str(notes), str(here)],
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


def stored_rows(spire: Spire) -> tuple[list[RawEvent], tuple[int, str]]:
    """The main branch's events and head, read with plain sqlite3 or psycopg."""
    rows = spire.sql(
        "SELECT position, type, version, payload, recorded_at, player, override, "
        "prev_hash, hash FROM events WHERE branch_id = 1 ORDER BY position")
    [head] = spire.sql("SELECT head_position, head_hash FROM branches WHERE id = 1")
    events = [
        RawEvent(p, t, v, json.loads(payload), at, player, override, prev, digest)
        for p, t, v, payload, at, player, override, prev, digest in rows
    ]
    return events, head


@pytest.mark.slow
@pytest.mark.parametrize(("backend", "writers", "notes"), [
    ("sqlite", 2, 200),
    pytest.param("postgresql", 8, 50, marks=pytest.mark.postgresql),
])
def test_processes_appending_at_once_lose_nothing(
    spire: Spire, tmp_path: Path, writers: int, notes: int,
) -> None:
    spire.ok("new", "crowded", "--game", "hildegard")
    names = [f"p{n}" for n in range(1, writers + 1)]
    started = start_writers(spire.url, tmp_path, names, notes)
    for writer in started:
        _, err = writer.communicate(timeout=300)
        assert writer.returncode == 0, err
        assert err == "", err
    for name in names:
        codes = json.loads((tmp_path / f"done-{name}.json").read_text())
        assert codes == [0] * notes, f"{name}: exit codes {sorted(set(codes))}"

    events, (head_position, head_hash) = stored_rows(spire)
    assert len(events) == 1 + writers * notes
    assert [e.position for e in events] == list(range(1, len(events) + 1))
    prev = chain.GENESIS
    for e in events:
        assert e.prev_hash == prev, f"broken link at position {e.position}"
        assert e.hash == chain.link(prev, e.encoded()), f"bad hash at position {e.position}"
        prev = e.hash
    assert (head_position, head_hash) == (events[-1].position, events[-1].hash)

    written = [e.payload["text"] for e in events if e.type == "note-added"]
    expected = [f"{name} #{i}" for name in names for i in range(notes)]
    assert sorted(written) == sorted(expected)
    for name in names:  # each writer's notes landed in the order it wrote them
        assert [n for n in written if n.startswith(f"{name} ")] == [
            f"{name} #{i}" for i in range(notes)]
    assert spire.json("status")["head"] == len(events)
    audit = spire("audit", "--json")
    assert (audit.code, json.loads(audit.out)["findings"]) == (0, [])


@pytest.mark.parametrize("backend", BOTH)
def test_a_writer_that_loses_the_race_decides_again_on_the_new_head(spire: Spire) -> None:
    spire.ok("new", "raced", "--game", "hildegard")
    mine, other = Journal(spire.url), Journal(spire.url)
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


@pytest.mark.parametrize("backend", BOTH)
def test_a_writer_whose_command_the_race_made_illegal_is_told_and_writes_nothing(
    spire: Spire,
) -> None:
    spire.ok("new", "raced", "--game", "hildegard")
    spire.ok("gain", "gold", "2")
    mine, other = Journal(spire.url), Journal(spire.url)
    heads: list[int] = []
    rows: list[object] = []

    def overtaken_once(view: View) -> decide.Decision:
        heads.append(view.branch.head)
        if len(heads) == 1:  # another player spends a gold between our read and our append
            other.execute(lambda v: decide.spend(v.state, "gold", 1))
            rows.append(spire.journal_rows())
        return decide.spend(view.state, "gold", 2)

    with pytest.raises(RuleViolation) as refused:
        mine.execute(overtaken_once)
    assert heads == [2, 3]  # decided again on the fresh state, where it breaks a rule
    assert str(refused.value) == ("you have 1 gold, not 2 (rulebook: Gold & Management); "
                                  "--force records it anyway")
    assert spire.journal_rows() == rows[0], "the loser wrote nothing"
    assert spire.json("status")["resources"]["gold"] == 1
