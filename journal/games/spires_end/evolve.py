"""How Spire's End's events change its state: the handlers, in `HANDLERS`, which the core's
fold reads. A turn's steps are `turns`'s, a fight's start and end `combat`'s; the state's
classes are `state`'s, which imports none of them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from journal.core.events import ByEvent
from journal.core.state import Character, Handler, State
from journal.games.spires_end import events as se
from journal.games.spires_end.combat import end_fight, first_turn
from journal.games.spires_end.state import Fight, Fighter, spires_end, with_game
from journal.games.spires_end.turns import (
    action,
    boost,
    death_move,
    enemy_action,
    inflicted,
    recoup,
    rest,
    upkeep,
)

HANDLERS: ByEvent[Handler] = ByEvent()
"""How each of Spire's End's events changes the state."""


@HANDLERS.register
def _(event: se.AllyDrawn, state: State) -> State:
    game = spires_end(state)
    card = event.card
    fighter = Fighter(card, card.hp, card.ap)
    slots = list(game.slots)
    before = slots[event.slot - 1]
    slots[event.slot - 1] = card.name
    said: tuple[str, ...] = ()
    game = replace(game, allies=(*game.allies, fighter), slots=(slots[0], slots[1]))
    if state.character(card.name) is None:
        joined = Character(card.name, card.hp, card.hp, card.ap, card.ap)
        state = replace(state, characters=(*state.characters, joined))
    if before is not None and (gone := game.ally(before)) is not None and gone.dead:
        passed = [i.name for i in state.items if i.holder == gone.name]
        items = f"; {', '.join(passed)} pass{'es' if len(passed) == 1 else ''} to {card.name}"
        said = (f"{card.name} takes {gone.name}'s place as Ally {event.slot}"
                + (items if passed else ""),)
        state = _items_pass(state, gone.name, card.name)
    return with_game(state, replace(game, resolved=said))


def _items_pass(state: State, dead: str, heir: str) -> State:
    """'Upon death, Items are passed on to the next Ally unless stated otherwise.'"""
    items = tuple(replace(i, holder=heir) if i.holder == dead else i for i in state.items)
    return replace(state, items=items)


@HANDLERS.register
def _(event: se.FightBegan, state: State) -> State:
    game = spires_end(state)
    enemy = Fighter(event.enemy, event.enemy.hp, event.enemy.ap)
    fight = Fight(enemy)
    game = replace(game, fight=replace(fight, turn=first_turn(game)), resolved=())
    return with_game(state, game)


@HANDLERS.register
def _(event: se.ActionPerformed, state: State) -> State:
    return _on_fight(state, lambda game: action(game, event))


@HANDLERS.register
def _(event: se.EnemyActed, state: State) -> State:
    return _on_fight(state, lambda game: enemy_action(game, event))


@HANDLERS.register
def _(event: se.Rested, state: State) -> State:
    return _on_fight(state, lambda game: rest(game, event))


@HANDLERS.register
def _(event: se.Recouped, state: State) -> State:
    return _on_fight(state, lambda game: recoup(game, event))


@HANDLERS.register
def _(event: se.BoostSpent, state: State) -> State:
    return with_game(state, boost(spires_end(state), event))


@HANDLERS.register
def _(event: se.UpkeepDone, state: State) -> State:
    return _on_fight(state, lambda game: upkeep(game, event))


@HANDLERS.register
def _(event: se.DeathMovePerformed, state: State) -> State:
    return with_game(state, death_move(spires_end(state), event))


@HANDLERS.register
def _(event: se.EffectInflicted, state: State) -> State:
    return with_game(state, inflicted(spires_end(state), event))


@HANDLERS.register
def _(event: se.FightEnded, state: State) -> State:
    game = spires_end(state)
    if game.fight is None or not game.fight.under_way:
        return state
    # `spire end` is an event of its own: what it resolved follows no earlier action's
    # lines (an enemy defeated by an action is said after that action's, in one event).
    return with_game(state, end_fight(replace(game, resolved=()), "ended"))


def _on_fight(state: State, change: Any) -> State:
    """Change the fight under way; with none, the event changes nothing."""
    game = spires_end(state)
    if game.fight is None or not game.fight.under_way:
        return state
    return with_game(state, change(game))
