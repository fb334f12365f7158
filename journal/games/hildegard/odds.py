"""`spire odds` in Hildegard: the target or face-off under way, weighed from where it stands
(journal/games/hildegard/finesse.py, meter_odds.py), as plain data for `--json` and for
the game's insight module to tell people.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from itertools import product
from typing import Any

from journal.core.dice_stats import chance
from journal.core.state import State
from journal.core.words import plural
from journal.errors import Refused
from journal.games.hildegard import finesse, meter_odds
from journal.games.hildegard.combat import players_done, round_bullseyes
from journal.games.hildegard.dice import FACES
from journal.games.hildegard.finesse import NONE, Counts, counts, rolls
from journal.games.hildegard.rules import enemy_up
from journal.games.hildegard.split import Enemy, Pool, defeats_all, pool
from journal.games.hildegard.state import FaceOff, NextSet, Target, hildegard

WILD = ("before any wild shot: the rulebook prints no wild die's faces, so each wild shot "
        "counts as a Miss")


def odds(state: State) -> dict[str, Any]:
    h = hildegard(state)
    target = h.encounter
    if isinstance(target, FaceOff):
        return _face_off(target, h.next_set)
    if not isinstance(target, Target):
        raise Refused("the odds weigh a target or a face-off under way; nothing is under "
                      "way now (`spire target NAME` takes aim)")
    if target.outcome is not None:
        raise Refused(f"{target.card.name} is over ({target.outcome}); nothing left to weigh")
    at = finesse.position(target, h.effects_for(target.shooter))
    why = finesse.too_big(dataclasses.replace(at, feats=state.resources.get("feats", 0)))
    if why is not None:
        raise Refused(f"{target.card.name}: {why}")
    hit, bonus_on_hit = finesse.chances(at, "hit")
    found: dict[str, Any] = {
        "game": "hildegard", "kind": "target", "target": target.card.name,
        "bullseyes": at.made, "limit": at.aim.limit, "sets_left": target.sets_left,
        "set_under_way": _set_json(at),
        "next_set": {"dice": at.next_size, "graze": at.next_graze} if at.sets else None,
        "wild_shot": WILD,
        "hit": chance(hit),
        "bonus": None,
        "advice": _advice(target.shot, at),
    }
    feats = state.resources.get("feats", 0)
    if feats > 0:
        spent = dataclasses.replace(at, feats=feats)
        found["spending"] = {"feats": feats,
                             "hit": chance(finesse.chances(spent, "hit")[0])}
    if at.aim.has_bonus:
        for_bonus, _ = finesse.chances(at, "bonus")
        found["bonus"] = {"challenge": _challenge(target), "done": at.aim.bonus_done,
                          "on_that_play": chance(bonus_on_hit),
                          "playing_for_it": chance(for_bonus)}
    return found


def _face_off(fight: Any, waiting: Any) -> dict[str, Any]:
    """The players' sets of a face-off round: the chance they bring the first enemy
    standing to its limit this round."""
    if fight.outcome is not None:
        raise Refused(f"the face-off is over ({fight.outcome}); nothing left to weigh")
    if fight.turn != "players" or players_done(fight):
        return _enemy_turn(fight)
    if fight.tag_team:
        raise Refused("Tag Team pools the players' dice: spire does not weigh it yet")
    at = finesse.face_off_position(fight, waiting)
    why = finesse.too_big(at)
    if why is not None:
        raise Refused(f"the face-off: {why}")
    going = next((s for _, s in fight.shots if s.rolled and not s.finesse_over), None)
    standing = fight.standing()
    foe = standing[0]
    defeat = finesse.chances(at, "hit")[0] if len(standing) == 1 else \
        _defeat_all(fight, waiting)
    reach = {n: finesse.chances(_needing(at, n))[0]
             for n in range(1, max(at.aim.limit - at.made, 0) + 1)}
    # Out of reach this round, the advice plays for the most bullseyes the dice can still make.
    aim_for = max((n for n, p in reach.items() if p > 0), default=0)
    # The round's bullseyes as its dice stand, the set under way's too, as the status says
    # them: "You have another Bullseye. That's 2. You roll your Wild Shot." (Face-Off
    # Scenario). Those still to come are the ones beyond them.
    shown = round_bullseyes(fight).get(foe.card.name, 0)
    beyond = max(shown - at.made, 0)
    at_least = {n - beyond: p for n, p in reach.items() if n > beyond}
    return {
        "game": "hildegard", "kind": "face-off", "enemy": foe.card.name,
        "round": fight.round, "bullseyes": foe.bullseyes, "limit": foe.card.bullseye_limit,
        "this_round": shown, "sets_left": at.sets + (at.going is not None),
        "set_under_way": _set_json(at),
        "next_set": {"dice": at.next_size, "graze": at.next_graze} if at.sets else None,
        "wild_shot": WILD,
        "enemies": [f.card.name for f in standing],
        "defeat": chance(defeat),
        "at_least": {str(n): chance(p) for n, p in at_least.items()},
        "advice": {"for": at.made + aim_for if aim_for else 0,
                   **_advice(going, _needing(at, aim_for) if aim_for else at)},
        "enemy_set": _enemy_set(fight, foe.card, weighed_or_none=True),
    }


def _defeat_all(fight: FaceOff, waiting: NextSet) -> Fraction:
    """The chance the players' sets this round, with the best finesse, defeat every enemy
    standing: "your rolls can be split up however you like", each enemy's bullseyes formed
    with its own parts (`split.defeats_all`). Weighed as `finesse` weighs one enemy's (its
    wild shots a Miss, no feats spent), on the round's pool of bullseyes instead of a count."""
    enemies = tuple((f.card.name, f.card.parts, f.card.bullseye_limit - f.bullseyes)
                    for f in fight.standing())
    effects = fight.round_effects or waiting
    size = max(fight.meter.accuracy + effects.hone - effects.flub, 0)
    done = [s for _, s in fight.shots if s.rolled and s.finesse_over]
    have = sum((pool(s.final(), s.extra) for s in done), Pool())
    going = next((s for _, s in fight.shots if s.rolled and not s.finesse_over), None)
    fresh = len(fight.shooters) - len(fight.shots)
    weigh = _Round(enemies, size, effects.graze)
    if going is None:
        return weigh.fresh(_tally(have), fresh)
    locked = counts(tuple(going.dice[i] for i in going.unused if i in going.locked))
    free = counts(tuple(going.dice[i] for i in going.free))
    tally = _tally(have + Pool(extra=going.extra))
    return weigh.choose(locked, free, going.fresh_lock or going.hit, tally, fresh)


