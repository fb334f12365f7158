"""What the table needs to see: each ally's cubes and KO, the hive, the enemies, the
round, whose turn it is and what comes next; as plain text lines and JSON (no Rich)."""

from __future__ import annotations

from typing import Any

from journal.games import load
from journal.games.volume2.state import (
    LETTERS,
    Encounter,
    Fighter,
    Foe,
    Turn,
    Volume2,
    Waterfall,
)

GAME = load("volume2")


def ally_line(a: Fighter) -> str:
    if a.ko:
        return f"Ally {a.name}: KO'd"
    return f"Ally {a.name}: HP {a.hp}/{a.hp_max}, AP {a.ap}/{a.ap_max}" + \
        (", has acted" if a.acted else "")


def foe_line(f: Foe, round_: int) -> str:
    if f.out:
        return f"Enemy {f.name}: {f.out}"
    left = rounds_left(f, round_)
    retreat = "never retreats" if left is None else \
        f"{left} round{'s' if left != 1 else ''} left"
    return f"Enemy {f.name}: HP {f.hp}/{f.card.hp}, AP {f.ap}/{f.card.ap}, " \
           f"ferocity {f.ferocity}, {retreat}"


def rounds_left(f: Foe, round_: int) -> int | None:
    """The rounds it still fights, this one included; None: it never retreats."""
    retreat = f.card.retreat
    return max(retreat - round_ + 1, 0) if isinstance(retreat, int) else None


def dice_line(turn: Turn) -> str:
    """`Finnian's dice (3 HP): 1 sickle*, 2 blank, 3 hive* (* locked)`: the positions
    `spire lock` takes, short enough for 80 columns."""
    stars = not turn.final  # once the dice stand, every one is locked
    faces = list(zip(turn.faces, turn.locked, strict=False))
    dice = ", ".join(f"{i} {face}{'*' if lock and stars else ''}"
                     for i, (face, lock) in enumerate(faces, start=1))
    used = [str(i) for i, done in enumerate(turn.used, start=1) if done]
    if stars:  # the legend only under a star shown
        state = " (* locked)" if any(lock for _, lock in faces) else ""
    else:
        state = f"; used {', '.join(used)}" if used else "; they stand"
    return f"{turn.ally}'s dice ({turn.spent} HP): {dice}{state}"


def next_step(enc: Encounter) -> str:
    """Whose turn it is and what comes next."""
    if enc.outcome is not None:
        return f"Encounter {enc.outcome} in round {enc.round}"
    if enc.phase == "enemies":
        foe = enc.acting()
        name = foe.name if foe else "the enemies"
        if enc.target is None and enc.contenders:
            return f"Round {enc.round}: {name} attacks; a tie: " \
                   f"{' and '.join(enc.contenders)} roll again"
        if enc.target is None:
            return f"Round {enc.round}: {name} attacks ({enc.attacks_left} left); target " \
                   "roll next"
        return f"Round {enc.round}: {name}'s attack on {enc.target} next"
    turn = enc.turn
    if turn is None:
        nxt = next((a for a in enc.allies if not a.acted and not a.ko), None)
        who = nxt.name if nxt else "nobody"
        return f"Round {enc.round}: {who}'s turn, spend HP and roll next"
    step = "actions, deploys or upkeep" if turn.final else \
        "lock, re-roll or stop" if turn.rolled else "roll"
    return f"Round {enc.round}: {turn.ally}'s turn, {step} next"


def lines(game: Volume2, told: bool = True) -> list[str]:
    """The lines the table reads after every command; `told`: with what the latest
    Volume 2 event did."""
    enc = game.encounter
    out: list[str] = []
    if enc is not None and enc.under_way:
        out += [ally_line(a) for a in enc.allies]
        out += [foe_line(f, enc.round) for f in enc.enemies]
        if enc.hive:
            out.append("Hive active: bees and pollen may be deployed until the enemies' turn")
        if enc.turn is not None and enc.turn.rolled:
            out.append(dice_line(enc.turn))
        out.append(next_step(enc))
    out += _trading(game) + waterfall_lines(game.waterfall)
    if game.episode_ended is not None:
        out.append("The episode has ended" + (f" on card {game.episode_ended}"
                                               if game.episode_ended else ""))
    out += [f"  {line}" for line in game.resolved] if told else []
    if game.game_over:
        out.append("Every ally in play was KO'd: the game is over.")
    return out


