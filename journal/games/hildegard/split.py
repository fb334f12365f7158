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


Enemy = tuple[str, tuple[Face, ...], int]
"""A standing enemy as the split sees it: its name, its parts, the bullseyes it still
needs to reach its limit."""


def _takes(have: Pool, parts: Iterable[Face], wanted: int) -> list[Pool]:
    """Every way an enemy with these parts takes up to `wanted` bullseyes from `have`."""
    crescents, rings = _kinds(parts)
    ways = []
    for c, r in product(range(have.crescents * crescents + 1), range(have.rings * rings + 1)):
        if c + r <= wanted:
            ways += [Pool(c, r, e) for e in range(min(have.extra, wanted - c - r) + 1)]
    return ways


def split(have: Pool, enemies: Sequence[Enemy],
          assigned: Sequence[tuple[str, int]]) -> dict[str, int]:
    """The bullseyes each enemy gets: those assigned to it, then the rest, formed against
    each one's own parts from the dice left, to the enemies not assigned in order, each as
    many as it still needs; what is past every limit stays with the first of them.

    So bullseyes past one enemy's limit go on to the next ("your rolls can be split up
    however you like"), and with nothing assigned the enemies are all defeated whenever
    the dice can defeat them all. An assignment stands as the table made it: past what the
    dice form, only with `--force` (the rules refuse it, `formed` says how far the dice
    go)."""
    if not enemies:
        return {}
    _, given, _ = _best(have, enemies, assigned)
    return given


def formed(have: Pool, enemies: Sequence[Enemy],
           assigned: Sequence[tuple[str, int]]) -> dict[str, int]:
    """How many of each enemy's bullseyes the dice form: its assigned ones as far as the
    dice allow them, and the others' shares of the rest."""
    if not enemies:
        return {}
    formed_, _, _ = _best(have, enemies, assigned)
    return formed_


def defeats_all(have: Pool, enemies: Sequence[Enemy]) -> bool:
    """The dice can be split so that every enemy reaches its limit."""
    given = split(have, enemies, ())
    return all(given.get(name, 0) >= need for name, _, need in enemies)


def _best(have: Pool, enemies: Sequence[Enemy], assigned: Sequence[tuple[str, int]],
          ) -> tuple[dict[str, int], dict[str, int], int]:
    """Of the ways to take the round's bullseyes, the one that forms the most of the
    assigned ones, then gives the enemies not assigned, in order, the most each (up to what
    each needs), then leaves the first of them the most past its limit. Returns what the
    dice form for each enemy, what each gets (an assignment as the table made it), and
    that surplus."""
    parts = {name: p for name, p, _ in enemies}
    wanted = [(name, n) for name, n in dict(assigned).items() if name in parts and n > 0]
    others = [(name, need) for name, _, need in enemies if name not in dict(wanted)]
    if not others:  # every enemy assigned: the first takes the rest, as if it were not
        first = enemies[0]
        wanted = [(n, k) for n, k in wanted if n != first[0]]
        others = [(first[0], first[2])]
    asked = [*wanted, *others]
    best: tuple[tuple[int, tuple[int, ...], int], tuple[Pool, ...]] = ((-1, (), -1), ())
    for choice in product(*(_takes(have, parts[name], n) for name, n in asked)):
        used = sum(choice, Pool())
        if used.crescents > have.crescents or used.rings > have.rings or \
                used.extra > have.extra:
            continue
        left = Pool(have.crescents - used.crescents, have.rings - used.rings,
                    have.extra - used.extra)
        counts = [take.crescents + take.rings + take.extra for take in choice]
        score = (sum(counts[:len(wanted)]), tuple(counts[len(wanted):]),
                 most(left, parts[others[0][0]]))
        if score > best[0]:
            best = (score, choice)
    (_, _, surplus), choice = best
    taken = {name: take.crescents + take.rings + take.extra
             for (name, _), take in zip(asked, choice, strict=True)}
    taken[others[0][0]] += surplus
    shown = {name: taken[name] for name, _, _ in enemies
             if name in taken and (taken[name] or name == others[0][0] or name in dict(wanted))}
    given = {**shown, **{name: n for name, n in wanted}}
    return shown, {name: given[name] for name in shown}, surplus
