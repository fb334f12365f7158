"""Spire's End's cards as the players enter them: allies and enemies, with their bars.

An ally card prints its thresholds, its red action bars (HP cost, d8 ranges and what each
does), its recoup bar, its black death bar and its boxed status letters (Ally Card
Anatomy). An enemy prints the same without HP costs; its action cards pick a bar by
number (Enemy Combat). A value the rulebook does not print is left out: spire never
invents a card's numbers. Events keep a copy of the card, so a later edit of the catalog
never changes a past playthrough.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from journal.games.spires_end.effects import EFFECTS, effect_name

Points = Literal["hp", "ap"]
LETTERS = "ABCDEFGH"
"""The boxed letters an action result may show (Action Bar Example)."""


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Rolls(Frozen):
    """A range of d8 roll numbers, both ends included: 4-6, or 7 alone."""

    low: int = Field(ge=1, le=8)
    high: int = Field(ge=1, le=8)

    @model_validator(mode="before")
    @classmethod
    def _written(cls, value: object) -> object:
        """`4-6`, `7` or 7, as the card prints them."""
        if isinstance(value, int):
            return {"low": value, "high": value}
        if isinstance(value, str):
            low, _, high = value.replace(" ", "").partition("-")
            if not low.isdigit() or not (high or low).isdigit():
                raise ValueError(f"cannot read the rolls {value!r}; write 4-6 or 7")
            return {"low": int(low), "high": int(high or low)}
        return value

    @model_validator(mode="after")
    def _ordered(self) -> Rolls:
        if self.low > self.high:
            raise ValueError(f"the range {self.low}-{self.high} runs backwards")
        return self

    def __contains__(self, roll: object) -> bool:
        return isinstance(roll, int) and self.low <= roll <= self.high

    @property
    def always(self) -> bool:
        return self.low == 1 and self.high == 8

    def __str__(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


class Inflicted(Frozen):
    """A status effect a result causes: its clock icons (turns) or the persistent icon.
    No clock: "the effect is triggered immediately" (Status Effects)."""

    effect: str
    turns: int = Field(default=0, ge=0)
    persistent: bool = False

    @field_validator("effect")
    @classmethod
    def _known(cls, name: str) -> str:
        return effect_name(name)


class Status(Inflicted):
    """A boxed letter on the card (A through H) and the status effect it stands for."""

    letter: str

    @field_validator("letter")
    @classmethod
    def _letter(cls, letter: str) -> str:
        if letter.upper() not in LETTERS or len(letter) != 1:
            raise ValueError(f"status letters run A through H, not {letter!r}")
        return letter.upper()


class Kickback(Frozen):
    """A bonus off a lucky roll, to an ally of the players' choice: drops are HP, shields AP."""

    points: Points
    amount: int = Field(ge=1)


class Result(Frozen):
    """What a bar does on the rolls in `rolls`: damage (or the rolled number, the star
    icon), boxed status letters or effects named outright, and a kickback."""

    rolls: Rolls
    damage: int = Field(default=0, ge=0)
    rolled: bool = False
    letters: tuple[str, ...] = ()
    effects: tuple[Inflicted, ...] = ()
    kickback: Kickback | None = None


class Bar(Frozen):
    """An action bar (red for allies), an enemy's numbered bar, or the black death bar.
    Twice: the (!) icon; all targets: the cross icon (Combat Icon Legend)."""

    name: str = ""
    cost: int = Field(default=0, ge=0)
    results: tuple[Result, ...] = ()
    twice: bool = False
    all_targets: bool = False
    roll: bool = True
    """False: a death bar whose one result needs no roll (the Death Bar Example)."""

    def result(self, roll: int) -> Result | None:
        """The result the roll lands on; None: a miss."""
        return next((r for r in self.results if roll in r.rolls), None)

    @property
    def needs_roll(self) -> bool:
        return self.roll


class Amount(Frozen):
    rolls: Rolls
    amount: int = Field(ge=0)


class RecoupBar(Frozen):
    """Heal (HP) and armor amounts by roll, and the rolls that Cleanse (Recoup Bar Example)."""

    heal: tuple[Amount, ...] = ()
    armor: tuple[Amount, ...] = ()
    cleanse: Rolls | None = None

    def amount(self, kind: str, roll: int) -> int:
        ranges = self.heal if kind == "heal" else self.armor
        return next((a.amount for a in ranges if roll in a.rolls), 0)


class CombatCard(Frozen):
    name: str
    number: int | None = None
    hp: int = Field(ge=1)
    """The Hit Point threshold."""
    ap: int = Field(default=0, ge=0)
    """The Armor Point threshold."""
    bars: tuple[Bar, ...] = ()
    recoup: RecoupBar | None = None
    statuses: tuple[Status, ...] = ()

    def status(self, letter: str) -> Status | None:
        return next((s for s in self.statuses if s.letter == letter.upper()), None)

    @model_validator(mode="after")
    def _letters_printed(self) -> CombatCard:
        for bar in (*self.bars, *self._more_bars()):
            for result in bar.results:
                missing = [x for x in result.letters if self.status(x) is None]
                if missing:
                    raise ValueError(f"status letter {missing[0]} of {bar.name or 'a bar'} "
                                     "is not on the card; --status gives it")
        return self

    def _more_bars(self) -> tuple[Bar, ...]:
        return ()


class AllyCard(CombatCard):
    kind: Literal["ally"] = "ally"
    death: Bar | None = None

    def _more_bars(self) -> tuple[Bar, ...]:
        return (self.death,) if self.death else ()


class EnemyCard(CombatCard):
    """An enemy: "Enemies DO NOT spend HP to perform attacks", so its bars cost nothing."""

    kind: Literal["enemy"] = "enemy"

    @model_validator(mode="after")
    def _no_costs(self) -> EnemyCard:
        if any(bar.cost for bar in self.bars):
            raise ValueError("an enemy's bars have no HP cost")
        return self


Card = AllyCard | EnemyCard


def card_from(name: str, data: dict[str, object]) -> Card:
    """A card from its TOML or JSON description."""
    fields = {**data, "name": name}
    model: type[Card] = EnemyCard if fields.get("kind") == "enemy" else AllyCard
    return model.model_validate(fields)


__all__ = ["EFFECTS", "AllyCard", "Bar", "Card", "EnemyCard", "RecoupBar", "Result"]
