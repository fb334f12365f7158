"""The chance an enemy's set hits each square of the hit meter in a face-off.

Pure: no I/O, no randomness; every chance a `Fraction`. The enemy makes no choices ("Any
roll results that can't fill, or potentially fill, a Hit Square this Set must be Finessed
until they can, or until the enemy runs out of rolls to Finesse", Enemy Turn Flow), so its
set is enumerated, not optimised: after each roll its dice hit what they can, square by
square, with the fold's own functions (`meter.strike`, the tabs a hit square triggers); then
it locks every die it must keep (`meter.must_keep`), or, keeping none, one die (none, when a
die of that roll hit: it counts as locked in), and re-rolls the rest, until
`meter.enemy_set_over` says its set is over or the meter is full.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import product

from journal.games.hildegard.cards import HitMeter
from journal.games.hildegard.combat import tabs
from journal.games.hildegard.dice import FACES, Face
from journal.games.hildegard.meter import Mark, enemy_set_over, full, must_keep, strike
from journal.games.hildegard.state import FaceOff, Hildegard

WEIGHTS = dict(zip(FACES, (3, 1, 1, 1), strict=True))
"""Each face's sides of six: crescent x3, ring, dot, blank."""

Marks = tuple[Mark, ...]

MOST_DICE = 5
"""The most dice in an enemy's set the odds weigh: its dice keep to the meter's squares in
their order, so every ordered roll is weighed (4 ** n of them; a set of 5 takes seconds, of
6 most of a minute)."""


@cache
def _faces(n: int) -> tuple[tuple[tuple[Face, ...], Fraction], ...]:
    """Every ordered roll of `n` shot dice with its chance."""
    found = []
    for faces in product(FACES, repeat=n):
        weight = 1
        for face in faces:
            weight *= WEIGHTS[face]
        found.append((faces, Fraction(weight, 6 ** n)))
    return tuple(found)


def enemy_set(meter: HitMeter, marks: Marks, accuracy: int) -> dict[Marks, Fraction]:
    """The meter's marks after an enemy of `accuracy` dice shoots its set on `meter` as
    `marks` leave it, each with its chance."""
    return dict(_set(meter, marks, accuracy))


@cache
def _set(meter: HitMeter, marks: Marks, accuracy: int) -> tuple[tuple[Marks, Fraction], ...]:
    found: dict[Marks, Fraction] = {}
    for faces, chance in _faces(accuracy):
        for after, p in _rolled(meter, marks, faces, frozenset(), frozenset()):
            found[after] = found.get(after, Fraction(0)) + chance * p
    return tuple(found.items())


@cache
def _rolled(meter: HitMeter, marks: Marks, dice: tuple[Face, ...], used: frozenset[int],
            locked: frozenset[int]) -> tuple[tuple[Marks, Fraction], ...]:
    """After a roll: the hits, then the enemy's forced finesse, to the end of its set."""
    unused = [i for i in range(len(dice)) if i not in used]
    hits = strike(meter, marks, dice, unused)
    # The squares a hit's tab hits in turn, as the fold works them out (a Hit tab).
    board = FaceOff(meter=meter, foes=(), marks=hits.marks, shooters=())
    marks = tabs(Hildegard(), board, hits.hit)[1].marks
    used, hit = used | hits.used, bool(hits.used)
    unused = [i for i in range(len(dice)) if i not in used]
    if full(marks) or enemy_set_over(meter, marks, dice, unused, locked, hit):
        return ((marks, Fraction(1)),)
    keep = must_keep(meter, marks, dice, unused, locked)
    free = [i for i in unused if i not in locked]
    if keep:
        locked = locked | keep
    elif not hit:
        locked = locked | {free[0]}  # any one: none of them can fill a square
    again = [i for i in unused if i not in locked]
    if not again:
        return ((marks, Fraction(1)),)
    found: dict[Marks, Fraction] = {}
    for faces, chance in _faces(len(again)):
        new = list(dice)
        for i, face in zip(again, faces, strict=True):
            new[i] = face
        for after, p in _rolled(meter, marks, tuple(new), used, locked):
            found[after] = found.get(after, Fraction(0)) + chance * p
    return tuple(found.items())


def squares_hit(outcomes: dict[Marks, Fraction], before: Sequence[Mark]) -> list[Fraction]:
    """The chance each square is hit once the set is over (1 for those hit before)."""
    return [sum((p for marks, p in outcomes.items() if marks[i] == "hit"), Fraction(0))
            for i in range(len(before))]
