"""The enemies' turn, the round's end and the encounter's end in Volume 2: pure steps from
(the game, the core resources, the event) to the game and resources after it (the allies'
turns are `combat`'s; journal.games.volume2.evolve folds each event with its step).

The target roll, each attack read on the damage table, QUICKDRAW and the abilities that
change a number, the recoup that ends a round, the retreat, the reset and the spoils.
"""

from __future__ import annotations

from dataclasses import replace

from journal.core.state import State
from journal.core.words import plural
from journal.games.volume2 import events as v2
from journal.games.volume2.combat import (
    Resources,
    Step,
    attacks_of,
    encounter_of,
    hurt,
    knocked_out,
    lost,
    points,
    with_ally,
)
from journal.games.volume2.state import (
    Encounter,
    Foe,
    Volume2,
    finished,
    mirrored,
    with_game,
)

# -- the target roll and the attacks -----------------------------------------------------

def target_rolled(game: Volume2, res: Resources, e: v2.TargetRolled) -> Step:
    enc = encounter_of(game)
    top = max(e.rolls)
    tied = tuple(a for a, r in zip(e.allies, e.rolls, strict=False) if r == top)
    rolls = ", ".join(f"{a} {r}" for a, r in zip(e.allies, e.rolls, strict=False))
    if e.between:  # for the ability or rule in question: it says who, and targets no attack
        again = " --between ".join(tied)
        said = (f"Target roll between {' and '.join(e.allies)}: {rolls}; "
                + (f"{tied[0]}" if len(tied) == 1 else
                   f"a tie: `spire target-roll --between {again}` rolls again"))
        return replace(game, resolved=(said,)), res
    if len(tied) > 1:
        enc = replace(enc, contenders=tied, target=None)
        said = f"Target roll: {rolls}; a tie: {' and '.join(tied)} roll again"
    else:
        enc = replace(enc, contenders=(), target=tied[0])
        said = f"Target roll: {rolls}; {tied[0]} is targeted"
    return replace(game, encounter=enc, resolved=(said,)), res


def target_chosen(game: Volume2, res: Resources, e: v2.TargetChosen) -> Step:
    res = dict(res)
    res["bees"] = max(res.get("bees", 0) - 1, 0)
    enc = replace(encounter_of(game), contenders=(), target=e.ally)
    said = f"Spent 1 bee to choose the target: {e.ally} ({plural(res['bees'], 'bee')} left)"
    return replace(game, encounter=enc, resolved=(said,)), res


def attacked(game: Volume2, res: Resources, e: v2.EnemyAttacked) -> Step:
    enc = encounter_of(game)
    foe = enc.enemy(e.enemy)
    ally = enc.ally(e.target)
    if foe is None or ally is None:
        return game, res
    card = foe.card
    total = e.roll + foe.ferocity
    damage = attack_damage(foe, e.roll)
    hp, ap = hurt(ally.hp, ally.ap, damage) if not ally.ko else (ally.hp, ally.ap)
    said = [f"{foe.name} rolls {e.roll} + {foe.ferocity} ferocity = {total}: "
            + (f"{damage} damage to {ally.name} (AP {points(ally.ap, ap)}, "
               f"HP {points(ally.hp, hp)})" if damage else "a miss")]
    enc = with_ally(enc, ally.name, lambda a: replace(a, hp=hp, ap=ap))
    res, knocked = knocked_out(res, ally, hp)
    said += knocked
    if enc.phase != "enemies":  # forced out of turn: the damage, and nothing moves on
        return replace(game, encounter=lost(enc), resolved=tuple(said)), res
    left = enc.attacks_left - 1
    if card.quickdraw is not None and e.roll <= card.quickdraw:
        left += 1
        said.append(f"QUICKDRAW: a natural {e.roll} gives {foe.name} another attack")
    enc = lost(replace(enc, attacks_left=left, target=None, contenders=()))
    if enc.under_way and left <= 0:
        enc, more = _next_enemy(enc)
        said += more
    return replace(game, encounter=enc, resolved=tuple(said)), res


def attack_damage(foe: Foe, roll: int) -> int:
    """The damage of an attack on a natural `roll`: the table read at d20 + ferocity (and
    what triggered abilities add to a hit)."""
    damage = foe.card.damage(roll + foe.ferocity)
    return max(damage + foe.raised("damage"), 0) if damage else 0


