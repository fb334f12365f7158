"""The d8s a Spire's End action rolls: how many its bar owes now (Luck's extra die, the (!)
icon's second, an Encore re-roll after a miss), and the dice typed checked against them."""

from __future__ import annotations

from journal.errors import BadInput
from journal.games.spires_end import combat
from journal.games.spires_end.cards import Bar
from journal.games.spires_end.state import Fighter


def owed(bar: Bar, actor: Fighter, rolls: tuple[int, ...]) -> int:
    """How many more d8 `actor`'s action on `bar` needs after `rolls`."""
    if not bar.needs_roll:
        return 0
    base = combat.base_dice(bar, actor)
    if len(rolls) < base:
        return base - len(rolls)
    return 1 if combat.encore_due(bar, actor, rolls) else 0


def rolls_given(bar: Bar, actor: Fighter, rolls: tuple[int, ...], command: str) -> tuple[int, ...]:
    """The dice given must be the dice the bar rolls now, and an Encore re-roll after a
    miss one more ("Encore: If an action misses, roll again"), as Luck's die is: too few
    are refused saying what is owed. `command` is what the table types before the dice."""
    if any(not 1 <= r <= 8 for r in rolls):
        raise BadInput(f"a d8 shows 1 to 8, not {', '.join(str(r) for r in rolls)}")
    base = combat.base_dice(bar, actor) if bar.needs_roll else 0
    if len(rolls) == base and bar.needs_roll and combat.encore_due(bar, actor, rolls):
        raise BadInput(_encore_owed(bar, actor, rolls, command))
    if len(rolls) == base:
        return rolls
    if len(rolls) == base + 1 and bar.needs_roll and combat.encore_due(bar, actor, rolls[:base]):
        return rolls
    why = " (Luck rolls one more)" if actor.has("luck") else ""
    encore = ", an Encore re-roll after a miss one more" if actor.has("encore") else ""
    raise BadInput(f"{bar.name or 'this bar'} rolls {base} d8 now{why}{encore}; "
                   f"{len(rolls)} given")


def _encore_owed(bar: Bar, actor: Fighter, rolls: tuple[int, ...], command: str) -> str:
    missed = next(d for d in combat.dice(bar, actor, rolls) if bar.result(d.value) is None)
    typed = " ".join(str(r) for r in rolls)
    return (f"{bar.name or 'the bar'}, {missed} misses: Encore rolls again; type the re-roll "
            f"after it (`{command} {typed} N`)")


def words(*typed: str) -> str:
    """Words as the table types them: one with a space in double quotes."""
    return " ".join(f'"{w}"' if " " in w else w for w in typed)
