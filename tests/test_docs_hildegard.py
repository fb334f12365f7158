"""docs/hildegard.md walks a target and a face-off; its transcript runs here, as shown.

Every `$ spire ...` line of the page's ```console blocks is run in order on one fresh journal
through the real app. The output under it must be exactly what spire printed (line by line,
trailing spaces aside); output that starts with `spire: ` is a refusal, printed on stderr
with exit code 1 and nothing appended. No command on the page shows a timestamp.
"""

from __future__ import annotations

from pathlib import Path

from conftest import Spire
from transcripts import replay_page, transcript

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "hildegard.md"
STEPS = transcript(PAGE.read_text(encoding="utf-8"))


def test_the_page_walks_a_target_and_a_face_off() -> None:
    commands = {args[0] for args, _ in STEPS}
    assert {"target", "roll", "lock", "wild", "feat", "faceoff"} <= commands
    assert STEPS[0][0][:2] == ["new", "gray-oaks"], "the page starts its own campaign"
    assert any(shown and shown[0].startswith("spire: ") for _, shown in STEPS), (
        "the page shows a refusal")


def test_the_page_runs_as_shown(spire: Spire) -> None:
    replay_page(spire, STEPS)


def test_the_page_is_linked_from_the_readme_and_the_concepts() -> None:
    for doc, link in ((ROOT / "README.md", "docs/hildegard.md"),
                      (ROOT / "docs" / "concepts.md", "(hildegard.md)")):
        assert link in doc.read_text(encoding="utf-8"), f"{doc.name} does not link the page"
