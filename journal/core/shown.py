"""What a campaign's state shows: its lines and its JSON, the core's part and the game's.

The game's part is its view's to say (journal/games/interface.py's `View`), asked here, so
that a game's state never imports its view: the state is what the events fold into, the
view what the table reads of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from journal.core.state import State
    from journal.games import interface


def _view(state: State) -> interface.View | None:
    if state.game_state is None:
        return None
    from journal.games.packages import package_of

    return package_of(state.game).view()


def state_json(state: State) -> dict[str, Any]:
    """The state as `spire status --json` prints it after the names and the head."""
    view = _view(state)
    return {**state.to_json(), **(view.state_json(state.game_state) if view else {})}


def lines(state: State) -> list[str]:
    """The game's lines: the encounter under way, what waits for the next set..."""
    view = _view(state)
    return view.state_lines(state.game_state) if view else []


def quiet_lines(state: State) -> list[str]:
    """The game's lines without what its latest event did (shown after another command)."""
    view = _view(state)
    return view.quiet_lines(state.game_state) if view else []


def changes(before: State, after: State) -> list[str]:
    """What the latest event changed in the game's part, number by number (`spire
    replay`); nothing if it left it alone."""
    view = _view(after)
    return view.state_changes(before.game_state, after.game_state) if view else []
