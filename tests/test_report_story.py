"""The report and the replay tell the story of a session (issue 16): a Spire's End fight
and a Hildegard chapter, each played through the CLI, reported in Markdown against golden
files, in JSON against the schema, in HTML opened in headless Chromium; and `spire
replay` of the fight showing the enemy's and both allies' numbers at each step."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from datetime import timedelta
from html import escape
from pathlib import Path
from typing import Any

import pytest
from conftest import Spire
from freezegun import freeze_time
from test_report import BROWSER_FLAGS, chromium, parse, validate
from test_spires_end_cli import ENCOUNTER

GOLDEN = Path(__file__).parent / "golden"

FIGHT_NOTE = "Millicent fell <3 | *the Ogre* laughed"


def _fight_session() -> list[str]:
    """The golden Spire's End encounter (tests/test_spires_end_cli.py), with the Ogre's
    card revealed by number, a checkpoint before it, and a note written as Millicent fell."""
    lines = ENCOUNTER.strip().splitlines()[:-1]  # its closing `status` shows nothing new
    out: list[str] = []
    for line in lines:
        if line.startswith("fight Ogre"):
            out += ["reveal 14", "checkpoint before-the-ogre", line + " --number 14"]
            continue
        out.append(line)
        if line == "enemy 1 7 --select 1":
            out.append(f"note {shlex.quote(FIGHT_NOTE)}")
    return out


CHAPTER = [
    "new badgers --game hildegard",
    "chapter 1",
    "reveal 1",
    ('card add "Hungry Badger" --target --number 14 --limit 2 --accuracy 3 --sets 2 '
     '--parts c,r,d --reward "1 gold" --hit 15 --miss 16'),
    "reveal 14",
    'target "Hungry Badger"',
    "roll c c b",
    "lock 1 2",
    "roll b",
    "wild miss",
    "note 'one bullseye: the badger is still hungry'",
    "roll r d b",
    "stop",
    "wild miss",
    "checkpoint fed-the-badger",
    "reveal 15",
    "gain feats 1",
    "chapter 2",
]
"""A Hildegard chapter: a card entered by name, a target of two sets that is hit with
one bullseye in each (a limit of 2), a note between the sets, a checkpoint, the next
chapter."""

SESSIONS = {"spires-end": _fight_session(), "hildegard": CHAPTER}


def play(spire: Spire, lines: list[str]) -> Spire:
    """Each line one minute apart from 2026-11-30 20:00 UTC."""
    with freeze_time("2026-11-30 20:00:00") as clock:
        for line in lines:
            spire.ok(*shlex.split(line))
            clock.tick(timedelta(minutes=1))
    return spire


@pytest.fixture(scope="module", params=sorted(SESSIONS))
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Spire:
    game: str = request.param
    return play(Spire(tmp_path_factory.mktemp(game) / "journal.sqlite"), SESSIONS[game])


@pytest.fixture(scope="module")
def fight(tmp_path_factory: pytest.TempPathFactory) -> Spire:
    return play(Spire(tmp_path_factory.mktemp("fight") / "journal.sqlite"), _fight_session())


def golden(name: str, out: str) -> None:
    path = GOLDEN / name
    if os.environ.get("SPIRE_UPDATE_GOLDEN"):
        path.write_text(out, encoding="utf-8")
    assert out == path.read_text(encoding="utf-8"), "run with SPIRE_UPDATE_GOLDEN=1 to accept"


def game_of(spire: Spire) -> str:
    data: dict[str, Any] = json.loads(spire.ok("report", "-f", "json"))
    return str(data["campaign"]["game"])


# -- Markdown ----------------------------------------------------------------------------

def test_the_markdown_report_matches_its_golden_file(played: Spire) -> None:
    golden(f"report-{game_of(played)}.md", played.ok("report", "--format", "md"))


def test_the_fight_is_told_step_by_step_with_every_number(fight: Spire) -> None:
    out = fight.ok("report")
    assert "Spire's End, 2 players; characters Millicent, Oswin, Wynn;" in out
    assert "### Fight: Ogre" in out and "No encounters." not in out
    rows = {line.split(" | ")[0]: line for line in out.splitlines() if line.startswith("| #")}
    assert "Ogre: HP 9→8, AP 2→0" in rows["| #7"], "Back Hand's 3 damage: through AP, then HP"
    assert "Millicent: HP 5→3, AP 2→0" in rows["| #12"]
    assert "+Bleed (2 turns left)" in rows["| #20"]
    assert "Millicent: HP 2→0, dead" in rows["| #27"]
    assert "Oswin: +Strength (3 turns left)" in rows["| #29"], "the death move"
    assert "Millicent: rest 0→1" in rows["| #15"]
    assert "Ogre: HP 2→0, defeated" in rows["| #38"]
    assert "| Dagger | combat | Millicent → Wynn | #4 |  |" in out, "passed on, not lost"
    assert "### D8" in out and "| 8 | 3 |" in out


def test_the_timeline_puts_each_note_where_it_was_written(fight: Spire) -> None:
    timeline = fight.ok("report").split("## Timeline")[1].split("## Encounters")[0]
    assert "**Path of cards:** 14 Ogre" in timeline
    entries = [line for line in timeline.splitlines() if line.startswith("- #")]
    assert entries == [
        "- #1 **Checkpoint start**",
        "- #5 Revealed card 14 Ogre",
        "- #5 **Checkpoint before-the-ogre**",
        "- #6 Fight with Ogre began",
        "- #27 Millicent fell",
        (r"- #28 note (2026-11-30 20:28 UTC): Millicent fell \<3 \| \*the Ogre\* laughed"),
        "- #38 Fight with Ogre: won in round 5",
    ]


def test_a_hildegard_report_has_no_deaths_and_names_the_card(tmp_path: Path) -> None:
    spire = play(Spire(tmp_path / "j.sqlite"), CHAPTER)
    out = spire.ok("report")
    assert "## Deaths" not in out and "HP reached 0" not in out
    assert "**Path of cards:** 1 → 14 Hungry Badger → 15" in out
    timeline = out.split("## Timeline")[1].split("## Encounters")[0]
    assert timeline.index("note") < timeline.index("Hungry Badger: hit with 2 bullseyes")
    assert timeline.index("Checkpoint fed-the-badger") < timeline.index("Revealed card 15")
    assert "**Chapter 2 began**" in timeline


# -- JSON --------------------------------------------------------------------------------

def test_the_json_report_follows_the_schema(played: Spire) -> None:
    data = json.loads(played.ok("report", "-f", "json"))
    validate(data)
    kinds = {m["kind"] for m in data["timeline"]}
    assert {"card", "checkpoint", "note", "encounter"} <= kinds
    assert [s["name"] for s in data["path"] if s["card"] == 14] in (["Ogre"], ["Hungry Badger"])


def test_the_json_fight_holds_each_beat_and_the_d8(fight: Spire) -> None:
    data = json.loads(fight.ok("report", "-f", "json"))
    (ogre,) = data["encounters"]
    assert (ogre["noun"], ogre["outcome"], ogre["headline"]) == (
        "Fight", "won", "Fight with Ogre: won in round 5")
    assert [(a["name"], a["fate"]) for a in ogre["allies"]] == [
        ("Millicent", "dead"), ("Oswin", "standing"), ("Wynn", "standing")]
    assert ogre["enemies"] == [{"name": "Ogre", "hp": 0, "hp_max": 9, "ap": 0, "ap_max": 2,
                                "fate": "defeated"}]
    assert [r["round"] for r in ogre["rounds"]] == [1, 2, 3, 4, 5]
    assert sum(r["dealt"] for r in ogre["rounds"]) == 9 + 2 + 1, "the recouped HP dealt again"
    assert ogre["beats"][0] == {
        "seq": 7, "round": 1, "says": "Millicent: action bar 1, rolled 8",
        "did": ["Millicent pays 1 HP for Back Hand",
                "Back Hand, roll 8: 3 damage to Ogre; kickback +1 HP to Millicent",
                "Ogre: HP 9->8, AP 2->0"]}
    (d8,) = data["dice"]["kinds"]
    assert (d8["die"], d8["total"]) == ("d8", 20)
    assert data["campaign"]["players"] == 2


# -- the replay --------------------------------------------------------------------------

def test_the_replay_of_the_fight_shows_every_number_it_changed(fight: Spire) -> None:
    out = fight.ok("replay")
    golden("replay-spires-end.txt", out)
    steps = {m.group(1): m.group(2) for m in re.finditer(r"(?m)^#(\d+) .*\n((?:    .*\n)*)", out)}
    assert "Ogre: HP 9->8, AP 2->0" in steps["7"], "the enemy's HP, through its armor"
    assert "Oswin: HP 4->2, +Regen (2 turns left)" in steps["10"], "Ally 2"
    assert "Millicent: HP 5->3, AP 2->0" in steps["12"], "Ally 1"
    assert "Oswin: HP 1->2, Regen 2->1" in steps["19"], "an upkeep's effect and its cube"
    assert "Wynn: HP 6/6, AP 1/1" in steps["30"], "the ally drawn in the dead one's place"
    assert "Fight with Ogre: won in round 5" in steps["38"]


# -- HTML in a real browser --------------------------------------------------------------

PROBE = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="phone" width="400" height="900" style="border:0" srcdoc="REPORT"></iframe>
<pre id="probe"></pre><script>
window.onload = function () {
  var w = document.getElementById("phone").contentWindow, d = w.document;
  var smallest = Infinity, texts = 0, overlaps = [];
  d.querySelectorAll("svg text").forEach(function (t) {
    if (!t.getBoundingClientRect().width) { return; }
    var size = parseFloat(w.getComputedStyle(t).fontSize) * t.getScreenCTM().a;
    texts += 1; smallest = Math.min(smallest, size);
  });
  d.querySelectorAll("svg").forEach(function (svg) {
    var others = Array.from(svg.querySelectorAll("text:not(.legend), rect, path"));
    svg.querySelectorAll("text.legend").forEach(function (a) {
      var p = a.getBoundingClientRect();
      others.forEach(function (b) {
        var q = b.getBoundingClientRect();
        if (p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom) {
          overlaps.push(a.textContent + " / " + (b.textContent || b.tagName));
        }
      });
    });
  });
  document.getElementById("probe").textContent = JSON.stringify({
    charts: d.querySelectorAll("svg").length, texts: texts, smallest: smallest,
    overlaps: overlaps, wide: d.documentElement.scrollWidth, inner: w.innerWidth,
    fetched: w.performance.getEntriesByType("resource").map(function (r) { return r.name; })});
};
</script></body></html>
"""
"""The report in a frame 400 px wide (headless Chromium's own window is at least 500),
measured from outside it: the report itself holds no script."""


