"""What the dice make happen in a fight: bars performed, damage through armor then HP,
status effects struck and kept with cubes, recoup and the meters, upkeep, death.

Each function takes the game state and one event and returns the game state after it.
A `Board` is a working copy of the characters while one event resolves; it never
leaves this module, so `evolve` stays a pure fold.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from journal.games.spires_end import effects as fx
from journal.games.spires_end.cards import Bar, Inflicted, Result
from journal.games.spires_end.state import (
    ENEMY_TURN,
    METER,
    Effect,
    Fight,
    Fighter,
    SpiresEnd,
)


class Board:
    """The characters while one event resolves, and what the table should be told."""

    def __init__(self, game: SpiresEnd) -> None:
        self.game = game
        self.fighters = {a.name: a for a in game.allies}
        self.enemy = game.fight.enemy.name if game.fight else None
        if game.fight:
            self.fighters[game.fight.enemy.name] = game.fight.enemy
        self.said: list[str] = []

    def get(self, name: str | None) -> Fighter | None:
        if name is None:
            return None
        folded = name.casefold()
        return next((f for n, f in self.fighters.items() if n.casefold() == folded), None)

    def put(self, fighter: Fighter) -> None:
        self.fighters[fighter.name] = fighter

    def say(self, text: str) -> None:
        self.said.append(text)

    def game_after(self, fight: Fight | None) -> SpiresEnd:
        allies = tuple(self.fighters[a.name] for a in self.game.allies)
        if fight is not None and self.enemy is not None:
            fight = replace(fight, enemy=self.fighters[self.enemy])
        return replace(self.game, allies=allies, fight=fight, resolved=tuple(self.said))


# -- points ------------------------------------------------------------------------------

def hit(board: Board, attacker: Fighter | None, name: str, damage: int) -> None:
    """Damage through armor, then HP, to one target ("You cannot split up ... DMG")."""
    target = board.get(name)
    if target is None or target.dead:
        return
    if target.has("chant"):
        board.say(f"{target.name} takes 0 damage (Chant)")
        return
    pierce = attacker is not None and attacker.has("pierce")
    armor = 0 if pierce else min(target.ap, damage)
    board.put(replace(target, ap=target.ap - armor, hp=target.hp - (damage - armor)))
    board.say(f"{damage} damage to {target.name}" + (" (Pierce: armor ignored)" if pierce else ""))


def gain(
    board: Board, name: str, points: str, amount: int, boost: bool = False, label: str = "",
) -> None:
    """Points up to the threshold (AP above it stays while a Bubble holds it); with
    `boost`, the points past the threshold go to the boost meter (Boost)."""
    f = board.get(name)
    if f is None or f.dead or amount <= 0:
        return
    have, cap = (f.hp, f.card.hp) if points == "hp" else (f.ap, f.card.ap)
    kept = max(min(amount, cap - have), 0)
    over = amount - kept
    f = replace(f, hp=f.hp + kept) if points == "hp" else replace(f, ap=f.ap + kept)
    text = f"{label}+{kept} {points.upper()} to {f.name}"
    if boost and over and not f.is_enemy:
        filled = min(f.boost + over, METER)
        past = f"{over} past the threshold to {f.name}'s boost meter ({filled}/{METER})"
        text = f"{text}; {past}" if kept else f"{label}{past}"
        f = replace(f, boost=filled)
    elif over:
        text += " (at the threshold)"
    board.put(f)
    board.say(text)


def lose(board: Board, name: str, points: str, amount: int) -> int:
    """Points taken straight from HP or AP (Bleed, Harvest, Seduce); how many were."""
    f = board.get(name)
    if f is None or f.dead:
        return 0
    taken = min(amount, f.hp if points == "hp" else f.ap)
    board.put(replace(f, hp=f.hp - taken) if points == "hp" else replace(f, ap=f.ap - taken))
    return taken


# -- status effects ----------------------------------------------------------------------

def inflict(board: Board, name: str, given: Inflicted, source: str | None) -> None:
    """Strike a status effect: cubes for its clocks, added to any already there."""
    f = board.get(name)
    if f is None or f.dead:
        return
    effect = given.effect
    persistent = given.persistent or effect in fx.PERSISTENT
    board.say(f"{effect.capitalize()} on {f.name}" + _lasting(given, persistent))
    if effect == "exhaustion":  # "Clear rest meter"
        board.put(replace(f, rest=0))
    if effect == "bubble":
        f = board.get(name) or f
        board.put(replace(f, ap=f.ap + fx.BUBBLE_ARMOR))
    if not given.turns and not persistent and effect in fx.EACH_TURN:
        return each_turn(board, name, Effect(effect, 0, source=source))
    cubes = max(given.turns, 1)
    _place(board, name, Effect(effect, cubes, persistent, source,
                               _on_itself(board, name, source) * cubes))


def _on_itself(board: Board, name: str, source: str | None) -> bool:
    """Whether `name` puts the effect on itself in its own turn, before its upkeep (an
    action's result, its boost spent): it occurs from its next turn on."""
    actor = board.game.actor()
    return source == name and actor is not None and actor.name == name


def _lasting(given: Inflicted, persistent: bool) -> str:
    if persistent:
        return " (until cleansed or the fight ends)"
    if given.turns:
        return f" ({given.turns} turn{'s' if given.turns != 1 else ''})"
    return ""


def _place(board: Board, name: str, new: Effect) -> None:
    """'If you suffer Bleed again ... add the new ones to the existing amount.'"""
    f = board.get(name)
    if f is None:
        return
    old = f.effect(new.name)
    if old is None:
        board.put(replace(f, effects=(*f.effects, new)))
        return
    merged = replace(old, cubes=old.cubes + new.cubes, persistent=old.persistent or new.persistent,
                     source=new.source or old.source, fresh=old.fresh + new.fresh)
    board.put(replace(f, effects=tuple(merged if e is old else e for e in f.effects)))


def each_turn(board: Board, name: str, effect: Effect) -> None:
    """What an effect does when it strikes, and again each upkeep a cube comes off."""
    kind = effect.name
    if kind == "bleed":
        board.say(f"Bleed: -{lose(board, name, 'hp', 1)} HP on {name}")
    elif kind in ("regen", "rebuild"):
        gain(board, name, "hp" if kind == "regen" else "ap", 1, label=f"{kind.capitalize()}: ")
    elif kind in ("harvest", "seduce"):
        points = "hp" if kind == "harvest" else "ap"
        taken = lose(board, name, points, 1)
        board.say(f"{kind.capitalize()}: -{taken} {points.upper()} on {name}")
        if taken and effect.source:
            gain(board, effect.source, points, taken)
    elif kind == "cleanse":
        cleanse(board, name, None)


def cleanse(board: Board, name: str, wanted: str | None) -> None:
    """Remove one status effect: the one named, or the oldest negative one."""
    f = board.get(name)
    if f is None:
        return
    gone = next((e for e in f.effects if (e.name == wanted if wanted else fx.is_negative(e.name))),
                None)
    if gone is None:
        board.say(f"nothing to cleanse on {f.name}")
        return
    board.put(replace(f, effects=tuple(e for e in f.effects if e is not gone)))
    board.say(f"{gone.name.capitalize()} cleansed from {f.name}")


def clear_bubbles(board: Board) -> None:
    """'Remove after the enemy's turn': the Bubble goes, and the armor past the threshold."""
    for f in list(board.fighters.values()):
        if f.has("bubble"):
            effects = tuple(e for e in f.effects if e.name != "bubble")
            board.put(replace(f, effects=effects, ap=min(f.ap, f.card.ap)))
            board.say(f"{f.name}'s Bubble is removed")


# -- a bar performed ---------------------------------------------------------------------

@dataclass(frozen=True)
class Die:
    """One roll as the bar reads it: the die, and the number after Strength and the like."""

    raw: int
    value: int

    def __str__(self) -> str:
        if self.raw == self.value:
            return f"roll {self.raw}"
        return f"roll {self.raw} (as {self.value})"


def base_dice(bar: Bar, actor: Fighter) -> int:
    """The dice an action rolls at first: one, two for a (!) bar, and one more for Luck."""
    return (2 if bar.twice else 1) + (1 if actor.has("luck") else 0)


def dice(bar: Bar, actor: Fighter, rolls: tuple[int, ...]) -> list[Die]:
    """The rolls the bar reads: Luck picks the best (best two with (!)); an Encore re-rolls
    one miss; Impaired Vision then Strength change the highest roll (FAQ: negative first)."""
    first = rolls[:base_dice(bar, actor)]
    kept = sorted(first, reverse=True)[:2 if bar.twice else 1] if actor.has("luck") else list(first)
    read = _modified(kept, actor)
    extra = rolls[base_dice(bar, actor):]
    if actor.has("encore") and extra:
        missed = next((i for i, d in enumerate(read) if bar.result(d.value) is None), None)
        if missed is not None:
            kept[missed] = extra[0]
            read = _modified(kept, actor)
    return read


def _modified(kept: list[int], actor: Fighter) -> list[Die]:
    values = list(kept)
    if values:
        top = values.index(max(values))
        for name, step in (("impaired vision", -1), ("strength", 1)):
            if actor.has(name):
                values[top] = min(max(values[top] + step, 1), 8)
    return [Die(raw, value) for raw, value in zip(kept, values, strict=True)]


def encore_due(bar: Bar, actor: Fighter, rolls: tuple[int, ...]) -> bool:
    """An Encore re-roll is owed: a first roll missed and no re-roll was given yet."""
    if not actor.has("encore") or len(rolls) > base_dice(bar, actor):
        return False
    return any(bar.result(d.value) is None for d in dice(bar, actor, rolls))


def damage(actor: Fighter, result: Result, die: Die, highest: bool) -> int:
    """Damage out: Dwindle and Hinder, then Cripple's half rounded down, then Encourage
    (negative effects first, as the publisher's FAQ orders them)."""
    base = die.value if result.rolled else result.damage
    if base <= 0:
        return 0
    hinder = actor.effect("hinder")
    out = base - (1 if highest and actor.has("dwindle") else 0) - (hinder.cubes if hinder else 0)
    out = max(out, 0)
    if actor.has("cripple"):
        out //= 2
    return out + (1 if highest and actor.has("encourage") else 0)


@dataclass(frozen=True)
class Aim:
    """Who a bar strikes and who gains its gifts."""

    targets: tuple[str, ...]
    given_to: str
    kickback_to: str


def perform(board: Board, actor_name: str, bar: Bar, rolls: tuple[int, ...], aim: Aim) -> None:
    actor = board.get(actor_name)
    if actor is None:
        return
    read = dice(bar, actor, rolls) if bar.needs_roll else [Die(8, 8)]
    top = max(range(len(read)), key=lambda i: read[i].value, default=0)
    for index, die in enumerate(read):
        _performed(board, actor, bar, die, index == top, aim)


def _performed(board: Board, actor: Fighter, bar: Bar, die: Die, highest: bool, aim: Aim) -> None:
    """One performance of the bar, told in one line: 'Back Hand, roll 8: 3 damage to ...'."""
    label = f"{bar.name or 'the bar'}, {die}" if bar.needs_roll else (bar.name or "the bar")
    start = len(board.said)
    result = bar.result(die.value)
    dealt = damage(actor, result, die, highest) if result is not None else 0
    for target in aim.targets if dealt else ():
        hit(board, actor, target, dealt)
    if result is None or (not dealt and (result.damage or result.rolled or not _does(result))):
        board.say("0 damage")
    if result is not None:
        _struck(board, actor, result, aim)
    parts = board.said[start:]
    board.said[start:] = [f"{label}: " + "; ".join(parts)]


def _does(result: Result) -> bool:
    return bool(result.letters or result.effects or result.kickback)


def _struck(board: Board, actor: Fighter, result: Result, aim: Aim) -> None:
    """Status effects (negative ones on the targets first, FAQ) and the kickback."""
    struck = [actor.card.status(x) for x in result.letters] + list(result.effects)
    for given in sorted((s for s in struck if s), key=lambda s: not fx.is_negative(s.effect)):
        for name in aim.targets if fx.is_negative(given.effect) else (aim.given_to,):
            inflict(board, name, given, actor.name)
    if result.kickback is not None:
        kick = result.kickback
        gain(board, aim.kickback_to, kick.points, kick.amount, label="kickback ")


# -- turns -------------------------------------------------------------------------------

def first_turn(game: SpiresEnd) -> int:
    for slot, name in enumerate(game.slots, start=1):
        ally = game.ally(name) if name else None
        if ally is not None and not ally.dead:
            return slot
    return ENEMY_TURN


def next_turn(game: SpiresEnd, fight: Fight) -> Fight:
    """Ally 1, Ally 2, the Enemy, then a new round; an empty or dead slot is passed by."""
    turn, round_ = fight.turn, fight.round
    while True:
        turn, round_ = (1, round_ + 1) if turn == ENEMY_TURN else (turn + 1, round_)
        name = game.slots[turn - 1] if turn != ENEMY_TURN else None
        ally = game.ally(name) if name else None
        if turn == ENEMY_TURN or (ally is not None and not ally.dead):
            return replace(fight, turn=turn, round=round_, actions=0, rested=False,
                           recouped=False)


def settle(board: Board, fight: Fight | None) -> SpiresEnd:
    """The game after an event: deaths noted, a won fight ended, a dead actor's turn over."""
    before = set(board.game.dead)
    game = board.game_after(fight)
    fallen = tuple(a.name for a in game.allies if a.dead and a.name not in before)
    for name in fallen:
        board.say(f"{name} dies: the death move comes next (spire death), then draw the "
                  "next ally (spire draw)")
    game = replace(game, dying=(*game.dying, *fallen), resolved=tuple(board.said))
    fight = game.fight
    if fight is None or not fight.under_way:
        return game
    if fight.enemy.dead:
        return end_fight(game, "won")
    if game.journey_over:
        return end_fight(game, "lost")
    actor = game.actor()
    if actor is not None and actor.dead:
        return replace(game, fight=next_turn(game, fight))
    return game


def end_fight(game: SpiresEnd, outcome: str) -> SpiresEnd:
    """'All Status Effects are removed once the fight has ended.' The rest meter stays: it
    resets only on an action, after three rests, or on a recoup roll of 1 (Rest & Boost
    Meters)."""
    board = Board(game)
    clear_bubbles(board)
    for f in list(board.fighters.values()):
        board.put(replace(f, effects=()))
    fight = game.fight
    assert fight is not None
    said = {"won": f"{fight.enemy.name} is defeated", "lost": "every ally is dead",
            "ended": "the fight is over"}[outcome]
    board.say(f"{said}: all status effects are removed")
    after = board.game_after(replace(fight, outcome=outcome))
    line = f"Fight with {fight.enemy.name}: {outcome} in round {fight.round}"
    return replace(after, resolved=(*game.resolved, *after.resolved),
                   finished=(*game.finished, line))
