"""The play report: Markdown against a golden file, JSON against its schema, HTML parsed,
checked for escaping and for being self-contained, and opened in headless Chromium."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import Spire
from freezegun import freeze_time

from journal.core import events as ev
from journal.core.dice_stats import chi2_sf, luck, stats
from journal.core.state import Character, State
from journal.report.build import deaths
from journal.report.fold import Step

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).parent / "golden"
SCHEMA = json.loads((ROOT / "docs" / "report.schema.json").read_text(encoding="utf-8"))

NOTE = "<script>alert(1)</script> stays text"
ROD = "<b>Bamboo</b> Rod"

SESSION: tuple[tuple[str, ...], ...] = (
    ("new", "gray-oaks", "--game", "hildegard"),
    ("chapter", "1"),
    ("reveal", "1"),
    ("item", "gain", "Slingshot"),
    ("note", NOTE),
    # The rulebook's Target Card Playthrough: the Street Merchant.
    ("target", "Street Merchant"),
    ("roll", "c", "c", "r"),
    ("wild", "whoopsie", "--on", "3"),
    ("roll", "r", "d", "c"),
    ("wild", "bullseye"),
    ("reveal", "26"),
    ("gain", "gold", "2"),
    ("undo",),
    ("gain", "gold", "1"),
    ("pull", "12"),
    ("return",),
    ("item", "gain", ROD, "--kind", "fishing", "--wild", "gray"),
    ("checkpoint", "before-the-crows"),
    ("chapter", "2"),
    ("reveal", "120"),
    # The rulebook's Face-Off Scenario against the Crows, then a second round to win it.
    ("faceoff", "The Crows"),
    ("roll", "c", "c", "b", "b"),
    ("lock", "1", "2"),
    ("roll", "c", "c"),
    ("wild", "bullseye"),
    ("roll", "ring", "crescent", "blank"),
    ("lock", "1"),
    ("roll", "crescent"),
    ("gain", "feats", "6", "--force"),
    ("roll", "c", "c", "c", "c"),
    ("feat", "bullseye"),
    ("stop",),
    ("wild", "bullseye"),
    ("item", "pass", "Slingshot", "--to", "aside"),
    ("note", "The Crows flew off | 7 bullseyes, *none* left"),
)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Spire:
    """The session above, one minute apart from 2026-11-30 20:00 UTC; tests only read it."""
    spire = Spire(tmp_path_factory.mktemp("report") / "journal.sqlite")
    with freeze_time("2026-11-30 20:00:00") as clock:
        for command in SESSION:
            spire.ok(*command)
            clock.tick(timedelta(minutes=1))
    return spire


def report(spire: Spire, fmt: str, *more: str) -> str:
    return spire.ok("report", "--format", fmt, *more)


# -- Markdown ----------------------------------------------------------------------------

def test_the_markdown_report_matches_its_golden_file(played: Spire) -> None:
    out = report(played, "md")
    golden = GOLDEN / "report.md"
    if os.environ.get("SPIRE_UPDATE_GOLDEN"):
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8"), (
        "run with SPIRE_UPDATE_GOLDEN=1 to accept a change")


def test_the_markdown_report_escapes_what_the_players_typed(played: Spire) -> None:
    out = report(played, "md")
    assert r"\<script\>alert(1)\</script\> stays text" in out
    assert r"\<b\>Bamboo\</b\> Rod" in out
    assert r"The Crows flew off \| 7 bullseyes, \*none\* left" in out
    tables = [line for line in out.splitlines() if line.startswith("| ")]
    widths = {line.count(" | ") - line.count(r"\|") for line in tables if "Bamboo" in line}
    assert widths == {4}, "an escaped name must not add a column to the items table"


# -- JSON --------------------------------------------------------------------------------

def test_the_report_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def validate(data: Any) -> None:
    validator = jsonschema.Draft202012Validator(SCHEMA, format_checker=jsonschema.FormatChecker())
    validator.validate(data)


def test_the_json_report_follows_its_schema_and_tells_the_campaign(played: Spire) -> None:
    data = json.loads(report(played, "json"))
    validate(data)
    campaign = data["campaign"]
    assert (campaign["first_event_at"], campaign["last_event_at"]) == (
        "2026-11-30T20:00:00+00:00", f"2026-11-30T20:{len(SESSION) - 1:02d}:00+00:00")
    assert [(s["card"], s["how"]) for s in data["path"]] == [
        (1, "revealed"), (26, "revealed"), (12, "pulled"), (120, "revealed")]
    assert [(c["chapter"], c["cards"]) for c in data["chapters"]] == [(1, [1, 26, 12]), (2, [120])]
    assert [c["name"] for c in data["checkpoints"]] == [
        "start", "chapter-1", "before-the-crows", "chapter-2"]
    merchant, crows = data["encounters"]
    assert (merchant["set_bullseyes"], merchant["outcome"], merchant["next_card"]) == (
        [1, 2], "hit", 26)
    assert crows["rounds"] == [{"round": 1, "bullseyes": 3, "hits": 3, "under_way": False},
                               {"round": 2, "bullseyes": 4, "hits": 0, "under_way": False}]
    assert crows["unrolled_round"] is None
    assert (crows["outcome"], crows["hits"]) == ("won", 3)
    assert data["resources"]["gold"] == [{"seq": 1, "value": 0}, {"seq": 14, "value": 1}]
    assert [o["reason"].split(";")[0] for o in data["overrides"]] == ["feats at most 6"]
    assert data["undos"] == [{"seq": 13, "undid": [{"seq": 12, "says": "+2 gold"}]}]
    assert data["items"][0]["holders"] == ["Hildegard", None]
    assert data["notes"][0]["text"] == NOTE


def test_the_dice_statistics_count_every_shot_die_the_branch_kept(played: Spire) -> None:
    dice = json.loads(report(played, "json"))["dice"]
    shot = dice["kinds"][0]
    counts = {f["face"]: f["count"] for f in shot["faces"]}
    assert counts == {"crescent": 13, "ring": 3, "dot": 1, "blank": 3}
    assert [f["fair_share"] for f in shot["faces"]] == [0.5, 1 / 6, 1 / 6, 1 / 6]
    assert shot["chi_squared"] is None and "needs at least 30" in shot["summary"]
    assert dice["luck"]["dice"] == 16, "the Crows' own three dice are not the players' luck"
    assert dice["luck_line"].startswith("Luck: the players' 16 shot dice showed 14 bullseye")


# -- HTML --------------------------------------------------------------------------------

VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base", "wbr", "source"}


class Page(HTMLParser):
    """What a browser would build: elements (checked to nest), attributes, text, style."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str | None]] = []
        self.text: list[str] = []
        self.open: list[str] = []
        self.style = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes += attrs
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attributes += attrs

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1:]}>"
        self.open.pop()

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1] == "style":
            self.style += data
        self.text.append(data)


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    page.close()
    assert not page.open, f"elements left open: {page.open}"
    return page


