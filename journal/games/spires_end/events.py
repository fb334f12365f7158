"""Spire's End's events: allies drawn, fights, each step of a turn, death moves.

One command records one event with the dice the table rolled and the choices the
players made (who takes a kickback, who a heal goes to); what follows from them (damage
through armor, cubes placed and removed, a death, the boost meter) is worked out by
`evolve`, so it can never disagree with the dice.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from journal.core.events import Payload
from journal.games.spires_end.cards import AllyCard, EnemyCard, Inflicted

D8 = Field(ge=1, le=8)


class AllyDrawn(Payload):
    """An ally card drawn into play: a starting ally, or the next one taking a dead
    ally's place (its items pass to it)."""

    type: Literal["ally-drawn"] = "ally-drawn"
    card: AllyCard
    slot: int = Field(ge=1, le=2)


class FightBegan(Payload):
    type: Literal["fight-began"] = "fight-began"
    enemy: EnemyCard


class ActionPerformed(Payload):
    """An ally's action: the bar (1-based) and every d8 rolled for it, in order (Luck's
    extra dice, the second roll of a (!) bar, an Encore re-roll)."""

    type: Literal["action-performed"] = "action-performed"
    actor: str
    bar: int = Field(ge=1)
    rolls: tuple[int, ...]
    target: str | None = None
    """Whom it attacks; None: the enemy (or everyone opposing, for an all-targets bar)."""
    kickback_to: str | None = None
    given_to: str | None = None
    """Who gains its positive effects; None: the actor."""


class EnemyActed(Payload):
    """The enemy's turn: the selection roll, the action card drawn, the bar's dice."""

    type: Literal["enemy-acted"] = "enemy-acted"
    enemy: str
    card: int = Field(ge=1)
    """The action card drawn: its number picks the bar."""
    bar: int = Field(ge=1)
    """The bar performed: the card's, unless Intimidate or Confusion forces another."""
    selection: int | None = Field(default=None, ge=1, le=8)
    target: str | None = None
    """The ally the selection roll picked (None: a bar that strikes every ally)."""
    rolls: tuple[int, ...]


class Rested(Payload):
    type: Literal["rested"] = "rested"
    actor: str


class Recouped(Payload):
    type: Literal["recouped"] = "recouped"
    actor: str
    kind: Literal["heal", "armor", "cleanse"]
    roll: int = D8
    to: str | None = None
    """Who gains the points or is cleansed; None: the actor."""
    effect: str | None = None
    """Cleanse: the effect removed; None: the oldest negative one."""


class BoostSpent(Payload):
    """A full boost meter spent for Strength (1 turn)."""

    type: Literal["boost-spent"] = "boost-spent"
    actor: str


class UpkeepDone(Payload):
    """The end of a turn: one cube off each status effect, its effect applied."""

    type: Literal["upkeep-done"] = "upkeep-done"
    actor: str


class DeathMovePerformed(Payload):
    type: Literal["death-move-performed"] = "death-move-performed"
    ally: str
    target: str | None = None
    """Whom its damage and negative effects strike; None: the enemy."""
    given_to: str | None = None
    """The chosen target of its positive effects ("Strength ... on chosen target")."""
    rolls: tuple[int, ...] = ()


class EffectInflicted(Payload):
    """A status effect a story card inflicts (or the table adds by hand)."""

    type: Literal["effect-inflicted"] = "effect-inflicted"
    target: str
    inflicted: Inflicted


class SelectionRolled(Payload):
    """'Use the Selection Roll any time you need to determine which Ally is affected.'"""

    type: Literal["selection-rolled"] = "selection-rolled"
    roll: int = D8
    ally: str | None = None


class FightEnded(Payload):
    """The players end a fight the story ends (or abandon it)."""

    type: Literal["fight-ended"] = "fight-ended"


EVENTS: tuple[type[Payload], ...] = (
    AllyDrawn, FightBegan, ActionPerformed, EnemyActed, Rested, Recouped, BoostSpent,
    UpkeepDone, DeathMovePerformed, EffectInflicted, SelectionRolled, FightEnded,
)
"""Every event of Spire's End's own, as the core learns them (journal.core.events.learn)."""
