"""The Spire's End demo: Millicent and Oswin against an Ogre, three rounds of one fight.

Its numbers are the rulebook's where it prints them: the Navigation example (on card 10,
"Reveal Card 20": the cards between leave the game), the Ally Card Anatomy's 5 HP and
2 AP, the Back Hand bar rolled 3, 5 and 8 as its Action Bar Example rolls it (0, 1, then
3 damage and a 1 HP kickback given to an ally), the Recoup Bar Example's 7 (+2 HP) and 6
(a status effect removed), a rest, and the enemy's 5 damage on an ally of 5 AP / 2 HP
(0 AP / 2 HP left). What no rulebook line prints (Oswin's card, the Ogre's, and Millicent
holding the example card, as docs/spires-end.md has her) is made up for the demo and said
so in a note at its start; a second note says cards 10 and 20 are the rulebook's example,
not what those cards hold. Millicent's card carries the Death Bar Example, unplayed: no
one dies in three rounds. The cards are typed inline, as a player types them: the demo
enters nothing into the journal's catalog.
"""

from __future__ import annotations

from journal.core import decide
from journal.games.spires_end import catalog, rules
from journal.games.spires_end.cards import AllyCard, Card, EnemyCard
from journal.service.demo import Scene, Step, quoted
from journal.service.journal import View

NAME = "demo-spires-end"
ABOUT = "Millicent and Oswin against an Ogre (made-up numbers in a note)"

INVENTED = ("Numbers made up for this demo, not printed in the rulebook: Oswin 2 HP, 5 AP, "
            "Jab (cost 1; 5-8: 1), recoup heal 6-8: 1; the Ogre 8 HP, 2 AP, Gash (5-8: 1 "
            "and Bleed x3), Crush (4-8: 5), recoup heal 7-8: 1. Millicent has the "
            "rulebook's example card: 5 HP, 2 AP, Back Hand, the Recoup and Death Bar "
            "Examples")

CARDS = ("Cards 10 and 20 are the rulebook's Navigation example: what they hold is not "
         "told here, and the fight that follows is the demo's, not card 20's")


def _typed(
    verb: str, kind: str, name: str, hp: int, ap: int, bars: tuple[str, ...] = (),
    statuses: tuple[str, ...] = (), recoup: str = "", death: str = "",
) -> tuple[str, Card]:
    """A card given inline, as `spire draw` or `spire fight` reads it: the line typed, and
    the card that line makes (the command line's own reading of it)."""
    options = [f"--hp {hp}", f"--ap {ap}", *(f"--bar {quoted(b)}" for b in bars),
               *(f"--status {quoted(s)}" for s in statuses)]
    options += [f"--recoup {quoted(recoup)}"] if recoup else []
    options += [f"--death {quoted(death)}"] if death else []
    card = catalog.inline(kind, name, {"hp": hp, "ap": ap, "bars": list(bars),
                                       "statuses": list(statuses), "recoup": recoup or None,
                                       "death": death or None, "number": None})
    return f"{verb} {quoted(name)} {' '.join(options)}", card


def _draw(name: str, hp: int, ap: int, bar: str, recoup: str, death: str = "") -> Step:
    line, card = _typed("draw", "ally", name, hp, ap, (bar,), recoup=recoup, death=death)
    assert isinstance(card, AllyCard)
    return Step(line, lambda v: rules.draw(v.state, card, None))


def _fight(name: str, hp: int, ap: int, bars: tuple[str, ...], statuses: tuple[str, ...],
           recoup: str) -> Step:
    line, card = _typed("fight", "enemy", name, hp, ap, bars, statuses, recoup)
    assert isinstance(card, EnemyCard)
    return Step(line, lambda v: rules.fight(v.state, card))


def _action(bar: str, roll: int, kickback_to: str | None = None) -> Step:
    line = f"action {quoted(bar)} {roll}" + (
        f" --kickback-to {quoted(kickback_to)}" if kickback_to else "")
    return Step(line, lambda v: rules.action(v.state, bar, (roll,), None, kickback_to, None,
                                             None))


def _recoup(roll: int) -> Step:
    return Step(f"recoup heal {roll}",
                lambda v: rules.recoup(v.state, "heal", roll, None, None, None))


def _enemy(card: int, roll: int, select: int) -> Step:
    return Step(f"enemy {card} {roll} --select {select}",
                lambda v: rules.enemy(v.state, card, select, (roll,), None))


def _upkeep(v: View) -> decide.Decision:
    return rules.upkeep(v.state, None)


def _rest(v: View) -> decide.Decision:
    return rules.rest(v.state, None)


UPKEEP = Step("upkeep", _upkeep)
REST = Step("rest", _rest)


def _reveal(card: int) -> Step:
    return Step(f"reveal {card}", lambda v: decide.reveal(v.state, card))


def _note(text: str) -> Step:
    return Step(f"note {quoted(text)}", lambda v: decide.note(text))


SCRIPT: tuple[Scene, ...] = (
    Scene((_note(INVENTED),)),
    Scene((
        _reveal(10),
        _reveal(20),
        _note(CARDS),
    ), "On card 10, Reveal Card 20: cards 13-19 leave the game (instruction cards stay)"),
    Scene((
        _draw("Millicent", 5, 2, "Back Hand", "Recoup Bar Example", "Death Bar Example"),
        _draw("Oswin", 2, 5, "Jab; cost 1; 5-8: 1", "heal 6-8: 1"),
        _fight("Ogre", 8, 2, ("Gash; 5-8: 1, A", "Crush; 4-8: 5"), ("A: bleed x3",),
               "heal 7-8: 1"),
    ), "Two allies: Millicent with the rulebook's example card, and Oswin; then an Ogre"),
    Scene((
        _action("Back Hand", 3),
        UPKEEP,
        REST,
        _recoup(6),
        _enemy(2, 6, select=6),
        _recoup(3),
    ), "Round 1: Back Hand rolls 3, no damage; Oswin rests; Crush hits his 5 AP for 5"),
    Scene((
        _action("Back Hand", 5),
        _recoup(7),
        _action("Jab", 7),
        UPKEEP,
        _enemy(1, 6, select=2),
        _recoup(2),
    ), "Round 2: a 5 deals 1; a recoup of 7 heals 2; the Ogre's Gash bleeds Millicent"),
    Scene((
        _action("Back Hand", 8, kickback_to="Oswin"),
        _recoup(6),
        UPKEEP,
    ), "Round 3: an 8 deals 3, a 1 HP kickback to Oswin; a 6 heals 1 and cleanses Bleed"),
)
