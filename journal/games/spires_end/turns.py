"""Each Spire's End combat event, resolved: an action, the enemy's action, a rest, a
recoup, the boost spent, upkeep, a death move, an effect a card inflicts.

Each function takes the game state and its event and returns the game state after it;
the pieces they are made of (damage, cubes, a bar performed, the turn order) are in
`combat`.
"""

from __future__ import annotations

from dataclasses import replace

from journal.games.spires_end import effects as fx
from journal.games.spires_end import events as se
from journal.games.spires_end.cards import Bar, Inflicted
from journal.games.spires_end.combat import (
    Aim,
    Board,
    cleanse,
    clear_bubbles,
    each_turn,
    gain,
    inflict,
    next_turn,
    perform,
    settle,
)
from journal.games.spires_end.state import METER, Effect, Fight, Fighter, SpiresEnd


def _fight(game: SpiresEnd) -> Fight:
    assert game.fight is not None
    return game.fight


def action(game: SpiresEnd, event: se.ActionPerformed) -> SpiresEnd:
    board, fight = Board(game), _fight(game)
    actor = board.get(event.actor)
    if actor is None or not 1 <= event.bar <= len(actor.card.bars):
        return game
    bar = actor.card.bars[event.bar - 1]
    cost = actor.cost(bar)
    board.put(replace(_used(actor), hp=actor.hp - cost, rest=0))
    board.say(f"{actor.name} pays {cost} HP for {bar.name or 'bar ' + str(event.bar)}" if cost
              else f"{actor.name} performs {bar.name or 'bar ' + str(event.bar)}")
    targets = _targets(board, actor, bar, event.target)
    aim = Aim(targets, event.given_to or actor.name, event.kickback_to or actor.name)
    perform(board, actor.name, bar, event.rolls, aim)
    return settle(board, replace(fight, actions=fight.actions + 1))


def _used(actor: Fighter) -> Fighter:
    """The actor once its action has read its effects: one gained in this very turn (its
    boost spent before the action, a Strength its first action cast before a Surge's
    second) has had its turn, and its cubes come off from this turn's upkeep on.
    "Once you have the meter filled you can spend it for Strength (1 turn)" (Rest & Boost
    Meters): one turn of Strength is one action, never the next turn's too."""
    effects = tuple(replace(e, fresh=0) if e.fresh and e.name in fx.ON_ACTION else e
                    for e in actor.effects)
    return actor if effects == actor.effects else replace(actor, effects=effects)


def _targets(board: Board, actor: Fighter, bar: Bar, chosen: str | None) -> tuple[str, ...]:
    if chosen is not None:
        return (chosen,)
    if actor.is_enemy:
        living = [n for n in board.game.slots if n and (a := board.get(n)) and not a.dead]
        return tuple(living) if bar.all_targets else tuple(living[:1])
    return (board.enemy,) if board.enemy else ()


def enemy_action(game: SpiresEnd, event: se.EnemyActed) -> SpiresEnd:
    board, fight = Board(game), _fight(game)
    enemy = fight.enemy
    if not 1 <= event.bar <= len(enemy.card.bars):
        return game
    bar = enemy.card.bars[event.bar - 1]
    if event.selection is not None:
        board.say(f"selection roll {event.selection}: {event.target or 'every ally'}")
    board.say(f"{enemy.name} performs {bar.name or 'bar ' + str(event.bar)} "
              f"(action card {event.card})")
    itself = event.target is not None and event.target.casefold() == enemy.name.casefold()
    targets = _targets(board, enemy, bar, event.target if itself or not bar.all_targets else None)
    board.put(_used(enemy))
    aim = Aim(targets, enemy.name, enemy.name)
    perform(board, enemy.name, bar, event.rolls, aim)
    return settle(board, replace(fight, actions=fight.actions + 1))


def rest(game: SpiresEnd, event: se.Rested) -> SpiresEnd:
    board, fight = Board(game), _fight(game)
    actor = board.get(event.actor)
    if actor is None:
        return game
    meter = min(actor.rest + 1, METER)
    board.put(replace(actor, rest=meter))
    board.say(f"{actor.name} rests (rest meter {meter}/{METER}: +{meter} on a heal)")
    return settle(board, replace(fight, rested=True))


def recoup(game: SpiresEnd, event: se.Recouped) -> SpiresEnd:
    board, fight = Board(game), _fight(game)
    actor = board.get(event.actor)
    if actor is None or actor.card.recoup is None:
        return game
    bar = actor.card.recoup
    value = max(event.roll - (1 if actor.has("snuff") else 0), 1)
    bonus = 0
    if fight.rested and event.roll == 1:  # "If you roll a 1, Rest fails and the meter is cleared."
        board.put(replace(actor, rest=0))
        board.say(f"a 1: {actor.name}'s rest fails and the rest meter is cleared")
    elif fight.rested and event.kind == "heal":
        bonus = actor.rest
    to = event.to or actor.name
    start = len(board.said)
    if event.kind == "cleanse":
        if bar.cleanse is not None and value in bar.cleanse:
            cleanse(board, to, event.effect)
        else:
            board.say("no cleanse")
    else:
        amount = bar.amount(event.kind, value)
        if bonus:
            board.say(f"{event.kind} {amount} +{bonus} for resting")
        gain(board, to, "hp" if event.kind == "heal" else "ap", amount + bonus, boost=True)
        if not amount + bonus:
            board.say(f"no {event.kind}")
        if bar.cleanse is not None and value in bar.cleanse and _cleansable(board, to, event):
            # "Cleanse (5-8, circled)": it comes with the roll's result, as a kickback does.
            cleanse(board, to, event.effect)
    shown = f"recoup roll {event.roll}" + (f" (as {value}, Snuff)" if value != event.roll else "")
    board.said[start:] = [f"{shown}: " + "; ".join(board.said[start:])]
    return settle(board, replace(fight, recouped=True))


