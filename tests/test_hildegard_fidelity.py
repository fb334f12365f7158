"""Issue 31, Hildegard: where spire's score still differed from the rulebook (the third
reading, shared/reviews/rules-hildegard-se.md N1, N2, N5, N6, N8, and several enemies'
bullseyes past a limit).

Each test quotes the rulebook sentence it follows (rulebooks/hildegard.txt) and plays its
case through the real CLI against a journal file. A refusal exits 1 in one line with the
journal unmoved; `--force` records it as an override, and the audit lists it.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

from conftest import Spire, quoted


def play(spire: Spire, *commands: str) -> str:
    """Run each command (shell words); return the last one's output."""
    out = ""
    for command in commands:
        out = spire.ok(*shlex.split(command))
    return out


def refused(spire: Spire, command: str, code: int = 1) -> str:
    return spire.refused(*shlex.split(command), code=code)


def rulebook(*sentences: str) -> None:
    quoted("hildegard", *sentences)


def encounter(spire: Spire) -> Any:
    return spire.json("status")["encounter"]


def enemies(spire: Spire) -> dict[str, int]:
    return {e["name"]: e["bullseyes"] for e in encounter(spire)["enemies"]}


def gold(spire: Spire) -> int:
    return int(spire.json("status")["resources"]["gold"])


def overridden(spire: Spire) -> list[dict[str, Any]]:
    """The audit's legality findings: each forced step, re-decided by today's rules."""
    run = spire("audit", "--json")
    return [f for f in json.loads(run.out)["findings"] if f["kind"] == "legality"]


# -- N1: two enemies of one name ----------------------------------------------------------

SPLIT = ("Important: If there are multiple enemies, you DO NOT get a Set against each of "
         "them, although your rolls can be split up however you like.")
CARDS = "When this occurs Hildegard's Hit Meter Card will be revealed, along with an Enemy Card (or cards)."
WOLF = 'card add Wolf --enemy --limit 2 --accuracy 2 --parts c,r,d --reward "1 gold"'


def test_n1_two_enemies_of_one_name_are_told_apart(hildegard: Spire) -> None:
    rulebook(SPLIT, CARDS)
    out = play(hildegard, WOLF, "faceoff Wolf Wolf")
    assert "Face-off against Wolf 1 (2 bullseyes), Wolf 2 (2 bullseyes)" in out
    assert list(enemies(hildegard)) == ["Wolf 1", "Wolf 2"]
    out = play(hildegard, "roll c c r d", 'assign "Wolf 2" 1')
    assert "this round: 1 bullseye on Wolf 1, 1 bullseye on Wolf 2" in out
    play(hildegard, "stop", "wild miss")
    assert encounter(hildegard)["outcome"] is None      # 2 bullseyes defeat neither alone
    play(hildegard, "roll b b")
    assert enemies(hildegard) == {"Wolf 1": 1, "Wolf 2": 1}
    assert gold(hildegard) == 0


def test_n1_each_of_two_pups_is_defeated_by_a_bullseye_of_its_own(hildegard: Spire) -> None:
    rulebook(SPLIT)
    play(hildegard, WOLF.replace("Wolf", "Pup").replace("--limit 2", "--limit 1"),
         "faceoff Pup Pup", "roll c c b b", "stop", "wild miss")
    assert (encounter(hildegard)["outcome"], gold(hildegard)) == (None, 0)   # one bullseye
    play(hildegard, "undo", "undo", "lock 1 2", "roll c c", 'assign "Pup 2" 1')
    out = play(hildegard, "wild miss")
    assert "Pup 1 1/1, Pup 2 1/1" in out and "face-off won" in out
    assert gold(hildegard) == 2                       # each card's reward, once
