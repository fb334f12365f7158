"""Hildegard's cards as the players enter them: targets, enemies, the hit meter.

An encounter's event keeps a copy of its card, so a later edit of the catalog never
changes a past playthrough. A value the rulebook does not print is None: spire never
invents a card's numbers.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from journal.errors import BadInput
from journal.games.hildegard.dice import Face, face, faces

Status = Literal["flub", "tame", "graze", "hit"]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


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


def story_cards(card: Card) -> tuple[int, ...]:
    """The story cards `card` names: its own number, and those it sends the players to (a
    target's hit and miss, a meter's win and lose)."""
    sent = ((card.hit_card, card.miss_card) if isinstance(card, TargetCard) else
            (card.win_card, card.lose_card) if isinstance(card, HitMeter) else ())
    return tuple(n for n in (card.number, *sent) if n is not None)


DEFAULT_METER = "Hildegard's Hit Meter"


def card_from(name: str, data: dict[str, object]) -> Card:
    """A card from its TOML or JSON description."""
    fields = {**data, "name": name}
    kind = fields.get("kind", "target")
    model: type[Card] = {"target": TargetCard, "enemy": EnemyCard, "meter": HitMeter}[str(kind)]  # type: ignore[assignment]
    if kind == "meter":
        fields["squares"] = [{"part": None, **square} for square in fields.get("squares", [])]  # type: ignore[attr-defined]
    return model.model_validate(fields)


def parse_reward(text: str) -> Reward:
    """`1 gold`, `2 feats`, `1 feat`."""
    words = text.replace(":", " ").split()
    if len(words) == 2 and words[0].isdigit():
        amount, word = int(words[0]), words[1].casefold()
    elif len(words) == 2 and words[1].isdigit():
        amount, word = int(words[1]), words[0].casefold()
    else:
        raise BadInput(f"cannot read reward {text!r}; write it as `1 gold` or `2 feats`")
    resource = "feats" if word.startswith("feat") else "gold" if word == "gold" else None
    if resource is None or amount < 1:
        raise BadInput(f"cannot read reward {text!r}; write it as `1 gold` or `2 feats`")
    return Reward(resource=resource, amount=amount)


def parse_bonus(text: str) -> Bonus:
    """`3 bullseyes, 1 feat` or `ring+dot, 1 gold`."""
    challenge, _, reward = text.partition(",")
    if not reward:
        raise BadInput(f"cannot read bonus {text!r}; write `3 bullseyes, 1 feat` or "
                       "`crescent+crescent, 1 gold`")
    words = challenge.split()
    if words and words[0].isdigit():
        return Bonus(bullseyes=int(words[0]), reward=parse_reward(reward))
    combination = faces(challenge.replace("+", ",").split())
    return Bonus(combination=combination, reward=parse_reward(reward))


def parse_squares(text: str) -> tuple[Square, ...]:
    """Hit squares, in meter order: `c,c,r!,d:flub` (! gray; :effect its tab; ? not entered)."""
    squares = []
    for spec in (s.strip() for s in text.split(",")):
        if not spec:
            continue
        spec, _, tab = spec.partition(":")
        gray = spec.endswith("!")
        spec = spec.rstrip("!")
        part = None if spec in ("?", "") else face(spec)
        if tab and tab.casefold() not in STATUSES:
            raise BadInput(f"unknown status effect {tab!r}; tabs: {', '.join(STATUSES)}")
        squares.append(Square(part=part, gray=gray, tab=tab.casefold() or None))
    if not squares:
        raise BadInput("the hit meter needs its squares, e.g. `c,c,r!,d:flub`")
    return tuple(squares)


STATUSES = ("flub", "tame", "graze", "hit")


def inline_target(name: str, given: dict[str, object]) -> TargetCard:
    """A target card from numbers typed inline (`spire target NAME --limit ...`)."""
    missing = [k for k in ("bullseye_limit", "accuracy", "sets", "parts") if given.get(k) is None]
    if missing:
        flags = ", ".join("--" + {"bullseye_limit": "limit"}.get(k, k) for k in missing)
        raise BadInput(f"a target given inline needs {flags} too")
    fields = {k: v for k, v in given.items() if v is not None}
    fields["parts"] = faces(str(fields["parts"]).split())
    if "reward" in fields:
        fields["reward"] = parse_reward(str(fields["reward"]))
    if "bonus" in fields:
        fields["bonus"] = parse_bonus(str(fields["bonus"]))
    return TargetCard(name=" ".join(name.split()), **fields)
