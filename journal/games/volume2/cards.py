"""Volume 2's cards as the players enter them: allies with their dice and combinations,
enemies and wildlife with their d20 damage tables.

An ally prints its HP and AP limits, its Recoup, the dice it rolls, its action
combinations and its abilities (Finnian & Friends; Ally Overview). An enemy prints HP,
AP, rewards, ferocity, attacks, retreat, a d20 damage table and abilities (Enemy
Overview). A number the rulebook does not print is None until the players enter it:
spire never invents one, and an encounter asks for what it needs. Events keep a copy
of the card, so a later edit of the catalog never changes a past playthrough.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from journal.core.words import counted
from journal.games.volume2.dice import DieKind, faces_of

Effect = Literal["damage", "heal", "repair", "effect"]
NEVER = "never"
"""Retreat ∞: "the Enemy will not flee"."""


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Combo(Frozen):
    """A named action combination: the faces it needs (a multiset) and what it does."""

    name: str = Field(min_length=1)
    faces: tuple[str, ...] = Field(min_length=1, max_length=6)
    effect: Effect
    amount: int = Field(default=0, ge=0, le=99)
    text: str = ""
    """A named effect, recorded as text ("effect"); with damage, heal or repair, what
    else the combination does ("2 damage and stun": "stun"), kept as text."""

    def says(self) -> str:
        if self.effect == "effect":
            return self.text or self.name
        return f"{self.effect} {self.amount}" + (f" and {self.text}" if self.text else "")


class Row(Frozen):
    """A row of the d20 damage table: totals `low` to `high` deal `damage` (0: a miss)."""

    low: int = Field(ge=-99, le=199)
    high: int = Field(ge=-99, le=199)
    damage: int = Field(ge=0, le=99)

    @model_validator(mode="after")
    def _ordered(self) -> Row:
        if self.low > self.high:
            raise ValueError(f"the rolls {self.low}-{self.high} run backwards")
        return self

    def __str__(self) -> str:
        rolls = str(self.low) if self.low == self.high else f"{self.low}-{self.high}"
        return f"{rolls}: {self.damage}"


Points = Field(default=None, ge=0, le=99)
Raised = Literal["ferocity", "damage", "attacks"]


class Boost(Frozen):
    """An ability that changes a number each time it is triggered: "RAGE: +1 ferocity
    (stacks)". "If an ability says (stacks), its effect increases each time it is
    triggered and does not reset at the end of a round"; one that does not stack lasts
    until the end of the round."""

    name: str = Field(min_length=1)
    raises: Raised
    amount: int = Field(ge=-20, le=20)
    stacks: bool = False


class AllyCard(Frozen):
    kind: Literal["ally"] = "ally"
    name: str
    number: int | None = Field(default=None, ge=1, le=9999)
    hp: int | None = Field(default=None, ge=1, le=99)
    """The Hit Points Limit."""
    ap: int | None = Points
    """The Armor Points Limit."""
    recoup: int | None = Points
    dice: DieKind | None = None
    combos: tuple[Combo, ...] = ()
    abilities: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _faces_of_its_dice(self) -> AllyCard:
        if self.dice is None:
            return self
        known = faces_of(self.dice)
        for combo in self.combos:
            stray = [f for f in combo.faces if f not in known]
            if stray:
                raise ValueError(f"{combo.name}: {stray[0]!r} is not a face of the {self.dice} "
                                 f"die ({', '.join(known)})")
        return self

    def combo(self, name: str) -> Combo | None:
        wanted = " ".join(name.split()).casefold()
        return next((c for c in self.actions() if c.name.casefold() == wanted), None)

    def actions(self) -> tuple[Combo, ...]:
        """Its combinations; hive dice add Finnian's sickles ("1 DMG per Sickle (Max 2)")."""
        if self.dice != "hive" or any(c.name == "sickles" for c in self.combos):
            return self.combos
        return (Combo(name="sickles", faces=("sickle",), effect="damage", amount=1),
                *self.combos)

    def missing(self) -> list[str]:
        """The options that still have to enter a number an encounter needs."""
        wanted = {"--hp": self.hp, "--ap": self.ap, "--recoup": self.recoup, "--dice": self.dice}
        return [option for option, value in wanted.items() if value is None]


