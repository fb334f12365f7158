"""The play shell: driven through a real pseudo-terminal (prompt_toolkit: the prompt, the
bottom toolbar, completion, history), and fed a written-down session on standard input
(stop at the first refused line)."""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import BOTH, Spire, refusal

from journal.cli.play import Completer, Shell, history_file
from journal.cli.prompting import prompt, status_line

ROOT = Path(__file__).resolve().parents[1]
UP = "\x1b[A"
TIMEOUT = 20.0
"""Seconds to wait for the shell to answer; generous for a loaded CI machine, never spent
when it answers."""

ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]|[\r\x07\x08]")
CURSOR_QUERY = "\x1b[6n"
"""prompt_toolkit asks the terminal where the cursor is; a terminal answers (row;colR), and
only then is the bottom toolbar drawn (it needs to know the rows below the prompt)."""


def _controlling() -> None:
    """In the child, after its new session began: the terminal is its controlling one, as
    a terminal emulator makes it (fish, for one, will not run without)."""
    import fcntl
    import termios

    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    """`spire ... play` (or any program) in a pseudo-terminal of `columns` x 24: type into
    it, wait for what it shows."""

    def __init__(self, *args: str, cwd: Path, columns: int = 80,
                 program: list[str] | None = None, env: dict[str, str] | None = None) -> None:
        import fcntl
        import struct
        import termios

        leader, follower = os.openpty()
        fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
        env = {**os.environ, "TERM": "xterm", "COLUMNS": str(columns), "LINES": "24",
               "PYTHONPATH": str(ROOT), **(env or {})}
        self.process = subprocess.Popen(
            [*(program or [sys.executable, "-m", "journal"]), *args], stdin=follower,
            stdout=follower, stderr=follower, cwd=cwd, env=env, start_new_session=True,
            preexec_fn=_controlling)
        os.close(follower)
        self.leader = leader
        self.seen = ""
        self.raw = ""

    def type(self, keys: str) -> None:
        os.write(self.leader, keys.encode())

    def expect(self, text: str) -> str:
        """Wait until `text` shows (escape sequences aside); what showed up to it."""
        deadline = time.monotonic() + TIMEOUT
        while text not in self.seen:
            left = deadline - time.monotonic()
            assert left > 0, f"waited {TIMEOUT}s for {text!r}; the terminal shows:\n{self.seen}"
            if select.select([self.leader], [], [], left)[0]:
                self.seen += ESCAPES.sub("", self._read())
        shown, _, self.seen = self.seen.partition(text)
        return shown + text

    def settle(self, quiet: float = 0.5) -> str:
        """Wait until the screen has been still for `quiet` seconds (a completion drawn,
        say); what showed meanwhile."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline and select.select([self.leader], [], [], quiet)[0]:
            self.seen += ESCAPES.sub("", self._read())
        return self.seen

    def _read(self) -> str:
        try:
            read = os.read(self.leader, 4096).decode(errors="replace")
        except OSError:  # the shell has gone: the terminal reads as closed
            return ""
        self.raw += read
        for _ in range(read.count(CURSOR_QUERY)):
            self.type("\x1b[1;1R")
        return read

    def close(self) -> int:
        code = self.process.wait(timeout=TIMEOUT)
        os.close(self.leader)
        return code

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def terminal(hildegard: Spire, tmp_path: Path) -> Iterator[Terminal]:
    hildegard.ok("reveal", "1")
    hildegard.ok("target", "Street Merchant")
    opened = Terminal("--db", str(hildegard.db), "play", cwd=tmp_path)
    yield opened
    opened.kill()


PROMPT = "gray-oaks card 1, Hildegard's turn>"
TOOLBAR = "card 1 | Street Merchant: 0 of 2 bullseyes | 0 sets done, 2 left"


# -- through a terminal ------------------------------------------------------------------

pty = pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")


@pty
@pytest.mark.slow
@pytest.mark.parametrize("backend", BOTH)
def test_two_shells_on_one_campaign_see_each_others_events(
    hildegard: Spire, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two players, each in `spire play` on the shared campaign: each command of one shell
    begins from the events the other appended, without leaving the shell."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # a server's play.history
    shells = [Terminal("--db", hildegard.url, "play", cwd=tmp_path) for _ in range(2)]
    try:
        mira, tomas = shells
        for shell in shells:
            shell.expect("card>")
        mira.type("gain gold 2\r")
        mira.expect("#2 +2 gold")
        mira.expect("card>")
        tomas.type("spend gold 2\r")  # legal only with mira's gold in tomas's state
        tomas.expect("#3 -2 gold")
        tomas.expect("card>")
        mira.type("status\r")
        mira.expect("main at #3")
        mira.expect("gold         0")
        mira.expect("card>")
        for shell in shells:
            shell.type("exit\r")
            assert shell.close() == 0
    finally:
        for shell in shells:
            shell.kill()


@pty
@pytest.mark.slow
def test_a_command_a_completed_face_and_a_refusal(terminal: Terminal, hildegard: Spire) -> None:
    terminal.expect(PROMPT)
    terminal.type("roll cresc\t")
    terminal.settle()
    terminal.type("c ring\r")
    shown = terminal.expect("this set so far)")
    assert "#4 Hildegard rolled crescent, crescent, ring" in shown
    assert "1:crescent 2:crescent 3:ring (1 bullseye" in shown
    terminal.expect(PROMPT)
    terminal.type("lock 9\r")
    refused = terminal.expect("the set has dice 1 to 3")
    assert "spire: there is no die 9;" in refused
    assert "Traceback" not in refused
    terminal.expect(PROMPT)
    terminal.type("lock 1 2\r")
    terminal.expect("#5 Hildegard locked dice 1, 2")
    terminal.expect(PROMPT)
    terminal.type("exit\r")
    assert terminal.close() == 0
    assert hildegard.json("status")["head"] == 5


@pty
@pytest.mark.slow
def test_the_prompt_is_short_and_the_encounter_is_in_the_toolbar(
    terminal: Terminal, hildegard: Spire,
) -> None:
    """Issue 18: on 80 columns the prompt says campaign, card and whose turn in under 40
    characters; the encounter is the bottom toolbar's, fitted to the terminal's width."""
    terminal.expect(PROMPT)
    terminal.expect(TOOLBAR)
    assert len(f"{PROMPT} ") < 40
    terminal.type("\x04")  # Ctrl-D leaves
    assert terminal.close() == 0
    narrow = Terminal("--db", str(hildegard.db), "play", cwd=hildegard.db.parent, columns=40)
    try:
        narrow.expect(PROMPT)
        narrow.expect("Street Merchant: 0 of 2 bullseyes")   # what matters most, alone
        narrow.type("exit\r")
        assert narrow.close() == 0
    finally:
        narrow.kill()


@pty
@pytest.mark.slow
def test_spire_status_inside_the_shell(terminal: Terminal, hildegard: Spire) -> None:
    """Issue 18: a line copied from the docs, `spire` and all, runs as the command."""
    terminal.expect(PROMPT)
    terminal.type("spire status\r")
    shown = terminal.expect("checkpoints")
    assert "gray-oaks (Spire's End: Hildegard, 1 player)" in shown
    assert "no such command" not in shown
    terminal.expect(PROMPT)
    terminal.type("spire note said with spire\r")
    terminal.expect("#4 Note: said with spire")
    terminal.expect(PROMPT)
    terminal.type("exit\r")
    assert terminal.close() == 0
    assert hildegard.json("log")[-1]["payload"]["text"] == "said with spire"


@pty
@pytest.mark.slow
def test_tab_completes_a_checkpoint_name(terminal: Terminal, hildegard: Spire) -> None:
    """Issue 18: `rewind <Tab>` offers the checkpoints, not `--as` alone."""
    hildegard.ok("checkpoint", "before-the-merchant")
    terminal.expect(PROMPT)
    terminal.type("rewind before\t")
    terminal.settle()
    terminal.type("\r")
    terminal.expect("Now on branch 'from-before-the-merchant'")
    assert len(terminal.expect("card 1, Hildegard>").splitlines()[-1]) < 40
    terminal.type("switch ma\t")
    terminal.settle()
    terminal.type("\r")
    terminal.expect("Now on branch 'main'")
    terminal.expect(PROMPT)
    terminal.type("exit\r")
    assert terminal.close() == 0


@pty
@pytest.mark.slow
def test_history_is_recalled_after_reopening(terminal: Terminal, hildegard: Spire) -> None:
    terminal.expect(PROMPT)
    terminal.type("note kept for later\r")
    terminal.expect("#4 Note: kept for later")
    terminal.expect(PROMPT)
    terminal.type("exit\r")
    assert terminal.close() == 0
    kept = history_file(str(hildegard.db)).read_text()
    assert "+note kept for later" in kept and "exit" not in kept

    again = Terminal("--db", str(hildegard.db), "play", cwd=hildegard.db.parent)
    try:
        again.expect(PROMPT)
        again.type(UP)
        again.expect("note kept for later")
        again.type("\r")
        again.expect("#5 Note: kept for later")
        again.expect(PROMPT)
        again.type("\x04")  # Ctrl-D leaves too
        assert again.close() == 0
    finally:
        again.kill()


# -- a written-down session on standard input --------------------------------------------

SESSION = """\
# the Street Merchant, as we played it
reveal 1

