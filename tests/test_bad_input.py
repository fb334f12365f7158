"""Bad input on every path: one `spire:` line, exit 2 (bad input) or 3 (storage), no
traceback, and the journal unchanged (issue 15, "One line, the right exit code").

Each case was a Python traceback and exit 1 before; each runs through the real CLI
against a journal file in tmp_path.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import Run, Spire, refusal
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from journal.core import chain


def undecoded(raw: bytes) -> str:
    """An argument as Python hands it to a program when its bytes are not UTF-8."""
    return raw.decode("utf-8", "surrogateescape")


# -- bytes that are not UTF-8 ------------------------------------------------------------

NOT_UTF8 = [
    ["note", undecoded(b"\xff\xfe")],
    ["note", undecoded(b"\xed\xa0\x80")],  # an encoded surrogate: not UTF-8 either
    ["new", undecoded(b"bad\xff"), "--game", "hildegard"],
    ["checkpoint", undecoded(b"cp\xff")],
    ["item", "gain", undecoded(b"it\xff")],
]


@pytest.mark.parametrize("command", NOT_UTF8, ids=[c[0] for c in NOT_UTF8])
def test_arguments_that_are_not_utf8_are_refused(hildegard: Spire, command: list[str]) -> None:
    line = hildegard.refused(*command, code=2)
    assert "is not UTF-8 text" in line
    assert "\\x" in line  # the bytes shown escaped, as they came


def test_spire_campaign_that_is_not_utf8_is_refused(hildegard: Spire) -> None:
    result = hildegard.runner.invoke(
        __import__("journal.cli", fromlist=["app"]).app, ["--db", str(hildegard.db), "status"],
        env={"SPIRE_CAMPAIGN": undecoded(b"camp\xff")})
    assert result.exit_code == 2
    assert result.stderr == "spire: campaign 'camp\\xff' is not UTF-8 text; spire keeps only text\n"


def play(spire: Spire, text: bytes, *options: str) -> Run:
    result = spire.runner.invoke(
        __import__("journal.cli", fromlist=["app"]).app,
        ["--db", str(spire.db), "play", *options], input=text, env={"COLUMNS": "100"})
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Run(result.exit_code, result.stdout, result.stderr)


def test_play_refuses_a_line_that_is_not_utf8_and_runs_the_next(hildegard: Spire) -> None:
    run = play(hildegard, b"note one\nnote \xff\nnote three\n", "--keep-going")
    assert run.code == 2
    assert run.err.strip().splitlines() == [
        "line 2: '\\xff' is not UTF-8 text; spire keeps only text"]
    notes = [e["payload"]["text"] for e in hildegard.json("log") if e["type"] == "note-added"]
    assert notes == ["one", "three"]


def test_play_stops_at_a_line_that_is_not_utf8(hildegard: Spire) -> None:
    run = play(hildegard, b"note one\nnote \xff\nnote three\n")
    assert run.code == 2
    notes = [e["payload"]["text"] for e in hildegard.json("log") if e["type"] == "note-added"]
    assert notes == ["one"]


# -- numbers -----------------------------------------------------------------------------

HUGE = str(10**30)


@pytest.mark.parametrize("command", [
    ["show", HUGE],
    ["show", "0"],
    ["card", "add", "Huge", "--target", "--number", HUGE, "--limit", "2", "--accuracy", "3",
     "--sets", "2", "--parts", "c,r,d"],
    ["gain", "gold", HUGE],
    ["reveal", HUGE],
    ["log", "--last", HUGE],
    ["lock", "1", HUGE],
    ["new", "p0", "--game", "hildegard", "--players", "0"],
    ["new", "pmany", "--game", "hildegard", "--players", HUGE],
], ids=lambda c: " ".join(c[:2]))
def test_numbers_out_of_range_are_refused(hildegard: Spire, command: list[str]) -> None:
    line = hildegard.refused(*command, code=2)
    assert "invalid value" in line


def test_a_billion_is_the_largest_number(hildegard: Spire) -> None:
    assert "#2 +1000000000 gold" in hildegard.ok("gain", "gold", "1000000000")
    assert "out of range" in hildegard.refused("gain", "gold", "1000000001", code=2)


def test_a_campaign_needs_a_player_even_from_the_rules() -> None:
    from journal.core import decide
    from journal.errors import BadInput
    from journal.games import game

    with pytest.raises(BadInput, match="at least 1 player"):
        decide.start_campaign(game("hildegard"), 0)


# -- import files ------------------------------------------------------------------------

def exported(spire: Spire, tmp_path: Path) -> list[dict[str, Any]]:
    """The events of the campaign's export (its closing record left out)."""
    spire.ok("note", "hello")
    out = tmp_path / "g.jsonl"
    spire.ok("export", "-o", str(out))
    return [r for line in out.read_text().splitlines() if "seq" in (r := json.loads(line))]


