"""The play report of `spire demo` as a reader sees it (issue 34, item 12), through the real
CLI and in headless Chromium 1280 and 400 px wide: the roads taken drawn as tall as their
highest arc and counted in words ("1 road"), a face-off round no die was rolled in left out
of the table and the chart, the dice table telling the players' dice from the enemies' as
the luck line does, and the report file made as the umask says."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import stat
import subprocess
from collections.abc import Iterator
from html import escape
from pathlib import Path
from typing import Any

import pytest
from conftest import Spire
from test_report import BROWSER_FLAGS, chromium, validate

from journal.paths import write_whole

PROBE = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="wide" width="1280" height="900" style="border:0;display:block" srcdoc="REPORT"></iframe>
<iframe id="phone" width="400" height="900" style="border:0;display:block" srcdoc="REPORT"></iframe>
<pre id="probe"></pre><script>
function read(frame) {
  var w = document.getElementById(frame).contentWindow, d = w.document;
  var svgs = Array.from(d.querySelectorAll("svg")).map(function (svg) {
    var box = svg.getBoundingClientRect(), drawn = svg.getBBox();
    var paths = Array.from(svg.querySelectorAll("path")).map(function (p) {
      return p.getBBox().y; });
    return {label: svg.getAttribute("aria-label"), px: [box.width, box.height],
            units: [svg.viewBox.baseVal.width, svg.viewBox.baseVal.height],
            drawn: [drawn.x, drawn.y, drawn.width, drawn.height],
            arc_top: paths.length ? Math.min.apply(null, paths) : null,
            ticks: Array.from(svg.querySelectorAll("text.tick")).map(function (t) {
              return t.textContent; })};
  });
  var tables = Array.from(d.querySelectorAll("table")).map(function (t) {
    return Array.from(t.rows).map(function (r) {
      return Array.from(r.cells).map(function (c) { return c.innerText; }); });
  });
  var cut = Array.from(d.querySelectorAll("table")).filter(function (t) {
    return t.scrollWidth > t.clientWidth; }).map(function (t) { return t.rows[0].innerText; });
  return {svgs: svgs, tables: tables, cut: cut, text: d.body.innerText,
          wide: d.documentElement.scrollWidth, inner: w.innerWidth};
}
window.onload = function () {
  document.getElementById("probe").textContent = JSON.stringify(
    {1280: read("wide"), 400: read("phone")});
};
</script></body></html>
"""
"""The report in two frames, 1280 and 400 px wide, read from outside: it holds no script."""