def test_the_html_report_is_escaped_and_self_contained(played: Spire) -> None:
    page = parse(report(played, "html"))
    assert "script" not in page.tags and "b" not in page.tags
    assert NOTE in "".join(page.text) and ROD in "".join(page.text)
    fetching = {"src", "href", "srcset", "xlink:href", "action", "data"}
    assert not [a for a in page.attributes if a[0] in fetching]
    assert not {"link", "img", "iframe", "object", "embed", "script"} & set(page.tags)
    assert "url(" not in page.style and "@import" not in page.style
    assert "@media print" in page.style
    assert page.tags.count("svg") == 5, (
        "the roads, resources, a target's sets, a face-off's rounds, faces")


def test_a_campaign_name_with_markup_is_escaped_everywhere(spire: Spire) -> None:
    spire.ok("new", "<i>oaks</i> & <script>x</script>", "--game", "hildegard")
    spire.ok("gain", "gold", "1")
    page = parse(report(spire, "html"))
    assert "script" not in page.tags and "i" not in page.tags
    assert "<i>oaks</i> & <script>x</script>: play report" in page.text


# -- HTML in a real browser --------------------------------------------------------------

MEASURE = """<pre id="svg-sizes"></pre><script>
document.getElementById("svg-sizes").textContent = JSON.stringify(
  Array.from(document.querySelectorAll("svg")).map(function (svg) {
    var box = svg.getBoundingClientRect(), drawn = svg.getBBox();
    return [box.width, box.height, drawn.width, drawn.height];
  }));
</script>
"""
"""Appended to a copy of the report only: the report itself holds no script."""

