"""The history the table's screen browses (journal/service/browse.py): the table after any
event of a branch is the one `spire replay` shows at that step, the undone events marked,
whichever event was asked for before (the states a walk keeps are reused, and dropped
when the branch moves); a position the branch does not hold is bad input."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from conftest import Spire, play

from journal.core.timeline import digest
from journal.errors import BadInput
from journal.service.browse import Walks
from journal.service.reading import Reading

SESSION = ("target 'Street Merchant'", "roll c c r", "lock 1", "undo", "lock 1 2",
           "roll r", "note 'the merchant flinched'", "checkpoint before-the-alley",
           "reveal 5", "undo", "reveal 6", "undo", "redo", "wild miss")


def _replay(spire: Spire, *args: str) -> list[dict[str, Any]]:
    """`spire replay --json`: a step a line."""
    return [json.loads(line) for line in spire.ok("replay", *args, "--json").splitlines()]


def _walks(spire: Spire, stride: int) -> Walks:
    return Walks(Reading(spire.url), stride=stride)


def test_each_moment_is_the_step_replay_shows(hildegard: Spire) -> None:
    play(hildegard, *SESSION)
    steps = _replay(hildegard)
    walks = _walks(hildegard, stride=3)  # states kept at #3, #6...: most moments reuse one
    order = list(range(1, len(steps) + 1))
    random.Random(7).shuffle(order)
    for position in order:
        moment = walks.moment(None, position)
        step = steps[position - 1]
        assert (moment.position, moment.recorded.type) == (step["seq"], step["type"])
        assert digest(moment.state) == step["state_digest"], position
        assert list(moment.changes) == step["changes"], position
        assert (position in moment.undone) == step["retracted"]
        assert position in [r.position for r in moment.around]


def test_a_branch_rewound_from_a_checkpoint_is_walked_through_its_parent(
        hildegard: Spire) -> None:
    play(hildegard, *SESSION, "rewind before-the-alley --as alley", "reveal 9")
    steps = _replay(hildegard)  # the current branch: alley
    walks = _walks(hildegard, stride=2)
    for step in steps:
        moment = walks.moment("alley", step["seq"])
        assert digest(moment.state) == step["state_digest"]
    assert walks.moment("alley", None).recorded.type == "card-revealed"  # its head
    assert digest(walks.moment("main", None).state) == _replay(
        hildegard, "--branch", "main")[-1]["state_digest"]


def test_a_branch_that_moved_is_walked_afresh(hildegard: Spire) -> None:
    play(hildegard, *SESSION)
    walks = _walks(hildegard, stride=2)
    walks.moment(None, None)
    play(hildegard, "undo")  # the head moves: an undo the states kept know nothing of
    steps = _replay(hildegard)
    moment = walks.moment(None, None)
    assert digest(moment.state) == steps[-1]["state_digest"]
    assert moment.position - 1 in moment.undone


STRIDE_ANY = 4
"""A stride for a test the states kept do not matter to."""


@pytest.mark.parametrize("position", [0, -1, 99])
def test_a_position_the_branch_does_not_hold_is_bad_input(hildegard: Spire,
                                                          position: int) -> None:
    play(hildegard, *SESSION)
    with pytest.raises(BadInput, match="holds events #1 to #"):
        _walks(hildegard, STRIDE_ANY).moment(None, position)

