"""Hildegard at the table: targets, face-offs, the dice, feats and blocks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from journal.cli import app
from journal.cli.common import Force, act

if TYPE_CHECKING:
    from journal.decide import Decision
    from journal.games.hildegard.cards import EnemyCard, HitMeter, TargetCard
    from journal.service import Command, View

Player = Annotated[int, typer.Option(
    "--player", metavar="N", min=1, max=2,
    help="Who acts: 1 Hildegard, 2 Hallveig [default: the one whose turn it is].")]


def _act(ctx: typer.Context, decide: Command, force: bool = False, player: int | None = None) -> None:
    from journal.service import of_game

    act(ctx, of_game("hildegard", decide), force, player)


def _entered(ctx: typer.Context) -> dict[str, object]:
    from journal.cli.common import journal

    return journal(ctx).cards("hildegard")


@app.command()
def target(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="NAME", help="The target card's name."),
    limit: int = typer.Option(None, "--limit", metavar="N", min=1, help="Bullseye limit."),
    accuracy: int = typer.Option(None, "--accuracy", metavar="N", min=1, help="Shot dice per set."),
    sets: int = typer.Option(None, "--sets", metavar="N", min=1, help="How many sets."),
    parts: str = typer.Option(None, "--parts", metavar="FACES", help="Bullseye parts available, e.g. c,r,d."),
    reward: str = typer.Option(None, "--reward", metavar="REWARD", help="e.g. '1 gold' or '1 feat'."),
    bonus: str = typer.Option(None, "--bonus", metavar="BONUS", help="e.g. '3 bullseyes, 1 feat' or 'ring+dot, 1 gold'."),
    hit: int = typer.Option(None, "--hit", metavar="CARD", help="The card a hit sends you to."),
    miss: int = typer.Option(None, "--miss", metavar="CARD", help="The card a miss sends you to."),
    player: Player = None,  # type: ignore[assignment]
    force: Force = False,
) -> None:
    """Take aim at a target: from the catalog by name, or with its numbers inline.

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
    meter: str = typer.Option(None, "--meter", metavar="NAME", help="The hit meter card [default: Hildegard's Hit Meter]."),
    enemy_first: bool = typer.Option(False, "--enemy-first", help="A card says the enemy attacks first (with --force: Hildegard always attacks first unless stated otherwise)."),
    force: Force = False,
) -> None:
    """Begin a face-off against one or more enemies on Hildegard's hit meter.

    \b
    Examples:
      spire faceoff "The Crows"
      spire faceoff "The Crows" --enemy-first --force
    """
    from journal.games.hildegard import rules
    from journal.games.hildegard.cards import DEFAULT_METER

    found = _face_off_cards(ctx, enemies, meter or DEFAULT_METER)
    _act(ctx, lambda view: rules.start_face_off(view.state, *found, enemy_first), force)


def _face_off_cards(ctx: typer.Context, names: list[str], meter_name: str) -> tuple[HitMeter, tuple[EnemyCard, ...]]:
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
        help="The faces rolled at the table. Hildegard: crescent (c), ring (r), dot (d), "
        "blank (b). Volume 2, hive dice: sickle (s), bee (e), pollen (p), hive (h), blank (b); "
        "shot dice: black (k), white (w), half (h), circle (c), ping (p), blank (b). "
        "None: spire rolls."),
    hp: int = typer.Option(None, "--hp", metavar="N", min=1, max=20, help="Volume 2: the HP "
                           "spent, one die each (the ally's accuracy) [default: one a face typed]."),
    ally: str = typer.Option(None, "--ally", metavar="NAME", help="Volume 2: who rolls "
                             "[default: Finnian first, then the others in order]."),
    player: Player = None,  # type: ignore[assignment]
    force: Force = False,
) -> None:
    """Roll a set's shot dice, or re-roll the dice not locked (finesse).

    The faces come from the table in the order of the dice; with none, spire rolls.
    Hildegard's short forms: c crescent, r ring, d dot, b blank. In Volume 2 the first
    roll of an ally's turn spends 1 HP a die (keep at least 1 HP); a re-roll rolls the
    dice not locked and spends nothing. Volume 2's faces are listed under FACES.

    \b
    Examples:
      spire roll crescent crescent ring
      spire roll c,c,r
      spire roll
      spire roll sickle bee hive          (Volume 2: Finnian spends 3 HP)
      spire roll --hp 2 --ally Dunstan    (Volume 2: spire rolls 2 shot dice)
    """
    from journal.cli import volume2

    if volume2.is_volume2(ctx):
        volume2.no_player(player)
        volume2.roll(ctx, faces or [], hp, ally, force)
        return
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
    dice: list[int] = typer.Argument(..., metavar="POSITIONS...", help="The dice to lock in, by position."),
    player: Player = None,  # type: ignore[assignment]
    force: Force = False,
) -> None:
    """Lock in dice before re-rolling the rest (finesse): at least one each time.

    \b
    Example:
      spire lock 3
    """
    from journal.cli import volume2

    if volume2.is_volume2(ctx):
        volume2.no_player(player)
        volume2.lock(ctx, dice, force)
        return
    from journal.games.hildegard import rules

    _act(ctx, lambda view: rules.lock(view.state, tuple(dice), player), force, player)


