"""What each Volume 2 event does to the encounter: pure steps from (the game, the core
resources, the event) to the game and resources after it. `state` registers them.

Everything here follows from the dice and choices an event records: gains, damage
through AP then HP, KOs, the round's recoup, retreats, spoils and the reset.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from journal.games.volume2 import events as v2
from journal.games.volume2.cards import EnemyCard
from journal.games.volume2.dice import MAX_SICKLES
from journal.games.volume2.state import (
    Encounter,
    Fighter,
    Foe,
    Turn,
    Volume2,
    finished,
    with_game,
)
from journal.state import State

Resources = dict[str, int]
Step = tuple[Volume2, Resources]

HIVE_LIMIT = 4
""""Finnian can hold up to 4 Bees and 4 Pollen at a time.\""""
FIRST = "Finnian"


def begin(game: Volume2, event: v2.EncounterBegan) -> Volume2:
    allies = tuple(Fighter(c, c.hp or 0, c.ap or 0) for c in event.allies)
    enemies = tuple(Foe(c, c.hp or 0, c.ap or 0) for c in event.enemies)
    names = ", ".join(e.name for e in enemies)
    said = (f"Encounter with {names}: round 1, {allies[0].name}'s turn",)
    return replace(game, encounter=Encounter(allies, enemies), resolved=said)


def hurt(hp: int, ap: int, damage: int) -> tuple[int, int]:
    """"AP soaks incoming damage before HP is touched.\""""
    soaked = min(ap, damage)
    return max(hp - (damage - soaked), 0), ap - soaked


def _ally(enc: Encounter, name: str, change: Any) -> Encounter:
    folded = name.casefold()
    return replace(enc, allies=tuple(change(a) if a.name.casefold() == folded else a
                                     for a in enc.allies))


def _points(before: int, after: int) -> str:
    return f"{before}->{after}"


# -- an ally's turn ----------------------------------------------------------------------

def rolled(game: Volume2, res: Resources, e: v2.ActionDiceRolled) -> Step:
    enc = _encounter(game)
    turn = enc.turn
    if turn is None or turn.ally.casefold() != e.ally.casefold():
        if turn is not None:
            enc = _done(enc, turn.ally)
        turn = Turn(e.ally, e.faces, (False,) * len(e.faces), e.spent,
                    used=(False,) * len(e.faces))
        fighter = enc.ally(e.ally)
        hp = fighter.hp if fighter else 0
        left = max(hp - e.spent, 0)
        enc = _lost(_ally(enc, e.ally, lambda a: replace(a, hp=left)))
        said = f"{e.ally} spends {e.spent} HP (HP {_points(hp, left)}), " \
               f"rolls {', '.join(e.faces) or 'nothing'}"
        if fighter is not None:  # only forced: the rules keep 1 HP
            res, knocked = _knocked_out(res, fighter, left)
            said = "; ".join([said, *knocked])
    else:
        faces, new = list(turn.faces), list(e.faces)
        for index, lock in enumerate(turn.locked):
            if not lock and new:
                faces[index] = new.pop(0)
        faces += new
        grown = len(faces) - len(turn.faces)
        turn = replace(turn, faces=tuple(faces), locked=turn.locked + (False,) * grown,
                       used=turn.used + (False,) * grown, relock=False)
        said = f"{e.ally} re-rolls: {_dice(turn)}"
    return replace(game, encounter=replace(enc, turn=turn), resolved=(said,)), res


def _dice(turn: Turn) -> str:
    return ", ".join(f"{face}{' (locked)' if lock else ''}"
                     for face, lock in zip(turn.faces, turn.locked))


def locked(game: Volume2, res: Resources, e: v2.ActionDiceLocked) -> Step:
    return _lock(game, res, {d - 1 for d in e.dice}, final=False)


def finesse_ended(game: Volume2, res: Resources, e: v2.FinesseEnded) -> Step:
    turn = _encounter(game).turn
    rest = {i for i, lock in enumerate(turn.locked) if not lock} if turn else set()
    return _lock(game, res, rest, final=True)


def _lock(game: Volume2, res: Resources, dice: set[int], final: bool) -> Step:
    enc = _encounter(game)
    turn = enc.turn
    if turn is None:
        return game, res
    new = sorted(i for i in dice if 0 <= i < len(turn.faces) and not turn.locked[i])
    locks = tuple(lock or i in new for i, lock in enumerate(turn.locked))
    turn = replace(turn, locked=locks, relock=turn.relock or bool(new),
                   final=final or all(locks))
    said = [f"{turn.ally} locks {', '.join(turn.faces[i] for i in new) or 'nothing more'}"]
    fighter = enc.ally(turn.ally)
    hive = enc.hive
    if fighter is not None and fighter.card.dice == "hive":
        res, gained = _gains(res, [turn.faces[i] for i in new])
        said += gained
        if not hive and any(turn.faces[i] == "hive" for i in new):
            hive = True
            said.append("The hive is active: deploy bees and pollen until the enemies' turn")
    if turn.final:
        said.append(f"{turn.ally}'s dice stand: {', '.join(turn.faces)}")
    enc = replace(enc, turn=turn, hive=hive)
    return replace(game, encounter=enc, resolved=tuple(said)), res


