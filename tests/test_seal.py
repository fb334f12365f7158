"""A head sealed outside the file (issue 15): each write keeps the branch heads in
JOURNAL.seal beside the journal, and `spire audit` checks the journal against it and
against a head hash given with --expect. Three edits a hash chain kept in the same file
cannot see alone, each found; and a kept status or snapshot that is not the fold of the
events."""

from __future__ import annotations

import gc
import json
import os
import re
import resource
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import Spire

from journal.core import chain
from journal.store import sealing

ROOT = Path(__file__).resolve().parents[1]


def seal_path(spire: Spire) -> Path:
    return spire.db.with_name(f"{spire.db.name}.seal")


def seal_of(spire: Spire) -> dict[str, dict[str, Any]]:
    """The heads the seal keeps, by campaign and branch: its JSON lines read in order, the
    first the whole seal as last written whole, each later one what a write renewed."""
    lines = seal_path(spire).read_text().splitlines()
    assert json.loads(lines[0])["spire-seal"] == 2
    kept: dict[str, dict[str, Any]] = {}
    for line in lines:
        for campaign, branches in json.loads(line)["campaigns"].items():
            kept.setdefault(campaign, {}).update(
                {name: {"head": b["head"], "hash": b["hash"]} for name, b in branches.items()})
    return kept


def head(spire: Spire, branch: str = "main") -> tuple[int, str]:
    status = spire.json("status", "--branch", branch)
    return status["head"], status["head_hash"]


def audited(spire: Spire, *args: str) -> tuple[int, list[str]]:
    run = spire("audit", "--json", *args)
    report = json.loads(run.out)
    return run.code, [f"{f['branch']} #{f['seq']}: {f['message']}" for f in report["findings"]]


@pytest.fixture
def played(hildegard: Spire) -> Spire:
    hildegard.ok("reveal", "1")
    hildegard.ok("gain", "gold", "2")
    hildegard.ok("note", "the last thing we did")
    return hildegard


def sql(spire: Spire, *statements: str, params: tuple[Any, ...] = ()) -> None:
    gc.collect()  # connections the in-process commands left open
    with sqlite3.connect(spire.db) as conn:
        for statement in statements:
            conn.execute(statement, params if "?" in statement else ())
        conn.execute("DELETE FROM glances")  # so the caches do not speak for the edit
        conn.execute("DELETE FROM snapshots")
    conn.close()


def rows(spire: Spire) -> list[dict[str, Any]]:
    with sqlite3.connect(spire.db) as conn:
        conn.row_factory = sqlite3.Row
        found = [dict(r) for r in conn.execute(
            "SELECT * FROM events WHERE branch_id = 1 ORDER BY position")]
    conn.close()
    return found


def rechain(spire: Spire, start: int) -> None:
    """Recompute every hash from `start` on and move the head: the chain is whole again."""
    found = rows(spire)
    prev = found[start - 2]["hash"] if start > 1 else chain.GENESIS
    updates = []
    for row in found[start - 1:]:
        raw = chain.RawEvent(row["position"], row["type"], row["version"],
                             json.loads(row["payload"]), row["recorded_at"], row["player"],
                             row["override"], prev, "")
        digest = chain.link(prev, raw.encoded())
        updates.append((prev, digest, row["id"]))
        prev = digest
    gc.collect()
    with sqlite3.connect(spire.db) as conn:
        conn.executemany("UPDATE events SET prev_hash = ?, hash = ? WHERE id = ?", updates)
        conn.execute("UPDATE branches SET head_hash = ? WHERE id = 1", (prev,))
    conn.close()


def delete_the_last_event(spire: Spire) -> None:
    at, _ = head(spire)
    sql(spire, f"DELETE FROM events WHERE branch_id = 1 AND position = {at}",
        "UPDATE branches SET head_position = head_position - 1, head_hash = "
        f"(SELECT hash FROM events WHERE branch_id = 1 AND position = {at - 1}) WHERE id = 1")


