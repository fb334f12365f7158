"""docs/spires-end.md plays a short fight; its transcript runs here, as shown, and the
rulings it lists are the ones the rules make.

Every `$ spire ...` line of the page's ```console blocks is run in order on one fresh
journal through the real app; the output under it must be exactly what spire printed.
Output starting with `spire: ` is a refusal: exit code 1, one line, nothing appended.
"""

from __future__ import annotations

from pathlib import Path

from conftest import Spire
from transcripts import replay_page, transcript

PAGE = Path(__file__).resolve().parents[1] / "docs" / "spires-end.md"
def test_the_page_runs_as_shown(spire: Spire) -> None:
    steps = transcript(PAGE.read_text(encoding="utf-8"))
    assert {"draw", "fight", "action", "rest", "recoup", "upkeep", "enemy"} <= {
        args[0] for args, _ in steps}
    replay_page(spire, steps)


def test_the_page_names_the_faq_ruling() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert "The publisher's FAQ: negative effects resolve before positive ones." in text