def _gains(res: Resources, faces: list[str]) -> tuple[Resources, list[str]]:
    """"GAIN 1 BEE: Per locked roll." Beyond 4 of each, the rest is lost."""
    said = []
    res = dict(res)
    for face, resource in (("bee", "bees"), ("pollen", "pollen")):
        count = faces.count(face)
        if not count:
            continue
        have = res.get(resource, 0)
        kept = max(min(count, HIVE_LIMIT - have), 0)
        res[resource] = have + kept
        lost = f"; {count - kept} lost (at most {HIVE_LIMIT})" if kept < count else ""
        said.append(f"+{kept} {resource} ({res[resource]}){lost}")
    return res, said


def action(game: Volume2, res: Resources, e: v2.ActionTaken) -> Step:
    enc = _encounter(game)
    turn, fighter = enc.turn, enc.ally(e.ally)
    combo = fighter.card.combo(e.action) if fighter else None
    if turn is None or combo is None:
        return game, res
    used, dice = _use(turn, combo.faces, sickles=combo.name == "sickles")
    turn = replace(turn, used=used)
    amount = min(dice, MAX_SICKLES) if combo.name == "sickles" else combo.amount
    said = [f"{e.ally}: {combo.name}"]
    if combo.effect == "damage":
        foe = enc.enemy(e.target or "") or (enc.standing() or (None,))[0]
        if foe is not None and amount > 0:
            enc, res, hit = _strike(enc, res, foe.name, amount)
            said.append(hit)
            turn = replace(turn, attack_on=foe.name)
        else:
            said.append("no damage")
    elif combo.effect in ("heal", "repair"):
        enc, line = _mend(enc, e.target or e.ally, combo.effect, amount)
        said.append(line)
    else:
        said.append(combo.says() + (f" on {e.target}" if e.target else ""))
    enc = replace(enc, turn=turn) if enc.turn is not None else enc
    return replace(game, encounter=_settled(enc), resolved=tuple(said)), res


def _use(turn: Turn, faces: tuple[str, ...], sickles: bool) -> tuple[tuple[bool, ...], int]:
    """Mark the unused dice that make `faces` (every unused sickle, for the sickles)."""
    used, count, wanted = list(turn.used), 0, list(faces)
    for index, face in enumerate(turn.faces):
        if used[index]:
            continue
        if (sickles and face == "sickle") or (not sickles and face in wanted):
            used[index] = True
            count += 1
            if not sickles:
                wanted.remove(face)
    return tuple(used), count


def _strike(enc: Encounter, res: Resources, name: str, damage: int) -> tuple[Encounter, Resources, str]:
    """Damage to an enemy through its AP then HP; at 0 HP it is defeated, its spoils won."""
    foe = enc.enemy(name)
    if foe is None or not foe.standing:
        return enc, res, f"{name} is not standing: no damage"
    hp, ap = hurt(foe.hp, foe.ap, damage)
    line = f"{damage} damage to {foe.name} (AP {_points(foe.ap, ap)}, HP {_points(foe.hp, hp)})"
    after = replace(foe, hp=hp, ap=ap, out="defeated" if hp <= 0 else None)
    enc = replace(enc, enemies=tuple(after if f is foe else f for f in enc.enemies))
    if after.out:
        res, spoils = _spoils(res, foe.card)
        line += f"; {foe.name} is defeated" + spoils
    return enc, res, line


def _spoils(res: Resources, card: EnemyCard) -> tuple[Resources, str]:
    """"Defeat Wildlife or Enemy with this icon to gain 1 Meat" (and 1 Pelt)."""
    res, won = dict(res), []
    for icon, resource in ((card.meat, "meat"), (card.pelt, "pelts")):
        if icon:
            res[resource] = res.get(resource, 0) + 1
            won.append(f"+1 {resource}")
    if card.rewards:
        won.append(f"rewards: {card.rewards}")
    return res, f" ({', '.join(won)})" if won else ""


