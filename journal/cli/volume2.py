"""Volume 2 at the table: its own verbs (`deploy`, `target-roll`), and the shared verbs
(`roll`, `lock`, `stop`, `action`, `upkeep`, `enemy`, `fight`, `draw`, `end`) as they
answer when the current campaign plays Volume 2. Dice typed from the table, or rolled by
spire when none are given."""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from journal.cli import app
from journal.cli.common import Force, act

if TYPE_CHECKING:
    from journal.decide import Decision
    from journal.games.volume2.cards import Card
    from journal.service import Command, View
    from journal.state import State

GAME = "volume2"


def _act(ctx: typer.Context, decide: Command, force: bool = False) -> None:
    """Decide and append; in a game of several players, the player whose ally acts is
    recorded as the one who acted."""
    from journal.games.volume2 import rules
    from journal.service import of_game

    def player(state: State) -> int | None:  # told from the state the command is decided on
        return rules.player_for(state) if state.game == GAME else None

    act(ctx, of_game(GAME, decide), force, player)


def is_volume2(ctx: typer.Context) -> bool:
    """Whether the current campaign plays Volume 2 (no campaign: it does not)."""
    from journal.cli.common import journal
    from journal.errors import NotFound

    try:
        return journal(ctx).game() == GAME
    except NotFound:
        return False


def no_player(player: int | None) -> None:
    """Volume 2 records the player of the ally whose turn it is; --player says nothing."""
    if player is not None:
        from journal.errors import BadInput

        raise BadInput("--player is for Hildegard and Spire's End; Volume 2 records the player "
                       "of the ally whose turn it is (`--ally NAME` picks the ally)")


def _chance() -> random.SystemRandom:
    return random.SystemRandom()


def _cards(ctx: typer.Context) -> dict[str, Any]:
    from journal.cli.common import journal

    return journal(ctx).cards(GAME)


# -- Volume 2's own verbs ----------------------------------------------------------------

@app.command()
def deploy(
    ctx: typer.Context,
    what: str = typer.Argument(..., metavar="WHAT", help="bee (a sting) or pollen (a heal)."),
    count: int = typer.Argument(1, metavar="[N]", min=1, max=8, help="How many [default: 1]."),
    on: str = typer.Option(None, "--on", metavar="WHO", help="Bees: the enemy [default: the "
                           "turn's successful attack]; pollen: the ally [default: whose turn]."),
    force: Force = False,
) -> None:
    """Volume 2: deploy bees (+1 damage each to a successful attack) or pollen (+1 HP each
    to an ally) from the hive, once a hive is rolled; at most 4 a turn.

    \b
    Examples:
      spire deploy bee
      spire deploy pollen 2 --on Dunstan
    """
    from journal.games.volume2 import rules

    _act(ctx, lambda view: rules.deploy(view.state, what, count, on), force)


@app.command("target-roll")
def target_roll(
    ctx: typer.Context,
    rolls: list[int] = typer.Argument(None, metavar="[D20]...", help="One d20 for each ally "
                                      "in play, in the encounter's order. None: spire rolls."),
    choose: str = typer.Option(None, "--choose", metavar="ALLY", help="Spend 1 bee to skip "
                               "the roll and choose the ally targeted."),
    force: Force = False,
) -> None:
    """Volume 2: the target roll before an enemy's attack: the highest d20 is hit; a tie
    rolls again among the tied allies only.

    \b
    Examples:
      spire target-roll 14 9
      spire target-roll --choose Dunstan
    """
    from journal.games.volume2 import rules

    def command(view: View) -> Decision:
        if choose is not None:
            return rules.choose_target(view.state, choose)
        dice = tuple(rolls or ()) or tuple(
            _chance().randint(1, 20) for _ in rules.to_target(view.state))
        return rules.target_roll(view.state, dice)

    _act(ctx, command, force)


@app.command()
def ability(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="ABILITY", help="The ability, as entered."),
    enemy: str = typer.Option(None, "--enemy", metavar="NAME", help="Whose [default: the "
                              "enemy whose turn it is, or the only one standing]."),
    force: Force = False,
) -> None:
    """Volume 2: trigger an enemy's ability that changes a number, as its card says: one
    that stacks adds again each time and lasts the encounter; another, to the end of the
    round. Enter it with `spire card add ... --ability "RAGE: +1 ferocity (stacks)"`.

    \b
    Example:
      spire ability RAGE --enemy "Wade Slocum"
    """
    from journal.games.volume2 import rules

    _act(ctx, lambda view: rules.ability(view.state, name, enemy), force)


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
    """Volume 2: reveal a Trading Post Card at a trading post, with its price; at most 5 a
    playthrough. `spire buy ITEM` then trades for it.

    \b
    Example:
      spire trade "Bone Knife" --meat 2 --pelts 1
    """
    from journal.decide import limit_raises
    from journal.games.volume2 import world

    card = world.trade_card(name, meat, pelts, kind, limit_raises(raises))
    _act(ctx, lambda view: world.trading_card(view.state, card), force)


