"""Exact odds in a Spire's End fight: what each action bar does to the one it strikes, what
the recoup gives, and what the enemy's bars do to the ally its selection roll picks.

Pure: no I/O, no randomness. An action is "Roll 1D8 ... Perform the results" (Action
Steps); a bar reads one d8 (two for a (!) bar, one more for Luck, one more for an Encore
re-roll). Every roll of those d8 is resolved by the game's own rules (`turns.action` and
`turns.enemy_action`, the very functions that fold the events), so Strength, Luck,
Cripple, Pierce, Chant and armor count as they do at the table; each roll is 1/8, and the
distribution is the count of rolls that lead to each outcome. Damage is the HP the target
loses: "Damage taken goes through Armor Points, THEN Hit Points" (Damage and Healing
Distribution).

Only what the rules allow is weighed, by the checks the rules refuse with
(`allowed`): no bar of a stunned fighter, nor of one whose action is behind it; only the
bar an effect forces, on the one it forces (Intimidate, Confusion, Turncoat); no bar that
costs more HP than the ally has. Once the action is behind the fighter whose turn it is
(or Stun forbids it), what comes next is weighed instead: its recoup, then the next
fighter's move from the position its upkeep leaves. A death move due comes before any of
these ("they will trigger a Death Move before you discard them"; the rules refuse every
other step until it is made): it alone is weighed, its death bar on the enemy over every
roll of its d8 (none for a bar that needs no roll).

The HP and AP lost are capped at what the target has: "Damage taken goes through Armor
Points, THEN Hit Points", and a fighter at 0 HP has no more to lose; a loss of all its HP
is its fall (`kills`).
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
from journal.games.spires_end.allowed import (
    DEATH_MOVE,
    bar_rules,
    death_due,
    enemy_bar,
    forced_target,
    own_turn,
    steps,
)
from journal.games.spires_end.combat import base_dice
from journal.games.spires_end.odds_next import after_upkeep, recoup, step_facts
from journal.games.spires_end.state import Fighter, SpiresEnd, spires_end
from journal.games.spires_end.turns import action, death_move, enemy_action


@dataclass(frozen=True)
class Outcome:
    """What a bar does to its target over every roll: the chance of each HP lost, of each
    AP lost (neither more than the target has), and that the target falls; `hp` is the HP
    it has, the loss that kills it."""

    hp_lost: dict[int, Fraction]
    ap_lost: dict[int, Fraction]
    falls: Fraction
    hp: int


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
        lost_hp = min(max(befores.hp - after.hp, 0), max(befores.hp, 0))
        lost_ap = min(max(befores.ap - after.ap, 0), max(befores.ap, 0))
        hp[lost_hp] = hp.get(lost_hp, Fraction(0)) + share
        ap[lost_ap] = ap.get(lost_ap, Fraction(0)) + share
        falls += share if after.dead else 0
    return Outcome(dict(sorted(hp.items())), dict(sorted(ap.items())), falls, befores.hp)


def struck_by(game: SpiresEnd, actor: Fighter) -> str:
    """Whom an ally's action strikes: the one an effect forces, or else the enemy."""
    assert game.fight is not None
    return forced_target(game, actor) or game.fight.enemy.name


def ally_bar(game: SpiresEnd, actor: Fighter, bar_number: int) -> Outcome:
    """Bar `bar_number` of `actor` on the one it strikes, over every roll of its dice."""
    target = struck_by(game, actor)
    struck = game.fighter(target)
    assert struck is not None and game.fight is not None
    aimed = None if target == game.fight.enemy.name else target
    afters = []
    for rolls in product(range(1, 9), repeat=dice_for(bar_number, actor)):
        event = se.ActionPerformed(actor=actor.name, bar=bar_number, rolls=rolls, target=aimed)
        afters.append(action(game, event).fighter(target) or struck)
    return _tally(struck, afters)


