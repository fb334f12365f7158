"""What the audit asks of Volume 2's events: the command that records each, so the rules
decide it again (journal/games/volume2/rules.py, world.py), and the dice each rolled."""

from __future__ import annotations

from journal.games.interface import DieKind, Redecide, Rolled
from journal.games.volume2 import rules, world
from journal.games.volume2.dice import HIVE_DIE, SHOT_DIE

RECHECKS: dict[str, Redecide] = {
    "ally-joined": lambda s, e, p, h: rules.join(s, e.card),
    "encounter-began": lambda s, e, p, h: rules.begin(s, e.allies, e.enemies),
    "action-dice-rolled": lambda s, e, p, h: rules.roll(
        s, e.faces, e.ally, e.spent or None),
    "action-dice-locked": lambda s, e, p, h: rules.lock(s, e.dice),
    "finesse-ended": lambda s, e, p, h: rules.stop(s),
    "action-taken": lambda s, e, p, h: rules.action(s, e.action, e.target),
    "hive-deployed": lambda s, e, p, h: rules.deploy(s, e.what, e.count, e.on),
    "turn-ended": lambda s, e, p, h: rules.upkeep(s),
    "target-rolled": lambda s, e, p, h: rules.target_roll(
        s, e.rolls, e.allies if e.between else ()),
    "target-chosen": lambda s, e, p, h: rules.choose_target(s, e.ally),
    "enemy-attacked": lambda s, e, p, h: rules.attack(s, e.roll, e.enemy),
    "encounter-closed": lambda s, e, p, h: rules.end(s),
    "ability-triggered": lambda s, e, p, h: rules.ability(s, e.ability, e.enemy),
    "trading-card-revealed": lambda s, e, p, h: world.trading_card(s, e.card),
    "item-bought": lambda s, e, p, h: world.buy(s, e.card.name, e.holder or "aside"),
    "waterfall-laid": lambda s, e, p, h: world.lay(s, e.rows),
    "waterfall-card-chosen": lambda s, e, p, h: world.choose(s, e.row, str(
        e.card if e.row == 1 else "ABCDEFGH"[e.card - 1])),
    "waterfall-cards-removed": lambda s, e, p, h: world.remove(
        s, ["ABCDEFGH"[c - 1] for c in e.cards], e.row),
    "waterfall-ended": lambda s, e, p, h: world.end_waterfall(s, e.card),
    "episode-ended": lambda s, e, p, h: world.end_episode(s, e.carried.campaign),
    "deck-card-pulled": lambda s, e, p, h: world.pull_named(s, e.deck, e.name),
    "item-used": lambda s, e, p, h: world.use_item(s, e.item, e.holder or "aside"),
}
"""Each of Volume 2's event types and the command that records it; a holder of None is
"aside"."""


def _of(die: str) -> Rolled:
    """The faces a roll shows, if it rolled `die` dice."""
    return lambda e: e.faces if e.die == die else ()


def _numbers(*rolls: int | None) -> tuple[str, ...]:
    return tuple(str(r) for r in rolls if r is not None)


D20 = tuple(str(face) for face in range(1, 21))

DIE_KINDS: tuple[DieKind, ...] = (
    # "Sickle x 2, Bee, Pollen, Hive, and Blank"; the allies' shot dice; the d20 of the
    # target roll and of the enemies' attacks.
    DieKind("Volume 2 hive die", HIVE_DIE, {"action-dice-rolled": _of("hive")}),
    DieKind("Volume 2 shot die", SHOT_DIE, {"action-dice-rolled": _of("shot")}),
    DieKind("Volume 2 d20", D20, {
        "target-rolled": lambda e: _numbers(*e.rolls),
        "enemy-attacked": lambda e: _numbers(e.roll)}),
)
