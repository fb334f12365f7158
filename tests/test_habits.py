"""The habits players bring from git, Lichess and their shells (issue 18): completion in
bash, zsh and fish from the same candidates as the play shell's Tab; global options after
the command; help in panels, `spire help`, readable usage lines; the play shell's help
for the campaign's game only."""

from __future__ import annotations

import os
import shutil
import stat
import sys
from pathlib import Path

import pytest
from conftest import Spire, refusal
from test_play import Terminal

from journal.cli import reference
from journal.cli.dispatch import index
from journal.cli.index import COMMANDS
from journal.cli.panels import PANELS
from journal.games import names

# -- completion in the shells -----------------------------------------------------------

def complete(spire: Spire, line: str, shell: str = "bash") -> list[str]:
    """What `spire`'s completion answers a shell for `line` (the cursor at its end), as the
    script from `spire completion SHELL` asks it: COMP_WORDS and COMP_CWORD."""
    words = line.split()
    at = len(words) if line.endswith(" ") else len(words) - 1
    run = spire.runner.invoke(
        __import__("journal.cli", fromlist=["app"]).app, [],
        env={"_SPIRE_COMPLETE": f"complete_{shell}", "COMP_WORDS": line, "COMP_CWORD": str(at),
             "SPIRE_DB": str(spire.db)})
    return run.stdout.splitlines()


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_shell_completes_checkpoints_branches_faces_and_options(
    hildegard: Spire, shell: str,
) -> None:
    hildegard.ok("reveal", "1")
    hildegard.ok("checkpoint", "before-the-bridge")
    hildegard.ok("rewind", "start", "--as", "bolder")
    hildegard.ok("item", "gain", "Cursed Key")
    assert complete(hildegard, "spire rewind ", shell) == ["start", "--as"]
    assert complete(hildegard, "spire switch ", shell) == ["main", "bolder"]
    assert complete(hildegard, "spire log --branch b", shell) == ["bolder"]
    assert complete(hildegard, "spire roll c", shell) == ["crescent"]
    assert complete(hildegard, "spire item lose ", shell)[:1] == ['"Cursed Key"']
    assert complete(hildegard, "spire rew", shell) == ["rewind"]
    assert complete(hildegard, "spire status --", shell) == ["--branch", "--json"]
    assert complete(hildegard, "spire -c ", shell) == ["gray-oaks"]
    assert complete(hildegard, "spire --d", shell) == ["--db"]
    hildegard.ok("switch", "main")
    assert complete(hildegard, "spire rewind b", shell) == ["before-the-bridge"]


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_each_shell_completes_the_values_of_a_choice(spire: Spire, shell: str) -> None:
    """Issue 34, item 8: `--game` and `--format` offer their values (bash fell back to file
    names), in a new journal and in a campaign's."""
    assert complete(spire, "spire new tower --game ", shell) == list(names())
    assert complete(spire, "spire new tower -g h", shell) == ["hildegard"]
    spire.ok("new", "tower", "--game", "hildegard")
    assert complete(spire, "spire report --format ", shell) == ["md", "html", "json"]
    assert complete(spire, "spire report -f j", shell) == ["json"]


def test_completion_of_a_journal_not_there_makes_nothing(tmp_path: Path) -> None:
    spire = Spire(tmp_path / "nowhere" / "j.sqlite")
    assert complete(spire, "spire rewind ") == ["--as"]
    assert complete(spire, "spire sw") == ["switch"]
    assert not (tmp_path / "nowhere").exists()


def test_completion_scripts_and_a_shell_spire_does_not_know(spire: Spire) -> None:
    for shell, says in [("bash", "complete -o default -F _spire_completion spire"),
                        ("zsh", "compdef _spire_completion spire"),
                        ("fish", "complete -c spire -f -a '(_spire_completion)'")]:
        out = spire.ok("completion", shell)
        assert says in out and f"_SPIRE_COMPLETE=complete_{shell}" in out
    line = spire.refused("completion", "tcsh", code=2)
    assert line == "spire: spire completes in bash, zsh, fish, not 'tcsh'"