def _mend(enc: Encounter, name: str, how: str, amount: int) -> tuple[Encounter, str]:
    """Heal HP or repair AP on an ally, up to its limit; a KO'd ally is out of play."""
    ally = enc.ally(name)
    if ally is None or ally.ko:
        return enc, f"{name} is not in play: nothing {'healed' if how == 'heal' else 'repaired'}"
    if how == "heal":
        after = replace(ally, hp=min(ally.hp + amount, ally.card.hp or ally.hp + amount))
        line = f"{ally.name} heals {after.hp - ally.hp} HP (HP {_points(ally.hp, after.hp)})"
    else:
        after = replace(ally, ap=min(ally.ap + amount, ally.card.ap or ally.ap + amount))
        line = f"{ally.name} repairs {after.ap - ally.ap} AP (AP {_points(ally.ap, after.ap)})"
    return _ally(enc, ally.name, lambda _: after), line


def deployed(game: Volume2, res: Resources, e: v2.HiveDeployed) -> Step:
    enc = _encounter(game)
    resource = "bees" if e.what == "bee" else "pollen"
    res = dict(res)
    res[resource] = max(res.get(resource, 0) - e.count, 0)
    turn = enc.turn
    plural = "bees" if e.count != 1 else "bee"
    said = [f"Deployed {e.count} {plural if e.what == 'bee' else 'pollen'} "
            f"({res[resource]} {resource} left)"]
    if e.what == "bee":
        aimed = e.on or (turn.attack_on if turn else None)
        if aimed is None:
            said.append("no successful attack to sting: 0 damage")
        else:
            enc, res, hit = _strike(enc, res, aimed, e.count)
            said.append(f"sting: {hit}")
    else:
        enc, line = _mend(enc, e.on or (turn.ally if turn else FIRST), "heal", e.count)
        said.append(line)
    if enc.turn is not None:
        enc = replace(enc, turn=replace(enc.turn, deployed=enc.turn.deployed + e.count))
    return replace(game, encounter=_settled(enc), resolved=tuple(said)), res


def turn_ended(game: Volume2, res: Resources, e: v2.TurnEnded) -> Step:
    enc = _done(_encounter(game), e.ally)
    said = [f"{e.ally}'s turn is over"]
    if all(a.acted or a.ko for a in enc.allies):
        enc = _enemies_turn(enc)
        foe = enc.acting()
        said.append("The enemies' turn: the hive is no longer in play" if game.encounter and
                    game.encounter.hive else "The enemies' turn")
        if foe is not None:
            said.append(f"{foe.name} attacks ({enc.attacks_left}): the target roll first")
    else:
        nxt = next(a for a in enc.allies if not a.acted and not a.ko)
        said.append(f"Next: {nxt.name}")
    return replace(game, encounter=enc, resolved=tuple(said)), res


def _done(enc: Encounter, name: str) -> Encounter:
    enc = _ally(enc, name, lambda a: replace(a, acted=True))
    return replace(enc, turn=None)


def _enemies_turn(enc: Encounter) -> Encounter:
    first = next((i for i, f in enumerate(enc.enemies) if f.standing), len(enc.enemies))
    attacks = _attacks(enc.enemies[first]) if first < len(enc.enemies) else 0
    return replace(enc, phase="enemies", hive=False, turn=None, foe=first,
                   attacks_left=attacks, contenders=(), target=None)


# -- the enemies' turn -------------------------------------------------------------------

def target_rolled(game: Volume2, res: Resources, e: v2.TargetRolled) -> Step:
    enc = _encounter(game)
    top = max(e.rolls)
    tied = tuple(a for a, r in zip(e.allies, e.rolls) if r == top)
    rolls = ", ".join(f"{a} {r}" for a, r in zip(e.allies, e.rolls))
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
    enc = replace(_encounter(game), contenders=(), target=e.ally)
    said = f"Spent 1 bee to choose the target: {e.ally} ({res['bees']} bees left)"
    return replace(game, encounter=enc, resolved=(said,)), res


def attacked(game: Volume2, res: Resources, e: v2.EnemyAttacked) -> Step:
    enc = _encounter(game)
    foe = enc.enemy(e.enemy)
    ally = enc.ally(e.target)
    if foe is None or ally is None:
        return game, res
    card = foe.card
    total = e.roll + foe.ferocity
    damage = attack_damage(foe, e.roll)
    hp, ap = hurt(ally.hp, ally.ap, damage) if not ally.ko else (ally.hp, ally.ap)
    said = [f"{foe.name} rolls {e.roll} + {foe.ferocity} ferocity = {total}: "
            + (f"{damage} damage to {ally.name} (AP {_points(ally.ap, ap)}, "
               f"HP {_points(ally.hp, hp)})" if damage else "a miss")]
    enc = _ally(enc, ally.name, lambda a: replace(a, hp=hp, ap=ap))
    res, knocked = _knocked_out(res, ally, hp)
    said += knocked
    if enc.phase != "enemies":  # forced out of turn: the damage, and nothing moves on
        return replace(game, encounter=_lost(enc), resolved=tuple(said)), res
    left = enc.attacks_left - 1
    if card.quickdraw is not None and e.roll <= card.quickdraw:
        left += 1
        said.append(f"QUICKDRAW: a natural {e.roll} gives {foe.name} another attack")
    enc = _lost(replace(enc, attacks_left=left, target=None, contenders=()))
    if enc.under_way and left <= 0:
        enc, more = _next_enemy(enc)
        said += more
    return replace(game, encounter=enc, resolved=tuple(said)), res