def rechained(records: list[dict[str, Any]]) -> str:
    """The events of one branch as an export, every hash recomputed and the closing record
    made to agree: the file is sound but for what the test put in it."""
    prev, lines = chain.GENESIS, []
    for r in records:
        encoded = chain.envelope(
            r["seq"], r["type"], r["v"], chain.canonical_json(r["payload"]),
            r["recorded_at"], r["player"], r["override"])
        r = {**r, "prev_hash": prev, "hash": chain.link(prev, encoded)}
        prev = str(r["hash"])
        lines.append(chain.canonical_json(r))
    lines.append(closing(len(records), records[-1]["seq"], prev))
    return "".join(line + "\n" for line in lines)


def closing(events: int, head: object, digest: str) -> str:
    return json.dumps({"closing": {"branches": [
        {"name": "main", "events": events, "head": head, "hash": digest}]}})


@pytest.mark.parametrize(("field", "value", "says"), [
    ("v", 0, "note-added has no version 0"),
    ("v", -3, "v -3 is out of range"),
    ("player", 10**30, "player of 31 digits is out of range"),
    ("player", -1, "player -1 is out of range"),
])
def test_an_import_with_a_rechained_bad_value_is_refused(
    hildegard: Spire, tmp_path: Path, field: str, value: int, says: str,
) -> None:
    records = exported(hildegard, tmp_path)
    records[1][field] = value
    bad = tmp_path / "bad.jsonl"
    bad.write_text(rechained(records))
    line = hildegard.refused("import", str(bad), "--name", "copy", code=2)
    assert f"line 2: {says}" in line


@pytest.mark.parametrize(("positions", "says"), [
    ([1], "the undo at #3 cannot take back #1 (only #2 to #2)"),
    ([3], "the undo at #3 cannot take back #3 (only #2 to #2)"),
    ([99], "cannot take back #99"),
    ([-1], "cannot take back #-1"),
    ([], "an undo that takes nothing back"),
])
def test_an_import_whose_undo_takes_back_what_no_undo_can_is_refused(
    hildegard: Spire, tmp_path: Path, positions: list[int], says: str,
) -> None:
    """An undo takes back events after the campaign's start and before itself
    (`decide.undo`). A file whose undo named the start was written, then failed at every
    command after ("unknown game ''"); an empty one was a traceback; one that named a
    position past it or below 1 imported, and `spire redo` then was a traceback."""
    records = exported(hildegard, tmp_path)  # campaign-started, note-added
    records.append({**records[1], "seq": 3, "type": "retracted", "v": 1,
                    "payload": {"positions": positions}})
    bad = tmp_path / "bad.jsonl"
    bad.write_text(rechained(records))
    assert says in hildegard.refused("import", str(bad), "--name", "copy", code=2)
    assert "line 3: " in hildegard.refused("import", str(bad), "--name", "copy", code=2)


@pytest.mark.parametrize(("undos", "says"), [
    ([[2], [3]], "the undo at #4 takes back #3, itself an undo\nan undo is never undone"),
    ([[2], [2]], "the undo at #4 takes back #2, taken back already at #3"),
    ([[2, 2]], "the undo at #3 names a position twice"),
])
def test_an_import_whose_undos_no_undo_would_record_is_refused(
    hildegard: Spire, tmp_path: Path, undos: list[list[int]], says: str,
) -> None:
    """`decide.undo` takes back the latest action not taken back yet: such files imported,
    and the audit of the copy then failed."""
    records = exported(hildegard, tmp_path)
    for n, positions in enumerate(undos, start=3):
        records.append({**records[1], "seq": n, "type": "retracted", "v": 1,
                        "payload": {"positions": positions}})
    bad = tmp_path / "bad.jsonl"
    bad.write_text(rechained(records))
    assert says in hildegard.refused("import", str(bad), "--name", "copy", code=2)


