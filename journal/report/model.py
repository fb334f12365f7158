"""What a play report holds: plain frozen records, built once and rendered three ways.

Positions are the events' numbers on the branch (`#12`). Everything here comes from the
branch's own events, so a report shows only the cards its players revealed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, NamedTuple, TypeAlias

from journal.core.dice_stats import DiceStats, Luck

Position: TypeAlias = int


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


@dataclass(frozen=True, slots=True)
class CampaignInfo:
    name: str
    game: str
    title: str
    players: int
    characters: tuple[str, ...]
    branch: str
    parent: str | None
    fork: Position | None
    first_at: datetime
    last_at: datetime
    events: int
    standing: str
    """How it ended, or where it stands, in one sentence."""
    head_hash: str = ""
    """The hash of the branch's last event: `spire audit --expect` checks the journal
    against it (issue 15, the seal)."""


class CardStep(NamedTuple):
    """A card the players were told to reveal, pull or retrieve. (A named tuple: a long
    campaign moves to a card every few events, and a story makes one each time.)"""

    position: Position
    card: int
    how: Literal["revealed", "pulled", "retrieved"]
    chapter: int | None
    name: str | None = None
    """The card's name, when the players entered a card of this number by name."""

    @property
    def label(self) -> str:
        """"14 Hungry Badger", or "14" for a card entered by number alone."""
        return str(self.card) if self.name is None else f"{self.card} {self.name}"


@dataclass(frozen=True, slots=True)
class Chapter:
    number: int
    position: Position
    cards: tuple[int, ...]
    """The cards revealed, pulled or retrieved during the chapter, in order."""


@dataclass(frozen=True, slots=True)
class CheckpointMark:
    name: str
    position: Position
    card: int | None


@dataclass(frozen=True, slots=True)
class TargetReport:
    """A Hildegard target: the card's numbers, the bullseyes of each set, the outcome."""

    name: str
    number: int | None
    started: Position
    ended: Position | None
    shooter: str
    bullseye_limit: int
    accuracy: int
    sets: int
    parts: tuple[str, ...]
    reward: str | None
    bonus: str | None
    bonus_awarded: bool
    set_bullseyes: tuple[int, ...]
    bullseyes: int
    outcome: Literal["hit", "miss"] | None
    next_card: int | None
    chance: float | None = None
    """The chance to hit it had at its start, with the best finesse and no feats spent
    (`spire odds`); None where the odds do not weigh it."""
    playing: int | None = None
    """The bullseyes of the set under way so far (not yet tallied), as `status` shows
    them; None when no set is under way."""

    @property
    def so_far(self) -> str:
        """", and 1 bullseye in the set being rolled", or nothing."""
        if self.playing is None:
            return ""
        return f", and {plural(self.playing, 'bullseye')} in the set being rolled"

    @property
    def chance_text(self) -> str:
        if self.chance is None:
            return ""
        return f"{self.chance:.1%} to hit at its start, with the best finesse and no feat"

    @property
    def result(self) -> str:
        """The outcome and where it sends the players, or how far the target has come."""
        if self.outcome is None:
            return f"under way, {self.bullseyes} of {self.bullseye_limit} bullseyes{self.so_far}"
        after = f"; card {self.next_card} next" if self.next_card is not None else ""
        return f"{self.outcome} with {plural(self.bullseyes, 'bullseye')}{after}"

    @property
    def headline(self) -> str:
        if self.outcome is not None:
            return f"{self.name}: {self.outcome} with {plural(self.bullseyes, 'bullseye')}"
        return (f"{self.name}: under way, {self.bullseyes} of "
                f"{plural(self.bullseye_limit, 'bullseye')} after "
                f"{len(self.set_bullseyes)} of {plural(self.sets, 'set')}{self.so_far}")


@dataclass(frozen=True, slots=True)
class Enemy:
    name: str
    bullseye_limit: int
    bullseyes: int
    defeated: bool


@dataclass(frozen=True, slots=True)
class Round:
    """One face-off round a die was rolled in: the players' bullseyes and the hits the
    enemies made (so far, while it is `under_way`)."""

    number: int
    bullseyes: int
    hits: int
    under_way: bool = False

    @property
    def label(self) -> str:
        return f"{self.number} (under way)" if self.under_way else str(self.number)


