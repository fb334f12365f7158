"""What the audit asks of Spire's End's events: the command that records each, so the
rules decide it again (journal/games/spires_end/rules.py), and the d8s each rolled."""

from __future__ import annotations

from journal.games.interface import DieKind, Redecide
from journal.games.spires_end import rules

RECHECKS: dict[str, Redecide] = {
    "ally-drawn": lambda s, e, p, h: rules.draw(s, e.card, e.slot),
    "fight-began": lambda s, e, p, h: rules.fight(s, e.enemy),
    "action-performed": lambda s, e, p, h: rules.action(
        s, e.bar, e.rolls, e.target, e.kickback_to, e.given_to, p, onward=False),
    "enemy-acted": lambda s, e, p, h: rules.enemy(
        s, e.card, e.selection, e.rolls, p, onward=False),
    "rested": lambda s, e, p, h: rules.rest(s, p, onward=False),
    "recouped": lambda s, e, p, h: rules.recoup(
        s, e.kind, e.roll, e.to, e.effect, p),
    "boost-spent": lambda s, e, p, h: rules.boost(s, p),
    "upkeep-done": lambda s, e, p, h: rules.upkeep(s, p),
    "death-move-performed": lambda s, e, p, h: rules.death(
        s, e.ally, e.target, e.given_to, e.rolls),
    "effect-inflicted": lambda s, e, p, h: rules.inflict(
        s, e.target, e.inflicted),
    "selection-rolled": lambda s, e, p, h: rules.select(s, e.roll),
    "fight-ended": lambda s, e, p, h: rules.end(s),
}
"""Each of Spire's End's event types and the command that records it (a step decided as
typed, on the state before it: an upkeep made for a move is an event of its own)."""


def _d8s(*rolls: int | None) -> tuple[str, ...]:
    return tuple(str(r) for r in rolls if r is not None)


D8 = tuple(str(face) for face in range(1, 9))

DIE_KINDS: tuple[DieKind, ...] = (
    # Spire's End's d8: actions, the enemy's selection roll and bar, recoups, death moves.
    DieKind("Spire's End d8", D8, {
        "action-performed": lambda e: _d8s(*e.rolls),
        "enemy-acted": lambda e: _d8s(e.selection, *e.rolls),
        "recouped": lambda e: _d8s(e.roll),
        "death-move-performed": lambda e: _d8s(*e.rolls),
        "selection-rolled": lambda e: _d8s(e.roll)}),
)
