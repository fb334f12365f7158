"""Backups that cannot silently lose their tail (issue 15): a failed `export -o` or
`report -o` leaves the file as it was; an export holds every branch and ends with a
closing record; an import refuses a file cut short, a closing record that disagrees, and a
campaign no spire game can play."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import Spire

from journal.core import chain

ROOT = Path(__file__).resolve().parents[1]


def tree(spire: Spire) -> Spire:
    """A campaign with four branches: main, `again` from main, `third` from again, and
    `empty` (no events of its own) from main."""
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("reveal", "1")
    spire.ok("checkpoint", "one")
    spire.ok("gain", "gold", "2")
    spire.ok("rewind", "one", "--as", "again")
    spire.ok("reveal", "3")
    spire.ok("checkpoint", "two")
    spire.ok("note", "on again")
    spire.ok("rewind", "two", "--as", "third")
    spire.ok("item", "gain", "Rope")
    spire.ok("rewind", "start", "--as", "empty")
    return spire


@pytest.fixture
def branched(spire: Spire) -> Spire:
    return tree(spire)


def branches(spire: Spire) -> list[tuple[Any, ...]]:
    return [(b["name"], b["parent"], b["fork"], b["head"]) for b in spire.json("branches")]


def test_an_import_gives_back_every_branch(branched: Spire, tmp_path: Path) -> None:
    backup = tmp_path / "gray-oaks.jsonl"
    branched.ok("export", "-o", str(backup))
    copy = Spire(tmp_path / "copy.sqlite")
    copy.ok("import", str(backup))
    assert branches(copy) == branches(branched)
    for name, *_ in branches(branched):
        theirs = branched.json("status", "--branch", name)
        assert copy.json("status", "--branch", name) == {**theirs, "campaign": "gray-oaks"}
    assert copy("audit", "--all").code == 0


def test_an_import_gives_back_every_checkpoint(branched: Spire, tmp_path: Path) -> None:
    backup = tmp_path / "gray-oaks.jsonl"
    branched.ok("export", "-o", str(backup))
    copy = Spire(tmp_path / "copy.sqlite")
    copy.ok("import", str(backup))
    for name, *_ in branches(branched):
        branched.ok("switch", name)
        copy.ok("switch", name)
        assert copy.json("checkpoints") == branched.json("checkpoints"), name
    copy.ok("switch", "again")
    copy.ok("rewind", "two", "--as", "again-again")
    assert copy.json("status")["head"] == 3


@pytest.mark.parametrize(("record", "says"), [
    ({"checkpoint": "x", "position": 99, "at": "2026-01-01"}, "checkpoint 'x' at #99 is not on"),
    ({"checkpoint": "", "position": 1, "at": "2026-01-01"}, "is empty or too long"),
    ({"checkpoint": "x", "position": 1}, "wants its name, position and time"),
])
def test_a_checkpoint_line_that_does_not_hold_is_refused(
    branched: Spire, tmp_path: Path, record: dict[str, Any], says: str,
) -> None:
    lines = branched.ok("export").splitlines()
    path = tmp_path / "marked.jsonl"
    path.write_text("\n".join([lines[0], json.dumps(record), *lines[1:]]) + "\n")
    copy = Spire(tmp_path / "copy.sqlite")
    line = copy.refused("import", str(path), code=2)
    assert "line 2: " in line and says in line


def test_the_closing_record_counts_each_branch(branched: Spire) -> None:
    lines = [json.loads(line) for line in branched.ok("export").splitlines()]
    closing = lines[-1]["closing"]["branches"]
    assert [(b["name"], b["events"], b["head"]) for b in closing] == [
        ("main", 3, 3), ("again", 2, 4), ("third", 1, 4), ("empty", 0, 1)]
    sections = [line for line in lines if "branch" in line]
    assert [(s["branch"], s["parent"], s["fork"]) for s in sections] == [
        ("again", "main", 2), ("third", "again", 3), ("empty", "main", 1)]


def test_export_of_one_branch_is_its_path_alone(branched: Spire, tmp_path: Path) -> None:
    backup = tmp_path / "third.jsonl"
    branched.ok("export", "--branch", "third", "-o", str(backup))
    copy = Spire(tmp_path / "copy.sqlite")
    copy.ok("import", str(backup))
    assert branches(copy) == [("main", None, None, 4)]


@pytest.mark.parametrize("keep", [-1, -2, -4, -6, 3, 1])
def test_an_export_cut_at_a_line_end_is_refused(branched: Spire, tmp_path: Path, keep: int) -> None:
    lines = branched.ok("export").splitlines(keepends=True)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:keep]))
    copy = Spire(tmp_path / "copy.sqlite")
    line = copy.refused("import", str(cut), code=2)
    assert "without its closing record" in line and "cut short" in line
    assert copy.journal_rows() == ((), (), ())


def _closing_edited(spire: Spire, tmp_path: Path, edit: str) -> Path:
    lines = spire.ok("export").splitlines()
    closing = json.loads(lines[-1])
    said = closing["closing"]["branches"]
    if edit == "count":
        said[0]["events"] = 2
    elif edit == "hash":
        said[1]["hash"] = "f" * 64
    elif edit == "head":
        said[2]["head"] = 9
    elif edit == "branch left out":
        del said[3]
    elif edit == "branch added":
        said.append({"name": "ghost", "events": 1, "head": 2, "hash": "0" * 64})
    elif edit == "not a list":
        closing["closing"] = {"branches": 4}
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join([*lines[:-1], json.dumps(closing)]) + "\n")
    return path


@pytest.mark.parametrize(("edit", "says"), [
    ("count", "branch 'main' was cut short or edited\nthe record: 2 events to #3"),
    ("hash", "the record: 2 events to #4 (hash ffffffffffff"),
    ("head", "branch 'third' was cut short or edited\nthe record: 1 event to #9"),
    ("branch left out", "does not name branch 'empty'"),
    ("branch added", "names 5 branches, the file 4 (cut short?)"),
    ("not a list", "has no list of branches"),
])
def test_a_closing_record_that_disagrees_is_refused(
    branched: Spire, tmp_path: Path, edit: str, says: str,
) -> None:
    path = _closing_edited(branched, tmp_path, edit)
    copy = Spire(tmp_path / "copy.sqlite")
    line = copy.refused("import", str(path), code=2)
    assert says in line, line


def _checkpoint_edited(spire: Spire, tmp_path: Path, edit: str) -> Path:
    """The export with main's checkpoint `one` (at #2) deleted, renamed, moved along main,
    or moved into `again`'s section (whose events reach #4): each line still holds."""
    lines = spire.ok("export").splitlines()
    at = next(i for i, line in enumerate(lines) if '"checkpoint":"one"' in line)
    if edit == "deleted":
        del lines[at]
    elif edit == "renamed":
        lines[at] = lines[at].replace('"checkpoint":"one"', '"checkpoint":"evil"')
    elif edit == "moved":
        lines[at] = lines[at].replace('"position":2', '"position":3')
    elif edit == "moved to another branch":
        line = lines.pop(at)
        section = next(i for i, line in enumerate(lines) if '"branch":"third"' in line)
        lines.insert(section, line)
    path = tmp_path / "checkpoint.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize(("edit", "holds"), [
    ("deleted", "'start' at #1"),
    ("renamed", "'start' at #1, 'evil' at #2"),
    ("moved", "'start' at #1, 'one' at #3"),
    ("moved to another branch", "'start' at #1"),
])
def test_a_checkpoint_line_deleted_renamed_or_moved_is_refused(
    branched: Spire, tmp_path: Path, edit: str, holds: str,
) -> None:
    """The closing record lists each branch's own checkpoints (issue 32, F7)."""
    path = _checkpoint_edited(branched, tmp_path, edit)
    copy = Spire(tmp_path / "copy.sqlite")
    line = copy.refused("import", str(path), code=2)
    assert line.endswith("a checkpoint of branch 'main' was deleted, renamed or moved\n"
                         "the closing record: 'start' at #1, 'one' at #2; the file: "
                         f"{holds}"), line
    assert copy.journal_rows() == ((), (), ())
    assert "was deleted, renamed or moved" in branched.refused(
        "import", str(path), "--name", "copy", code=2)


