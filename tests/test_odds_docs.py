"""docs/odds.md runs as shown: every `$ spire ...` line of its ```console blocks, in order,
on one fresh journal, with the time held still (the map shows when a card was first seen)."""

from __future__ import annotations

from pathlib import Path

from conftest import Spire
from freezegun import freeze_time
from transcripts import replay_page, transcript

PAGE = Path(__file__).resolve().parents[1] / "docs" / "odds.md"


def test_the_page_runs_as_shown(spire: Spire) -> None:
    steps = transcript(PAGE.read_text(encoding="utf-8"))
    assert {"odds", "map"} <= {args[0] for args, _ in steps}
    with freeze_time("2026-11-30 20:00:00"):
        replay_page(spire, steps)


def test_the_page_shows_an_example_for_each_game() -> None:
    text = PAGE.read_text(encoding="utf-8")
    for game in ("--game hildegard", "--game volume2", "--game spires-end"):
        assert "$ spire new" in text and game in text, game
