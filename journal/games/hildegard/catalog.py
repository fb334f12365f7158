"""The cards spire knows: the rulebook's examples (rules/hildegard.toml) and the cards the
players entered (kept in the journal). A card is found by name, case-insensitively."""

from __future__ import annotations

from functools import cache
from typing import Any

from journal.core.words import plural
from journal.errors import BadInput, NotFound, invalid
from journal.games import load
from journal.games.hildegard.cards import Card, card_from, story_cards

GAME = load("hildegard")


__all__ = ["card_from", "card_lines", "entered", "find", "rulebook_cards", "story_cards"]


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
        raise BadInput(f"cannot enter {name!r}: {invalid(e.errors()[0])}") from None


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


# -- a card told back, a line each --------------------------------------------------------

def card_lines(card: Card) -> list[str]:
    """The card's printed numbers, a line each, as the table reads them."""
    from journal.games.hildegard.cards import EnemyCard, TargetCard

    if isinstance(card, TargetCard):
        numbers = (f"bullseye limit {card.bullseye_limit}, accuracy {card.accuracy}, "
                   f"{plural(card.sets, 'set')}")
        lines = [numbers, f"parts: {_faces(card.parts)}"]
        lines += _reward_line(card.reward) + _bonus_line(card)
        return lines + _cards_line(("hit", card.hit_card), ("miss", card.miss_card))
    if isinstance(card, EnemyCard):
        return [f"bullseye limit {card.bullseye_limit}, hit accuracy {card.accuracy}",
                f"parts: {_faces(card.parts)}", *_reward_line(card.reward)]
    return [f"hit accuracy {card.accuracy}", f"squares: {_squares(card)}",
            *_cards_line(("win", card.win_card), ("lose", card.lose_card))]


def _faces(faces: tuple[str, ...]) -> str:
    return ", ".join(faces) or "not entered (every part counts)"


def _reward_line(reward: Any) -> list[str]:
    return [] if reward is None else [f"reward: {_amount(reward)}"]


def _amount(reward: Any) -> str:
    """`1 gold`, `1 feat`, `2 feats`."""
    word = reward.resource if reward.amount != 1 else reward.resource.rstrip("s")
    return f"{reward.amount} {word}"


def _bonus_line(card: Any) -> list[str]:
    bonus = card.bonus
    if bonus is None:
        return []
    challenge = (plural(bonus.bullseyes, "bullseye") + " over all sets" if bonus.bullseyes
                 else " + ".join(bonus.combination or ()) + " in one set")
    return [f"bonus: {challenge}, {_amount(bonus.reward)}"]


def _cards_line(*prompts: tuple[str, int | None]) -> list[str]:
    said = [f"{label}: card {number}" for label, number in prompts if number is not None]
    return ["; ".join(said)] if said else []


def _squares(meter: Any) -> str:
    """`1 crescent, 2 crescent, 3 ring (gray), 4 ? (tab: flub)`, in meter order."""
    shown = []
    for index, square in enumerate(meter.squares, start=1):
        text = f"{index} {square.part or '?'}" + (" (gray)" if square.gray else "")
        shown.append(text + (f" (tab: {square.tab})" if square.tab else ""))
    return ", ".join(shown)