def test_an_older_spires_closing_record_without_checkpoints_still_imports(
    branched: Spire, tmp_path: Path,
) -> None:
    lines = branched.ok("export").splitlines()
    closing = json.loads(lines[-1])
    for branch in closing["closing"]["branches"]:
        del branch["checkpoints"]
    path = tmp_path / "older.jsonl"
    path.write_text("\n".join([*lines[:-1], json.dumps(closing)]) + "\n")
    copy = Spire(tmp_path / "copy.sqlite")
    copy.ok("import", str(path))
    for spire in (copy, branched):
        spire.ok("switch", "again")
    assert copy.json("checkpoints") == branched.json("checkpoints")


def test_nothing_may_follow_the_closing_record(branched: Spire, tmp_path: Path) -> None:
    lines = branched.ok("export").splitlines()
    path = tmp_path / "more.jsonl"
    path.write_text("\n".join([*lines, lines[1]]) + "\n")
    line = Spire(tmp_path / "copy.sqlite").refused("import", str(path), code=2)
    assert f"line {len(lines) + 1}: the file goes on after its closing record" in line


@pytest.mark.parametrize(("field", "value", "says"), [
    ("fork_hash", "a" * 64, "forks at #2 of 'main', whose event there has another hash"),
    ("parent", "nowhere", "no branch 'nowhere' before branch 'again' to fork from"),
    ("fork", 40, "forks at #40, past 'main''s head"),
    ("branch", "main", "branch 'main' comes twice"),
    ("colour", "red", "neither an event, a branch nor the closing record"),
])
def test_a_branch_line_that_does_not_hold_is_refused(
    branched: Spire, tmp_path: Path, field: str, value: object, says: str,
) -> None:
    lines = branched.ok("export").splitlines()
    at = next(i for i, line in enumerate(lines) if '"branch":"again"' in line)
    section = json.loads(lines[at])
    section[field] = value
    lines[at] = json.dumps(section)
    path = tmp_path / "forked.jsonl"
    path.write_text("\n".join(lines) + "\n")
    copy = Spire(tmp_path / "copy.sqlite")
    assert says in copy.refused("import", str(path), code=2)
    assert copy.journal_rows() == ((), (), ())


