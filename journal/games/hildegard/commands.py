"""Hildegard at the table: targets, face-offs, the dice, feats and blocks, allies, and
the cards it enters (`card add`). journal/cli/dispatch.py reaches these commands when the
campaign plays Hildegard; they parse, call the game's rules and render, nothing more."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from journal.cli import shared
from journal.cli.common import Force, act
from journal.cli.complete import EVERY

if TYPE_CHECKING:
    from journal.cli.complete import Source, Table
    from journal.core.decide import Decision
    from journal.games.hildegard.cards import EnemyCard, HitMeter, TargetCard
    from journal.service.journal import Command, View

GAME = "hildegard"
PANEL = "Hildegard"
app = typer.Typer(rich_markup_mode=None)

Player = Annotated[int, typer.Option(
    "--player", metavar="N", min=1, max=2,
    help="Who acts: 1 Hildegard, 2 Hallveig [default: the one whose turn it is].")]


def _act(
    ctx: typer.Context, decide: Command, force: bool = False, player: int | None = None,
) -> None:
    from journal.service.journal import of_game

    act(ctx, of_game(GAME, decide), force, player)


def _entered(ctx: typer.Context) -> dict[str, object]:
    from journal.cli.common import journal

    return journal(ctx).cards(GAME)


@app.command()
def target(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="NAME", help="The target card's name."),
    limit: int = typer.Option(None, "--limit", metavar="N", min=1, help="Bullseye limit."),
    accuracy: int = typer.Option(
        None, "--accuracy", metavar="N", min=1, help="Shot dice per set."),
    sets: int = typer.Option(None, "--sets", metavar="N", min=1, help="How many sets."),
    parts: str = typer.Option(
        None, "--parts", metavar="FACES", help="Bullseye parts available, e.g. c,r,d."),
    reward: str = typer.Option(
        None, "--reward", metavar="REWARD", help="e.g. '1 gold' or '1 feat'."),
    bonus: str = typer.Option(
        None, "--bonus", metavar="BONUS",
        help="e.g. '3 bullseyes, 1 feat' or 'ring+dot, 1 gold'."),
    hit: int = typer.Option(
        None, "--hit", metavar="CARD", help="The card a hit sends you to."),
    miss: int = typer.Option(
        None, "--miss", metavar="CARD", help="The card a miss sends you to."),
    player: Player = None,  # type: ignore[assignment]
    force: Force = False,
) -> None:
    """Take aim at a target.

    Name it from the catalog, or give its numbers inline.

    \b
    Examples:
      spire target "Street Merchant"
      spire target "Pesky Jackalope" --limit 1 --accuracy 2 --sets 1 --parts c,r,d \\
        --reward "1 gold" --bonus "2 bullseyes, 1 feat" --hit 30 --miss 32
    """
    from journal.games.hildegard import rules

    inline = dict(bullseye_limit=limit, accuracy=accuracy, sets=sets, parts=parts,
                  reward=reward, bonus=bonus, hit_card=hit, miss_card=miss)
    card = _target_card(ctx, name, inline)
    _act(ctx, lambda view: rules.start_target(view.state, card, player), force, player)


def _target_card(ctx: typer.Context, name: str, inline: dict[str, object]) -> TargetCard:
    from journal.games.hildegard.cards import TargetCard, inline_target
    from journal.games.hildegard.catalog import find

    if any(v is not None for v in inline.values()):
        return inline_target(name, inline)
    card = find(name, _entered(ctx), "target")  # type: ignore[arg-type]
    assert isinstance(card, TargetCard)
    return card


@app.command()
def faceoff(
    ctx: typer.Context,
    enemies: list[str] = typer.Argument(..., metavar="ENEMY...", help="The enemy cards' names."),
    meter: str = typer.Option(
        None, "--meter", metavar="NAME",
        help="The hit meter card [default: Hildegard's Hit Meter]."),
    enemy_first: bool = typer.Option(
        False, "--enemy-first",
        help="A card says the enemy attacks first (with --force: Hildegard always attacks "
        "first unless stated otherwise)."),
    force: Force = False,
) -> None:
    """Begin a face-off against one or more enemies.

    It is played on Hildegard's hit meter.

    \b
    Examples:
      spire faceoff "The Crows"
      spire faceoff "The Crows" --enemy-first --force
    """
    from journal.games.hildegard import rules
    from journal.games.hildegard.cards import DEFAULT_METER

    found = _face_off_cards(ctx, enemies, meter or DEFAULT_METER)
    _act(ctx, lambda view: rules.start_face_off(view.state, *found, enemy_first), force)


def _face_off_cards(
    ctx: typer.Context, names: list[str], meter_name: str,
) -> tuple[HitMeter, tuple[EnemyCard, ...]]:
    from journal.games.hildegard.cards import EnemyCard, HitMeter
    from journal.games.hildegard.catalog import find

    entered = _entered(ctx)
    meter = find(meter_name, entered, "meter")  # type: ignore[arg-type]
    enemies = tuple(find(n, entered, "enemy") for n in names)  # type: ignore[arg-type]
    assert isinstance(meter, HitMeter) and all(isinstance(e, EnemyCard) for e in enemies)
    return meter, enemies  # type: ignore[return-value]


@app.command()
def roll(
    ctx: typer.Context,
    faces: list[str] = typer.Argument(
        None, metavar="[FACES]...",
        help="The faces rolled at the table: crescent (c), ring (r), dot (d), blank (b). "
        "None: spire rolls."),
    player: Player = None,  # type: ignore[assignment]
    force: Force = False,
) -> None:
    """Roll a set's shot dice, or re-roll the dice not locked.

    A re-roll is finesse. The faces come from the table in the order of the dice; with
    none, spire rolls. Short forms: c crescent, r ring, d dot, b blank.

    \b
    Examples:
      spire roll crescent crescent ring
      spire roll c,c,r
      spire roll
    """
    from journal.games.hildegard import dice, rules

    typed = dice.faces(faces or [])

    def command(view: View) -> Decision:
        rolled = typed or dice.faces(_random_faces(rules.to_roll(view.state, player)[1]))
        return rules.roll(view.state, rolled, player)

    _act(ctx, command, force, player)


ROLLED_AT_MOST = 100
"""The most shot dice spire rolls at once (the box holds 8): a card entered with an
accuracy past it is a slip, and rolling it would take the machine's memory."""


