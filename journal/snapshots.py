"""Snapshots: projected state cached by (branch, position, projection version).

Always disposable: a snapshot only saves folding the events before it. One of another
projection version is ignored; deleting them all changes no answer.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from typing import Any

from pydantic import TypeAdapter

from journal.state import State

SNAPSHOT_EVERY = 200
"""Fold at most this many events past the latest snapshot before saving a new one."""


@cache
def _core() -> TypeAdapter[State]:
    return TypeAdapter(State)


def _game_types() -> dict[str, TypeAdapter[Any]]:
    from journal.games.hildegard.state import Hildegard
    from journal.games.spires_end.state import SpiresEnd

    return {"hildegard": TypeAdapter(Hildegard), "spiresend": TypeAdapter(SpiresEnd)}


def encode(state: State) -> str:
    """A state as JSON text: the core state, and the game's own state beside it."""
    game = state.game_state
    kind = next((k for k, a in _game_types().items() if game is not None and
                 type(game).__name__.casefold() == k), None)
    core = _core().dump_python(replace(state, game_state=None), mode="json")
    extra = _game_types()[kind].dump_python(game, mode="json") if kind else None
    return json.dumps({"core": core, "game": kind, "game_state": extra}, separators=(",", ":"))


def decode(text: str) -> State:
    data = json.loads(text)
    state = _core().validate_python(data["core"])
    if data.get("game"):
        game = _game_types()[data["game"]].validate_python(data["game_state"])
        state = replace(state, game_state=game)
    return state
