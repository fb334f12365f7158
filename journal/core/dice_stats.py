"""Dice statistics: how often each face came up against the share a fair die gives it.

Pure arithmetic over the faces rolled; no I/O and no game rules beyond the faces printed
on each die, which the caller passes in (a game's rules file lists them). The report
shows these numbers, and the audit can share them for its plausibility check.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

MIN_EXPECTED = 5
"""The chi-squared test is trusted once every face expects at least this many results
(the usual rule of thumb for Pearson's test)."""


@dataclass(frozen=True, slots=True)
class FaceCount:
    face: str
    count: int
    share: Fraction | None
    """The share a fair die gives this face; None when the die's faces are not printed."""

    def expected(self, total: int) -> float | None:
        return None if self.share is None else float(self.share * total)


@dataclass(frozen=True, slots=True)
class DiceStats:
    """The results of one kind of die: a count per face, and Pearson's chi-squared test
    once there are enough results (None before, or when the die's faces are unknown)."""

    die: str
    total: int
    faces: tuple[FaceCount, ...]
    chi_squared: float | None = None
    p_value: float | None = None

    @property
    def dof(self) -> int:
        return len(self.faces) - 1

    @property
    def needed(self) -> int | None:
        """How many results the chi-squared test needs, if the faces are known."""
        shares = [f.share for f in self.faces if f.share is not None]
        return math.ceil(MIN_EXPECTED / min(shares)) if shares else None


@dataclass(frozen=True, slots=True)
class Luck:
    """How many results showed the faces the players hope for, against expectation."""

    faces: tuple[str, ...]
    total: int
    count: int
    expected: float
    z: float | None
    """Standard score of `count`; None with no results."""

    @property
    def verdict(self) -> str:
        if self.z is None:
            return "no dice rolled yet"
        size = abs(self.z)
        if size < 1:
            return "about as expected"
        much = "much " if size >= 2 else "a little "
        return f"{much}{'luckier' if self.z > 0 else 'unluckier'} than expected"


def shares(die_faces: Sequence[str]) -> dict[str, Fraction]:
    """Each distinct face's share on a fair die: crescent x3 of 6 is 1/2."""
    counted = Counter(die_faces)
    return {face: Fraction(n, len(die_faces)) for face, n in counted.items()}


def stats(die: str, results: Iterable[str], die_faces: Sequence[str] = ()) -> DiceStats:
    """Count `results` (each face, or a count per face) per face of `die`; with its
    printed faces, test them for fairness."""
    counted, fair = _counted(results), shares(die_faces)
    order = list(fair) + sorted(f for f in counted if f not in fair)
    faces = tuple(FaceCount(f, counted[f], fair.get(f)) for f in order)
    total = sum(counted.values())
    found = DiceStats(die, total, faces)
    if not fair or total < (found.needed or 0) or any(f.share is None for f in faces):
        return found
    chi = chi_squared(faces, total)
    return DiceStats(die, total, faces, chi, chi2_sf(chi, found.dof))


def _counted(results: Iterable[str]) -> Counter[str]:
    """A count per face: a long campaign's dice are counted as they are rolled, and
    passed as the count rather than each face again."""
    return results if isinstance(results, Counter) else Counter(results)


def chi_squared(faces: Sequence[FaceCount], total: int) -> float:
    """Pearson's statistic: the sum over faces of (observed - expected)^2 / expected."""
    expected = [float(f.share or 0) * total for f in faces]
    return sum((f.count - e) ** 2 / e for f, e in zip(faces, expected, strict=True) if e > 0)


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for a chi-squared variable with `dof` degrees of freedom, exactly (the
    regularized upper gamma function has closed forms at whole and half-whole orders)."""
    half = x / 2
    if dof % 2 == 0:
        term = total = 1.0
        for i in range(1, dof // 2):
            term *= half / i
            total += term
        return math.exp(-half) * total
    total = math.erfc(math.sqrt(half))
    term = math.sqrt(half) / math.gamma(1.5)
    for i in range(1, (dof + 1) // 2):
        total += math.exp(-half) * term
        term *= half / (i + 0.5)
    return min(total, 1.0)


def luck(results: Iterable[str], hoped: Sequence[str], die_faces: Sequence[str]) -> Luck:
    """The results (each face, or a count per face) that showed one of the `hoped` faces,
    with the z-score of that count against a fair die (a binomial: mean n*p, variance
    n*p*(1-p))."""
    fair, counted = shares(die_faces), _counted(results)
    p = float(sum(fair.get(f, Fraction(0)) for f in hoped))
    n = sum(counted.values())
    count = sum(counted[f] for f in set(hoped))
    spread = math.sqrt(n * p * (1 - p))
    z = (count - n * p) / spread if spread > 0 else None
    return Luck(tuple(hoped), n, count, n * p, z)


def chance(value: Fraction) -> dict[str, Any]:
    """A chance for scripts (`spire odds --json`): exact (`fraction`) and as a float."""
    return {"fraction": f"{value.numerator}/{value.denominator}", "value": float(value)}