@dataclass(frozen=True, slots=True)
class FaceOffReport:
    meter: str
    started: Position
    ended: Position | None
    accuracy: int
    squares: int
    hits: int
    blocks: int
    enemies: tuple[Enemy, ...]
    rounds: tuple[Round, ...]
    outcome: Literal["won", "lost"] | None
    next_card: int | None
    unrolled: int | None = None
    """The round under way that no die has been rolled in yet (the next, once one ended):
    in no table or chart, as noughts would say it was played."""

    @property
    def name(self) -> str:
        return ", ".join(e.name for e in self.enemies)

    @property
    def status(self) -> str:
        """"won; card 30 next", "under way; round 2 not yet rolled"."""
        if self.outcome is None:
            return "under way" + (f"; round {self.unrolled} not yet rolled"
                                  if self.unrolled is not None else "")
        return self.outcome + (f"; card {self.next_card} next"
                               if self.next_card is not None else "")

    @property
    def headline(self) -> str:
        round_ = self.unrolled or (self.rounds[-1].number if self.rounds else 1)
        if self.outcome is not None:
            return f"Face-off with {self.name}: {self.outcome} in round {round_}"
        return (f"Face-off with {self.name}: under way in round {round_}, "
                f"{self.hits} of {plural(self.squares, 'square')} hit")


@dataclass(frozen=True, slots=True)
class Fighter:
    """A Volume 2 ally or enemy as the encounter left it (an ally before the reset)."""

    name: str
    hp: int
    hp_max: int
    ap: int
    ap_max: int
    fate: str
    """Allies: "standing" or "KO'd"; enemies: "standing", "defeated" or "retreated"."""


@dataclass(frozen=True, slots=True)
class Exchange:
    """One round of a Volume 2 encounter: the damage the allies dealt and took."""

    number: int
    dealt: int
    taken: int


@dataclass(frozen=True, slots=True)
class Beat:
    """One step of a fight as the table played it: what was recorded, and what it did,
    every number it changed (the lines `spire replay` shows)."""

    position: Position
    round: int
    says: str
    did: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class EncounterReport:
    """A Volume 2 encounter or a Spire's End fight: who fought, how each fared, each
    round's damage and (Spire's End) each step of each round."""

    started: Position
    ended: Position | None
    allies: tuple[Fighter, ...]
    enemies: tuple[Fighter, ...]
    rounds: tuple[Exchange, ...]
    outcome: str | None
    """None while under way; then "won", "lost", "retreated" or "ended"."""
    noun: str = "Encounter"
    """What the rulebook calls it: Volume 2's "Encounter", Spire's End's "Fight"."""
    beats: tuple[Beat, ...] = ()

    @property
    def name(self) -> str:
        return ", ".join(e.name for e in self.enemies)

    @property
    def headline(self) -> str:
        round_ = self.rounds[-1].number if self.rounds else 1
        if self.outcome is None:
            return f"{self.noun} with {self.name}: under way in round {round_}"
        how = {"won": "won", "lost": "lost", "retreated": "the enemies retreated",
               "ended": "ended"}[self.outcome]
        return f"{self.noun} with {self.name}: {how} in round {round_}"


Encounter: TypeAlias = TargetReport | FaceOffReport | EncounterReport


@dataclass(frozen=True, slots=True)
class Series:
    """A resource over time: its value at the start and after each change."""

    resource: str
    points: tuple[tuple[Position, int], ...]


@dataclass(frozen=True, slots=True)
class ItemRecord:
    name: str
    kind: str
    gained: Position
    holders: tuple[str | None, ...]
    """Who carried it, in turn; None: set aside."""
    lost: Position | None


@dataclass(frozen=True, slots=True)
class Death:
    name: str
    position: Position


Moment: TypeAlias = Literal["chapter", "card", "checkpoint", "note", "encounter", "death"]


@dataclass(frozen=True, slots=True)
class TimelineEntry:
    """One thing that happened, in the order it happened: a chapter begun, a card, a
    checkpoint, a note as it was written, an encounter's outcome, a death."""

    position: Position
    kind: Moment
    text: str
    at: datetime


@dataclass(frozen=True, slots=True)
class Note:
    position: Position
    text: str
    at: datetime


@dataclass(frozen=True, slots=True)
class OverrideRecord:
    position: Position
    says: str
    reason: str
    undone: bool


@dataclass(frozen=True, slots=True)
class UndoRecord:
    position: Position
    undid: tuple[tuple[Position, str], ...]


@dataclass(frozen=True, slots=True)
class Rollers:
    """One kind of die's results told apart by who rolled them, as the luck line counts
    the players' own: per face of the kind (in its order), a count for each of `who`."""

    die: str
    who: tuple[str, ...]
    counts: tuple[tuple[int, ...], ...]

    def totals(self) -> tuple[int, ...]:
        return tuple(sum(column) for column in zip(*self.counts, strict=True))


@dataclass(frozen=True, slots=True)
class Dice:
    """Every die result of the branch, undone ones aside; `luck` is the players' own."""

    kinds: tuple[DiceStats, ...]
    luck: Luck | None
    luck_line: str
    rollers: tuple[Rollers, ...] = ()
    """The kinds of die both the players and the enemies roll, told apart."""

    def split(self, kind: DiceStats) -> Rollers | None:
        return next((r for r in self.rollers if r.die == kind.die), None)


@dataclass(frozen=True, slots=True)
class MilestoneRecord:
    number: int
    retrieved: Position
    discarded: Position | None


