"""Spire's End's odds told to people: a death move due (before anything else), the bars of
the ally whose turn it is (or, once its action is behind it, its recoup and the next ally's
bars), the enemy's selection roll and its bars (the data is journal/games/spires_end/odds.py's)."""

from __future__ import annotations

from typing import Any

from journal.core.words import listed, percent, possessive
from journal.games.spires_end.allowed import DEATH_MOVE
from journal.terminal import say


def show_odds(found: dict[str, Any], advise: bool) -> None:
    """The fight's odds, a line each (`advise` adds nothing: Spire's End has no finesse)."""
    for line in odds_lines(found):
        say(line)


def odds_lines(found: dict[str, Any]) -> list[str]:
    """Each bar of the ally whose turn it is, or what follows its action; the enemy's
    selection roll and its bars."""
    enemy = found["enemy"]
    lines = [(f"{enemy['name']}: HP {enemy['hp']}, AP {enemy['ap']}; round {found['round']}, "
              f"{possessive(found['turn'])} turn")]
    if found["death"] is not None:
        return lines + _death_lines(found["death"], enemy["name"])
    its_turn = found["turn"] == enemy["name"]
    enemy_lines = [] if found["enemy_turn"] is None else _enemy_lines(
        enemy["name"], found["enemy_turn"], "next" if its_turn else "on its turn")
    if its_turn:
        lines += enemy_lines
    if found["ally"] is not None:
        lines += _ally_lines(found["ally"], "next")
    if found["recoup"] is not None:
        lines += _recoup_lines(found["recoup"])
    if found["after_upkeep"] is not None:
        lines.append(f"Then, from the fight as {possessive(found['after_upkeep'])} upkeep "
                     "leaves it (before any recoup):")
    if found["upkeep_ends"] is not None:
        lines.append(f"  the upkeep ends the fight: {found['upkeep_ends']}")
    if found["upkeep_death"] is not None:
        lines.append(f"  {possessive(found['upkeep_death'])} death move comes first "
                     f"(`{DEATH_MOVE}`): nothing after it is weighed")
    if found["next_ally"] is not None:
        lines += _ally_lines(found["next_ally"], "on its turn")
    return lines if its_turn else lines + enemy_lines


def _death_lines(death: dict[str, Any], enemy: str) -> list[str]:
    """The death move due, the one move the rules allow, and what its bar does."""
    name = death["ally"]
    lines = [f"{possessive(name)} death move is due: `{death['command']}` makes it",
             "  (the rules refuse every other step until it is made)"]
    if not death["entered"]:
        return [*lines, f"  {possessive(name)} death bar was not entered"]
    outcome = death["outcome"]
    if outcome is None:
        return [*lines, f"  {death['bar'] or 'its death bar'} needs no roll: nothing to weigh"]
    return [*lines, f"  {death['bar'] or 'death bar'} on {enemy}: HP lost "
            f"{_spread(outcome['hp_lost'], outcome['kills'])}; falls {percent(outcome['falls'])}"]


def _held(fighter: dict[str, Any]) -> str:
    """What keeps the fighter from acting: "has acted", "is stunned and exhausted"."""
    parts = [f"has {fighter['done']}"] if fighter["done"] else []
    if fighter["blocked"]:
        parts.append(f"is {listed(fighter['blocked'])}")
    return " and ".join(parts) or "has no action"


def _steps(fighter: dict[str, Any], when: str) -> str:
    return f"{fighter['name']} {_held(fighter)}: {listed(fighter['steps'], 'or')} {when}"


def _ally_lines(ally: dict[str, Any], when: str) -> list[str]:
    if "action" not in ally["steps"]:
        return [_steps(ally, when)]
    forced = ally["forced"]
    if forced is not None and forced["target"] is not None:
        whom = "themself" if forced["target"] == ally["name"] else forced["target"]
        target = forced["target"]
        lines = [f"{forced['by'].capitalize()}: {ally['name']} attacks {whom}, at no HP cost",
                 f"{ally['name']}'s bars: HP {target} loses (after {possessive(target)} AP), "
                 f"and the chance {target} falls"]
    else:
        lines = [f"{ally['name']}'s bars: HP the enemy loses (after its AP), and the chance "
                 "it falls"]
    bars = sorted([*ally["bars"], *ally["refused"]], key=lambda b: b["bar"])
    return lines + [_bar_line(ally["name"], bar) for bar in bars]


def _bar_line(name: str, bar: dict[str, Any]) -> str:
    head = f"  {bar['bar']} {bar['name'] or 'bar'} (cost {bar['cost']}"
    if "why" in bar:
        return f"{head}): refused, {bar['why']}"
    dies = f", all of {possessive(name)} HP: {name} dies after it" if bar["dies"] else ""
    return f"{head}{dies}): {_spread(bar['hp_lost'], bar['kills'])}; falls {percent(bar['falls'])}"


def _recoup_lines(recoup: dict[str, Any]) -> list[str]:
    who = possessive(recoup["by"])
    if not recoup["entered"]:
        return [f"{who} recoup: its bar was not entered (spire card add)"]
    rested = ", after the rest" if recoup["rested"] else ""
    lines = [f"{who} recoup{rested}, to {recoup['by']}: what each recoup gives, over every "
             "roll of the d8"]
    for kind in recoup["kinds"]:
        line = f"  {kind['kind']}: {kind['points']} gained {_spread(kind['gained'])}"
        if set(kind["boost"]) != {"0"}:
            line += f"; boost meter +{_spread(kind['boost']).replace(', ', ', +')}"
        if recoup["cleanse"]:
            line += f"; an effect cleansed {percent(kind['cleansed'])}"
        lines.append(line)
    return lines


def _enemy_lines(name: str, turn: dict[str, Any], when: str) -> list[str]:
    if "action" not in turn["steps"]:
        return [_steps({**turn, "name": name}, when)]
    forced = turn["forced"]
    picked = ", ".join(f"{who} {percent(p)}" for who, p in turn["selected"].items())
    by = forced["by"].capitalize() if forced is not None else ""
    bar = f"bar {forced['bar']}" if forced is not None and forced["bar"] is not None else ""
    if forced is not None and forced["target"] is not None:
        whom = "itself" if forced["target"] == name else forced["target"]
        head = f"{by}: {name} attacks {whom}{' with ' + bar if bar else ''}, whatever the " \
            f"selection roll{' and the action card' if bar else ''}"
    else:
        head = f"selection roll {picked or 'finds no ally'}"
        head += f"; {by} forces {bar}, whatever the action card" if bar else ""
    lines = [f"{possessive(name)} turn: {head}"]
    for bar in turn["bars"]:
        for who, outcome in bar["against"].items():
            lost = _spread(outcome["hp_lost"], outcome["kills"])
            lines.append(f"  {bar['bar']} {bar['name'] or 'bar'} on {who}: HP lost {lost}; "
                         f"falls {percent(outcome['falls'])}")
    return lines


def _spread(chances: dict[str, Any], kills: str | None = None) -> str:
    """Each value and its chance; the HP loss that `kills` (all the target has) said so."""
    return ", ".join(f"{k}{' (all: falls)' if k == kills else ''}: {percent(p)}"
                     for k, p in chances.items())