def append_a_forged_event(spire: Spire) -> None:
    at, digest = head(spire)
    raw = chain.RawEvent(at + 1, "resource-gained", 1, {"resource": "gold", "amount": 50},
                         "2026-01-01T12:00:00+00:00", None, None, digest, "")
    forged = chain.link(digest, raw.encoded())
    row = {**raw.to_row(), "hash": forged, "branch_id": 1}
    sql(spire, f"INSERT INTO events ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
        params=tuple(row.values()))
    sql(spire, f"UPDATE branches SET head_position = {at + 1}, head_hash = '{forged}' "
               "WHERE id = 1")


def edit_and_rechain(spire: Spire) -> None:
    sql(spire, "UPDATE events SET payload = '{\"amount\":20,\"resource\":\"gold\"}' "
               "WHERE branch_id = 1 AND position = 3")
    rechain(spire, 3)


TAMPERING = {
    "the last event deleted, the head moved back": (delete_the_last_event,
                                                    "#4 is missing from the journal"),
    "a forged event chained on, the head moved": (append_a_forged_event,
                                                 "#5 past the sealed head #4"),
    "an event edited, every later hash recomputed": (
        edit_and_rechain, "#3 is not the event sealed there"),
}


@pytest.mark.parametrize("how", list(TAMPERING))
def test_what_the_chain_cannot_see_the_seal_finds(played: Spire, how: str) -> None:
    tamper, says = TAMPERING[how]
    assert audited(played) == (0, [])
    tamper(played)
    code, found = audited(played)
    assert code == 1
    assert len(found) == 1 and says in found[0], found
    assert "outside spire" in found[0] or "missing" in found[0]


@pytest.mark.parametrize("how", list(TAMPERING))
def test_the_head_expected_finds_it_without_the_seal(played: Spire, how: str) -> None:
    _, kept = head(played)
    tamper, _ = TAMPERING[how]
    tamper(played)
    played.db.with_name(f"{played.db.name}.seal").unlink()  # the forger took it too
    code, found = audited(played, "--expect", kept[:12])
    assert code == 1
    assert any(f"no event of the branch has the hash expected ({kept[:12]}" in f
               or "the head expected is #4" in f for f in found), found
    assert any("there is no seal beside the journal" in f for f in found), found


@pytest.mark.parametrize("how", list(TAMPERING))
def test_a_write_after_the_edit_does_not_hide_it(played: Spire, how: str) -> None:
    tamper, _ = TAMPERING[how]
    tamper(played)
    played.ok("note", "played on")
    code, found = audited(played)
    assert code == 1
    assert any("when spire last wrote here the journal was not as sealed" in f
               for f in found), found


def test_the_head_hash_is_shown_everywhere_and_expected_passes(played: Spire) -> None:
    at, digest = head(played)
    assert seal_of(played)["gray-oaks"]["main"] == {"head": at, "hash": digest}
    closing = json.loads(played.ok("export").splitlines()[-1])
    assert closing["closing"]["branches"][0]["hash"] == digest
    assert audited(played, "--expect", digest) == (0, [])
    assert audited(played, "--expect", digest[:8].upper()) == (0, [])


def test_an_earlier_head_expected_says_what_came_after(played: Spire) -> None:
    _, earlier = head(played)
    played.ok("gain", "feats", "1")
    code, found = audited(played, "--expect", earlier)
    assert code == 1
    assert found == [f"main #5: the head expected is #4 (hash {earlier[:12]}...); #5 came "
                     "after it"]


@pytest.mark.parametrize(("args", "says"), [
    (["--expect", "xyz"], "--expect is a head hash of 8 to 64 hex digits"),
    (["--expect", "abc"], "--expect is a head hash of 8 to 64 hex digits"),
    (["--expect", "a" * 65], "--expect is a head hash of 8 to 64 hex digits"),
    (["--expect", "abcdef12", "--all"], "give --branch, not --all"),
])
def test_a_bad_expect_is_refused(played: Spire, args: list[str], says: str) -> None:
    assert says in played.refused("audit", *args, code=2)


