"""The Status Effects Glossary (Instruction Card 11): each effect, positive or negative,
and what it does, in the groups the rules below need.

Names are the glossary's, lower case. The rulings where the glossary leaves room are in
docs/spires-end.md; the publisher's FAQ order, negative effects before positive ones,
is `in_faq_order`.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from journal.games import load

SECTION = "Status Effects Glossary"


@cache
def _glossary() -> dict[str, tuple[str, ...]]:
    listed = load("spires-end").raw["status_effects"]
    return {"positive": tuple(listed["positive"]), "negative": tuple(listed["negative"])}


def positive() -> tuple[str, ...]:
    return _glossary()["positive"]


def negative() -> tuple[str, ...]:
    return _glossary()["negative"]


EFFECTS = ("bubble", "encore", "encourage", "chant", "cleanse", "luck", "pierce", "rebuild",
           "regen", "strength", "surge", "bleed", "confusion", "cripple", "dwindle",
           "exhaustion", "harvest", "hinder", "impaired vision", "intimidate", "seduce",
           "snuff", "stun", "turncoat")
"""Every effect the glossary lists (rules/spires-end.toml holds the same two lists)."""

EACH_TURN = ("bleed", "regen", "rebuild", "harvest", "seduce", "cleanse")
"""Effects that act when they strike and again at each upkeep a cube comes off."""

PERSISTENT = ("hinder",)
"""'this effect persists until cleansed': its cubes count the hinder amount."""

ROLL_UP = ("strength",)
ROLL_DOWN = ("impaired vision",)
DAMAGE_UP = ("encourage",)
DAMAGE_DOWN = ("dwindle",)
"""+1 or -1 on the action roll or on attack damage; with (!!) on the highest roll only."""

ON_ACTION = ("strength", "impaired vision", "luck", "encore", "encourage", "dwindle", "cripple",
             "pierce")
"""Effects an action reads (its roll or its damage): one the actor gained in its own turn
and an action of that turn has used has had its turn ("Strength (1 turn)")."""

BUBBLE_ARMOR = 3
"""Bubble: '+3 armor on target / Ignore ally armor threshold'."""

ALIASES = {"impaired": "impaired vision", "impaired-vision": "impaired vision",
           "impairedvision": "impaired vision", "vision": "impaired vision"}


def effect_name(text: str) -> str:
    """The glossary's name for `text` (case and hyphens aside); ValueError if unknown."""
    name = " ".join(text.replace("_", " ").split()).casefold()
    name = ALIASES.get(name, name)
    if name not in EFFECTS:
        raise ValueError(f"unknown status effect {text!r}; the glossary lists: "
                         + ", ".join(EFFECTS))
    return name


def is_negative(name: str) -> bool:
    return name in negative()


def in_faq_order(names: Iterable[str]) -> list[str]:
    """Negative effects resolve before positive ones (the publisher's FAQ); within each,
    the order they were gained."""
    names = list(names)
    return [n for n in names if is_negative(n)] + [n for n in names if not is_negative(n)]