target "Street Merchant"
roll c c r
lock 9
note after the refused line
"""


def test_a_session_stops_at_the_first_refused_line(hildegard: Spire) -> None:
    run = hildegard("play", input=SESSION)
    assert run.code == 2
    assert "#4 Hildegard rolled crescent, crescent, ring" in run.out
    assert hildegard.json("status")["head"] == 4, "the lines before it, and nothing after"
    assert "after the refused line" not in hildegard.ok("log")
    # The reason is the line `spire lock 9` itself gives, and it still appends nothing.
    alone = hildegard.refused("lock", "9", code=2)
    assert run.err == f"line 6: {alone.removeprefix('spire: ')}\n"


def test_keep_going_runs_every_line_and_exits_with_the_first_failure(hildegard: Spire) -> None:
    session = (
        "reveal 1\n"
        'target "Street Merchant"\n'
        'target "Pesky Jackalope"\n'  # refused by a rule (1): the merchant is under way
        "roll c c r\n"
        "lock 9\n"  # bad input (2)
        "note the end\n")
    run = hildegard("play", "--keep-going", input=session)
    assert run.code == 1, "the first failure's code"
    first, cited, second = run.err.splitlines()
    assert first.startswith("line 3: ") and cited.startswith("  rulebook: ")
    assert second.startswith("line 5: there is no die 9")
    assert hildegard.json("status")["head"] == 5
    assert hildegard.json("log")[-1]["payload"]["text"] == "the end"


def test_a_session_with_no_refusal_exits_0(hildegard: Spire) -> None:
    run = hildegard("play", input="reveal 1\n  # indented comment\nstatus\nexit\nreveal 2\n")
    assert (run.code, run.err) == (0, "")
    assert hildegard.json("status")["card"] == 1, "exit ends the session"


@pytest.mark.parametrize(("line", "code", "reason"), [
    ("play", 2, "`play` does not run inside the play shell"),
    ("demo", 2, "`demo` does not run inside the play shell"),
    ("watch", 2, "`watch` does not run inside the play shell"),
    ("watch -n 1", 2, "`watch` does not run inside the play shell"),
    ("--db other.sqlite status", 2, "--db belongs on `spire play` itself; here, give a command"),
    ("note hi --db other.sqlite", 2, ("--db belongs on `spire play` itself: the shell keeps "
                                      "one journal")),
    ("note hi --db=other.sqlite", 2, ("--db belongs on `spire play` itself: the shell keeps "
                                      "one journal")),
    ('note "unclosed', 2, "cannot read the line: No closing quotation"),
    ("fly 3", 2, "no such command 'fly'; `spire help` lists them"),
    ("undo", 1, None),
])
def test_lines_the_shell_refuses(
    hildegard: Spire, line: str, code: int, reason: str | None,
) -> None:
    before = hildegard.journal_rows()
    run = hildegard("play", input=f"{line}\nnote never\n")
    assert run.code == code
    assert run.err.startswith("line 1: ") and run.err.count("\n") == 1
    if reason:
        assert run.err == f"line 1: {reason}\n"
    assert hildegard.journal_rows() == before


def test_a_note_may_say_db_after_a_double_dash(hildegard: Spire) -> None:
    """A line's --db was taken as the shell's own journal's and the note written there;
    refused now, but after `--` every word is the command's."""
    run = hildegard("play", input="note -- --db names the journal\n")
    assert (run.code, run.err) == (0, "")
    assert hildegard.json("log")[-1]["payload"]["text"] == "--db names the journal"