@app.command()
def stop(ctx: typer.Context, player: Player = None, force: Force = False) -> None:  # type: ignore[assignment]
    """Stop finessing: the dice stand as they are; the wild shot comes next (in Volume 2,
    the actions: every die counts as locked).

    \b
    Example:
      spire stop
    """
    from journal.cli import volume2

    if volume2.is_volume2(ctx):
        volume2.no_player(player)
        volume2.stop(ctx, force)
        return
    from journal.games.hildegard import rules

    _act(ctx, lambda view: rules.stop(view.state, player), force, player)


@app.command()
def wild(
    ctx: typer.Context,
    effect: str = typer.Argument(
        ..., metavar="EFFECT",
        help="bullseye (b), instinct (i), whoopsie (w), miss (m), ricochet (r)."),
    die: str = typer.Option("black", "--die", metavar="COLOR", help="The wild shot die: black, gray, gold, blue."),
    on: int = typer.Option(None, "--on", metavar="N", help="The shot die it affects (instinct, whoopsie, ricochet)."),
    face: str = typer.Option(None, "--face", metavar="FACE", help="Instinct: the face chosen; ricochet: the new face (none: spire rolls)."),
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
    _act(ctx, lambda view: rules.wild(view.state, die_, effect_, on, chosen, player), force, player)


@app.command()
def feat(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="FEAT", help="hone, wild, bullseye, reset, redo or block."),
    square: int = typer.Option(None, "--square", metavar="N", min=1, help="Block: the hit square."),
    player: Player = None,  # type: ignore[assignment]
    force: Force = False,
) -> None:
    """Spend Feats of Marksmanship: hone 1, wild 1, bullseye 2, reset 2, redo 3, block 1.

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
    square: int = typer.Option(..., "--square", metavar="N", min=1, help="The hit square it blocks."),
    player: Player = None,  # type: ignore[assignment]
    force: Force = False,
) -> None:
    """Use a shot die to block the hit square showing its part (face-offs).

    \b
    Example:
      spire block 3 --square 2
    """
    from journal.games.hildegard import rules

    _act(ctx, lambda view: rules.block(view.state, die, square, player), force, player)


@app.command()
def assign(
    ctx: typer.Context,
    enemy: str = typer.Argument(..., metavar="ENEMY", help="The enemy's name."),
    bullseyes: int = typer.Argument(..., metavar="N", help="How many of this round's bullseyes."),
    player: Player = None,  # type: ignore[assignment]
    force: Force = False,
) -> None:
    """Split a round's bullseyes among several enemies (the rest go to the first).

    \b
    Example:
      spire assign "Crow King" 2
    """
    from journal.games.hildegard import rules

    _act(ctx, lambda view: rules.assign(view.state, enemy, bullseyes, player), force, player)


@app.command()
def effect(
    ctx: typer.Context,
    name: str = typer.Argument(..., metavar="EFFECT", help="Hildegard: flub, tame, graze, "
                               "hit or tag-team. Spire's End: any effect of the glossary."),
    on: str = typer.Option(None, "--on", metavar="WHO", help="Spire's End: who suffers it."),
    turns: int = typer.Option(None, "--turns", metavar="N", min=0,
                              help="Spire's End: its clock icons."),
    persistent: bool = typer.Option(False, "--persistent",
                                    help="Spire's End: it lasts until cleansed."),
    force: Force = False,
) -> None:
    """A card's status effect: Hildegard's on the next set, Spire's End's on anyone.

    Hildegard: Flub, Tame, Graze on the next set; Hit at once; Hallveig's Tag Team combines
    the players' sets this round. Spire's End: any effect of the glossary on an ally or the
    enemy, with its clocks.

    \b
    Examples:
      spire effect flub
      spire effect bleed --on Millicent --turns 3
    """
    from journal.cli import spires_end

    if spires_end.is_spires_end(ctx):
        spires_end.inflict(ctx, name, on, turns, persistent, force)
        return
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
def end(ctx: typer.Context, player: Player = None, force: Force = False) -> None:  # type: ignore[assignment]
    """End the target now (its outcome is what the bullseyes so far make it); in Spire's
    End, the fight; in Volume 2, the encounter (with the reset, if an ally stands).

    \b
    Example:
      spire end
    """
    from journal.cli import spires_end, volume2

    if volume2.is_volume2(ctx):
        volume2.end(ctx, force)
        return
    if spires_end.is_spires_end(ctx):
        spires_end.end(ctx, force)
        return
    from journal.games.hildegard import rules

    _act(ctx, lambda view: rules.end(view.state, player), force, player)
