"""The lists of commands read whole in an 80-column terminal: `spire --help` (every game's
panel), `spire help` in a campaign (its game's panel and the core's), the play shell's
`help`, and a group's `--help` (`spire card --help`: its list; an example there is shown
as typed, however wide). A command's summary is the first sentence of its help, short
enough to be shown whole: a list that cut it at "..." left a newcomer reading
half-sentences (63 of about 80 in `spire --help` were cut). Each is run as the real
`spire`, in a process of its own, with COLUMNS=80."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CliRunner
from ptys import on_pipes

from journal.cli import app
from journal.cli.dispatch import index
from journal.games import GAMES

pytestmark = pytest.mark.slow  # (each test runs spire in processes of its own)

COLUMNS = 80
SHIPPED = [game for game, package in GAMES.items() if package.startswith("journal.games.")]
"""The games spire ships (a test may register one of its own in this process)."""


def _spire(*args: str, db: Path, input: str | None = None) -> str:
    """What `spire ARGS` prints on a pipe, at COLUMNS=80, on the journal `db`."""
    code, out, err = on_pipes(
        *args, env={"COLUMNS": str(COLUMNS), "SPIRE_DB": str(db), "SPIRE_CAMPAIGN": None},
        input=None if input is None else input.encode())
    assert code == 0, err.decode()
    return out.decode()


def _campaign(tmp_path: Path, game: str) -> Path:
    """A journal whose current campaign plays `game`."""
    db = tmp_path / f"{game}.sqlite"
    made = CliRunner().invoke(app, ["--db", str(db), "new", "here", "--game", game])
    assert made.exit_code == 0, made.stderr
    return db


def listed(out: str) -> dict[str, list[str]]:
    """The rows of each list of commands in `out`: the lines under a heading (`Time:`,
    `Commands:`) up to a blank line or the next heading; not the options."""
    rows: dict[str, list[str]] = {}
    heading = None
    for line in out.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            heading = line[:-1]
            rows.setdefault(heading, [])
        elif not line.strip():
            heading = None
        elif heading is not None and heading != "Options" and line.startswith("  "):
            rows[heading].append(line)
    return {heading: lines for heading, lines in rows.items() if lines}


def assert_whole(out: str, *, lists: int = 1, every_line: bool = True) -> None:
    """Every line of `out` fits 80 columns (only the lists' rows, if not `every_line`),
    and every row of its lists of commands is a name and a whole sentence: none cut with
    "...", none wrapped onto a second line."""
    found = listed(out)
    assert len(found) >= lists, out
    rows = [line for lines in found.values() for line in lines]
    wide = [line for line in (out.splitlines() if every_line else rows) if len(line) > COLUMNS]
    assert not wide, f"wider than {COLUMNS} columns:\n" + "\n".join(wide)
    cut = [line for line in rows if line.rstrip().endswith("...")]
    assert not cut, "summaries cut short:\n" + "\n".join(cut)
    unfinished = [line for line in rows if len(line.split(maxsplit=1)) < 2
                  or not line.rstrip().endswith((".", ".)"))]
    assert not unfinished, "rows that are not a name and a sentence:\n" + "\n".join(unfinished)


def test_spire_help_with_no_journal_shows_every_summary_whole(tmp_path: Path) -> None:
    out = _spire("--help", db=tmp_path / "none.sqlite")
    assert_whole(out, lists=4 + len(SHIPPED))
    assert not (tmp_path / "none.sqlite").exists()
    for game in SHIPPED:
        assert f"{index(game).PANEL}:" in out


@pytest.mark.parametrize("game", SHIPPED)
def test_spire_help_in_a_campaign_shows_every_summary_whole(tmp_path: Path, game: str) -> None:
    out = _spire("help", db=_campaign(tmp_path, game))
    assert_whole(out, lists=5)
    assert f"{index(game).PANEL}:" in out


@pytest.mark.parametrize("game", SHIPPED)
def test_the_shells_help_shows_every_summary_whole(tmp_path: Path, game: str) -> None:
    out = _spire("play", db=_campaign(tmp_path, game), input="help\n")
    assert_whole(out, lists=6)
    assert f"{index(game).PANEL}:" in out and "In the shell:" in out


@pytest.mark.parametrize("game", SHIPPED)
def test_a_groups_help_shows_every_summary_whole(tmp_path: Path, game: str) -> None:
    db = _campaign(tmp_path, game)
    groups = {"card", "item", "branch"} | {path.split()[0] for path in index(game).COMMANDS
                                           if " " in path}
    for group in sorted(groups):
        out = _spire(group, "--help", db=db)
        assert "Commands:" in out, group
        assert_whole(out, every_line=False)  # an example may be wider, as typed
