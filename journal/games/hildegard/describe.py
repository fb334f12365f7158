"""Hildegard's events as the table would say them."""

from __future__ import annotations

from journal.core.describe import Saying
from journal.core.events import ByEvent
from journal.core.words import numbered, plural
from journal.games.hildegard import events as hv

SAYINGS: ByEvent[Saying] = ByEvent()
"""The sentence for each of Hildegard's events."""


@SAYINGS.register
def _(e: hv.TargetStarted) -> str:
    c = e.card
    limit = f"{c.bullseye_limit} bullseye{'s' if c.bullseye_limit != 1 else ''}"
    return (f"{e.shooter} takes aim at {c.name}: {limit} to hit, "
            f"accuracy {c.accuracy}, {c.sets} set{'s' if c.sets != 1 else ''}")


@SAYINGS.register
def _(e: hv.FaceOffStarted) -> str:
    names = ", ".join(f"{x.name} ({plural(x.bullseye_limit, 'bullseye')})" for x in e.enemies)
    return f"Face-off against {names}"


@SAYINGS.register
def _(e: hv.ShotDiceRolled) -> str:
    return f"{e.roller} rolled {', '.join(e.faces) or 'no dice'}"


@SAYINGS.register
def _(e: hv.DiceLocked) -> str:
    return f"{e.roller} locked {numbered('die', e.dice)}"


@SAYINGS.register
def _(e: hv.FinesseStopped) -> str:
    return f"{e.roller} stopped finessing"


@SAYINGS.register
def _(e: hv.WildShotRolled) -> str:
    text = f"Wild shot ({e.die}) for {e.shooter}: {e.effect}"
    if e.effect == "whoopsie" and e.target_die:
        text += f", die {e.target_die} removed"
    elif e.effect == "instinct" and e.target_die:
        text += f", die {e.target_die} set to {e.face}"
    elif e.effect == "ricochet" and e.target_die:
        text += f", die {e.target_die} re-rolled: {e.face}"
    return text


@SAYINGS.register
def _(e: hv.FeatUsed) -> str:
    square = f" on square {e.square}" if e.square else ""
    return f"Feat of Marksmanship: {e.feat}{square} (-{plural(e.cost, 'feat')})"


@SAYINGS.register
def _(e: hv.BlockPlaced) -> str:
    return f"{e.shooter} blocked square {e.square}" + (f" with die {e.die}" if e.die else "")


@SAYINGS.register
def _(e: hv.BullseyesAssigned) -> str:
    return f"{plural(e.bullseyes, 'bullseye')} on {e.enemy}"


@SAYINGS.register
def _(e: hv.EffectSuffered) -> str:
    return f"Suffered {e.effect.capitalize()}"


@SAYINGS.register
def _(e: hv.TagTeamUsed) -> str:
    return "Tag Team: the players' sets combine into bullseyes this round"


@SAYINGS.register
def _(e: hv.EncounterEnded) -> str:
    return "Ended the face-off (counted as lost)" if e.face_off else "Ended the encounter"