@dataclass(frozen=True, slots=True)
class TradeRecord:
    """A Trading Post Card revealed (Volume 2), and whether its item was bought."""

    position: Position
    item: str
    price: str
    bought: Position | None


@dataclass(frozen=True, slots=True)
class WaterfallRecord:
    """A waterfall event (Volume 2): the card chosen in each row, the card it ended on."""

    event: str
    laid: Position
    chosen: tuple[str, ...]
    ended: int | None


@dataclass(frozen=True, slots=True)
class Report:
    campaign: CampaignInfo
    path: tuple[CardStep, ...]
    chapters: tuple[Chapter, ...]
    checkpoints: tuple[CheckpointMark, ...]
    encounters: tuple[Encounter, ...]
    resources: tuple[Series, ...]
    items: tuple[ItemRecord, ...]
    deaths: tuple[Death, ...]
    notes: tuple[Note, ...]
    overrides: tuple[OverrideRecord, ...]
    undos: tuple[UndoRecord, ...]
    dice: Dice
    deaths_kept: bool = False
    """Whether the game's characters can die (its report module says), so a section of
    deaths is kept."""
    story_map: Any = None
    """The roads taken (journal.insight.mapping.StoryMap): every branch of every campaign of the
    game in the journal, the cards the players have seen; None when not gathered."""
    milestones: tuple[MilestoneRecord, ...] = ()
    trades: tuple[TradeRecord, ...] = ()
    waterfalls: tuple[WaterfallRecord, ...] = ()
    timeline: tuple[TimelineEntry, ...] = ()
    shown: Any = None
    spooled: Any = None
    """The sections of a long JSON report that grow with the campaign, kept on disk
    (journal.report.spool.Spooled) rather than in `path`, `timeline`, `encounters`,
    `notes` and `undos`, which are then empty."""
    """What a long campaign's Markdown and HTML show (journal.report.digest.Shown), when the
    report was built to be read rather than kept whole: then `path`, `timeline` and
    `encounters` hold only what is shown, and `notes` and the chapters' cards are not kept."""


def kind_of(x: Encounter) -> str:
    if isinstance(x, TargetReport):
        return "target"
    if isinstance(x, FaceOffReport):
        return "face-off"
    return x.noun.lower()


class Ended:
    """An encounter over, as a long campaign's report first needs it (its kind, name,
    outcome and start: a row of the table per card); the whole of it is made only if the
    report keeps it (`made`)."""

    __slots__ = ("_made", "ended", "kind", "make", "name", "outcome", "started")

    def __init__(self, kind: str, name: str, outcome: str | None, started: Position,
                 ended: Position | None, make: Callable[[], Encounter]) -> None:
        self.kind, self.name, self.outcome = kind, name, outcome
        self.started, self.ended, self.make = started, ended, make
        self._made: Encounter | None = None

    @classmethod
    def of(cls, x: Encounter) -> Ended:
        found = cls(kind_of(x), x.name, x.outcome, x.started, x.ended, lambda: x)
        found._made = x
        return found

    def made(self) -> Encounter:
        if self._made is None:
            self._made = self.make()
        return self._made


Found: TypeAlias = Callable[[Ended, datetime, "datetime | None"], None]
"""Where an encounter goes once it is over (the next one began, or the branch ended): the
encounter, and when it began and ended."""


def characters(names: Sequence[str], show: Callable[[str], str] = str) -> str:
    """"characters Millicent, Oswin, Wynn": who was played, apart from how many played."""
    word = "character" if len(names) == 1 else "characters"
    return f"{word} {', '.join(show(n) for n in names)}"


HOW = {"revealed": "Revealed", "pulled": "Pulled", "retrieved": "Retrieved"}


def card_text(step: CardStep) -> str:
    """A card on the timeline: "Revealed card 14 Hungry Badger"."""
    return f"{HOW[step.how]} card {step.label}"


def path_step(step: CardStep) -> str:
    """A card on the path: "14 Hungry Badger", "12 (pulled)"."""
    return step.label if step.how == "revealed" else f"{step.label} ({step.how})"


def has_deaths(report: Report) -> bool:
    """Whether the game's characters can die (its report says: some have no HP)."""
    return report.deaths_kept


def fairness(kind: DiceStats) -> str:
    """What the chi-squared test says of one kind of die, or why there is none."""
    counted = plural(kind.total, "result")
    if kind.p_value is not None and kind.chi_squared is not None:
        return (f"{counted}; chi-squared {kind.chi_squared:.2f} with {kind.dof} degrees of "
                f"freedom, p = {kind.p_value:.3f} (information, not a verdict: a fair die "
                "gives p below 0.05 one time in twenty).")
    if kind.needed is None:
        return (f"{counted}; the rulebook does not print this die's faces, so there is no "
                "fair share to compare with.")
    return f"{counted}; a chi-squared test needs at least {kind.needed}."
