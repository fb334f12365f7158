"""Volume 2's party and who fights: an ally joining, and an encounter's allies and
enemies (Ally Selection: Determine Who Fights). Pure, as the rest of the rules
(journal/games/volume2/rules.py re-exports these)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from journal.core.decide import Decision
from journal.core.events import Payload
from journal.core.state import State
from journal.errors import BadInput, RuleViolation
from journal.games import load
from journal.games.volume2 import events as v2
from journal.games.volume2.cards import AllyCard, EnemyCard
from journal.games.volume2.catalog import every_ready, ready
from journal.games.volume2.state import volume2
from journal.games.volume2.world import ENDED, NIBBLER

GAME = load("volume2")

TURNS = "Turns"
SELECTION = "Ally Selection: Determine Who Fights"
FLOW = "Round Flow"
WILDLIFE = "Wildlife Cards"

RULES = GAME.raw["encounter"]
MOST_ALLIES: int = RULES["allies"]
FIRST: str = RULES["first"]

Violations = list[RuleViolation]


def decided(event: Payload, violations: Violations) -> Decision:
    """The one event a command records, with the rules it breaks."""
    return Decision((event,), tuple(violations))


def join(state: State, card: AllyCard) -> Decision:
    """An ally pulled from the Ally Deck joins the party."""
    if state.character(card.name) is not None:
        raise BadInput(f"{card.name} is already in the party")
    ended = volume2(state).ended_by
    return decided(v2.AllyJoined(card=ready(card)), [] if ended is None else [ended])


def who_fights(named: Sequence[str], with_finnian: bool = True) -> list[str]:
    """"On each Encounter, Finnian must be present ... Finnian goes first": him, then the
    allies named, in their order (without him only when the table says so)."""
    others = [n for n in named if n.casefold() != FIRST.casefold()]
    return [FIRST, *others] if with_finnian else others


def begin(state: State, allies: Sequence[AllyCard], enemies: Sequence[EnemyCard]) -> Decision:
    """Finnian and up to 2 more allies of the party against `enemies`, left to right."""
    names = [a.name.casefold() for a in allies]
    if len(set(names)) < len(names):
        raise BadInput("an ally fights once in an encounter; each name once")
    if not allies:  # (not even forced: an encounter is fought by someone)
        raise BadInput(f"no ally fights: without {FIRST}, name who does with --with ALLY")
    game = volume2(state)
    violations: Violations = []
    if game.episode_ended is not None:
        violations.append(RuleViolation(ENDED, "Episode Progression"))
    if game.in_encounter:
        violations.append(RuleViolation("an encounter is under way; `spire end` ends it", FLOW))
    if game.ended_by is not None:
        violations.append(game.ended_by)
    if not allies or allies[0].name != FIRST:
        violations.append(RuleViolation(f"{FIRST} must be present, and goes first", TURNS))
    if len(allies) > MOST_ALLIES:
        violations.append(RuleViolation(f"at most {MOST_ALLIES} allies fight: {FIRST} and up "
                                        f"to 2 more, not {len(allies)}", TURNS))
    violations += [RuleViolation(f"{a.name} has not joined the party (`spire draw "
                                 f"{a.name}`)", SELECTION)
                   for a in allies if state.character(a.name) is None]
    violations += _wildlife(state, enemies)
    every_ready(*allies, *enemies)
    event = v2.EncounterBegan(allies=tuple(allies), enemies=_told_apart(tuple(enemies)))
    return decided(event, violations)


def _told_apart(enemies: tuple[EnemyCard, ...]) -> tuple[EnemyCard, ...]:
    """Two cards of one name (two Nibblers for two pawprints) as "... 1" and "... 2", so
    that each can be named, hit and defeated."""
    count = Counter(e.name.casefold() for e in enemies)
    seen: Counter[str] = Counter()
    named = []
    for enemy in enemies:
        folded = enemy.name.casefold()
        seen[folded] += 1
        if count[folded] > 1:
            enemy = enemy.model_copy(update={"name": f"{enemy.name} {seen[folded]}"})
        named.append(enemy)
    return tuple(named)


def _wildlife(state: State, enemies: Sequence[EnemyCard]) -> Violations:
    """"Until your party is more than one Ally, you may only pull a Minor Needlegrass
    Nibbler.\""""
    if len(state.characters) > 1:
        return []
    return [RuleViolation(f"a party of one ally may fight only the {NIBBLER}", WILDLIFE)
            for e in enemies if e.wildlife and e.name.casefold() != NIBBLER.casefold()]
