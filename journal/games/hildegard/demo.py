"""The Hildegard demo: a short scripted stretch of a campaign, for a newcomer to watch.

Its dice are the rulebook's own worked examples, played with the faces the rulebook
prints and decided by the same rules as `spire target`, `spire roll`, `spire lock` and
`spire wild`: the Street Merchant (Target Card Playthrough) and the first round of the
face-off against the Crows (Face-Off Scenario). The card numbers are the ones the rulebook
prints; the Card Peddler is told in a note, and a note says the face-off is the rulebook's
example, not what card 27 holds: nothing of the story is spoiled or invented.
"""

from __future__ import annotations

from journal.core import decide
from journal.core.decide import Decision
from journal.games.hildegard import rules
from journal.games.hildegard.cards import DEFAULT_METER, EnemyCard, HitMeter, TargetCard
from journal.games.hildegard.catalog import rulebook_cards
from journal.games.hildegard.dice import Face, WildEffect
from journal.service.demo import Scene, Step, quoted
from journal.service.journal import View

NAME = "demo"
ABOUT = "the rulebook's Street Merchant target and its face-off with the Crows"


def _roll(*faces: Face) -> Step:
    return Step(f"roll {' '.join(faces)}", lambda v: rules.roll(v.state, faces, None))


def _lock(*dice: int) -> Step:
    return Step(f"lock {' '.join(map(str, dice))}", lambda v: rules.lock(v.state, dice, None))


def _wild(effect: WildEffect, on: int | None = None) -> Step:
    line = f"wild {effect}" + ("" if on is None else f" --on {on}")
    return Step(line, lambda v: rules.wild(v.state, "black", effect, on, None, None))


def _target(name: str) -> Step:
    def start(v: View) -> Decision:
        card = rulebook_cards()[name]
        assert isinstance(card, TargetCard)
        return rules.start_target(v.state, card, None)
    return Step(f"target {quoted(name)}", start)


def _face_off(enemy: str) -> Step:
    def start(v: View) -> Decision:
        meter, foe = rulebook_cards()[DEFAULT_METER], rulebook_cards()[enemy]
        assert isinstance(meter, HitMeter) and isinstance(foe, EnemyCard)
        return rules.start_face_off(v.state, meter, (foe,))
    return Step(f"faceoff {quoted(enemy)}", start)


def _reveal(card: int) -> Step:
    return Step(f"reveal {card}", lambda v: decide.reveal(v.state, card))


def _note(text: str) -> Step:
    return Step(f"note {quoted(text)}", lambda v: decide.note(text))


def _gain(resource: str, amount: int) -> Step:
    return Step(f"gain {resource} {amount}", lambda v: decide.gain(v.state, resource, amount))


SCRIPT: tuple[Scene, ...] = (
    Scene((
        _reveal(1),
        Step("item gain Slingshot --kind story",
             lambda v: decide.gain_item(v.state, "Slingshot", "story", "Hildegard")),
    )),
    Scene((
        _target("Street Merchant"),
        _roll("crescent", "crescent", "ring"),
        _wild("whoopsie", on=3),
        _roll("ring", "dot", "crescent"),
        _wild("bullseye"),
    ), "The Street Merchant: a Whoopsie takes the ring, then a wild Bullseye makes three"),
    Scene((
        _reveal(26),
        Step("pull 12", lambda v: decide.pull(v.state, 12)),
        Step("return", lambda v: decide.return_(v.state)),
        _note("Card Peddler: finessed twice; ring + dot, 1 bullseye"),
        _gain("gold", 2),
        Step("undo", lambda v: decide.undo(v.latest_first())),
        _gain("gold", 1),
        _reveal(27),
        _note("The rulebook's face-off example: the Crows"),
    ), "Card 26, a pulled card, a note, gold gained, a mistake undone"),
    Scene((
        _face_off("The Crows"),
        _roll("crescent", "crescent", "blank", "blank"),
        _lock(1, 2),
        _roll("crescent", "crescent"),
        _wild("bullseye"),
    ), "The Crows, round 1: Hildegard locks two crescents, re-rolls the blanks, wild Bullseye"),
    Scene((
        _roll("ring", "crescent", "blank"),
    ), "The Crows roll: the crescent hits square 1; they must keep the ring, for square 3"),
    Scene((
        _lock(1),
        _roll("crescent"),
    )),
)
