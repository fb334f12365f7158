"""What `spire map` and `spire odds` show people: Rich tables and plain lines.

Only the cards the map holds are shown, and the map holds only cards the players saw; the
numbers between them are a count, never numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from journal.terminal import emit, say
from journal.words import against, plural

if TYPE_CHECKING:
    from journal.mapping import Road, Seen, StoryMap


def story_map(found: StoryMap) -> None:
    """The cards seen by chapter (with the numbers skipped between them), then the roads."""
    from journal.games import game

    roads, seen = len(found.roads), len(found.cards)
    say(f"Story map of {game(found.game).title}: {_count(len(found.campaigns), 'campaign')}, "
        f"{_count(roads, 'road')}, {_count(seen, 'card')} seen", "bold")
    if not found.cards:
        say("No story card reached yet.")
    else:
        say(chapter_line(found))
        emit(_cards_table(found))
    say("")
    say("Roads (* the current one; a branch's own cards, after where it parted):", "bold")
    for line in road_lines(found):
        say(line)


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _cards_table(found: StoryMap) -> object:
    """The cards seen in number order; between two, how many numbers no road reached."""
    from rich.table import Table

    table = Table(box=None, pad_edge=False, show_edge=False)
    for column, justify in (("card", "right"), ("chapter", "right"), ("times", "right"),
                            ("first seen", "left"), ("first on", "left"), ("roads", "right")):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    gaps = {g.after: g.skipped for g in found.gaps}
    for seen in found.cards:
        table.add_row(*_card_row(seen))
        if seen.card in gaps:
            table.add_row("…", "", "", f"{_count(gaps[seen.card], 'number')} skipped",
                          style="dim")
    return table


def chapter_line(found: StoryMap) -> str:
    """How many cards were first seen in each chapter."""
    parts = [f"{'before any chapter' if chapter is None else f'chapter {chapter}'}: "
             f"{len(cards)}" for chapter, cards in found.chapters()]
    return "Cards first seen by chapter: " + "; ".join(parts)


def _card_row(seen: Seen) -> tuple[str, ...]:
    first = seen.first_at[:16].replace("T", " ")
    chapter = "-" if seen.chapter is None else str(seen.chapter)
    return (str(seen.card), chapter, str(seen.times), first, seen.first_road,
            str(len(seen.roads)))


def road_lines(found: StoryMap) -> list[str]:
    """Each campaign's roads as a tree: the root's whole path, each branch's own cards."""
    lines = []
    for campaign in found.campaigns:
        roads = [r for r in found.roads if r.campaign == campaign]
        lines.append(f"{campaign}")
        lines += _walk(roads, None, 1, found.current)
    return lines


def _walk(roads: list[Road], parent: str | None, depth: int, current: str) -> list[str]:
    lines = []
    for road in (r for r in roads if r.parent == parent):
        mark = "*" if road.name == current else " "
        cards = road.reaches if road.parent is None else road.own
        path = " → ".join(str(r.card) for r in cards) or "(no card)"
        parted = ""
        if road.parent is not None and road.fork is not None:
            at = road.card_at(road.fork)
            parted = f" (from {road.parent} at #{road.fork}" + \
                (f", card {at})" if at is not None else ")")
        lines.append(f"{mark} {'  ' * depth}{road.branch}{parted}: {path}")
        lines += _walk(roads, road.branch, depth + 1, current)
    return lines


# -- spire odds ------------------------------------------------------------------------------

def odds(found: dict[str, Any], advise: bool) -> None:
    """A target's chances, exact and in percent, and with `advise` the finesse choices."""
    if found["game"] == "volume2":
        volume2_odds(found)
        return
    if found["game"] == "spires-end":
        for line in spires_end_lines(found):
            say(line)
        return
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
                               f"{_count(spending['feats'], 'feat')} at best (hone 1, "
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
    squares = " ".join(f"{n}:{_short(p)}" for n, p in enumerate(found["squares"], start=1))
    return (f"enemy   {found['enemy']}'s next set ({plural(found['dice'], 'die')}) leaves each square "
            f"hit: {squares}; the meter full: {_short(found['meter_full'])}")


