"""What the table needs to see: each ally's cubes, effects and meters, the enemy, whose
turn it is and what the latest roll did; as plain text lines and JSON (no Rich here)."""

from __future__ import annotations

from typing import Any

from journal.core.words import possessive
from journal.games.spires_end.allowed import DEATH_MOVE, death_due, step_words
from journal.games.spires_end.state import (
    ALLIES,
    METER,
    Effect,
    Fight,
    Fighter,
    SpiresEnd,
)


def _turns(count: int) -> str:
    return f"{count} turn" if count == 1 else f"{count} turns"


def effect_text(effect: Effect) -> str:
    name = effect.name.capitalize()
    if effect.name == "bubble":
        return f"{name} (until after the enemy's turn)"
    if effect.persistent:
        amount = f" {effect.cubes}" if effect.name == "hinder" else ""
        return f"{name}{amount} (until cleansed)"
    return f"{name} ({_turns(effect.cubes)} left)"


def fighter_line(label: str, f: Fighter) -> str:
    cubes = f"HP {max(f.hp, 0)}/{f.card.hp}, AP {f.ap}/{f.card.ap}"
    if f.dead:
        return f"{label} {f.name}: " + ("defeated" if f.is_enemy else "dead")
    parts = [cubes]
    if not f.is_enemy:
        parts.append(f"rest {f.rest}/{METER}, boost {f.boost}/{METER}")
    parts.append(", ".join(effect_text(e) for e in f.effects) or "no effects")
    return f"{label} {f.name}: " + " | ".join(parts)


def lines(game: SpiresEnd, told: bool = True) -> list[str]:
    """The lines the table reads after every command; `told`: with what the latest
    Spire's End event did (after a note or a gain it was said already)."""
    if not game.allies and game.fight is None:
        return []
    out = [fighter_line(f"Ally {slot}", a) for slot, a in _slots(game)]
    fight = game.fight
    if fight is not None and not fight.passed:
        out.append(fighter_line("Enemy", fight.enemy))
        out.append(_turn_line(game, fight))
    out += [f"  {line}" for line in game.resolved] if told else []
    out += _dead_lines(game)
    return out


def _slots(game: SpiresEnd) -> list[tuple[int, Fighter]]:
    placed = [(i, game.ally(n)) for i, n in enumerate(game.slots, start=1) if n]
    return [(i, a) for i, a in placed if a is not None]


def _turn_line(game: SpiresEnd, fight: Fight) -> str:
    if fight.outcome is not None:
        return f"Fight {fight.outcome} in round {fight.round}"
    if (dying := death_due(game)) is not None:  # every other step waits for it
        return f"Round {fight.round}: {possessive(dying)} death move next (`{DEATH_MOVE}`)"
    actor = game.actor()
    if actor is None:
        return f"Round {fight.round}: no ally in play; draw the next ally"
    effects, said = step_words(actor, fight)  # "Millicent's turn (stunned): recoup ..."
    turn = f"{possessive(actor.name)} turn" + (f" ({effects}): " if effects else ", ")
    return f"Round {fight.round}: {turn}{said} next"


def _dead_lines(game: SpiresEnd) -> list[str]:
    dead = game.dead
    if not dead:
        return []
    out = [f"Dead: {', '.join(dead)} ({len(dead)} of {ALLIES})"]
    if game.dying:
        out.append(f"  death move due: {', '.join(game.dying)} (spire death)")
    if game.journey_over:
        out.append("All seven allies are dead: the journey ends.")
    return out


# -- what an event changed (spire replay) --------------------------------------------------

def changes(before: SpiresEnd, after: SpiresEnd) -> list[str]:
    """The lines the event resolved, then each fighter's numbers that moved ("Ogre: HP
    9->8, AP 2->0"), the turn when it passed, and each fight that ended."""
    out = list(after.resolved) if after.resolved is not before.resolved else []
    old = {f.name: f for f in _fighters(before)}
    for f in _fighters(after):
        moved = _moved(old.get(f.name), f)
        if moved:
            out.append(f"{f.name}: {moved}")
    out += _turn_changed(before, after)
    out += list(after.finished[len(before.finished):])
    return out


