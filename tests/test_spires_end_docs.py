"""docs/spires-end.md plays a short fight; its transcript runs here, as shown, and the
rulings it lists are the ones the rules make.

Every `$ spire ...` line of the page's ```console blocks is run in order on one fresh
journal through the real app; the output under it must be exactly what spire printed.
Output starting with `spire: ` is a refusal: exit code 1, one line, nothing appended.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from conftest import Spire

PAGE = Path(__file__).resolve().parents[1] / "docs" / "spires-end.md"
FENCE = "```"


def transcript(text: str) -> list[tuple[list[str], list[str]]]:
    steps: list[tuple[list[str], list[str]]] = []
    inside = False
    for line in text.splitlines():
        if line.startswith(FENCE):
            inside = line == f"{FENCE}console"
        elif inside and line.startswith("$ "):
            program, *args = shlex.split(line[2:])
            assert program == "spire", f"the page runs something else: {line}"
            steps.append((args, []))
        elif inside:
            steps[-1][1].append(line.rstrip())
    return steps


def test_the_page_runs_as_shown(spire: Spire) -> None:
    steps = transcript(PAGE.read_text(encoding="utf-8"))
    assert {"draw", "fight", "action", "rest", "recoup", "upkeep", "enemy"} <= {
        args[0] for args, _ in steps}
    for args, shown in steps:
        command = f"spire {shlex.join(args)}"
        if shown and shown[0].startswith("spire: "):
            assert [spire.refused(*args, code=1)] == shown, command
            continue
        run = spire(*args)
        assert run.code == 0, f"`{command}` -> {run.code}: {run.err}"
        printed = [line.rstrip() for line in run.out.rstrip("\n").splitlines()]
        assert printed == shown, f"`{command}` prints otherwise:\n{run.out}"


def test_the_page_names_the_faq_ruling() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert "The publisher's FAQ: negative effects resolve before positive ones." in text
