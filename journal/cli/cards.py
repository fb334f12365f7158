"""The card catalog: cards the players enter once, with their printed numbers, and reuse.

The catalog is the journal's, shared by its campaigns; listing is per campaign and never
shows an entered card the campaign has not met (PRODUCT.md, Spoiler-safe).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from journal.cli import app
from journal.cli.common import Json, journal

if TYPE_CHECKING:
    from journal.games.hildegard.cards import Card

GAME = "hildegard"
"""The game whose cards are listed when there is no campaign yet; the catalog's storage is
per game, and listing follows the current campaign's game."""
SPIRES_END = "spires-end"
VOLUME2 = "volume2"

card_app = typer.Typer(
    help="The card catalog: cards entered once with their printed numbers, reused by name "
    "(`card add` takes the campaign's game's numbers: `spire card add --help`)."
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
    _say(f"{title(card)} ({SOURCES[source]})")
    for line in details(card):
        _say(f"  {line}")


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

def title(card: Card) -> str:
    number = f", card {card.number}" if card.number is not None else ""
    return f"{card.name}: {card.kind}{number}"


def _number(card: Card) -> str:
    return f"card {card.number}" if card.number is not None else "-"


def details(card: Card) -> list[str]:
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