def _next_enemy(enc: Encounter) -> tuple[Encounter, list[str]]:
    after = next((i for i in range(enc.foe + 1, len(enc.enemies)) if enc.enemies[i].standing),
                 None)
    if after is not None:
        foe = enc.enemies[after]
        attacks = attacks_of(foe)
        return replace(enc, foe=after, attacks_left=attacks), \
            [f"{foe.name} attacks ({attacks}): the target roll first"]
    return _recoup(enc)


def _recoup(enc: Encounter) -> tuple[Encounter, list[str]]:
    """"At the end of each Round ... they regain that amount of HP" (not a KO'd ally),
    then the next round, or the enemies that have fought their rounds retreat."""
    said = []
    allies = []
    for ally in enc.allies:
        gain = 0 if ally.ko else min(ally.card.recoup or 0, max(ally.hp_max - ally.hp, 0))
        if gain:
            said.append(f"Recoup: {ally.name} +{gain} HP (HP {points(ally.hp, ally.hp + gain)})")
        allies.append(replace(ally, hp=ally.hp + gain, acted=False))
    done = enc.round
    enemies = tuple(
        replace(f, out="retreated") if f.standing and isinstance(f.card.retreat, int)
        and done >= f.card.retreat else _round_over(f) for f in enc.enemies)
    for before, after in zip(enc.enemies, enemies, strict=True):
        if before.out != after.out:
            said.append(f"{after.name} retreats after {done} round{'s' if done != 1 else ''} "
                        "(not defeated: no rewards)")
    enc = replace(enc, allies=tuple(allies), enemies=enemies, round=done + 1, phase="allies",
                  foe=0, attacks_left=0, target=None, contenders=(), turn=None, hive=False)
    if not enc.standing():
        return replace(enc, round=done, outcome="retreated"), said
    first = next(a.name for a in enc.allies if not a.ko)
    return enc, [*said, f"Round {enc.round}: {first}'s turn"]


def _round_over(foe: Foe) -> Foe:
    """The abilities that do not stack reset at the end of the round."""
    kept = tuple(n for n in foe.triggered if (b := foe.card.boost(n)) is not None and b.stacks)
    return foe if kept == foe.triggered else replace(foe, triggered=kept)


def triggered(game: Volume2, res: Resources, e: v2.AbilityTriggered) -> Step:
    enc = encounter_of(game)
    foe = enc.enemy(e.enemy)
    boost = foe.card.boost(e.ability) if foe else None
    if foe is None or boost is None:
        return game, res
    after = replace(foe, triggered=(*foe.triggered, boost.name))
    enc = replace(enc, enemies=tuple(after if f is foe else f for f in enc.enemies))
    if boost.raises == "attacks" and enc.acting() is after:
        enc = replace(enc, attacks_left=enc.attacks_left + boost.amount)
    lasting = "stacks: for the encounter" if boost.stacks else "until the end of the round"
    said = (f"{boost.name}: {foe.name}'s {boost.raises} {boost.amount:+d} "
            f"({foe.raised(boost.raises):+d} -> {after.raised(boost.raises):+d}; {lasting})",)
    return replace(game, encounter=enc, resolved=said), res


def ended(game: Volume2, res: Resources, e: v2.EncounterClosed) -> Step:
    enc = replace(encounter_of(game), outcome="ended")
    return replace(game, encounter=enc, resolved=("The players ended the encounter",)), res


# -- the end of an encounter -------------------------------------------------------------

OUTCOMES = {"won": "won", "lost": "lost: every ally in play is KO'd; the game is over",
            "retreated": "over: the enemies retreated", "ended": "ended by the players"}


def reset(state: State, game: Volume2) -> State:
    """"As long as 1 Ally survives an Encounter, all Allies' HP and AP are fully restored
    once the Encounter concludes." Bees and pollen carry over. The encounter keeps its
    allies as the fight left them (the report reads them); the characters are restored."""
    enc = encounter_of(game)
    names = ", ".join(f.name for f in enc.enemies)
    line = f"Encounter with {names} {OUTCOMES[enc.outcome or 'ended']} (round {enc.round})"
    said = (*game.resolved, line)
    if enc.outcome == "lost":  # the cubes as the last blow left them: no reset
        return with_game(mirrored(state, enc), replace(
            game, resolved=said, finished=finished(game, line), game_over=True))
    game = replace(game, encounter=replace(enc, turn=None),
                   resolved=(*said, "Reset: every ally's HP and AP back to their limits"),
                   finished=finished(game, line))
    state = with_game(state, game)
    return replace(state, characters=tuple(
        replace(c, hp=hp, ap=ap) for c in state.characters
        for hp, ap in [state.limits(c)]))
