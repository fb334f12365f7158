"""docs/volume2.md plays an encounter; its transcript runs here, as shown, and the rulings
it lists are the ones the issue and PRODUCT.md settle.

Every `$ spire ...` line of the page's ```console blocks is run in order on one fresh
journal through the real app; the output under it must be exactly what spire printed.
Output starting with `spire: ` is a refusal: exit code 1, one line, nothing appended.
"""

from __future__ import annotations

from pathlib import Path

from conftest import Spire
from transcripts import replay_page, transcript

PAGE = Path(__file__).resolve().parents[1] / "docs" / "volume2.md"


def test_the_page_runs_as_shown(spire: Spire) -> None:
    steps = transcript(PAGE.read_text(encoding="utf-8"))
    assert {"draw", "fight", "roll", "lock", "stop", "action", "deploy", "upkeep",
            "target-roll", "enemy", "undo", "audit"} <= {args[0] for args, _ in steps}
    replay_page(spire, steps)


def test_the_page_states_the_rulings() -> None:
    text = " ".join(PAGE.read_text(encoding="utf-8").split())
    for ruling in ("QUICKDRAW reads the natural d20",
                   "above the highest row uses that row; below the lowest row is a miss",
                   "An enemy that retreats is not defeated",
                   "A locked bee or pollen is gained and may be deployed in the same turn"):
        assert ruling in text, ruling