def _random_faces(count: int) -> tuple[str, ...]:
    import random

    from journal.errors import BadInput
    from journal.games.hildegard.dice import SHOT_DIE

    if count > ROLLED_AT_MOST:
        raise BadInput(f"{count} dice are too many to roll (at most {ROLLED_AT_MOST}): check "
                       "the accuracy")
    chance = random.SystemRandom()
    return tuple(chance.choice(SHOT_DIE) for _ in range(count))


@app.command()
def lock(
    ctx: typer.Context,
    dice: list[int] = typer.Argument(
        ..., metavar="POSITIONS...", help="The dice to lock in, by position."),
    player: Player = None,  # type: ignore[assignment]
    force: Force = False,
) -> None:
    """Lock in dice before re-rolling the rest.

    This is finesse: lock at least one die each time.

    \b
    Example:
      spire lock 3
    """
    from journal.games.hildegard import rules

    _act(ctx, lambda view: rules.lock(view.state, tuple(dice), player), force, player)


@app.command()
def stop(
    ctx: typer.Context, player: Player = None, force: Force = False,  # type: ignore[assignment]
) -> None:
    """Stop finessing: the dice stand as they are.

    The wild shot comes next.

    \b
    Example:
      spire stop
    """
    from journal.games.hildegard import rules

    _act(ctx, lambda view: rules.stop(view.state, player), force, player)