def _cleansable(board: Board, name: str, event: se.Recouped) -> bool:
    """Whether the heal's cleanse has something to remove (said only when it does)."""
    f = board.get(name)
    return f is not None and any(
        e.name == event.effect if event.effect else fx.is_negative(e.name) for e in f.effects)


def boost(game: SpiresEnd, event: se.BoostSpent) -> SpiresEnd:
    board = Board(game)
    actor = board.get(event.actor)
    if actor is None:
        return game
    board.put(replace(actor, boost=0))
    inflict(board, actor.name, Inflicted(effect="strength", turns=1), actor.name)
    return settle(board, game.fight)


def quiet(game: SpiresEnd) -> bool:
    """Whether the upkeep of the fighter whose turn it is would do nothing but pass the
    turn: no status effect on it, no death move due, no rest meter to reset or clear,
    and after the enemy's turn no Bubble to remove (`upkeep`)."""
    fight, actor = game.fight, game.actor()
    if fight is None or actor is None or actor.effects or game.dying:
        return False
    if actor.rest >= METER or (actor.rest and not fight.rested):
        return False
    return not (actor.is_enemy and any(f.has("bubble") for f in (*game.in_play(), actor)))


def upkeep(game: SpiresEnd, event: se.UpkeepDone) -> SpiresEnd:
    """One cube off each effect, its effect applied: negative effects first (FAQ)."""
    board, fight = Board(game), _fight(game)
    actor = board.get(event.actor)
    if actor is None:
        return game
    for name in fx.in_faq_order(e.name for e in actor.effects):
        _tick(board, actor.name, name)
    if actor.is_enemy:
        clear_bubbles(board)
    now = board.get(actor.name)
    if now is not None and now.rest >= METER:  # "The Rest Meter resets ... after 3 Rests."
        board.put(replace(now, rest=0))
    elif now is not None and now.rest and not fight.rested:
        # "Keep track of your consecutive Rest count": a turn without a rest breaks the run.
        board.put(replace(now, rest=0))
        board.say(f"{now.name} did not rest: the rest meter is cleared")
    if not board.said:
        board.said.append(f"upkeep: {actor.name} has no status effects")
    after = board.game_after(fight)
    return settle(board, next_turn(after, fight))


def _tick(board: Board, name: str, effect_name: str) -> None:
    f = board.get(name)
    effect = f.effect(effect_name) if f else None
    if f is None or effect is None or effect.name == "bubble":
        return
    if effect.fresh and not effect.persistent:
        _settled_in(board, f, effect)
        if effect.cubes <= effect.fresh:
            return
        f, effect = board.get(name) or f, replace(effect, fresh=0)
    if effect.name in fx.EACH_TURN:
        each_turn(board, name, effect)
    if effect.persistent:
        return
    f = board.get(name)
    if f is None:
        return
    left = effect.cubes - 1
    kept = tuple(replace(e, cubes=left) if e.name == effect.name else e for e in f.effects
                 if e.name != effect.name or left > 0)
    board.put(replace(f, effects=kept))
    board.say(f"{effect.name.capitalize()} on {name}: "
              + (f"{left} turn{'s' if left != 1 else ''} left" if left else "over"))


def _settled_in(board: Board, f: Fighter, effect: Effect) -> None:
    """An effect gained in its holder's own turn loses no cube at that turn's upkeep: "If
    it's listed once it occurs the next turn" (Step 3: Upkeep). Cubes it had before still
    come off one a turn."""
    kept = tuple(replace(e, fresh=0) if e is effect else e for e in f.effects)
    board.put(replace(f, effects=kept))
    if effect.cubes <= effect.fresh:
        turns = effect.cubes
        board.say(f"{effect.name.capitalize()} on {f.name}: gained this turn, "
                  f"{turns} turn{'s' if turns != 1 else ''} left")


def death_move(game: SpiresEnd, event: se.DeathMovePerformed) -> SpiresEnd:
    """'When an Ally comes to their dramatic end, they will trigger a Death Move.'"""
    board = Board(game)
    ally = board.get(event.ally)
    if ally is None:
        return game
    board.game = replace(game, dying=tuple(n for n in game.dying if n != ally.name))
    card = ally.card
    death = getattr(card, "death", None)
    if death is None:
        board.say(f"{ally.name}'s death move was not entered")
        return settle(board, game.fight)
    death = death.model_copy(update={"name": f"{ally.name}'s death move"})
    targets = (event.target,) if event.target else ((board.enemy,) if board.enemy else ())
    living = replace(ally, hp=1)  # the move is the ally's last act; its cubes stay at 0
    board.put(living)
    perform(board, ally.name, death, event.rolls,
            Aim(targets, event.given_to or ally.name, event.given_to or ally.name))
    board.put(replace(board.get(ally.name) or living, hp=0))
    return settle(board, game.fight)


def inflicted(game: SpiresEnd, event: se.EffectInflicted) -> SpiresEnd:
    board = Board(game)
    inflict(board, event.target, event.inflicted, None)
    return settle(board, game.fight)

