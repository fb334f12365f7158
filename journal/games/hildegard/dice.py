"""Shot dice and wild shot dice, and the bullseyes their faces form.

"the Shot Dice has 6 sides — three Crescent icons ..., a Ring icon, a Dot icon, and a
Blank side." "rolling any two Crescent icons together forms a Bullseye. Rolling a Ring and
a Dot together forms a Bullseye." (Shot Dice)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Literal, TypeAlias

from journal.errors import BadInput

Face: TypeAlias = Literal["crescent", "ring", "dot", "blank"]
WildEffect: TypeAlias = Literal["bullseye", "instinct", "whoopsie", "miss", "ricochet"]
WildDie: TypeAlias = Literal["black", "gray", "gold", "blue"]

FACES: tuple[Face, ...] = ("crescent", "ring", "dot", "blank")
SHOT_DIE: tuple[Face, ...] = ("crescent", "crescent", "crescent", "ring", "dot", "blank")
FACE_SHORT: dict[str, Face] = {"c": "crescent", "r": "ring", "d": "dot", "b": "blank"}
WILD_EFFECTS: tuple[WildEffect, ...] = ("bullseye", "instinct", "whoopsie", "miss", "ricochet")
WILD_SHORT: dict[str, WildEffect] = {
    "b": "bullseye", "i": "instinct", "w": "whoopsie", "m": "miss", "r": "ricochet"}
WILD_DICE: tuple[WildDie, ...] = ("black", "gray", "gold", "blue")

BULLSEYES: tuple[tuple[Face, Face], ...] = (("crescent", "crescent"), ("ring", "dot"))


def face(text: str) -> Face:
    """A face from its name or short form: crescent/c, ring/r, dot/d, blank/b."""
    word = text.strip().casefold().rstrip("s") if len(text.strip()) > 1 else text.strip().casefold()
    for name in FACES:
        if word == name:
            return name
    if word in FACE_SHORT:
        return FACE_SHORT[word]
    raise BadInput(f"unknown face {text!r}; faces: crescent (c), ring (r), dot (d), blank (b)")


def faces(texts: Iterable[str]) -> tuple[Face, ...]:
    """Faces from words, also comma-separated: `c,c,r` or `crescent ring`."""
    return tuple(face(part) for text in texts for part in text.split(",") if part.strip())


def wild_effect(text: str) -> WildEffect:
    word = text.strip().casefold()
    for name in WILD_EFFECTS:
        if word == name:
            return name
    if word in WILD_SHORT:
        return WILD_SHORT[word]
    raise BadInput(
        f"unknown wild shot {text!r}; effects: bullseye (b), instinct (i), whoopsie (w), "
        "miss (m), ricochet (r)")


def wild_die(text: str) -> WildDie:
    word = text.strip().casefold().replace("grey", "gray")
    for name in WILD_DICE:
        if word == name:
            return name
    raise BadInput(f"unknown wild shot die {text!r}; dice: black, gray, gold, blue")


def bullseyes(results: Sequence[Face | None], parts: Iterable[Face]) -> int:
    """The most disjoint bullseyes the results form with the parts available.

    The two combinations share no face, so the most is the sum of each one's count.
    (Crescent + Dot + Crescent contains Crescent + Crescent: one bullseye.)
    """
    counts, usable = Counter(f for f in results if f is not None), set(parts)
    total = 0
    for first, second in BULLSEYES:
        if first in usable and second in usable:
            total += counts[first] // 2 if first == second else min(counts[first], counts[second])
    return total


def contains(results: Sequence[Face | None], combination: Sequence[Face]) -> bool:
    """Whether the results hold every face of `combination` (a combination challenge)."""
    have = Counter(f for f in results if f is not None)
    return not Counter(combination) - have
