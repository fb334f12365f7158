"""Volume 2's cards entered once with their printed numbers (`spire card add`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from journal.cli import shared
from journal.games.volume2.commands.acting import GAME

if TYPE_CHECKING:
    from journal.games.volume2.cards import Card

app = typer.Typer(rich_markup_mode=None)


# -- the card catalog: `spire card add` in a Volume 2 campaign ---------------------------

OPTIONS = {"ally": ("number", "hp", "ap", "recoup", "dice", "combos", "abilities"),
           "enemy": ("number", "hp", "ap", "ferocity", "attacks", "retreat", "table",
                     "quickdraw", "abilities", "rewards", "meat", "pelt", "wildlife")}
FLAGS = {"combos": "combo", "abilities": "ability", "rewards": "reward"}


def catalog_card(name: str, kind: str, given: dict[str, Any], before: Card | None = None,
                 ) -> Card:
    """A Volume 2 ally or enemy from `spire card add` options, over the card `before` it
    if one of that name was entered; stray options are bad input."""
    from journal.errors import BadInput
    from journal.games.volume2 import catalog

    if kind not in OPTIONS:
        raise BadInput(f"Volume 2's cards are --ally or --enemy, not --{kind}")
    stray = sorted(k for k, v in given.items() if v not in (None, [], False)
                   and k not in OPTIONS[kind])
    if stray:
        allowed = ", ".join(f"--{FLAGS.get(o, o)}" for o in OPTIONS[kind])
        raise BadInput(f"--{FLAGS.get(stray[0], stray[0])} is not printed on a Volume 2 "
                       f"{kind} card; it takes {allowed}")
    fields = {k: v for k, v in given.items() if k in OPTIONS[kind]}
    if fields.get("recoup") is not None:
        fields["recoup"] = _whole(fields["recoup"], "--recoup")
    if fields.get("dice") is not None and fields["dice"] not in ("hive", "shot"):
        raise BadInput(f"--dice hive or --dice shot, not {fields['dice']!r}")
    return catalog.entered(kind, name, fields, before)


def _whole(text: str, option: str) -> int:
    from journal.errors import BadInput

    if not str(text).strip().isdigit() or int(text) > 99:
        raise BadInput(f"{option} takes a number of HP from 0 to 99, not {text!r}")
    return int(text)


card_app = typer.Typer(rich_markup_mode=None)
app.add_typer(card_app, name="card")


def _option(
    flag: str, metavar: str, text: str, min: int | None = None, max: int | None = None,
) -> Any:
    return typer.Option(None, flag, metavar=metavar, help=text, min=min, max=max)


@card_app.command("add")
def card_add(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="NAME", help="The card's name as printed."),
    game: shared.CardGame = None,  # read by journal/cli/dispatch.py, which chose this
    ally: bool = typer.Option(False, "--ally", help="An ally card."),
    enemy: bool = typer.Option(False, "--enemy", help="An enemy or wildlife card."),
    number: int = _option("--number", "N", "The card's own number.", min=1),
    hp: int = _option("--hp", "N", "The Hit Point threshold.", min=1),
    ap: int = _option("--ap", "N", "The Armor Point threshold.", min=0),
    recoup: str = _option("--recoup", "N", "The ally's recoup: HP healed each round."),
    dice: str = _option("--dice", "DICE", "The ally's action dice, hive or shot."),
    combo: Annotated[list[str] | None, typer.Option(
        "--combo", metavar="COMBO", help="An action combination, NAME: FACES: EFFECT, e.g. "
        "\"Double Shot: black white: 2 damage\" (damage, heal or repair N, or a named "
        "effect). Repeat.")] = None,
    ability: Annotated[list[str] | None, typer.Option(
        "--ability", metavar="TEXT", help="An ability as printed; one that changes a number "
        "when triggered, e.g. \"RAGE: +1 ferocity (stacks)\" (ferocity, damage or attacks), "
        "is kept by `spire ability`. Repeat.")] = None,
    ferocity: int = _option("--ferocity", "N", "Added to each d20 attack roll (enemy).",
                            min=-20, max=99),
    attacks: int = _option("--attacks", "N", "d20 attacks a turn (enemy).", min=1, max=20),
    retreat: str = _option("--retreat", "ROUNDS", "Rounds it fights, or never (enemy)."),
    table: str = _option("--table", "TABLE", "The d20 damage table, e.g. "
                         "\"5-15: 3; 16-19: 4; 20: 5\" (enemy)."),
    quickdraw: int = _option("--quickdraw", "N", "A natural d20 of N or lower gives another "
                             "attack (QUICKDRAW).", min=1, max=20),
    reward: str = _option("--reward", "REWARD", "What defeating it gives, as printed (enemy)."),
    meat: bool = typer.Option(False, "--meat", help="Defeating it gains 1 meat."),
    pelt: bool = typer.Option(False, "--pelt", help="Defeating it gains 1 pelt."),
    wildlife: bool = typer.Option(False, "--wildlife", help="A wildlife card."),
    force: shared.CardForce = False,
) -> None:
    """Enter a card with its printed numbers.

    Entering a name again corrects that card: the options given change, the rest is kept
    (--combo and --ability given again replace its combinations and abilities).

    Encounters keep their own copy of a card, so correcting one never changes a past
    playthrough. Entering a rulebook example (Finnian, Dunstan, Wade Slocum) keeps what
    the rulebook prints and adds your numbers.

    \b
    Examples:
      spire card add Dunstan --ally --hp 6 --ap 2 \\
        --combo "Double Shot: black white: 2 damage" --combo "Repair: ping: repair 1"
      spire card add "Wade Slocum" --enemy --hp 8 --ap 2 --ferocity 1 --attacks 1 \\
        --retreat 3
    """
    given = {"hp": hp, "ap": ap, "recoup": recoup, "dice": dice, "combos": combo,
             "abilities": ability, "ferocity": ferocity, "attacks": attacks,
             "retreat": retreat, "table": table, "quickdraw": quickdraw, "meat": meat,
             "pelt": pelt, "wildlife": wildlife, "rewards": reward, "number": number}
    kind = shared.kind(ally=ally, enemy=enemy)
    shared.card_added(ctx, GAME, catalog_card(name, kind, given, _entered(ctx, name)), force)


def _entered(ctx: typer.Context, name: str) -> Card | None:
    """The card of this name entered before, if one was."""
    from journal.games.volume2.commands.acting import cards

    wanted = " ".join(name.split()).casefold()
    return next((c for c in cards(ctx).values() if c.name.casefold() == wanted), None)
