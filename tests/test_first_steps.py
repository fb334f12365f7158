"""A newcomer's first steps (issue 34): bare `spire` fits a screen, the demo shows what to
type, a mistyped name gets its closest match, and a rewind or switch says how to go back."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from conftest import CliRunner, Spire
from test_play import Terminal

from journal import __version__
from journal.cli import app
from journal.cli.index import COMMANDS


def _bare(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "80"})
    return result.exit_code, result.stdout, result.stderr


# -- 3. bare `spire`, `-V` -------------------------------------------------------------------

def test_bare_spire_fits_one_screen_and_points_to_spire_help() -> None:
    code, out, err = _bare()
    lines = out.splitlines()
    assert (code, err) == (0, "")
    assert len(lines) <= 22, out  # a 24-row terminal, with the prompt before and after
    assert max(len(line) for line in lines) <= 80, out
    assert out.splitlines()[-1] == ("`spire help` lists every command, and `spire help COMMAND` "
                                    "tells one.")
    named = [line.split()[0] for line in lines if line.startswith("   ")]
    assert {"new", "demo", "play", "status", "undo", "rewind"} <= set(named)
    assert set(named) <= set(COMMANDS), "it names only commands there are"
    assert len(_bare("help")[1].splitlines()) > 3 * len(lines), "`spire help` lists them all"


def test_bare_spire_with_a_journal_named_is_the_same_screen(spire: Spire) -> None:
    assert spire.ok() == _bare()[1]
    assert spire.journal_rows() == ((), (), ()), "nothing made by looking"


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_dash_capital_v_is_the_version(flag: str) -> None:
    assert _bare(flag) == (0, f"spire {__version__}\n", "")


# -- 9. a mistyped value gets its closest match; click's and pydantic's words in spire's -----

def test_a_mistyped_branch_gets_its_closest_match(hildegard: Spire) -> None:
    hildegard.ok("rewind", "start", "--as", "bolder")
    line = hildegard.refused("switch", "mian", code=2)
    assert line.endswith("no branch named 'mian'; did you mean 'main'?"), line
    line = hildegard.refused("switch", "bolde", code=2)
    assert line.endswith("did you mean 'bolder'?"), line


def test_a_branch_far_from_any_is_listed_instead(hildegard: Spire) -> None:
    line = hildegard.refused("switch", "elsewhere", code=2)
    assert line.endswith("no branch named 'elsewhere'\n`spire branches` lists them"), line


def test_a_mistyped_campaign_gets_its_closest_match(hildegard: Spire) -> None:
    line = hildegard.refused("use", "gray-oak", code=2)
    assert line == "spire: no campaign named 'gray-oak'; did you mean 'gray-oaks'?"
    line = hildegard.refused("--campaign", "grey-oaks", "status", code=2)
    assert line == "spire: no campaign named 'grey-oaks'; did you mean 'gray-oaks'?"


def test_a_mistyped_checkpoint_gets_its_closest_match(hildegard: Spire) -> None:
    hildegard.ok("checkpoint", "before-the-bridge")
    line = hildegard.refused("rewind", "before-the-brige", code=2)
    assert "no checkpoint named 'before-the-brige' on this branch\ndid you mean " \
        "'before-the-bridge'?" in line, line
    line = hildegard.refused("rewind", "strat", code=2)
    assert "did you mean 'start'?" in line, line


@pytest.mark.parametrize(("args", "line"), [
    (["rol", "c"], "spire: no such command 'rol'; did you mean 'roll'?"),
    (["stauts"], "spire: no such command 'stauts'; did you mean 'status'?"),
    (["frobnicate"], "spire: no such command 'frobnicate'; `spire help` lists them"),
    (["reveal", "abc"], "spire: invalid value for 'N': 'abc' is not a whole number"),
    (["new", "x", "--game", "hildegard", "--players", "two"],
     "spire: invalid value for '--players' / '-p': 'two' is not a whole number"),
    (["reveal"], "spire: missing argument 'N'; `spire reveal --help` shows an example"),
    (["new", "elms"], "spire: missing option '--game' / '-g'; `spire new --help` shows an "
     "example"),
    (["card", "add"], "spire: missing argument 'NAME'; `spire card add --help` shows an "
     "example"),
    (["reveal", "-3"], "spire: -3 reads as an option: no number below zero is taken here"),
    (["gain", "gold", "-2"], "spire: -2 reads as an option: no number below zero is taken here"),
    (["status", "--jsn"], "spire: no such option: --jsn; did you mean --json?"),
    (["status", "--zzz"], "spire: no such option: --zzz; `spire status --help` lists them"),
    (["reveal", "0"], "spire: invalid value for 'N': 0 is below 1"),
    (["log", "--last", "-1"], "spire: invalid value for '--last' / '-n': -1 is below 0"),
    (["wild", "bullseye", "--player", "3"], "spire: invalid value for '--player': 3 is above 2"),
])
def test_clicks_and_pydantics_words_read_as_spires(
    hildegard: Spire, args: list[str], line: str,
) -> None:
    assert hildegard.refused(*args, code=2) == line


def test_a_mistyped_verb_is_matched_among_the_campaigns_games_verbs_too(spire: Spire) -> None:
    # typer's own suggestion knows only the core's commands: in Spire's End, `recop`
    # (one letter from the game's `recoup`) was answered with the core's `redo`.
    spire.ok("new", "ogre", "--game", "spires-end")
    assert spire.refused("recop", "heal", "3", code=2) == (
        "spire: no such command 'recop'; did you mean 'recoup'?")
    assert spire.refused("redp", code=2) == "spire: no such command 'redp'; did you mean 'redo'?"


def test_the_shell_says_a_mistyped_command_in_spires_words(hildegard: Spire) -> None:
    run = hildegard("play", input="rol c c r\n")
    assert (run.code, run.err) == (2, "line 1: no such command 'rol'; did you mean 'roll'?\n")


def test_the_shell_says_how_to_go_back_without_spire(hildegard: Spire) -> None:
    run = hildegard("play", input="rewind start --as other\nswitch other\n")
    assert run.code == 0, run.err
    assert run.out.splitlines()[0] == ("Now on branch 'other', forked at #1 (start); "
                                       "`switch main` goes back.")
    assert "Now on branch 'other' at #1, as it was." in run.out


# -- 11. rewind and switch say what they did and how to go back -------------------------------

def test_rewind_and_switch_say_how_to_go_back(hildegard: Spire) -> None:
    """Said as typed here: with `spire` on the command line, without it in the shell."""
    hildegard.ok("reveal", "1")
    out = hildegard.ok("rewind", "start")
    assert out.splitlines()[0] == ("Now on branch 'from-start', forked at #1 (start); "
                                   "`spire switch main` goes back.")
    out = hildegard.ok("switch", "main")
    assert out.splitlines()[0] == ("Now on branch 'main' at #2; `spire switch from-start` goes "
                                   "back.")
    out = hildegard.ok("switch", "main")
    assert out.splitlines()[0] == "Now on branch 'main' at #2, as it was."


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_a_rewind_from_a_half_typed_completion_says_how_to_go_back(
    hildegard: Spire, tmp_path: Path,
) -> None:
    """The newcomer's trap: `rewind ` offers `start`, `sta` meant `status`, Enter forked a
    branch; the shell says so in one line of an 80-column terminal, and how to go back."""
    hildegard.ok("reveal", "1")
    terminal = Terminal("--db", str(hildegard.db), "play", cwd=tmp_path, columns=80)
    try:
        terminal.expect("gray-oaks card 1>")
        terminal.type("rewind sta\t")
        terminal.settle()
        terminal.type("\r")
        said = terminal.expect("goes back.")
        line = said.splitlines()[-1].strip()
        assert line == "Now on branch 'from-start', forked at #1 (start); `switch main` goes back."
        assert len(line) <= 80
        terminal.expect("gray-oaks/from-start no card>")
        terminal.type("switch main\r")
        said = terminal.expect("goes back.")
        assert said.splitlines()[-1].strip() == (
            "Now on branch 'main' at #2; `switch from-start` goes back.")
        terminal.expect("gray-oaks card 1>")
        terminal.type("exit\r")
        assert terminal.close() == 0
    finally:
        terminal.kill()
    assert hildegard.json("status")["branch"] == "main"


# -- 2. the demo shows what is typed ----------------------------------------------------------

def _typed(out: str) -> list[tuple[str, str]]:
    """The demo's output as (command line, the answer printed under it)."""
    blocks: list[tuple[str, list[str]]] = []
    taking = False
    for line in out.splitlines():
        if line.startswith("$ spire "):
            blocks.append((line.removeprefix("$ spire "), []))
            taking = True
        elif not line:
            taking = False
        elif taking:
            blocks[-1][1].append(line)
    return [(typed, "\n".join(answer).strip()) for typed, answer in blocks]


