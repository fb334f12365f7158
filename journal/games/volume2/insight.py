"""Volume 2's odds told to people: each ally's combinations by HP spent, each enemy's
target roll and damage (the data is journal/games/volume2/odds.py's)."""

from __future__ import annotations

from typing import Any

from journal.core.words import percent, plural
from journal.terminal import emit, say


def show_odds(found: dict[str, Any], advise: bool) -> None:
    """Each ally's combinations by HP spent; each enemy's target roll and damage."""
    from rich.table import Table

    for ally in found["allies"]:
        if not ally["combinations"]:
            say(f"{ally['ally']} (HP {ally['hp']}): no combinations entered", "bold")
            continue
        say(f"{ally['ally']} (HP {ally['hp']}, {ally['dice']} dice): the chance each "
            "combination stands, by HP spent, with the best finesse", "bold")
        spent = list(ally["combinations"][0]["by_hp_spent"])
        now = ally["turn"] is not None and any("now" in c for c in ally["combinations"])
        table = Table(box=None, pad_edge=False, show_edge=False)
        table.add_column("combination")
        for n in spent:
            table.add_column(f"{n} HP", justify="right")
        table.add_column("best", justify="right")
        if now:
            table.add_column("now", justify="right")
        for combo in ally["combinations"]:
            cells = [percent(combo["by_hp_spent"][n]) for n in spent]
            best = f"{combo['best_hp']} HP" if combo["best_hp"] is not None else "-"
            table.add_row(f"{combo['name']} ({'+'.join(combo['faces'])}: {combo['does']})",
                          *cells, best,
                          *([percent(combo["now"])] if now and "now" in combo else []))
        emit(table)
        if advise:
            for line in advice_lines(ally):
                say(line)
    if advise and not any(a["turn"] and a["turn"]["faces"] for a in found["allies"]):
        say("advice  no dice rolled yet: `best` is the HP that buys the most chance per HP; "
            "once they are, the lock best for each row")
    for enemy in found["enemies"]:
        for line in enemy_lines(enemy):
            say(line)


def enemy_lines(enemy: dict[str, Any]) -> list[str]:
    quick = f", QUICKDRAW on {enemy['quickdraw']} or less ({percent(enemy['another_attack'])}" \
        " another attack)" if enemy["quickdraw"] is not None else ""
    head = f"{enemy['enemy']}: ferocity {enemy['ferocity']}, {plural(enemy['attacks'], 'attack')}" \
        f" this turn{quick}"
    if not enemy["table_entered"]:
        return [head, ("  its damage table is not entered (`spire card add`): every "
                       "attack reads as a miss")]
    targeted = ", ".join(f"{name} {percent(p)}" for name, p in enemy["targeted"].items())
    attack = ", ".join(f"{d}: {percent(p)}" for d, p in enemy["attack_damage"].items())
    turn = ", ".join(f"{d}: {percent(p)}" for d, p in enemy["turn_damage"].items()
                     if p["value"] >= 0.0005)
    return [head, f"  targeted    {targeted}", f"  one attack  damage {attack}",
            f"  its turn    damage {turn}"]


def advice_lines(ally: dict[str, Any]) -> list[str]:
    """With `--advise`, for the ally whose dice are rolled: the finesse choice best for each
    combination, and its chance."""
    turn = ally["turn"]
    if turn is None:
        return []
    name = ally["ally"]
    if not turn["faces"]:
        return []
    rows = [c for c in ally["combinations"] if "advice" in c]
    if not any(c["advice"] for c in rows):
        return [f"advice  {name}'s dice stand: nothing left to lock"]
    lines: list[str] = []
    for combo in rows:
        best = combo["advice"][0]
        rerolled = plural(best["rerolled"], "die")
        step = "stop (spire stop)" if best["stop"] else \
            f"lock {' '.join(map(str, best['lock']))}, re-roll {rerolled}" if best["lock"] \
            else f"re-roll {rerolled}"
        lines.append(f"{'advice' if not lines else '':<8}{combo['name']}: {step}: "
                     f"{percent(best['chance'])}")
    return lines
