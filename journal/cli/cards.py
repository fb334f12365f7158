"""The card catalog: cards the players enter once, with their printed numbers, and reuse.

The catalog is the journal's, shared by its campaigns; listing is per campaign and never
shows an entered card the campaign has not met (PRODUCT.md, Spoiler-safe).
"""

from __future__ import annotations

from typing import Any

import typer

from journal.cli import app
from journal.cli.common import Json, journal

Card = Any
"""A card of the campaign's game (each game's cards are pydantic models with a name, a
kind and a number)."""


card_app = typer.Typer(
    help="The card catalog: cards entered once, reused by name.\n\n"
    "A card is entered with its printed numbers (`card add` takes the campaign's game's "
    "numbers: `spire card add --help`)."
    "\n\n\b\nExamples:\n  spire card add Ogre --target --number 140 --limit 2 --accuracy 3 "
    "--sets 2 --parts c,r,d\n  spire card list",
    rich_markup_mode=None, no_args_is_help=True)
app.add_typer(card_app, name="card")

SOURCES = {
    "rulebook": "rulebook example", "entered": "entered",
    "in place": "entered, in place of the rulebook example",
}
"""Where a listed card comes from (`--json` says `source` and `rulebook_example`)."""

@card_app.command("list")
def card_list(ctx: typer.Context, as_json: Json = False) -> None:
    """The cards this campaign may see.

    They are the rulebook's examples and the cards it has met. An entered card is listed
    once this campaign has met it on its current branch: its number was revealed, pulled
    or retrieved there (undone ones aside), or a target or face-off there used a card of
    its name. A card entered without a number is listed once a target or face-off of
    this campaign has used it. The rulebook's own example cards are always listed; an
    entered card of the same name is listed in its place.

    \b
    Example:
      spire card list
    """
    listed = [(card, source) for _, card, source in _visible(ctx)]
    if as_json:
        _print_json([_json(card, source) for card, source in listed])
        return
    if not listed:  # said so, not an empty screen (and no word of cards not yet met)
        _say("no cards this campaign has met are entered; `spire card add` enters one")
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
    """One card's printed numbers.

    Only a card this campaign may see is shown (see `spire card list`). A card this
    campaign has not met is refused as if it were unknown.

    \b
    Example:
      spire card show "Street Merchant"
    """
    game, card, source = _visible_named(ctx, name)
    if as_json:
        _print_json(_json(card, source))
        return
    _say(f"{title(card)} ({SOURCES[source]})")
    for line in details(game, card):
        _say(f"  {line}")


# -- what this campaign may see ------------------------------------------------------------

def _visible(ctx: typer.Context) -> list[tuple[str, Card, str]]:
    """The cards this campaign may see, each with its game: the rulebook's examples (an
    entered card of the same name in its place), then the entered cards it has met. With
    no campaign yet: every game's rulebook examples (no entered card has been met)."""
    from journal.cli.dispatch import game_of
    from journal.games import names
    from journal.games.packages import package_of

    j = journal(ctx)
    game = game_of(ctx)
    listed: list[tuple[str, Card, str]] = []
    for each in [game] if game is not None else names():
        examples = package_of(each).catalog().rulebook_cards()
        met = j.met_cards(each) if game is not None else {}
        entered = {n.casefold(): c for n, c in j.cards(each).items()}
        for name, example in examples.items():
            own = entered.get(name.casefold())
            listed.append((each, own, "in place") if own else (each, example, "rulebook"))
        folded = {name.casefold() for name in examples}
        listed += [(each, card, "entered") for name, card in met.items()
                   if name.casefold() not in folded]
    return listed


def _visible_named(ctx: typer.Context, name: str) -> tuple[str, Card, str]:
    from journal.errors import NotFound

    wanted = " ".join(name.split()).casefold()
    for game, card, source in _visible(ctx):
        if card.name.casefold() == wanted:
            return game, card, source
    raise NotFound(f"no card named {name!r} that this campaign has met; "
                   "`spire card list` lists the cards it may see")


# -- showing a card ------------------------------------------------------------------------

def title(card: Card) -> str:
    number = f", card {card.number}" if card.number is not None else ""
    return f"{card.name}: {card.kind}{number}"


def _number(card: Card) -> str:
    return f"card {card.number}" if card.number is not None else "-"


def details(game: str, card: Any) -> list[str]:
    """The card's printed numbers, a line each, as the table reads them (its game's
    catalog says them)."""
    from journal.games.packages import package_of

    return package_of(game).catalog().card_lines(card)


def _json(card: Card, source: str) -> dict[str, Any]:
    return {**card.model_dump(mode="json"), "source": "rulebook" if source == "rulebook" else
            "entered", "rulebook_example": source != "entered"}


def _say(text: str) -> None:
    from journal.render import lines as render

    render.say(text)


def _print_json(value: Any) -> None:
    from journal.render import lines as render

    render.print_json(value)
