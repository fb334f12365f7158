"""Exact odds in a Spire's End fight: what each action bar does to the enemy, and what the
enemy's bars do to the ally its selection roll picks.

Pure: no I/O, no randomness. An action is "Roll 1D8 ... Perform the results" (Action
Steps); a bar reads one d8 (two for a (!) bar, one more for Luck, one more for an Encore
re-roll). Every roll of those d8 is resolved by the game's own rules (`turns.action` and
`turns.enemy_action`, the very functions that fold the events), so Strength, Luck,
Cripple, Pierce, Chant and armor count as they do at the table; each roll is 1/8, and the
distribution is the count of rolls that lead to each outcome. Damage is the HP the target
loses: "Damage taken goes through Armor Points, THEN Hit Points" (Damage and Healing
Distribution). A stunned fighter has no action to weigh: "Stun: No action next turn (can
still perform recoup or rest)" (Status Effects Glossary), and the rules refuse its every
roll; nor, for a stunned enemy, a selection roll, made "At the same time as the attack
roll".
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import Any

from journal.core.dice_stats import chance
from journal.core.state import State
from journal.errors import Refused
from journal.games.spires_end import events as se
from journal.games.spires_end.combat import base_dice
from journal.games.spires_end.state import ENEMY_TURN, Fighter, SpiresEnd, spires_end
from journal.games.spires_end.turns import action, enemy_action


@dataclass(frozen=True)
class Outcome:
    """What a bar does to its target over every roll: the chance of each HP lost, of each
    AP lost, and that the target falls."""

    hp_lost: dict[int, Fraction]
    ap_lost: dict[int, Fraction]
    falls: Fraction


def dice_for(bar_number: int, actor: Fighter) -> int:
    """The d8 a bar rolls at most: its own, Luck's, and an Encore's re-roll."""
    bar = actor.card.bars[bar_number - 1]
    if not bar.needs_roll:
        return 0
    return base_dice(bar, actor) + (1 if actor.has("encore") else 0)


def _tally(befores: Fighter, afters: list[Fighter]) -> Outcome:
    share = Fraction(1, len(afters))
    hp: dict[int, Fraction] = {}
    ap: dict[int, Fraction] = {}
    falls = Fraction(0)
    for after in afters:
        lost_hp, lost_ap = max(befores.hp - after.hp, 0), max(befores.ap - after.ap, 0)
        hp[lost_hp] = hp.get(lost_hp, Fraction(0)) + share
        ap[lost_ap] = ap.get(lost_ap, Fraction(0)) + share
        falls += share if after.dead else 0
    return Outcome(dict(sorted(hp.items())), dict(sorted(ap.items())), falls)


def ally_bar(game: SpiresEnd, actor: Fighter, bar_number: int) -> Outcome:
    """Bar `bar_number` of `actor` against the enemy, over every roll of its dice."""
    assert game.fight is not None
    enemy = game.fight.enemy
    afters = []
    for rolls in product(range(1, 9), repeat=dice_for(bar_number, actor)):
        event = se.ActionPerformed(actor=actor.name, bar=bar_number, rolls=rolls)
        after = action(game, event).fight
        afters.append(after.enemy if after is not None else enemy)
    return _tally(enemy, afters)


def selection(game: SpiresEnd) -> dict[str, Fraction]:
    """The chance the enemy's selection roll picks each ally: "Roll 1-4: Attack Ally 1
    Roll 5-8: Attack Ally 2" (an empty or dead place: the other ally)."""
    from journal.games.spires_end.rules import selected

    found: dict[str, Fraction] = {}
    for roll in range(1, 9):
        name = selected(game, roll)
        if name is not None:
            found[name] = found.get(name, Fraction(0)) + Fraction(1, 8)
    return found


def enemy_bar(game: SpiresEnd, bar_number: int, target: str) -> Outcome:
    """The enemy's bar `bar_number` on `target`, over every roll of its dice."""
    assert game.fight is not None
    enemy = game.fight.enemy
    struck = game.ally(target)
    assert struck is not None
    afters = []
    for rolls in product(range(1, 9), repeat=dice_for(bar_number, enemy)):
        event = se.EnemyActed(enemy=enemy.name, card=bar_number, bar=bar_number, rolls=rolls,
                              target=target)
        after = enemy_action(game, event).ally(target)
        afters.append(after if after is not None else struck)
    return _tally(struck, afters)


# -- `spire odds`: the fight under way, as plain data -----------------------------------

def odds(state: State) -> dict[str, Any]:
    game = spires_end(state)
    fight = game.fight
    if fight is None or not fight.under_way:
        raise Refused("the odds weigh a Spire's End fight under way; none is now "
                      "(`spire fight ENEMY` begins one)")
    name = game.slots[fight.turn - 1] if fight.turn != ENEMY_TURN else None
    actor = game.ally(name) if name else None
    enemy = fight.enemy
    return {
        "game": "spires-end", "kind": "fight", "round": fight.round,
        "turn": name or enemy.name,
        "enemy": {"name": enemy.name, "hp": enemy.hp, "ap": enemy.ap},
        "ally": None if actor is None else _ally_turn(game, actor),
        "enemy_turn": _enemy_turn(game),
    }


def _ally_turn(game: SpiresEnd, actor: Fighter) -> dict[str, Any]:
    """Each bar of the ally whose turn it is; none when Stun forbids the action."""
    bars = [] if actor.stunned else [
        {"bar": n, "name": bar.name, "cost": bar.cost, **_outcome(ally_bar(game, actor, n))}
        for n, bar in enumerate(actor.card.bars, start=1)]
    return {"name": actor.name, "hp": actor.hp, "ap": actor.ap, "stunned": actor.stunned,
            "bars": bars}


def _enemy_turn(game: SpiresEnd) -> dict[str, Any]:
    """The enemy's selection roll and each of its bars on each ally it may pick; neither
    when Stun forbids its action."""
    assert game.fight is not None
    enemy = game.fight.enemy
    if enemy.stunned:
        return {"stunned": True, "selected": {}, "bars": []}
    picked = selection(game)
    return {
        "stunned": False,
        "selected": {who: chance(p) for who, p in picked.items()},
        "bars": [{"bar": n, "name": bar.name, "against": {
            who: _outcome(enemy_bar(game, n, who)) for who in picked}}
            for n, bar in enumerate(enemy.card.bars, start=1)],
    }


def _outcome(found: Any) -> dict[str, Any]:
    return {"hp_lost": {str(k): chance(p) for k, p in found.hp_lost.items()},
            "ap_lost": {str(k): chance(p) for k, p in found.ap_lost.items()},
            "falls": chance(found.falls)}