def test_an_import_of_a_sound_undo_goes_through(hildegard: Spire, tmp_path: Path) -> None:
    records = exported(hildegard, tmp_path)
    records.append({**records[1], "seq": 3, "type": "retracted", "v": 1,
                    "payload": {"positions": [2]}})
    good = tmp_path / "good.jsonl"
    good.write_text(rechained(records))
    hildegard.ok("import", str(good), "--name", "copy")
    assert hildegard.json("status")["head"] == 3
    hildegard.ok("redo")


@pytest.mark.parametrize(("second", "says"), [
    ('{"seq":' + "9" * 5000 + "}", "a number of more than"),
    ("[" * 100_000, "nested too deeply"),
    ('{"a":' * 100_000, "nested too deeply"),
])
def test_an_import_line_python_cannot_read_is_refused(
    hildegard: Spire, tmp_path: Path, second: str, says: str,
) -> None:
    first = (tmp_path / "g.jsonl", exported(hildegard, tmp_path))[0].read_text().splitlines()[0]
    bad = tmp_path / "bad.jsonl"
    bad.write_text(first + "\n" + second + "\n" + closing(2, 2, "0" * 64) + "\n")
    assert says in hildegard.refused("import", str(bad), "--name", "copy", code=2)


def test_an_import_line_has_a_length_limit(hildegard: Spire, tmp_path: Path) -> None:
    endless = tmp_path / "endless.jsonl"
    endless.write_text("x" * 1_000_001)
    line = hildegard.refused("import", str(endless), "--name", "copy", code=2)
    assert "line 1 is longer than 1,000,000 characters" in line


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_importing_dev_zero_stops(hildegard: Spire) -> None:
    line = hildegard.refused("import", "/dev/zero", "--name", "zero", code=2)
    assert "longer than" in line


# -- the database ------------------------------------------------------------------------

def test_postgresql_without_its_driver_says_what_to_install(
    spire: Spire, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # As without the extra: `import psycopg` fails (None in sys.modules makes it fail).
    monkeypatch.setitem(sys.modules, "psycopg", None)
    for url in ("postgresql://player:secret@localhost/spire",
                "postgresql+psycopg://player:secret@localhost/spire"):
        line = spire.refused("--db", url, "status", code=3)
        assert line.startswith("spire: the database driver psycopg is not installed")
        assert "pip install 'spire-journal[postgres]'" in line
        assert "secret" not in line and "***" in line


def edit_payload(db: Path, position: int, payload: str) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE events SET payload = ? WHERE position = ?", (payload, position))


@pytest.mark.parametrize("command", [
    ["log"], ["log", "--json"], ["report", "--format", "json"], ["report", "--format", "md"],
    ["show", "1"], ["export"], ["replay"], ["branches"], ["note", "more"], ["undo"],
    ["status", "--branch", "main"],
])
@pytest.mark.parametrize("payload", ["{broken", '{"text": 5}', "[]"])
def test_an_event_edited_to_unreadable_is_named(
    hildegard: Spire, command: list[str], payload: str,
) -> None:
    """Export copies the rows as stored (a damaged journal can still be saved; the import
    checks them) unless a payload is not JSON at all."""
    if command == ["export"] and payload != "{broken":
        pytest.skip("export copies a payload that is JSON as it is stored")
    hildegard.ok("note", "hello")
    hildegard.ok("gain", "gold", "2")
    edit_payload(hildegard.db, 2, payload)
    with sqlite3.connect(hildegard.db) as conn:  # status would show the glance kept
        conn.execute("DELETE FROM glances")
    line = hildegard.refused(*command, code=3)
    assert "event #2 of branch 'main' does not read" in line
    assert "`spire audit`" in line


def test_the_audit_still_reports_an_unreadable_event(hildegard: Spire) -> None:
    hildegard.ok("note", "hello")
    edit_payload(hildegard.db, 2, "{broken")
    run = hildegard("audit")
    assert run.code == 1
    assert "#2" in run.out


# -- anything at all ---------------------------------------------------------------------

def settled(spire: Spire, args: list[str]) -> None:
    """Run `spire ARGS`: it either succeeds, or says one reason (a line, maybe with one
    indented line under it: a citation or a hint), exits 1, 2 or 3 and leaves the journal
    as it was. A traceback fails the test (Spire raises the exception)."""
    before = spire.journal_rows()
    run = spire(*args)
    assert run.code in (0, 1, 2, 3), (args, run)
    assert "Traceback" not in run.out + run.err
    if run.code:
        refusal(run.err, typed=args)
        assert spire.journal_rows() == before, args


TEXT = st.one_of(
    st.text(max_size=30),
    st.binary(max_size=12).map(undecoded),
    st.sampled_from(["", " ", "-", "--", "--force", "\x1b[2J", "0", "-1", HUGE]),
)
NUMBER = st.one_of(st.integers(), st.integers(-3, 50), st.sampled_from([0, 2**63, -(2**63) - 1])
                   ).map(str)
COMMANDS = st.one_of(
    st.tuples(st.just("note"), TEXT),
    st.tuples(st.just("checkpoint"), TEXT),
    st.tuples(st.just("item"), st.just("gain"), TEXT),
    st.tuples(st.just("new"), TEXT, st.just("--game"), st.sampled_from(["hildegard", "x"]),
              st.just("--players"), NUMBER),
    st.tuples(st.just("show"), NUMBER),
    st.tuples(st.just("reveal"), NUMBER),
    st.tuples(st.just("gain"), st.sampled_from(["gold", "feats", "rubies"]), NUMBER),
    st.tuples(st.just("spend"), st.just("gold"), NUMBER),
    st.tuples(st.just("log"), st.just("--last"), NUMBER),
    st.tuples(st.just("chapter"), NUMBER),
    st.tuples(st.just("lock"), NUMBER, NUMBER),
    st.tuples(st.just("use"), TEXT),
    st.tuples(TEXT, TEXT),
)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(command=COMMANDS)
@example(command=("note", undecoded(b"\xff\xfe")))  # the issue's own, always tried
@example(command=("show", HUGE))
@example(command=("new", "p0", "--game", "hildegard", "--players", "0"))
def test_any_arguments_end_in_one_line_or_success(
    hildegard: Spire, command: tuple[str, ...],
) -> None:
    settled(hildegard, list(command))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8)