def _knocked_out(res: Resources, ally: Fighter, hp: int) -> tuple[Resources, list[str]]:
    """A KO, as KOs and Deaths says: "Once an Ally's HP is reduced to 0, that character
    is Knocked Out"; "If Finnian is Knocked Out, all Bees and Pollen are lost."
    """
    if not hp <= 0 < ally.hp:
        return res, []
    said = [f"{ally.name} is KO'd until the encounter ends"]
    if ally.name == FIRST:
        lost = f"{res.get('bees', 0)} bees and {res.get('pollen', 0)} pollen"
        res = {**res, "bees": 0, "pollen": 0}
        said.append(f"Finnian is KO'd: all bees and pollen are lost ({lost})")
    return res, said


def _lost(enc: Encounter) -> Encounter:
    """The end, as Finnian & Friends says: "If all Allies in play are KO'd, it's game
    over."
    """
    return enc if enc.up() or not enc.under_way else replace(enc, outcome="lost")


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
        attacks = _attacks(foe)
        return replace(enc, foe=after, attacks_left=attacks), \
            [f"{foe.name} attacks ({attacks}): the target roll first"]
    return _recoup(enc)


def _attacks(foe: Foe) -> int:
    return max((foe.card.attacks or 1) + foe.raised("attacks"), 1)


def _recoup(enc: Encounter) -> tuple[Encounter, list[str]]:
    """"At the end of each Round ... they regain that amount of HP" (not a KO'd ally),
    then the next round, or the enemies that have fought their rounds retreat."""
    said = []
    allies = []
    for ally in enc.allies:
        gain = 0 if ally.ko else min(ally.card.recoup or 0, max((ally.card.hp or 0) - ally.hp, 0))
        if gain:
            said.append(f"Recoup: {ally.name} +{gain} HP (HP {_points(ally.hp, ally.hp + gain)})")
        allies.append(replace(ally, hp=ally.hp + gain, acted=False))
    done = enc.round
    enemies = tuple(
        replace(f, out="retreated") if f.standing and isinstance(f.card.retreat, int)
        and done >= f.card.retreat else _round_over(f) for f in enc.enemies)
    for before, after in zip(enc.enemies, enemies):
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
    enc = _encounter(game)
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
    enc = replace(_encounter(game), outcome="ended")
    return replace(game, encounter=enc, resolved=("The players ended the encounter",)), res


def _settled(enc: Encounter) -> Encounter:
    """Every enemy defeated (none left standing): the allies have won."""
    if enc.standing() or not enc.under_way:
        return enc
    return replace(enc, outcome="won" if any(f.out == "defeated" for f in enc.enemies)
                   else "retreated")


def _encounter(game: Volume2) -> Encounter:
    assert game.encounter is not None
    return game.encounter


# -- the end of an encounter -------------------------------------------------------------

OUTCOMES = {"won": "won", "lost": "lost: every ally in play is KO'd; the game is over",
            "retreated": "over: the enemies retreated", "ended": "ended by the players"}


def reset(state: State, game: Volume2) -> State:
    """"As long as 1 Ally survives an Encounter, all Allies' HP and AP are fully restored
    once the Encounter concludes." Bees and pollen carry over. The encounter keeps its
    allies as the fight left them (the report reads them); the characters are restored."""
    enc = _encounter(game)
    names = ", ".join(f.name for f in enc.enemies)
    line = f"Encounter with {names} {OUTCOMES[enc.outcome or 'ended']} (round {enc.round})"
    said = (*game.resolved, line)
    if enc.outcome == "lost":
        return with_game(state, replace(game, resolved=said, finished=finished(game, line),
                                        game_over=True))
    game = replace(game, encounter=replace(enc, turn=None),
                   resolved=(*said, "Reset: every ally's HP and AP back to their limits"),
                   finished=finished(game, line))
    state = with_game(state, game)
    return replace(state, characters=tuple(
        replace(c, hp=c.hp_max, ap=c.ap_max) for c in state.characters))
