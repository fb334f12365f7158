"""The hit meter in a face-off: enemy hits, blocks, and the enemy's finesse.

"If any of the results match the lowest numbered empty Hit Square on Hildegard's Hit
Meter, she has been Hit, and that square is filled" (Enemy Turn Flow). Hits fill squares
in meter order, as in the Crows example; a blocked square must first be hit with its
part to remove the block (Block Rules).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeAlias

from journal.games.hildegard.cards import HitMeter, Square
from journal.games.hildegard.dice import Face

Mark: TypeAlias = Literal["empty", "hit", "block"]


@dataclass(frozen=True, slots=True)
class Hits:
    """What an enemy's dice did: the marks after, squares newly hit, blocks removed, and
    the positions (0-based) of the dice used."""

    marks: tuple[Mark, ...]
    hit: tuple[int, ...]
    unblocked: tuple[int, ...]
    used: frozenset[int]


def lowest_open(marks: Sequence[Mark]) -> int | None:
    """The lowest square not yet hit (it may hold a block), 0-based."""
    return next((i for i, mark in enumerate(marks) if mark != "hit"), None)


def needed(meter: HitMeter, marks: Sequence[Mark]) -> list[Face | None]:
    """The parts the enemy must roll, in order, to fill the meter from where it stands:
    a blocked square asks for its part twice (once to remove the block, once to hit)."""
    parts: list[Face | None] = []
    for square, mark in zip(meter.squares, marks, strict=False):
        if mark == "block":
            parts += [square.part, square.part]
        elif mark == "empty":
            parts.append(square.part)
    return parts


def strike(meter: HitMeter, marks: Sequence[Mark], dice: Sequence[Face | None],
           free: Sequence[int]) -> Hits:
    """Apply the enemy's free dice (0-based positions) to the meter, square by square."""
    marks, pool = list(marks), list(free)
    hit: list[int] = []
    unblocked: list[int] = []
    used: set[int] = set()
    while (index := lowest_open(marks)) is not None:
        part = meter.squares[index].part
        die = next((p for p in pool if part is not None and dice[p] == part), None)
        if die is None:
            break
        pool.remove(die)
        used.add(die)
        if marks[index] == "block":
            marks[index] = "empty"
            unblocked.append(index)
        else:
            marks[index] = "hit"
            hit.append(index)
    return Hits(tuple(marks), tuple(hit), tuple(unblocked), frozenset(used))


def must_keep(meter: HitMeter, marks: Sequence[Mark], dice: Sequence[Face | None],
              unused: Sequence[int], locked: frozenset[int]) -> frozenset[int]:
    """The enemy's unlocked dice it must keep: every die that could fill, or potentially
    fill, a square this set. A die can if its face is among the next parts needed, counting
    as many parts ahead as the enemy has dice left (the Crows keep their Ring for the 3rd
    square with 3 dice); dice locked earlier hold their places first. The rest must be
    re-rolled (The Crows' Turn)."""
    ahead = Counter(p for p in needed(meter, marks)[: len(unused)] if p is not None)
    for position in unused:
        face = dice[position]
        if position in locked and face is not None and ahead[face] > 0:
            ahead[face] -= 1
    keep: set[int] = set()
    for position in unused:
        face = dice[position]
        if position not in locked and face is not None and ahead[face] > 0:
            ahead[face] -= 1
            keep.add(position)
    return frozenset(keep)


def enemy_set_over(meter: HitMeter, marks: Sequence[Mark], dice: Sequence[Face | None],
                   unused: Sequence[int], locked: frozenset[int], fresh: bool = False) -> bool:
    """No re-roll is left to the enemy: no free die, every free die worth keeping, or a
    single useless die that cannot be re-rolled without locking one more. `fresh`: a die
    of the latest roll hit or cleared a block, and counts as locked in, so the dice that hit
    nothing are re-rolled with no other lock ("Any roll results that can't fill the next
    available Hit Square must be Finessed until they can, or until the enemy runs out of
    rolls", Enemy Turn Flow)."""
    free = [p for p in unused if p not in locked]
    keep = must_keep(meter, marks, dice, unused, locked)
    return not free or len(keep) == len(free) or (not keep and len(free) == 1 and not fresh)


def can_block(meter: HitMeter, marks: Sequence[Mark], square: int) -> str | None:
    """Why a block on `square` (0-based) is not allowed, or None if it is (Block Rules)."""
    if not 0 <= square < len(meter.squares):
        return f"the hit meter has squares 1 to {len(meter.squares)}"
    spot: Square = meter.squares[square]
    if spot.gray:
        return f"square {square + 1} is gray: gray hit squares cannot be blocked"
    if marks[square] != "empty":
        return f"square {square + 1} is already {'hit' if marks[square] == 'hit' else 'blocked'}"
    if square > 0 and marks[square - 1] == "empty":
        return (f"square {square + 1} cannot be blocked until square {square} is filled "
                "with a hit or a block")
    return None


def full(marks: Sequence[Mark]) -> bool:
    return all(mark == "hit" for mark in marks)
