"""The cards and bars spire knows: the rulebook's examples (rules/spires-end.toml), the
cards the players entered (kept in the journal), and cards typed on the command line.

A bar is typed as its card reads, left to right, parts split by `;`:

    "Back Hand; cost 1; 4-6: 1; 7: 2; 8: 3, kickback 1 hp"
    "Whirl; cost 2; twice; all; 5-8: *, A"        (* the rolled number, A a status letter)

A result's parts, split by `,`: a number (damage), `*` (damage: the number rolled), a
letter A-H (the card's status effect), `kickback N hp|ap`, or an effect by name with its
clocks (`bleed x3`) or `persistent`. A recoup bar: "heal 4-6: 1; 7: 2; 8: 3; cleanse 5-8"
(`armor` ranges rebuild AP). A death bar: its result alone, "strength x3", or with
ranges. Status letters: "A: bleed x3".
"""

from __future__ import annotations

from functools import cache
from typing import Any, TypeVar

from journal.core.decide import named
from journal.errors import BadInput, NotFound
from journal.games import load, valid
from journal.games.spires_end.cards import (
    LETTERS,
    AllyCard,
    Bar,
    Card,
    EnemyCard,
    Inflicted,
    Kickback,
    RecoupBar,
    Result,
    Status,
)

GAME = load("spires-end")

T = TypeVar("T")

# -- the rulebook's examples -------------------------------------------------------------


@cache
def example_bars() -> dict[str, Bar]:
    return {n: Bar(name=n, **d) for n, d in GAME.raw.get("bars", {}).items()}


@cache
def example_recoups() -> dict[str, RecoupBar]:
    return {n: RecoupBar(**d) for n, d in GAME.raw.get("recoup", {}).items()}


@cache
def example_deaths() -> dict[str, Bar]:
    return {n: Bar(name="Death Move", **d) for n, d in GAME.raw.get("death", {}).items()}


def _example(text: str, examples: dict[str, Any]) -> Any:
    wanted = " ".join(text.split()).casefold()
    return next((v for k, v in examples.items() if k.casefold() == wanted), None)


def find(name: str, entered: dict[str, Card], kind: str) -> Card:
    """The entered card called `name` of `kind` (ally or enemy)."""
    wanted = " ".join(name.split()).casefold()
    for card in entered.values():
        if card.name.casefold() == wanted and card.kind == kind:
            return card
    raise NotFound(f"no {kind} card named {name!r}; `spire card add` enters it, or give its "
                   "numbers inline (--hp, --ap, --bar ...; see --help)")


# -- cards typed inline ------------------------------------------------------------------

def inline(kind: str, name: str, given: dict[str, Any]) -> Card:
    """An ally or enemy card from the numbers typed on the command line."""
    if given.get("hp") is None:
        raise BadInput(f"{name!r} given inline needs --hp (and --ap, --bar ...)")
    name = named(" ".join(name.split()), "ally" if kind == "ally" else "enemy")
    fields: dict[str, Any] = {"name": name, "hp": given["hp"],
                              "ap": given.get("ap") or 0, "number": given.get("number")}
    fields["bars"] = tuple(bar(b) for b in given.get("bars") or ())
    fields["statuses"] = tuple(status(s) for s in given.get("statuses") or ())
    if given.get("recoup"):
        fields["recoup"] = recoup(given["recoup"])
    if kind == "ally" and given.get("death"):
        fields["death"] = death(given["death"])
    model: type[Card] = AllyCard if kind == "ally" else EnemyCard
    return valid(lambda: model(**fields), name)


def bar(text: str) -> Bar:
    """An action bar typed as the card reads, or a rulebook example bar by name."""
    found = _example(text, example_bars())
    if found is not None:
        return found  # type: ignore[no-any-return]
    parts = _parts(text)
    name = parts.pop(0) if parts and not _is_part(parts[0]) else ""
    return valid(lambda: _bar(name, parts), text)


def death(text: str) -> Bar:
    """A death bar: its result alone ("strength x3"), with ranges, or the example's name."""
    found = _example(text, example_deaths())
    if found is not None:
        return found  # type: ignore[no-any-return]
    parts = _parts(text)
    if parts and ":" not in text and not any(_is_flag(p) for p in parts):
        return valid(lambda: _bar("Death Move", ["1-8: " + ", ".join(parts)], roll=False), text)
    return valid(lambda: _bar("Death Move", parts), text)


def _parts(text: str) -> list[str]:
    return [p.strip() for p in text.split(";") if p.strip()]


def _is_flag(part: str) -> bool:
    words = part.casefold().split()
    return bool(words) and (words[0] in ("cost", "twice", "!", "all", "+") )


def _is_part(part: str) -> bool:
    head = part.split(":")[0].replace(" ", "")
    return _is_flag(part) or (":" in part and head.replace("-", "").isdigit())


def _bar(name: str, parts: list[str], roll: bool = True) -> Bar:
    fields: dict[str, Any] = {"name": name, "results": [], "roll": roll}
    for part in parts:
        words = part.casefold().split()
        if words[0] == "cost" and len(words) == 2 and words[1].isdigit():
            fields["cost"] = int(words[1])
        elif words[0] in ("twice", "!") and len(words) == 1:
            fields["twice"] = True
        elif words[0] in ("all", "+") and len(words) == 1:
            fields["all_targets"] = True
        elif ":" in part:
            rolls, _, items = part.partition(":")
            fields["results"].append(result(rolls, items))
        else:
            raise ValueError(f"cannot read {part!r}: give `cost N`, `twice`, `all` or "
                             "`RANGE: RESULT`")
    return Bar(**fields)


