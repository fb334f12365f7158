"""Spire's End at the table: allies drawn, fights, each ally's and the enemy's turn,
death moves, status effects, and the cards it enters (`card add`). Dice typed from the
table, or rolled by spire when none are given. journal/cli/dispatch.py reaches these
commands when the campaign plays Spire's End."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from journal.cli import shared
from journal.cli.common import Force, act

if TYPE_CHECKING:
    from journal.cli.complete import Source, Table
    from journal.core.decide import Decision
    from journal.core.state import State
    from journal.games.spires_end.cards import Card
    from journal.service.journal import View

GAME = "spires-end"
PANEL = "Spire's End"
app = typer.Typer(rich_markup_mode=None)

Player = Annotated[int, typer.Option(
    "--player", metavar="N", min=1, max=3,
    help="Who acts: player N plays Ally N [default: the one whose turn it is].")]
Rolls = Annotated[list[int], typer.Argument(
    metavar="[ROLLS]...", help="The d8 rolled at the table, in order. None: spire rolls.")]


def _act(
    ctx: typer.Context, decide: Any, force: bool = False, player: int | None = None,
    moves_on: bool = False, bar: str | None = None,
) -> None:
    """Decide on the current branch and append; the player whose turn it is is recorded
    as the one who acted unless --player says otherwise. A command that `moves_on` (the
    next turn's move, which may make the upkeep before it: `rules.upkept`, unless its
    player or `bar` names the ally whose turn ends) records that upkeep as the player's
    whose turn it ends, --player or not."""
    from journal.games.spires_end import rules
    from journal.service.journal import of_game

    def turn(state: State) -> int | None:  # told from the state each event follows
        return rules.player_for(state) if state.game == GAME else None

    def given(state: State) -> int | None:
        ended = moves_on and state.game == GAME \
            and bool(rules.upkept(state, named=rules.naming(state, player, bar))[1])
        return turn(state) if ended else player

    act(ctx, of_game(GAME, decide), force, turn if player is None else given)


def d8(count: int) -> tuple[int, ...]:
    import random

    chance = random.SystemRandom()
    return tuple(chance.randint(1, 8) for _ in range(count))


def _rolled(typed: list[int] | None, owed: Any) -> tuple[int, ...]:
    """The dice typed, or as many as the bar owes rolled by spire (an Encore re-roll too)."""
    rolls = tuple(typed or ())
    if typed:
        return rolls
    while (more := owed(rolls)) > 0:
        rolls += d8(more)
    return rolls


# -- cards -------------------------------------------------------------------------------

def _card_options(
    hp: int | None, ap: int | None, bars: list[str] | None, recoup: str | None,
    statuses: list[str] | None, number: int | None, death: str | None = None,
) -> dict[str, Any]:
    return {"hp": hp, "ap": ap, "bars": bars, "recoup": recoup, "statuses": statuses,
            "number": number, "death": death}


def _card(ctx: typer.Context, kind: str, name: str, given: dict[str, Any]) -> Card:
    """From the numbers typed inline, or the catalog by name."""
    from journal.cli.common import journal
    from journal.games.spires_end import catalog

    if any(v for v in given.values()):
        return catalog.inline(kind, name, given)
    return catalog.find(name, journal(ctx).cards(GAME), kind)


HP = Annotated[int, typer.Option("--hp", metavar="N", min=1, help="Hit Point threshold.")]
AP = Annotated[int, typer.Option("--ap", metavar="N", min=0, help="Armor Point threshold.")]
Bars = Annotated[list[str], typer.Option(
    "--bar", metavar="BAR", help="An action bar, in order, e.g. \"Back Hand; cost 1; 4-6: 1; "
    "7: 2; 8: 3, kickback 1 hp\" or a rulebook example's name. Repeat for each bar.")]
Recoup = Annotated[str, typer.Option(
    "--recoup", metavar="BAR", help="The recoup bar, e.g. \"heal 4-6: 1; 7: 2; 8: 3; "
    "cleanse 5-8\" or \"Recoup Bar Example\".")]
Statuses = Annotated[list[str], typer.Option(
    "--status", metavar="LETTER", help="A boxed status letter, e.g. \"A: bleed x3\". Repeat.")]
Number = Annotated[int, typer.Option("--number", metavar="N", min=1, help="The card's number.")]


@app.command()
def draw(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="NAME", help="The ally card drawn."),
    slot: int = typer.Option(None, "--slot", metavar="N", min=1, max=2,
                             help="Ally 1 or 2 [default: the first free place]."),
    hp: HP = None,  # type: ignore[assignment]
    ap: AP = None,  # type: ignore[assignment]
    bar: Bars = None,  # type: ignore[assignment]
    recoup: Recoup = None,  # type: ignore[assignment]
    death: str = typer.Option(None, "--death", metavar="BAR", help="The death bar, e.g. "
                              "\"strength x3\" or \"Death Bar Example\"."),
    status: Statuses = None,  # type: ignore[assignment]
    number: Number = None,  # type: ignore[assignment]
    force: Force = False,
) -> None:
    """Draw an ally into play.

    It is a starting ally, or the next one taking a dead ally's place (the dead ally's
    items pass to it). From the catalog by name, or its numbers inline.

    \b
    Examples:
      spire draw Millicent --hp 5 --ap 2 --bar "Back Hand" \\
        --recoup "Recoup Bar Example" --death "Death Bar Example"
      spire draw Oswin
    """
    from journal.games.spires_end import rules

    given = _card_options(hp, ap, bar, recoup, status, number, death)
    card = _card(ctx, "ally", name, given)
    _act(ctx, lambda view: rules.draw(view.state, card, slot), force)  # type: ignore[arg-type]


@app.command()
def fight(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="ENEMY", help="The enemy's card."),
    hp: HP = None,  # type: ignore[assignment]
    ap: AP = None,  # type: ignore[assignment]
    bar: Bars = None,  # type: ignore[assignment]
    recoup: Recoup = None,  # type: ignore[assignment]
    status: Statuses = None,  # type: ignore[assignment]
    number: Number = None,  # type: ignore[assignment]
    force: Force = False,
) -> None:
    """Begin a fight with an enemy.

    Name it from the catalog, or give its numbers inline. Its bars are numbered as its
    action cards pick them, and cost no HP.

    \b
    Example:
      spire fight Ogre --hp 8 --ap 2 --bar "Club; 4-6: 2; 7-8: 3" \\
        --bar "Stomp; all; 6-8: 1, A" --status "A: stun" --recoup "heal 7-8: 1"
    """
    from journal.games.spires_end import rules

    card = _card(ctx, "enemy", name, _card_options(hp, ap, bar, recoup, status, number))
    _act(ctx, lambda view: rules.fight(view.state, card), force)  # type: ignore[arg-type]


# -- an ally's turn ----------------------------------------------------------------------

@app.command()
def action(
    ctx: typer.Context,
    bar: str = typer.Argument(..., metavar="BAR", help="The action bar: its number or name."),
    rolls: Rolls = None,  # type: ignore[assignment]
    on: str = typer.Option(None, "--on", metavar="WHO", help="Whom it attacks [default: the "
                           "enemy; Confusion and Turncoat choose for you]."),
    kickback: str = typer.Option(None, "--kickback-to", metavar="ALLY",
                                 help="Who takes a kickback [default: the one who acts]."),
    to: str = typer.Option(None, "--to", metavar="ALLY", help="Who gains its positive "
                           "effects [default: the one who acts]."),
    player: Player = None,  # type: ignore[assignment]
    force: Force = False,
) -> None:
    """The ally whose turn it is performs an action.

    Pay the HP, roll 1d8, apply the result.

    \b
    Examples:
      spire action "Back Hand" 8 --kickback-to Oswin
      spire action 1
    """
    from journal.games.spires_end import rules

    def command(view: View) -> Decision:
        dice = _rolled(rolls, lambda r: rules.dice_owed(view.state, bar, r, player))
        return rules.action(view.state, bar, dice, on, kickback, to, player)

    _act(ctx, command, force, player, moves_on=True, bar=bar)


@app.command()
def rest(
    ctx: typer.Context, player: Player = None, force: Force = False,  # type: ignore[assignment]
) -> None:
    """Rest instead of an action.

    It gives +1, +2, +3 on the heal of this turn's recoup.

    \b
    Example:
      spire rest
    """
    from journal.games.spires_end import rules

    _act(ctx, lambda view: rules.rest(view.state, player), force, player, moves_on=True)


@app.command()
def recoup(
    ctx: typer.Context,
    kind: str = typer.Argument(
        ..., metavar="KIND",
        help="heal or armor (cleanse: only on a bar that prints nothing else)."),
    roll: int = typer.Argument(None, metavar="[ROLL]", help="The d8 rolled. None: spire rolls."),
    to: str = typer.Option(None, "--to", metavar="ALLY", help="Who gains the points or is "
                           "cleansed [default: the one who recoups]."),
    effect: str = typer.Option(None, "--effect", metavar="EFFECT",
                               help="The effect a Cleanse removes [default: the oldest negative]."),
    player: Player = None,  # type: ignore[assignment]
    force: Force = False,
) -> None:
    """Roll 1d8 on the recoup bar to heal or rebuild armor.

    A roll in its Cleanse range removes a status effect too.

    \b
    Examples:
      spire recoup heal 7
      spire recoup heal 6 --to Oswin --effect bleed
    """
    from journal.games.spires_end import rules

    rolled = roll if roll is not None else d8(1)[0]
    _act(ctx, lambda view: rules.recoup(view.state, kind.casefold(), rolled, to, effect, player),
         force, player)


@app.command()
def boost(
    ctx: typer.Context, player: Player = None, force: Force = False,  # type: ignore[assignment]
) -> None:
    """Spend a full boost meter for Strength (1 turn).

    \b
    Example:
      spire boost
    """
    from journal.games.spires_end import rules

    _act(ctx, lambda view: rules.boost(view.state, player), force, player)


@app.command()
def upkeep(
    ctx: typer.Context, player: Player = None, force: Force = False,  # type: ignore[assignment]
) -> None:
    """End the turn: one cube off each status effect.

    Each effect is applied, the negative ones first. An upkeep with nothing to do, after
    the turn's recoup, need not be typed: the next turn's action, rest or `spire enemy`
    makes it first, as its own step.

    \b
    Example:
      spire upkeep
    """
    from journal.games.spires_end import rules

    _act(ctx, lambda view: rules.upkeep(view.state, player), force, player)


# -- the enemy's turn, death, the selection roll -----------------------------------------

@app.command()
def enemy(
    ctx: typer.Context,
    card: int = typer.Argument(None, metavar="CARD", min=1, help="The action card drawn."),
    rolls: Rolls = None,  # type: ignore[assignment]
    select: int = typer.Option(None, "--select", metavar="ROLL", help="The selection roll "
                               "(1-4 Ally 1, 5-8 Ally 2). None: spire rolls."),
    player: Player = None,  # type: ignore[assignment]
    force: Force = False,
) -> None:
    """The enemy's action, on the ally the selection roll picks.

    The action card picks the bar.

    \b
    Example:
      spire enemy 1 7 --select 3
    """
    from journal.errors import BadInput
    from journal.games.spires_end import rules

    if card is None:
        raise BadInput("which action card was drawn? `spire enemy CARD`")
    chosen = select if select is not None else d8(1)[0]

    def command(view: View) -> Decision:
        dice = _rolled(rolls, lambda r: rules.enemy_dice_owed(view.state, card, r))
        return rules.enemy(view.state, card, chosen, dice, player)

    _act(ctx, command, force, player, moves_on=True)


@app.command()
def death(
    ctx: typer.Context,
    rolls: Rolls = None,  # type: ignore[assignment]
    ally: str = typer.Option(None, "--ally", metavar="NAME", help="The dead ally [default: "
                             "the one whose death move is due]."),
    to: str = typer.Option(None, "--to", metavar="ALLY", help="The chosen target of its "
                           "positive effects [default: the other ally in play]."),
    on: str = typer.Option(None, "--on", metavar="WHO", help="Whom its damage strikes "
                           "[default: the enemy]."),
    force: Force = False,
) -> None:
    """A dead ally's death move.

    It comes before the next ally takes its place.

    \b
    Example:
      spire death --to Oswin
    """
    from journal.games.spires_end import rules

    def command(view: View) -> Decision:
        dice = tuple(rolls or ()) or d8(rules.death_dice(view.state, ally))
        return rules.death(view.state, ally, on, to, dice)

    _act(ctx, command, force)


@app.command()
def select(
    ctx: typer.Context,
    roll: int = typer.Argument(None, metavar="[ROLL]", help="The d8 rolled. None: spire rolls."),
) -> None:
    """The selection roll, for a story card asking which ally.

    1-4 picks Ally 1, 5-8 Ally 2.

    \b
    Example:
      spire select 6
    """
    from journal.games.spires_end import rules

    rolled = roll if roll is not None else d8(1)[0]
    _act(ctx, lambda view: rules.select(view.state, rolled))


@app.command()
def effect(
    ctx: typer.Context,
    name: str = typer.Argument(
        ..., metavar="EFFECT", help="Any effect of the glossary (bleed, stun, strength...)."),
    on: str = typer.Option(
        None, "--on", metavar="WHO", help="Who suffers it: an ally in play or the enemy."),
    turns: int = typer.Option(None, "--turns", metavar="N", min=0, help="Its clock icons."),
    persistent: bool = typer.Option(False, "--persistent", help="It lasts until cleansed."),
    force: Force = False,
) -> None:
    """A status effect a story card inflicts.

    It falls on an ally or the enemy, with its clocks.

    \b
    Example:
      spire effect bleed --on Millicent --turns 3
    """
    from journal.errors import BadInput
    from journal.games.spires_end import catalog, rules

    if on is None:
        raise BadInput("say who suffers it: --on NAME (an ally in play or the enemy)")
    given = catalog.effect(f"{name} x{turns or 0}" + (" persistent" if persistent else ""))
    _act(ctx, lambda view: rules.inflict(view.state, on, given), force)


@app.command()
def end(ctx: typer.Context, force: Force = False) -> None:
    """End the fight now.

    The story ends it, or the players abandon it.

    \b
    Example:
      spire end
    """
    from journal.games.spires_end import rules

    _act(ctx, lambda view: rules.end(view.state), force)


app.command()(shared.ally)


# -- the card catalog: `spire card add --ally` and `--enemy --hp` enter cards here --------

CARD_OPTIONS = {"ally": ("number", "hp", "ap", "bars", "recoup", "death", "statuses"),
                "enemy": ("number", "hp", "ap", "bars", "recoup", "statuses")}
FLAGS = {"bars": "bar", "statuses": "status"}


def catalog_card(name: str, kind: str, given: dict[str, Any]) -> Card:
    """An ally or enemy card from `spire card add` options; stray options are bad input."""
    from journal.errors import BadInput
    from journal.games.spires_end import catalog

    if kind not in CARD_OPTIONS:
        raise BadInput(f"--hp, --bar ... describe Spire's End cards: --ally or --enemy, not "
                       f"--{kind}")
    stray = sorted(k for k, v in given.items() if v and k not in CARD_OPTIONS[kind])
    if stray:
        allowed = ", ".join(f"--{FLAGS.get(o, o)}" for o in CARD_OPTIONS[kind])
        raise BadInput(f"--{FLAGS.get(stray[0], stray[0])} is not printed on a Spire's End "
                       f"{kind} card; it takes {allowed}")
    return catalog.inline(kind, name, given)


card_app = typer.Typer(rich_markup_mode=None)
app.add_typer(card_app, name="card")


@card_app.command("add")
def card_add(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="NAME", help="The card's name as printed."),
    game: shared.CardGame = None,  # read by journal/cli/dispatch.py, which chose this
    ally: bool = typer.Option(False, "--ally", help="An ally card."),
    enemy: bool = typer.Option(False, "--enemy", help="An enemy card."),
    number: Number = None,  # type: ignore[assignment]
    hp: HP = None,  # type: ignore[assignment]
    ap: AP = None,  # type: ignore[assignment]
    bar: Bars = None,  # type: ignore[assignment]
    recoup: Recoup = None,  # type: ignore[assignment]
    death: str = typer.Option(None, "--death", metavar="BAR", help="The death bar (ally), "
                              "e.g. \"strength x3\"."),
    status: Statuses = None,  # type: ignore[assignment]
) -> None:
    """Enter a card with its printed numbers.

    Entering a name again replaces that card. Encounters keep their own copy of a card,
    so replacing one never changes a past playthrough.

    \b
    Examples:
      spire card add Millicent --ally --hp 5 --ap 2 --bar "Back Hand" \\
        --recoup "Recoup Bar Example" --death "Death Bar Example"
      spire card add Ogre --enemy --hp 8 --ap 2 --bar "Club; 4-6: 2; 7-8: 3"
    """
    given = _card_options(hp, ap, bar, recoup, status, number, death)
    kind = shared.kind(ally=ally, enemy=enemy)
    shared.card_added(ctx, GAME, catalog_card(name, kind, given))


def _bars(table: Table) -> list[str]:
    """The action bars of the ally whose turn it is, by name."""
    from journal.games.spires_end.state import spires_end

    view = table.view()
    actor = spires_end(view.state).actor() if view is not None else None
    if actor is None or actor.is_enemy:
        return []
    return [bar.name for bar in actor.card.bars if bar.name]


def _fighters(table: Table) -> list[str]:
    """The allies in play, and the enemy of the fight under way."""
    from journal.games.spires_end.state import spires_end

    view = table.view()
    if view is None:
        return []
    game = spires_end(view.state)
    allies = [a.name for a in game.allies if not a.dead]
    return [*allies, game.fight.enemy.name] if game.in_encounter and game.fight else allies


POSITIONALS: dict[tuple[str, ...], tuple[Source, int]] = {("action",): (_bars, 0)}
OPTION_VALUES: dict[str, Source] = {"--on": _fighters, "--kickback-to": _fighters,
                                    "--to": _fighters}
