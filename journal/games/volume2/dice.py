"""Volume 2's dice: Finnian's hive dice, the allies' shot dice and the enemies' d20.

"The Hive Dice have five faces: Sickle x 2, Bee, Pollen, Hive, and Blank." (six sides,
the sickle twice). "The Shot Dice have six faces: Half Bullseye (Black), Half Bullseye
(White), Half Circle, Circle, Ping, and Blank." (Hive Dice Sides; Shot Dice Sides)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Literal, TypeAlias

from journal.errors import BadInput

DieKind: TypeAlias = Literal["hive", "shot"]

HIVE_DIE = ("sickle", "sickle", "bee", "pollen", "hive", "blank")
SHOT_DIE = ("black", "white", "half", "circle", "ping", "blank")
"""Shot die faces by spire's short names: half bullseye (black), half bullseye (white),
half circle, circle, ping, blank."""

SHORT: dict[DieKind, dict[str, str]] = {
    "hive": {"s": "sickle", "e": "bee", "p": "pollen", "h": "hive"},
    "shot": {"k": "black", "w": "white", "h": "half", "c": "circle", "p": "ping", "b": "blank"},
}
ALIASES = {"half bullseye (black)": "black", "half-black": "black", "half black": "black",
           "half bullseye (white)": "white", "half-white": "white", "half white": "white",
           "half circle": "half", "half-circle": "half", "sickles": "sickle", "bees": "bee"}

D20 = range(1, 21)
MAX_SICKLES = 2
""""1 DMG per Sickle (Max 2): Finnian wields two sickles; only two may count per attack.\""""
MAX_DEPLOYED = 4
""""You may deploy up to 4 Bees/Pollen per turn if a Hive is rolled.\""""


def faces_of(kind: DieKind) -> tuple[str, ...]:
    return tuple(dict.fromkeys(HIVE_DIE if kind == "hive" else SHOT_DIE))


def die_of(kind: DieKind) -> tuple[str, ...]:
    """The die's six sides, as printed (the hive die's sickle twice)."""
    return HIVE_DIE if kind == "hive" else SHOT_DIE


AMBIGUOUS: dict[DieKind, dict[str, str]] = {"hive": {"b": "bee or blank"}, "shot": {}}
"""Letters two of a die's faces start with: the hive die's bee and blank both begin with
b, so `b` is asked rather than read as one of them (bee is `e`; blank is typed in full)."""


def legend(kind: DieKind) -> str:
    """The faces and their short forms, for help and errors."""
    short = {v: k for k, v in SHORT[kind].items()}
    return ", ".join(f"{name} ({short[name]})" if name in short else name
                     for name in faces_of(kind))


def face(kind: DieKind, text: str, roller: str | None = None) -> str:
    """A face of a `kind` die from its name or short form; `roller` names whose dice, for
    the error."""
    word = " ".join(text.strip().casefold().split())
    word = ALIASES.get(word, word)
    if word in faces_of(kind):
        return word
    if word in SHORT[kind]:
        return SHORT[kind][word]
    if word in AMBIGUOUS[kind]:
        short = {v: k for k, v in SHORT[kind].items()}
        spelled = " or ".join(f"{short[f]} ({f})" if f in short else f
                              for f in AMBIGUOUS[kind][word].split(" or "))
        raise BadInput(f"{text!r} on the {kind} die could be {AMBIGUOUS[kind][word]}: "
                       f"type {spelled}")
    whose = f" ({roller} rolls {kind} dice)" if roller else ""
    raise BadInput(f"unknown {kind} die face {text!r}{whose}; faces: {legend(kind)}")


def faces(kind: DieKind, texts: Iterable[str], roller: str | None = None) -> tuple[str, ...]:
    """Faces from words, also comma-separated: `s,s,h` or `sickle hive`."""
    return tuple(face(kind, part, roller)
                 for text in texts for part in text.split(",") if part.strip())


def contains(results: Sequence[str], combination: Sequence[str]) -> bool:
    """Whether `results` hold every face of `combination` (a multiset)."""
    return not Counter(combination) - Counter(results)


def d20(roll: int) -> int:
    if roll not in D20:
        raise BadInput(f"a d20 shows 1 to 20, not {roll}")
    return roll

