"""Spire's End's state: the allies drawn and the two in play, their cubes, effects and
meters, the fight under way and whose turn it is; and `evolve` for its events.

Ally HP and AP are kept here and mirrored into the core characters, so `spire status`
and the items rules see the same cubes. Everything the dice imply is worked out in
`combat` and `turns`, from the events alone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from journal.core.state import State
from journal.errors import RuleViolation
from journal.games.spires_end.cards import AllyCard, Bar, EnemyCard

ALLIES = 7
"""'There are 7 of you now.' (Ally Selection & Set Up)"""
METER = 3
"""The rest meter counts three rests; the boost meter has three slots."""
ENEMY_TURN = 3
"""Turns in a round: Ally 1, Ally 2, then the Enemy (Combat Round Flow)."""


@dataclass(frozen=True, slots=True)
class Effect:
    """A status effect on a character: its cubes (turns left, or the amount of a
    persistent one) and who inflicted it (Harvest and Seduce take for them)."""

    name: str
    cubes: int
    persistent: bool = False
    source: str | None = None
    fresh: int = 0
    """Cubes placed in the holder's own turn, before its upkeep: "If it's listed once it
    occurs the next turn" (Step 3: Upkeep), so that upkeep takes none of them."""


@dataclass(frozen=True, slots=True)
class Fighter:
    """An ally or the enemy, with its cubes, status effects and meters."""

    card: AllyCard | EnemyCard
    hp: int
    ap: int
    effects: tuple[Effect, ...] = ()
    rest: int = 0
    boost: int = 0

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def dead(self) -> bool:
        return self.hp <= 0

    @property
    def is_enemy(self) -> bool:
        return isinstance(self.card, EnemyCard)

    def effect(self, name: str) -> Effect | None:
        return next((e for e in self.effects if e.name == name), None)

    def has(self, name: str) -> bool:
        return self.effect(name) is not None

    @property
    def stunned(self) -> bool:
        """No action this turn: "Stun: No action next turn (can still perform recoup or
        rest)" (Status Effects Glossary)."""
        return self.has("stun")

    @property
    def exhausted(self) -> bool:
        """No recoup and no rest: "Exhaustion: No recoup or rest / Clear rest meter"
        (Status Effects Glossary)."""
        return self.has("exhaustion")

    @property
    def forced_by(self) -> str | None:
        """The effect that chooses the action: "Confusion: Character attacks themself / 2
        Action (no HP cost for action)", "Turncoat: Force an ally to attack another ally, 2
        Action (no HP cost for action)", "Intimidate: Force a 1 Action next turn" (Status
        Effects Glossary); Confusion and Turncoat before Intimidate."""
        return next((e for e in ("confusion", "turncoat", "intimidate") if self.has(e)), None)

    @property
    def forced_bar(self) -> int | None:
        """The bar an effect forces: Intimidate bar 1; Confusion and Turncoat bar 2."""
        by = self.forced_by
        return None if by is None else 1 if by == "intimidate" else 2

    def cost(self, bar: Bar) -> int:
        """The HP the action `bar` costs: none under Confusion or Turncoat ("no HP cost for
        action")."""
        return 0 if self.forced_by in ("confusion", "turncoat") else bar.cost


@dataclass(frozen=True, slots=True)
class Fight:
    enemy: Fighter
    round: int = 1
    turn: int = 1
    """1: Ally 1, 2: Ally 2, 3: the enemy."""
    actions: int = 0
    rested: bool = False
    recouped: bool = False
    outcome: str | None = None
    """None while under way; then "won", "lost" or "ended"."""
    passed: bool = False
    """Over, and the players have revealed a card since: it is off the screen."""

    @property
    def under_way(self) -> bool:
        return self.outcome is None


@dataclass(frozen=True, slots=True)
class SpiresEnd:
    allies: tuple[Fighter, ...] = ()
    """Every ally drawn, in the order the table drew them (the dead too)."""
    slots: tuple[str | None, str | None] = (None, None)
    """The names of Ally 1 and Ally 2."""
    dying: tuple[str, ...] = ()
    """Dead allies whose death move is still to come."""
    fight: Fight | None = None
    resolved: tuple[str, ...] = ()
    """What the latest action, recoup or upkeep did, for the table to read."""
    finished: tuple[str, ...] = ()
    """One line per fight that ended."""

    def ally(self, name: str) -> Fighter | None:
        folded = name.casefold()
        return next((a for a in self.allies if a.name.casefold() == folded), None)

    def in_play(self) -> tuple[Fighter, ...]:
        return tuple(a for a in (self.ally(n) for n in self.slots if n) if a is not None)

    def living(self) -> tuple[Fighter, ...]:
        return tuple(a for a in self.in_play() if not a.dead)

    def fighter(self, name: str) -> Fighter | None:
        enemy = self.fight.enemy if self.fight else None
        if enemy is not None and enemy.name.casefold() == name.casefold():
            return enemy
        return self.ally(name)

    @property
    def dead(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.allies if a.dead)

    @property
    def in_encounter(self) -> bool:
        """A fight is under way (combat items stay where they are)."""
        return self.fight is not None and self.fight.under_way

    @property
    def journey_over(self) -> bool:
        return len(self.dead) >= ALLIES

    def actor(self) -> Fighter | None:
        """Whose turn it is in the fight under way."""
        fight = self.fight
        if fight is None or not fight.under_way:
            return None
        if fight.turn == ENEMY_TURN:
            return fight.enemy
        name = self.slots[fight.turn - 1]
        return self.ally(name) if name else None

    @property
    def ended_by(self) -> RuleViolation | None:
        """None: spire keeps no early end of a Spire's End campaign (not yet its deaths')."""
        return None

    def limited(self, character: str, hp: int | None, ap: int | None) -> SpiresEnd:
        """The characters' cubes are the core's: nothing of its own changes."""
        return self

    def moved_on(self) -> SpiresEnd:
        """A card was revealed: a fight that is over leaves the screen, and what the
        latest action did with it."""
        fight = self.fight
        if fight is None or fight.under_way or fight.passed:
            return replace(self, resolved=()) if self.resolved else self
        return replace(self, fight=replace(fight, passed=True), resolved=())


def spires_end(state: State) -> SpiresEnd:
    game_state = state.game_state
    return game_state if isinstance(game_state, SpiresEnd) else SpiresEnd()


def with_game(state: State, game: SpiresEnd) -> State:
    """The state with `game` as its game state, the allies' cubes mirrored in the core."""
    cubes = {a.name: a for a in game.allies}
    characters = tuple(
        replace(c, hp=max(cubes[c.name].hp, 0), ap=cubes[c.name].ap) if c.name in cubes else c
        for c in state.characters)
    return replace(state, game_state=game, characters=characters)


STATE = SpiresEnd
"""The game's own state (`State.game_state`), as snapshots name it."""
