"""`spire odds`: what the campaign's game says of the position the journal holds now, as
plain data (a dict for `--json`, told to people by the game's insight module).

Each game weighs its own position beside its rules (journal/games/<game>/odds.py), purely;
this module only asks the game.
"""

from __future__ import annotations

from typing import Any

from journal.state import State


def odds(state: State) -> dict[str, Any]:
    """The odds from where the players stand now; Refused when there is nothing to weigh."""
    from journal.games import package_of

    return package_of(state.game).odds().odds(state)
