"""How Volume 2's events change its state: the handlers, in `HANDLERS`, which the core's
fold reads. An encounter's steps are journal.games.volume2.combat's (the allies' turns) and
rounds' (the enemies' turn, the round's and the encounter's end); the state's classes are
state's, which imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from journal.core.events import ByEvent, Payload
from journal.core.state import Character, Handler, Item, State
from journal.games.volume2 import GAME
from journal.games.volume2 import events as v2
from journal.games.volume2.cards import AllyCard
from journal.games.volume2.combat import (
    Resources,
    Step,
    action,
    begin,
    deployed,
    finesse_ended,
    locked,
    rolled,
    turn_ended,
)
from journal.games.volume2.rounds import (
    attacked,
    ended,
    reset,
    target_chosen,
    target_rolled,
    triggered,
)
from journal.games.volume2.state import (
    Trade,
    Volume2,
    Waterfall,
    card_name,
    carry_lines,
    story_card,
    volume2,
    with_game,
)

HANDLERS: ByEvent[Handler] = ByEvent()
"""How each of Volume 2's events changes the state."""


# -- the party, the world between fights -------------------------------------------------

@HANDLERS.register
def _(event: v2.AllyJoined, state: State) -> State:
    card = event.card
    if state.character(card.name) is None:
        joined = Character(card.name, card.hp, card.hp, card.ap, card.ap)
        state = replace(state, characters=(*state.characters, joined))
    game = volume2(state)
    return with_game(state, replace(game, party=(*game.party, card), resolved=()))


@HANDLERS.register
def _(event: v2.TradingCardRevealed, state: State) -> State:
    game = volume2(state)
    card = event.card
    said = (f"Trading post card {len(game.trading) + 1}: {card.name} for {card.price()}",)
    revealed = Trade(card, story_card(state))
    return with_game(state, replace(game, trading=(*game.trading, revealed), resolved=said))


@HANDLERS.register
def _(event: v2.ItemBought, state: State) -> State:
    game, card = volume2(state), event.card
    resources = dict(state.resources)
    for resource, price in (("meat", card.meat), ("pelts", card.pelts)):
        resources[resource] = resources.get(resource, 0) - price
    item = Item(card.name, card.kind, event.holder, raises=card.raises)
    said = (f"Bought {card.name} for {card.price()}" +
            (f"; {event.holder} holds it" if event.holder else ""),)
    state = replace(state, resources=resources, items=(*state.items, item))
    index = next((i for i in reversed(range(len(game.trading)))
                  if game.trading[i].card.name == card.name), None)
    trading = game.trading if index is None else (
        *game.trading[:index], replace(game.trading[index], bought=True),
        *game.trading[index + 1:])
    return with_game(state, replace(game, trading=trading, resolved=said))


@HANDLERS.register
def _(event: v2.WaterfallLaid, state: State) -> State:
    game = volume2(state)
    laid = Waterfall(event.event, event.rows)
    said = (f"{event.event}: {sum(event.rows)} cards face down in {len(event.rows)} rows "
            f"({', '.join(str(n) for n in event.rows)})",)
    return with_game(state, replace(game, waterfall=laid, laid=(*game.laid, event.event),
                                    resolved=said))


def _on_waterfall(state: State, change: Any) -> State:
    game = volume2(state)
    if game.waterfall is None:
        return state
    after, said = change(game.waterfall)
    return with_game(state, replace(game, waterfall=after, resolved=said))


@HANDLERS.register
def _(event: v2.WaterfallCardChosen, state: State) -> State:
    def choose(fall: Waterfall) -> tuple[Waterfall, tuple[str, ...]]:
        rest = len([c for c in fall.left(event.row) if c != event.card])
        chosen = (*((r, c) for r, c in fall.chosen if r != event.row), (event.row, event.card))
        discarded = (f"no other card of row {event.row} is left" if not rest else
                     f"the other card of row {event.row} is discarded" if rest == 1 else
                     f"the other {rest} of row {event.row} are discarded")
        return replace(fall, chosen=chosen), (
            f"Chose {card_name(event.row, event.card)}: reveal it; {discarded}",)

    return _on_waterfall(state, choose)


@HANDLERS.register
def _(event: v2.WaterfallCardsRemoved, state: State) -> State:
    def remove(fall: Waterfall) -> tuple[Waterfall, tuple[str, ...]]:
        gone = tuple((event.row, c) for c in event.cards if (event.row, c) not in fall.removed)
        names = ", ".join(card_name(event.row, c) for c in event.cards)
        return replace(fall, removed=(*fall.removed, *gone)), (f"Removed {names}",)

    return _on_waterfall(state, remove)


