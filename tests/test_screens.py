"""What a player sees in a real terminal, 80 columns by 24 rows (tmux): `spire watch`'s
header and its end by Ctrl-C, and `replay --step` answering single keys, as `less` does
(issue 34, item 6). Skipped, saying why, where tmux is not installed.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import Spire, play

import journal

ROOT = Path(journal.__file__).resolve().parents[1]
PROMPT = "ready$ "

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed (Debian's tmux package)")


class Terminal:
    """A tmux window of 80x24 running a plain bash, with its own server."""

    def __init__(self, home: Path) -> None:
        self.socket = f"spire-{uuid.uuid4().hex[:8]}"
        env = {"PATH": os.environ.get("PATH", ""), "HOME": str(home), "TERM": "xterm-256color",
               "PYTHONPATH": str(ROOT), "LANG": "C.UTF-8", "PS1": PROMPT,
               "XDG_CACHE_HOME": os.environ.get("XDG_CACHE_HOME", str(home))}
        self.tmux("new-session", "-d", "-x", "80", "-y", "24", "-s", "t",
                  "env -i " + " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
                  + " bash --norc --noprofile")
        assert self.shows(PROMPT.strip(), within=20), self.screen()

    def tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, check=True, timeout=30)
        return done.stdout

    def type(self, line: str) -> None:
        self.tmux("send-keys", "-t", "t", "-l", line)
        self.tmux("send-keys", "-t", "t", "Enter")

    def key(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "t")

    def shows(self, wanted: str | Callable[[str], bool], within: float) -> bool:
        test = wanted if callable(wanted) else (lambda s: wanted in s)
        deadline = time.monotonic() + within
        while not test(self.screen()):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True,
                       check=False)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    shown = Terminal(tmp_path)
    try:
        yield shown
    finally:
        shown.close()


def spire_line(spire: Spire, *args: str) -> str:
    return shlex.join([sys.executable, "-m", "journal", "--db", str(spire.db), *args])


def prompt_on_its_own_line(screen: str) -> bool:
    """The shell's prompt came back at the start of a line (never after a `^C`)."""
    lines = [line for line in screen.splitlines() if line.strip()]
    return bool(lines) and lines[-1].strip() == PROMPT.strip()


def test_watch_has_a_header_and_ctrl_c_gives_the_prompt_a_line_of_its_own(
        hildegard: Spire, terminal: Terminal) -> None:
    play(hildegard, "gain gold 3")
    terminal.type(spire_line(hildegard, "watch", "--last", "2"))
    assert terminal.shows("Ctrl-C stops", within=30), terminal.screen()
    header = next(line for line in terminal.screen().splitlines() if "Ctrl-C stops" in line)
    assert header.startswith("watching gray-oaks (main) · live since ")
    assert "· updated " in header and len(header.rstrip()) <= 80
    play(hildegard, "note the rain holds")
    assert terminal.shows("the rain holds", within=10), terminal.screen()
    terminal.key("C-c")
    assert terminal.shows(prompt_on_its_own_line, within=10), terminal.screen()
    assert "Traceback" not in terminal.screen()


def test_replay_step_takes_single_keys(hildegard: Spire, terminal: Terminal) -> None:
    play(hildegard, "reveal 1", "gain gold 3", "note the old road")
    terminal.type(spire_line(hildegard, "replay", "--step"))
    assert terminal.shows("[#1] Enter: next, b: back, q: quit>", within=30), terminal.screen()
    terminal.key("n")                                  # a key, no Enter: the next event
    assert terminal.shows("[#2] Enter:", within=10), terminal.screen()
    terminal.key("Right")
    assert terminal.shows("[#3] Enter:", within=10), terminal.screen()
    terminal.key("b")                                  # back one
    assert terminal.shows(lambda s: s.count("[#2] Enter:") == 2, within=10), terminal.screen()
    terminal.key("q")
    assert terminal.shows(prompt_on_its_own_line, within=10), terminal.screen()
    assert "#4" not in terminal.screen()


def test_ctrl_c_ends_replay_step_with_the_prompt_on_a_line_of_its_own(
        hildegard: Spire, terminal: Terminal) -> None:
    play(hildegard, "reveal 1", "gain gold 3")
    terminal.type(spire_line(hildegard, "replay", "--step"))
    assert terminal.shows("[#1] Enter:", within=30), terminal.screen()
    terminal.key("C-c")
    assert terminal.shows(prompt_on_its_own_line, within=10), terminal.screen()
    terminal.type("echo exit=$?")
    assert terminal.shows("exit=0", within=10), terminal.screen()
    assert "Traceback" not in terminal.screen()


