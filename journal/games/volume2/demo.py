"""The Volume 2 demo: Finnian and Dunstan against Wade Slocum, three rounds.

The rulebook prints Finnian's 5 HP and 3 AP, Dunstan's Recoup of 4 and Wade Slocum's
damage table and QUICKDRAW; everything else a card would print (Finnian's Recoup,
Dunstan's HP, AP and combinations, Wade's HP, AP, ferocity, attacks and retreat) is made
up for the demo, says so in a note, and is never entered into the journal's catalog: the
encounter's event keeps its own copy of the cards.
"""

from __future__ import annotations

from journal.core import decide
from journal.core.decide import Decision
from journal.games.volume2 import catalog, rules
from journal.games.volume2.cards import AllyCard, EnemyCard
from journal.service.demo import Scene, Step, quoted
from journal.service.journal import View

NAME = "demo-volume2"
ABOUT = "Finnian and Dunstan against Wade Slocum (made-up numbers in a note)"

INVENTED = ("Numbers made up for this demo, not printed in the rulebook: Finnian's Recoup 1; "
            "Dunstan 6 HP, 2 AP, Double Shot (half bullseye black + white: 2 damage); "
            "Wade Slocum 8 HP, 2 AP, ferocity 1, 1 attack, retreat 3")


def _ally(name: str, **numbers: object) -> AllyCard:
    card = catalog.entered("ally", name, numbers)
    assert isinstance(card, AllyCard)
    return card


FINNIAN = _ally("Finnian", recoup=1)
DUNSTAN = _ally("Dunstan", hp=6, ap=2, combos=["Double Shot: black white: 2 damage"])


def _enemy(name: str, **numbers: object) -> EnemyCard:
    card = catalog.entered("enemy", name, numbers)
    assert isinstance(card, EnemyCard)
    return card


WADE = _enemy("Wade Slocum", hp=8, ap=2, ferocity=1, attacks=1, retreat="3")


def _roll(*faces: str) -> Step:
    return Step(f"roll {' '.join(faces)}", lambda v: rules.roll(v.state, faces, None, None))


def _lock(*dice: int) -> Step:
    return Step(f"lock {' '.join(map(str, dice))}", lambda v: rules.lock(v.state, dice))


def _stop(v: View) -> Decision:
    return rules.stop(v.state)


STOP = Step("stop", _stop)


def _action(name: str) -> Step:
    return Step(f"action {quoted(name)}", lambda v: rules.action(v.state, name, None))


def _upkeep(v: View) -> Decision:
    return rules.upkeep(v.state)


UPKEEP = Step("upkeep", _upkeep)


def _targets(*rolls: int) -> Step:
    return Step(f"target-roll {' '.join(map(str, rolls))}",
                lambda v: rules.target_roll(v.state, rolls))


def _attack(roll: int) -> Step:
    return Step(f"enemy {roll}", lambda v: rules.attack(v.state, roll, None))


SCRIPT: tuple[Scene, ...] = (
    Scene((
        Step(f"note {quoted(INVENTED)}", lambda v: decide.note(INVENTED)),
        Step("draw Dunstan", lambda v: rules.join(v.state, DUNSTAN)),
        Step('fight "Wade Slocum" --with Dunstan',
             lambda v: rules.begin(v.state, (FINNIAN, DUNSTAN), (WADE,))),
        _roll("sickle", "blank", "hive"),
        _lock(1, 3),
        _roll("sickle"),
        STOP,
        _action("sickles"),
        Step("deploy bee", lambda v: rules.deploy(v.state, "bee", 1, None)),
    ), "Round 1: Finnian spends 3 HP, locks a sickle and the hive, re-rolls a second "
       "sickle; 2 damage, and a bee stings"),
    Scene((
        UPKEEP,
        _roll("black", "white", "ping", "blank"),
        STOP,
        _action("Double Shot"),
        UPKEEP,
    ), "Dunstan spends 4 HP: a Double Shot, 2 damage"),
    Scene((
        _targets(11, 16),
        _attack(3),
        _targets(18, 6),
        _attack(12),
    ), "Wade Slocum: a natural 3 misses but QUICKDRAW gives another attack; 3 damage into "
       "Finnian's armor; the round ends with each ally's recoup"),
    Scene((
        _roll("sickle", "sickle"), STOP, _action("sickles"), UPKEEP,
        _roll("black", "white"), STOP, _action("Double Shot"), UPKEEP,
        _targets(7, 15), _attack(16),
        _roll("sickle"), STOP, _action("sickles"),
    ), "Rounds 2 and 3: Wade Slocum falls; every ally's HP and AP are reset"),
)
