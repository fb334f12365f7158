"""Spire's End's rules: pure functions from the campaign state to the event a command records.

Each returns a `Decision`; a broken rule is a `RuleViolation` citing the rulebook section,
which `--force` records as an override. Dice come in as values: typed from the table, or
rolled by the command line before it calls here.
"""

from __future__ import annotations

from journal.core.decide import Decision, start_campaign
from journal.core.decide import pull_named as pull_named  # noqa: PLC0414 (none to pull: refused)
from journal.core.events import Payload
from journal.core.state import State
from journal.core.words import listed, possessive
from journal.errors import BadInput, NotFound, Refused, RuleViolation
from journal.games.spires_end import events as se
from journal.games.spires_end.allowed import (
    DEATH,
    FLOW,
    RECOUP,
    REST,
    action_rules,
    bar_rules,
    death_due,
    death_rules,
    enemy_bar,
    forced_target,
    recoup_kinds,
    recoup_rules,
    rest_rules,
    target_rules,
    upkeep_rules,
)
from journal.games.spires_end.cards import AllyCard, Bar, EnemyCard, Inflicted
from journal.games.spires_end.dice import owed, rolls_given, words
from journal.games.spires_end.order import (
    acted,
    current,
    played_by,
    under_way,
)
from journal.games.spires_end.order import naming as naming  # noqa: PLC0414 (the commands')
from journal.games.spires_end.order import player_for as player_for  # noqa: PLC0414 (the interface's)
from journal.games.spires_end.order import upkept as upkept  # noqa: PLC0414 (the commands')
from journal.games.spires_end.order import whose_turn as whose_turn  # noqa: PLC0414 (the interface's)
from journal.games.spires_end.state import (
    ALLIES,
    ENEMY_TURN,
    METER,
    Fight,
    Fighter,
    SpiresEnd,
    spires_end,
)

start = start_campaign  # the game's `new`: a campaign of cards, nothing carried over

SET_UP = "Ally Selection & Set Up"

Violations = list[RuleViolation]


def _decided(event: Payload, violations: Violations, first: tuple[Payload, ...] = ()) -> Decision:
    return Decision((*first, event), tuple(violations))


# -- allies ------------------------------------------------------------------------------

def draw(state: State, card: AllyCard, slot: int | None) -> Decision:
    """An ally card drawn into play: the first free place, or a dead ally's."""
    game = spires_end(state)
    if state.character(card.name) is not None:
        raise BadInput(f"{card.name} is already in the campaign")
    if game.fight is not None and game.fight.enemy.name.casefold() == card.name.casefold():
        raise BadInput(f"{game.fight.enemy.name} is the enemy{_latest(game.fight)}: the ally "
                       "needs another name", f"{APART}")
    violations: Violations = []
    if len(game.allies) >= ALLIES:
        violations.append(RuleViolation(
            f"all {ALLIES} allies have been drawn (\"There are 7 of you now.\")", SET_UP))
    place = slot or _free_slot(game) or 1
    violations += _slot_rules(game, place)
    return _decided(se.AllyDrawn(card=card, slot=place), violations)


def _free_slot(game: SpiresEnd) -> int | None:
    for index, name in enumerate(game.slots, start=1):
        ally = game.ally(name) if name else None
        if ally is None or ally.dead:
            return index
    return None


def _slot_rules(game: SpiresEnd, slot: int) -> Violations:
    name = game.slots[slot - 1]
    ally = game.ally(name) if name else None
    if ally is not None and not ally.dead:
        return [RuleViolation(f"{ally.name} is Ally {slot}; \"You can only use two Allies at "
                              "a time\"", SET_UP)]
    if ally is not None and ally.name in game.dying:
        return [RuleViolation(f"{ally.name} performs a death move before the next ally "
                              "(`spire death`)", DEATH)]
    return []


def _ally(state: State, name: str, what: str) -> str:
    """An ally in play by name (case aside), or the enemy."""
    game = spires_end(state)
    found = game.fighter(name)
    if found is None or (not found.is_enemy and found.name not in game.slots):
        names = ", ".join(a.name for a in game.in_play()) or "none in play"
        raise NotFound(f"no ally in play named {name!r} for {what}; allies: {names}")
    return found.name


