"""Hildegard's rule functions on their own: no journal, no CLI, each table quoting the
rulebook sentence it checks (rulebooks/hildegard.txt)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from conftest import rulebook

from journal.games.hildegard.cards import HitMeter, parse_squares
from journal.games.hildegard.catalog import rulebook_cards
from journal.games.hildegard.dice import Face, bullseyes, contains, faces
from journal.games.hildegard.meter import Mark, can_block, enemy_set_over, must_keep, strike

COMBINATIONS = ("rolling any two Crescent icons together forms a Bullseye. Rolling a Ring and "
                "a Dot together forms a Bullseye. Rolling a Crescent, a Dot, and a Crescent "
                "together also forms a Bullseye.")
PARTS = ("G — Bullseye Parts Available: These are the Shot Dice sides you can use to create "
         "Bullseyes on this particular Target.")
WHOOPSIE = "Whoopsie: Remove 1 Shot Dice result of your choice"
COMBINATION_CHALLENGE = ("Combination Challenges must occur within a single Set. The "
                         "combination must represent the final results of that Set.")
ENEMY_ROLL = ("If any of the results match the lowest numbered empty Hit Square on "
              "Hildegard's Hit Meter, she has been Hit, and that square is filled")
CROWS_THREE = "The Crows rolled what was needed for the first 3 Hit Squares on the Hit Meter."
BLOCK_REMOVED = ("On the enemy's next Set, they will need to roll that Hit Square's Bullseye "
                 "part to remove that Block. After that, they can Hit that square normally")
BLOCK_STAYS = ("If the enemy fails to roll the Bullseye part needed to remove the Block on "
               "their next Set, it stays in place until they do.")
CROWS_KEEP = ("Because Ring was rolled, the Crows are smart enough to keep it, since that part "
              "is in the 3rd Hit Square and the Crows have 3 Shot Dice to use.")
NOTE_KEEP = "In this case the Crows must keep Ring and Crescent, and re-roll 1 Shot Dice."
ENEMY_FINESSE = ("Any roll results that can't fill, or potentially fill, a Hit Square this Set "
                 "must be Finessed until they can, or until the enemy runs out of rolls to "
                 "Finesse.")
KEEP_ONE = "When you roll the Shot Dice, you're required to keep only 1 of your results."
GRAY = "You cannot Block Gray Hit Squares."
PREVIOUS = ("You cannot Block a Color Hit Square unless the previous square is filled with "
            "either a Hit or a Block.")

QUOTES = (COMBINATIONS, PARTS, WHOOPSIE, COMBINATION_CHALLENGE, ENEMY_ROLL, CROWS_THREE,
          BLOCK_REMOVED, BLOCK_STAYS, CROWS_KEEP, NOTE_KEEP, ENEMY_FINESSE, KEEP_ONE, GRAY,
          PREVIOUS)


@pytest.mark.parametrize("quote", QUOTES, ids=lambda q: q[:40])
def test_the_tables_quote_the_rulebook(quote: str) -> None:
    assert quote in rulebook("hildegard")


def dice(text: str) -> tuple[Face | None, ...]:
    """`c c -` : faces by short form, `-` for a die a Whoopsie removed."""
    return tuple(None if word == "-" else faces([word])[0] for word in text.split())


def marks(text: str) -> tuple[Mark, ...]:
    """`XB..` : X hit, B blocked, . empty, one per square in meter order."""
    return tuple({"X": "hit", "B": "block", ".": "empty"}[c] for c in text)  # type: ignore[misc]


def drawn(hit_marks: Sequence[Mark]) -> str:
    return "".join({"hit": "X", "block": "B", "empty": "."}[m] for m in hit_marks)


def _shipped_meter() -> HitMeter:
    meter = rulebook_cards()["Hildegard's Hit Meter"]
    assert isinstance(meter, HitMeter)
    return meter


CROWS_METER = _shipped_meter()
# A meter of our own, with every kind of square: a gray square 3, a tab on square 5.
METER = HitMeter(name="test meter", accuracy=4, squares=parse_squares("c,c,r!,d,c:flub,r,d"))

# -- the bullseye tally ------------------------------------------------------------------

ALL_PARTS = "c r d"


@pytest.mark.parametrize("results, parts, expected, quote", [
    ("c c", ALL_PARTS, 1, COMBINATIONS),
    ("r d", ALL_PARTS, 1, COMBINATIONS),
    ("c d c", ALL_PARTS, 1, COMBINATIONS),   # contains Crescent + Crescent: one, not two
    ("c c c", ALL_PARTS, 1, COMBINATIONS),
    ("c c c c", ALL_PARTS, 2, COMBINATIONS),
    ("c c r d", ALL_PARTS, 2, COMBINATIONS),
    ("r d r d", ALL_PARTS, 2, COMBINATIONS),
    ("r r d", ALL_PARTS, 1, COMBINATIONS),
    ("r c d", ALL_PARTS, 1, COMBINATIONS),   # Card Peddler's final results
    ("c c r", ALL_PARTS, 1, COMBINATIONS),   # Street Merchant, set 1
    ("b b r", ALL_PARTS, 0, COMBINATIONS),   # Card Peddler's first roll
    ("b b b b", ALL_PARTS, 0, COMBINATIONS),
    ("c r", ALL_PARTS, 0, COMBINATIONS),
    ("", ALL_PARTS, 0, COMBINATIONS),
    ("c c -", ALL_PARTS, 1, WHOOPSIE),      # Street Merchant: "You remove: Ring."
    ("c - c", ALL_PARTS, 1, WHOOPSIE),
    ("r - d", ALL_PARTS, 1, WHOOPSIE),
    ("r -", ALL_PARTS, 0, WHOOPSIE),
    ("c c", "c c r d", 1, PARTS),            # Pesky Jackalope prints Crescent twice
    ("c c", "r d", 0, PARTS),                # no Crescent on this target
    ("c c r d", "r d", 1, PARTS),
    ("r d", "c", 0, PARTS),                  # no Ring, no Dot
    ("r d", "c r", 0, PARTS),                # a Ring without its Dot
    ("c c r d", "c", 1, PARTS),
    ("b b", "b c r d", 0, PARTS),            # a blank forms nothing
])
def test_bullseye_tally(results: str, parts: str, expected: int, quote: str) -> None:
    assert bullseyes(dice(results), dice(parts)) == expected  # type: ignore[arg-type]


@pytest.mark.parametrize("results, combination, met", [
    ("r c d", "r d", True),                  # Card Peddler: "matching the Bonus Challenge"
    ("c c b", "c c", True),
    ("c b b", "c c", False),
    ("c - c", "c c", True),
    ("c c -", "c c c", False),
    ("r - b", "r d", False),                 # the Dot a Whoopsie removed is no final result
    ("d r", "r d", True),                    # in any order
    ("r r d d", "r d r d", True),
    ("r d d", "r d r d", False),             # each face of the combination needs its own die
    ("", "c c", False),
])
def test_combination_challenge(results: str, combination: str, met: bool) -> None:
    assert contains(dice(results), dice(combination)) is met  # type: ignore[arg-type]


# -- the enemy's hits: meter.strike ------------------------------------------------------

@pytest.mark.parametrize("meter, before, rolled, free, after, hit, unblocked, used, quote", [
    # the Crows' first roll, then their one re-roll (The Crows' Turn)
    (CROWS_METER, ".......", "r c b", (0, 1, 2), "X......", (0,), (), {1}, ENEMY_ROLL),
    (CROWS_METER, "X......", "r c c", (0, 2), "XXX....", (1, 2), (), {0, 2}, CROWS_THREE),
    # squares fill one after another: a part for a later square waits for the earlier ones
    (CROWS_METER, ".......", "r d b", (0, 1, 2), ".......", (), (), set(), ENEMY_ROLL),
    (CROWS_METER, ".......", "c r b", (0, 1, 2), "X......", (0,), (), {0}, ENEMY_ROLL),
    (CROWS_METER, ".......", "c c c", (0, 1, 2), "XX.....", (0, 1), (), {0, 1}, ENEMY_ROLL),
    (CROWS_METER, ".......", "c c r", (0, 1, 2), "XXX....", (0, 1, 2), (), {0, 1, 2}, CROWS_THREE),
    (CROWS_METER, ".......", "c c c", (2,), "X......", (0,), (), {2}, ENEMY_ROLL),  # free only
    # squares whose parts were not entered take no hit
    (CROWS_METER, "XXX....", "c r d", (0, 1, 2), "XXX....", (), (), set(), ENEMY_ROLL),
    (METER, "XXX....", "d c b", (0, 1, 2), "XXXXX..", (3, 4), (), {0, 1}, ENEMY_ROLL),
    (METER, "XX.....", "r b b", (0, 1, 2), "XXX....", (2,), (), {0}, ENEMY_ROLL),  # gray is hit
    # a block: its part removes it first, then the same part hits the square
    (METER, "B......", "c b b", (0, 1, 2), ".......", (), (0,), {0}, BLOCK_REMOVED),
    (METER, "B......", "c c b", (0, 1, 2), "X......", (0,), (0,), {0, 1}, BLOCK_REMOVED),
    (METER, "B......", "c c c", (0, 1, 2), "XX.....", (0, 1), (0,), {0, 1, 2}, BLOCK_REMOVED),
    (METER, "B......", "r d b", (0, 1, 2), "B......", (), (), set(), BLOCK_STAYS),
    (METER, "XXXB...", "r d b", (0, 1, 2), "XXX....", (), (3,), {1}, BLOCK_REMOVED),
    # several blocks: removed in meter order (PRODUCT.md's ruling), square by square
    (METER, "BB.....", "c b b", (0, 1, 2), ".B.....", (), (0,), {0}, BLOCK_REMOVED),
    (METER, "BB.....", "c c b", (0, 1, 2), "XB.....", (0,), (0,), {0, 1}, BLOCK_REMOVED),
    (METER, "BB.....", "c c c", (0, 1, 2), "X......", (0,), (0, 1), {0, 1, 2}, BLOCK_REMOVED),
    (METER, "XXXBB..", "d d d", (0, 1, 2), "XXXXB..", (3,), (3,), {0, 1}, BLOCK_REMOVED),
    (METER, "XXXBB..", "d d c", (0, 1, 2), "XXXX...", (3,), (3, 4), {0, 1, 2}, BLOCK_REMOVED),
])
def test_strike(meter: HitMeter, before: str, rolled: str, free: tuple[int, ...], after: str,
                hit: tuple[int, ...], unblocked: tuple[int, ...], used: set[int],
                quote: str) -> None:
    hits = strike(meter, marks(before), dice(rolled), free)
    assert (drawn(hits.marks), hits.hit, hits.unblocked, set(hits.used)) == (
        after, hit, unblocked, used)


def test_strike_on_a_full_meter_uses_no_die() -> None:
    hits = strike(CROWS_METER, marks("XXXXXXX"), dice("c c r"), (0, 1, 2))
    assert (hits.hit, hits.used) == ((), frozenset())


# -- the enemy's finesse: meter.must_keep and meter.enemy_set_over ------------------------

@pytest.mark.parametrize("meter, now, rolled, unused, locked, keep, over, quote", [
    # The Crows' Turn: Crescent hit square 1; the Ring is kept for square 3 with 3 dice
    (CROWS_METER, "X......", "r c b", (0, 2), (), {0}, False, CROWS_KEEP),
    # the Note's empty meter, before any die is spent: keep Ring and Crescent
    (CROWS_METER, ".......", "r c b", (0, 1, 2), (), {0, 1}, False, NOTE_KEEP),
    # nothing useful: no die to keep, and still a re-roll to make (lock any one)
    (CROWS_METER, ".......", "b b b", (0, 1, 2), (), set(), False, KEEP_ONE),
    (CROWS_METER, ".......", "d d b", (0, 1, 2), (), set(), False, ENEMY_FINESSE),
    # a part only as far ahead as the enemy has dice: two dice reach squares 1 and 2
    (CROWS_METER, ".......", "r b", (0, 1), (), set(), False, CROWS_KEEP),
    (CROWS_METER, "X......", "r b", (0, 1), (), {0}, False, CROWS_KEEP),
    # one Ring needed, one Ring kept; a Ring locked earlier already holds that place
    (CROWS_METER, "X......", "r r b", (0, 1, 2), (), {0}, False, ENEMY_FINESSE),
    (CROWS_METER, "X......", "r r b", (0, 1, 2), (0,), set(), False, ENEMY_FINESSE),
    # every free die worth keeping, or none free: no re-roll is left
    (CROWS_METER, "X......", "r c", (0, 1), (), {0, 1}, True, ENEMY_FINESSE),
    (CROWS_METER, ".......", "r b b", (0, 1, 2), (0, 1, 2), set(), True, ENEMY_FINESSE),
    # one useless die left free: it cannot be re-rolled without locking one more
    (CROWS_METER, ".......", "r c b", (0, 1, 2), (0, 1), set(), True, KEEP_ONE),
    (CROWS_METER, "XX.....", "b", (0,), (), set(), True, KEEP_ONE),
    # a block asks for its part twice: once to remove it, once to hit
    (METER, "XB.....", "r b b", (0, 1, 2), (), {0}, False, BLOCK_REMOVED),
    (METER, "XB.....", "r b", (0, 1), (), set(), False, BLOCK_REMOVED),
    # squares whose parts were not entered keep nothing
    (CROWS_METER, "XXX....", "d b", (0, 1), (), set(), False, ENEMY_FINESSE),
])
def test_enemy_finesse(meter: HitMeter, now: str, rolled: str, unused: tuple[int, ...],
                       locked: tuple[int, ...], keep: set[int], over: bool, quote: str) -> None:
    args = (meter, marks(now), dice(rolled), unused, frozenset(locked))
    assert (set(must_keep(*args)), enemy_set_over(*args)) == (keep, over)


# -- blocks: meter.can_block -------------------------------------------------------------

@pytest.mark.parametrize("now, square, why, quote", [
    (".......", 0, None, PREVIOUS),                       # square 1 has no previous square
    (".......", 1, "until square 1 is filled", PREVIOUS),
    ("X......", 1, None, PREVIOUS),
    ("B......", 1, None, PREVIOUS),
    ("XX.....", 2, "gray", GRAY),
    ("XXX....", 3, None, PREVIOUS),                       # the gray square 3 was hit
    ("XXX....", 4, "until square 4 is filled", PREVIOUS),
    ("XXXB...", 4, None, PREVIOUS),
    ("XXXBB..", 5, None, PREVIOUS),
    ("X......", 0, "already hit", PREVIOUS),
    ("B......", 0, "already blocked", PREVIOUS),
    (".......", 7, "squares 1 to 7", PREVIOUS),
    (".......", -1, "squares 1 to 7", PREVIOUS),
])
def test_can_block(now: str, square: int, why: str | None, quote: str) -> None:
    answer = can_block(METER, marks(now), square)
    assert answer is None if why is None else why in (answer or "")
