"""Docs that run: the CLI reference is current, every command has an example, the README's
session works as shown, and CI runs the README's own test command."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest
from conftest import Spire

from journal.cli import reference

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
CLI_MD = ROOT / "docs" / "cli.md"
CI_RUN = ROOT / ".ci" / "run"

INSTALL_AND_DEMO = "python3 -m venv .venv && . .venv/bin/activate && pip install . && spire demo"
INSTALL_AND_TEST = (
    "python3 -m venv .venv && . .venv/bin/activate && pip install '.[test]' && "
    "pytest -m 'slow or not slow' -n auto")
INSTALL_AS_AN_APPLICATION = "pipx install ."
"""`spire` in every terminal (tests/test_install.py installs it so, and with uv)."""

Step = tuple[list[str], list[str]]
"""A command's arguments (after `spire`) and the output lines the README shows for it."""


def readme() -> str:
    return README.read_text(encoding="utf-8")


def fenced(text: str, language: str) -> list[str]:
    """The bodies of the ```language blocks in `text`."""
    return re.findall(rf"^```{language}\n(.*?)^```$", text, flags=re.MULTILINE | re.DOTALL)


def session(block: str) -> list[Step]:
    """The `$ spire ...` lines of a console block, each with the output lines under it."""
    steps: list[Step] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            program, *args = shlex.split(line[2:])
            assert program == "spire", f"the README's session runs something else: {line}"
            steps.append((args, []))
        elif line.strip():
            assert steps, f"output before any command in the README: {line}"
            steps[-1][1].append(line.strip())
    return steps


# -- the CLI reference -------------------------------------------------------------------

def test_the_cli_reference_is_current() -> None:
    assert CLI_MD.read_text(encoding="utf-8") == reference.page(), (
        f"docs/cli.md is out of date with the commands' --help; regenerate it with "
        f"`{reference.REGENERATE}` and commit it")


def test_the_reference_does_not_depend_on_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    narrow = reference.page()
    monkeypatch.setenv("COLUMNS", "200")
    assert reference.page() == narrow


COMMANDS = reference.commands()


def test_the_reference_covers_every_command_and_sub_command() -> None:
    paths = [path for path, _ in COMMANDS]
    for path in ("spire", "spire new", "spire reveal", "spire undo", "spire item",
                 "spire item gain", "spire item lose", "spire item pass"):
        assert path in paths
        assert f"\n## {path}\n" in CLI_MD.read_text(encoding="utf-8")


@pytest.mark.parametrize(("path", "help_text"), COMMANDS, ids=[path for path, _ in COMMANDS])
def test_every_command_has_an_example(path: str, help_text: str) -> None:
    assert "Example" in help_text, f"`{path} --help` shows no example"


# -- the README --------------------------------------------------------------------------

def test_the_readme_shows_a_ten_command_session() -> None:
    blocks = fenced(readme(), "console")
    assert len(blocks) == 1, "the README should have one ```console example session"
    assert len(session(blocks[0])) == 10


def test_the_readme_session_runs_as_shown(spire: Spire) -> None:
    for args, shown in session(fenced(readme(), "console")[0]):
        out = spire.ok(*args)
        printed = [line.strip() for line in out.splitlines()]
        for line in shown:
            assert line in printed, f"`spire {shlex.join(args)}` no longer prints {line!r}:\n{out}"


def test_the_readme_has_exactly_the_two_set_up_commands() -> None:
    commands = [line for block in fenced(readme(), "sh") for line in block.splitlines() if line]
    assert commands == [INSTALL_AND_DEMO, INSTALL_AS_AN_APPLICATION, INSTALL_AND_TEST]
    assert "--db" in readme() and "default journal" in readme()


def test_the_readme_gives_both_installs_that_the_tests_make() -> None:
    text = " ".join(readme().split())
    assert "`uv tool install .`" in text and "tests/test_install.py" in text
    tested = (ROOT / "tests" / "test_install.py").read_text(encoding="utf-8")
    assert '["install", str(ROOT)]' in tested and '"tool", "install"' in tested


def test_ci_runs_the_readmes_test_command() -> None:
    test_command = INSTALL_AND_TEST.split(" && ")[-1]
    script = CI_RUN.read_text(encoding="utf-8")
    lines = [line.strip() for line in script.splitlines()]
    assert test_command in lines, f".ci/run does not run the README's `{test_command}`"
    assert "set -euo pipefail" in lines
    assert "pip install --quiet '.[test]'" in lines
    assert os.access(CI_RUN, os.X_OK), ".ci/run is not executable"