@app.command()
def wild(
    ctx: typer.Context,
    effect: str = typer.Argument(
        ..., metavar="EFFECT",
        help="bullseye (b), instinct (i), whoopsie (w), miss (m), ricochet (r)."),
    die: str = typer.Option(
        "black", "--die", metavar="COLOR", help="The wild shot die: black, gray, gold, blue."),
    on: int = typer.Option(
        None, "--on", metavar="N",
        help="The shot die it affects (instinct, whoopsie, ricochet)."),
    face: str = typer.Option(
        None, "--face", metavar="FACE",
        help="Instinct: the face chosen; ricochet: the new face (none: spire rolls)."),
    player: Player = None,  # type: ignore[assignment]
    force: Force = False,
) -> None:
    """Roll the set's wild shot and apply its effect.

    \b
    Examples:
      spire wild whoopsie --on 3
      spire wild instinct --on 2 --face ring
      spire wild bullseye
    """
    from journal.games.hildegard import dice, rules

    effect_, die_ = dice.wild_effect(effect), dice.wild_die(die)
    chosen = dice.face(face) if face else None
    if effect_ == "ricochet" and on is not None and chosen is None:
        chosen = _random_faces(1)[0]  # type: ignore[assignment]
    _act(ctx, lambda view: rules.wild(view.state, die_, effect_, on, chosen, player), force,
         player)


@app.command()
def feat(
    ctx: typer.Context,
    name: str = typer.Argument(
        ..., metavar="FEAT", help="hone, wild, bullseye, reset, redo or block."),
    square: int = typer.Option(
        None, "--square", metavar="N", min=1, help="Block: the hit square."),
    player: Player = None,  # type: ignore[assignment]
    force: Force = False,
) -> None:
    """Spend Feats of Marksmanship.

    Each feat has its cost: hone 1, wild 1, bullseye 2, reset 2, redo 3, block 1.

    \b
    Examples:
      spire feat hone
      spire feat block --square 2
    """
    from journal.games.hildegard import effects

    _act(ctx, lambda view: effects.feat(view.state, name.casefold(), square, player), force,
         player)


@app.command()
def block(
    ctx: typer.Context,
    die: int = typer.Argument(..., metavar="DIE", help="The shot die that blocks, by position."),
    square: int = typer.Option(
        ..., "--square", metavar="N", min=1, help="The hit square it blocks."),
    player: Player = None,  # type: ignore[assignment]
    force: Force = False,
) -> None:
    """Use a shot die to block the hit square showing its part.

    It is for face-offs.

    \b
    Example:
      spire block 3 --square 2
    """
    from journal.games.hildegard import rounds

    _act(ctx, lambda view: rounds.block(view.state, die, square, player), force, player)


@app.command()
def assign(
    ctx: typer.Context,
    enemy: str = typer.Argument(..., metavar="ENEMY", help="The enemy's name."),
    bullseyes: int = typer.Argument(..., metavar="N", help="How many of this round's bullseyes."),
    player: Player = None,  # type: ignore[assignment]
    force: Force = False,
) -> None:
    """Split a round's bullseyes among several enemies.

    The rest go to the others in order.

    \b
    Example:
      spire assign "Crow King" 2
    """
    from journal.games.hildegard import rounds

    _act(ctx, lambda view: rounds.assign(view.state, enemy, bullseyes, player), force, player)


@app.command()
def effect(
    ctx: typer.Context,
    name: str = typer.Argument(
        ..., metavar="EFFECT", help="flub, tame, graze, hit or tag-team."),
    force: Force = False,
) -> None:
    """A card's status effect on the next set.

    Flub, Tame and Graze wait for the next set; Hit applies at once. Hallveig's Tag Team
    combines the players' sets this round.

    \b
    Examples:
      spire effect flub
      spire effect tag-team
    """
    from journal.errors import BadInput
    from journal.games.hildegard import effects
    from journal.games.hildegard.cards import STATUSES

    chosen = name.casefold().replace(" ", "-")
    if chosen == "tag-team":
        _act(ctx, lambda view: effects.tag_team(view.state), force)
        return
    if chosen not in STATUSES:
        raise BadInput(f"unknown effect {name!r}; effects: {', '.join(STATUSES)}, tag-team")
    _act(ctx, lambda view: effects.suffer(view.state, chosen), force)  # type: ignore[arg-type]


