"""What the table reads of Coin Tally's state."""

from typing import Any

from toygame.state import Tally


def state_lines(game: Tally) -> list[str]:
    return [f"coin: {game.heads} heads, {game.tails} tails"] if game.heads + game.tails else []


def quiet_lines(game: Tally) -> list[str]:
    return state_lines(game)


def state_changes(before: object, after: Tally) -> list[str]:
    return [] if before is after else state_lines(after)


def state_json(game: Tally) -> dict[str, Any]:
    return {"heads": game.heads, "tails": game.tails}
