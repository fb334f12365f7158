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

from journal.core.state import State

SNAPSHOT_EVERY = 200
"""Fold at most this many events past the latest snapshot before saving a new one."""


@cache
def _core() -> TypeAdapter[State]:
    return TypeAdapter(State)


@cache
def _game_type(kind: str, game: str) -> TypeAdapter[Any]:
    """The game state class a snapshot names (its class's name, casefolded), from the game
    whose state module keeps it as `STATE`: the campaign's `game` asked first, so a write
    in a Volume 2 campaign imports no other game's state, events and cards (issue 33)."""
    from journal.games import names
    from journal.games.packages import package_of

    for name in dict.fromkeys([*(g for g in names() if g == game), *names()]):
        found: type[Any] = package_of(name).module("state").STATE
        if found.__name__.casefold() == kind:
            return TypeAdapter(found)
    raise ValueError(f"no snapshot for a {kind} state")


def encode(state: State) -> str:
    """A state as JSON text: the core state, and the game's own state beside it."""
    game = state.game_state
    kind = type(game).__name__.casefold() if game is not None else None
    core = _core().dump_python(replace(state, game_state=None), mode="json")
    extra = _game_type(kind, state.game).dump_python(game, mode="json") if kind else None
    return json.dumps({"core": core, "game": kind, "game_state": extra}, separators=(",", ":"))


def decode(text: str) -> State:
    data = json.loads(text)
    state = _core().validate_python(data["core"])
    if data.get("game"):
        game = _game_type(data["game"], state.game).validate_python(data["game_state"])
        state = replace(state, game_state=game)
    return state
