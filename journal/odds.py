"""`spire odds`: what each game's odds module says of the position the journal holds now,
as plain data (a dict for `--json`, rendered for people by journal.render_insight).

Each game computes its own odds beside its rules (journal/games/<game>/odds.py), purely;
this module only finds the position in the state and says what was found.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from journal.errors import Refused
from journal.state import State
from journal.words import plural

WILD = ("before any wild shot: the rulebook prints no wild die's faces, so each wild shot "
        "counts as a Miss")


def chance(value: Fraction) -> dict[str, Any]:
    """A chance for scripts: exact (`fraction`) and as a float (`value`)."""
    return {"fraction": f"{value.numerator}/{value.denominator}", "value": float(value)}


def odds(state: State) -> dict[str, Any]:
    """The odds from where the players stand now; Refused when there is nothing to weigh."""
    if state.game == "hildegard":
        return _hildegard(state)
    if state.game == "volume2":
        return _volume2(state)
    if state.game == "spires-end":
        return _spires_end(state)
    raise Refused(f"spire has no odds for {state.game}")


def _hildegard(state: State) -> dict[str, Any]:
    from journal.games.hildegard import odds as hildegard_odds
    from journal.games.hildegard.state import FaceOff, Target, hildegard

    h = hildegard(state)
    target = h.encounter
    if isinstance(target, FaceOff):
        return _face_off(target, h.next_set)
    if not isinstance(target, Target):
        raise Refused("the odds weigh a target or a face-off under way; nothing is under "
                      "way now (`spire target NAME` takes aim)")
    if target.outcome is not None:
        raise Refused(f"{target.card.name} is over ({target.outcome}); nothing left to weigh")
    at = hildegard_odds.position(target, h.next_set)
    why = hildegard_odds.too_big(dataclasses.replace(at, feats=state.resources.get("feats", 0)))
    if why is not None:
        raise Refused(f"{target.card.name}: {why}")
    hit, bonus_on_hit = hildegard_odds.chances(at, "hit")
    found: dict[str, Any] = {
        "game": "hildegard", "kind": "target", "target": target.card.name,
        "bullseyes": at.made, "limit": at.aim.limit, "sets_left": target.sets_left,
        "set_under_way": _set_json(at),
        "next_set": {"dice": at.next_size, "graze": at.next_graze} if at.sets else None,
        "wild_shot": WILD,
        "hit": chance(hit),
        "bonus": None,
        "advice": _advice(target.shot, at),
    }
    feats = state.resources.get("feats", 0)
    if feats > 0:
        spent = dataclasses.replace(at, feats=feats)
        found["spending"] = {"feats": feats,
                             "hit": chance(hildegard_odds.chances(spent, "hit")[0])}
    if at.aim.has_bonus:
        for_bonus, _ = hildegard_odds.chances(at, "bonus")
        found["bonus"] = {"challenge": _challenge(target), "done": at.aim.bonus_done,
                          "on_that_play": chance(bonus_on_hit),
                          "playing_for_it": chance(for_bonus)}
    return found


def _face_off(fight: Any, waiting: Any) -> dict[str, Any]:
    """The players' sets of a face-off round: the chance they bring the first enemy
    standing to its limit this round."""
    from journal.games.hildegard import odds as hildegard_odds

    if fight.outcome is not None:
        raise Refused(f"the face-off is over ({fight.outcome}); nothing left to weigh")
    from journal.games.hildegard.combat import players_done

    if fight.turn != "players" or players_done(fight):
        return _enemy_turn(fight)
    if fight.tag_team:
        raise Refused("Tag Team pools the players' dice: spire does not weigh it yet")
    at = hildegard_odds.face_off_position(fight, waiting)
    why = hildegard_odds.too_big(at)
    if why is not None:
        raise Refused(f"the face-off: {why}")
    going = next((s for _, s in fight.shots if s.rolled and not s.finesse_over), None)
    foe = fight.standing()[0]
    at_least = {n: hildegard_odds.chances(_needing(at, n))[0]
                for n in range(1, max(at.aim.limit - at.made, 0) + 1)}
    # Out of reach this round, the advice plays for the most bullseyes the dice can still make.
    aim_for = max((n for n, p in at_least.items() if p > 0), default=0)
    return {
        "game": "hildegard", "kind": "face-off", "enemy": foe.card.name,
        "round": fight.round, "bullseyes": foe.bullseyes, "limit": foe.card.bullseye_limit,
        "this_round": at.made, "sets_left": at.sets + (at.going is not None),
        "set_under_way": _set_json(at),
        "next_set": {"dice": at.next_size, "graze": at.next_graze} if at.sets else None,
        "wild_shot": WILD,
        "defeat": chance(hildegard_odds.chances(at, "hit")[0]),
        "at_least": {str(n): chance(p) for n, p in at_least.items()},
        "advice": {"for": aim_for, **_advice(going, _needing(at, aim_for) if aim_for else at)},
        "enemy_set": _enemy_set(fight, foe.card, weighed_or_none=True),
    }


def _enemy_set(fight: Any, enemy: Any, weighed_or_none: bool = False) -> dict[str, Any] | None:
    """What `enemy`'s next set does to the meter as it stands: the chance each square is
    hit once the set is over, and that the meter is full (the face-off lost). A set past
    what the odds weigh is refused, or with `weighed_or_none` (beside the players' odds)
    left out: None."""
    from journal.games.hildegard import meter_odds

    if enemy.accuracy > meter_odds.MOST_DICE:
        if weighed_or_none:
            return None
        raise Refused(f"{enemy.name}: the odds weigh an enemy's set of at most "
                      f"{meter_odds.MOST_DICE} dice, not {enemy.accuracy}")
    outcomes = meter_odds.enemy_set(fight.meter, fight.marks, enemy.accuracy)
    hit = meter_odds.squares_hit(outcomes, fight.marks)
    full = sum((p for marks, p in outcomes.items() if all(m == "hit" for m in marks)),
               Fraction(0))
    return {"enemy": enemy.name, "dice": enemy.accuracy,
            "squares": [chance(p) for p in hit], "meter_full": chance(full)}


def _enemy_turn(fight: Any) -> dict[str, Any]:
    """The enemy's turn, before its set is rolled: what that set does to the meter."""
    from journal.games.hildegard.rules import _enemy_up

    shot = fight.enemy_shot
    if shot is not None and shot.rolled:
        raise Refused("the enemy's set is under way: the odds weigh an enemy's set before "
                      "its first roll")
    enemy = _enemy_up(fight)
    return {"game": "hildegard", "kind": "enemy-set", "round": fight.round,
            "wild_shot": "the enemy rolls no wild shot",
            "enemy_set": _enemy_set(fight, enemy)}


def _needing(at: Any, more: int) -> Any:
    """The position with its aim `more` bullseyes past those made this round."""
    return dataclasses.replace(at, aim=dataclasses.replace(at.aim, limit=at.made + more))


def _set_json(at: Any) -> dict[str, Any] | None:
    from journal.games.hildegard.dice import FACES

    going = at.going
    if going is None:
        return None
    def named(counts: tuple[int, ...]) -> dict[str, int]:
        return {face: n for face, n in zip(FACES, counts, strict=True) if n}
    return {"locked": named(going.locked), "free": named(going.free),
            "finesse_over": going.over or not sum(going.free)}


def _challenge(target: Any) -> str:
    bonus = target.card.bonus
    if bonus is None:
        return ""
    if bonus.bullseyes is not None:
        return plural(bonus.bullseyes, "bullseye")
    return "+".join(bonus.combination or ())


def _advice(shot: Any, at: Any) -> dict[str, Any]:
    """The finesse choice that gives the best chance to hit now, and every other one."""
    from journal.games.hildegard import odds as hildegard_odds

    options = hildegard_odds.choices(at, "hit")
    if not options:
        step = "roll the next set" if at.going is None else "roll the wild shot"
        return {"now": step, "choices": []}
    listed = [{"lock": [] if c.stop else list(hildegard_odds.positions(shot, c.lock)),
               "stop": c.stop,
               "rerolled": sum(at.going.free) - sum(c.lock), "hit": chance(c.chances[0])}
              for c in options]
    return {"now": "stop" if options[0].stop else "lock", "choices": listed}


# -- Volume 2 ------------------------------------------------------------------------------

MOST_DICE = 7
"""The most HP spent the odds weigh (a die an HP): beyond it every chance is within a
hair of 1, and the table would take seconds."""


def _volume2(state: State) -> dict[str, Any]:
    from journal.games.volume2.state import volume2

    enc = volume2(state).encounter
    if enc is None or not enc.under_way:
        raise Refused("the odds weigh a Volume 2 encounter under way; none is now "
                      "(`spire fight ENEMY` begins one)")
    up = enc.up()
    return {
        "game": "volume2", "kind": "encounter", "round": enc.round, "phase": enc.phase,
        "allies": [_ally(enc, fighter) for fighter in up],
        "enemies": [_enemy(enc, foe, [a.name for a in up]) for foe in enc.standing()],
    }


def _ally(enc: Any, fighter: Any) -> dict[str, Any]:
    """Each combination's chance for each HP the ally could spend (keeping 1), and from
    its dice as they stand if its turn is under way."""
    from journal.games.volume2 import odds as v2_odds

    card, kind = fighter.card, fighter.card.dice
    most = min(fighter.hp - 1, MOST_DICE)
    turn = enc.turn if enc.turn is not None and enc.turn.ally == fighter.name else None
    combos = []
    for combo in card.actions() if kind is not None else ():
        by_hp = {n: v2_odds.combination_chance(kind, combo.faces, n)
                 for n in range(1, most + 1)}
        row: dict[str, Any] = {
            "name": combo.name, "faces": list(combo.faces), "does": combo.says(),
            "by_hp_spent": {str(n): chance(p) for n, p in by_hp.items()},
            "best_hp": _best_hp(by_hp)}
        if turn is not None and turn.rolled:
            locked = [f for f, lock in zip(turn.faces, turn.locked, strict=True) if lock]
            free = [f for f, lock in zip(turn.faces, turn.locked, strict=True) if not lock]
            row["now"] = chance(v2_odds.chance_from(kind, combo.faces, locked, free,
                                                    turn.relock, turn.final))
        combos.append(row)
    return {"ally": fighter.name, "hp": fighter.hp, "dice": kind, "combinations": combos,
            "turn": None if turn is None else {"spent": turn.spent,
                                                "faces": list(turn.faces),
                                                "locked": list(turn.locked)}}


def _best_hp(by_hp: dict[int, Fraction]) -> int | None:
    """The HP that buys the most chance per HP spent ("HP isn't just health; it's the fuel
    for your attacks"): the fewest HP of those tied. None when no HP spent can make it."""
    if not any(by_hp.values()):
        return None
    return max(by_hp, key=lambda n: (by_hp[n] / n, -n))


def _enemy(enc: Any, foe: Any, allies: list[str]) -> dict[str, Any]:
    """The chance each ally is its target, one attack's damage, and its turn's total."""
    from journal.games.volume2 import odds as v2_odds
    from journal.games.volume2.combat import attacks_of

    card = foe.card
    table = [(r.low, r.high, r.damage) for r in card.table]
    outcomes = v2_odds.attack(table, foe.ferocity, foe.raised("damage"), card.quickdraw)
    acting = enc.acting() is foe
    attacks = enc.attacks_left if acting and enc.attacks_left else attacks_of(foe)
    total, beyond = v2_odds.turn_damage(outcomes, attacks)
    per_attack: dict[int, Fraction] = {}
    for (damage, _), p in outcomes.items():
        per_attack[damage] = per_attack.get(damage, Fraction(0)) + p
    again = sum((p for (_, more), p in outcomes.items() if more), Fraction(0))
    contenders = [a for a in allies if not enc.contenders or a in enc.contenders]
    if acting and enc.target is not None:  # the target roll (or a bee) has said
        contenders = [enc.target]
    return {
        "enemy": foe.name, "ferocity": foe.ferocity, "quickdraw": card.quickdraw,
        "attacks": attacks, "table_entered": bool(table),
        "targeted": {name: chance(p) for name, p in
                     zip(contenders, v2_odds.targeted(len(contenders)), strict=True)},
        "attack_damage": {str(d): chance(p) for d, p in sorted(per_attack.items())},
        "another_attack": chance(again),
        "turn_damage": {str(d): chance(p) for d, p in total.items()},
        "turn_damage_beyond": chance(beyond),
    }


# -- Spire's End ---------------------------------------------------------------------------

def _spires_end(state: State) -> dict[str, Any]:
    from journal.games.spires_end import odds as se_odds
    from journal.games.spires_end.state import ENEMY_TURN, spires_end

    game = spires_end(state)
    fight = game.fight
    if fight is None or not fight.under_way:
        raise Refused("the odds weigh a Spire's End fight under way; none is now "
                      "(`spire fight ENEMY` begins one)")
    name = game.slots[fight.turn - 1] if fight.turn != ENEMY_TURN else None
    actor = game.ally(name) if name else None
    bars = [] if actor is None else [
        {"bar": n, "name": bar.name, "cost": bar.cost,
         **_outcome(se_odds.ally_bar(game, actor, n))}
        for n, bar in enumerate(actor.card.bars, start=1)]
    picked = se_odds.selection(game)
    enemy = fight.enemy
    return {
        "game": "spires-end", "kind": "fight", "round": fight.round,
        "turn": name or enemy.name,
        "enemy": {"name": enemy.name, "hp": enemy.hp, "ap": enemy.ap},
        "ally": None if actor is None else {"name": actor.name, "hp": actor.hp,
                                            "ap": actor.ap, "bars": bars},
        "enemy_turn": {
            "selected": {who: chance(p) for who, p in picked.items()},
            "bars": [{"bar": n, "name": bar.name, "against": {
                who: _outcome(se_odds.enemy_bar(game, n, who)) for who in picked}}
                for n, bar in enumerate(enemy.card.bars, start=1)],
        },
    }


def _outcome(found: Any) -> dict[str, Any]:
    return {"hp_lost": {str(k): chance(p) for k, p in found.hp_lost.items()},
            "ap_lost": {str(k): chance(p) for k, p in found.ap_lost.items()},
            "falls": chance(found.falls)}
