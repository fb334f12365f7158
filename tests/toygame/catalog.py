"""Coin Tally has no cards to enter: its deck is numbered, and nothing is printed on it
that the journal keeps."""

from typing import Any

from journal.errors import BadInput


def rulebook_cards() -> dict[str, Any]:
    return {}


def card_from(name: str, data: dict[str, Any]) -> Any:
    raise BadInput("Coin Tally keeps no cards")


def card_lines(card: Any) -> list[str]:
    return []


def story_cards(card: Any) -> tuple[int, ...]:
    return ()
