"""What comes once a fighter's action is behind it, for `spire odds`: the steps the rules
leave it, its recoup over every roll of the d8, and the fight as its upkeep leaves it for
the next fighter's move.

"Steps: 1) Choose a Recoup. 2) Roll 1D8. 3) Perform results." (Step 2: Recoup): each
recoup the bar prints is weighed on the one who recoups, every roll resolved by
`turns.recoup`, the function that folds the event, so the rest bonus, a rest failed on a 1,
Snuff, the threshold and the boost meter count as they do at the table.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from journal.core.dice_stats import chance
from journal.games.spires_end import events as se
from journal.games.spires_end.allowed import (
    RecoupKind,
    blocking,
    next_steps,
    own_turn,
    recoup_kinds,
    steps,
)
from journal.games.spires_end.effects import is_negative
from journal.games.spires_end.state import Fight, Fighter, SpiresEnd
from journal.games.spires_end.turns import recoup as recouped
from journal.games.spires_end.turns import upkeep

Chances = dict[int, Fraction]


def step_facts(fighter: Fighter, fight: Fight) -> dict[str, Any]:
    """What `fighter`'s turn allows now (`fight` holds its turn's counts): the steps, what
    it has done, the effects that took steps away, and the status's words for them."""
    done = "acted" if fight.actions else "rested" if fight.rested else \
        "recouped" if fight.recouped else None
    return {"stunned": fighter.stunned, "exhausted": fighter.exhausted, "done": done,
            "blocked": list(blocking(fighter, fight)), "steps": list(steps(fighter, fight)),
            "next": next_steps(fighter, fight)}


def after_upkeep(game: SpiresEnd, actor: Fighter) -> SpiresEnd:
    """The game once `actor`'s upkeep is made, with no recoup before it."""
    return upkeep(game, se.UpkeepDone(actor=actor.name))


def recoup(game: SpiresEnd, actor: Fighter) -> dict[str, Any] | None:
    """Each recoup the rules allow `actor` now, on itself, over every roll of the d8: the
    points it gains, those past the threshold that fill its boost meter, and the chance
    its cleanse removes an effect (`cleanse`: the bar prints one, and the one who recoups
    has a negative effect to lose). None: no recoup allowed."""
    if "recoup" not in steps(actor, own_turn(game, actor)):
        return None
    bar = actor.card.recoup
    kinds = recoup_kinds(bar) if bar is not None else ()
    return {"by": actor.name, "entered": bar is not None, "rested": own_turn(game, actor).rested,
            "kinds": [_weighed(game, actor, kind) for kind in kinds],
            "cleanse": bar is not None and bar.cleanse is not None
            and any(is_negative(e.name) for e in actor.effects)}


def _weighed(game: SpiresEnd, actor: Fighter, kind: RecoupKind) -> dict[str, Any]:
    points: Chances = {}
    boost: Chances = {}
    cleansed = Fraction(0)
    for roll in range(1, 9):
        event = se.Recouped(actor=actor.name, kind=kind, roll=roll)
        after = recouped(game, event).fighter(actor.name) or actor
        gained = after.ap - actor.ap if kind == "armor" else after.hp - actor.hp
        _add(points, max(gained, 0))
        _add(boost, after.boost - actor.boost)
        cleansed += Fraction(1, 8) if len(after.effects) < len(actor.effects) else 0
    return {"kind": kind, "points": "AP" if kind == "armor" else "HP",
            "gained": _chances(points), "boost": _chances(boost), "cleansed": chance(cleansed)}


def _add(found: Chances, value: int) -> None:
    found[value] = found.get(value, Fraction(0)) + Fraction(1, 8)


def _chances(found: Chances) -> dict[str, Any]:
    return {str(k): chance(p) for k, p in sorted(found.items())}
