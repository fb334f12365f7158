"""The card catalog: cards the players enter once, with their printed numbers, and reuse.

The catalog is the journal's, shared by its campaigns; listing is per campaign and never
shows an entered card the campaign has not met (PRODUCT.md, Spoiler-safe).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from journal.cli import app
from journal.cli.common import Json, journal

if TYPE_CHECKING:
    from journal.games.hildegard.cards import Card

GAME = "hildegard"
"""The game whose cards `card add` enters unless Spire's End's options are given; the
catalog's storage is per game, and listing follows the current campaign's game."""
SPIRES_END = "spires-end"
VOLUME2 = "volume2"

card_app = typer.Typer(
    help="The card catalog: cards entered once with their printed numbers, reused by name."
    "\n\n\b\nExamples:\n  spire card add Ogre --target --number 140 --limit 2 --accuracy 3 "
    "--sets 2 --parts c,r,d\n  spire card add Millicent --ally --hp 5 --ap 2 --bar \"Back Hand\"\n"
    "  spire card list",
    rich_markup_mode=None, no_args_is_help=True)
app.add_typer(card_app, name="card")

KINDS = {
    "target": ("limit", "accuracy", "sets", "parts", "reward", "bonus", "hit", "miss"),
    "enemy": ("limit", "accuracy", "parts", "reward"),
    "meter": ("accuracy", "squares", "win", "lose"),
}
"""The numbers each kind of card prints, as `card add` options (every kind has --number)."""

REQUIRED = {
    "target": ("limit", "accuracy", "sets", "parts"),
    "enemy": ("limit", "accuracy"),
    "meter": ("accuracy", "squares"),
}

SOURCES = {
    "rulebook": "rulebook example", "entered": "entered",
    "in place": "entered, in place of the rulebook example",
}
"""Where a listed card comes from (`--json` says `source` and `rulebook_example`)."""

FIELDS = {"limit": "bullseye_limit", "hit": "hit_card", "miss": "miss_card",
          "win": "win_card", "lose": "lose_card"}


def _whole(flag: str, metavar: str, text: str) -> Any:
    return typer.Option(None, flag, metavar=metavar, min=1, help=text)


def _text(flag: str, metavar: str, text: str) -> Any:
    return typer.Option(None, flag, metavar=metavar, help=text)


@card_app.command("add")
def card_add(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="NAME", help="The card's name as printed."),
    target: bool = typer.Option(False, "--target", help="A target card."),
    enemy: bool = typer.Option(False, "--enemy", help="An enemy face-off card."),
    meter: bool = typer.Option(False, "--meter", help="A hit meter card."),
    number: int = _whole("--number", "N", "The card's own number."),
    limit: int = _whole("--limit", "N", "Bullseye limit (target, enemy)."),
    accuracy: int = _whole("--accuracy", "N", "Shot dice per set (Hit Acc of an enemy or meter)."),
    sets: int = _whole("--sets", "N", "How many sets (target)."),
    parts: str = _text("--parts", "FACES", "Bullseye parts available, e.g. c,r,d (target, enemy)."),
    reward: str = _text("--reward", "REWARD", "e.g. '1 gold' or '1 feat' (target, enemy)."),
    bonus: str = _text(
        "--bonus", "BONUS", "e.g. '3 bullseyes, 1 feat' or 'ring+dot, 1 gold' (target)."),
    hit: int = _whole("--hit", "CARD", "The card a hit sends you to (target)."),
    miss: int = _whole("--miss", "CARD", "The card a miss sends you to (target)."),
    squares: str = _text(
        "--squares", "SQUARES", "Hit squares in meter order, e.g. c,c,r!,d:flub: ! gray, "
        ":EFFECT its tab, ? not printed (meter)."),
    win: int = _whole("--win", "CARD", "The card winning sends you to (meter)."),
    lose: int = _whole("--lose", "CARD", "The card losing sends you to (meter)."),
    ally: bool = typer.Option(False, "--ally", help="Spire's End: an ally card."),
    hp: int = _whole("--hp", "N", "Spire's End: the Hit Point threshold (ally, enemy)."),
    ap: int = typer.Option(None, "--ap", metavar="N", min=0,
                           help="Spire's End: the Armor Point threshold (ally, enemy)."),
    bar: Annotated[list[str] | None, typer.Option(
        "--bar", metavar="BAR", help="Spire's End: an action bar, in order, e.g. \"Back Hand; "
        "cost 1; 4-6: 1; 7: 2; 8: 3, kickback 1 hp\". Repeat.")] = None,
    recoup: str = _text("--recoup", "BAR", "Spire's End: the recoup bar, e.g. \"heal 4-6: 1; "
                        "cleanse 5-8\"."),
    death: str = _text("--death", "BAR", "Spire's End: the death bar, e.g. \"strength x3\"."),
    status: Annotated[list[str] | None, typer.Option(
        "--status", metavar="LETTER", help="Spire's End: a status letter, e.g. \"A: bleed x3\". "
        "Repeat.")] = None,
    dice: str = _text("--dice", "DICE", "Volume 2: the ally's action dice, hive or shot."),
    combo: Annotated[list[str] | None, typer.Option(
        "--combo", metavar="COMBO", help="Volume 2: an action combination, NAME: FACES: "
        "EFFECT, e.g. \"Double Shot: black white: 2 damage\" (damage, heal or repair N, or "
        "a named effect). Repeat.")] = None,
    ability: Annotated[list[str] | None, typer.Option(
        "--ability", metavar="TEXT", help="Volume 2: an ability as printed; one that "
        "changes a number when triggered, e.g. \"RAGE: +1 ferocity (stacks)\" (ferocity, "
        "damage or attacks), is kept by `spire ability`. Repeat.")] = None,
    ferocity: int = typer.Option(None, "--ferocity", metavar="N", min=-20, max=99,
                                 help="Volume 2: added to each d20 attack roll (enemy)."),
    attacks: int = typer.Option(None, "--attacks", metavar="N", min=1, max=20,
                                help="Volume 2: d20 attacks a turn (enemy)."),
    retreat: str = _text("--retreat", "ROUNDS", "Volume 2: rounds it fights, or never (enemy)."),
    table: str = _text("--table", "TABLE", "Volume 2: the d20 damage table, e.g. "
                       "\"5-15: 3; 16-19: 4; 20: 5\" (enemy)."),
    quickdraw: int = typer.Option(None, "--quickdraw", metavar="N", min=1, max=20,
                                  help="Volume 2: a natural d20 of N or lower gives another "
                                  "attack (QUICKDRAW)."),
    meat: bool = typer.Option(False, "--meat", help="Volume 2: defeating it gains 1 meat."),
    pelt: bool = typer.Option(False, "--pelt", help="Volume 2: defeating it gains 1 pelt."),
    wildlife: bool = typer.Option(False, "--wildlife", help="Volume 2: a wildlife card."),
) -> None:
    """Enter a card with its printed numbers; entering a name again replaces that card.

    Encounters keep their own copy of a card, so replacing one never changes a past
    playthrough.

    \b
    Examples:
      spire card add Ogre --target --number 140 --limit 2 --accuracy 3 --sets 2 \\
        --parts c,r,d --reward "1 gold" --bonus "3 bullseyes, 1 feat" --hit 141 --miss 142
      spire card add "Crow King" --enemy --limit 5 --accuracy 3 --parts c,r,d
      spire card add "Hildegard's Hit Meter" --meter --accuracy 4 --squares c,c,r,d!,c:flub,r,d
      spire card add Millicent --ally --hp 5 --ap 2 --bar "Back Hand" \\
        --recoup "Recoup Bar Example" --death "Death Bar Example"
      spire card add Dunstan --ally --hp 6 --ap 2 \\
        --combo "Double Shot: black white: 2 damage" --combo "Repair: ping: repair 1"
      spire card add "Wade Slocum" --enemy --hp 8 --ap 2 --ferocity 1 --attacks 1 \\
        --retreat 3

    In a Volume 2 campaign (or with Volume 2's options) the card is Volume 2's; entering
    a rulebook example (Finnian, Dunstan, Wade Slocum) keeps what the rulebook prints and
    adds your numbers.
    """
    given = {"number": number, "limit": limit, "accuracy": accuracy, "sets": sets,
             "parts": parts, "reward": reward, "bonus": bonus, "hit": hit, "miss": miss,
             "squares": squares, "win": win, "lose": lose}
    spires = {"hp": hp, "ap": ap, "bars": bar, "recoup": recoup, "death": death,
              "statuses": status}
    flags = {"target": target, "enemy": enemy, "meter": meter, "ally": ally}
    volume2 = {"hp": hp, "ap": ap, "recoup": recoup, "dice": dice, "combos": combo,
               "abilities": ability, "ferocity": ferocity, "attacks": attacks,
               "retreat": retreat, "table": table, "quickdraw": quickdraw, "meat": meat,
               "pelt": pelt, "wildlife": wildlife, "rewards": reward, "number": number}
    only = ("dice", "combos", "abilities", "ferocity", "attacks", "retreat", "table",
            "quickdraw", "meat", "pelt", "wildlife")
    if any(volume2[k] not in (None, [], False) for k in only) or \
            _campaign_game(ctx) == VOLUME2:
        game, card = _entered_volume2(name, flags, given, spires, volume2)
    else:
        game, card = _entered(name, flags, given, spires)
    replaced = journal(ctx).add_card(game, card)
    _say(f"{'Replaced' if replaced else 'Entered'} {_title(card)}")
    for line in _details(card):
        _say(f"  {line}")


@card_app.command("list")
def card_list(ctx: typer.Context, as_json: Json = False) -> None:
    """The cards this campaign may see: the rulebook's examples and the cards it has met.

    An entered card is listed once this campaign has met it on its current branch: its
    number was revealed, pulled or retrieved there (undone ones aside), or a target or
    face-off there used a card of its name. A card entered without a number is listed
    once a target or face-off of this campaign has used it. The rulebook's own example
    cards are always listed; an entered card of the same name is listed in its place.

    \b
    Example:
      spire card list
    """
    listed = _visible(ctx)
    if as_json:
        _print_json([_json(card, source) for card, source in listed])
        return
    width = max((len(card.name) for card, _ in listed), default=0)
    for card, source in listed:
        _say(f"{card.name.ljust(width)}  {card.kind.ljust(6)}  {_number(card).ljust(8)}  "
             f"{SOURCES[source]}")


@card_app.command("show")
def card_show(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="NAME", help="The card's name."),
    as_json: Json = False,
) -> None:
    """One card's printed numbers, if this campaign may see it (see `spire card list`).

    A card this campaign has not met is refused as if it were unknown.

    \b
    Example:
      spire card show "Street Merchant"
    """
    card, source = _visible_named(ctx, name)
    if as_json:
        _print_json(_json(card, source))
        return
    _say(f"{_title(card)} ({SOURCES[source]})")
    for line in _details(card):
        _say(f"  {line}")


# -- entering a card ---------------------------------------------------------------------

def _entered(
    name: str, flags: dict[str, bool], given: dict[str, Any], spires: dict[str, Any],
) -> tuple[str, Any]:
    """The game and the card the options describe: Spire's End's with --ally or any of its
    numbers (--hp, --bar ...), Hildegard's otherwise."""
    from journal.cli.spires_end import catalog_card
    from journal.errors import BadInput

    kind = _kind(**flags)
    if kind != "ally" and not any(v is not None and v != [] for v in spires.values()):
        return GAME, _card(name, kind, given)
    if stray := [k for k, v in given.items() if v is not None and k != "number"]:
        raise BadInput(f"--{stray[0]} is not printed on a Spire's End card")
    return SPIRES_END, catalog_card(name, kind, {**spires, "number": given["number"]})


def _entered_volume2(
    name: str, flags: dict[str, bool], given: dict[str, Any], spires: dict[str, Any],
    volume2: dict[str, Any],
) -> tuple[str, Any]:
    """A Volume 2 ally or enemy; Hildegard's and Spire's End's own options are bad input."""
    from journal.cli.volume2 import catalog_card
    from journal.errors import BadInput

    others = {**{k: v for k, v in given.items() if k not in ("number", "reward")},
              **{k: v for k, v in spires.items() if k in ("bars", "death", "statuses")}}
    if stray := [k for k, v in others.items() if v not in (None, [])]:
        raise BadInput(f"--{stray[0]} is not printed on a Volume 2 card")
    return VOLUME2, catalog_card(name, _kind(**flags), volume2)


def _kind(**flags: bool) -> str:
    from journal.errors import BadInput

    chosen = [kind for kind, on in flags.items() if on]
    if len(chosen) != 1:
        raise BadInput("say which kind of card it is: one of --target, --enemy, --meter "
                       "(Hildegard); --ally, --enemy (Spire's End and Volume 2)")
    return chosen[0]


def _card(name: str, kind: str, given: dict[str, Any]) -> Card:
    """The card of `kind` the options describe; a value it cannot be is bad input."""
    from pydantic import ValidationError

    from journal.errors import BadInput

    name = " ".join(name.split())
    if not name or len(name) > 200:
        raise BadInput("the card needs a name (at most 200 characters)")
    _check_options(kind, {k for k, v in given.items() if v is not None})
    try:
        return _model(kind)(name=name, **_fields(kind, given))
    except ValidationError as e:
        error = e.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        raise BadInput(f"cannot enter {name!r}: {where}: {error['msg']}") from None


def _check_options(kind: str, given: set[str]) -> None:
    from journal.errors import BadInput

    allowed = {"number", *KINDS[kind]}
    if stray := sorted(given - allowed):
        raise BadInput(f"--{stray[0]} is not printed on {_a(kind)} card; it takes "
                       + ", ".join(f"--{o}" for o in ("number", *KINDS[kind])))
    if missing := [o for o in REQUIRED[kind] if o not in given]:
        raise BadInput(f"{_a(kind)} card needs " + ", ".join(f"--{o}" for o in missing))


def _a(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def _fields(kind: str, given: dict[str, Any]) -> dict[str, Any]:
    from journal.games.hildegard.cards import parse_bonus, parse_reward, parse_squares
    from journal.games.hildegard.dice import faces

    readers = {"parts": lambda text: faces([text]), "reward": parse_reward,
               "bonus": parse_bonus, "squares": parse_squares}
    return {FIELDS.get(option, option): readers.get(option, _same)(value)
            for option, value in given.items() if value is not None}


def _same(value: Any) -> Any:
    return value


def _model(kind: str) -> type[Card]:
    from journal.games.hildegard.cards import EnemyCard, HitMeter, TargetCard

    models: dict[str, type[Card]] = {"target": TargetCard, "enemy": EnemyCard, "meter": HitMeter}
    return models[kind]


# -- what this campaign may see ------------------------------------------------------------

def _visible(ctx: typer.Context) -> list[tuple[Card, str]]:
    """The rulebook's examples (an entered card of the same name in its place), then the
    entered cards this campaign has met."""
    from journal.games.hildegard.catalog import rulebook_cards

    j = journal(ctx)
    game = _campaign_game(ctx)
    if game == SPIRES_END:  # its examples are bars, not cards
        return [(card, "entered") for card in j.met_cards(SPIRES_END).values()]
    game = VOLUME2 if game == VOLUME2 else GAME
    examples_of = _volume2_examples if game == VOLUME2 else rulebook_cards
    met, entered = j.met_cards(game), {n.casefold(): c for n, c in j.cards(game).items()}
    listed: list[tuple[Card, str]] = []
    for name, example in examples_of().items():
        own = entered.get(name.casefold())
        listed.append((own, "in place") if own else (example, "rulebook"))
    examples = {name.casefold() for name in examples_of()}
    listed += [(card, "entered") for name, card in met.items() if name.casefold() not in examples]
    return listed


def _volume2_examples() -> dict[str, Any]:
    from journal.games.volume2.catalog import rulebook_cards

    return rulebook_cards()


def _campaign_game(ctx: typer.Context) -> str | None:
    from journal.errors import NotFound

    try:
        return journal(ctx).game()
    except NotFound:
        return None


def _visible_named(ctx: typer.Context, name: str) -> tuple[Card, str]:
    from journal.errors import NotFound

    wanted = " ".join(name.split()).casefold()
    for card, source in _visible(ctx):
        if card.name.casefold() == wanted:
            return card, source
    raise NotFound(f"no card named {name!r} that this campaign has met; "
                   "`spire card list` lists the cards it may see")


# -- showing a card ------------------------------------------------------------------------

def _title(card: Card) -> str:
    return f"{card.name}: {card.kind}" + (f", card {card.number}" if card.number is not None else "")


def _number(card: Card) -> str:
    return f"card {card.number}" if card.number is not None else "-"


def _details(card: Card) -> list[str]:
    """The card's printed numbers, a line each, as the table reads them."""
    from journal.games.hildegard.cards import EnemyCard, TargetCard

    if type(card).__module__ == "journal.games.volume2.cards":
        from journal.games.volume2.catalog import card_lines as volume2_lines

        return volume2_lines(card)  # type: ignore[arg-type]
    if hasattr(card, "hp"):  # a Spire's End ally or enemy
        from journal.games.spires_end.catalog import card_lines

        return card_lines(card)  # type: ignore[arg-type]
    if isinstance(card, TargetCard):
        numbers = (f"bullseye limit {card.bullseye_limit}, accuracy {card.accuracy}, "
                   f"{_plural(card.sets, 'set')}")
        lines = [numbers, f"parts: {_faces(card.parts)}"]
        lines += _reward_line(card.reward) + _bonus_line(card)
        return lines + _cards_line(("hit", card.hit_card), ("miss", card.miss_card))
    if isinstance(card, EnemyCard):
        return [f"bullseye limit {card.bullseye_limit}, hit accuracy {card.accuracy}",
                f"parts: {_faces(card.parts)}", *_reward_line(card.reward)]
    return [f"hit accuracy {card.accuracy}", f"squares: {_squares(card)}",
            *_cards_line(("win", card.win_card), ("lose", card.lose_card))]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _faces(faces: tuple[str, ...]) -> str:
    return ", ".join(faces) or "not entered (every part counts)"


def _reward_line(reward: Any) -> list[str]:
    return [] if reward is None else [f"reward: {_amount(reward)}"]


def _amount(reward: Any) -> str:
    """`1 gold`, `1 feat`, `2 feats`."""
    word = reward.resource if reward.amount != 1 else reward.resource.rstrip("s")
    return f"{reward.amount} {word}"


def _bonus_line(card: Any) -> list[str]:
    bonus = card.bonus
    if bonus is None:
        return []
    challenge = (_plural(bonus.bullseyes, "bullseye") + " over all sets" if bonus.bullseyes
                 else " + ".join(bonus.combination or ()) + " in one set")
    return [f"bonus: {challenge}, {_amount(bonus.reward)}"]


def _cards_line(*prompts: tuple[str, int | None]) -> list[str]:
    said = [f"{label}: card {number}" for label, number in prompts if number is not None]
    return ["; ".join(said)] if said else []


def _squares(meter: Any) -> str:
    """`1 crescent, 2 crescent, 3 ring (gray), 4 ? (tab: flub)`, in meter order."""
    shown = []
    for index, square in enumerate(meter.squares, start=1):
        text = f"{index} {square.part or '?'}" + (" (gray)" if square.gray else "")
        shown.append(text + (f" (tab: {square.tab})" if square.tab else ""))
    return ", ".join(shown)


def _json(card: Card, source: str) -> dict[str, Any]:
    return {**card.model_dump(mode="json"), "source": "rulebook" if source == "rulebook" else
            "entered", "rulebook_example": source != "entered"}


def _say(text: str) -> None:
    from journal import render

    render.say(text)


def _print_json(value: Any) -> None:
    from journal import render

    render.print_json(value)
