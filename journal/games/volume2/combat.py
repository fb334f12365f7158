"""What each Volume 2 event does to the encounter: pure steps from (the game, the core
resources, the event) to the game and resources after it. `state` registers them.

Everything here follows from the dice and choices an event records: gains, damage
through AP then HP, KOs, the round's recoup, retreats, spoils and the reset.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from journal.core.words import plural
from journal.games import load
from journal.games.volume2 import events as v2
from journal.games.volume2.cards import EnemyCard
from journal.games.volume2.dice import MAX_SICKLES
from journal.games.volume2.state import (
    Encounter,
    Fighter,
    Foe,
    Turn,
    Volume2,
    volume2,
)

if TYPE_CHECKING:
    from journal.core.state import State

GAME = load("volume2")

Resources = dict[str, int]
Step = tuple[Volume2, Resources]

HIVE_LIMIT: int = GAME.resources["bees"].limit or 4
""""Finnian can hold up to 4 Bees and 4 Pollen at a time.\""""
FIRST: str = GAME.raw["encounter"]["first"]


def begin(game: Volume2, event: v2.EncounterBegan,
          raised: Callable[[str, str], int] = lambda name, limit: 0) -> Volume2:
    """The encounter's first state; `raised(name, "hp")`: what an ally's gear adds to its
    limit."""
    limits = [((c.hp or 0) + raised(c.name, "hp"), (c.ap or 0) + raised(c.name, "ap"))
              for c in event.allies]
    allies = tuple(Fighter(c, hp, ap, hp_max=hp, ap_max=ap)
                   for c, (hp, ap) in zip(event.allies, limits, strict=True))
    enemies = tuple(Foe(c, c.hp or 0, c.ap or 0) for c in event.enemies)
    names = ", ".join(e.name for e in enemies)
    said = (f"Encounter with {names}: round 1, {allies[0].name}'s turn",)
    return replace(game, encounter=Encounter(allies, enemies), resolved=said)


def hurt(hp: int, ap: int, damage: int) -> tuple[int, int]:
    """"AP soaks incoming damage before HP is touched.\""""
    soaked = min(ap, damage)
    return max(hp - (damage - soaked), 0), ap - soaked


def with_ally(enc: Encounter, name: str, change: Any) -> Encounter:
    folded = name.casefold()
    return replace(enc, allies=tuple(change(a) if a.name.casefold() == folded else a
                                     for a in enc.allies))


def points(before: int, after: int) -> str:
    return f"{before}->{after}"


# -- an ally's turn ----------------------------------------------------------------------

def rolled(game: Volume2, res: Resources, e: v2.ActionDiceRolled) -> Step:
    enc = encounter_of(game)
    turn = enc.turn
    if turn is None or turn.ally.casefold() != e.ally.casefold():
        if turn is not None:
            enc = _done(enc, turn.ally)
        turn = Turn(e.ally, e.faces, (False,) * len(e.faces), e.spent,
                    used=(False,) * len(e.faces), deployed=enc.deployed)
        enc = replace(enc, deployed=0)
        fighter = enc.ally(e.ally)
        hp = fighter.hp if fighter else 0
        left = max(hp - e.spent, 0)
        enc = lost(with_ally(enc, e.ally, lambda a: replace(a, hp=left)))
        said = f"{e.ally} spends {e.spent} HP (HP {points(hp, left)}), " \
               f"rolls {', '.join(e.faces) or 'nothing'}"
        if fighter is not None:  # only forced: the rules keep 1 HP
            res, knocked = knocked_out(res, fighter, left)
            said = "; ".join([said, *knocked])
    else:
        faces, new = list(turn.faces), list(e.faces)
        for index, lock in enumerate(turn.locked):
            if not lock and new:
                faces[index] = new.pop(0)
        # Faces beyond the dice not locked (only forced) change nothing: no die is free.
        turn = replace(turn, faces=tuple(faces), relock=False)
        said = f"{e.ally} re-rolls: {_dice(turn)}"
    return replace(game, encounter=replace(enc, turn=turn), resolved=(said,)), res


def _dice(turn: Turn) -> str:
    return ", ".join(f"{face}{' (locked)' if lock else ''}"
                     for face, lock in zip(turn.faces, turn.locked, strict=False))


