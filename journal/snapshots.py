"""Snapshots: projected state cached by (branch, position, projection version).

Always disposable: a snapshot only saves folding the events before it. One of another
projection version is ignored; deleting them all changes no answer.
"""

from __future__ import annotations

import importlib
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


GAME_STATES = {
    "hildegard": ("journal.games.hildegard.state", "Hildegard"),
    "spiresend": ("journal.games.spires_end.state", "SpiresEnd"),
    "volume2": ("journal.games.volume2.state", "Volume2"),
}
"""Each game's own state class, by the name a snapshot records (imported only when used)."""


@cache
def _game_type(kind: str) -> TypeAdapter[Any]:
    module, name = GAME_STATES[kind]
    return TypeAdapter(getattr(importlib.import_module(module), name))


def encode(state: State) -> str:
    """A state as JSON text: the core state, and the game's own state beside it."""
    game = state.game_state
    kind = type(game).__name__.casefold() if game is not None else None
    if kind is not None and kind not in GAME_STATES:
        raise ValueError(f"no snapshot for a {type(game).__name__} state")
    core = _core().dump_python(replace(state, game_state=None), mode="json")
    extra = _game_type(kind).dump_python(game, mode="json") if kind else None
    return json.dumps({"core": core, "game": kind, "game_state": extra}, separators=(",", ":"))


def decode(text: str) -> State:
    data = json.loads(text)
    state = _core().validate_python(data["core"])
    if data.get("game"):
        game = _game_type(data["game"]).validate_python(data["game_state"])
        state = replace(state, game_state=game)
    return state
