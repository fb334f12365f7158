"""The cards spire knows for Volume 2: the rulebook's examples (rules/volume2.toml), the
cards the players entered (kept in the journal), and cards typed on `spire card add`.

A combination is typed as the ally card reads, `NAME: FACES: EFFECT`:

    "Double Shot: black white: 2 damage"     (faces by name or short form)
    "Repair: ping: repair 1"                 (damage N, heal N, repair N)
    "Stun Shot: black white: 2 damage and stun"   (the damage, and the rest as text)
    "Snare: circle circle: Snare"            (anything else: a named effect, kept as text)

A damage table is typed as the enemy card prints it: "5-15: 3; 16-19: 4; 20: 5".
"""

from __future__ import annotations

from functools import cache, partial
from typing import Any, TypeVar

from journal.core.words import listed
from journal.errors import BadInput, NotFound
from journal.games import load, valid
from journal.games.volume2.cards import AllyCard, Boost, Card, Combo, EnemyCard, Row
from journal.games.volume2.dice import DieKind, faces

GAME = load("volume2")

T = TypeVar("T")


@cache
def rulebook_cards() -> dict[str, Card]:
    """The allies and the enemy the rulebook prints, with only what it prints."""
    examples = GAME.raw.get("examples", {})
    found: dict[str, Card] = {}
    for name, data in examples.get("ally", {}).items():
        found[name] = AllyCard(name=name, **data)
    for name, data in examples.get("enemy", {}).items():
        found[name] = EnemyCard(name=name, **data)
    return found


def _folded(name: str) -> str:
    return " ".join(name.split()).casefold()


def find(name: str, entered: dict[str, Any], kind: str) -> Card:
    """The card called `name` of `kind`: as entered, else the rulebook's example."""
    wanted = _folded(name)
    for pool in (entered, rulebook_cards()):
        for card in pool.values():
            if card.name.casefold() == wanted and card.kind == kind:
                return card
    flag = "--ally" if kind == "ally" else "--enemy"
    raise NotFound(f"no Volume 2 {kind} card named {name!r}; enter it with "
                   f"`spire card add {_quoted(name)} {flag} ...` (see `spire card add --help`)")


C = TypeVar("C", AllyCard, EnemyCard)

PLACEHOLDERS = {"--dice": "hive|shot", "--table": "TABLE"}
"""What stands for an option's value in the command that enters it (N where unnamed)."""


def ready(card: C) -> C:
    """`card`, if it has every number an encounter needs; else bad input naming the
    options that enter them."""
    every_ready(card)
    return card


def every_ready(*cards: AllyCard | EnemyCard) -> None:
    """Bad input naming every card of `cards` that lacks a number an encounter needs, and
    the command that enters each, all in one refusal (a table fixes them in one go)."""
    named = {card.name.casefold(): card for card in reversed(cards)}  # two Nibblers: one card
    lacking = [(card, missing) for card in named.values() if (missing := card.missing())]
    lacking.reverse()
    if not lacking:
        return
    commands = "; ".join(f"`{_entering(card, missing)}`" for card, missing in lacking)
    if len(lacking) > 1:
        raise BadInput(f"{listed([card.name for card, _ in lacking])} need numbers the "
                       "rulebook does not print", hint=f"enter them: {commands}")
    card, missing = lacking[0]
    printed, them = (" is", "it") if len(missing) == 1 else ("s are", "them")
    raise BadInput(f"{card.name}'s {', '.join(m.lstrip('-') for m in missing)} number{printed} "
                   f"not entered; the rulebook does not print {them}: {commands}")


def _entering(card: AllyCard | EnemyCard, missing: list[str]) -> str:
    flag = "--ally" if card.kind == "ally" else "--enemy"
    needed = " ".join(f"{m} {PLACEHOLDERS.get(m, 'N')}" for m in missing)
    return f"spire card add {_quoted(card.name)} {flag} {needed}"


def _quoted(name: str) -> str:
    return f'"{name}"' if " " in name else name


