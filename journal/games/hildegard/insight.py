"""Hildegard's odds told to people: a target's or a face-off's chances, exact and in
percent, the finesse advice, and what the enemy's next set does to the meter (the data
is journal/games/hildegard/odds.py's, as `spire odds --json` gives it)."""

from __future__ import annotations

from typing import Any

from journal.core.words import against, percent, plural, possessive
from journal.terminal import say


def show_odds(found: dict[str, Any], advise: bool) -> None:
    """A target's chances, exact and in percent, and with `advise` the finesse choices."""
    if found["kind"] == "enemy-set":
        say(enemy_set_line(found["enemy_set"]))
        return
    if found["kind"] == "face-off":
        for label, value in face_off_rows(found):
            say(f"{label:<8}{value}")
        if advise:
            wanted = found["advice"]["for"]
            goal = "to defeat it" if found["defeat"]["value"] > 0 or not wanted else \
                f"to make {wanted}+ bullseyes"
            if len(found["enemies"]) > 1:  # the advice plays for the first enemy standing
                goal = f"to make {wanted}+ bullseyes on {found['enemy']}"
            for line in advice_lines(found, goal):
                say(line)
        if found["enemy_set"] is not None:  # (None: more dice than the odds weigh)
            say(enemy_set_line(found["enemy_set"]))
        say(f"Odds {found['wild_shot']}.", "dim")
        return
    for label, value in odds_rows(found):
        say(f"{label:<8}{value}")
    if advise:
        for line in advice_lines(found):
            say(line)
    say(f"Odds {found['wild_shot']}.", "dim")


def _percent(chance: dict[str, Any]) -> str:
    return f"{100 * chance['value']:.2f}% ({chance['fraction']})"


def odds_rows(found: dict[str, Any]) -> list[tuple[str, str]]:
    under_way = found["set_under_way"]
    where = f"{against(found['bullseyes'], found['limit'], 'bullseye')}, " \
        f"{plural(found['sets_left'], 'set')} left"
    if under_way is not None:
        where += ", the set under way: " + _dice(under_way)
    nxt = found["next_set"]
    rows = [("target", f"{found['target']}: {where}")]
    if nxt is not None:
        rows.append(("next", f"a fresh set rolls {plural(nxt['dice'], 'die')}"
                     + (" (Grazed: no finesse)" if nxt["graze"] else "")))
    rows.append(("hit", f"{_percent(found['hit'])} with the best finesse"))
    spending = found.get("spending")
    if spending is not None:
        rows.append(("feats", (f"{_percent(spending['hit'])} spending up to "
                               f"{plural(spending['feats'], 'feat')} at best (hone 1, "
                               "bullseye 2, reset 2)")))
    bonus = found["bonus"]
    if bonus is not None and bonus["done"]:
        rows.append(("bonus", f"{bonus['challenge']}: met already"))
    elif bonus is not None:
        rows.append(("bonus", (f"{bonus['challenge']}: {_percent(bonus['on_that_play'])} on "
                               f"that play; {_percent(bonus['playing_for_it'])} playing "
                               "for it")))
    return rows


def _dice(under_way: dict[str, Any]) -> str:
    locked = ", ".join(f"{n} {face}" for face, n in under_way["locked"].items()) or "none"
    free = ", ".join(f"{n} {face}" for face, n in under_way["free"].items()) or "none"
    if under_way["finesse_over"]:
        return f"finesse over ({locked} {free})".replace(" none", "")
    return f"locked {locked}; free {free}"


def enemy_set_line(found: dict[str, Any]) -> str:
    """The chance the enemy's next set leaves each square hit, and the meter full."""
    squares = " ".join(f"{n}:{percent(p)}" for n, p in enumerate(found["squares"], start=1))
    return (f"enemy   {possessive(found['enemy'])} next set ({plural(found['dice'], 'die')}) "
            f"leaves each square hit: {squares}; "
            f"the meter full: {percent(found['meter_full'])}")


def face_off_rows(found: dict[str, Any]) -> list[tuple[str, str]]:
    under_way = found["set_under_way"]
    where = (f"{against(found['bullseyes'], found['limit'], 'bullseye')}, {found['this_round']} "
             f"more this round, round {found['round']}")
    if under_way is not None:
        where += ", the set under way: " + _dice(under_way)
    rows = [("enemy", f"{found['enemy']}: {where}")]
    if found["next_set"] is not None:
        rows.append(("next", f"a fresh set rolls {plural(found['next_set']['dice'], 'die')}"))
    every = f" (all of {', '.join(found['enemies'])})" if len(found["enemies"]) > 1 else ""
    rows.append(("defeat", f"{_percent(found['defeat'])} this round{every}, with the best "
                 "finesse"))
    more = [f"{n}+ {percent(p)}" for n, p in found["at_least"].items() if p["value"] > 0]
    if more:
        rows.append(("more", "bullseyes still to come this round: " + ", ".join(more)))
    return rows


def advice_lines(found: dict[str, Any], goal: str = "to hit") -> list[str]:
    advice = found["advice"]
    if not advice["choices"]:
        return [f"advice  nothing to finesse now: {advice['now']}"]
    lines = []
    for n, choice in enumerate(advice["choices"]):
        label = "advice" if n == 0 else ""
        lines.append(f"{label:<8}{_choice(choice)}: {_percent(choice['hit'])} {goal}")
    return lines


def _choice(choice: dict[str, Any]) -> str:
    if choice["stop"]:
        return "stop (spire stop)"
    dice = choice["rerolled"]
    again = f"re-roll {dice} {'die' if dice == 1 else 'dice'}"
    if not choice["lock"]:
        return f"{again} now (spire roll)"
    return f"lock {' '.join(map(str, choice['lock']))}, {again}"
