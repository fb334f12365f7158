"""Spire's End's events as the table would say them."""

from __future__ import annotations

from journal.core.describe import Saying
from journal.core.events import ByEvent
from journal.games.spires_end import events as se
from journal.games.spires_end.cards import Inflicted


def _rolled(rolls: tuple[int, ...]) -> str:
    return f", rolled {', '.join(str(r) for r in rolls)}" if rolls else ""


SAYINGS: ByEvent[Saying] = ByEvent()
"""The sentence for each of Spire's End's events."""


@SAYINGS.register
def _(e: se.AllyDrawn) -> str:
    return f"Drew {e.card.name} as Ally {e.slot} ({e.card.hp} HP, {e.card.ap} AP)"


@SAYINGS.register
def _(e: se.FightBegan) -> str:
    return f"A fight with {e.enemy.name} began ({e.enemy.hp} HP, {e.enemy.ap} AP)"


@SAYINGS.register
def _(e: se.ActionPerformed) -> str:
    text = f"{e.actor}: action bar {e.bar}{_rolled(e.rolls)}"
    if e.target:
        text += f", on {e.target}"
    if e.kickback_to:
        text += f", kickback to {e.kickback_to}"
    return text + (f", effects to {e.given_to}" if e.given_to else "")


@SAYINGS.register
def _(e: se.EnemyActed) -> str:
    chosen = f", selection roll {e.selection}" if e.selection is not None else ""
    bar = f" (bar {e.bar})" if e.bar != e.card else ""
    on = f", on {e.target}" if e.target else ""
    return f"{e.enemy}: action card {e.card}{bar}{chosen}{on}{_rolled(e.rolls)}"


@SAYINGS.register
def _(e: se.Rested) -> str:
    return f"{e.actor} rested"


@SAYINGS.register
def _(e: se.Recouped) -> str:
    what = f"cleanse of {e.effect}" if e.effect else e.kind
    return f"{e.actor} recouped ({what}), rolled {e.roll}" + (f", for {e.to}" if e.to else "")


@SAYINGS.register
def _(e: se.BoostSpent) -> str:
    return f"{e.actor} spent the boost meter for Strength"


@SAYINGS.register
def _(e: se.UpkeepDone) -> str:
    return f"{e.actor}'s upkeep"


@SAYINGS.register
def _(e: se.DeathMovePerformed) -> str:
    text = f"{e.ally}'s death move{_rolled(e.rolls)}"
    if e.given_to:
        text += f", for {e.given_to}"
    return text + (f", on {e.target}" if e.target else "")


def inflicted_text(given: Inflicted) -> str:
    if given.persistent:
        return f"{given.effect.capitalize()} (until cleansed)"
    if given.turns:
        return f"{given.effect.capitalize()} ({given.turns} turn{'s' if given.turns != 1 else ''})"
    return given.effect.capitalize()


@SAYINGS.register
def _(e: se.EffectInflicted) -> str:
    return f"{inflicted_text(e.inflicted)} on {e.target}"


@SAYINGS.register
def _(e: se.SelectionRolled) -> str:
    return f"Selection roll {e.roll}: " + (e.ally or "no ally in play")


@SAYINGS.register
def _(e: se.FightEnded) -> str:
    return "Ended the fight"