@app.command()
def end(
    ctx: typer.Context, player: Player = None, force: Force = False,  # type: ignore[assignment]
) -> None:
    """End the target or the face-off now.

    A target's outcome is what the bullseyes so far make it.

    \b
    Example:
      spire end
    """
    from journal.games.hildegard import rules

    _act(ctx, lambda view: rules.end(view.state, player), force, player)


app.command()(shared.ally)


# -- the card catalog: `spire card add` --------------------------------------------------

card_app = typer.Typer(rich_markup_mode=None)
app.add_typer(card_app, name="card")


def _whole(flag: str, metavar: str, text: str) -> Any:
    return typer.Option(None, flag, metavar=metavar, min=1, help=text)


def _text(flag: str, metavar: str, text: str) -> Any:
    return typer.Option(None, flag, metavar=metavar, help=text)


@card_app.command("add")
def card_add(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="NAME", help="The card's name as printed."),
    game: shared.CardGame = None,  # read by journal/cli/dispatch.py, which chose this
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
    force: shared.CardForce = False,
) -> None:
    """Enter a card with its printed numbers.

    Entering a name again replaces that card. Encounters keep their own copy of a card,
    so replacing one never changes a past playthrough.

    \b
    Examples:
      spire card add Ogre --target --number 140 --limit 2 --accuracy 3 --sets 2 \\
        --parts c,r,d --reward "1 gold" --bonus "3 bullseyes, 1 feat" --hit 141 --miss 142
      spire card add "Crow King" --enemy --limit 5 --accuracy 3 --parts c,r,d
      spire card add "Hildegard's Hit Meter" --meter --accuracy 4 --squares c,c,r,d!,c:flub,r,d
    """
    from journal.games.hildegard.catalog import entered

    given = {"number": number, "limit": limit, "accuracy": accuracy, "sets": sets,
             "parts": parts, "reward": reward, "bonus": bonus, "hit": hit, "miss": miss,
             "squares": squares, "win": win, "lose": lose}
    kind = shared.kind(target=target, enemy=enemy, meter=meter)
    shared.card_added(ctx, GAME, entered(name, kind, given), force)


# -- what Tab offers ---------------------------------------------------------------------

def _faces(table: Table) -> tuple[str, ...]:
    from journal.games.hildegard.dice import FACES

    return FACES


def _wild_effects(table: Table) -> tuple[str, ...]:
    from journal.games.hildegard.dice import WILD_EFFECTS

    return WILD_EFFECTS


def _wild_dice(table: Table) -> tuple[str, ...]:
    from journal.games.hildegard.dice import WILD_DICE

    return WILD_DICE


def _feats(table: Table) -> tuple[str, ...]:
    from journal.games.hildegard.effects import FEAT_COSTS

    return tuple(FEAT_COSTS)


def _statuses(table: Table) -> tuple[str, ...]:
    from journal.games.hildegard.cards import STATUSES

    return (*STATUSES, "tag-team")


def _cards(kind: str) -> Source:
    def names(table: Table) -> list[str]:
        """The rulebook's example cards and the entered cards this campaign has met: an
        entered card it has not met is not offered (PRODUCT.md, Spoiler-safe)."""
        from journal.games.hildegard.catalog import rulebook_cards

        met = table.journal().met_cards(GAME)
        cards = [*rulebook_cards().values(), *met.values()]
        return sorted({c.name for c in cards if c.kind == kind})

    return names


POSITIONALS: dict[tuple[str, ...], tuple[Source, int]] = {
    ("roll",): (_faces, EVERY),
    ("wild",): (_wild_effects, 0),
    ("feat",): (_feats, 0),
    ("effect",): (_statuses, 0),
    ("target",): (_cards("target"), 0),
    ("faceoff",): (_cards("enemy"), EVERY),
}
OPTION_VALUES: dict[str, Source] = {
    "--face": _faces, "--die": _wild_dice, "--meter": _cards("meter"),
}