def selection(game: SpiresEnd) -> dict[str, Fraction]:
    """The chance the enemy's action strikes each fighter: the one an effect forces, or the
    ally its selection roll picks, "Roll 1-4: Attack Ally 1 Roll 5-8: Attack Ally 2" (an
    empty or dead place: the other ally)."""
    from journal.games.spires_end.rules import selected

    assert game.fight is not None
    forced = forced_target(game, game.fight.enemy)
    if forced is not None:
        return {forced: Fraction(1)}
    found: dict[str, Fraction] = {}
    for roll in range(1, 9):
        name = selected(game, roll)
        if name is not None:
            found[name] = found.get(name, Fraction(0)) + Fraction(1, 8)
    return found


def enemy_bar_on(game: SpiresEnd, bar_number: int, target: str) -> Outcome:
    """The enemy's bar `bar_number` on `target`, over every roll of its dice."""
    assert game.fight is not None
    enemy = game.fight.enemy
    struck = game.fighter(target)
    assert struck is not None
    afters = []
    for rolls in product(range(1, 9), repeat=dice_for(bar_number, enemy)):
        event = se.EnemyActed(enemy=enemy.name, card=bar_number, bar=bar_number, rolls=rolls,
                              target=target)
        afters.append(enemy_action(game, event).fighter(target) or struck)
    return _tally(struck, afters)


def death_bar_on(game: SpiresEnd, name: str) -> Outcome | None:
    """The death move of `name`, due, on the enemy (its damage's default target), over
    every roll of its death bar's d8; None: its death bar is not entered or needs no roll."""
    dead = game.ally(name)
    assert dead is not None and game.fight is not None
    bar = getattr(dead.card, "death", None)
    if bar is None or not bar.needs_roll:
        return None
    enemy = game.fight.enemy
    dice = base_dice(bar, dead) + (1 if dead.has("encore") else 0)
    afters = []
    for rolls in product(range(1, 9), repeat=dice):
        event = se.DeathMovePerformed(ally=name, rolls=rolls, given_to=_other(game, name))
        afters.append(death_move(game, event).fighter(enemy.name) or enemy)
    return _tally(enemy, afters)


def _other(game: SpiresEnd, name: str) -> str | None:
    """Whom a death move's positive effects go to by default: the other ally in play."""
    return next((a.name for a in game.living() if a.name != name), None)


# -- `spire odds`: the fight under way, as plain data -----------------------------------

def odds(state: State) -> dict[str, Any]:
    game = spires_end(state)
    fight = game.fight
    if fight is None or not fight.under_way:
        raise Refused("the odds weigh a Spire's End fight under way; none is now "
                      "(`spire fight ENEMY` begins one)")
    actor = game.actor()
    enemy = fight.enemy
    its_turn = actor is not None and actor.is_enemy
    found = {
        "game": "spires-end", "kind": "fight", "round": fight.round,
        "turn": actor.name if actor is not None else enemy.name,
        "enemy": {"name": enemy.name, "hp": enemy.hp, "ap": enemy.ap},
        "ally": _ally_turn(game, actor) if actor is not None and not its_turn else None,
        "recoup": None, "after_upkeep": None, "upkeep_ends": None, "upkeep_death": None,
        "next_ally": None, "death": None,
    }
    dying = death_due(game)
    if dying is not None:  # every other step waits for it: nothing else is weighed
        return {**found, "ally": None, "enemy_turn": None, "death": _death(game, dying)}
    if actor is None or "action" in steps(actor, fight):
        return {**found, "enemy_turn": _enemy_turn(game)}
    return {**found, **_what_follows(game, actor)}


def _death(game: SpiresEnd, name: str) -> dict[str, Any]:
    """The death move due: whose, the command that makes it, its bar, and (a bar with
    rolls) what it does to the enemy over every roll."""
    assert game.fight is not None
    dead = game.ally(name)
    bar = getattr(dead.card, "death", None) if dead is not None else None
    weighed = death_bar_on(game, name)
    return {"ally": name, "command": DEATH_MOVE, "entered": bar is not None,
            "bar": (bar.name or None) if bar is not None else None,
            "target": game.fight.enemy.name if weighed is not None else None,
            "outcome": _outcome(weighed) if weighed is not None else None}


