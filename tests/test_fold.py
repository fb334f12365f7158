"""The replay's shortcuts change no answer: a state object made without `__init__` is the
one `__init__` makes, a streamed replay of a long Hildegard campaign (targets, sets,
tallies, rewards) is the fold of its events as `read` returns them, and the fold gives the
states the fold gave before the shortcuts (tests/golden/fold-states.json, made with the
code of 084941e: after each of the first 41 events, five turns of the Street Merchant with
its sets, wild shots, tallies and rewards, and after the 2,000th)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from journal.core import shown
from journal.core.state import make, project
from journal.games.hildegard.cards import TargetCard
from journal.games.hildegard.state import Hildegard, NextSet, ShotSet, Tally, Target, new_set, roll
from journal.service.journal import Journal

sys.path.insert(0, str(Path(__file__).parent / "bench"))
from journal_gen import STREET_MERCHANT, build

CARD = TargetCard.model_validate(STREET_MERCHANT)


@pytest.mark.parametrize(("cls", "fields"), [
    (Tally, {"made": 2, "gained": (("feats", 1),), "bonus_before": False, "ended": True}),
    (Target, {"card": CARD, "shooter": "Hildegard", "sets_allowed": 2}),
    (Target, {"card": CARD, "shooter": "Hildegard", "sets_allowed": 2, "bullseyes": 3}),
])
def test_make_is_the_constructor(cls: type, fields: dict[str, Any]) -> None:
    made = make(cls, **fields)
    assert made == cls(**fields)
    assert vars(made) == vars(cls(**fields))


def test_make_refuses_a_class_with_a_default_factory() -> None:
    with pytest.raises(TypeError, match="default factory"):
        make(Hildegard)


@pytest.mark.parametrize("effects", [NextSet(), NextSet(hone=1), NextSet(flub=3),
                                     NextSet(graze=True), NextSet(tame=True, flub=1)])
@pytest.mark.parametrize("faces", [(), ("dot",), ("crescent", "ring", "blank")])
def test_a_new_set_rolled_at_once_is_a_new_set_then_rolled(
    effects: NextSet, faces: tuple[Any, ...],
) -> None:
    unrolled = new_set("Hildegard", 2, effects)
    assert unrolled == ShotSet("Hildegard", max(2 + effects.hone - effects.flub, 0),
                               tame=effects.tame, graze=effects.graze)
    assert new_set("Hildegard", 2, effects, faces) == roll(unrolled, faces)


def test_a_streamed_replay_is_the_fold_of_the_events_read(tmp_path: Path) -> None:
    db = tmp_path / "long.sqlite"
    build(db, 2_000)
    journal = Journal(str(db))
    state = journal.read.replays.rebuild()
    branch = journal.store.tree.branch(journal.read.campaign())
    assert state == project(journal.store.log.read(branch))
    assert state.resources["feats"] > 0 and state.game_state.finished


GOLDEN = Path(__file__).parent / "golden" / "fold-states.json"


def test_the_fold_gives_the_states_it_gave_before_the_shortcuts(tmp_path: Path) -> None:
    db = tmp_path / "long.sqlite"
    build(db, 2_000)
    journal = Journal(str(db))
    events = journal.store.log.read(journal.store.tree.branch(journal.read.campaign()))

    def seen(n: int) -> dict[str, Any]:
        data = shown.state_json(project(events[:n]))
        return data | {"cards_seen": len(data["cards_seen"])}

    states = {str(n): seen(n) for n in [*range(1, 42), 2_000]}
    if os.environ.get("SPIRE_UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(states, indent=1, sort_keys=True) + "\n")
    golden = json.loads(GOLDEN.read_text())
    for n, state in states.items():
        assert state == golden[n], f"the state after event {n} differs; run with " \
            f"SPIRE_UPDATE_GOLDEN=1 to accept a change the projection meant to make"
