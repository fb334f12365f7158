"""`spire status` shows the glance kept at the branch head (journal/service/glance.py): worked out
when the head moves, in the transaction that moves it, so a new process answers without
loading the rules. A glance changes no answer: what status shows from it is what the fold
of the branch's events shows, and one that is missing, stale, from another spire or
unreadable is worked out again."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path
from typing import Any

import pytest
from conftest import Spire
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_snapshot_properties import PLAN, _play

from journal.core import decide
from journal.core.state import project
from journal.service import glance
from journal.service.journal import Journal


def _glances(db: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT branch_id, position, hash, version, glance FROM glances ORDER BY branch_id"
        ).fetchall()


def _forget(db: Path) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("DELETE FROM glances")


def _both(spire: Spire, *args: str) -> tuple[str, str]:
    """Status as the glance kept shows it, then as a fold shows it with no glance kept."""
    kept = spire.ok("status", *args)
    _forget(spire.db)
    return kept, spire.ok("status", *args)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=st.sampled_from(["hildegard", "spires-end", "volume2"]), plan=PLAN)
def test_the_glance_kept_at_each_head_is_the_glance_of_its_fold(
    game: str, plan: list[tuple[str, Any, bool]],
) -> None:
    with tempfile.TemporaryDirectory() as here:
        journal = Journal(str(Path(here) / "journal.sqlite"))
        journal.new("walk", game, 1)
        _play(journal, plan)
        for branch in journal.store.tree.branches(journal.read.campaign()):
            shown = journal.read.status(branch.name)
            assert shown.branch == branch
            expected = glance.of(project(journal.store.log.read(branch)))
            assert shown.glance.dumps() == expected.dumps(), branch.name
        assert journal.read.verify() == []


def test_status_from_the_glance_reads_as_status_from_the_fold(hildegard: Spire) -> None:
    hildegard.ok("demo")  # a target, a face-off under way, an item, notes, an undo
    hildegard.ok("use", "demo")
    hildegard.ok("checkpoint", "crows")
    hildegard.ok("spend", "gold", "5", "--force")  # more gold than the players hold
    kept, folded = _both(hildegard)
    assert kept == folded
    assert "overrides (1):" in kept and "Face-off, round 2" in kept
    assert "checkpoints  start (#1), crows (#25)" in kept
    kept, folded = _both(hildegard, "--json")
    assert kept == folded


def test_a_write_keeps_the_glance_of_its_new_head(hildegard: Spire) -> None:
    hildegard.ok("reveal", "1")
    hildegard.ok("note", "the gate is shut")
    ((_, position, digest, version, text),) = _glances(hildegard.db)
    with sqlite3.connect(hildegard.db) as conn:
        head = conn.execute("SELECT head_position, head_hash FROM branches").fetchone()
    assert (position, digest) == head and version == glance.VERSION
    assert glance.Glance.loads(text).state["notes"] == ["the gate is shut"]


def test_a_checkpoint_shows_though_it_does_not_move_the_head(hildegard: Spire) -> None:
    hildegard.ok("reveal", "1")
    before = _glances(hildegard.db)
    hildegard.ok("checkpoint", "gate")
    assert _glances(hildegard.db) == before
    assert "start (#1), gate (#2)" in hildegard.ok("status")


TAMPER = "glance = replace(glance, '\"gold\":3', '\"gold\":30')"
"""Make the kept glance say 30 gold where the events say 3: shown, it would be seen."""


@pytest.mark.parametrize("other", [
    "position = position - 1",  # the glance of another head
    # of the same position on another history (its first digit changed, whatever it was)
    "hash = (CASE substr(hash, 1, 1) WHEN '0' THEN '1' ELSE '0' END) || substr(hash, 2)",
    "version = '0.0.1/1/1'",  # kept by another spire
])
def test_a_glance_of_another_head_or_another_spire_is_not_shown(
    hildegard: Spire, other: str,
) -> None:
    hildegard.ok("reveal", "1")
    hildegard.ok("gain", "gold", "3")
    with sqlite3.connect(hildegard.db) as conn:
        conn.execute(f"UPDATE glances SET {other}, {TAMPER}")
    assert hildegard.json("status")["resources"]["gold"] == 3
    ((_, position, _hash, version, _text),) = _glances(hildegard.db)
    assert (position, version) == (3, glance.VERSION), "worked out again, and kept"


def test_an_unreadable_glance_is_worked_out_again(hildegard: Spire) -> None:
    hildegard.ok("reveal", "7")
    with sqlite3.connect(hildegard.db) as conn:
        conn.execute("UPDATE glances SET glance = '{\"title\": '")
    assert "card         7" in hildegard.ok("status")
    glance.Glance.loads(_glances(hildegard.db)[0][4])


def test_replay_verify_finds_a_glance_that_disagrees_with_its_events(hildegard: Spire) -> None:
    hildegard.ok("gain", "gold", "3")
    with sqlite3.connect(hildegard.db) as conn:
        conn.execute(f"UPDATE glances SET {TAMPER}")
    run = hildegard("replay", "--verify")
    assert run.code == 1
    assert "branch 'main': the status kept at #2 disagrees with its events" in run.out


def test_a_refused_command_leaves_the_glance_as_it_was(hildegard: Spire) -> None:
    hildegard.ok("reveal", "1")
    before = _glances(hildegard.db)
    hildegard.refused("spend", "gold", "5", code=1)
    assert _glances(hildegard.db) == before


def test_a_rewound_or_imported_branch_shows_its_own_state(hildegard: Spire, tmp_path: Path) -> None:
    hildegard.ok("reveal", "1")
    hildegard.ok("checkpoint", "one")
    hildegard.ok("reveal", "2")
    hildegard.ok("rewind", "one", "--as", "again")
    assert hildegard.json("status")["card"] == 1
    assert hildegard.json("status", "--branch", "main")["card"] == 2
    exported = tmp_path / "main.jsonl"
    hildegard.ok("export", "--branch", "main", "--output", str(exported))
    hildegard.ok("import", str(exported), "--name", "copy")
    status = hildegard.json("status")
    assert (status["campaign"], status["card"]) == ("copy", 2)


def test_a_writer_that_another_overtakes_keeps_the_glance_of_what_is_there(tmp_path: Path) -> None:
    # Two players' processes on one journal: B reads the branch head, then A appends before
    # B reads the events. B must fold the events up to the head it read (not A's too, and
    # then A's again from the head it remembered), or its append would keep a glance that
    # counts A's gold twice.
    db = str(tmp_path / "journal.sqlite")
    a = Journal(db)
    a.new("race", "hildegard", 1)
    a.execute(lambda v: decide.gain(v.state, "gold", 1))
    b = Journal(db)
    overtaken: list[bool] = []

    def after_a_writes(read: Any) -> Any:
        def reading(*args: Any, **kwargs: Any) -> Any:
            if not overtaken:
                overtaken.append(True)
                a.execute(lambda v: decide.gain(v.state, "gold", 3))
            return read(*args, **kwargs)
        return reading

    # B reads the events one way or another (all at once, or as they stream).
    b.store.log.read = after_a_writes(b.store.log.read)  # type: ignore[method-assign]
    b.store.log.stream = after_a_writes(b.store.log.stream)  # type: ignore[method-assign]
    b.execute(lambda v: decide.note("the gate is shut"))
    assert overtaken
    fresh = Journal(db)
    glanced = fresh.read.status().glance
    assert glanced.state["resources"]["gold"] == 4 == fresh.read.replays.rebuild().resources["gold"]
    assert fresh.read.verify() == []
