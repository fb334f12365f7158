"""Docs that run: a page's ```console transcript, replayed through the real CLI."""

from __future__ import annotations

import shlex

from conftest import Spire

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


def _printed(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def replay_page(spire: Spire, steps: list[Step]) -> None:
    """Run each step; the output shown must be what spire printed (trailing spaces aside).
    Output starting with `spire: ` is a refusal: exit 1, that line (and the one indented
    under it, if any), nothing appended."""
    for args, shown in steps:
        command = f"spire {shlex.join(args)}"
        if shown and shown[0].startswith("spire: "):
            first, *under = spire.refused(*args, code=1).split("\n")
            said = [first, *(f"  {line}" for line in under)]
            assert said == shown, f"`{command}` is refused otherwise:\n" + "\n".join(said)
            continue
        run = spire(*args)
        assert run.code == 0, f"`{command}` -> {run.code}: {run.err}"
        assert _printed(run.out) == shown, f"`{command}` prints otherwise:\n{run.out}"