# -- fights ------------------------------------------------------------------------------

APART = "the fighters of a fight are told apart by name"
"""Why an enemy and an ally may not share a name (every event names whom it strikes)."""


def _latest(fight: Fight) -> str:
    return "" if fight.under_way else " of the latest fight"


def _named_like_an_ally(game: SpiresEnd, enemy: EnemyCard) -> None:
    """An enemy and an ally of one name would be one fighter (every event names whom it
    strikes): refused, saying how to tell them apart."""
    ally = game.ally(enemy.name)
    if ally is None:
        return
    slot = game.slots.index(ally.name) + 1 if ally.name in game.slots else None
    who = f"Ally {slot}" if slot else "an ally of this campaign"
    raise BadInput(f"{ally.name} is {who}: the enemy needs another name",
                   f"fighters are told apart by name: `spire fight \"{enemy.name} the Foe\"` "
                   "with its numbers")


def fight(state: State, enemy: EnemyCard) -> Decision:
    game = spires_end(state)
    _named_like_an_ally(game, enemy)
    violations: Violations = []
    if game.fight is not None and game.fight.under_way:
        violations.append(RuleViolation(
            f"the fight with {game.fight.enemy.name} is under way; `spire end` ends it", FLOW))
    if not game.living():
        violations.append(RuleViolation("no ally is in play: `spire draw NAME` first", SET_UP))
    return _decided(se.FightBegan(enemy=enemy), violations)


def end(state: State) -> Decision:
    under_way(state)
    return _decided(se.FightEnded(), [])


# -- an ally's turn ----------------------------------------------------------------------

def _bar(actor: Fighter, chosen: str | int | None) -> tuple[int, Bar]:
    """The bar by number or by name; none given: the bar an effect forces."""
    bars = actor.card.bars
    number = _bar_number(bars, chosen) if chosen is not None else actor.forced_bar
    if number is None:
        raise BadInput(f"which bar? {actor.name}'s card has {_bars(bars)}")
    if not 1 <= number <= len(bars):
        raise BadInput(f"{actor.name}'s card has {_bars(bars)}, not bar {number}")
    return number, bars[number - 1]


def _bar_number(bars: tuple[Bar, ...], chosen: str | int) -> int:
    text = str(chosen).strip()
    if text.isdigit():
        return int(text)
    wanted = " ".join(text.split()).casefold()
    for index, bar in enumerate(bars, start=1):
        if bar.name.casefold() == wanted:
            return index
    raise BadInput(f"no bar named {text!r}; the card has {_bars(bars)}")


def _bars(bars: tuple[Bar, ...]) -> str:
    if not bars:
        return "no action bars entered"
    return ", ".join(f"{i} {b.name or '(unnamed)'}" for i, b in enumerate(bars, start=1))


def dice_owed(
    state: State, bar: str | None, rolls: tuple[int, ...], player: int | None = None,
) -> int:
    """How many more d8 the current actor's action needs (Luck, (!), Encore): the next
    one's, where the action typed is the next turn's (`upkept`)."""
    under_way(state)
    game = spires_end(upkept(state, named=naming(state, player, bar))[0])
    actor = current(game)
    _, chosen = _bar(actor, bar)
    return owed(chosen, actor, rolls)


def action(
    state: State, bar: str | None, rolls: tuple[int, ...], target: str | None,
    kickback_to: str | None, given_to: str | None, player: int | None, onward: bool = True,
) -> Decision:
    under_way(state)
    state, first = upkept(state, onward, naming(state, player, bar))
    game, fight = under_way(state)
    actor = current(game)
    if actor.is_enemy:
        raise Refused(f"it is {possessive(actor.name)} turn: `spire enemy CARD` plays it")
    try:
        number, chosen = _bar(actor, bar)
    except BadInput:
        if bar is None or not acted(actor, fight):
            raise
        # the next ally's bar, typed while the upkeep left is not one to make unasked
        raise BadInput(f"no bar {bar!r}: it is still {possessive(actor.name)} turn "
                       "(`spire upkeep` ends it)") from None
    violations = played_by(state, player, actor) + death_rules(game)
    violations += action_rules(actor, fight) + bar_rules(actor, number, chosen)
    event = se.ActionPerformed(
        actor=actor.name, bar=number,
        rolls=rolls_given(chosen, actor, rolls,
                          f"spire action {words(chosen.name or str(number))}"),
        target=_aimed(state, game, actor, target),
        kickback_to=_ally(state, kickback_to, "the kickback") if kickback_to else None,
        given_to=_ally(state, given_to, "its effects") if given_to else None)
    violations += target_rules(game, actor, event.target)
    return _decided(event, violations, first)


