"""Export a branch as JSON Lines and import it: every hash checked, nothing half-written."""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import Spire
from freezegun import freeze_time

from journal.core import chain
from journal.core.chain import RawEvent

BACKENDS = ("sqlite", "postgresql")  # export and import, on a file and on a server

SESSION = [
    ["new", "gray-oaks", "--game", "hildegard", "--players", "2"],
    ["reveal", "1"],
    ["item", "gain", "Slingshot", "--to", "Hildegard"],
    ["pull", "377"],
    ["return"],
    ["gain", "gold", "3"],
    ["gain", "feats", "2"],
    ["feat", "hone", "--force"],
    ["item", "gain", "Fishing Rod", "--kind", "fishing", "--to", "Hallveig"],
    ["item", "pass", "Slingshot", "--to", "Hallveig"],
    ["note", "The jackalope got away"],
    ["gain", "gold", "5"],
    ["undo"],
    ["chapter", "2"],
    ["reveal", "26"],
    ["spend", "gold", "9", "--force"],
]


@pytest.fixture
def played(spire: Spire) -> Spire:
    with freeze_time("2026-11-30 19:30:00"):
        for command in SESSION:
            spire.ok(*command)
    return spire


def test_round_trip_keeps_the_status(
    played: Spire, tmp_path: Path, new_journal: Callable[[str], Spire],
) -> None:
    exported = tmp_path / "gray-oaks.jsonl"
    played.ok("export", "-o", str(exported))
    before = played.json("status")
    elsewhere = new_journal("elsewhere")
    out = elsewhere.ok("import", str(exported))
    assert "Imported 16 events into 'gray-oaks'" in out
    assert elsewhere.json("status") == before
    assert elsewhere.json("log", "--last", "0") == played.json("log", "--last", "0")
    assert before["resources"] == {"feats": 1, "gold": -6}
    assert [(i["name"], i["holder"]) for i in before["items"]] == [
        ("Slingshot", "Hallveig"), ("Fishing Rod", "Hallveig")]


def test_export_to_a_file_says_what_it_wrote_as_report_does(
    played: Spire, tmp_path: Path,
) -> None:
    """`report -o` says "Wrote the html report to FILE (N bytes)"; `export -o` says the
    same of its file (it said nothing), and writes nothing else on stdout."""
    exported = tmp_path / "gray-oaks.jsonl"
    said = played.ok("export", "-o", str(exported))
    size = exported.stat().st_size
    assert said == f"Wrote the JSON Lines export to {exported} ({size:,} bytes)\n"
    assert exported.read_text(encoding="utf-8") == played.ok("export")
    assert played.ok("report", "-o", str(tmp_path / "r.md")).startswith("Wrote the md report to ")


def test_export_is_one_event_a_line_with_hashes(played: Spire) -> None:
    *lines, closing = played.ok("export").splitlines()
    assert len(lines) == 16 + 2  # and the checkpoints, start and chapter-2
    events = [json.loads(line) for line in lines[:16]]
    assert [json.loads(line)["checkpoint"] for line in lines[16:]] == ["start", "chapter-2"]
    marks = [[m["checkpoint"], m["position"], m["at"]] for m in map(json.loads, lines[16:])]
    assert json.loads(closing) == {"closing": {"branches": [
        {"name": "main", "events": 16, "head": 16, "hash": events[-1]["hash"],
         "checkpoints": marks}]}}
    assert [e["seq"] for e in events] == list(range(1, 17))
    assert all(e["prev_hash"] == p["hash"] for p, e in pairwise(events))
    assert events[12]["type"] == "retracted" and events[12]["payload"] == {"positions": [12]}
    assert events[-1]["override"].startswith("you have 3 gold, not 9")


def _broken(played: Spire, tmp_path: Path, edit: str) -> Path:
    lines = played.ok("export").splitlines()
    if edit == "payload":
        lines[5] = lines[5].replace('"amount":3', '"amount":30')
    elif edit == "delete":
        del lines[7]
    elif edit == "json":
        lines[3] = lines[3][:-2]
    elif edit == "surrogate":  # valid JSON, but no Unicode text: a lone surrogate escape
        lines[4] = lines[4].replace('"payload":{', '"payload":{"x":"\\ud800",', 1)
    elif edit == "field":
        record = json.loads(lines[2])
        del record["hash"]
        lines[2] = json.dumps(record)
    elif edit == "payload-shape":  # a well-chained event whose payload is not valid
        last = max(i for i, line in enumerate(lines) if '"seq":' in line)
        record = json.loads(lines[last])
        record["payload"]["amount"] = -9
        fields = {k: record[k] for k in ("type", "v", "payload", "recorded_at", "player",
                                         "override", "prev_hash")}
        raw = RawEvent(position=record["seq"], hash="", **fields)
        record["hash"] = chain.link(record["prev_hash"], raw.encoded())
        lines[last] = json.dumps(record)
    path = tmp_path / f"{edit}.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize(("edit", "says"), [
    ("payload", "line 6: hash does not match"),
    ("delete", "line 8: event seq 9 where 8 was expected"),
    ("json", "line 4: not JSON"),
    ("surrogate", "line 5: not Unicode text"),
    ("field", "line 3: missing hash"),
    ("payload-shape", "line 16: invalid resource-spent payload: amount"),
])
def test_a_broken_file_is_refused_with_its_line(
    played: Spire, tmp_path: Path, edit: str, says: str, new_journal: Callable[[str], Spire],
) -> None:
    path = _broken(played, tmp_path, edit)
    elsewhere = new_journal("elsewhere")
    assert says in elsewhere.refused("import", str(path), code=2)
    assert elsewhere.journal_rows() == ((), (), ())
    assert says in played.refused("import", str(path), "--name", "copy", code=2)


def test_import_refuses_a_taken_name_and_an_empty_file(played: Spire, tmp_path: Path) -> None:
    exported = tmp_path / "gray-oaks.jsonl"
    played.ok("export", "-o", str(exported))
    assert "already exists" in played.refused("import", str(exported), code=2)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    assert "holds no events" in played.refused("import", str(empty), "--name", "e", code=2)
    played.ok("import", str(exported), "--name", "copy")
    assert played.json("status")["campaign"] == "copy"


@pytest.mark.parametrize("line", [
    '{"a":1}\n', '  {"a": [1, 2]}\r\n', '{"a":1} x', '{"a":1}\u00a0', '{"a":', '', '"x"  ',
])
def test_a_line_reads_as_json_loads_reads_it(line: str) -> None:
    from journal.service.transfer import _loads

    try:
        expected: object = json.loads(line)
    except json.JSONDecodeError as e:
        with pytest.raises(json.JSONDecodeError) as raised:
            _loads(line)
        assert str(raised.value) == str(e)
    else:
        assert _loads(line) == expected


def test_an_import_counts_the_events_of_every_branch(
    played: Spire, tmp_path: Path, new_journal: Callable[[str], Spire],
) -> None:
    played.ok("rewind", "5", "--as", "bolder")
    played.ok("note", "a bolder road")
    played.ok("note", "and a second thought")
    exported = tmp_path / "gray-oaks.jsonl"
    played.ok("export", "-o", str(exported))
    out = new_journal("elsewhere").ok("import", str(exported))
    assert "Imported 18 events on 2 branches into 'gray-oaks'" in out  # 16, and 2 past #5
