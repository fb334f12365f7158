"""The cards spire knows: the rulebook's examples (rules/hildegard.toml) and the cards the
players entered (kept in the journal). A card is found by name, case-insensitively."""

from __future__ import annotations

from functools import cache

from journal.errors import NotFound
from journal.games import load
from journal.games.hildegard.cards import Card, card_from

GAME = load("hildegard")


@cache
def rulebook_cards() -> dict[str, Card]:
    """The example cards the rulebook prints, with its numbers and nothing invented."""
    return {name: card_from(name, data) for name, data in GAME.raw.get("cards", {}).items()}


def find(name: str, entered: dict[str, Card], kind: str) -> Card:
    """The card called `name` of `kind`: one the players entered wins over an example."""
    wanted = " ".join(name.split()).casefold()
    for cards in (entered, rulebook_cards()):
        for card in cards.values():
            if card.name.casefold() == wanted and card.kind == kind:
                return card
    inline = ", or give its numbers inline (see --help)" if kind == "target" else ""
    raise NotFound(f"no {kind} card named {name!r}; `spire card add --{kind}` enters it{inline}")
