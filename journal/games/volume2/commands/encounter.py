"""Volume 2's encounters: the party and its foes, the dice, the actions, the hive, the
target roll, the enemies' attacks and abilities; and its trading posts."""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from journal.cli.common import Force
from journal.games.volume2.commands.acting import act, cards, chance

if TYPE_CHECKING:
    from journal.core.decide import Decision
    from journal.service.journal import View

app = typer.Typer(rich_markup_mode=None)


# -- an encounter -----------------------------------------------------------------------

@app.command()
def fight(
    ctx: typer.Context,
    enemies: list[str] = typer.Argument(
        ..., metavar="ENEMY...", help="The enemies or wildlife, left to right."),
    allies: list[str] = typer.Option(
        None, "--with", metavar="ALLY",
        help="An ally who fights beside Finnian (at most 2). Repeat."),
    alone: bool = typer.Option(
        False, "--without-finnian",
        help="A fight the story gives without Finnian (a rule check: needs --force)."),
    force: Force = False,
) -> None:
    """Begin an encounter against enemies or wildlife.

    Finnian and up to 2 allies face them, each from the catalog.

    \b
    Examples:
      spire fight "Wade Slocum" --with Dunstan
      spire fight "Minor Needlegrass Nibbler"
    """
    from journal.games.volume2 import catalog, rules

    entered = cards(ctx)
    foes = [catalog.find(n, entered, "enemy") for n in enemies]
    names = rules.who_fights(allies or [], not alone)
    team = [catalog.find(n, entered, "ally") for n in names]
    act(ctx, lambda view: rules.begin(view.state, team, foes), force)  # type: ignore[arg-type]


@app.command()
def draw(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="NAME", help="The ally card pulled."),
    force: Force = False,
) -> None:
    """An ally pulled from the Ally Deck joins the party.

    The ally comes from the catalog.

    \b
    Example:
      spire draw Dunstan
    """
    from journal.games.volume2 import catalog, rules

    card = catalog.find(name, cards(ctx), "ally")
    act(ctx, lambda view: rules.join(view.state, card), force)  # type: ignore[arg-type]


@app.command()
def roll(
    ctx: typer.Context,
    faces: list[str] = typer.Argument(
        None, metavar="[FACES]...",
        help="The faces rolled at the table. Hive dice: sickle (s), bee (e), pollen (p), "
        "hive (h), blank (in full: b is bee or blank); shot dice: black (k), white (w), "
        "half (h), circle (c), ping (p), blank (b). None: spire rolls."),
    hp: int = typer.Option(
        None, "--hp", metavar="N", min=1, max=20,
        help="The HP spent, one die each (the ally's accuracy) [default: one a face typed]."),
    ally: str = typer.Option(
        None, "--ally", metavar="NAME",
        help="Who rolls [default: Finnian first, then the others in order]."),
    force: Force = False,
) -> None:
    """Roll an ally's action dice, or re-roll the dice not locked.

    The first roll of an ally's turn spends 1 HP a die (keep at least 1 HP); a re-roll
    rolls the dice not locked and spends nothing. The faces come from the table in the
    order of the dice; with none, spire rolls.

    \b
    Examples:
      spire roll sickle bee hive          (Finnian spends 3 HP)
      spire roll --hp 2 --ally Dunstan    (spire rolls 2 shot dice)
    """
    from journal.games.volume2 import rules
    from journal.games.volume2.dice import die_of

    def command(view: View) -> Decision:
        typed = tuple(faces or ())
        if not typed:
            _, kind, count = rules.to_roll(view.state, ally, hp)
            typed = tuple(chance().choice(die_of(kind)) for _ in range(count))
        return rules.roll(view.state, typed, ally, hp)

    act(ctx, command, force)


@app.command()
def lock(
    ctx: typer.Context,
    dice: list[int] = typer.Argument(
        ..., metavar="POSITIONS...", help="The dice to lock in, by position."),
    force: Force = False,
) -> None:
    """Lock in dice before re-rolling the rest.

    \b
    Example:
      spire lock 1 3
    """
    from journal.games.volume2 import rules

    act(ctx, lambda view: rules.lock(view.state, tuple(dice)), force)


@app.command()
def stop(ctx: typer.Context, force: Force = False) -> None:
    """Stop rolling: every die counts as locked.

    The actions come next.

    \b
    Example:
      spire stop
    """
    from journal.games.volume2 import rules

    act(ctx, lambda view: rules.stop(view.state), force)


@app.command()
def action(
    ctx: typer.Context,
    name: str = typer.Argument(
        ..., metavar="ACTION", help="The combination the locked dice make, by name."),
    on: str = typer.Option(
        None, "--on", metavar="WHO",
        help="Its target: an enemy, or an ally for a heal or a repair."),
    force: Force = False,
) -> None:
    """A combination the locked dice make, on one target.

    Finnian's combination is sickles.

    \b
    Example:
      spire action sickles --on "Wade Slocum"
    """
    from journal.games.volume2 import rules

    act(ctx, lambda view: rules.action(view.state, name, on), force)


@app.command()
def upkeep(ctx: typer.Context, force: Force = False) -> None:
    """The ally's turn is over.

    Without a roll, the turn is passed.

    \b
    Example:
      spire upkeep
    """
    from journal.games.volume2 import rules

    act(ctx, lambda view: rules.upkeep(view.state), force)