Tally = tuple[int, int, int]
"""A round's pool so far: crescent pairs, ring + dot pairs, bullseyes that need no dice."""


def _tally(have: Pool) -> Tally:
    return have.crescents, have.rings, have.extra


class _Round:
    """The expectimax of `finesse` over a face-off round's sets, each set's final results
    added to the round's pool, the pool worth 1 when it defeats every enemy."""

    def __init__(self, enemies: tuple[Enemy, ...], size: int, graze: bool) -> None:
        self.enemies, self.size, self.graze = enemies, size, graze
        self.cap = sum(need for _, _, need in enemies)
        self.memo: dict[tuple[Any, ...], Fraction] = {}

    def won(self, tally: Tally) -> Fraction:
        return Fraction(int(defeats_all(Pool(*tally), self.enemies)))

    def after(self, final: Counts, tally: Tally, fresh: int) -> Fraction:
        c, r, e = tally
        c, r = min(c + final[0] // 2, self.cap), min(r + min(final[1], final[2]), self.cap)
        return self.fresh((c, r, e), fresh)

    def fresh(self, tally: Tally, fresh: int) -> Fraction:
        if fresh <= 0:
            return self.won(tally)
        key = ("fresh", tally, fresh)
        if key not in self.memo:
            self.memo[key] = sum((p * (self.after(result, tally, fresh - 1)
                                       if self.size <= 1 or self.graze else
                                       self.choose(NONE, result, False, tally, fresh - 1))
                                  for result, p in rolls(self.size)), Fraction(0))
        return self.memo[key]

    def choose(self, locked: Counts, free: Counts, fresh_lock: bool,
                tally: Tally, fresh: int) -> Fraction:
        key = ("finesse", locked, free, fresh_lock, tally, fresh)
        if key in self.memo:
            return self.memo[key]
        best = Fraction(0)
        for c, r, d, b in product(*(range(k + 1) for k in free)):
            kept: Counts = (locked[0] + c, locked[1] + r, locked[2] + d, locked[3] + b)
            if (c, r, d, b) == free:  # stop: the dice stand
                best = max(best, self.after(kept, tally, fresh))
            elif c + r + d + b or fresh_lock:
                best = max(best, self.reroll(kept, sum(free) - c - r - d - b, tally, fresh))
        self.memo[key] = best
        return best

    def reroll(self, locked: Counts, n: int, tally: Tally, fresh: int) -> Fraction:
        total = Fraction(0)
        for result, p in rolls(n):
            kept: Counts = (locked[0] + result[0], locked[1] + result[1],
                            locked[2] + result[2], locked[3] + result[3])
            total += p * (self.after(kept, tally, fresh) if n <= 1
                          else self.choose(locked, result, False, tally, fresh))
        return total


def _enemy_set(fight: Any, enemy: Any, weighed_or_none: bool = False) -> dict[str, Any] | None:
    """What `enemy`'s next set does to the meter as it stands: the chance each square is
    hit once the set is over, and that the meter is full (the face-off lost). A set past
    what the odds weigh is refused, or with `weighed_or_none` (beside the players' odds)
    left out: None."""
    if enemy.accuracy > meter_odds.MOST_DICE:
        if weighed_or_none:
            return None
        raise Refused(f"{enemy.name}: the odds weigh an enemy's set of at most "
                      f"{meter_odds.MOST_DICE} dice, not {enemy.accuracy}")
    outcomes = meter_odds.enemy_set(fight.meter, fight.marks, enemy.accuracy)
    hit = meter_odds.squares_hit(outcomes, fight.marks)
    full = sum((p for marks, p in outcomes.items() if all(m == "hit" for m in marks)),
               Fraction(0))
    return {"enemy": enemy.name, "dice": enemy.accuracy,
            "squares": [chance(p) for p in hit], "meter_full": chance(full)}


def _enemy_turn(fight: Any) -> dict[str, Any]:
    """The enemy's turn, before its set is rolled: what that set does to the meter."""
    shot = fight.enemy_shot
    if shot is not None and shot.rolled:
        raise Refused("the enemy's set is under way: `spire odds` weighs it before its first "
                      "roll")
    enemy = enemy_up(fight)
    return {"game": "hildegard", "kind": "enemy-set", "round": fight.round,
            "wild_shot": "the enemy rolls no wild shot",
            "enemy_set": _enemy_set(fight, enemy)}


def _needing(at: Any, more: int) -> Any:
    """The position with its aim `more` bullseyes past those made this round."""
    return dataclasses.replace(at, aim=dataclasses.replace(at.aim, limit=at.made + more))


def _set_json(at: Any) -> dict[str, Any] | None:
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
        return plural(bonus.bullseyes, "bullseye")
    return "+".join(bonus.combination or ())


def _advice(shot: Any, at: Any) -> dict[str, Any]:
    """The finesse choice that gives the best chance to hit now, and every other one."""
    options = finesse.choices(at, "hit")
    if not options:
        step = "roll the next set" if at.going is None else "roll the wild shot"
        return {"now": step, "choices": []}
    listed = [{"lock": [] if c.stop else list(finesse.positions(shot, c.lock)),
               "stop": c.stop,
               "rerolled": sum(at.going.free) - sum(c.lock), "hit": chance(c.chances[0])}
              for c in options]
    return {"now": "stop" if options[0].stop else "lock", "choices": listed}
