"""Volume 2's state: the encounter under way (the allies who fight, the enemies left to
right, the round, whose turn, the dice of the turn, the hive, the target roll) and what
the latest command did; and `evolve` for its events.

The allies' HP and AP are kept here and mirrored into the core characters, and bees,
pollen, meat and pelts are the core resources, so `spire status` and `spire gain` see
the same cubes and discs. What the dice imply is worked out in `combat`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from journal.core.state import State, recent
from journal.errors import RuleViolation
from journal.games.volume2 import events as v2
from journal.games.volume2.cards import AllyCard, EnemyCard, TradeCard

Phase = Literal["allies", "enemies"]


@dataclass(frozen=True, slots=True)
class Fighter:
    """An ally in the encounter, with its cubes; KO'd at 0 HP until the encounter ends."""

    card: AllyCard
    hp: int
    ap: int
    acted: bool = False
    hp_max: int = 0
    ap_max: int = 0
    """Its limits in this encounter: the card's, and what its gear raises them by."""

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def ko(self) -> bool:
        return self.hp <= 0


@dataclass(frozen=True, slots=True)
class Foe:
    """An enemy (or wildlife) in the encounter; `out` once defeated or retreated."""

    card: EnemyCard
    hp: int
    ap: int
    out: str | None = None
    triggered: tuple[str, ...] = ()
    """The boosting abilities triggered (one name a trigger): those that stack for the
    encounter, the others until the end of the round."""

    @property
    def name(self) -> str:
        return self.card.name

    def raised(self, what: str) -> int:
        """What the triggered abilities add to its ferocity, damage or attacks."""
        boosts = (self.card.boost(name) for name in self.triggered)
        return sum(b.amount for b in boosts if b is not None and b.raises == what)

    @property
    def ferocity(self) -> int:
        return (self.card.ferocity or 0) + self.raised("ferocity")

    @property
    def standing(self) -> bool:
        return self.out is None


@dataclass(frozen=True, slots=True)
class Turn:
    """An ally's turn: its action dice, which are locked, and what it has done."""

    ally: str
    faces: tuple[str, ...] = ()
    locked: tuple[bool, ...] = ()
    spent: int = 0
    relock: bool = False
    """At least one more die was locked since the latest roll (a re-roll needs one)."""
    final: bool = False
    """Finessing is over: every die counts as locked."""
    used: tuple[bool, ...] = ()
    """The dice an action has used (a die makes one combination)."""
    deployed: int = 0
    attack_on: str | None = None
    """The target of the turn's latest successful attack (a sting adds to it)."""
    spare_bees: int = 0
    spare_pollen: int = 0
    """Locked bees and pollen the full hive could not hold: "Bees may come from your Hive
    inventory or locked rolls", so they may be deployed this turn, and are lost after."""

    def spare(self, resource: str) -> int:
        return self.spare_bees if resource == "bees" else self.spare_pollen

    def with_spare(self, resource: str, count: int) -> Turn:
        if resource == "bees":
            return replace(self, spare_bees=count)
        return replace(self, spare_pollen=count)

    @property
    def rolled(self) -> bool:
        return bool(self.faces)

    def unlocked(self) -> int:
        return sum(1 for lock in self.locked if not lock)


@dataclass(frozen=True, slots=True)
class Encounter:
    allies: tuple[Fighter, ...]
    enemies: tuple[Foe, ...]
    round: int = 1
    phase: Phase = "allies"
    turn: Turn | None = None
    hive: bool = False
    """A hive was locked this round: bees and pollen may be deployed until the enemies'
    turn begins."""
    deployed: int = 0
    """Bees and pollen deployed in the coming ally's turn before its first roll: they count
    on that turn's 4 ("You may deploy up to 4 Bees/Pollen per turn"), the turn's own once
    it rolls."""
    foe: int = 0
    """The enemy whose turn it is (the enemies act left to right)."""
    attacks_left: int = 0
    contenders: tuple[str, ...] = ()
    """The allies a tied target roll is rolled again between."""
    target: str | None = None
    """The ally the next attack hits, once the target roll (or a bee) has said."""
    outcome: str | None = None
    """None while under way; then "won", "lost", "retreated" or "ended"."""

    @property
    def under_way(self) -> bool:
        return self.outcome is None

    def ally(self, name: str) -> Fighter | None:
        folded = name.casefold()
        return next((a for a in self.allies if a.name.casefold() == folded), None)

    def enemy(self, name: str) -> Foe | None:
        folded = name.casefold()
        return next((e for e in self.enemies if e.name.casefold() == folded), None)

    def standing(self) -> tuple[Foe, ...]:
        return tuple(e for e in self.enemies if e.standing)

    def up(self) -> tuple[Fighter, ...]:
        """The allies not KO'd."""
        return tuple(a for a in self.allies if not a.ko)

    def acting(self) -> Foe | None:
        if self.phase != "enemies" or self.foe >= len(self.enemies):
            return None
        return self.enemies[self.foe]