def test_the_demo_shows_each_command_typed_then_its_answer(spire: Spire) -> None:
    out = spire.ok("demo")
    typed = _typed(out)
    lines = [line for line, _ in typed]
    assert lines[:4] == ["new demo --game hildegard", "reveal 1",
                         "item gain Slingshot --kind story", 'target "Street Merchant"']
    assert "roll crescent crescent ring" in lines and "undo" in lines
    answers = dict(typed)
    assert answers["reveal 1"].startswith("#2 Revealed card 1")
    assert out.splitlines()[0] == (f"Playing the demo into {spire.db}, as the campaign 'demo', "
                                   "now the current one.")
    spire_ = f"spire --db {spire.db}"
    assert out.splitlines()[-4:] == [
        "Next:",
        f"  {spire_} status               where it stands",
        f"  {spire_} play                 a shell to type them in",
        f"  {spire_} report -o demo.html  the story, as a page"]


@pytest.mark.parametrize(("typed", "campaign", "stands"), [
    ((), "demo", "Face-off, round 2: The Crows 3/7 | meter XXX...."),
    (("--game", "spires-end"), "demo-spires-end", "Round 3: Oswin's turn, action or rest next"),
], ids=["hildegard", "spires-end"])
def test_the_demo_played_again_says_where_it_stands_and_what_next(
    spire: Spire, typed: tuple[str, ...], campaign: str, stands: str,
) -> None:
    spire.ok("demo", *typed)
    head = spire.json("status")["head"]
    again = spire.ok("demo", *typed)
    assert again.startswith(f"The demo campaign {campaign!r} is already in this journal; "
                            "here it is.")
    assert stands in again.splitlines(), again
    assert "$ spire" not in again and again.splitlines()[-4] == "Next:"
    assert spire.json("status")["head"] == head, "shown, not played again"


