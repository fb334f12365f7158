"""`spire odds`: what the campaign's game says of the position the journal holds now, as
plain data (a dict for `--json`, told to people by the game's insight module).

Each game weighs its own position beside its rules (journal/games/<game>/odds.py), purely;
this module only asks the game.
"""

from __future__ import annotations

from typing import Any

from journal.core.state import State


def odds(state: State) -> dict[str, Any]:
    """The odds from where the players stand now; Refused when there is nothing to weigh
    (or the game weighs nothing: a game may have no odds module)."""
    from journal.errors import Refused
    from journal.games.packages import package_of

    game = package_of(state.game)
    if not game.has("odds"):
        raise Refused(f"{game.rules.title} has no odds to weigh")
    return game.odds().odds(state)