def _what_follows(game: SpiresEnd, actor: Fighter) -> dict[str, Any]:
    """Once `actor`'s action is behind it: its recoup, and the next fighter's move from the
    fight as its upkeep leaves it (or the fight's end, if the upkeep ends it)."""
    later = after_upkeep(game, actor)
    assert later.fight is not None
    going = later.fight.under_way
    dying = death_due(later) if going else None  # (Bleed's last HP): it comes first
    weighed = going and dying is None
    return {
        "recoup": recoup(game, actor), "after_upkeep": actor.name,
        "upkeep_ends": None if going else later.fight.outcome,
        "upkeep_death": dying,
        "next_ally": _next_ally(later) if weighed else None,
        "enemy_turn": _enemy_turn(later if not actor.is_enemy else game) if weighed else None,
    }


def _ally_turn(game: SpiresEnd, actor: Fighter) -> dict[str, Any]:
    """Each bar the ally may perform now, weighed; each it may not, with the rule's reason;
    neither once its action is behind it or Stun forbids it."""
    fight = own_turn(game, actor)
    acting = "action" in steps(actor, fight)
    numbered = list(enumerate(actor.card.bars, start=1)) if acting else []
    why = {n: bar_rules(actor, n, bar) for n, bar in numbered}
    target = struck_by(game, actor)
    return {
        "name": actor.name, "hp": actor.hp, "ap": actor.ap, **step_facts(actor, fight),
        "forced": _forced(actor, target if acting else None),
        "bars": [{"bar": n, "name": bar.name, "cost": actor.cost(bar), "target": target,
                  "dies": 0 < actor.cost(bar) == actor.hp,
                  **_outcome(ally_bar(game, actor, n))}
                 for n, bar in numbered if not why[n]],
        "refused": [{"bar": n, "name": bar.name, "cost": bar.cost,
                     "why": "; ".join(v.reason for v in why[n])}
                    for n, bar in numbered if why[n]],
    }


def _forced(fighter: Fighter, target: str | None) -> dict[str, Any] | None:
    """The effect that chooses the action, its bar, and whom it turns it on (None: the
    action's own target)."""
    if fighter.forced_by is None:
        return None
    turned = fighter.forced_by in ("confusion", "turncoat")
    return {"by": fighter.forced_by, "bar": fighter.forced_bar,
            "target": target if turned else None}


def _next_ally(ahead: SpiresEnd) -> dict[str, Any] | None:
    """The move of the ally whose turn comes next, as the upkeep leaves the fight."""
    actor = ahead.actor()
    if actor is None or actor.is_enemy:
        return None
    return _ally_turn(ahead, actor)


def _enemy_turn(game: SpiresEnd) -> dict[str, Any]:
    """The enemy's selection roll and each bar its action cards lead to, on each fighter
    it may strike; neither when its action is behind it or Stun forbids it."""
    assert game.fight is not None
    enemy = game.fight.enemy
    fight = own_turn(game, enemy)
    facts = step_facts(enemy, fight)
    if "action" not in facts["steps"]:
        return {**facts, "forced": None, "selected": {}, "bars": []}
    picked = selection(game)
    numbers = sorted({enemy_bar(enemy, card) for card in range(1, len(enemy.card.bars) + 1)})
    forced = _forced(enemy, next(iter(picked)) if len(picked) == 1 else None)
    if forced is not None and forced["bar"] not in numbers:  # a bar the enemy lacks: its card's
        forced["bar"] = None
    return {
        **facts, "forced": forced,
        "selected": {who: chance(p) for who, p in picked.items()},
        "bars": [{"bar": n, "name": enemy.card.bars[n - 1].name, "against": {
            who: _outcome(enemy_bar_on(game, n, who)) for who in picked}} for n in numbers],
    }


def _outcome(found: Outcome) -> dict[str, Any]:
    return {"hp_lost": {str(k): chance(p) for k, p in found.hp_lost.items()},
            "ap_lost": {str(k): chance(p) for k, p in found.ap_lost.items()},
            "falls": chance(found.falls),
            "kills": str(found.hp) if found.hp in found.hp_lost else None}