def test_the_demo_in_the_default_journal_names_it(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["demo"], env={"XDG_DATA_HOME": str(tmp_path),
                                                    "COLUMNS": "80", "SPIRE_DB": None})
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == (f"Playing the demo into {tmp_path / 'spire' / 'journal.sqlite'}, as "
                        "the campaign 'demo', now the current one.")
    assert lines[-3:] == ["  spire status               where it stands",
                          "  spire play                 a shell to type them in",
                          "  spire report -o demo.html  the story, as a page"]



@pytest.mark.parametrize(("game", "first"), [("hildegard", ()), ("spires-end", ()), ("volume2", (
    "card add Dunstan --ally --hp 6 --ap 2 --combo 'Double Shot: black white: 2 damage'",
    "card add Finnian --ally --hp 5 --ap 3 --recoup 1",
    "card add 'Wade Slocum' --enemy --hp 8 --ap 2 --ferocity 1 --attacks 1 --retreat 3"))],
    ids=["hildegard", "spires-end", "volume2"])
def test_every_command_the_demo_shows_prints_that_answer_when_typed(
    new_journal: object, game: str, first: tuple[str, ...], tmp_path: Path,
) -> None:
    """Typed into a fresh journal, one by one, each line the demo shows prints what the
    demo printed under it (a made-up card of Volume 2's entered first: the demo itself
    enters none; Spire's End's are typed inline, on its `draw` and `fight` lines)."""
    shown = Spire(tmp_path / "demo.sqlite")
    typed = _typed(shown.ok("demo", "--game", game))
    table = Spire(tmp_path / "typed.sqlite")
    (new, begun), *rest = typed
    assert table.ok(*shlex.split(new)).strip() == begun
    for line in first:
        table.ok(*shlex.split(line))
    for line, answer in rest:
        assert table.ok(*shlex.split(line)).strip() == answer, line
    assert [(e["type"], e["payload"]) for e in table.json("log")] == [
        (e["type"], e["payload"]) for e in shown.json("log")]