def locked(game: Volume2, res: Resources, e: v2.ActionDiceLocked) -> Step:
    return _lock(game, res, {d - 1 for d in e.dice}, final=False)


def finesse_ended(game: Volume2, res: Resources, e: v2.FinesseEnded) -> Step:
    turn = encounter_of(game).turn
    rest = {i for i, lock in enumerate(turn.locked) if not lock} if turn else set()
    return _lock(game, res, rest, final=True)


def _lock(game: Volume2, res: Resources, dice: set[int], final: bool) -> Step:
    enc = encounter_of(game)
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
        res, turn, gained = _gains(res, turn, [turn.faces[i] for i in new])
        said += gained
        if not hive and any(turn.faces[i] == "hive" for i in new):
            hive = True
            said.append("The hive is active: deploy bees and pollen until the enemies' turn")
    if turn.final:
        said.append(f"{turn.ally}'s dice stand: {', '.join(turn.faces)}")
    enc = replace(enc, turn=turn, hive=hive)
    return replace(game, encounter=enc, resolved=tuple(said)), res


def _gains(res: Resources, turn: Turn,
           faces: list[str]) -> tuple[Resources, Turn, list[str]]:
    """"GAIN 1 BEE: Per locked roll." Beyond 4 of each the hive holds none: those stay on
    the dice for this turn ("Bees may come from your Hive inventory or locked rolls")."""
    said = []
    res = dict(res)
    for face, resource in (("bee", "bees"), ("pollen", "pollen")):
        count = faces.count(face)
        if not count:
            continue
        have = res.get(resource, 0)
        kept = max(min(count, HIVE_LIMIT - have), 0)
        res[resource] = have + kept
        line = f"+{kept} {resource} ({res[resource]})"
        if kept < count:
            extra = count - kept
            turn = turn.with_spare(resource, turn.spare(resource) + extra)
            line += (f"; the hive holds {HIVE_LIMIT}: {extra} more may be deployed this turn, "
                     "then lost")
        said.append(line)
    return res, turn, said


def action(game: Volume2, res: Resources, e: v2.ActionTaken) -> Step:
    enc = encounter_of(game)
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
    if combo.effect != "effect" and combo.text:
        said.append(f"{combo.name} also: {combo.text}")  # kept as text, for the table
    enc = replace(enc, turn=turn) if enc.turn is not None else enc
    return replace(game, encounter=settled(enc), resolved=tuple(said)), res


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


def _strike(enc: Encounter, res: Resources, name: str,
            damage: int) -> tuple[Encounter, Resources, str]:
    """Damage to an enemy through its AP then HP; at 0 HP it is defeated, its spoils won."""
    foe = enc.enemy(name)
    if foe is None or not foe.standing:
        return enc, res, f"{name} is not standing: no damage"
    hp, ap = hurt(foe.hp, foe.ap, damage)
    line = f"{damage} damage to {foe.name} (AP {points(foe.ap, ap)}, HP {points(foe.hp, hp)})"
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
            won.append(f"+1 {resource.removesuffix('s')}")
    won += [f"{item} set aside" for item in card.reward_items()]  # received: evolve.py
    return res, f" ({', '.join(won)})" if won else ""


def _mend(enc: Encounter, name: str, how: str, amount: int) -> tuple[Encounter, str]:
    """Heal HP or repair AP on an ally, up to its limit; a KO'd ally is out of play."""
    ally = enc.ally(name)
    if ally is None or ally.ko:
        return enc, f"{name} is not in play: nothing {'healed' if how == 'heal' else 'repaired'}"
    if how == "heal":
        after = replace(ally, hp=min(ally.hp + amount, ally.hp_max))
        healed = after.hp - ally.hp
        line = f"{ally.name} heals {healed} HP (HP {points(ally.hp, after.hp)})" + (
            _past_the_limit(amount - healed))
    else:
        after = replace(ally, ap=min(ally.ap + amount, ally.ap_max))
        line = f"{ally.name} repairs {after.ap - ally.ap} AP (AP {points(ally.ap, after.ap)})"
    return with_ally(enc, ally.name, lambda _: after), line


def _past_the_limit(wasted: int) -> str:
    """Said when a heal meets the ally's limit: the rest is spent for nothing."""
    if wasted <= 0:
        return ""
    return f"; {wasted} HP past the limit is lost (`spire undo` takes it back)"