def waterfall_lines(fall: Waterfall | None) -> list[str]:
    """The grid as far as the players have seen it: face-down cards as places only."""
    if fall is None or fall.ended is not None:
        return []
    out = [f"Waterfall: {fall.event}" + (f", row {fall.row} next" if fall.row else "")]
    for row, count in enumerate(fall.rows, start=1):
        names = [str(c) if row == 1 else LETTERS[c - 1] for c in range(1, count + 1)]
        chosen = fall.choice(row)
        if chosen is not None:
            out.append(f"  row {row}: {names[chosen - 1]} chosen, the rest discarded")
            continue
        left = set(fall.left(row))
        shown = " ".join(n if c in left else f"({n} removed)" for c, n in enumerate(names, 1))
        out.append(f"  row {row}: {shown}")
    return out


def _trading(game: Volume2) -> list[str]:
    if not game.trading:
        return []
    most = GAME.raw["trading"]["per_playthrough"]
    return [f"Trading Post Cards, {len(game.trading)} of {most} this playthrough:",
            *(f"  {t.card.name}: {t.card.price()}{', bought' if t.bought else ''}"
              for t in game.trading)]


def _ally_json(a: Fighter) -> dict[str, Any]:
    return {"name": a.name, "hp": a.hp, "hp_max": a.hp_max, "ap": a.ap, "ap_max": a.ap_max,
            "recoup": a.card.recoup, "ko": a.ko, "acted": a.acted}


def _foe_json(f: Foe, round_: int) -> dict[str, Any]:
    return {"name": f.name, "hp": f.hp, "hp_max": f.card.hp, "ap": f.ap, "ap_max": f.card.ap,
            "ferocity": f.ferocity, "retreat": f.card.retreat,
            "rounds_left": rounds_left(f, round_), "out": f.out, "triggered": list(f.triggered)}


def game_json(game: Volume2) -> dict[str, Any]:
    enc = game.encounter
    turn = enc.turn if enc else None
    return {
        "encounter": None if enc is None else {
            "allies": [_ally_json(a) for a in enc.allies],
            "enemies": [_foe_json(f, enc.round) for f in enc.enemies],
            "round": enc.round, "phase": enc.phase,
            "hive": enc.hive, "target": enc.target, "outcome": enc.outcome,
            "acting": enc.acting().name if enc.acting() else None,  # type: ignore[union-attr]
            "attacks_left": enc.attacks_left if enc.phase == "enemies" else None,
            "rerolling": list(enc.contenders),
            "dice": None if turn is None else {
                "ally": turn.ally, "faces": list(turn.faces), "locked": list(turn.locked),
                "used": list(turn.used), "spent": turn.spent, "final": turn.final,
                "deployed": turn.deployed},
            "next": next_step(enc),
        },
        "game_over": game.game_over,
        "episode_ended": game.episode_ended,
        "waterfall": None if game.waterfall is None else {
            "event": game.waterfall.event, "rows": list(game.waterfall.rows),
            "chosen": [list(c) for c in game.waterfall.chosen],
            "removed": [list(r) for r in game.waterfall.removed],
            "next_row": game.waterfall.row, "ended": game.waterfall.ended},
        "trading": [{"item": t.card.name, "meat": t.card.meat, "pelts": t.card.pelts,
                     "kind": t.card.kind, "at": t.at, "bought": t.bought}
                    for t in game.trading],
        "resolved": list(game.resolved),
    }


# -- the game's part of the state (journal/core/shown.py) --------------------------------------

def state_lines(game: Volume2) -> list[str]:
    return lines(game)


def quiet_lines(game: Volume2) -> list[str]:
    """The lines without what the latest Volume 2 event did (after another command)."""
    return lines(game, told=False)


def state_changes(before: object, after: Volume2) -> list[str]:
    """What the latest event did, every number it changed (for `spire replay`): the
    lines it resolved, if it changed this state at all."""
    return [] if before is after else list(after.resolved)


def state_json(game: Volume2) -> dict[str, Any]:
    return game_json(game)
