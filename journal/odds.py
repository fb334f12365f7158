"""`spire odds`: what each game's odds module says of the position the journal holds now,
as plain data (a dict for `--json`, rendered for people by journal.render_insight).

Each game computes its own odds beside its rules (journal/games/<game>/odds.py), purely;
this module only finds the position in the state and says what was found.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from journal.errors import Refused
from journal.state import State

WILD = ("before any wild shot: the rulebook prints no wild die's faces, so each wild shot "
        "counts as a Miss")


def chance(value: Fraction) -> dict[str, Any]:
    """A chance for scripts: exact (`fraction`) and as a float (`value`)."""
    return {"fraction": f"{value.numerator}/{value.denominator}", "value": float(value)}


def odds(state: State) -> dict[str, Any]:
    """The odds from where the players stand now; Refused when there is nothing to weigh."""
    if state.game == "hildegard":
        return _hildegard(state)
    raise Refused(f"spire has no odds for {state.game} yet; for Hildegard it weighs a target "
                  "under way")


def _hildegard(state: State) -> dict[str, Any]:
    from journal.games.hildegard import odds as hildegard_odds
    from journal.games.hildegard.state import Target, hildegard

    h = hildegard(state)
    target = h.encounter
    if not isinstance(target, Target):
        what = "a face-off" if target is not None else "nothing"
        raise Refused(f"the odds weigh a target under way; {what} is under way now "
                      "(`spire target NAME` takes aim)")
    if target.outcome is not None:
        raise Refused(f"{target.card.name} is over ({target.outcome}); nothing left to weigh")
    at = hildegard_odds.position(target, h.next_set)
    hit, bonus_on_hit = hildegard_odds.chances(at, "hit")
    found: dict[str, Any] = {
        "game": "hildegard", "kind": "target", "target": target.card.name,
        "bullseyes": at.made, "limit": at.aim.limit, "sets_left": target.sets_left,
        "set_under_way": _set_json(at),
        "next_set": {"dice": at.next_size, "graze": at.next_graze} if at.sets else None,
        "wild_shot": WILD,
        "hit": chance(hit),
        "bonus": None,
        "advice": _advice(target, at),
    }
    if at.aim.has_bonus:
        for_bonus, _ = hildegard_odds.chances(at, "bonus")
        found["bonus"] = {"challenge": _challenge(target), "done": at.aim.bonus_done,
                          "on_that_play": chance(bonus_on_hit),
                          "playing_for_it": chance(for_bonus)}
    return found


def _set_json(at: Any) -> dict[str, Any] | None:
    from journal.games.hildegard.dice import FACES

    going = at.going
    if going is None:
        return None
    def named(counts: tuple[int, ...]) -> dict[str, int]:
        return {face: n for face, n in zip(FACES, counts, strict=True) if n}
    return {"locked": named(going.locked), "free": named(going.free),
            "finesse_over": going.over or not sum(going.free)}


def _challenge(target: Any) -> str:
    bonus = target.card.bonus
    if bonus is None:
        return ""
    if bonus.bullseyes is not None:
        return f"{bonus.bullseyes} bullseyes"
    return "+".join(bonus.combination or ())


def _advice(target: Any, at: Any) -> dict[str, Any]:
    """The finesse choice that gives the best chance to hit now, and every other one."""
    from journal.games.hildegard import odds as hildegard_odds

    options = hildegard_odds.choices(at, "hit")
    if not options:
        step = "roll the next set" if at.going is None else "roll the wild shot"
        return {"now": step, "choices": []}
    shot = target.shot
    listed = [{"lock": list(hildegard_odds.positions(shot, c.lock)), "stop": c.stop,
               "rerolled": sum(at.going.free) - sum(c.lock), "hit": chance(c.chances[0])}
              for c in options]
    return {"now": "stop" if options[0].stop else "lock", "choices": listed}