def result(rolls: str, items: str) -> Result:
    fields: dict[str, Any] = {"rolls": rolls.strip(), "letters": [], "effects": []}
    for item in (i.strip() for i in items.split(",")):
        _item(fields, item)
    return Result(**fields)


def _item(fields: dict[str, Any], item: str) -> None:
    words = item.split()
    if not words:
        return
    if item.isdigit():
        fields["damage"] = int(item)
    elif item.casefold() in ("*", "star", "rolled"):
        fields["rolled"] = True
    elif len(item) == 1 and item.upper() in LETTERS:
        fields["letters"].append(item.upper())
    elif words[0].casefold() == "kickback":
        fields["kickback"] = kickback(words[1:], item)
    else:
        fields["effects"].append(effect(item))


def kickback(words: list[str], item: str) -> Kickback:
    if len(words) != 2 or not words[0].isdigit() or words[1].casefold() not in ("hp", "ap"):
        raise ValueError(f"cannot read {item!r}; write `kickback 1 hp` or `kickback 2 ap`")
    return Kickback(points=words[1].casefold(), amount=int(words[0]))


def effect(text: str) -> Inflicted:
    """`bleed x3` (three clocks), `bleed 3`, `strength`, `hinder persistent`; bad input if
    the glossary does not list it."""
    return valid(lambda: _effect(text), text)


def _effect(text: str) -> Inflicted:
    words, turns, persistent = [], 0, False
    for word in text.casefold().split():
        if word in ("persistent", "dot"):
            persistent = True
        elif word.lstrip("x").isdigit():
            turns = int(word.lstrip("x"))
        elif word not in ("turn", "turns", "clock", "clocks"):
            words.append(word)
    return Inflicted(effect=" ".join(words), turns=turns, persistent=persistent)


def status(text: str) -> Status:
    """`A: bleed x3`."""
    letter, _, rest = text.partition(":")
    given = valid(lambda: effect(rest), text)
    return valid(lambda: Status(letter=letter.strip(), **given.model_dump()), text)


def recoup(text: str) -> RecoupBar:
    """`heal 4-6: 1; 7: 2; 8: 3; cleanse 5-8` or the example's name."""
    found = _example(text, example_recoups())
    if found is not None:
        return found  # type: ignore[no-any-return]
    return valid(lambda: _recoup(_parts(text)), text)


def _recoup(parts: list[str]) -> RecoupBar:
    fields: dict[str, Any] = {"heal": [], "armor": []}
    mode = "heal"
    for part in parts:
        head, _, rest = part.partition(" ")
        if head.casefold() == "cleanse":
            fields["cleanse"] = rest.strip()
            continue
        if head.casefold() in ("heal", "armor"):
            mode, part = head.casefold(), rest
        rolls, _, amount = part.partition(":")
        if not amount.strip().isdigit():
            raise ValueError(f"cannot read {part!r}; write `heal 4-6: 1` or `cleanse 5-8`")
        fields[mode].append({"rolls": rolls.strip(), "amount": int(amount)})
    return RecoupBar(**fields)


def rulebook_cards() -> dict[str, Card]:
    """The rulebook's example cards: none (its examples are bars, not cards)."""
    return {}


def card_from(name: str, data: dict[str, Any]) -> Card:
    """A card as the journal's catalog stores it."""
    from journal.games.spires_end.cards import card_from as read

    return read(name, data)


# -- cards told back, as they are typed --------------------------------------------------

def effect_text(given: Inflicted) -> str:
    return given.effect + (f" x{given.turns}" if given.turns else "") + (
        " persistent" if given.persistent else "")


def result_text(result: Result) -> str:
    items = ["*"] if result.rolled else [str(result.damage)] if result.damage or not (
        result.letters or result.effects or result.kickback) else []
    items += list(result.letters) + [effect_text(e) for e in result.effects]
    if result.kickback is not None:
        items.append(f"kickback {result.kickback.amount} {result.kickback.points}")
    return ", ".join(items)


def bar_text(bar: Bar) -> str:
    """A bar as `spire draw --bar` reads it: "Back Hand; cost 1; 4-6: 1; 7: 2; 8: 3, ..."."""
    if not bar.roll:
        return "; ".join(result_text(r) for r in bar.results)
    parts = [bar.name] if bar.name else []
    parts += [f"cost {bar.cost}"] if bar.cost else []
    parts += ["twice"] if bar.twice else []
    parts += ["all"] if bar.all_targets else []
    return "; ".join(parts + [f"{r.rolls}: {result_text(r)}" for r in bar.results])


def recoup_text(bar: RecoupBar) -> str:
    parts = []
    for kind, amounts in (("heal", bar.heal), ("armor", bar.armor)):
        parts += [f"{kind + ' ' if i == 0 else ''}{a.rolls}: {a.amount}"
                  for i, a in enumerate(amounts)]
    return "; ".join(parts + ([f"cleanse {bar.cleanse}"] if bar.cleanse else []))


def story_cards(card: Card) -> tuple[int, ...]:
    """The story card the card names: its own number, if entered."""
    return () if card.number is None else (card.number,)


def card_lines(card: Card) -> list[str]:
    """An ally or enemy card's printed numbers, a line each, as they are typed."""
    lines = [f"HP {card.hp}, AP {card.ap}"]
    lines += [f"bar {i}: {bar_text(b)}" for i, b in enumerate(card.bars, start=1)]
    lines += [f"status {s.letter}: {effect_text(s)}" for s in card.statuses]
    lines += [f"recoup: {recoup_text(card.recoup)}"] if card.recoup else []
    death = getattr(card, "death", None)
    return lines + ([f"death: {bar_text(death)}"] if death else [])