@HANDLERS.register
def _(event: v2.WaterfallEnded, state: State) -> State:
    def end(fall: Waterfall) -> tuple[Waterfall, tuple[str, ...]]:
        return replace(fall, ended=event.card), (
            f"{fall.event} ends: reveal story card {event.card}",)

    return _on_waterfall(state, end)


@HANDLERS.register
def _(event: v2.EpisodeEnded, state: State) -> State:
    carried = event.carried
    said = (f"The episode ends on card {carried.ended_on}" if carried.ended_on else
            "The episode ends", *(f"Carried over: {line}" for line in carry_lines(carried)))
    game = replace(volume2(state), episode_ended=carried.ended_on or 0, resolved=said)
    return with_game(state, game)


@HANDLERS.register
def _(event: v2.DeckCardPulled, state: State) -> State:
    follow = {"ally": f"`spire draw {event.name}` when the ally joins",
              "wildlife": "`spire fight` it; then it goes back into the deck",
              "duster": "follow the card"}[event.deck]
    said = (f"Pulled {event.name} from the {event.deck.capitalize()} Deck: {follow}",)
    return with_game(state, replace(volume2(state), resolved=said))


@HANDLERS.register
def _(event: v2.ItemUsed, state: State) -> State:
    folded = event.item.casefold()
    index = next((i for i, item in enumerate(state.items)
                  if item.name.casefold() == folded and item.holder == event.holder), None)
    if index is None:
        return state
    state = replace(state, items=state.items[:index] + state.items[index + 1:])
    said = (f"Used {event.item}" + (f" ({event.holder}'s)" if event.holder else "")
            + ": it is gone",)
    return with_game(state, replace(volume2(state), resolved=said))



# -- an encounter: each of its events' steps (journal.games.volume2.rounds, .combat) ---

Change = Callable[[Volume2, Resources], Step]
REWARD_KIND: str = GAME.default_item_kind
"""The kind an enemy's reward item is received as (the card names no kind)."""


@HANDLERS.register
def _(event: v2.EncounterBegan, state: State) -> State:
    return with_game(_carded(state, event.allies), begin(volume2(state), event, state.raised))


def _carded(state: State, cards: tuple[AllyCard, ...]) -> State:
    """The fighting allies' cards, as the encounter takes them from the catalog, are their
    cards from now on: the status, the reset and the carry-over read the limits the
    encounter does (a card entered again, to correct it, counts everywhere)."""
    by_name = {c.name: c for c in cards}
    characters = tuple(replace(c, hp_max=card.hp, ap_max=card.ap)
                       if (card := by_name.get(c.name)) is not None and card.hp is not None
                       else c for c in state.characters)
    game = volume2(state)
    party = tuple(by_name.get(c.name, c) for c in game.party)
    return replace(with_game(state, replace(game, party=party)), characters=characters)


def _on_encounter(state: State, change: Change) -> State:
    """Change the encounter under way (and the core resources); with none, nothing. An
    encounter that ends is reset (or lost) at once."""
    game = volume2(state)
    if not game.in_encounter:
        return state
    after, resources = change(game, state.resources)
    if resources is not state.resources:
        state = replace(state, resources=resources)
    state = with_game(_rewarded(state, game, after), after)
    if not after.in_encounter and after.encounter is not None:
        state = reset(state, after)
    return state


def _rewarded(state: State, before: Volume2, after: Volume2) -> State:
    """"REWARDS: Items received if this Enemy is defeated": each enemy this step defeated
    gives its reward items, set aside (as `spire item gain NAME --to aside`) for the table
    to pass to an ally."""
    was = {f.name for f in before.encounter.enemies if f.out} if before.encounter else set()
    now = after.encounter.enemies if after.encounter else ()
    won = [Item(name, REWARD_KIND) for foe in now
           if foe.out == "defeated" and foe.name not in was for name in foe.card.reward_items()]
    return replace(state, items=(*state.items, *won)) if won else state


def _handles(event_type: type[Payload], step: Callable[[Volume2, Resources, Any], Step],
             ) -> None:
    def handler(event: Any, state: State) -> State:
        return _on_encounter(state, lambda game, resources: step(game, resources, event))

    HANDLERS[event_type] = handler


STEPS: tuple[tuple[type[Payload], Callable[[Volume2, Resources, Any], Step]], ...] = (
    (v2.ActionDiceRolled, rolled), (v2.ActionDiceLocked, locked),
    (v2.FinesseEnded, finesse_ended), (v2.ActionTaken, action),
    (v2.HiveDeployed, deployed), (v2.TurnEnded, turn_ended),
    (v2.TargetRolled, target_rolled), (v2.TargetChosen, target_chosen),
    (v2.EnemyAttacked, attacked), (v2.EncounterClosed, ended),
    (v2.AbilityTriggered, triggered),
)
"""Each encounter event and the step that folds it."""

for _event, _step in STEPS:
    _handles(_event, _step)