def test_help_lists_the_commands_and_shows_one(hildegard: Spire) -> None:
    run = hildegard("play", input="help\nhelp item gain\n")
    out = run.out
    assert run.code == 0
    listed = [line.split()[0] for line in out.splitlines() if line.startswith("  ")]
    for name in ("roll", "lock", "target", "item", "status", "undo", "help", "exit"):
        assert name in listed
    assert "play" not in listed and "demo" not in listed and "watch" not in listed
    assert "Usage: spire item gain [OPTIONS]" in out and "--wild COLOR" in out


def test_clear_is_the_shells_own_word(hildegard: Spire) -> None:
    """`clear`, typed as in the terminal, was refused with 'did you mean card?' and ended
    a session file there. It clears the screen (nothing to clear in a session file), is
    listed by `help` and appends nothing."""
    before = hildegard.journal_rows()
    run = hildegard("play", input="clear\nhelp\nnote after the clear\n")
    assert (run.code, run.err) == (0, "")
    assert "\x1b[2J" not in run.out  # not a terminal: nothing drawn
    assert "  clear        A clear screen (also Ctrl-L)." in run.out.splitlines()
    assert len(hildegard.journal_rows()[0]) == len(before[0]) + 1  # the note alone
    assert hildegard.json("log")[-1]["payload"]["text"] == "after the clear"