@app.command()
def enemy(
    ctx: typer.Context,
    roll: int = typer.Argument(
        None, metavar="[D20]", help="The natural d20 of the attack. None: spire rolls."),
    name: str = typer.Option(
        None, "--name", metavar="ENEMY",
        help="The enemy attacking [default: the one whose turn it is, left to right]."),
    force: Force = False,
) -> None:
    """One enemy attack, on the ally the target roll chose.

    It is a d20 + ferocity on the damage table (`spire target-roll` first).

    \b
    Examples:
      spire enemy 14
      spire enemy --name "Wade Slocum"
    """
    from journal.games.volume2 import rules
    from journal.games.volume2.dice import d20

    rolled = d20(roll) if roll is not None else chance().randint(1, 20)
    act(ctx, lambda view: rules.attack(view.state, rolled, name), force)


@app.command()
def end(ctx: typer.Context, force: Force = False) -> None:
    """End the encounter now (with the reset, if an ally stands).

    \b
    Example:
      spire end
    """
    from journal.games.volume2 import rules

    act(ctx, lambda view: rules.end(view.state), force)


# -- the hive, the target roll, abilities, trading posts ---------------------------------

@app.command()
def deploy(
    ctx: typer.Context,
    what: str = typer.Argument(..., metavar="WHAT", help="bee (a sting) or pollen (a heal)."),
    count: int = typer.Argument(1, metavar="[N]", min=1, max=8, help="How many [default: 1]."),
    on: str = typer.Option(None, "--on", metavar="WHO", help="Bees: the enemy [default: the "
                           "turn's successful attack]; pollen: the ally [default: whose turn]."),
    force: Force = False,
) -> None:
    """Deploy bees or pollen from the hive.

    Bees give +1 damage each to a successful attack, pollen +1 HP each to an ally. Only
    once a hive is rolled; at most 4 a turn.

    \b
    Examples:
      spire deploy bee
      spire deploy pollen 2 --on Dunstan
    """
    from journal.games.volume2 import rules

    act(ctx, lambda view: rules.deploy(view.state, what, count, on), force)


@app.command("target-roll")
def target_roll(
    ctx: typer.Context,
    rolls: list[int] = typer.Argument(None, metavar="[D20]...", help="One d20 for each ally "
                                      "in play, in the encounter's order. None: spire rolls."),
    choose: str = typer.Option(None, "--choose", metavar="ALLY", help="Spend 1 bee to skip "
                               "the roll and choose the ally targeted."),
    between: list[str] = typer.Option(
        None, "--between", metavar="ALLY", help="A roll between the allies in question, when "
        "an ability or special rule leaves unclear whom an enemy attacks; at any time. "
        "Repeat."),
    force: Force = False,
) -> None:
    """The target roll before an enemy's attack.

    The highest d20 is hit; a tie rolls again among the tied allies only.

    \b
    Examples:
      spire target-roll 14 9
      spire target-roll --choose Dunstan
      spire target-roll 5 9 --between Finnian --between Dunstan
    """
    from journal.games.volume2 import rules

    def command(view: View) -> Decision:
        if choose is not None:
            return rules.choose_target(view.state, choose)
        dice = tuple(rolls or ()) or tuple(
            chance().randint(1, 20) for _ in (between or rules.to_target(view.state)))
        return rules.target_roll(view.state, dice, between or ())

    act(ctx, command, force)


@app.command()
def ability(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="ABILITY", help="The ability, as entered."),
    enemy: str = typer.Option(None, "--enemy", metavar="NAME", help="Whose [default: the "
                              "enemy whose turn it is, or the only one standing]."),
    force: Force = False,
) -> None:
    """Trigger an enemy's ability that changes a number.

    It works as its card says: one that stacks adds again each time and lasts the
    encounter; another, to the end of the round. Enter it with `spire card add ...
    --ability "RAGE: +1 ferocity (stacks)"`.

    \b
    Example:
      spire ability RAGE --enemy "Wade Slocum"
    """
    from journal.games.volume2 import rules

    act(ctx, lambda view: rules.ability(view.state, name, enemy), force)


@app.command()
def trade(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="ITEM", help="The item the card shows."),
    meat: int = typer.Option(None, "--meat", metavar="N", min=0, max=99,
                             help="Its cost in meat, as printed."),
    pelts: int = typer.Option(None, "--pelts", metavar="N", min=0, max=99,
                              help="Its cost in pelts, as printed."),
    kind: str = typer.Option(None, "--kind", metavar="KIND",
                             help="gear, single-use or story [default: gear]."),
    raises: list[str] = typer.Option(None, "--raises", metavar="LIMIT", help="Gear: a limit it "
                                     "raises while held, hp+1 or ap+2. Repeat."),
    force: Force = False,
) -> None:
    """Reveal a Trading Post Card at a trading post.

    It is revealed with its price; at most 5 a playthrough. `spire buy ITEM` then trades
    for it.

    \b
    Example:
      spire trade "Bone Knife" --meat 2 --pelts 1
    """
    from journal.core.decide import limit_raises
    from journal.games.volume2 import world

    card = world.trade_card(name, meat, pelts, kind, limit_raises(raises))
    act(ctx, lambda view: world.trading_card(view.state, card), force)


@app.command()
def buy(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="ITEM", help="A revealed Trading Post Card's item."),
    to: str = typer.Option(None, "--to", metavar="WHO", help="Who holds it [default: the only "
                           "character; with several, the party (aside)]."),
    force: Force = False,
) -> None:
    """Trade meat and pelts for a Trading Post Card's item.

    The card is one revealed with `spire trade`; the price is the one printed on it.

    \b
    Example:
      spire buy "Bone Knife" --to Dunstan
    """
    from journal.games.volume2 import world

    act(ctx, lambda view: world.buy(view.state, name, to), force)
