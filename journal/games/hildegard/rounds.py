"""A face-off round's own commands: blocks placed with the set's dice, and the round's
bullseyes split among several enemies. Pure, as `rules` is: a `Decision` from the campaign
state, each broken rule a `RuleViolation`.
"""

from __future__ import annotations

from journal.core.decide import Decision
from journal.core.state import State, replace
from journal.core.words import plural
from journal.errors import BadInput, Refused, RuleViolation
from journal.games.hildegard import events as hv
from journal.games.hildegard.combat import round_formed
from journal.games.hildegard.meter import can_block
from journal.games.hildegard.rules import (
    BLOCKS,
    current_encounter,
    decided,
    over_rules,
    shooter_for,
    waiting_for,
)
from journal.games.hildegard.state import FaceOff, ShotSet


def block(state: State, die: int, square: int, player: int | None) -> Decision:
    """Use one of the set's dice to block the hit square showing its part."""
    encounter = current_encounter(state, player)
    if not isinstance(encounter, FaceOff):
        raise Refused("blocks are placed in face-offs")
    shooter = shooter_for(state, player) or _block_shooter(encounter)
    if encounter.outcome is not None:  # said first: which die does not matter now
        return decided(hv.BlockPlaced(shooter=shooter, square=square, die=die),
                        over_rules(encounter))
    shot = encounter.shot(shooter)
    if shot is None or not shot.rolled:
        raise Refused(f"{shooter} has no dice rolled this round{waiting_for(encounter, shooter)}")
    if not 1 <= die <= len(shot.dice) or shot.dice[die - 1] is None or (die - 1) in shot.blocks:
        raise BadInput(f"die {die} is not on the table to block with")
    violations = over_rules(encounter) + _block_rules(encounter, shot, die, square)
    return decided(hv.BlockPlaced(shooter=shooter, square=square, die=die), violations)


def _block_shooter(fight: FaceOff) -> str:
    rolled = [w for w, s in fight.shots if s.rolled]
    return rolled[-1] if rolled else fight.shooters[0]


def _block_rules(fight: FaceOff, shot: ShotSet, die: int, square: int) -> list[RuleViolation]:
    violations = []
    if not shot.finesse_over:
        violations.append(RuleViolation("blocks come after the shot dice are locked", BLOCKS))
    why = can_block(fight.meter, fight.marks, square - 1)
    if why:
        violations.append(RuleViolation(why, BLOCKS))
    elif fight.meter.squares[square - 1].part != shot.dice[die - 1]:
        part = fight.meter.squares[square - 1].part or "a part not entered"
        violations.append(RuleViolation(
            f"die {die} shows {shot.dice[die - 1]}; square {square} needs {part}", BLOCKS))
    return violations


def assign(state: State, enemy: str, count: int, player: int | None) -> Decision:
    """With several enemies, give some of this round's bullseyes to one of them."""
    encounter = current_encounter(state, player)
    if not isinstance(encounter, FaceOff):
        raise Refused("bullseyes are split among enemies in a face-off")
    names = {f.card.name.casefold(): f.card.name for f in encounter.foes}
    if enemy.casefold() not in names:
        raise BadInput(f"no enemy named {enemy!r} (enemies: {', '.join(names.values())})")
    if count < 0:
        raise BadInput("bullseyes cannot be negative")
    shooter = shooter_for(state, player) or encounter.shooters[0]
    event = hv.BullseyesAssigned(shooter=shooter, enemy=names[enemy.casefold()], bullseyes=count)
    if encounter.turn == "enemy" and encounter.outcome is None:
        # Counted at the enemy's first roll; forced, the round just counted is split again.
        return decided(event, [RuleViolation(
            "the bullseyes were counted at the enemy's first roll; `spire undo` it, then assign",
            "Face-Off Scenario")])
    return decided(event, over_rules(encounter) + _split_rules(encounter, event.enemy, count))


def _split_rules(fight: FaceOff, enemy: str, count: int) -> list[RuleViolation]:
    """"your rolls can be split up however you like" (Face-Off Scenario) splits what was
    rolled: an enemy is given no more bullseyes than this round's sets form against its
    own parts, from dice the other enemies' bullseyes do not use."""
    others = tuple((n, b) for n, b in fight.assigned if n != enemy)
    given = round_formed(replace(fight, assigned=(*others, (enemy, count)))).get(enemy, 0)
    if count <= given:
        return []
    most = round_formed(replace(fight, assigned=(*others, (enemy, 10**3)))).get(enemy, 0)
    card = next(f.card for f in fight.foes if f.card.name == enemy)
    parts = ", ".join(dict.fromkeys(card.parts)) or "every part"
    return [RuleViolation(
        f"the dice form at most {plural(most, 'bullseye')} on {enemy} ({parts}), not {count}",
        "Face-Off Scenario")]