BROWSER_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
)


def chromium() -> str:
    """The browser; without it the test is skipped, except in CI, where .ci/run installs it."""
    found = shutil.which("chromium")
    if found is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("chromium is missing in CI: .ci/run should have installed it")
        pytest.skip("chromium is not installed (apt-get install chromium); CI runs this test")
    return found


def test_headless_chromium_draws_every_chart_with_a_size(played: Spire, tmp_path: Path) -> None:
    browser = chromium()
    page = tmp_path / "measured.html"
    html = report(played, "html")
    page.write_text(html.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    run = subprocess.run(
        [browser, *BROWSER_FLAGS, f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom",
         page.as_uri()], capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    found = re.search(r'<pre id="svg-sizes">(.*?)</pre>', run.stdout, flags=re.DOTALL)
    assert found and found.group(1), f"no sizes in the dumped page:\n{run.stdout[:2000]}"
    sizes = json.loads(found.group(1))
    assert len(sizes) == parse(html).tags.count("svg") == 5
    for width, height, drawn_width, drawn_height in sizes:
        assert width > 100 and height > 50, sizes
        assert drawn_width > 0 and drawn_height > 0, sizes


# -- the command -------------------------------------------------------------------------

def test_report_writes_a_file_and_follows_a_branch(played: Spire, tmp_path: Path) -> None:
    target = tmp_path / "gray-oaks.html"
    said = played.ok("report", "-o", str(target))
    assert said.startswith(f"Wrote the html report to {target} (") and said.count("\n") == 1
    assert target.read_text(encoding="utf-8") == report(played, "html")
    assert [p.name for p in tmp_path.iterdir()] == ["gray-oaks.html"], "no temporary file left"
    spire = Spire(tmp_path / "copy.sqlite")
    with sqlite3.connect(played.db) as source, sqlite3.connect(spire.db) as copy:
        source.backup(copy)
    spire.ok("rewind", "before-the-crows", "--as", "quiet")
    spire.ok("reveal", "27")
    data = json.loads(report(spire, "json", "--branch", "quiet"))
    validate(data)
    assert [s["card"] for s in data["path"]] == [1, 26, 12, 27]
    assert (data["campaign"]["parent"], data["campaign"]["fork"]) == ("main", 17)
    assert [e["kind"] for e in data["encounters"]] == ["target"]
    assert "120" not in report(spire, "md", "--branch", "quiet").split("## Timeline")[1]


def test_the_template_is_compiled_once_and_kept_where_the_user_caches(
        played: Spire, tmp_path: Path) -> None:
    """`spire report` keeps its compiled template in the user's cache directory (here
    XDG_CACHE_HOME), reads it back the next time, and writes the same report; where that
    directory cannot be made the report is written all the same."""
    def run(cache: Path, out: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "journal", "--db", str(played.db), "report", "-o", str(out)],
            capture_output=True, text=True, check=False,
            env={**os.environ, "XDG_CACHE_HOME": str(cache)})

    cache = tmp_path / "cache"
    first, again = run(cache, tmp_path / "first.html"), run(cache, tmp_path / "again.html")
    assert first.returncode == again.returncode == 0, first.stderr + again.stderr
    kept = list((cache / "spire" / "templates").iterdir())
    assert len(kept) == 1 and kept[0].stat().st_size > 0, kept
    assert (tmp_path / "again.html").read_text() == (tmp_path / "first.html").read_text()
    assert (tmp_path / "first.html").read_text() == report(played, "html")
    kept[0].write_bytes(b"not a compiled template")  # damaged: compiled afresh
    assert run(cache, tmp_path / "mended.html").returncode == 0
    assert (tmp_path / "mended.html").read_text() == report(played, "html")
    blocked = tmp_path / "a-file"  # no directory can be made under a file
    blocked.write_text("")
    done = run(blocked, tmp_path / "uncached.html")
    assert done.returncode == 0 and not done.stderr, done.stderr
    assert (tmp_path / "uncached.html").read_text() == report(played, "html")


def test_report_refuses_a_bad_format_or_a_file_it_cannot_write(
        played: Spire, tmp_path: Path) -> None:
    line = played.refused("report", "--format", "pdf", code=2)
    assert line == "spire: unknown format 'pdf': spire writes md, html, json"
    line = played.refused("report", "-o", str(tmp_path / "r.pdf"), code=2)
    assert "--format md|html|json" in line
    assert not (tmp_path / "r.pdf").exists()
    missing = tmp_path / "no" / "such" / "dir" / "r.md"
    assert "cannot write" in played.refused("report", "--format", "md", "-o", str(missing),
                                            code=2)


@pytest.mark.parametrize("game", ["spires-end", "volume2"])
def test_a_game_without_encounters_yet_reports_in_every_format(spire: Spire, game: str) -> None:
    spire.ok("new", "far-road", "--game", game)
    spire.ok("reveal", "3")
    spire.ok("note", "a quiet start")
    validate(json.loads(report(spire, "json")))
    parse(report(spire, "html"))
    out = report(spire, "md")
    dice = "### Hive die" if game == "volume2" else "### D8"
    assert "No encounters." in out and dice in out


# -- the statistics ----------------------------------------------------------------------

@pytest.mark.parametrize(("x", "dof", "p"), [
    (3.841, 1, 0.05), (5.991, 2, 0.05), (7.815, 3, 0.05), (11.345, 3, 0.01),
    (9.488, 4, 0.05), (11.070, 5, 0.05), (2.366, 3, 0.5), (0.0, 3, 1.0),
])
def test_chi_squared_tail_probabilities_match_the_tables(x: float, dof: int, p: float) -> None:
    assert chi2_sf(x, dof) == pytest.approx(p, abs=5e-4)


SHOT = ("crescent", "crescent", "crescent", "ring", "dot", "blank")


def test_the_chi_squared_test_waits_for_thirty_shot_dice() -> None:
    too_few = stats("shot die", ["crescent"] * 29, SHOT)
    assert (too_few.needed, too_few.chi_squared) == (30, None)
    fair = stats("shot die", ["crescent"] * 15 + ["ring", "dot", "blank"] * 5, SHOT)
    assert fair.chi_squared == 0 and fair.p_value == pytest.approx(1.0)
    loaded = stats("shot die", ["blank"] * 30, SHOT)
    assert loaded.p_value is not None and loaded.p_value < 1e-6


@pytest.mark.parametrize(("faces", "count", "z", "verdict"), [
    ([], 0, None, "no dice rolled yet"),
    (["crescent"] * 6, 6, 1 / math.sqrt(5 / 6), "a little luckier than expected"),
    (["crescent"] * 5 + ["blank"], 5, 0.0, "about as expected"),
    (["blank"] * 12, 0, -10 / math.sqrt(10 / 6), "much unluckier than expected"),
])
def test_luck_counts_bullseye_parts_against_a_fair_die(
        faces: list[str], count: int, z: float | None, verdict: str) -> None:
    found = luck(faces, ("crescent", "ring", "dot"), SHOT)
    assert (found.count, found.verdict) == (count, verdict)
    assert found.z == (None if z is None else pytest.approx(z))


def test_a_character_whose_hp_reaches_0_is_a_death() -> None:
    at = datetime(2026, 11, 30, tzinfo=UTC)
    alive = State(game="spires-end", characters=(Character("Millicent", 3, 8),))
    fallen = replace(alive, characters=(Character("Millicent", 0, 8),))
    recorded = [ev.Recorded(p, ev.NoteAdded(text="x"), at) for p in (1, 2, 3)]
    steps = [Step(recorded[0], State(), alive), Step(recorded[1], alive, fallen),
             Step(recorded[2], fallen, fallen)]
    assert [(d.name, d.position) for d in deaths(steps)] == [("Millicent", 2)]


def test_a_target_shows_the_chance_it_had_at_its_start(hildegard: Spire) -> None:
    """Issue 20: the report shows, for each target, the chance `spire odds` gave at its
    start."""
    hildegard.ok("target", "Street Merchant")
    at_start = hildegard.json("odds")["hit"]["value"]
    hildegard.ok("roll", "c", "c", "r")
    [target] = json.loads(report(hildegard, "json"))["encounters"]
    assert target["chance_at_start"] == pytest.approx(at_start)
    assert f"- Chance: {at_start:.1%} to hit at its start" in report(hildegard, "md")


def test_the_report_draws_the_roads_taken(hildegard: Spire) -> None:
    """Issue 20: the report shows the map of every road taken, over the cards seen only."""
    hildegard.ok("reveal", "1")
    hildegard.ok("checkpoint", "gate")
    hildegard.ok("reveal", "26")
    hildegard.ok("rewind", "gate")
    hildegard.ok("reveal", "40")
    data = json.loads(report(hildegard, "json"))
    assert sorted(c["card"] for c in data["map"]["cards"]) == [1, 26, 40]
    assert "2 roads in 1 campaign of this game reached 3 story cards" in report(hildegard, "md")
    page = report(hildegard, "html")
    assert "<h2>The roads taken</h2>" in page
    assert ">27<" not in page and ">39<" not in page, "no unseen card is named"


def test_a_long_line_is_drawn_a_column_at_a_time_reaching_every_value_it_reached() -> None:
    """Resources over time, a long campaign's: thousands of changes on a chart 420 units
    wide. Each column keeps the line's lowest, highest and last value there, so the chart
    the eye sees is the same, in a few hundred steps rather than 25,000."""
    from journal.report import svg

    last = 100_000
    points = [(1, 0)] + [(at, (at * 7919) % 13 - 4) for at in range(4, last, 4)]
    kept = svg.decimated(points, last)
    assert len(kept) <= 3 * svg.COLUMNS + 1 < len(points) // 8
    assert kept[0] == points[0] and kept[-1] == points[-1]

    def columns(line: list[tuple[int, int]]) -> dict[int, tuple[int, int, int]]:
        found: dict[int, list[int]] = {}
        for at, value in line[1:]:
            found.setdefault(int((at - 1) * svg.COLUMNS / (last - 1)), []).append(value)
        return {c: (min(vs), max(vs), vs[-1]) for c, vs in found.items()}

    assert columns(kept) == columns(points)
    # A short line is drawn point by point, as before.
    assert svg.decimated(points[:500], last) == points[:500]
    drawn = svg.steps("Resources over time", [("gold", points)], last)
    assert drawn.count(" V ") == len(kept) - 1


def test_a_set_under_way_is_told_as_status_tells_it(hildegard: Spire) -> None:
    """A target's set is tallied when it ends: until then the report says what the set
    being rolled has made, as `status` does ("1 bullseye this set so far"), not only
    "0 of 2 bullseyes"."""
    hildegard.ok("target", "Street Merchant")
    hildegard.ok("roll", "c", "c", "r")
    assert "(1 bullseye this set so far)" in hildegard.ok("status")
    md = report(hildegard, "md")
    assert ("Street Merchant: under way, 0 of 2 bullseyes after 0 of 2 sets, and 1 bullseye "
            "in the set being rolled.") in md
    assert "- Outcome: under way, 0 of 2 bullseyes, and 1 bullseye in the set being rolled" in md
    [target] = json.loads(report(hildegard, "json"))["encounters"]
    assert target["set_under_way"] == 1
    assert "1 set done" in hildegard.ok("wild", "miss")  # the set ends: tallied
    [target] = json.loads(report(hildegard, "json"))["encounters"]
    assert target["set_under_way"] is None and target["set_bullseyes"] == [1]
    assert "being rolled" not in report(hildegard, "md")