def face_off_rows(found: dict[str, Any]) -> list[tuple[str, str]]:
    under_way = found["set_under_way"]
    where = (f"{against(found['bullseyes'], found['limit'], 'bullseye')}, {found['this_round']} "
             f"more this round, round {found['round']}")
    if under_way is not None:
        where += ", the set under way: " + _dice(under_way)
    rows = [("enemy", f"{found['enemy']}: {where}")]
    if found["next_set"] is not None:
        rows.append(("next", f"a fresh set rolls {plural(found['next_set']['dice'], 'die')}"))
    rows.append(("defeat", f"{_percent(found['defeat'])} this round, with the best finesse"))
    more = [f"{n}+ {_short(p)}" for n, p in found["at_least"].items() if p["value"] > 0]
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


def _short(chance: dict[str, Any]) -> str:
    return f"{100 * chance['value']:.1f}%"


def volume2_odds(found: dict[str, Any]) -> None:
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
            cells = [_short(combo["by_hp_spent"][n]) for n in spent]
            best = f"{combo['best_hp']} HP" if combo["best_hp"] is not None else "-"
            table.add_row(f"{combo['name']} ({'+'.join(combo['faces'])}: {combo['does']})",
                          *cells, best,
                          *([_short(combo["now"])] if now and "now" in combo else []))
        emit(table)
    for enemy in found["enemies"]:
        for line in enemy_lines(enemy):
            say(line)


def enemy_lines(enemy: dict[str, Any]) -> list[str]:
    quick = f", QUICKDRAW on {enemy['quickdraw']} or less ({_short(enemy['another_attack'])}" \
        " another attack)" if enemy["quickdraw"] is not None else ""
    head = f"{enemy['enemy']}: ferocity {enemy['ferocity']}, {_count(enemy['attacks'], 'attack')}" \
        f" this turn{quick}"
    if not enemy["table_entered"]:
        return [head, ("  its damage table is not entered (`spire card add`): every "
                       "attack reads as a miss")]
    targeted = ", ".join(f"{name} {_short(p)}" for name, p in enemy["targeted"].items())
    attack = ", ".join(f"{d}: {_short(p)}" for d, p in enemy["attack_damage"].items())
    turn = ", ".join(f"{d}: {_short(p)}" for d, p in enemy["turn_damage"].items()
                     if p["value"] >= 0.0005)
    return [head, f"  targeted    {targeted}", f"  one attack  damage {attack}",
            f"  its turn    damage {turn}"]


def spires_end_lines(found: dict[str, Any]) -> list[str]:
    """Each bar of the ally whose turn it is; the enemy's selection roll and its bars."""
    enemy = found["enemy"]
    lines = [(f"{enemy['name']}: HP {enemy['hp']}, AP {enemy['ap']}; round {found['round']}, "
              f"{found['turn']}'s turn")]
    ally = found["ally"]
    if ally is not None:
        lines.append(f"{ally['name']}'s bars: HP the enemy loses (after its AP), and the "
                     "chance it falls")
        for bar in ally["bars"]:
            lines.append(f"  {bar['bar']} {bar['name'] or 'bar'} (cost {bar['cost']}): "
                         f"{_spread(bar['hp_lost'])}; falls {_short(bar['falls'])}")
    turn = found["enemy_turn"]
    picked = ", ".join(f"{who} {_short(p)}" for who, p in turn["selected"].items())
    lines.append(f"{enemy['name']}'s turn: selection roll {picked or 'finds no ally'}")
    for bar in turn["bars"]:
        for who, outcome in bar["against"].items():
            lines.append(f"  {bar['bar']} {bar['name'] or 'bar'} on {who}: HP lost "
                         f"{_spread(outcome['hp_lost'])}; falls {_short(outcome['falls'])}")
    return lines


def _spread(chances: dict[str, Any]) -> str:
    return ", ".join(f"{k}: {_short(p)}" for k, p in chances.items())
