"""The shape that keeps `spire report` flat as a campaign grows (issues 16 and 17), checked
by counting, never by timing: the report reads its branch once, as a stream (never the
list of its events), folds each event that counts once, holds at most a state or two at
a time, and a long campaign's Markdown and HTML keep only what they show, its JSON spools
what grows; each way of keeping writes the same documents. (The benchmark,
tests/bench/bench.py, measures the time and the memory.)"""

from __future__ import annotations

import importlib
import json
import sys
import weakref
from pathlib import Path
from typing import Any

import pytest
from conftest import Spire

from journal import report as report_
from journal.report import KEEPS, gather, render
from journal.service.journal import Journal
from journal.service.reading import Reading
from journal.store import Log

sys.path.insert(0, str(Path(__file__).parent / "bench"))
from journal_gen import build as build_journal
from journal_gen import payloads

build = importlib.import_module("journal.report.build")  # the module, not its function
EVENTS = 3000
UNDOS = sum(p["type"] == "retracted" for p in payloads(EVENTS, undo_every=20))


@pytest.fixture(scope="module")
def long_campaign(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """3,000 events of Hildegard with one undo in every 20 (the benchmark's campaign), a
    checkpoint near the head and a branch rewound to it, as players leave them."""
    db = tmp_path_factory.mktemp("stream") / "long.sqlite"
    build_journal(db, EVENTS, undo_every=20)
    spire = Spire(db)
    spire.ok("checkpoint", "before-the-gate")
    spire.ok("note", "the road to the gate")
    spire.ok("rewind", "before-the-gate", "--as", "other-road")
    spire.ok("note", "the other road")
    spire.ok("switch", "main")
    return db


class Watched:
    """Every state the report folds, counted as it is made and while it lives."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.folded = self.most = 0
        self.alive: set[int] = set()
        """The states alive, by id (a state is not hashable), each let go when it is freed."""
        handler = build.handler

        def counted(kind: type) -> Any:  # each kind's handler, each use of it counted
            apply = handler(kind)

            def applied(event: Any, state: Any) -> Any:
                self.folded += 1
                after = apply(event, state)
                if id(after) not in self.alive:
                    self.alive.add(id(after))
                    weakref.finalize(after, self.alive.discard, id(after))
                self.most = max(self.most, len(self.alive))
                return after

            return applied

        monkeypatch.setattr(build, "handler", counted)

        read = Log.read

        def short(*args: Any, **kwargs: Any) -> Any:
            found = read(*args, **kwargs)  # a state's tail past its snapshot, not the branch
            assert len(found) < 100, "the report read its branch as a list"
            return found

        monkeypatch.setattr(Log, "read", short)


@pytest.mark.parametrize("fmt", ["md", "html", "json"])
def test_the_report_folds_each_event_once_and_holds_a_state_or_two_at_a_time(
    long_campaign: Path, monkeypatch: pytest.MonkeyPatch, fmt: str,
) -> None:
    watched = Watched(monkeypatch)
    found = gather(Reading(str(long_campaign)), keep=KEEPS[fmt])
    # The note written at the gate counts; the slips undone and the undos themselves not.
    counted = EVENTS + 1 - 2 * UNDOS
    assert watched.folded == counted, (watched.folded, counted)
    assert watched.most <= 2, f"{watched.most} states held at once"
    assert len(watched.alive) == 0
    assert render(found, fmt)


def test_a_long_campaign_keeps_what_it_shows_or_spools_what_grows(long_campaign: Path) -> None:
    journal = Journal(str(long_campaign))
    shown = gather(journal.read, keep="shown")
    assert shown.shown is not None and shown.spooled is None
    assert len(shown.encounters) <= 40 and len(shown.timeline) <= 400 + 2  # + 2 checkpoints
    assert len(shown.path) <= 200 and shown.notes == ()
    assert shown.shown.encounters.total >= 300 and shown.shown.timeline.left_out > 900
    # A table of every undo is no one's reading: the latest 100, the earlier ones counted.
    assert UNDOS > 100 and len(shown.undos) == 100 and shown.shown.undos == UNDOS - 100
    assert shown.undos[-1].position > shown.undos[0].position
    said = f"The latest 100 undos; {UNDOS - 100} earlier ones are left out here"
    assert said in render(shown, "md") and said in render(shown, "html")
    spooled = gather(journal.read, keep="spooled")
    assert spooled.encounters == spooled.timeline == spooled.path == spooled.notes == ()
    assert spooled.undos == () and len(spooled.spooled.undos) == UNDOS
    assert len(spooled.spooled.encounters) == shown.shown.encounters.total


@pytest.mark.parametrize("branch", ["main", "other-road"])
def test_every_way_of_keeping_writes_the_same_documents(long_campaign: Path, branch: str) -> None:
    """The whole report held in memory, as before the report streamed, against the ways
    the command keeps it: the same Markdown, HTML and JSON, byte for byte."""
    journal = Journal(str(long_campaign))
    whole = gather(journal.read, branch, keep="whole")
    for fmt in ("md", "html", "json"):
        assert render(gather(journal.read, branch, keep=KEEPS[fmt]), fmt) == render(whole, fmt), fmt
    data = json.loads(render(whole, "json"))
    assert len(data["undos"]) == UNDOS and len(data["encounters"]) >= 300
    with pytest.raises(ValueError, match="keeps everything"):
        render(gather(journal.read, branch, keep="shown"), "json")


def test_the_command_writes_the_json_report_in_pieces(
    long_campaign: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`spire report -o` writes the JSON as it reads it back, not as one string."""
    written: list[int] = []
    real = report_.as_json.pieces

    def pieces(found: Any, size: int = 1 << 12) -> Any:
        for piece in real(found, size):
            written.append(len(piece))
            yield piece

    monkeypatch.setattr(report_.as_json, "pieces", pieces)
    out = tmp_path / "long.json"
    said = Spire(long_campaign).ok("report", "-o", str(out))
    size = out.stat().st_size
    # The short sections (the map) are written whole, what grows a piece at a time.
    assert len(written) > 100 and max(written) < size / 4, (len(written), max(written), size)
    assert f"({size:,} bytes)" in said
    assert json.loads(out.read_text())["report_version"] == 1


def test_the_report_and_its_map_fold_no_branch_to_know_where_it_stands(
    long_campaign: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The report and its map of roads need each branch's events and its parent, never the
    card it stands at: no branch's state is folded for them (the branch rewound near the
    head has no snapshot, so knowing its card took a replay of it)."""
    folded: list[object] = []
    stream = Log.stream

    def watched(self: Log, *args: Any, **kwargs: Any) -> Any:
        folded.append(args[0])
        return stream(self, *args, **kwargs)

    monkeypatch.setattr(Log, "stream", watched)
    found = gather(Reading(str(long_campaign)), "other-road", keep="shown")
    assert found.story_map is not None and len(found.story_map.roads) == 2
    assert folded == []
