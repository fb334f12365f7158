"""Hildegard's cards as the players enter them: targets, enemies, the hit meter.

An encounter's event keeps a copy of its card, so a later edit of the catalog never
changes a past playthrough. A value the rulebook does not print is None: spire never
invents a card's numbers.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from journal.games.hildegard.dice import Face

Status = Literal["flub", "tame", "graze", "hit"]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Reward(Frozen):
    """Gold or Feats of Marksmanship (Target Card Anatomy, D)."""

    resource: Literal["gold", "feats"]
    amount: int = Field(ge=1)


class Bonus(Frozen):
    """A bonus challenge and its reward (Bonus Challenges): a number of bullseyes over all
    sets, or a combination that must be the final results of one set."""

    bullseyes: int | None = Field(default=None, ge=1)
    combination: tuple[Face, ...] | None = None
    reward: Reward


class TargetCard(Frozen):
    kind: Literal["target"] = "target"
    name: str
    number: int | None = None
    bullseye_limit: int = Field(ge=1)
    accuracy: int = Field(ge=1)
    sets: int = Field(ge=1)
    parts: tuple[Face, ...]
    reward: Reward | None = None
    bonus: Bonus | None = None
    hit_card: int | None = None
    miss_card: int | None = None


class EnemyCard(Frozen):
    kind: Literal["enemy"] = "enemy"
    name: str
    number: int | None = None
    bullseye_limit: int = Field(ge=1)
    accuracy: int = Field(ge=1)
    """Hit Acc: the shot dice the enemy rolls per set."""
    parts: tuple[Face, ...] = ()
    reward: Reward | None = None


class Square(Frozen):
    """One hit square: the part that hits (and blocks) it, gray if unblockable, and the
    status effect its tab triggers on Hildegard's next set. `part` None: not printed."""

    part: Face | None
    gray: bool = False
    tab: Status | None = None


class HitMeter(Frozen):
    kind: Literal["meter"] = "meter"
    name: str
    number: int | None = None
    accuracy: int = Field(ge=1)
    squares: tuple[Square, ...]
    win_card: int | None = None
    lose_card: int | None = None


Card = TargetCard | EnemyCard | HitMeter
