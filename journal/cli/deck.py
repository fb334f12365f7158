"""The deck: reveal, pull, return, discard, retrieve, chapter."""

from __future__ import annotations

import typer

from journal.cli import app
from journal.cli.common import Force, act

Card = typer.Argument(..., metavar="N", help="The card's number.", min=1)


@app.command()
def reveal(ctx: typer.Context, card: int = Card, force: Force = False) -> None:
    """Advance to card N.

    In Spire's End, the cards in between leave the game.

    \b
    Example:
      spire reveal 26
    """
    from journal.core import decide

    act(ctx, lambda view: decide.reveal(view.state, card), force)


@app.command()
def pull(
    ctx: typer.Context,
    card: str = typer.Argument(..., metavar="N|NAME", help="The card's number; with --deck, "
                               "the name of the card pulled."),
    deck: str = typer.Option(None, "--deck", metavar="DECK", help="An unnumbered deck, "
                             "in a game that has them; CARD is then the card's name."),
    force: Force = False,
) -> None:
    """Draw card N out of sequence.

    `spire return` goes back to the card it interrupted. A card of an unnumbered deck is
    pulled by its deck and name.

    \b
    Examples:
      spire pull 12
      spire pull --deck wildlife "Minor Needlegrass Nibbler"
    """
    from journal.core import decide
    from journal.errors import BadInput

    if deck is not None:
        from journal.games.packages import package_of

        act(ctx, lambda view: package_of(view.state.game).rules_module().pull_named(
            view.state, deck, card), force)
        return
    if not card.strip().isdigit() or len(card.strip()) > 6:
        raise BadInput(f"cannot read the card {card!r}; give its number, or for a card of "
                       "an unnumbered deck, --deck DECK and its name")
    number = int(card)
    act(ctx, lambda view: decide.pull(view.state, number), force)


@app.command("return")
def return_(ctx: typer.Context, force: Force = False) -> None:
    """Go back from a pulled card to the card it interrupted.

    \b
    Example:
      spire return
    """
    from journal.core import decide

    act(ctx, lambda view: decide.return_(view.state), force)


@app.command()
def discard(
    ctx: typer.Context,
    card: str = typer.Argument(..., metavar="N|MILESTONE",
                               help="The card's number, or a milestone in play (M4)."),
    force: Force = False,
) -> None:
    """Discard card N, or a milestone in play.

    In some games, discarding a card removes it from the game.

    \b
    Examples:
      spire discard 45
      spire discard M4
    """
    from journal.core import decide
    from journal.errors import BadInput

    milestone = decide.milestone_of(card)
    if milestone is not None:
        act(ctx, lambda view: decide.discard_milestone(view.state, milestone), force)
        return
    if not card.strip().isdigit() or len(card.strip()) > 6:
        raise BadInput(f"cannot read {card!r}: give a card number, or a milestone (M4)")
    number = int(card)
    act(ctx, lambda view: decide.discard(view.state, number), force)


@app.command()
def retrieve(
    ctx: typer.Context,
    what: str = typer.Argument(
        ..., metavar="N|NAME",
        help="A played card's number, a milestone (M4) or event cards by name."),
    force: Force = False,
) -> None:
    """Retrieve a played card, a milestone, or event cards.

    Event cards are retrieved as a set, by name.

    \b
    Examples:
      spire retrieve 12
      spire retrieve M4
      spire retrieve "Dunstan Duel"
    """
    from journal.core import decide

    act(ctx, lambda view: decide.retrieve(view.state, what), force)


@app.command()
def chapter(
    ctx: typer.Context,
    number: int = typer.Argument(..., metavar="N", help="The chapter that begins."),
    force: Force = False,
) -> None:
    """Begin chapter N.

    Its start is recorded as the checkpoint chapter-N.

    \b
    Example:
      spire chapter 2
    """
    from journal.core import decide

    act(ctx, lambda view: decide.chapter(view.state, number), force)
