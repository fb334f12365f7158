"""Volume 2's events: allies joining, encounters, each step of an ally's turn, the target
roll and the enemies' attacks.

One command records one event with the dice the table rolled and the choices the players
made; what follows from them (gains, damage through armor, a KO, the round's recoup, a
retreat, the reset, the spoils) is worked out by `evolve`, so it can never disagree with
the dice.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from journal.core.events import CARD_HIGHEST, NAME_LONGEST, Payload
from journal.games.volume2.cards import AllyCard, EnemyCard, TradeCard

NATURAL_D20 = Field(ge=1, le=20)


class AllyJoined(Payload):
    """An ally card pulled from the Ally Deck joins the party."""

    type: Literal["ally-joined"] = "ally-joined"
    card: AllyCard


class EncounterBegan(Payload):
    """Who fights ("Finnian must be present", up to 2 more) against which enemies, left
    to right. The cards are copies, as entered when the encounter began."""

    type: Literal["encounter-began"] = "encounter-began"
    allies: tuple[AllyCard, ...] = Field(min_length=1, max_length=8)
    enemies: tuple[EnemyCard, ...] = Field(min_length=1, max_length=8)


class ActionDiceRolled(Payload):
    """An ally's action dice: the first roll of a turn pays `spent` HP (its accuracy, one
    die each); a re-roll (finesse) rolls the dice not locked, and pays nothing."""

    type: Literal["action-dice-rolled"] = "action-dice-rolled"
    ally: str
    die: Literal["hive", "shot"]
    faces: tuple[str, ...] = Field(max_length=20)
    spent: int = Field(default=0, ge=0, le=20)


class ActionDiceLocked(Payload):
    type: Literal["action-dice-locked"] = "action-dice-locked"
    ally: str
    dice: tuple[int, ...] = Field(min_length=1, max_length=20)
    """Positions, 1-based, in the order of the dice rolled."""


class FinesseEnded(Payload):
    """The dice stand as they are: every die not locked counts as locked."""

    type: Literal["finesse-ended"] = "finesse-ended"
    ally: str


class ActionTaken(Payload):
    """A combination the locked dice make, on one target ("Damage from a single
    combination must be applied to one target")."""

    type: Literal["action-taken"] = "action-taken"
    ally: str
    action: str
    target: str | None = None


class HiveDeployed(Payload):
    """Bees (a sting: +1 damage each to the turn's successful attack) or pollen (+1 HP
    each to an ally), spent from the hive while a hive is active."""

    type: Literal["hive-deployed"] = "hive-deployed"
    what: Literal["bee", "pollen"]
    count: int = Field(ge=1, le=8)
    on: str | None = None


class TurnEnded(Payload):
    """The ally's upkeep: its turn is over."""

    type: Literal["turn-ended"] = "turn-ended"
    ally: str


class TargetRolled(Payload):
    """The target roll: one d20 for each ally in `allies`, in that order; the highest is
    hit, a tie rolls again among the tied allies only."""

    type: Literal["target-rolled"] = "target-rolled"
    allies: tuple[str, ...] = Field(min_length=1, max_length=8)
    rolls: tuple[int, ...] = Field(min_length=1, max_length=8)
    between: bool = False
    """A roll between the allies in question, for an ability or special rule (Rules of
    Engagement, NOTE), at any time: it says who, and targets no attack."""


class TargetChosen(Payload):
    """"you may spend 1 Bee to skip the roll and choose which Ally is targeted.\""""

    type: Literal["target-chosen"] = "target-chosen"
    ally: str


class EnemyAttacked(Payload):
    """One attack: the natural d20 (ferocity is added when it is read on the table)."""

    type: Literal["enemy-attacked"] = "enemy-attacked"
    enemy: str
    roll: int = NATURAL_D20
    target: str


class AbilityTriggered(Payload):
    """An enemy's ability that changes a number, triggered as its card says."""

    type: Literal["ability-triggered"] = "ability-triggered"
    enemy: str
    ability: str


class EncounterClosed(Payload):
    """The players end the encounter (the story ends it, or they abandon it)."""

    type: Literal["encounter-closed"] = "encounter-closed"


# -- the world between fights --------------------------------------------------------------

class TradingCardRevealed(Payload):
    """A Trading Post Card revealed at a trading post, with the price it shows."""

    type: Literal["trading-card-revealed"] = "trading-card-revealed"
    card: TradeCard


class ItemBought(Payload):
    """Meat and pelts traded for the item of a revealed Trading Post Card."""

    type: Literal["item-bought"] = "item-bought"
    card: TradeCard
    holder: str | None = None


class WaterfallLaid(Payload):
    """A waterfall event's cards laid face down: how many cards each row holds, row 1
    first (rows 2 onward lettered A-F)."""

    type: Literal["waterfall-laid"] = "waterfall-laid"
    event: str
    rows: tuple[int, ...] = Field(min_length=1, max_length=8)


class WaterfallCardChosen(Payload):
    """One card of a row chosen and revealed; the rest of that row is discarded."""

    type: Literal["waterfall-card-chosen"] = "waterfall-card-chosen"
    row: int = Field(ge=1, le=8)
    card: int = Field(ge=1, le=8)
    """Its place in the row: row 1 by position, later rows A=1 ... F=6."""


class WaterfallCardsRemoved(Payload):
    """Cards a revealed card removes from a row ("Remove Row 2 cards B and F")."""

    type: Literal["waterfall-cards-removed"] = "waterfall-cards-removed"
    row: int = Field(ge=1, le=8)
    cards: tuple[int, ...] = Field(min_length=1, max_length=8)


class WaterfallEnded(Payload):
    """"FINAL OUTCOME: When you reach a conclusion, Reveal the indicated Story Card.\""""

    type: Literal["waterfall-ended"] = "waterfall-ended"
    card: int = Field(ge=1)


class CarriedItem(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    name: str = Field(min_length=1, max_length=NAME_LONGEST)
    kind: str = Field(min_length=1, max_length=40)
    holder: str | None = Field(default=None, max_length=NAME_LONGEST)
    raises: tuple[tuple[Literal["hp", "ap"], int], ...] = ()


class CarryOver(BaseModel):
    """What an episode carries into the next (Episode Progression): "The Story Card your
    playthrough ended on / Your current Allies / Any Milestone Cards in play / Your current
    Item Cards", and the bees, pollen, meat and pelts the players hold. Also the small
    JSON file `spire episode end --output` writes for the players to keep."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    spire_carry_over: Literal[1] = 1
    game: Literal["volume2"] = "volume2"
    campaign: str = Field(max_length=200)
    ended_on: int | None = Field(default=None, ge=1, le=CARD_HIGHEST)
    allies: tuple[str, ...] = Field(max_length=20)
    cards: tuple[AllyCard, ...] = Field(default=(), max_length=20)
    """The cards of the allies who joined (Finnian's is the game's own)."""
    milestones: tuple[int, ...] = Field(default=(), max_length=200)
    """Each at least 1 (checked with the rest of a file a person may have edited)."""
    items: tuple[CarriedItem, ...] = Field(default=(), max_length=200)
    resources: tuple[tuple[str, int], ...] = Field(default=(), max_length=20)


class EpisodeEnded(Payload):
    """The episode is over; what carries into the next is recorded with it."""

    type: Literal["episode-ended"] = "episode-ended"
    carried: CarryOver


class DeckCardPulled(Payload):
    """A card of an unnumbered pull deck (Ally, Duster, Wildlife), by its name."""

    type: Literal["deck-card-pulled"] = "deck-card-pulled"
    deck: Literal["ally", "duster", "wildlife"]
    name: str = Field(min_length=1, max_length=200)


class ItemUsed(Payload):
    """A single-use item used up."""

    type: Literal["item-used"] = "item-used"
    item: str
    holder: str | None = None


EVENTS: tuple[type[Payload], ...] = (
    AllyJoined, EncounterBegan, ActionDiceRolled, ActionDiceLocked, FinesseEnded,
    ActionTaken, HiveDeployed, TurnEnded, TargetRolled, TargetChosen, EnemyAttacked,
    AbilityTriggered, EncounterClosed, TradingCardRevealed, ItemBought, WaterfallLaid,
    WaterfallCardChosen, WaterfallCardsRemoved, WaterfallEnded, EpisodeEnded,
    DeckCardPulled, ItemUsed,
)
"""Every event of Volume 2's own, as the core learns them (journal.core.events.learn)."""
