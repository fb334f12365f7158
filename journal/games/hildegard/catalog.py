"""The cards spire knows: the rulebook's examples (rules/hildegard.toml) and the cards the
players entered (kept in the journal). A card is found by name, case-insensitively."""

from __future__ import annotations

from functools import cache
from typing import Any

from journal.errors import BadInput, NotFound
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


# -- a card the players enter (`spire card add`) -----------------------------------------

KINDS = {
    "target": ("limit", "accuracy", "sets", "parts", "reward", "bonus", "hit", "miss"),
    "enemy": ("limit", "accuracy", "parts", "reward"),
    "meter": ("accuracy", "squares", "win", "lose"),
}
"""The numbers each kind of card prints, as `card add` options (every kind has --number)."""

REQUIRED = {
    "target": ("limit", "accuracy", "sets", "parts"),
    "enemy": ("limit", "accuracy"),
    "meter": ("accuracy", "squares"),
}

FIELDS = {"limit": "bullseye_limit", "hit": "hit_card", "miss": "miss_card",
          "win": "win_card", "lose": "lose_card"}


def entered(name: str, kind: str, given: dict[str, Any]) -> Card:
    """The card of `kind` the options (`given`, by option name) describe; an option its
    kind does not print, one it needs and lacks, or a value it cannot be is bad input."""
    from pydantic import ValidationError

    from journal.games.hildegard.cards import EnemyCard, HitMeter, TargetCard

    name = " ".join(name.split())
    if not name or len(name) > 200:
        raise BadInput("the card needs a name (at most 200 characters)")
    typed = {k: v for k, v in given.items() if v is not None}
    _check_options(kind, set(typed))
    models: dict[str, type[Card]] = {"target": TargetCard, "enemy": EnemyCard, "meter": HitMeter}
    try:
        return models[kind](name=name, **_fields(typed))
    except ValidationError as e:
        error = e.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        raise BadInput(f"cannot enter {name!r}: {where}: {error['msg']}") from None


def _check_options(kind: str, given: set[str]) -> None:
    allowed = {"number", *KINDS[kind]}
    if stray := sorted(given - allowed):
        raise BadInput(f"--{stray[0]} is not printed on {_a(kind)} card; it takes "
                       + ", ".join(f"--{o}" for o in ("number", *KINDS[kind])))
    if missing := [o for o in REQUIRED[kind] if o not in given]:
        raise BadInput(f"{_a(kind)} card needs " + ", ".join(f"--{o}" for o in missing))


def _a(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def _fields(given: dict[str, Any]) -> dict[str, Any]:
    from journal.games.hildegard.cards import parse_bonus, parse_reward, parse_squares
    from journal.games.hildegard.dice import faces

    readers: dict[str, Any] = {"parts": lambda text: faces([text]), "reward": parse_reward,
                               "bonus": parse_bonus, "squares": parse_squares}
    return {FIELDS.get(option, option): readers[option](value) if option in readers else value
            for option, value in given.items()}