# -- cards typed on `spire card add` -----------------------------------------------------

def entered(kind: str, name: str, given: dict[str, Any], before: Card | None = None) -> Card:
    """A card from `spire card add` options, over the card of that name entered `before`
    (a correction changes what it gives and keeps the rest, its combinations too), else
    over the rulebook's example."""
    name = " ".join(name.split())
    if not name:
        raise BadInput("the card needs a name")
    base = before if before is not None and before.kind == kind else next(
        (c for c in rulebook_cards().values()
         if c.kind == kind and c.name.casefold() == name.casefold()), None)
    fields: dict[str, Any] = base.model_dump(exclude={"name"}) if base else {}
    fields |= {k: v for k, v in given.items() if v is not None and v != [] and v is not False}
    if kind == "ally":
        dice: DieKind | None = fields.get("dice")
        fields["combos"] = tuple(
            c if isinstance(c, dict) else combo(c, dice) for c in fields.get("combos", ()))
        model: type[Card] = AllyCard
    else:
        if isinstance(fields.get("table"), str):
            fields["table"] = table(fields["table"])
        if isinstance(fields.get("retreat"), str):
            fields["retreat"] = retreat(fields["retreat"])
        fields["boosts"] = tuple(b for b in map(boost, fields.get("abilities", ())) if b)
        model = EnemyCard
    return valid(lambda: model(name=base.name if base else name, **fields), name)


def combo(text: str, dice: DieKind | None) -> Combo:
    """`NAME: FACES: EFFECT`, e.g. "Double Shot: black white: 2 damage"."""
    parts = [p.strip() for p in text.split(":")]
    if len(parts) != 3 or not all(parts):
        raise BadInput(f"cannot read the combination {text!r}; write NAME: FACES: EFFECT, e.g. "
                       "\"Double Shot: black white: 2 damage\"")
    if dice is None:
        raise BadInput("say which dice the ally rolls (--dice hive or --dice shot) before its "
                       "combinations")
    name, shown, effect = parts
    rolled = faces(dice, shown.replace("+", " ").split())
    return valid(lambda: Combo(name=name, faces=rolled, **_effect(name, effect)), text)


KINDS = ("damage", "heal", "repair")


def _effect(name: str, text: str) -> dict[str, Any]:
    """"2 damage", "heal 1", or a named effect kept as text; "2 damage and stun" is the
    damage (through AP then HP) and the rest kept as text (our reading, docs/volume2.md).
    A number spire cannot tie to one damage, heal or repair is bad input: better refused
    than an attack that silently deals 0."""
    words = text.casefold().replace("dmg", "damage").replace(",", " , ").split()
    if not any(w.isdigit() for w in words) or not any(w in KINDS for w in words):
        return {"effect": "effect", "text": text}
    pairs = [(i, found) for i in range(len(words) - 1) if (found := _pair(words[i:i + 2]))]
    if len(pairs) != 1 or sum(w.isdigit() for w in words) != 1:
        raise BadInput(f"{name}: cannot read {text!r}; spire reads one \"N damage\", "
                       "\"heal N\" or \"repair N\" a combination and keeps the other words "
                       "as text (\"2 damage and stun\")")
    at, (kind, amount) = pairs[0]
    rest = " ".join(words[:at] + words[at + 2:]).strip(" ,").removeprefix("and ").strip()
    return {"effect": kind, "amount": amount, "text": _as_typed(text, rest)}


def _pair(two: list[str]) -> tuple[str, int] | None:
    """("damage", 2) from "2 damage" or "damage 2"."""
    first, second = two
    if first.isdigit() and second in KINDS:
        return second, int(first)
    if first in KINDS and second.isdigit():
        return first, int(second)
    return None


def _as_typed(text: str, rest: str) -> str:
    """`rest` (read casefolded) in the letters it was typed with, where it can be found."""
    at = text.casefold().rfind(rest) if rest else -1
    return text[at:at + len(rest)] if at >= 0 else rest