FIELDS = ["seq", "type", "v", "payload", "recorded_at", "player", "override", "prev_hash", "hash"]


CHANGES = st.one_of(
    st.tuples(st.just("field"), st.sampled_from(FIELDS), JSON_VALUES, st.booleans()),
    st.tuples(st.just("line"), st.one_of(st.text(max_size=60),
                                         st.binary(max_size=60).map(undecoded))),
)
"""How the second line of an export is changed: a field set to any JSON value (the chain
recomputed after it, or not), or the line replaced by any text or bytes."""


def changed(lines: list[str], change: tuple[object, ...]) -> bytes:
    """The export `lines` (three events, the start checkpoint, the closing record) with
    `change` made; a changed field drops the checkpoint line."""
    if change[0] == "line":
        second = str(change[1])
        return "\n".join([lines[0], second, *lines[2:]]).encode("utf-8", "surrogateescape") + b"\n"
    _, field, value, rechain = change
    records = [json.loads(line) for line in lines if '"seq":' in line]
    records[1][field] = value
    try:
        body = rechained(records) if rechain else ""
    except (TypeError, AttributeError, ValueError, KeyError):  # no hash can be made over it
        body = ""
    body = body or "".join(json.dumps(r) + "\n" for r in records) + lines[-1] + "\n"
    return body.encode("utf-8", "surrogatepass")


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(change=CHANGES)
@example(change=("field", "v", 0, True))  # the issue's own, always tried
@example(change=("field", "player", 10**30, True))
@example(change=("line", "[" * 100_000))
def test_any_import_file_ends_in_one_line_or_success(
    hildegard: Spire, tmp_path: Path, change: tuple[object, ...],
) -> None:
    source = tmp_path / "source.jsonl"
    if not source.exists():
        hildegard.ok("note", "hello")
        hildegard.ok("gain", "gold", "1")
        hildegard.ok("export", "-o", str(source))
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(changed(source.read_text().splitlines(), change))
    count = len(hildegard.journal_rows()[2])
    settled(hildegard, ["import", str(bad), "--name", f"copy-{count}"])