@dataclass(frozen=True, slots=True)
class Waterfall:
    """A waterfall event laid out: the cards of each row, and what became of them."""

    event: str
    rows: tuple[int, ...]
    chosen: tuple[tuple[int, int], ...] = ()
    """(row, card) chosen, one a row, in the order chosen."""
    removed: tuple[tuple[int, int], ...] = ()
    """(row, card) removed from play by a revealed card's instruction."""
    ended: int | None = None
    """The story card revealed at the end."""

    def choice(self, row: int) -> int | None:
        """The card chosen in `row`, if one is."""
        return next((card for r, card in self.chosen if r == row), None)

    @property
    def row(self) -> int | None:
        """The row whose card is chosen next; None once the event is over."""
        if self.ended is not None:
            return None
        return next((r for r in range(1, len(self.rows) + 1) if self.choice(r) is None), None)

    def left(self, row: int) -> tuple[int, ...]:
        """The cards of `row` still in play, face down."""
        if self.choice(row) is not None or not 1 <= row <= len(self.rows):
            return ()
        gone = {card for r, card in self.removed if r == row}
        return tuple(c for c in range(1, self.rows[row - 1] + 1) if c not in gone)


@dataclass(frozen=True, slots=True)
class Trade:
    """A Trading Post Card revealed: at which story card, and whether its item was bought
    there ("When revealed, decide if you can purchase, then return the card to the deck")."""

    card: TradeCard
    at: int | None
    bought: bool = False


def story_card(state: State) -> int | None:
    """The story card the players are on: a pulled card is read "without advancing from the
    current Story Card"."""
    return state.pulled_from[0] if state.pulled_from else state.card


@dataclass(frozen=True, slots=True)
class Volume2:
    encounter: Encounter | None = None
    resolved: tuple[str, ...] = ()
    """What the latest command did, for the table to read."""
    finished: tuple[str, ...] = ()
    """One line per encounter that ended (the latest few)."""
    game_over: bool = False
    """Every ally in play was KO'd: "If all Allies in play are KO'd, it's game over.\""""
    trading: tuple[Trade, ...] = ()
    """The Trading Post Cards revealed this playthrough ("Only 5 ... each playthrough")."""
    waterfall: Waterfall | None = None
    """The latest waterfall event laid out."""
    laid: tuple[str, ...] = ()
    """Every waterfall event laid out, in order (one layout a retrieval)."""
    party: tuple[AllyCard, ...] = ()
    """The cards of the allies who joined the party (Finnian's is the game's own)."""
    episode_ended: int | None = None
    """The story card the episode ended on, once it has ended (0: before any card)."""

    @property
    def in_encounter(self) -> bool:
        return self.encounter is not None and self.encounter.under_way

    @property
    def ended_by(self) -> RuleViolation | None:
        """Why no more is played: "If all Allies in play are KO'd, the game ends
        immediately" (the core's commands ask it, as the game's own do)."""
        if not self.game_over:
            return None
        return RuleViolation("every ally in play was KO'd: the game is over (rewind to play on)",
                             "KOs and Deaths")

    def waterfalls_laid(self, event: str) -> int:
        return self.laid.count(event)

    def limited(self, character: str, hp: int | None, ap: int | None) -> Volume2:
        """Gear that raised an ally's limits has left it mid-encounter: "Allies cannot
        exceed the HP Limit without additional gear", so the encounter's limits come down
        to `hp` and `ap` and the cubes above them go (docs/volume2.md)."""
        enc = self.encounter
        fighter = enc.ally(character) if enc is not None and enc.under_way else None
        if enc is None or fighter is None:
            return self
        hp_max = fighter.hp_max if hp is None else min(fighter.hp_max, hp)
        ap_max = fighter.ap_max if ap is None else min(fighter.ap_max, ap)
        after = replace(fighter, hp_max=hp_max, ap_max=ap_max, hp=min(fighter.hp, hp_max),
                        ap=min(fighter.ap, ap_max))
        allies = tuple(after if a is fighter else a for a in enc.allies)
        return replace(self, encounter=replace(enc, allies=allies))

    def moved_on(self) -> Volume2:
        """A card was revealed: what the latest Volume 2 command did (an encounter's end
        among it) leaves the screen."""
        return replace(self, resolved=()) if self.resolved else self


def volume2(state: State) -> Volume2:
    game_state = state.game_state
    return game_state if isinstance(game_state, Volume2) else Volume2()


def with_game(state: State, game: Volume2) -> State:
    """The state with `game` as its game state, the fighting allies' cubes mirrored into
    the core characters while the encounter is under way."""
    enc = game.encounter
    return replace(mirrored(state, enc) if enc is not None and enc.under_way else state,
                   game_state=game)


def mirrored(state: State, enc: Encounter) -> State:
    """The core characters showing the cubes of the allies in `enc`."""
    fighting = {a.name: a for a in enc.allies}
    characters = tuple(
        replace(c, hp=max(fighting[c.name].hp, 0), ap=fighting[c.name].ap)
        if c.name in fighting else c for c in state.characters)
    return replace(state, characters=characters)


def finished(game: Volume2, line: str) -> tuple[str, ...]:
    return recent(game.finished, line)


LETTERS = "ABCDEFGH"
"""Row 2 onward: "Position Letter (A–F)" (a forced layout may hold up to 8)."""


def card_name(row: int, card: int) -> str:
    """How the card is printed: row 1 by its place, later rows by letter (A-F)."""
    return f"row 1 card {card}" if row == 1 else f"row {row} card {LETTERS[card - 1]}"


def carry_lines(carried: v2.CarryOver) -> list[str]:
    held = ", ".join(f"{n} {r}" for r, n in carried.resources)
    return [f"allies {', '.join(carried.allies) or 'none'}",
            f"milestones {', '.join(str(m) for m in carried.milestones) or 'none'}",
            f"items {', '.join(i.name for i in carried.items) or 'none'}",
            *([held] if held else [])]


STATE = Volume2
"""The game's own state (`State.game_state`), as snapshots name it."""