def in_chromium(html: str, tmp_path: Path) -> dict[str, Any]:
    """What headless Chromium draws of `html`, at each width."""
    browser = chromium()
    page = tmp_path / "probed.html"
    page.write_text(PROBE.replace("REPORT", escape(html, quote=True)), encoding="utf-8")
    run = subprocess.run(
        [browser, *BROWSER_FLAGS, "--window-size=1400,1900",
         f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    found = re.search(r'<pre id="probe">(.*?)</pre>', run.stdout, flags=re.DOTALL)
    assert found and found.group(1), run.stdout[:2000]
    probe: dict[str, Any] = json.loads(found.group(1))
    return probe


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Spire:
    """`spire demo`: a target hit, then the Crows' face-off under way in round 2, no die
    rolled in it yet (Hildegard's roll next); one road."""
    spire = Spire(tmp_path_factory.mktemp("demo") / "journal.sqlite")
    spire.ok("demo")
    return spire


@pytest.fixture(scope="module")
def roads(tmp_path_factory: pytest.TempPathFactory) -> Spire:
    """The demo, then two more roads from its start, each to a card of its own."""
    spire = Spire(tmp_path_factory.mktemp("roads") / "journal.sqlite")
    spire.ok("demo")
    for name, card in (("second", "5"), ("third", "9")):
        spire.ok("rewind", "start", "--as", name)
        spire.ok("reveal", card)
    spire.ok("switch", "main")
    return spire


def roads_svg(html: str) -> str:
    found = re.search(r'<svg [^>]*aria-label="The roads taken.*?</svg>', html, flags=re.S)
    assert found, "no roads chart"
    return found.group(0)


def arc_tops(svg: str) -> list[float]:
    """Each arc's highest point: a quadratic from (x1, b) to (x2, b) through the control
    point (cx, cy) peaks halfway, at (b + cy) / 2."""
    return [(float(b) + float(cy)) / 2 for b, cy in
            re.findall(r'd="M [\d.]+ ([\d.]+) Q [\d.]+ ([\d.-]+) [\d.]+ [\d.]+"', svg)]


# -- the roads taken ---------------------------------------------------------------------

@pytest.mark.parametrize(("journal", "count"), [("demo", 1), ("roads", 3)])
def test_the_roads_chart_is_as_tall_as_its_highest_arc(
        journal: str, count: int, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    spire: Spire = request.getfixturevalue(journal)
    html = spire.ok("report", "-f", "html")
    svg = roads_svg(html)
    height = float(re.search(r'height="([\d.]+)"', svg).group(1))  # type: ignore[union-attr]
    labels = [float(y) for y in re.findall(r'<text x="[\d.]+" y="([\d.]+)" text-anchor', svg)]
    tops = arc_tops(svg)
    assert tops and labels, svg
    assert 4 <= min(tops) <= 16, f"the highest arc at {min(tops)} of {height}: room above it"
    assert height - max(labels) <= 12, "no room below the card numbers either"
    pages = in_chromium(html, tmp_path)
    assert sorted(pages) == ["1280", "400"]
    for width, page in pages.items():
        [drawn] = [s for s in page["svgs"] if s["label"].startswith("The roads taken")]
        x, y, w, h = drawn["drawn"]
        assert drawn["arc_top"] == pytest.approx(y, abs=2), "the arcs are its highest part"
        assert y <= 16 and drawn["units"][1] - (y + h) <= 12, drawn
        assert h / drawn["units"][1] >= 0.7, f"{width} px: mostly empty {drawn}"
        assert drawn["px"][1] <= 140, f"{width} px: {drawn['px']} for {count} roads"


def test_the_roads_are_counted_in_words_and_told_for_what_they_are(
        demo: Spire, roads: Spire) -> None:
    one, three = demo.ok("report", "-f", "html"), roads.ok("report", "-f", "html")
    assert 'aria-label="The roads taken: 1 road, 4 cards seen"' in one
    assert "1 roads" not in one and "drawn bold" not in one
    assert "One road so far, this branch's" in one
    assert 'aria-label="The roads taken: 3 roads, 6 cards seen"' in three
    assert "this branch's road is drawn bold and blue, the others thin and grey" in three


def test_a_wide_map_scrolls_on_a_phone_rather_than_shrink_its_numbers(
        spire: Spire, tmp_path: Path) -> None:
    """Fourteen cards seen: 568 units wide, more than a 400 px phone's column."""
    spire.ok("new", "far-road", "--game", "hildegard")
    for card in range(1, 15):
        spire.ok("reveal", str(card))
    html = spire.ok("report", "-f", "html")
    assert 'width="568"' in roads_svg(html)
    for width, page in in_chromium(html, tmp_path).items():
        [drawn] = [s for s in page["svgs"] if s["label"].startswith("The roads taken")]
        assert drawn["px"][0] == drawn["units"][0] == 568, f"{width} px: {drawn}"
        assert page["wide"] <= page["inner"], f"{width} px: the page scrolls sideways"


# -- a face-off round not yet rolled ------------------------------------------------------

def test_a_face_off_round_no_die_was_rolled_in_is_not_drawn_as_nought(
        demo: Spire, tmp_path: Path) -> None:
    data = json.loads(demo.ok("report", "-f", "json"))
    validate(data)
    crows = data["encounters"][1]
    assert crows["rounds"] == [{"round": 1, "bullseyes": 3, "hits": 3, "under_way": False}]
    assert crows["unrolled_round"] == 2
    md = demo.ok("report")
    assert "| 2 | 0 | 0 |" not in md
    assert "- Outcome: under way; round 2 not yet rolled" in md
    for width, page in in_chromium(demo.ok("report", "-f", "html"), tmp_path).items():
        [chart] = [s for s in page["svgs"] if s["label"].startswith("Face-off with")]
        rounds = [t for t in chart["ticks"] if not t.isdigit()]  # the y axis aside
        assert rounds == ["round 1"], f"{width} px: {chart['ticks']}"
        assert [["round", "bullseyes", "hits"], ["1", "3", "3"]] in page["tables"], width
        assert "Outcome: under way; round 2 not yet rolled" in page["text"]


def test_a_round_rolled_in_but_not_over_is_marked_under_way(
        demo: Spire, tmp_path: Path) -> None:
    spire = Spire(tmp_path / "copy.sqlite")
    with sqlite3.connect(demo.db) as source, sqlite3.connect(spire.db) as copy:
        source.backup(copy)
    spire.ok("roll", "c", "c", "b", "b")
    data = json.loads(spire.ok("report", "-f", "json"))
    validate(data)
    crows = data["encounters"][1]
    assert [(r["round"], r["under_way"]) for r in crows["rounds"]] == [(1, False), (2, True)]
    assert crows["unrolled_round"] is None
    md = spire.ok("report")
    assert re.search(r"^\| 2 \(under way\) \| \d+ \| 0 \|$", md, flags=re.M), md
    assert "round 2 (under way)" in spire.ok("report", "-f", "html")


# -- the dice: the players' and the enemies' ---------------------------------------------

def die_table(tables: list[list[list[str]]]) -> list[list[str]]:
    [found] = [t for t in tables if t[0][:4] == ["face", "players", "enemies", "in all"]]
    return found


def test_the_dice_table_tells_the_players_dice_from_the_enemies_as_the_luck_line_does(
        demo: Spire, tmp_path: Path) -> None:
    rolled = [line for line in demo.ok("log", "--last", "0").splitlines() if " rolled " in line]
    crows = sum(len(line.split(" rolled ")[1].split(", ")) for line in rolled
                if "The Crows rolled" in line)
    players = sum(len(line.split(" rolled ")[1].split(", ")) for line in rolled
                  if "Hildegard rolled" in line)
    assert (players, crows) == (12, 4), rolled
    data = json.loads(demo.ok("report", "-f", "json"))
    shot = data["dice"]["kinds"][0]
    assert sum(f["by"]["players"] for f in shot["faces"]) == data["dice"]["luck"]["dice"] == 12
    assert sum(f["by"]["enemies"] for f in shot["faces"]) == crows
    assert all(f["by"]["players"] + f["by"]["enemies"] == f["count"] for f in shot["faces"])
    assert "the players' 12 shot dice" in data["dice"]["luck_line"]
    md = demo.ok("report")
    assert "| total | 12 | 4 | 16 |" in md and "16 results" in md
    for width, page in in_chromium(demo.ok("report", "-f", "html"), tmp_path).items():
        table = die_table(page["tables"])
        assert table[-1][:4] == ["total", "12", "4", "16"], f"{width} px: {table}"
        assert "Luck: the players' 12 shot dice" in page["text"]
        assert page["wide"] <= page["inner"], f"{width} px: the page scrolls sideways"
        cut = [head for head in page["cut"] if head.startswith("face")]
        assert cut == [], f"{width} px: a dice table wider than the page: {page['cut']}"


# -- the file's mode ---------------------------------------------------------------------

@pytest.fixture
def umask() -> Iterator[None]:
    before = os.umask(0o022)
    yield
    os.umask(before)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.usefixtures("umask")
def test_the_report_and_the_export_are_made_as_the_umask_says(
        demo: Spire, tmp_path: Path) -> None:
    report, export = tmp_path / "r.html", tmp_path / "demo.jsonl"
    demo.ok("report", "-o", str(report))
    demo.ok("export", "-o", str(export))
    assert (mode(report), mode(export)) == (0o644, 0o644)
    os.umask(0o077)
    demo.ok("report", "-o", str(tmp_path / "private.md"))
    assert mode(tmp_path / "private.md") == 0o600
    report.chmod(0o640)  # a file written again keeps its mode
    demo.ok("report", "-o", str(report))
    assert mode(report) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.jsonl", "private.md", "r.html"]


@pytest.mark.usefixtures("umask")
def test_a_file_written_whole_keeps_its_mode_or_takes_the_umask(tmp_path: Path) -> None:
    fresh, kept = tmp_path / "fresh.txt", tmp_path / "kept.txt"
    kept.write_text("old")
    kept.chmod(0o604)
    write_whole(fresh, "new")
    write_whole(kept, ["new", "er"])
    assert (mode(fresh), mode(kept), kept.read_text()) == (0o644, 0o604, "newer")
