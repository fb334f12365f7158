"""Spire's End's odds told to people: the bars of the ally whose turn it is, the enemy's
selection roll and its bars (the data is journal/games/spires_end/odds.py's)."""

from __future__ import annotations

from typing import Any

from journal.core.words import percent, possessive
from journal.terminal import say


def show_odds(found: dict[str, Any], advise: bool) -> None:
    """The fight's odds, a line each (`advise` adds nothing: Spire's End has no finesse)."""
    for line in odds_lines(found):
        say(line)


def odds_lines(found: dict[str, Any]) -> list[str]:
    """Each bar of the ally whose turn it is; the enemy's selection roll and its bars."""
    enemy = found["enemy"]
    lines = [(f"{enemy['name']}: HP {enemy['hp']}, AP {enemy['ap']}; round {found['round']}, "
              f"{possessive(found['turn'])} turn")]
    ally = found["ally"]
    if ally is not None:
        lines += _ally_lines(ally)
    return lines + _enemy_lines(enemy["name"], found["enemy_turn"])


def _ally_lines(ally: dict[str, Any]) -> list[str]:
    if ally["stunned"]:
        return [f"{ally['name']} is stunned: no action this turn (recoup or rest)"]
    lines = [f"{ally['name']}'s bars: HP the enemy loses (after its AP), and the chance it "
             "falls"]
    for bar in ally["bars"]:
        lines.append(f"  {bar['bar']} {bar['name'] or 'bar'} (cost {bar['cost']}): "
                     f"{_spread(bar['hp_lost'])}; falls {percent(bar['falls'])}")
    return lines


def _enemy_lines(name: str, turn: dict[str, Any]) -> list[str]:
    if turn["stunned"]:
        return [f"{name} is stunned: no action on its turn (recoup and upkeep remain)"]
    picked = ", ".join(f"{who} {percent(p)}" for who, p in turn["selected"].items())
    lines = [f"{possessive(name)} turn: selection roll {picked or 'finds no ally'}"]
    for bar in turn["bars"]:
        for who, outcome in bar["against"].items():
            lines.append(f"  {bar['bar']} {bar['name'] or 'bar'} on {who}: HP lost "
                         f"{_spread(outcome['hp_lost'])}; falls {percent(outcome['falls'])}")
    return lines


def _spread(chances: dict[str, Any]) -> str:
    return ", ".join(f"{k}: {percent(p)}" for k, p in chances.items())