# -- the prompt and the completer, in-process -------------------------------------------

def shell(spire: Spire) -> Shell:
    """A shell on the fixture's journal, as `spire --db FILE play` would make it."""
    import typer
    import typer.main

    from journal.cli import app
    from journal.cli.common import Options

    root = typer.Context(typer.main.get_command(app), info_name="spire")
    root.obj = Options(db=str(spire.db), campaign=None)
    return Shell(root)


def test_a_write_the_lock_refused_leaves_the_shell_writing_after_it(
    hildegard: Spire, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """The shell keeps one connection for its journal: a write refused because another
    writer holds the lock appends nothing and says so in one line (exit 3), and the next
    write, once the lock is let go, goes through on the same connection."""
    import sqlite3

    from journal.cli.common import journals_kept
    from journal.store import engine

    monkeypatch.setattr(engine, "BUSY_TIMEOUT_MS", 50)  # refused at once, not in 5 s
    with journals_kept():
        table = shell(hildegard)
        assert table.execute("gain gold 1") == 0
        other = sqlite3.connect(hildegard.db, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")  # another writer, mid-write
            before = hildegard.journal_rows()
            capsys.readouterr()
            assert table.execute("gain gold 1") == 3
            assert capsys.readouterr().err == (
                "spire: the journal is locked by another writer; try again "
                "(database is locked)\n")
            assert hildegard.journal_rows() == before
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert table.execute("gain gold 1") == 0
        assert table.execute("status") == 0
    assert hildegard.json("status")["resources"]["gold"] == 2


def test_the_prompt_shows_the_encounter_under_way(hildegard: Spire) -> None:
    at_start = shell(hildegard).view()
    assert at_start is not None
    assert status_line(at_start) == "gray-oaks main no card revealed yet | gold 0 | feats 0"
    hildegard.ok("reveal", "26")
    hildegard.ok("target", "Street Merchant")
    hildegard.ok("roll", "c", "c", "r")
    hildegard.ok("stop")
    hildegard.ok("wild", "miss")
    view = shell(hildegard).view()
    assert view is not None
    assert f"{status_line(view)}> " == (
        "gray-oaks main card 26 | Street Merchant: 1 of 2 bullseyes | 1 set done, 1 left> ")


def test_no_campaign_yet_is_a_plain_prompt(spire: Spire) -> None:
    assert shell(spire).prompt() == "spire> "


@pytest.mark.parametrize(("before", "text", "expected"), [
    ("", "ro", ["roll"]),
    ("", "it", ["item"]),
    ("", "ex", ["export", "exit"]),
    ("item ", "", ["gain", "lose", "pass"]),  # `use` is Volume 2's
    ("help ", "sta", ["status"]),
    ("help item ", "l", ["lose"]),
    ("roll ", "cresc", ["crescent"]),
    ("roll crescent ", "R", ["ring"]),
    ("roll c c ", "--f", ["--force"]),
    ("wild ", "wh", ["whoopsie"]),
    ("wild whoopsie ", "", ["--die", "--on", "--face", "--player", "--force"]),
    ("wild instinct --on 2 --face ", "d", ["dot"]),
    ("wild bullseye --die ", "g", ["gray", "gold"]),
    ("feat ", "h", ["hone"]),
    ("target ", "Str", ['"Street Merchant"']),
    ("target ", '"Pes', ['"Pesky Jackalope"']),
    ('target "Street ', "M", ['Merchant"']),
    ("faceoff ", "The", ['"The Crows"']),
    ("faceoff --meter ", "H", ['"Hildegard\'s Hit Meter"']),
    ("item lose ", "sl", ["Slingshot"]),
    ("item pass ", "c", ['"Cursed Key"']),
    ("item pass Slingshot --to ", "", ["Hildegard", "aside"]),
    ("gain ", "f", ["feats"]),
    ("use ", "", ["gray-oaks"]),
    ("lock ", "", ["--player", "--force"]),
    ("fly ", "", []),
    ("", "cle", ["clear"]),
    ("spire ", "sta", ["status"]),
    ("spire rewind ", "", ["start", "--as"]),
    ("switch ", "", ["main"]),
    ("log --branch ", "m", ["main"]),
    ("replay --from ", "st", ["start"]),
    ("new tower --game ", "", ["hildegard", "spires-end", "volume2"]),
    ("new tower -g ", "v", ["volume2"]),
    ("report --format ", "", ["md", "html", "json"]),
    ("report -f ", "h", ["html"]),
])
def test_tab_completes(hildegard: Spire, before: str, text: str, expected: list[str]) -> None:
    hildegard.ok("item", "gain", "Slingshot")
    hildegard.ok("item", "gain", "Cursed Key")
    assert Completer(shell(hildegard)).candidates(before, text) == expected


def test_entered_cards_complete_only_once_met(hildegard: Spire) -> None:
    """Spoiler-safe: a card entered in the catalog is offered once this campaign met it."""
    hildegard.ok("card", "add", "Ogre", "--target", "--number", "140", "--limit", "2",
                 "--accuracy", "3", "--sets", "2", "--parts", "c,r,d")
    complete = Completer(shell(hildegard)).candidates
    assert complete("target ", "Og") == []
    hildegard.ok("reveal", "140")
    assert complete("target ", "Og") == ["Ogre"]


def test_history_lives_beside_the_journal(tmp_path: Path) -> None:
    assert history_file(str(tmp_path / "j.sqlite")) == tmp_path / "j.sqlite.history"
    assert history_file(f"sqlite:///{tmp_path}/j.sqlite") == tmp_path / "j.sqlite.history"
    assert history_file("postgresql://table/spire").name == "play.history"


def test_the_prompt_says_whose_turn_in_each_game(hildegard: Spire, spire: Spire) -> None:
    """Issue 18: campaign, card and whose turn, under 40 characters with its "> ": the
    face-off's enemy roll, Spire's End's enemy turn, Volume 2's ally."""
    def shown(journal: Spire) -> str:
        view = shell(journal).view()
        assert view is not None
        line = f"{prompt(view)}> "
        assert len(line) < 40, line
        return line

    assert shown(hildegard) == "gray-oaks no card> "
    hildegard.ok("reveal", "3")
    hildegard.ok("faceoff", "The Crows")
    assert shown(hildegard) == "gray-oaks card 3, Hildegard's turn> "
    hildegard.ok("roll", "b", "b", "b", "b")
    hildegard.ok("stop")
    hildegard.ok("wild", "miss")
    assert shown(hildegard) == "gray-oaks card 3, The Crows' turn> "

    from test_spires_end_cli import DRAW_MILLICENT, DRAW_OSWIN, OGRE, _play

    _play(spire, f"new tower --game spires-end --players 2\n{DRAW_MILLICENT}\n{DRAW_OSWIN}\n"
                 f"{OGRE}")
    assert shown(spire) == "tower no card, Millicent's turn> "


def test_the_volume2_prompt_names_the_ally_whose_turn_it_is(tmp_path: Path) -> None:
    from test_volume2_encounters import fight, v2

    plains = Spire(tmp_path / "v2.sqlite")
    v2.__wrapped__(plains)  # type: ignore[attr-defined]
    fight(plains)
    view = shell(plains).view()
    assert view is not None
    assert f"{prompt(view)}> " == "plains no card, Finnian's turn> "


def test_the_toolbar_puts_whose_turn_first_and_each_fighter_once(spire: Spire) -> None:
    """Issue 18: a Spire's End fight's bottom line: the turn, then each ally and the enemy
    once (the prompt was 137 characters, an ally twice and the turn missing)."""
    from test_spires_end_cli import DRAW_MILLICENT, DRAW_OSWIN, OGRE, _play

    from journal.cli.prompting import toolbar_line

    _play(spire, f"new tower --game spires-end --players 2\n{DRAW_MILLICENT}\n{DRAW_OSWIN}\n"
                 f"{OGRE}")
    view = shell(spire).view()
    assert view is not None
    line = toolbar_line(view)
    assert line.startswith("main no card revealed yet | Round 1: Millicent's turn")
    assert line.count("Millicent:") == 1 and line.count("Oswin:") == 1 and "Enemy Ogre" in line


def test_tab_completes_spires_end_bars_and_fighters(spire: Spire) -> None:
    """Issue 34, item 8: after `action`, the bars of the ally whose turn it is; after
    `--on`, the fighters; and the current game's faces only (no Hildegard faces)."""
    from test_spires_end_cli import DRAW_MILLICENT, DRAW_OSWIN, OGRE, _play

    _play(spire, f"new tower --game spires-end --players 2\n{DRAW_MILLICENT}\n{DRAW_OSWIN}\n"
                 f"{OGRE}")
    tab = Completer(shell(spire))
    assert tab.candidates("action ", "")[:1] == ['"Back Hand"']
    assert tab.candidates("action ", "B") == ['"Back Hand"']
    assert tab.candidates("action 1 --on ", "") == ["Millicent", "Oswin", "Ogre"]
    assert tab.candidates("roll ", "c") == []          # Hildegard's crescent: not this game's


def _play_file(spire: Spire, path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`spire play ARGS < PATH`, a file as standard input, in a process of its own."""
    with path.open("rb") as given:
        return subprocess.run([sys.executable, "-m", "journal", "--db", str(spire.db), "play",
                               *args], stdin=given, capture_output=True, text=True, check=False,
                              timeout=120)


def test_a_session_file_played_twice_is_refused_unless_again(hildegard: Spire,
                                                             tmp_path: Path) -> None:
    """Issue 34, item 10: a session file run a second time recorded everything again
    without a word (a second bonus feat). It is refused, saying when it was played, with
    nothing appended; --again plays it again; another file, or the same file into another
    campaign, plays."""
    session = tmp_path / "session.txt"
    session.write_text("# the bonus, as we played it\ngain feats 1\nnote the bonus\n")
    first = _play_file(hildegard, session)
    assert first.returncode == 0, first.stderr
    before = hildegard.journal_rows()
    second = _play_file(hildegard, session)
    assert second.returncode == 1 and "Traceback" not in second.stderr
    line, hint = refusal(second.stderr)
    assert line.startswith("spire: this file was played already: #2 to #3 on main, ") \
        and hint == "`spire play --again < FILE` plays it again"
    assert hildegard.journal_rows() == before and hildegard.json("status")["resources"][
        "feats"] == 1
    again = _play_file(hildegard, session, "--again")
    assert again.returncode == 0, again.stderr
    assert hildegard.json("status")["resources"]["feats"] == 2
    session.write_text("gain feats 1\nnote another bonus\n")
    assert _play_file(hildegard, session).returncode == 0       # another file: played
    hildegard.ok("new", "elms", "--game", "hildegard")
    assert _play_file(hildegard, session).returncode == 0       # another campaign: played


def test_a_mended_or_grown_session_file_plays_on_from_where_it_was_played(
    hildegard: Spire, tmp_path: Path,
) -> None:
    """A session file stopped at its third line (a typo); the players mended the line and
    played the file again, and its first two lines were recorded a second time (a
    newcomer's first hour). Its lines played already are refused, nothing appended,
    saying where `--from` plays on; that plays on; a file that grew by a session is
    refused so too; and --from past the file's end is bad input."""
    session = tmp_path / "session.txt"
    session.write_text("note session one\ngain gold 2\nbogus 3\n\ngain feats 1\n")
    stopped = _play_file(hildegard, session)
    assert stopped.returncode == 2 and stopped.stderr.startswith("line 3: "), stopped.stderr
    kept = hildegard.journal_rows()
    session.write_text("note session one\ngain gold 2\ngain gold 1\n\ngain feats 1\n")
    again = _play_file(hildegard, session)
    assert again.returncode == 1 and "Traceback" not in again.stderr
    line, hint = refusal(again.stderr)
    assert line.startswith("spire: lines 1 to 2 were played: #2 to #3 on main, "), line
    assert hint == "`spire play --from 3 < FILE` plays on from line 3; --again plays it all"
    assert hildegard.journal_rows() == kept
    on = _play_file(hildegard, session, "--from", "3")
    assert on.returncode == 0, on.stderr
    status = hildegard.json("status")["resources"]
    assert (status["gold"], status["feats"]) == (3, 1)    # each line recorded once
    assert [e["type"] for e in hildegard.json("log")].count("note-added") == 1
    after = hildegard.journal_rows()
    twice = _play_file(hildegard, session, "--from", "3")     # the same line from history
    assert twice.returncode == 1 and refusal(twice.stderr)[0].startswith(
        "spire: this file was played already: #4 to #5 on main, ")
    assert hildegard.journal_rows() == after
    session.write_text(session.read_text() + "# the next session\nnote session two\n")
    grown = _play_file(hildegard, session)
    assert grown.returncode == 1
    line, hint = refusal(grown.stderr)
    assert line.startswith("spire: lines 1 to 5 were played: #4 to #5 on main, "), line
    assert hint == "`spire play --from 6 < FILE` plays on from line 6; --again plays it all"
    assert hildegard.journal_rows() == after
    past = _play_file(hildegard, session, "--from", "9")
    assert past.returncode == 2 and refusal(past.stderr) == [
        "spire: the file has 7 lines: --from 9 is past its end",
        "`spire play --from LINE < FILE` begins at a line of the file"]
    assert hildegard.journal_rows() == after
    assert _play_file(hildegard, session, "--from", "6").returncode == 0
    assert hildegard.json("log")[-1]["payload"]["text"] == "session two"