SHELL_STARTS = {
    "bash": (["--norc", "--noprofile", "-i"], 'eval "$(spire completion bash)"'),
    "zsh": (["-f", "-i"], 'autoload -Uz compinit && compinit -u && eval "$(spire completion zsh)"'),
    "fish": (["--no-config", "-i"], "spire completion fish | source"),
}
"""Each shell started bare, and the line that loads spire's completion into it."""


@pytest.mark.slow
@pytest.mark.parametrize("shell", list(SHELL_STARTS))
def test_a_shell_completes_a_checkpoint_name_in_a_terminal(
    hildegard: Spire, tmp_path: Path, shell: str,
) -> None:
    """Issue 18: a real shell, in a pseudo-terminal, with the script `spire completion SHELL`
    prints, completes a checkpoint's name after `spire rewind`."""
    if shutil.which(shell) is None or sys.platform == "win32":
        pytest.skip(f"needs {shell} and a pseudo-terminal")
    hildegard.ok("checkpoint", "before-the-bridge")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    spire_bin = bin_dir / "spire"
    spire_bin.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m journal "$@"\n')
    spire_bin.chmod(spire_bin.stat().st_mode | stat.S_IEXEC)
    root = Path(__file__).resolve().parents[1]
    flags, load = SHELL_STARTS[shell]
    terminal = Terminal(*flags, cwd=tmp_path, program=[shell], env={
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "PS1": "$ ", "HOME": str(tmp_path),
        "SPIRE_DB": str(hildegard.db), "INPUTRC": os.devnull, "PYTHONPATH": str(root)})
    try:
        terminal.settle()
        terminal.type(f"{load}\r")
        terminal.settle()
        terminal.type("spire rewind bef\t")
        terminal.settle()
        terminal.type("\r")
        terminal.expect("Now on branch 'from-before-the-bridge'")
        terminal.type("exit\r")
        terminal.close()
    finally:
        terminal.kill()
    assert hildegard.json("status")["branch"] == "from-before-the-bridge"


# -- options where people type them -----------------------------------------------------

def test_global_options_after_the_command(spire: Spire) -> None:
    spire.ok("new", "thornfield", "--game", "hildegard")
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    assert spire.json("status", "-c", "thornfield")["campaign"] == "thornfield"
    assert spire.json("status", "--campaign=thornfield")["campaign"] == "thornfield"
    assert spire.json("status", "-cthornfield")["campaign"] == "thornfield"
    spire.ok("note", "to thornfield", "--campaign", "thornfield")
    assert spire.json("log", "-c", "thornfield")[-1]["payload"]["text"] == "to thornfield"
    assert spire.json("log")[-1]["type"] != "note-added", "gray-oaks, the current, untouched"
    spire.ok("note", "--", "-c is only text after --")
    assert spire.json("log")[-1]["payload"]["text"] == "-c is only text after --"
    other = spire.db.with_name("other.sqlite")
    run = spire.runner.invoke(__import__("journal.cli", fromlist=["app"]).app,
                              ["campaigns", "--db", str(other)])
    assert run.exit_code == 3 and not other.exists(), "a read makes no journal"
    assert run.stderr.startswith(f"spire: no journal at {other}")
    line = spire.refused("status", "-c", "nowhere", code=2)
    assert line == "spire: no campaign named 'nowhere'; `spire campaigns` lists them"


# -- help that can be scanned -----------------------------------------------------------

def test_help_lists_the_commands_in_panels(spire: Spire) -> None:
    out = spire.ok("--help")
    found: dict[str, list[str]] = {}
    panel = None
    for line in out.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            panel = line[:-1]
            found[panel] = []
        elif not line:
            panel = None
        elif panel is not None and line.startswith("  "):
            found[panel].append(line.split()[0])
    expected = {p: [n for n in verbs if n in COMMANDS] for p, verbs in PANELS.items()}
    assert {p: found[p] for p in PANELS} == expected
    listed = [n for p in PANELS for n in found[p]]
    assert sorted(listed) == sorted(n for n, (_, text) in COMMANDS.items() if text is not None)
    for game in names():  # with no campaign, each game's verbs under its own panel
        own = index(game)
        assert found[own.PANEL] == [n for n, text in own.COMMANDS.items()
                                    if text and " " not in n and n not in COMMANDS]