# -- the play shell's bottom line at 80 columns ---------------------------------------------

def toolbar(terminal: Terminal) -> str:
    """The screen's bottom row: the play shell's toolbar."""
    return terminal.screen().rstrip("\n").splitlines()[-1]


@pytest.mark.parametrize(("setup", "wanted"), [
    (("new gray-oaks --game hildegard", 'target "Street Merchant"'),
     ["Street Merchant: 0 of 2 bullseyes", "0 sets done, 2 left"]),
    (("new tower --game spires-end --players 2",
      'draw Millicent --hp 5 --ap 2 --bar "Back Hand"',
      'draw Oswin --hp 4 --ap 1 --bar "Jab; cost 1; 5-8: 1"',
      'fight Ogre --hp 9 --ap 2 --bar "Club; 3-5: 2; 6-8: 4"'),
     ["R1 Millicent's turn", "Millicent HP 5/5 AP 2/2"]),
    (("new plains --game volume2", "card add Finnian --ally --recoup 1",
      'card add "Wade Slocum" --enemy --hp 8 --ap 2 --ferocity 1 --attacks 1 --retreat 2',
      'fight "Wade Slocum"', "roll sickle blank hive"),
     ["R1 Finnian's turn", "Finnian HP 2/5 AP 3/3"]),
], ids=["hildegard", "spires-end", "volume2"])
def test_the_toolbar_says_what_matters_first_at_80_columns(
        spire: Spire, terminal: Terminal, setup: tuple[str, ...], wanted: list[str]) -> None:
    """Issue 34, item 5: "no card revealed yet" pushed the sets left and the allies' HP
    out of the bottom line. Fitted, it keeps the turn and the hit points, drops what says
    nothing (no effects, empty meters), and has no run of spaces."""
    play(spire, *setup)
    terminal.type(spire_line(spire, "play"))
    assert terminal.shows(lambda s: wanted[0] in toolbar(terminal), within=30), \
        terminal.screen()
    bottom = toolbar(terminal)
    assert all(part in bottom for part in wanted), bottom
    assert len(bottom.rstrip()) <= 80 and "  " not in bottom.strip() and "..." not in bottom
    assert "no effects" not in bottom and "no card revealed yet" not in bottom
    terminal.key("C-d")
    assert terminal.shows(prompt_on_its_own_line, within=10), terminal.screen()


# -- the play shell's own lines at 80 columns (issue 34, item 4) -----------------------------

def test_the_play_shell_opens_and_refuses_in_whole_lines_at_80_columns(
        hildegard: Spire, terminal: Terminal) -> None:
    """Its first line broke mid-word ("exit l" / "eaves"); a refusal took 2 or 3 rows. Now
    the opening line is one row, and a rule's refusal is its reason on one row, the
    rulebook's section and --force on the row under it."""
    from journal.cli.play import INTRO

    terminal.type(spire_line(hildegard, "play"))
    assert terminal.shows("gray-oaks", within=30), terminal.screen()
    rows = [row.rstrip() for row in terminal.screen().splitlines()]
    assert INTRO in rows, terminal.screen()
    shell = rows[rows.index(INTRO):-1]  # the shell's screen, the toolbar aside
    assert shell[1].startswith("gray-oaks") and all(len(row) < 80 for row in shell), shell
    terminal.type("spend gold 5")
    assert terminal.shows("--force records it anyway", within=30), terminal.screen()
    rows = [row.rstrip() for row in terminal.screen().splitlines()]
    at = rows.index("spire: you have 0 gold, not 5")
    assert rows[at + 1] == "  rulebook: Gold & Management; --force records it anyway"
    terminal.key("C-d")
    assert terminal.shows(prompt_on_its_own_line, within=10), terminal.screen()


def test_clear_in_the_shell_clears_the_screen(hildegard: Spire, terminal: Terminal) -> None:
    """`clear` in the play shell does what it does in the terminal around it."""
    terminal.type(spire_line(hildegard, "play"))
    assert terminal.shows("gray-oaks no card>", within=30), terminal.screen()
    terminal.type("log")
    assert terminal.shows("Began a Spire's End: Hildegard campaign", within=10), \
        terminal.screen()
    terminal.type("clear")
    assert terminal.shows(lambda s: "Began a" not in s
                          and s.lstrip().startswith("gray-oaks no card>"), within=10), \
        terminal.screen()
    terminal.key("C-d")
    assert terminal.shows(prompt_on_its_own_line, within=10), terminal.screen()