class EnemyCard(Frozen):
    """An enemy or a wildlife card: "Wildlife Cards function like Enemies"."""

    kind: Literal["enemy"] = "enemy"
    name: str
    number: int | None = Field(default=None, ge=1, le=9999)
    hp: int | None = Field(default=None, ge=1, le=999)
    ap: int | None = Points
    ferocity: int | None = Field(default=None, ge=-20, le=99)
    attacks: int | None = Field(default=None, ge=1, le=20)
    retreat: int | Literal["never"] | None = None
    """Rounds it fights before it is no longer in play; "never": ∞."""
    table: tuple[Row, ...] = ()
    quickdraw: int | None = Field(default=None, ge=1, le=20)
    """QUICKDRAW: a natural d20 roll of this or lower gives another attack."""
    boosts: tuple[Boost, ...] = ()
    """The abilities that change a number when triggered (`spire ability`)."""
    abilities: tuple[str, ...] = ()
    rewards: str | None = None
    meat: bool = False
    pelt: bool = False
    wildlife: bool = False

    @model_validator(mode="after")
    def _retreat(self) -> EnemyCard:
        if isinstance(self.retreat, int) and not 1 <= self.retreat <= 99:
            raise ValueError(f"retreat is 1 to 99 rounds, or never, not {self.retreat}")
        rows = sorted(self.table, key=lambda r: r.low)
        for before, after in pairwise(rows):
            if after.low <= before.high:
                raise ValueError(f"the table's rows {before} and {after} overlap; each total "
                                 "reads one row")
        return self

    def reward_items(self) -> tuple[str, ...]:
        """"REWARDS: Items received if this Enemy is defeated": one item a name, as typed
        ("Rusty Key, Old Map")."""
        if not self.rewards:
            return ()
        return tuple(n for n in (" ".join(p.split()) for p in self.rewards.split(",")) if n)

    def boost(self, name: str) -> Boost | None:
        wanted = " ".join(name.split()).casefold()
        return next((b for b in self.boosts if b.name.casefold() == wanted), None)

    def damage(self, total: int) -> int:
        """The table's damage for a d20 + ferocity total. Our ruling (docs/volume2.md):
        above the highest row uses that row; below the lowest row is a miss."""
        if not self.table:
            return 0
        top = max(self.table, key=lambda r: r.high)
        if total > top.high:
            return top.damage
        row = next((r for r in self.table if r.low <= total <= r.high), None)
        return row.damage if row else 0

    def missing(self) -> list[str]:
        wanted = {"--hp": self.hp, "--ap": self.ap, "--ferocity": self.ferocity,
                  "--attacks": self.attacks, "--retreat": self.retreat,
                  "--table": self.table or None}
        return [option for option, value in wanted.items() if value is None]


class TradeCard(Frozen):
    """A Trading Post Card: an item and its cost in meat and/or pelts, "listed at the
    bottom of each card face" (Trading Post Cards)."""

    name: str = Field(min_length=1, max_length=200)
    meat: int = Field(default=0, ge=0, le=99)
    pelts: int = Field(default=0, ge=0, le=99)
    kind: Literal["gear", "single-use", "story"] = "gear"
    raises: tuple[tuple[Literal["hp", "ap"], int], ...] = ()
    """Gear: the limits it raises while held."""

    def price(self) -> str:
        parts = [counted(n, what) for n, what in ((self.meat, "meat"), (self.pelts, "pelts")) if n]
        return " and ".join(parts) or "nothing"


Card = AllyCard | EnemyCard


def card_from(name: str, data: dict[str, object]) -> Card:
    """A card from its stored description."""
    fields = {**data, "name": name}
    model: type[Card] = EnemyCard if fields.get("kind") == "enemy" else AllyCard
    return model.model_validate(fields)


__all__ = ["AllyCard", "Boost", "Card", "Combo", "EnemyCard", "Row", "TradeCard"]
