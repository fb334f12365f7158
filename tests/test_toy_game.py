"""A game no one ships proves the seam (issue 30, item 6): Coin Tally (tests/toygame/, a
deck, one counter, one event and one rule) is registered from the test, and the core's
commands keep it with no change outside its own package.

Each command runs `spire` in a process of its own, with the game registered before the
command line starts, as a fan's variant would be: nothing of it leaks into the other
tests' games.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import refusal

TESTS = Path(__file__).parent
LAUNCH = ("import sys; from journal.games import register; register('tally', 'toygame'); "
          "from journal.process import main; sys.argv[0] = 'spire'; main()")


class Toy:
    """`spire --db FILE ...` with Coin Tally registered."""

    def __init__(self, db: Path) -> None:
        self.db = db

    def __call__(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])]), "COLUMNS": "80"}
        return subprocess.run([sys.executable, "-c", LAUNCH, "--db", str(self.db), *args],
                              capture_output=True, text=True, env=env, timeout=120,
                              check=False)

    def ok(self, *args: str) -> str:
        run = self(*args)
        assert run.returncode == 0, f"spire {' '.join(args)} -> {run.returncode}: {run.stderr}"
        return run.stdout

    def json(self, *args: str) -> dict:
        found: dict = json.loads(self.ok(*args, "--json"))
        return found

    def refused(self, *args: str, code: int) -> str:
        before = self.rows()
        run = self(*args)
        assert run.returncode == code, (run.returncode, run.stdout, run.stderr)
        assert self.rows() == before, "a refused command appended"
        assert "Traceback" not in run.stderr, run.stderr
        return "\n".join(refusal(run.stderr))

    def rows(self) -> tuple:
        with sqlite3.connect(self.db) as conn:
            return (tuple(conn.execute("SELECT branch_id, position, hash FROM events")),
                    tuple(conn.execute("SELECT id, head_position FROM branches")))


@pytest.fixture
def toy(tmp_path: Path) -> Toy:
    toy = Toy(tmp_path / "toy.sqlite")
    assert "Started 'coins'" in toy.ok("new", "coins", "--game", "tally")
    return toy


def test_the_core_commands_keep_a_game_no_one_ships(toy: Toy, tmp_path: Path) -> None:
    toy.ok("reveal", "1")
    assert "Tossed the coin: heads" in toy.ok("toss", "heads")
    # "Toss the coin once per card." (The Coin): refused, then forced on the record
    assert "tossed on card 1 already\nrulebook: The Coin;" in toy.refused(
        "toss", "tails", code=1)
    assert "override recorded" in toy.ok("toss", "tails", "--force")
    toy.ok("gain", "coins", "2")
    status = toy.json("status")
    assert (status["game"], status["card"], status["resources"]) == ("tally", 1, {"coins": 3})
    assert (status["heads"], status["tails"], status["head"]) == (1, 1, 5)
    assert len(status["overrides"]) == 1

    assert "Undid #5" in toy.ok("undo")
    assert toy.json("status")["resources"] == {"coins": 1}
    assert "Redone: +2 coins" in toy.ok("redo")
    toy.ok("checkpoint", "tossed")
    toy.ok("reveal", "2")
    assert "Tossed the coin: tails" in toy.ok("toss", "tails")  # a new card, a new toss
    assert "forked at #7" in toy.ok("rewind", "tossed", "--as", "again")
    assert toy.json("status")["card"] == 1
    assert "Tossed the coin: heads" in toy.ok("replay", "--branch", "main")

    audit = toy.ok("audit", "--all")
    assert "every event keeps the rules" in audit
    assert "the coin was tossed on card 1 already" in audit  # the override, shown
    assert "every branch folds to what the journal serves" in toy.ok("replay", "--verify")

    report = json.loads(toy.ok("report", "--format", "json", "--branch", "main"))
    assert report["campaign"]["title"] == "Coin Tally"
    [coin] = report["dice"]["kinds"]
    assert (coin["die"], {f["face"]: f["count"] for f in coin["faces"]}) == (
        "coin", {"heads": 1, "tails": 2})
    assert "Coin Tally, 1 player" in toy.ok("report", "--branch", "main")

    exported = tmp_path / "coins.jsonl"
    toy.ok("export", "-o", str(exported))
    assert "Imported" in toy.ok("import", str(exported), "--name", "coins-2")
    copied = toy.json("status")
    assert (copied["campaign"], copied["branch"], copied["tails"]) == ("coins-2", "main", 2)
    assert "Clean" in toy.ok("audit", "--all")


def test_its_verbs_are_its_own(toy: Toy, tmp_path: Path) -> None:
    """The game's verb is listed under its panel, other games' verbs are refused in it,
    and its verb is refused in another game's campaign."""
    assert "Coin Tally:\n  toss" in toy.ok("help")
    assert "Hildegard and Volume 2 have it" in toy.refused("roll", code=2)
    assert "heads or tails, not 'edge'" in toy.refused("toss", "edge", code=2)
    assert "Coin Tally has no odds to weigh" in toy.refused("odds", code=1)
    toy.ok("new", "oaks", "--game", "hildegard")
    assert "`toss` is not a Hildegard command: Coin Tally has it" in toy.refused(
        "toss", "heads", code=2)


def test_a_game_without_a_demo_is_refused_by_spire_demo(toy: Toy) -> None:
    """A game's `demo` module is optional (journal/games/packages.py): Coin Tally has none,
    so `spire demo` names the games that have one, and does not list it."""
    assert "the demo plays hildegard, spires-end or volume2, not 'tally'" in toy.refused(
        "demo", "--game", "tally", code=2)
    assert "tally" not in [line.split(":")[0] for line in toy.ok("demo", "--list").splitlines()]