def _fighters(game: SpiresEnd) -> list[Fighter]:
    enemy = [game.fight.enemy] if game.fight is not None else []
    return [*game.allies, *enemy]


def _moved(old: Fighter | None, new: Fighter) -> str:
    if old is None or old.card is not new.card and old.is_enemy:
        return (f"HP {max(new.hp, 0)}/{new.card.hp}, AP {new.ap}/{new.card.ap}"
                + "".join(f", +{effect_text(e)}" for e in new.effects))
    parts = [f"{label} {a}->{b}" for label, a, b in (
        ("HP", max(old.hp, 0), max(new.hp, 0)), ("AP", old.ap, new.ap),
        ("rest", old.rest, new.rest), ("boost", old.boost, new.boost)) if a != b]
    parts += _effects_moved(old.effects, new.effects)
    if new.dead and not old.dead:
        parts.append("defeated" if new.is_enemy else "dead")
    return ", ".join(parts)


def _effects_moved(old: tuple[Effect, ...], new: tuple[Effect, ...]) -> list[str]:
    was = {e.name: e for e in old}
    now = {e.name: e for e in new}
    out = []
    for name, e in now.items():
        if name not in was:
            out.append(f"+{effect_text(e)}")
        elif was[name].cubes != e.cubes:
            out.append(f"{name.capitalize()} {was[name].cubes}->{e.cubes}")
    out += [f"-{name.capitalize()}" for name in was if name not in now]
    return out


def _turn_changed(before: SpiresEnd, after: SpiresEnd) -> list[str]:
    fight, then = after.fight, before.fight
    if fight is None or not fight.under_way:
        return []
    actor = after.actor()
    if then is not None and then.under_way and (then.round, then.turn) == (fight.round,
                                                                          fight.turn):
        return []
    if actor is None:
        return [f"Round {fight.round}: no ally in play"]
    return [f"Round {fight.round}: {actor.name}'s turn"]


def _fighter_json(f: Fighter) -> dict[str, Any]:
    return {
        "name": f.name, "hp": max(f.hp, 0), "hp_max": f.card.hp, "ap": f.ap, "ap_max": f.card.ap,
        "dead": f.dead, "rest": f.rest, "boost": f.boost,
        "effects": [{"name": e.name, "turns": None if e.persistent else e.cubes,
                     "persistent": e.persistent, "amount": e.cubes} for e in f.effects],
    }


def game_json(game: SpiresEnd) -> dict[str, Any]:
    fight = game.fight
    return {
        "allies": [_fighter_json(a) | {"slot": _slot(game, a.name)} for a in game.allies],
        "dead": list(game.dead),
        "death_moves_due": list(game.dying),
        "journey_over": game.journey_over,
        "fight": None if fight is None else {
            "enemy": _fighter_json(fight.enemy), "round": fight.round,
            "turn": game.actor().name if game.actor() else None,  # type: ignore[union-attr]
            "outcome": fight.outcome,
        },
        "resolved": list(game.resolved),
    }


def _slot(game: SpiresEnd, name: str) -> int | None:
    return game.slots.index(name) + 1 if name in game.slots else None


# -- the game's part of the state (journal/core/shown.py) --------------------------------------

def state_lines(game: SpiresEnd) -> list[str]:
    return lines(game)


def quiet_lines(game: SpiresEnd) -> list[str]:
    """The lines without what the latest Spire's End event did (after another command)."""
    return lines(game, told=False)


def state_changes(before: object, after: SpiresEnd) -> list[str]:
    """What the latest event did and every number it changed, for every ally and the
    enemy (for `spire replay`); nothing if it left this state alone."""
    if before is after:
        return []
    return changes(before if isinstance(before, SpiresEnd) else SpiresEnd(), after)


def state_json(game: SpiresEnd) -> dict[str, Any]:
    return game_json(game)
