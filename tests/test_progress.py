"""Long work is not silent (issue 18): import, export, replay, audit and report draw a Rich
progress line on stderr when it is a terminal and the work takes a while, and nothing at all
when it is not a terminal (a pipe, a script). SPIRE_PROGRESS_AFTER (seconds, 1 unless set)
is when drawing starts; 0 here, so a small journal's work shows it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import Spire

from journal.cli import app

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")]

NOW = {"SPIRE_PROGRESS_AFTER": "0"}


@pytest.fixture
def played(hildegard: Spire, tmp_path: Path) -> Spire:
    for command in (["reveal", "1"], ["gain", "gold", "2"], ["target", "Street Merchant"],
                    ["roll", "c", "c", "r"]):
        hildegard.ok(*command)
    hildegard.ok("export", "-o", str(tmp_path / "kept.jsonl"))
    return hildegard


def commands(spire: Spire, tmp_path: Path) -> list[tuple[list[str], bytes]]:
    """Each command and the words its progress line shows."""
    return [(["audit"], b"auditing"),
            (["report", "--format", "md", "-o", str(tmp_path / "r.md")], b"writing the md report"),
            (["export", "-o", str(tmp_path / "e.jsonl")], b"exporting"),
            (["replay", "--verify"], b"folding every branch"),
            (["import", str(tmp_path / "kept.jsonl"), "--name", "copy"], b"importing kept.jsonl")]


def test_on_a_terminal_the_work_shows_its_progress(played: Spire, tmp_path: Path) -> None:
    from ptys import on_terminal

    for args, words in commands(played, tmp_path):
        code, shown = on_terminal("--db", str(played.db), *args, env=NOW)
        assert code == 0, shown
        assert words in shown, (args, shown)
        assert b"\x1b[2K" in shown, "the line is erased when the work is done"


def test_piped_there_is_no_progress_at_all(played: Spire, tmp_path: Path) -> None:
    from ptys import on_pipes

    code, out, err = on_pipes("--db", str(played.db), "audit", env=NOW)
    assert code == 0 and err == b"" and b"auditing" not in out and b"\x1b" not in out
    for args, words in commands(played, tmp_path):             # in-process, output captured
        run = played.runner.invoke(app,
                                   ["--db", str(played.db), *args], env=NOW)
        assert run.exit_code == 0 and run.stderr == "", (args, run.stderr)
        assert words.decode() not in run.stdout


def test_quick_work_draws_nothing(played: Spire, tmp_path: Path) -> None:
    from ptys import on_terminal

    code, shown = on_terminal("--db", str(played.db), "audit",
                              env={"SPIRE_PROGRESS_AFTER": "30"})
    assert code == 0 and b"auditing" not in shown


def test_a_replay_printed_on_the_terminal_is_its_own_progress(played: Spire,
                                                              tmp_path: Path) -> None:
    from ptys import on_terminal

    code, shown = on_terminal("--db", str(played.db), "replay", env=NOW)
    assert code == 0 and b"Hildegard rolled" in shown and b"replaying" not in shown
    out = tmp_path / "replay.txt"
    code, shown = on_terminal("--db", str(played.db), "replay", env=NOW, stdout=out)
    assert code == 0 and b"replaying, events" in shown      # to a file: progress on stderr
    assert "Hildegard rolled" in out.read_text() and "\x1b" not in out.read_text()