def _aimed(state: State, game: SpiresEnd, actor: Fighter, target: str | None) -> str | None:
    if target is not None:
        return _ally(state, target, "the attack")
    return forced_target(game, actor)


def rest(state: State, player: int | None, onward: bool = True) -> Decision:
    under_way(state)
    state, first = upkept(state, onward, naming(state, player))
    game, fight = under_way(state)
    actor = current(game)
    violations = played_by(state, player, actor) + death_rules(game) + rest_rules(actor, fight)
    return _decided(se.Rested(actor=actor.name), violations, first)


def recoup(
    state: State, kind: str, roll: int, to: str | None, effect: str | None, player: int | None,
) -> Decision:
    game, fight = under_way(state)
    actor = current(game)
    if actor.card.recoup is None:
        raise BadInput(f"{actor.name}'s recoup bar was not entered")
    if kind not in ("heal", "armor", "cleanse"):
        raise BadInput(f"recoup heal, armor or cleanse, not {kind!r}")
    if not 1 <= roll <= 8:
        raise BadInput(f"a d8 shows 1 to 8, not {roll}")
    receiver = _ally(state, to, "the recoup") if to else actor.name
    violations = played_by(state, player, actor) + death_rules(game) + recoup_rules(actor, fight)
    if receiver != actor.name and (actor.is_enemy or (game.fighter(receiver) or actor).is_enemy):
        violations.append(RuleViolation("recoup points go to an ally of the one who recoups, "
                                        "the enemy's to itself", RECOUP))
    printed = recoup_kinds(actor.card.recoup)
    if kind != "cleanse" and kind not in printed:  # "1) Choose a Recoup."
        violations.append(RuleViolation(
            f"{possessive(actor.name)} recoup bar has no {kind}: choose one it prints "
            f"({listed(printed, 'or')})", RECOUP))
    if kind not in printed and kind == "cleanse":
        rolled = printed[0] if printed else "heal"
        violations.append(RuleViolation(
            f"the Cleanse comes with the roll's result; `spire recoup {rolled}` rolls the bar, "
            "and cleanses on a roll in its range",
            "Recoup Bar Example"))
    named = _effect_named(game, receiver, effect) if effect else None
    return _decided(se.Recouped(actor=actor.name, kind=kind, roll=roll,
                                to=None if receiver == actor.name else receiver,
                                effect=named), violations)


def _effect_named(game: SpiresEnd, name: str, effect: str) -> str:
    from journal.games.spires_end.effects import effect_name

    try:
        wanted = effect_name(effect)
    except ValueError as e:
        raise BadInput(str(e)) from None
    fighter = game.fighter(name)
    if fighter is None or not fighter.has(wanted):
        raise NotFound(f"{name} has no {wanted} to cleanse")
    return wanted


def boost(state: State, player: int | None) -> Decision:
    game, _ = under_way(state)
    actor = current(game)
    violations = played_by(state, player, actor)
    if actor.boost < METER:
        violations.append(RuleViolation(f"{actor.name}'s boost meter holds {actor.boost} of "
                                        f"{METER}; it is spent when full", REST))
    return _decided(se.BoostSpent(actor=actor.name), violations)


def upkeep(state: State, player: int | None) -> Decision:
    game, fight = under_way(state)
    actor = current(game)
    violations = played_by(state, player, actor) + death_rules(game) + upkeep_rules(actor, fight)
    return _decided(se.UpkeepDone(actor=actor.name), violations)


# -- the enemy's turn --------------------------------------------------------------------

