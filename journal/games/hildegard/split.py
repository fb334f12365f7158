"""A face-off round's bullseyes split among several enemies, each formed against that
enemy's own parts from dice no other enemy's bullseyes use.

"Bullseye Parts Available: These are the parts that can be used to create Bullseyes"
(Enemy Face-Off Card) are printed on each enemy card, and "If there are multiple
enemies, you DO NOT get a Set against each of them, although your rolls can be split up
however you like" (Face-Off Scenario). The two combinations share no face, so a set's
dice form `crescent + crescent` pairs and `ring + dot` pairs independently; a bullseye
from the wild shot or the Bullseye feat needs no dice and may go to any enemy.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import product

from journal.games.hildegard.dice import Face

EVERY_PART: tuple[Face, ...] = ("crescent", "ring", "dot")
"""An enemy card whose parts were never entered: every part counts."""


@dataclass(frozen=True, slots=True)
class Pool:
    """What a round's sets hold for bullseyes: the pairs of each combination, and the
    bullseyes that need no dice."""

    crescents: int = 0
    rings: int = 0
    extra: int = 0

    def __add__(self, other: Pool) -> Pool:
        return Pool(self.crescents + other.crescents, self.rings + other.rings,
                    self.extra + other.extra)


def pool(results: Sequence[Face | None], extra: int) -> Pool:
    """One set's pairs: its crescents two by two, its rings each with a dot."""
    faces = [f for f in results if f is not None]
    return Pool(faces.count("crescent") // 2, min(faces.count("ring"), faces.count("dot")), extra)


def _kinds(parts: Iterable[Face]) -> tuple[bool, bool]:
    usable = set(parts) or set(EVERY_PART)
    return "crescent" in usable, {"ring", "dot"} <= usable


def most(have: Pool, parts: Iterable[Face]) -> int:
    """The most bullseyes `have` forms against an enemy with these parts."""
    crescents, rings = _kinds(parts)
    return have.crescents * crescents + have.rings * rings + have.extra


def _takes(have: Pool, parts: Iterable[Face], wanted: int) -> list[Pool]:
    """Every way an enemy with these parts takes up to `wanted` bullseyes from `have`."""
    crescents, rings = _kinds(parts)
    ways = []
    for c, r in product(range(have.crescents * crescents + 1), range(have.rings * rings + 1)):
        if c + r <= wanted:
            e = min(have.extra, wanted - c - r)
            ways.append(Pool(c, r, e))
    return ways


def split(have: Pool, enemies: Sequence[tuple[str, tuple[Face, ...]]],
          assigned: Sequence[tuple[str, int]]) -> dict[str, int]:
    """The bullseyes each enemy gets: those assigned to it, then the rest, formed against
    its own parts from the dice left, to the first enemy (`enemies[0]`).

    An assignment stands as the table made it: past what the dice form, only with
    `--force` (the rules refuse it, `formed` says how far the dice go)."""
    if not enemies:
        return {}
    first, wanted, (_, rest) = _best(have, enemies, assigned)
    return {first: rest, **dict(wanted)}


def formed(have: Pool, enemies: Sequence[tuple[str, tuple[Face, ...]]],
           assigned: Sequence[tuple[str, int]]) -> dict[str, int]:
    """How many of each enemy's bullseyes the dice form: its assigned ones as far as the
    dice allow them, the first enemy's the rest."""
    if not enemies:
        return {}
    first, _, (given, rest) = _best(have, enemies, assigned)
    return {first: rest, **given}


def _best(have: Pool, enemies: Sequence[tuple[str, tuple[Face, ...]]],
          assigned: Sequence[tuple[str, int]],
          ) -> tuple[str, list[tuple[str, int]], tuple[dict[str, int], int]]:
    """Of the ways to form the assigned enemies' bullseyes from the dice, the one that
    forms the most of them, then leaves the first enemy the most."""
    parts = dict(enemies)
    first = enemies[0][0]
    wanted = [(name, n) for name, n in assigned if name in parts and name != first and n > 0]
    best: tuple[tuple[int, int], dict[str, int]] = ((-1, -1), {})
    for choice in product(*(_takes(have, parts[name], n) for name, n in wanted)):
        used = sum(choice, Pool())
        if used.crescents > have.crescents or used.rings > have.rings or \
                used.extra > have.extra:
            continue
        left = Pool(have.crescents - used.crescents, have.rings - used.rings,
                    have.extra - used.extra)
        given = {name: take.crescents + take.rings + take.extra
                 for (name, _), take in zip(wanted, choice, strict=False)}
        score = (sum(given.values()), most(left, parts[first]))
        if score > best[0]:
            best = (score, given)
    return first, wanted, (best[1], best[0][1])