def deployed(game: Volume2, res: Resources, e: v2.HiveDeployed) -> Step:
    enc = encounter_of(game)
    resource = "bees" if e.what == "bee" else "pollen"
    res = dict(res)
    turn = enc.turn
    from_dice = min(turn.spare(resource), e.count) if turn else 0
    if turn is not None and from_dice:
        enc = replace(enc, turn=turn.with_spare(resource, turn.spare(resource) - from_dice))
    res[resource] = max(res.get(resource, 0) - (e.count - from_dice), 0)
    what = ("bees" if e.count != 1 else "bee") if e.what == "bee" else "pollen"
    said = [f"Deployed {e.count} {what} "
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
    elif enc.phase == "allies":  # before the ally's first roll: its turn's all the same
        enc = replace(enc, deployed=enc.deployed + e.count)
    return replace(game, encounter=settled(enc), resolved=tuple(said)), res


def turn_ended(game: Volume2, res: Resources, e: v2.TurnEnded) -> Step:
    said: list[str] = []
    turn = encounter_of(game).turn
    if turn is not None and turn.rolled and not turn.final:
        # "Finessing is optional": the dice still free stand as rolled, and count.
        game, res = finesse_ended(game, res, v2.FinesseEnded(ally=turn.ally))
        said += game.resolved
        turn = encounter_of(game).turn
    lost = [f"{turn.spare(r)} {r}" for r in ("bees", "pollen") if turn and turn.spare(r)]
    if lost:
        said.append(f"Lost {' and '.join(lost)} the full hive could not hold")
    enc = _done(encounter_of(game), e.ally)
    said.append(f"{e.ally}'s turn is over")
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
    enc = with_ally(enc, name, lambda a: replace(a, acted=True))
    return replace(enc, turn=None, deployed=0)


def _enemies_turn(enc: Encounter) -> Encounter:
    first = next((i for i, f in enumerate(enc.enemies) if f.standing), len(enc.enemies))
    attacks = attacks_of(enc.enemies[first]) if first < len(enc.enemies) else 0
    return replace(enc, phase="enemies", hive=False, turn=None, foe=first,
                   attacks_left=attacks, contenders=(), target=None)


def knocked_out(res: Resources, ally: Fighter, hp: int) -> tuple[Resources, list[str]]:
    """A KO, as KOs and Deaths says: "Once an Ally's HP is reduced to 0, that character
    is Knocked Out"; "If Finnian is Knocked Out, all Bees and Pollen are lost."
    """
    if not hp <= 0 < ally.hp:
        return res, []
    said = [f"{ally.name} is KO'd until the encounter ends"]
    if ally.name == FIRST:
        lost = f"{plural(res.get('bees', 0), 'bee')} and {res.get('pollen', 0)} pollen"
        res = {**res, "bees": 0, "pollen": 0}
        said.append(f"Finnian is KO'd: all bees and pollen are lost ({lost})")
    return res, said


def lost(enc: Encounter) -> Encounter:
    """The end, as Finnian & Friends says: "If all Allies in play are KO'd, it's game
    over."
    """
    return enc if enc.up() or not enc.under_way else replace(enc, outcome="lost")


def attacks_of(foe: Foe) -> int:
    return max((foe.card.attacks or 1) + foe.raised("attacks"), 1)


def settled(enc: Encounter) -> Encounter:
    """Every enemy defeated (none left standing): the allies have won."""
    if enc.standing() or not enc.under_way:
        return enc
    return replace(enc, outcome="won" if any(f.out == "defeated" for f in enc.enemies)
                   else "retreated")


def encounter_of(game: Volume2) -> Encounter:
    assert game.encounter is not None
    return game.encounter


def whose_turn(state: State) -> str | None:
    """The ally or enemy who acts next in the encounter under way; None between them."""
    enc = volume2(state).encounter
    if enc is None or not enc.under_way:
        return None
    if enc.phase == "enemies":
        foe = enc.acting()
        return foe.name if foe is not None else None
    if enc.turn is not None:
        return str(enc.turn.ally)
    nxt = next((a for a in enc.allies if not a.acted and not a.ko), None)
    return nxt.name if nxt is not None else None
