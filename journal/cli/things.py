"""Things the players hold: items, resources, notes; and undo."""

from __future__ import annotations

import typer

from journal.cli import app
from journal.cli.common import Force, act

item_app = typer.Typer(
    help="Items: gain, lose, or pass one to another character.\n\n"
    "The campaign's game may add its own (use)."
    "\n\n\b\nExamples:\n"
    "  spire item gain Slingshot --to Hallveig\n  spire item pass Slingshot --to Millicent",
    rich_markup_mode=None, no_args_is_help=True)
app.add_typer(item_app, name="item")

ItemName = typer.Argument(..., metavar="NAME", help="The item's name as printed on its card.")


@item_app.command("gain")
def item_gain(
    ctx: typer.Context,
    name: str = ItemName,
    to: str = typer.Option(
        None, "--to", metavar="WHO",
        help="Who carries it; 'aside' to set it aside [default: the only character]"),
    kind: str = typer.Option(
        None, "--kind", "-k", metavar="KIND",
        help="The kind printed on its card (story, fishing, combat, gear, single-use...); "
        "a kind the game lacks is refused with the game's list"),
    wild: str = typer.Option(
        None, "--wild", metavar="COLOR",
        help="The wild shot die a fishing item adds (gray, gold, blue)."),
    raises: list[str] = typer.Option(
        None, "--raises", metavar="LIMIT", help="Gear: a limit it raises while held, hp+1 or "
        "ap+2. Repeat."),
    force: Force = False,
) -> None:
    """Gain an item.

    \b
    Examples:
      spire item gain "Cursed Key" --to Millicent --kind story
      spire item gain "Bamboo Rod" --kind fishing --wild gray
      spire item gain "Iron Vest" --to Dunstan --raises ap+1
    """
    from journal.core import decide

    raised = decide.limit_raises(raises)
    act(ctx, lambda view: decide.gain_item(view.state, name, kind, to, wild, raised), force)


@item_app.command("lose")
def item_lose(
    ctx: typer.Context,
    name: str = ItemName,
    holder: str = typer.Option(
        None, "--from", metavar="WHO", help="Whose, when two carry one of that name."),
    force: Force = False,
) -> None:
    """Lose an item.

    \b
    Example:
      spire item lose "Cursed Key"
    """
    from journal.core import decide

    act(ctx, lambda view: decide.lose_item(view.state, name, holder), force)


@item_app.command("pass")
def item_pass(
    ctx: typer.Context,
    name: str = ItemName,
    to: str = typer.Option(
        ..., "--to", metavar="WHO", help="Who carries it now; 'aside' to set it aside."),
    force: Force = False,
) -> None:
    """Pass an item to another character (or set it aside).

    \b
    Example:
      spire item pass "Cursed Key" --to Oswin
    """
    from journal.core import decide

    act(ctx, lambda view: decide.pass_item(view.state, name, to), force)


Resource = typer.Argument(
    ..., metavar="RESOURCE", help="The game's own: gold, feats, bees, pollen, meat, pelts...")
Amount = typer.Argument(1, metavar="N", help="How many.")


@app.command()
def gain(
    ctx: typer.Context, resource: str = Resource, amount: int = Amount, force: Force = False,
) -> None:
    """Gain gold, feats, bees, pollen, meat or pelts.

    A gain stays within the rulebook's limits.

    \b
    Example:
      spire gain feats 1
    """
    from journal.core import decide

    act(ctx, lambda view: decide.gain(view.state, resource, amount), force)


@app.command()
def spend(
    ctx: typer.Context, resource: str = Resource, amount: int = Amount,
    on: str = typer.Option(None, "--on", metavar="WHAT", help="What it bought, e.g. hone."),
    force: Force = False,
) -> None:
    """Spend gold, feats, bees, pollen, meat or pelts.

    \b
    Example:
      spire spend feats 1 --on hone
    """
    from journal.core import decide

    act(ctx, lambda view: decide.spend(view.state, resource, amount, on), force)


@app.command()
def note(
    ctx: typer.Context,
    text: list[str] = typer.Argument(
        ..., metavar="TEXT", help="The note (quotes are optional), at most 10,000 characters."),
) -> None:
    """Write a note into the journal.

    \b
    Example:
      spire note "Took the north road; the jackalope got away"
    """
    from journal.core import decide

    act(ctx, lambda view: decide.note(" ".join(text)))


@app.command()
def undo(ctx: typer.Context) -> None:
    """Take back the latest action. It stays in the log, marked undone.

    \b
    Example:
      spire undo
    """
    from journal.core import decide

    act(ctx, lambda view: decide.undo(view.latest_first()))


@app.command()
def redo(ctx: typer.Context, force: Force = False) -> None:
    """Take back the latest undo.

    The action it undid is recorded again, as it was. Only while nothing but undos and
    redos came after that undo; each redo brings back the next action undone, latest
    first. The undone event stays in the log, marked undone; the redone one is a new
    event. An action first recorded with --force needs --force again.

    \b
    Example:
      spire undo
      spire redo
    """
    from journal.core import decide

    act(ctx, lambda view: decide.redo(view.latest_first(), view.undone_before), force=force,
        done="Redone")