@app.command()
def buy(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="ITEM", help="A revealed Trading Post Card's item."),
    to: str = typer.Option(None, "--to", metavar="WHO", help="Who holds it [default: the only "
                           "character; with several, the party (aside)]."),
    force: Force = False,
) -> None:
    """Volume 2: trade meat and pelts for the item of a revealed Trading Post Card, at the
    price printed on it.

    \b
    Example:
      spire buy "Bone Knife" --to Dunstan
    """
    from journal.games.volume2 import world

    _act(ctx, lambda view: world.buy(view.state, name, to), force)


def pull_from(ctx: typer.Context, deck: str, name: str, force: bool) -> None:
    """`spire pull --deck DECK NAME`: a card of an unnumbered pull deck."""
    from journal.games.volume2 import world

    _act(ctx, lambda view: world.pull(view.state, deck, name), force)


# -- the shared verbs, as Volume 2 answers them ------------------------------------------

def roll(ctx: typer.Context, faces: list[str], hp: int | None, ally: str | None,
         force: bool) -> None:
    from journal.games.volume2 import rules
    from journal.games.volume2.dice import die_of

    def command(view: View) -> Decision:
        typed = tuple(faces)
        if not typed:
            _, kind, count = rules.to_roll(view.state, ally, hp)
            typed = tuple(_chance().choice(die_of(kind)) for _ in range(count))
        return rules.roll(view.state, typed, ally, hp)

    _act(ctx, command, force)


def lock(ctx: typer.Context, dice: list[int], force: bool) -> None:
    from journal.games.volume2 import rules

    _act(ctx, lambda view: rules.lock(view.state, tuple(dice)), force)


def stop(ctx: typer.Context, force: bool) -> None:
    from journal.games.volume2 import rules

    _act(ctx, lambda view: rules.stop(view.state), force)


def action(ctx: typer.Context, name: str, on: str | None, force: bool) -> None:
    from journal.games.volume2 import rules

    _act(ctx, lambda view: rules.action(view.state, name, on), force)


def upkeep(ctx: typer.Context, force: bool) -> None:
    from journal.games.volume2 import rules

    _act(ctx, lambda view: rules.upkeep(view.state), force)


def enemy(ctx: typer.Context, roll: int | None, name: str | None, force: bool) -> None:
    from journal.games.volume2 import rules

    rolled = roll if roll is not None else _chance().randint(1, 20)
    _act(ctx, lambda view: rules.attack(view.state, rolled, name), force)


def end(ctx: typer.Context, force: bool) -> None:
    from journal.games.volume2 import rules

    _act(ctx, lambda view: rules.end(view.state), force)


def fight(ctx: typer.Context, enemies: list[str], allies: list[str], force: bool,
          with_finnian: bool = True) -> None:
    """Finnian (unless the story says otherwise), the allies named, and the enemies, each
    from the catalog."""
    from journal.games.volume2 import catalog, rules

    entered = _cards(ctx)
    foes = [catalog.find(n, entered, "enemy") for n in enemies]
    team = [catalog.find(n, entered, "ally") for n in rules.who_fights(allies, with_finnian)]
    _act(ctx, lambda view: rules.begin(view.state, team, foes), force)  # type: ignore[arg-type]


def draw(ctx: typer.Context, name: str, force: bool) -> None:
    """An ally pulled from the Ally Deck joins the party."""
    from journal.games.volume2 import catalog, rules

    card = catalog.find(name, _cards(ctx), "ally")
    _act(ctx, lambda view: rules.join(view.state, card), force)  # type: ignore[arg-type]


# -- the card catalog: `spire card add` in a Volume 2 campaign ---------------------------

OPTIONS = {"ally": ("number", "hp", "ap", "recoup", "dice", "combos", "abilities"),
           "enemy": ("number", "hp", "ap", "ferocity", "attacks", "retreat", "table",
                     "quickdraw", "abilities", "rewards", "meat", "pelt", "wildlife")}
FLAGS = {"combos": "combo", "abilities": "ability", "rewards": "reward"}


def catalog_card(name: str, kind: str, given: dict[str, Any]) -> Card:
    """A Volume 2 ally or enemy from `spire card add` options; stray options are bad
    input."""
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
    return catalog.entered(kind, name, fields)


def _whole(text: str, option: str) -> int:
    from journal.errors import BadInput

    if not str(text).strip().isdigit() or int(text) > 99:
        raise BadInput(f"{option} takes a number of HP from 0 to 99, not {text!r}")
    return int(text)