def test_headless_chromium_at_400_px_finds_legible_charts(played: Spire, tmp_path: Path) -> None:
    browser = chromium()
    html = played.ok("report", "-f", "html")
    page = tmp_path / "probed.html"
    page.write_text(PROBE.replace("REPORT", escape(html, quote=True)), encoding="utf-8")
    run = subprocess.run(
        [browser, *BROWSER_FLAGS, "--window-size=600,1000", "--enable-logging=stderr",
         f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "CONSOLE" not in run.stderr and "Uncaught" not in run.stderr, run.stderr[-2000:]
    found = re.search(r'<pre id="probe">(.*?)</pre>', run.stdout, flags=re.DOTALL)
    assert found and found.group(1), run.stdout[:2000]
    probe = json.loads(found.group(1))
    assert probe["charts"] == parse(html).tags.count("svg") > 0
    assert probe["texts"] > 0 and probe["smallest"] >= 11, probe
    assert probe["overlaps"] == [], "a legend over a label"
    assert probe["fetched"] == [], "the report fetched something"
    assert probe["wide"] <= probe["inner"] == 400, probe


def test_a_volume2_encounter_is_told_step_by_step_too(spire: Spire) -> None:
    spire.ok("demo", "--game", "volume2")
    data = json.loads(spire.ok("report", "-f", "json"))
    validate(data)
    (fight,) = data["encounters"]
    assert (fight["noun"], fight["outcome"]) == ("Encounter", "won")
    did = [line for beat in fight["beats"] for line in beat["did"]]
    assert "2 damage to Wade Slocum (AP 2->0, HP 8->8)" in did
    assert {b["round"] for b in fight["beats"]} == {1, 2, 3}


# -- a long campaign ---------------------------------------------------------------------

def test_a_long_campaign_is_summarised_in_markdown_and_html(tmp_path: Path) -> None:
    """The benchmark's campaign, 4,000 events: the Street Merchant played 500 times."""
    import sys

    sys.path.insert(0, str(Path(__file__).parent / "bench"))
    from journal_gen import build

    spire = Spire(tmp_path / "long.sqlite")
    build(spire.db, 4_000)
    out = spire.ok("report")
    assert "501 encounters, a row for each card" in out
    assert "| target | Street Merchant | 500 | hit 500 |" in out
    assert out.count("### Target: ") <= 40
    assert "earlier cards, notes and encounters are left out here" in out
    assert len(out) < 100_000
    html = spire.ok("report", "-f", "html")
    assert len(html) < 300_000 and html.count('<div class="encounter">') <= 40
    data = json.loads(spire.ok("report", "-f", "json"))
    assert len(data["encounters"]) >= 500, "the JSON report keeps every encounter"
