"""What the audit asks of Hildegard's events: the command that records each, so the rules
decide it again (journal/games/hildegard/rules.py), and the dice each rolled."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from journal.core.decide import Decision
from journal.core.state import State
from journal.errors import Refused
from journal.games.hildegard import effects, rounds, rules
from journal.games.hildegard.dice import SHOT_DIE
from journal.games.interface import DieKind, Redecide


def _block(state: State, e: Any, player: int | None) -> Decision:
    if e.die is None:
        raise Refused("no command places a block without a die (a Block feat is a feat)")
    return rounds.block(state, e.die, e.square, player)


RECHECKS: dict[str, Redecide] = {
    "target-started": lambda s, e, p, h: rules.start_target(s, e.card, p),
    "face-off-started": lambda s, e, p, h: rules.start_face_off(
        s, e.meter, e.enemies, e.enemy_first),
    "shot-dice-rolled": lambda s, e, p, h: rules.roll(s, e.faces, p, e.roller),
    "dice-locked": lambda s, e, p, h: rules.lock(s, e.dice, p),
    "finesse-stopped": lambda s, e, p, h: rules.stop(s, p),
    "wild-shot-rolled": lambda s, e, p, h: rules.wild(
        s, e.die, e.effect, e.target_die, e.face, p),
    "feat-used": lambda s, e, p, h: effects.feat(s, e.feat, e.square, p),
    "block-placed": lambda s, e, p, h: _block(s, e, p),
    "bullseyes-assigned": lambda s, e, p, h: rounds.assign(
        s, e.enemy, e.bullseyes, p),
    "effect-suffered": lambda s, e, p, h: effects.suffer(s, e.effect),
    "tag-team-used": lambda s, e, p, h: effects.tag_team(s),
    "encounter-ended": lambda s, e, p, h: rules.end(s, p),
}
"""Each of Hildegard's event types and the command that records it."""


def _ricochet(e: Any) -> Sequence[str]:
    """A Ricochet re-rolls one shot die ("re-roll 1 Shot Dice", Wild Shot Side Effects)."""
    return (e.face,) if e.effect == "ricochet" and e.face else ()


DIE_KINDS: tuple[DieKind, ...] = (
    # "three Crescent icons ..., a Ring icon, a Dot icon, and a Blank side" (Shot Dice).
    DieKind("Hildegard shot die", SHOT_DIE, {
        "shot-dice-rolled": lambda e: e.faces, "wild-shot-rolled": _ricochet}),
)
