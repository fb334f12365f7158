"""`spire status` shows the glance kept at the branch head (journal/glance.py): worked out
when the head moves, in the transaction that moves it, so a new process answers without
loading the rules. A glance changes no answer: what status shows from it is what the fold
of the branch's events shows, and one that is missing, stale, from another spire or
unreadable is worked out again."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from conftest import Spire
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_snapshot_properties import PLAN, _play

from journal import glance
from journal.service import Journal
from journal.state import project


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
        for branch in journal.store.branches(journal.campaign()):
            shown = journal.status(branch.name)
            assert shown.branch == branch
            expected = glance.of(project(journal.store.read(branch)))
            assert shown.glance.dumps() == expected.dumps(), branch.name
        assert journal.verify() == []


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


def test_a_glance_of_another_head_or_another_spire_is_not_shown(hildegard: Spire) -> None:
    hildegard.ok("reveal", "1")
    hildegard.ok("gain", "gold", "3")
    with sqlite3.connect(hildegard.db) as conn:  # as an older spire, which kept none, leaves it
        conn.execute("UPDATE glances SET position = position - 1")
    assert hildegard.json("status")["resources"]["gold"] == 3
    with sqlite3.connect(hildegard.db) as conn:
        conn.execute("UPDATE glances SET version = '0.0.1/1', "
                     "glance = replace(glance, '\"gold\":3', '\"gold\":30')")
    assert hildegard.json("status")["resources"]["gold"] == 3
    ((*_, version, _text),) = _glances(hildegard.db)
    assert version == glance.VERSION, "worked out again, and kept"


def test_an_unreadable_glance_is_worked_out_again(hildegard: Spire) -> None:
    hildegard.ok("reveal", "7")
    with sqlite3.connect(hildegard.db) as conn:
        conn.execute("UPDATE glances SET glance = '{\"title\": '")
    assert "card         7" in hildegard.ok("status")
    glance.Glance.loads(_glances(hildegard.db)[0][4])


def test_replay_verify_finds_a_glance_that_disagrees_with_its_events(hildegard: Spire) -> None:
    hildegard.ok("gain", "gold", "3")
    with sqlite3.connect(hildegard.db) as conn:
        conn.execute("UPDATE glances SET glance = replace(glance, '\"gold\":3', '\"gold\":30')")
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