# -- waterfall events --------------------------------------------------------------------

waterfall_app = typer.Typer(
    help="Volume 2: a waterfall event, row by row: lay it out, choose a card a row, remove "
    "what a card removes, end on the story card it names.\n\n\b\nExamples:\n"
    "  spire retrieve \"Morwen's Carriage\"\n  spire waterfall lay 3 4 4 4\n"
    "  spire waterfall choose 1 2\n  spire waterfall remove B D\n"
    "  spire waterfall choose 2 C\n  spire waterfall end 112",
    rich_markup_mode=None, no_args_is_help=True)
app.add_typer(waterfall_app, name="waterfall")


@waterfall_app.command("lay")
def waterfall_lay(
    ctx: typer.Context,
    rows: list[int] = typer.Argument(..., metavar="CARDS...", help="How many cards each row "
                                     "holds, row 1 first (at most 5 rows of 6)."),
    force: Force = False,
) -> None:
    """Lay the event cards retrieved last face down, row by row.

    \b
    Example:
      spire waterfall lay 4 6 6 5 6
    """
    from journal.games.volume2 import world

    _act(ctx, lambda view: world.lay(view.state, rows), force)


@waterfall_app.command("choose")
def waterfall_choose(
    ctx: typer.Context,
    row: int = typer.Argument(..., metavar="ROW", min=1, max=8, help="The row (1-5)."),
    card: str = typer.Argument(..., metavar="CARD", help="Row 1: the card's place (1, 2 ...); "
                               "later rows: its letter (A-F)."),
    force: Force = False,
) -> None:
    """Choose a row's card and reveal it; the rest of that row is discarded.

    \b
    Examples:
      spire waterfall choose 1 3
      spire waterfall choose 2 B
    """
    from journal.games.volume2 import world

    _act(ctx, lambda view: world.choose(view.state, row, card), force)


@waterfall_app.command("remove")
def waterfall_remove(
    ctx: typer.Context,
    cards: list[str] = typer.Argument(..., metavar="CARDS...", help="The letters removed."),
    row: int = typer.Option(None, "--row", metavar="N", min=1, max=8,
                            help="The row [default: the next row to choose from]."),
    force: Force = False,
) -> None:
    """Remove the cards a revealed card names from the next row ("Remove Row 2 cards B and
    F").

    \b
    Example:
      spire waterfall remove B F
    """
    from journal.games.volume2 import world

    _act(ctx, lambda view: world.remove(view.state, cards, row), force)


@waterfall_app.command("end")
def waterfall_end(
    ctx: typer.Context,
    card: int = typer.Argument(..., metavar="CARD", min=1, max=9999,
                               help="The story card the event names."),
    force: Force = False,
) -> None:
    """End the waterfall event by revealing the story card it names.

    \b
    Example:
      spire waterfall end 112
    """
    from journal.games.volume2 import world

    _act(ctx, lambda view: world.end_waterfall(view.state, card), force)


# -- the episode -------------------------------------------------------------------------

episode_app = typer.Typer(
    help="Volume 2: end the episode, recording what carries into the next.\n\n\b\nExamples:"
    "\n  spire episode end --output plains-episode-1.json\n"
    "  spire new plains-2 --game volume2 --from plains-episode-1.json",
    rich_markup_mode=None, no_args_is_help=True)
app.add_typer(episode_app, name="episode")


@episode_app.command("end")
def episode_end(
    ctx: typer.Context,
    output: Path = typer.Option(None, "--output", "-o", metavar="FILE", help="Also write the "
                                "carry-over to FILE, for `spire new --from FILE`."),
    force: Force = False,
) -> None:
    """End the episode: the story card it ended on, the allies, the milestones in play, the
    items, bees, pollen, meat and pelts are recorded to carry into the next.

    \b
    Example:
      spire episode end --output plains-episode-1.json
    """
    from journal.cli.common import journal
    from journal.errors import BadInput
    from journal.games.volume2 import events as v2
    from journal.games.volume2 import world
    from journal.paths import write_whole
    from journal.service import of_game

    decision = of_game(GAME, lambda view: world.end_episode(view.state, view.campaign.name))(
        journal(ctx).view())
    if decision.violations and not force:
        raise decision.violations[0]
    if output is not None:  # written first: a file that cannot be written records nothing
        ended = decision.events[0]
        assert isinstance(ended, v2.EpisodeEnded)
        try:
            write_whole(output, ended.carried.model_dump_json(indent=2) + "\n")
        except OSError as e:
            raise BadInput(f"cannot write {output}: {e.strerror}; nothing recorded") from None
    _act(ctx, lambda view: world.end_episode(view.state, view.campaign.name), force)
    if output is not None:
        from journal import render

        render.say(f"Wrote the carry-over to {output}")