def test_every_kind_of_write_keeps_the_seal(played: Spire, tmp_path: Path) -> None:
    played.ok("checkpoint", "here")
    played.ok("rewind", "here", "--as", "other")
    played.ok("reveal", "2")
    played.ok("new", "second", "--game", "volume2")
    backup = tmp_path / "b.jsonl"
    played.ok("--campaign", "gray-oaks", "export", "-o", str(backup))
    played.ok("import", str(backup), "--name", "copy")
    kept = seal_of(played)
    assert set(kept) == {"gray-oaks", "second", "copy"}
    assert set(kept["copy"]) == {"main", "other"}
    for campaign, branches in kept.items():
        for branch, sealed in branches.items():
            status = played.json("--campaign", campaign, "status", "--branch", branch)
            assert (sealed["head"], sealed["hash"]) == (status["head"], status["head_hash"])
        assert played("--campaign", campaign, "audit", "--all").code == 0


def test_a_branch_made_outside_spire_is_named(played: Spire) -> None:
    at, digest = head(played)
    sql(played, "INSERT INTO branches (campaign_id, name, parent_id, fork_position, "
                f"head_position, head_hash, created_at) VALUES (1, 'sneaky', 1, {at}, {at}, "
                f"'{digest}', '2026-01-01')")
    code, found = audited(played, "--all")
    assert code == 1 and found == [f"sneaky #{at}: the branch is not in the seal: made "
                                   "outside spire"]


def test_a_seal_that_does_not_read_is_a_finding(played: Spire) -> None:
    seal_path(played).write_text("{garbage")
    code, found = audited(played)
    assert code == 1 and "does not read" in found[0]


# -- the seal's file ---------------------------------------------------------------------