def test_spire_help_is_the_commands_own_help(spire: Spire) -> None:
    assert spire.ok("help") == spire.ok("--help")
    assert spire.ok("help", "rewind") == spire.ok("rewind", "--help")
    assert spire.ok("help", "item", "gain") == spire.ok("item", "gain", "--help")
    line = spire.refused("help", "fly", code=2)
    assert line == "spire: no command 'fly'; `spire help` lists them"


def test_usage_lines_read_as_a_player_reads_them() -> None:
    pages = dict(reference.commands())
    for path, text in pages.items():
        usage = text.splitlines()[0]
        assert "[[" not in usage and "]...]" not in usage and "{" not in usage, usage
        assert "<list[" not in text and "<str>" not in text and "<int" not in text, path
    assert pages["spire roll (Hildegard)"].startswith("Usage: spire roll [OPTIONS] [FACES...]\n")
    assert pages["spire lock (Volume 2)"].startswith("Usage: spire lock [OPTIONS] POSITIONS...\n")
    assert pages["spire recoup (Spire's End)"].startswith(
        "Usage: spire recoup [OPTIONS] KIND [ROLL]\n")


@pytest.mark.parametrize(("game", "shown", "hidden"), [
    ("hildegard", ["target", "faceoff", "roll", "wild", "rewind", "redo"],
     ["fight", "recoup", "deploy", "waterfall"]),
    ("spires-end", ["fight", "recoup", "effect", "end"], ["target", "wild", "deploy"]),
    ("volume2", ["fight", "roll", "lock", "deploy", "waterfall"], ["target", "recoup", "feat"]),
])
def test_the_shells_help_shows_the_campaigns_game_only(
    spire: Spire, game: str, shown: list[str], hidden: list[str],
) -> None:
    spire.ok("new", "here", "--game", game)
    run = spire("play", input="help\n")
    listed = [line.split()[0] for line in run.out.splitlines() if line.startswith("  ")]
    assert set(shown) <= set(listed) and not set(hidden) & set(listed)
    assert "Time:" in run.out and "In the shell:" in run.out
    own = index(game)
    assert f"{own.PANEL}:" in run.out
    assert set(listed) - set(COMMANDS) <= set(own.COMMANDS) | {"help", "clear", "exit"}


# -- the docs show the habits, and their examples run ----------------------------------

def test_the_concepts_pages_time_travel_session_runs_as_shown(spire: Spire) -> None:
    from transcripts import replay_page, transcript

    page = Path(__file__).resolve().parents[1] / "docs" / "concepts.md"
    steps = transcript(page.read_text(encoding="utf-8"))
    commands = [args[0] for args, _ in steps]
    assert {"undo", "redo", "rewind", "branch", "branches"} <= set(commands)
    replay_page(spire, steps)


def test_typers_completion_options_point_to_spire_completion(spire: Spire) -> None:
    line = spire.refused("--install-completion", code=2)
    assert line == ("spire: no such option: --install-completion\n"
                    "`spire completion bash|zsh|fish` prints the script to load")


@pytest.mark.parametrize("var, cword", [("complete_tcsh", "1"), ("complete_bash", "two")])
def test_a_completion_request_spire_cannot_read_is_bad_input_in_one_line(
    hildegard: Spire, var: str, cword: str,
) -> None:
    before = hildegard.journal_rows()
    run = hildegard.runner.invoke(
        __import__("journal.cli", fromlist=["app"]).app, [],
        env={"_SPIRE_COMPLETE": var, "COMP_WORDS": "spire rewind ", "COMP_CWORD": cword,
             "SPIRE_DB": str(hildegard.db)})
    assert run.exit_code == 2
    assert run.stdout == ""
    assert "Traceback" not in run.stderr
    assert refusal(run.stderr) == ["spire: cannot read the completion request _SPIRE_COMPLETE",
                                   "_SPIRE_COMPLETE is complete_bash|complete_zsh|complete_fish "
                                   "and COMP_CWORD a word's number"]
    assert hildegard.journal_rows() == before