def selected(game: SpiresEnd, roll: int) -> str | None:
    """'Roll 1-4: Attack Ally 1 Roll 5-8: Attack Ally 2'; an empty place: the other ally."""
    from journal.games import load

    low, high = load("spires-end").raw["dice"]["selection"]["ally_1"]
    first = 0 if low <= roll <= high else 1
    for slot in (first, 1 - first):
        name = game.slots[slot]
        ally = game.ally(name) if name else None
        if ally is not None and not ally.dead:
            return ally.name
    return None


def enemy(
    state: State, card: int, selection: int, rolls: tuple[int, ...], player: int | None,
    onward: bool = True,
) -> Decision:
    under_way(state)
    state, first = upkept(state, onward)
    game, fight = under_way(state)
    foe = fight.enemy
    if not 1 <= selection <= 8:
        raise BadInput(f"the selection roll is a d8: 1 to 8, not {selection}")
    if not 1 <= card <= len(foe.card.bars):
        raise BadInput(f"{foe.name}'s card has {_bars(foe.card.bars)}, not bar {card}")
    number = enemy_bar(foe, card)
    bar = foe.card.bars[number - 1]
    violations = death_rules(game)
    if fight.turn != ENEMY_TURN:
        violations.append(RuleViolation(f"it is {possessive(current(game).name)} turn", FLOW))
    violations += action_rules(foe, fight)
    target = forced_target(game, foe) or selected(game, selection)
    if target is None:
        violations.append(RuleViolation("no ally in play to attack: draw the next ally", SET_UP))
    event = se.EnemyActed(enemy=foe.name, card=card, bar=number, selection=selection,
                          target=None if bar.all_targets and target != foe.name else target,
                          rolls=rolls_given(bar, foe, rolls, f"spire enemy {card}"))
    return _decided(event, violations, first)


def enemy_dice_owed(state: State, card: int, rolls: tuple[int, ...]) -> int:
    under_way(state)
    _, fight = under_way(upkept(state)[0])
    foe = fight.enemy
    if not 1 <= card <= len(foe.card.bars):
        return 0
    return owed(foe.card.bars[enemy_bar(foe, card) - 1], foe, rolls)


def select(state: State, roll: int) -> Decision:
    if not 1 <= roll <= 8:
        raise BadInput(f"the selection roll is a d8: 1 to 8, not {roll}")
    return _decided(se.SelectionRolled(roll=roll, ally=selected(spires_end(state), roll)), [])


# -- death and effects -------------------------------------------------------------------

def death(
    state: State, ally: str | None, target: str | None, given_to: str | None,
    rolls: tuple[int, ...],
) -> Decision:
    game = spires_end(state)
    name = _ally(state, ally, "the death move") if ally else death_due(game)
    if name is None:
        raise Refused("no ally has died: a death move follows an ally's death")
    dead = game.ally(name)
    violations: Violations = []
    if dead is None or name not in game.dying:
        violations.append(RuleViolation(f"{name} has no death move to perform (only a dead ally "
                                        "does, once)", DEATH))
    chosen = _ally(state, given_to, "the death move") if given_to else _other(game, name)
    bar = getattr(dead.card, "death", None) if dead else None
    if bar is not None and dead is not None:
        rolls_given(bar, dead, rolls, f"spire death {words(name)}")
    event = se.DeathMovePerformed(
        ally=name, target=_ally(state, target, "the death move") if target else None,
        given_to=chosen, rolls=rolls)
    return _decided(event, violations)


def death_dice(state: State, ally: str | None) -> int:
    game = spires_end(state)
    name = ally or death_due(game)
    dead = game.ally(name) if name else None
    bar = getattr(dead.card, "death", None) if dead else None
    return owed(bar, dead, ()) if bar is not None and dead is not None else 0


def _other(game: SpiresEnd, name: str) -> str | None:
    others = [a.name for a in game.living() if a.name != name]
    return others[0] if others else None


def inflict(state: State, target: str, given: Inflicted) -> Decision:
    name = _ally(state, target, "the effect")
    return _decided(se.EffectInflicted(target=name, inflicted=given), [])