def test_an_unknown_game_is_refused(hildegard: Spire, tmp_path: Path) -> None:
    lines = hildegard.ok("export").splitlines()
    first = json.loads(lines[0])
    first["payload"]["game"] = "monopoly"
    encoded = chain.envelope(1, first["type"], first["v"], chain.canonical_json(first["payload"]),
                             first["recorded_at"], first["player"], first["override"])
    first["hash"] = chain.link(chain.GENESIS, encoded)
    closing = {"closing": {"branches": [
        {"name": "main", "events": 1, "head": 1, "hash": first["hash"]}]}}
    path = tmp_path / "monopoly.jsonl"
    path.write_text(json.dumps(first) + "\n" + json.dumps(closing) + "\n")
    line = hildegard.refused("import", str(path), "--name", "mono", code=2)
    assert "line 1: unknown game 'monopoly'" in line


# -- a write that fails leaves the file as it was ------------------------------------------

LIMIT = 120_000
"""The largest file the writer may make (ulimit -f): smaller than the export."""


def many_notes(spire: Spire) -> None:
    spire.ok("new", "long", "--game", "hildegard")
    text = "".join(f"note {'a long note ' * 30}{i}\n" for i in range(400))
    run = spire("play", input=text)
    assert run.code == 0, run.err
    import sqlite3

    with sqlite3.connect(spire.db) as conn:  # so reading it writes nothing (no WAL to fold)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def limited(*args: str) -> subprocess.CompletedProcess[str]:
    """`spire ARGS` in a new process that may write no file past LIMIT bytes."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (LIMIT, LIMIT))

    return subprocess.run(
        [sys.executable, "-m", "journal", *args], capture_output=True, text=True, check=False,
        preexec_fn=limit, env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.slow
@pytest.mark.parametrize("command", [["export"], ["report", "--format", "md"]])
@pytest.mark.parametrize("existing", [True, False])
def test_a_failed_write_leaves_the_file_as_it_was(
    spire: Spire, tmp_path: Path, command: list[str], existing: bool,
) -> None:
    many_notes(spire)
    assert len(spire.ok(*command)) > LIMIT
    target = tmp_path / "backup.out"
    if existing:
        target.write_text("the last good backup\n")
    done = limited("--db", str(spire.db), *command, "-o", str(target))
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("spire: cannot write") and "it is as it was" in done.stderr
    assert "Traceback" not in done.stderr
    if existing:
        assert target.read_text() == "the last good backup\n"
    else:
        assert not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_a_written_export_replaces_the_file_whole(hildegard: Spire, tmp_path: Path) -> None:
    target = tmp_path / "backup.jsonl"
    target.write_text("old\n" * 1000)
    hildegard.ok("export", "-o", str(target))
    assert target.read_text() == hildegard.ok("export")
