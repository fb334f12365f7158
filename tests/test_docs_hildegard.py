"""docs/hildegard.md walks a target and a face-off; its transcript runs here, as shown.

Every `$ spire ...` line of the page's ```console blocks is run in order on one fresh journal
through the real app. The output under it must be exactly what spire printed (line by line,
trailing spaces aside); output that starts with `spire: ` is a refusal, printed on stderr
with exit code 1 and nothing appended. No command on the page shows a timestamp.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from conftest import Spire

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "hildegard.md"
FENCE = "```"

Step = tuple[list[str], list[str]]
"""A command's arguments (after `spire`) and the lines the page shows under it."""


def transcript(text: str) -> list[Step]:
    """The `$ spire` lines of the page's console blocks, each with the lines under it."""
    steps: list[Step] = []
    inside = False
    for line in text.splitlines():
        if line.startswith(FENCE):
            inside = line == f"{FENCE}console"
        elif inside and line.startswith("$ "):
            program, *args = shlex.split(line[2:])
            assert program == "spire", f"the page runs something else: {line}"
            steps.append((args, []))
        elif inside:
            assert steps, f"output before any command on the page: {line}"
            steps[-1][1].append(line.rstrip())
    return steps


STEPS = transcript(PAGE.read_text(encoding="utf-8"))


def _printed(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def test_the_page_walks_a_target_and_a_face_off() -> None:
    commands = {args[0] for args, _ in STEPS}
    assert {"target", "roll", "lock", "wild", "feat", "faceoff"} <= commands
    assert STEPS[0][0][:2] == ["new", "gray-oaks"], "the page starts its own campaign"
    assert any(shown and shown[0].startswith("spire: ") for _, shown in STEPS), (
        "the page shows a refusal")


def test_the_page_runs_as_shown(spire: Spire) -> None:
    for args, shown in STEPS:
        command = f"spire {shlex.join(args)}"
        if shown and shown[0].startswith("spire: "):
            line = spire.refused(*args, code=1)
            assert [line] == shown, f"`{command}` is refused otherwise:\n{line}"
            continue
        run = spire(*args)
        assert run.code == 0, f"`{command}` -> {run.code}: {run.err}"
        assert _printed(run.out) == shown, f"`{command}` prints otherwise:\n{run.out}"


def test_the_page_is_linked_from_the_readme_and_the_concepts() -> None:
    for doc, link in ((ROOT / "README.md", "docs/hildegard.md"),
                      (ROOT / "docs" / "concepts.md", "(hildegard.md)")):
        assert link in doc.read_text(encoding="utf-8"), f"{doc.name} does not link the page"