def boost(text: str) -> Boost | None:
    """An ability that changes a number, "RAGE: +1 ferocity (stacks)" (also damage or
    attacks); None for any other ability, kept as text."""
    name, colon, rest = (p.strip() for p in text.partition(":"))
    words = rest.casefold().replace("(stacks)", " stacks ").split()
    if not colon or not name or len(words) not in (2, 3):
        return None
    number, raises, *more = words
    if raises not in ("ferocity", "damage", "attacks", "attack") or more not in ([], ["stacks"]):
        return None
    if not number.lstrip("+-").isdigit():
        return None
    return valid(lambda: Boost(name=name, raises=raises.replace("attack", "attacks")
                                .replace("attackss", "attacks"), amount=int(number),
                                stacks=bool(more)), text)


def table(text: str) -> tuple[Row, ...]:
    """A d20 damage table, "5-15: 3; 16-19: 4; 20: 5"."""
    rows = []
    for part in (p.strip() for p in text.split(";")):
        if not part:
            continue
        rolls, _, damage = (s.strip() for s in part.partition(":"))
        low, _, high = rolls.replace(" ", "").partition("-")
        if not (low.isdigit() and (high or low).isdigit() and damage.isdigit()):
            raise BadInput(f"cannot read the table row {part!r}; write ROLLS: DAMAGE, e.g. "
                           "\"5-15: 3; 16-19: 4; 20: 5\"")
        row = partial(Row, low=int(low), high=int(high or low), damage=int(damage))
        rows.append(valid(row, part))
    if not rows:
        raise BadInput("the damage table is empty; e.g. \"5-15: 3; 16-19: 4; 20: 5\"")
    return tuple(rows)


def retreat(text: str) -> int | str:
    """Rounds, or never (∞)."""
    word = text.strip().casefold()
    if word in ("never", "∞", "inf", "infinity"):
        return "never"
    if not word.isdigit():
        raise BadInput(f"retreat is a number of rounds or never, not {text!r}")
    return int(word)


def story_cards(card: Card) -> tuple[int, ...]:
    """The story card the card names: its own number, if entered."""
    return () if card.number is None else (card.number,)


def card_lines(card: Card) -> list[str]:
    """The card's numbers, a line each, as the table reads them ("?" not entered)."""
    def shown(value: object) -> str:
        return "?" if value is None else str(value)

    if isinstance(card, AllyCard):
        lines = [f"HP limit {shown(card.hp)}, AP limit {shown(card.ap)}, recoup "
                 f"{shown(card.recoup)}, {shown(card.dice)} dice"]
        lines += [f"action {c.name}: {' + '.join(c.faces)}: {c.says()}" for c in card.combos]
    else:
        retreat = "never" if card.retreat == "never" else shown(card.retreat)
        lines = [f"HP {shown(card.hp)}, AP {shown(card.ap)}, ferocity {shown(card.ferocity)}, "
                 f"attacks {shown(card.attacks)}, retreat {retreat}"
                 + (", wildlife" if card.wildlife else ""),
                 "damage table: " + ("; ".join(str(r) for r in card.table) or "?")]
        spoils = [w for w, on in (("meat", card.meat), ("pelt", card.pelt)) if on]
        if spoils or card.rewards:
            lines.append("rewards: " + ", ".join([*spoils, *([card.rewards] if card.rewards
                                                             else [])]))
        if card.quickdraw is not None:
            lines.append(f"QUICKDRAW on a natural {card.quickdraw} or lower")
        lines += [f"{b.name}: {b.amount:+d} {b.raises} when triggered"
                  + (" (stacks)" if b.stacks else " (this round)") for b in card.boosts]
    return lines + [f"ability: {a}" for a in card.abilities]


def card_from(name: str, data: dict[str, Any]) -> Card:
    """A card as the journal's catalog stores it."""
    from journal.games.volume2.cards import card_from as read

    return read(name, data)