def test_a_write_appends_the_heads_it_moved_and_the_seal_is_written_whole_in_time(
    played: Spire, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A write appends one line to the seal, synced in place (no new file to make and
    rename), pending its commit, and after the commit a line that says it committed; every
    RENEWALS_KEPT writes it is written whole again, so it stays small."""
    monkeypatch.setattr(sealing, "RENEWALS_KEPT", 2)

    def lines() -> list[dict[str, Any]]:
        return [json.loads(line) for line in seal_path(played).read_text().splitlines()]

    def sealed() -> list[dict[str, Any]]:
        return [line for line in lines() if "committed" not in line]

    for _ in range(3):  # until the seal was just written whole
        if len(sealed()) == 1:
            break
        played.ok("note", "until whole")
    assert len(sealed()) == 1
    counted = []
    for i in range(3):
        before = head(played)
        played.ok("gain", "gold", "1")
        counted.append(len(sealed()))
        if i == 0:
            at, digest = head(played)
            *_, renewal, said = lines()
            write = renewal["pending"]["write"]
            assert renewal == {
                "campaigns": {"gray-oaks": {"main": {"head": at, "hash": digest,
                                                     "checkpoints": [["start", 1]]}}},
                "disagreed": [], "pending": {"write": write, "before": {
                    "gray-oaks": {"main": list(before)}}, "marks": {
                    "gray-oaks": {"main": [["start", 1]]}}}}
            assert said == {"campaigns": {}, "disagreed": [], "committed": write}
    assert counted == [2, 3, 1]
    assert json.loads(seal_path(played).read_text().splitlines()[0])["spire-seal"] == 2
    assert seal_of(played)["gray-oaks"]["main"] == dict(
        zip(("head", "hash"), head(played), strict=True))
    assert audited(played) == (0, [])


def test_a_write_reads_the_seal_again_when_another_process_wrote_it(played: Spire) -> None:
    """A process that writes again (the play shell) keeps the seal as it last wrote it,
    and reads the file again when another process wrote it since: otherwise it would take
    the other's head for an edit made outside spire."""
    played.ok("note", "ours")
    other = subprocess.run(
        [sys.executable, "-m", "journal", "--db", str(played.db), "note", "theirs"],
        capture_output=True, text=True, check=False, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert other.returncode == 0, other.stderr
    played.ok("note", "ours again")
    assert seal_of(played)["gray-oaks"]["main"] == dict(
        zip(("head", "hash"), head(played), strict=True))
    assert audited(played) == (0, [])


def test_a_last_line_cut_short_is_not_part_of_the_seal(played: Spire) -> None:
    """A crash while a write appended to the seal (before its transaction committed)
    leaves part of a line: it is not part of the seal, and the next write writes the seal
    whole without it."""
    at, _ = head(played)
    with seal_path(played).open("a") as seal:
        seal.write(f'{{"campaigns": {{"gray-oaks": {{"main": {{"head": {at + 1}, "ha')
    assert audited(played) == (0, [])
    played.ok("note", "after the crash")
    text = seal_path(played).read_text()
    assert text.endswith("\n") and len(text.splitlines()) == 2  # the seal, its commit said
    assert '"committed"' in text.splitlines()[1]
    assert audited(played) == (0, [])


@pytest.mark.parametrize(("behind", "found"), [
    (0, []), (1, ["main #4: #4 past the sealed head #3: appended outside spire"])])
def test_a_seal_an_older_spire_wrote_still_reads(
    played: Spire, behind: int, found: list[str],
) -> None:
    """Version 1 kept the seal as one indented JSON document: it reads (an edit it shows
    is found), and the next write writes the seal whole in version 2."""
    at, digest = head(played)
    digest = digest if not behind else rows(played)[at - behind - 1]["hash"]
    seal_path(played).write_text(json.dumps({"spire-seal": 1, "campaigns": {
        "gray-oaks": {"main": {"head": at - behind, "hash": digest}}}, "disagreed": []},
        indent=1) + "\n")
    assert audited(played) == (1 if found else 0, found)
    played.ok("note", "played on")
    assert json.loads(seal_path(played).read_text().splitlines()[0])["spire-seal"] == 2
    assert audited(played)[0] == (1 if found else 0)


def test_a_write_whose_seal_cannot_be_synced_is_refused_and_appends_nothing(
    played: Spire, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A disk that fails the seal's sync: the write says so in one line (storage trouble,
    exit 3), its transaction rolls back (the head did not move), and the line it appended
    is cut back off (the seal as it was)."""
    import errno

    played.ok("note", "so the seal has a line to append after")
    sealed, at = seal_path(played).read_bytes(), head(played)

    def failing(fd: int) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(os, "fsync", failing)
    line = played.refused("note", "lost to the disk", code=3)
    assert "cannot write the seal" in line and "nothing was written" in line
    monkeypatch.undo()
    assert head(played) == at and seal_path(played).read_bytes() == sealed
    assert audited(played) == (0, [])


def test_a_blank_line_in_the_seal_says_nothing(played: Spire) -> None:
    """A blank line (an editor's, a line ending doubled) is no part of the seal, as JSON
    Lines reads it: the seal still vouches for the journal."""
    with seal_path(played).open("a") as seal:
        seal.write("\n")
    assert audited(played) == (0, [])
    played.ok("note", "after a blank line")
    assert audited(played) == (0, [])


def test_an_append_that_fails_is_cut_back_off(tmp_path: Path) -> None:
    """A write that cannot append its whole line (here a file size limit, as a full disk)
    leaves the seal as it was and says why (its transaction then rolls back)."""
    target = tmp_path / "journal.sqlite.seal"
    target.write_text("x" * 100 + "\n")
    script = ("import resource, sys\n"
              "from pathlib import Path\n"
              "from journal.paths import append_whole\n"
              "resource.setrlimit(resource.RLIMIT_FSIZE, (120, 120))\n"
              "try:\n"
              f"    append_whole(Path({str(target)!r}), 'y' * 50 + '\\n')\n"
              "except OSError as e:\n"
              "    print(e.strerror)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0 and done.stdout.strip() == "No space left on device", done
    assert target.read_text() == "x" * 100 + "\n"


# -- a write that never commits (issue 32, F1) ---------------------------------------------

def dying(spire: Spire, at: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`spire ARGS` in a process of its own, killed with SIGKILL at `at`: once the seal is
    renewed, before the commit ("renew", or "renamed" for a branch renamed), or after the
    commit, before the seal says so ("confirm")."""
    script = ("import os, signal, sys\n"
              "from journal.store import sealing\n"
              f"step = getattr(sealing, {at!r})\n"
              "def killed(*args, **kwargs):\n"
              f"    if {at!r} != 'confirm':\n"
              "        step(*args, **kwargs)\n"
              "    os.kill(os.getpid(), signal.SIGKILL)\n"
              f"setattr(sealing, {at!r}, killed)\n"
              "from journal.process import main\n"
              f"sys.argv = ['spire', '--db', {str(spire.db)!r}, *{list(args)!r}]\n"
              "main()\n")
    gc.collect()  # connections the in-process commands left open
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_a_write_killed_between_the_seal_and_the_commit_is_no_tamper(played: Spire) -> None:
    """A kill -9 after the seal's line and before the commit: the journal is as it was, the
    audit is clean, and the next write mends the seal, saying so in one line (once)."""
    before = played.journal_rows()
    done = dying(played, "renew", "gain", "gold", "1")
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert played.journal_rows() == before
    assert '"head": 5' in seal_path(played).read_text()  # the seal went one write ahead
    assert audited(played) == (0, [])
    run = played("note", "after the crash")
    assert run.code == 0
    assert run.err == ("spire: the seal was one write ahead of the journal (main #5 of "
                       "'gray-oaks'): a write that never committed; mended\n")
    assert audited(played) == (0, [])
    assert played("note", "and on").err == ""
    assert audited(played) == (0, [])


def test_a_branch_renamed_killed_before_its_commit_is_no_tamper(played: Spire) -> None:
    played.ok("rewind", "2", "--as", "side")
    done = dying(played, "renamed", "branch", "rename", "side", "bolder")
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert '"bolder"' in seal_path(played).read_text()
    assert audited(played, "--all") == (0, [])
    run = played("note", "after the crash")
    assert run.code == 0 and run.err.endswith("a write that never committed; mended\n"), run.err
    assert audited(played, "--all") == (0, [])


def test_a_write_killed_after_its_commit_before_the_seal_says_so(played: Spire) -> None:
    """A kill -9 after the commit, before the seal says it committed: the write stands, the
    audit is clean, and the next write says nothing of it."""
    done = dying(played, "confirm", "gain", "gold", "1")
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert head(played)[0] == 5
    assert audited(played) == (0, [])
    assert played("note", "after the crash").err == ""
    assert audited(played) == (0, [])


def test_a_tamper_after_a_crash_is_still_found(played: Spire) -> None:
    """The seal one write ahead is told apart from an event deleted: after the crash the
    journal must be exactly as the write found it. #4 deleted as well is a tamper."""
    assert dying(played, "renew", "gain", "gold", "1").returncode == -signal.SIGKILL
    delete_the_last_event(played)
    code, found = audited(played)
    assert code == 1 and found == [
        "main #4: #4 to #5 are missing from the journal: the seal says the head is #5, the "
        "journal's is #3"], found
    run = played("note", "played on")
    assert run.code == 0 and "mended" not in run.err
    code, found = audited(played)
    assert code == 1 and any("the journal was not as sealed" in f for f in found), found


def test_a_commit_the_full_disk_refuses_is_no_tamper(played: Spire) -> None:
    """The disk fills as the write commits (a file size limit, as a full disk: the seal's
    line fits, the journal's write-ahead log does not): refused in one line, exit 3, the
    journal as it was, the audit clean; the next write mends the seal."""
    keep = sqlite3.connect(played.db)  # held open, so the write-ahead log is kept, and grows
    keep.execute("SELECT count(*) FROM events").fetchall()
    for n in range(6):
        played.ok("note", f"filling the log {n}")
    sizes = [os.path.getsize(f"{played.db}{end}") for end in ("-wal", "-shm")]
    limit = max(*sizes, 32768)
    assert os.path.getsize(seal_path(played)) < limit - 1024
    before = played.journal_rows()
    gc.collect()
    done = subprocess.run(
        [sys.executable, "-m", "journal", "--db", str(played.db), "gain", "gold", "1"],
        capture_output=True, text=True, check=False, env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit)))
    keep.close()
    assert done.returncode == 3, done.stderr
    assert done.stderr.startswith("spire: ") and done.stderr.count("\n") == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert played.journal_rows() == before
    assert audited(played) == (0, [])
    run = played("note", "the disk has room again")
    assert run.code == 0 and run.err.endswith("a write that never committed; mended\n"), run.err
    assert audited(played) == (0, [])


# -- what else the seal covers (issue 32, F6 and F9) ---------------------------------------

def test_a_sealed_branch_deleted_is_found(played: Spire) -> None:
    played.ok("checkpoint", "here")
    played.ok("rewind", "here", "--as", "side")
    played.ok("reveal", "2")
    side, _ = head(played, "side")
    played.ok("switch", "main")
    assert audited(played, "--all") == (0, [])
    gone = "(SELECT id FROM branches WHERE name = 'side')"
    sql(played, *(f"DELETE FROM {table} WHERE branch_id = {gone}"
                  for table in ("events", "checkpoints", "undone")),
        "DELETE FROM branches WHERE name = 'side'")
    for args in ((), ("--all",)):
        code, found = audited(played, *args)
        assert code == 1 and len(found) == 1, found
        assert found[0].startswith(f"side #{side}: the seal keeps branch 'side' (head #{side}, ")
        assert found[0].endswith("which the journal does not have: deleted outside spire")


def test_a_sealed_campaign_deleted_is_found(played: Spire) -> None:
    played.ok("new", "second", "--game", "volume2")
    played.ok("use", "gray-oaks")
    assert audited(played) == (0, [])
    gone = "(SELECT id FROM campaigns WHERE name = 'second')"
    branch = f"(SELECT id FROM branches WHERE campaign_id = {gone})"
    sql(played, *(f"DELETE FROM {table} WHERE branch_id IN {branch}"
                  for table in ("events", "checkpoints", "undone")),
        f"DELETE FROM branches WHERE campaign_id = {gone}",
        "DELETE FROM campaigns WHERE name = 'second'")
    assert [c["name"] for c in played.json("campaigns")] == ["gray-oaks"]
    code, found = audited(played)
    assert code == 1 and len(found) == 1, found
    assert found[0] == ("main #1: the seal keeps campaign 'second' (main #1), which the "
                        "journal does not have: deleted outside spire")


CHECKPOINT_EDITS = {
    "deleted": ("DELETE FROM checkpoints WHERE name = 'cp'", "'start' at #1"),
    "renamed": ("UPDATE checkpoints SET name = 'evil' WHERE name = 'cp'",
                "'start' at #1, 'evil' at #4"),
    "moved": ("UPDATE checkpoints SET position = 2 WHERE name = 'cp'",
              "'start' at #1, 'cp' at #2"),
}


@pytest.mark.parametrize("edit", list(CHECKPOINT_EDITS))
def test_a_checkpoint_deleted_renamed_or_moved_is_found(played: Spire, edit: str) -> None:
    """The seal keeps each branch's own checkpoints, as a write leaves them."""
    played.ok("checkpoint", "cp")
    played.ok("note", "after the checkpoint")
    assert audited(played, "--all") == (0, [])
    statement, holds = CHECKPOINT_EDITS[edit]
    sql(played, statement)
    code, found = audited(played, "--all")
    assert code == 1 and len(found) == 1, found
    assert found[0].endswith(f"the checkpoints are not as sealed: the seal keeps 'start' at #1, "
                             f"'cp' at #4, the journal has {holds}: deleted, renamed or moved "
                             "outside spire"), found


def test_a_checkpoint_killed_before_its_commit_is_no_tamper(played: Spire) -> None:
    assert dying(played, "renew", "checkpoint", "lost").returncode == -signal.SIGKILL
    assert audited(played) == (0, [])
    run = played("checkpoint", "kept")
    assert run.code == 0 and run.err.endswith("a write that never committed; mended\n"), run.err
    assert audited(played) == (0, [])


def test_a_rechain_is_placed_where_the_edit_can_have_begun(played: Spire) -> None:
    """Every hash recomputed after an edit at #3 of 14: found at #3, not at the head, from
    the earlier heads the seal keeps (one a write, and after the seal is written whole
    about one for each power of two back from the head)."""
    for n in range(10):
        played.ok("note", f"on {n}")
    assert head(played)[0] == 14
    edit_and_rechain(played)
    code, found = audited(played)
    assert code == 1 and len(found) == 1, found
    assert found[0].startswith("main #3: #3 is not the event sealed there")
    assert found[0].endswith("rewritten outside spire: the edit began at #3 (#2 is as sealed)")


def test_a_rechain_after_the_seal_was_written_whole_says_where_it_can_have_begun(
    played: Spire, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sealing, "RENEWALS_KEPT", 1)
    for n in range(10):
        played.ok("note", f"on {n}")
    edit_and_rechain(played)
    code, found = audited(played)
    assert code == 1 and len(found) == 1, found
    began = re.search(r"the edit began (?:at #(\d+)|somewhere in #(\d+) to #(\d+)) "
                      r"\(#(\d+) is as sealed\)$", found[0])
    assert began is not None, found
    exact, first, last, intact = began.groups()
    first, last = (exact, exact) if exact else (first, last)
    assert int(first) <= 3 <= int(last) < 14 and int(intact) == int(first) - 1, found
    assert found[0].startswith(f"main #{first}: #{last} is not the event sealed there")


# -- caches ------------------------------------------------------------------------------

def test_an_edited_status_is_found(played: Spire) -> None:
    played.ok("status")  # the glance is kept
    gc.collect()
    with sqlite3.connect(played.db) as conn:
        text = conn.execute("SELECT glance FROM glances").fetchone()[0]
        edited = text.replace('["gold","2"]', '["gold","999"]').replace('"gold":2', '"gold":999')
        conn.execute("UPDATE glances SET glance = ?", (edited,))
    conn.close()
    assert "999" in played.ok("status")
    code, found = audited(played)
    assert code == 1
    assert found == ["main #4: the status kept here disagrees with a fresh fold of the events: "
                     "edited outside spire"]


def test_an_edited_snapshot_is_found_and_never_crashes_a_command(played: Spire) -> None:
    from journal.core import snapshots

    for n in range(snapshots.SNAPSHOT_EVERY):
        played.ok("note", f"n{n}")
    played.ok("status")
    gc.collect()
    with sqlite3.connect(played.db) as conn:
        assert conn.execute("SELECT count(*) FROM snapshots").fetchone()[0] >= 1
        conn.execute("UPDATE snapshots SET state = '{broken'")
        conn.execute("DELETE FROM glances")
    conn.close()
    played.ok("log")
    code, found = audited(played)
    assert code == 1 and all("snapshot kept here disagrees" in f for f in found) and found


@pytest.mark.slow
def test_writers_at_once_keep_the_seal_whole(spire: Spire, tmp_path: Path) -> None:
    from test_concurrency import start_writers

    spire.ok("new", "crowded", "--game", "hildegard")
    writers = start_writers(spire.db, tmp_path, ["a", "b", "c"])
    for writer in writers:
        _, err = writer.communicate(timeout=180)
        assert writer.returncode == 0, err
    assert audited(spire) == (0, [])


def test_the_report_prints_the_head_hash(played: Spire) -> None:
    _, digest = head(played)
    assert json.loads(played.ok("report", "--format", "json"))["campaign"]["head_hash"] == digest
    assert f"Head hash `{digest}`: `spire audit --expect {digest[:12]}`" in played.ok(
        "report", "--format", "md")
    assert f"<code>{digest}</code>" in played.ok("report", "--format", "html")


def test_a_write_between_anothers_commit_and_its_line_is_no_tamper(
        hildegard: Spire, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write says in the seal that it committed after it lets the write lock go, so
    another writer can renew the seal in between. The first then knew the seal without
    that renewal, and its next write took the other's head for a tamper (found once in a
    loaded run of `test_writers_at_once_keep_the_seal_whole`; made certain here)."""
    from journal.store import sealing

    said = sealing.confirm

    def late(url: str, write: str) -> None:  # another process writes first
        subprocess.run([sys.executable, "-m", "journal", "--db", url, "note", "between"],
                       check=True, capture_output=True)
        said(url, write)

    monkeypatch.setattr(sealing, "confirm", late)
    hildegard.ok("note", "first")
    monkeypatch.setattr(sealing, "confirm", said)
    hildegard.ok("note", "second")  # this process again, with the seal as it knew it
    assert audited(hildegard) == (0, [])
    assert [e["payload"].get("text") for e in hildegard.json("log")[-3:]] == [
        "first", "between", "second"]
