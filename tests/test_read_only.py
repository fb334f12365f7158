"""A journal spire may only read (issue 32, F5 in shared/reviews/reliability.md): a backup
on a read-only disk, a copy on a DVD, a file in a directory the player may not write. Every
read works on it; a write is refused in one line (exit 3) with nothing changed. And a
journal another program has locked is called locked, not "not a spire journal".

The read-only mount is a real one (a bind mount remounted read-only, which needs root);
the read-only directory is a real one for a user who is not root (root may write
anywhere). Where the machine allows neither, the test is skipped saying why.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Spire, play

READS = (("status",), ("log",), ("replay",), ("audit",), ("checkpoints",), ("branches",),
         ("campaigns",), ("report", "--format", "md"), ("export",), ("show", "3"))
"""What a player asks of a journal they only read."""


def _played(spire: Spire) -> None:
    play(spire, "new ro --game hildegard", "reveal 1", "gain gold 3", "note the old road",
         "checkpoint camp", "undo", "redo")


def _bind_read_only(source: Path, target: Path) -> str | None:
    """Mount `source` read-only at `target`; why not, where the machine refuses."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return "a read-only bind mount needs root and mount(8)"
    target.mkdir()
    made = subprocess.run(["mount", "--bind", str(source), str(target)],
                          capture_output=True, text=True)
    if made.returncode != 0:
        return f"this machine refuses a bind mount: {made.stderr.strip()}"
    ro = subprocess.run(["mount", "-o", "remount,ro,bind", str(target)],
                        capture_output=True, text=True)
    if ro.returncode != 0:
        subprocess.run(["umount", str(target)], check=False)
        return f"this machine refuses a read-only remount: {ro.stderr.strip()}"
    return None


@pytest.fixture
def on_a_read_only_disk(tmp_path: Path) -> Iterator[Spire]:
    """A played journal, seen through a read-only mount."""
    (tmp_path / "disk").mkdir()
    _played(Spire(tmp_path / "disk" / "journal.sqlite"))
    why = _bind_read_only(tmp_path / "disk", tmp_path / "dvd")
    if why:
        pytest.skip(why)
    try:
        yield Spire(tmp_path / "dvd" / "journal.sqlite")
    finally:
        subprocess.run(["umount", "--lazy", str(tmp_path / "dvd")], check=False)


def test_every_read_works_on_a_read_only_mount(on_a_read_only_disk: Spire) -> None:
    for command in READS:
        run = on_a_read_only_disk(*command)
        assert run.code == 0, f"spire {' '.join(command)} -> {run.code}: {run.err}"
        assert "Traceback" not in run.err
    status = on_a_read_only_disk.json("status")
    assert status["campaign"] == "ro" and status["resources"]["gold"] == 3
    assert "the old road" in on_a_read_only_disk.ok("log")


@pytest.mark.parametrize("command", [("note", "at the ford"), ("gain", "gold", "1"),
                                     ("checkpoint", "dvd"), ("new", "other", "--game", "volume2"),
                                     ("undo",)])
def test_a_write_on_a_read_only_mount_is_refused_in_one_line(on_a_read_only_disk: Spire,
                                                             command: tuple[str, ...]) -> None:
    line = on_a_read_only_disk.refused(*command, code=3)
    assert "is read-only here" in line and "nothing was written" in line
    assert "not a spire journal" not in line


def test_a_read_only_directory_for_a_player_who_is_not_root(tmp_path: Path) -> None:
    """As a user other than root (root writes anywhere, so the test needs one): the
    journal in a directory the user may not write is read, and a write is refused."""
    if os.geteuid() == 0:
        pytest.skip("root may write in any directory; the read-only mount test covers root")
    place = tmp_path / "shelf"
    place.mkdir()
    spire = Spire(place / "journal.sqlite")
    _played(spire)
    place.chmod(0o555)
    try:
        for command in READS:
            run = spire(*command)
            assert run.code == 0, f"spire {' '.join(command)} -> {run.code}: {run.err}"
        assert "is read-only here" in spire.refused("note", "x", code=3)
    finally:
        place.chmod(0o755)


LOCKER = """
import fcntl, sys, time
with open(sys.argv[1], "r+b") as f:
    fcntl.lockf(f, fcntl.LOCK_EX)
    print("locked", flush=True)
    time.sleep(60)
"""
"""Another program holding a POSIX lock on the whole journal file (a backup tool, a
sync client): SQLite's own locks on it fail."""


def test_a_journal_another_program_locked_is_called_locked(tmp_path: Path) -> None:
    spire = Spire(tmp_path / "journal.sqlite")
    for line in ("new ro --game hildegard", "gain gold 3"):  # in processes of their own,
        subprocess.run([sys.executable, "-m", "journal", "--db", str(spire.db),  # which end
                        *line.split()], check=True, capture_output=True)
    locker = subprocess.Popen([sys.executable, "-c", LOCKER, str(spire.db)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert locker.stdout is not None and locker.stdout.readline().strip() == "locked"
        started = time.monotonic()
        line = spire.refused("status", code=3)
        assert "locked by another program" in line and "try again" in line
        assert "not a spire journal" not in line
        assert time.monotonic() - started < 30
    finally:
        locker.kill()
        locker.wait()
    assert spire.json("status")["resources"]["gold"] == 3   # the lock gone, it reads again
