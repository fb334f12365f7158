"""Hildegard's events: what happens on a target or in a face-off, in the table's words.

One command records one event; what follows from it (the bullseyes a set forms, the hits
an enemy's dice make, a target's reward) is worked out by `evolve`, so it can never
disagree with the dice.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from journal.core.events import Payload
from journal.games.hildegard.cards import EnemyCard, HitMeter, Status, TargetCard
from journal.games.hildegard.dice import Face, WildDie, WildEffect

Feat = Literal["hone", "wild", "bullseye", "reset", "redo", "block"]


class TargetStarted(Payload):
    type: Literal["target-started"] = "target-started"
    card: TargetCard
    shooter: str
    """Who handles the target: in a two-player game, the players decide between them."""


class FaceOffStarted(Payload):
    type: Literal["face-off-started"] = "face-off-started"
    meter: HitMeter
    enemies: tuple[EnemyCard, ...] = Field(min_length=1)
    enemy_first: bool = False
    """A card says the enemy attacks first ("always attack first unless stated otherwise")."""


class ShotDiceRolled(Payload):
    """A set's first roll, or a finesse re-roll of the dice not locked (in their order)."""

    type: Literal["shot-dice-rolled"] = "shot-dice-rolled"
    roller: str
    faces: tuple[Face, ...]


class DiceLocked(Payload):
    type: Literal["dice-locked"] = "dice-locked"
    roller: str
    dice: tuple[int, ...] = Field(min_length=1)
    """1-based positions of the dice locked in."""


class FinesseStopped(Payload):
    """The players stop finessing with dice still unlocked (the set goes on to the wild shot)."""

    type: Literal["finesse-stopped"] = "finesse-stopped"
    roller: str


class WildShotRolled(Payload):
    type: Literal["wild-shot-rolled"] = "wild-shot-rolled"
    die: WildDie
    effect: WildEffect
    shooter: str
    """Whose set the wild shot affects (in a two-player face-off, the players choose)."""
    target_die: int | None = None
    """Instinct, Whoopsie, Ricochet: the 1-based position of the die affected."""
    face: Face | None = None
    """Instinct: the face chosen; Ricochet: the face re-rolled."""


class FeatUsed(Payload):
    type: Literal["feat-used"] = "feat-used"
    feat: Feat
    cost: int = Field(ge=0)
    shooter: str
    square: int | None = Field(default=None, ge=1)
    """Block: the hit square it blocks."""


class BlockPlaced(Payload):
    """A shot die used to block a hit square, or a Block bought with a feat (die None)."""

    type: Literal["block-placed"] = "block-placed"
    shooter: str
    square: int = Field(ge=1)
    die: int | None = None


class BullseyesAssigned(Payload):
    """With several enemies, how a set's bullseyes are split among them."""

    type: Literal["bullseyes-assigned"] = "bullseyes-assigned"
    shooter: str
    enemy: str
    bullseyes: int = Field(ge=0)


class EffectSuffered(Payload):
    """A negative status effect a card inflicts, on the next set (Negative Status Effects)."""

    type: Literal["effect-suffered"] = "effect-suffered"
    effect: Status


class TagTeamUsed(Payload):
    """Hallveig's Tag Team: this round the two players' sets combine into bullseyes."""

    type: Literal["tag-team-used"] = "tag-team-used"


class EncounterEnded(Payload):
    """The players end a target before its sets run out, or abandon a face-off."""

    type: Literal["encounter-ended"] = "encounter-ended"
    shooter: str | None = None
    """Whose target, when two players each shoot one; None: the one under way."""
    face_off: bool = False
    """A face-off abandoned, which counts as lost (a journal before issue 31: False)."""


EVENTS: tuple[type[Payload], ...] = (
    TargetStarted, FaceOffStarted, ShotDiceRolled, DiceLocked, FinesseStopped,
    WildShotRolled, FeatUsed, BlockPlaced, BullseyesAssigned, EffectSuffered, TagTeamUsed,
    EncounterEnded,
)
"""Every event of Hildegard's own, as the core learns them (journal.core.events.learn)."""