# -- names -------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [
    ["new", "N" * 201, "--game", "hildegard"],
    ["checkpoint", "C" * 201],
    ["rewind", "start", "--as", "B" * 201],
    ["branch", "rename", "main", "B" * 201],
], ids=["campaign", "checkpoint", "branch", "rename"])
def test_a_name_longer_than_the_journal_keeps_is_refused(
    hildegard: Spire, command: list[str],
) -> None:
    """The journal keeps names of 200 characters and an export's are read back under that
    limit: a longer one was kept on SQLite and then refused by the import of its export."""
    line = hildegard.refused(*command, code=2)
    assert line.endswith("name of 201 characters is too long (at most 200)")


def test_names_of_200_characters_go_through_an_export_and_its_import(
    hildegard: Spire, tmp_path: Path,
) -> None:
    hildegard.ok("checkpoint", "C" * 200)
    hildegard.ok("rewind", "start", "--as", "B" * 200)
    out = tmp_path / "long.jsonl"
    hildegard.ok("export", "-o", str(out))
    hildegard.ok("import", str(out), "--name", "copy")
    assert "C" * 200 in json.dumps(hildegard.json("checkpoints"))
    assert "B" * 200 in json.dumps(hildegard.json("branches"))


def test_a_branch_named_after_a_long_checkpoint_keeps_within_the_limit(
    hildegard: Spire, tmp_path: Path,
) -> None:
    """`rewind NAME` names its branch "from-NAME", cut to the journal's 200 characters (a
    second one keeps its number whole), so its export imports again."""
    hildegard.ok("checkpoint", "C" * 200)
    hildegard.ok("rewind", "C" * 200)
    hildegard.ok("switch", "main")
    hildegard.ok("rewind", "C" * 200)
    names = [b["name"] for b in hildegard.json("branches")]
    assert ("from-" + "C" * 195) in names and ("from-" + "C" * 193 + "-2") in names
    out = tmp_path / "long.jsonl"
    hildegard.ok("export", "-o", str(out))
    hildegard.ok("import", str(out), "--name", "copy")


@pytest.mark.parametrize("url", ["sqlite:///", "sqlite://", "sqlite:///:memory:",
                                 "sqlite+pysqlite:///"])
def test_a_journal_in_memory_is_refused(spire: Spire, url: str) -> None:
    """A journal in memory is gone when the command ends: `new` once said it started a
    campaign that nothing kept."""
    line = spire.refused("--db", url, "new", "x", "--game", "hildegard", code=2)
    assert line == f"spire: {url!r} names no file (a journal in memory keeps nothing)"


def test_an_empty_db_is_refused_not_taken_for_the_default_journal(
    hildegard: Spire, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`spire --db "$JOURNAL" new ...` with the variable unset once started a campaign in
    the default journal, which the script never named."""
    data = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    hildegard.ok("--db", str(hildegard.db), "use", "gray-oaks")
    for empty, command in (("", ("note", "the gate")), ("  ", ("new", "x", "--game", "volume2"))):
        line = hildegard.refused("--db", empty, *command, code=2)
        assert line == ("spire: --db is empty: name a journal file, or leave --db out for the "
                        "default")
    assert not data.exists()


@pytest.mark.parametrize("command", [["note", "the gate"], ["export"], ["play"]])
def test_a_reader_that_stops_reading_leaves_the_command_done(
    hildegard: Spire, command: list[str],
) -> None:
    """`spire note ... | true`, `spire export | head`: the reader closes the pipe before
    spire writes. What the command did stands and it ends as done, quietly, where it once
    ended as 1 (a refusal, for a note that was recorded); the play shell runs every line."""
    lines = "note one\nnote two\n" if command == ["play"] else ""
    process = subprocess.Popen(
        [sys.executable, "-m", "journal", "--db", str(hildegard.db), *command],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert process.stdout is not None and process.stdin is not None
    process.stdout.close()  # before spire, still starting, writes a thing
    _, err = process.communicate(lines.encode())
    assert (process.returncode, err.decode()) == (0, "")
    log = hildegard.ok("log")
    if command == ["play"]:
        assert "Note: one" in log and "Note: two" in log
    elif command[0] == "note":
        assert "Note: the gate" in log
