"""Campaign state: a pure fold of `evolve` over a branch's events.

`evolve` is total: it never refuses (refusing is `decide`'s job) and never does I/O.
Retraction is resolved before folding: `project` leaves out the retracted events, so the
state after an undo is exactly the state as if the undone event had never been recorded.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

from journal.core import events as ev
from journal.errors import RuleViolation


@runtime_checkable
class GameState(Protocol):
    """What the core asks of a game's own part of the state (`State.game_state`, its
    state module's `STATE`): a frozen value, and these four."""

    @property
    def finished(self) -> tuple[str, ...]:
        """One line per encounter that ended, for the campaign's log (the latest last)."""

    @property
    def in_encounter(self) -> bool:
        """An encounter is under way (what may not change in one, such as combat items)."""

    @property
    def ended_by(self) -> RuleViolation | None:
        """Why the game is over by its own rules (the rulebook's sentence), or None while
        play goes on: the core's commands that play on break it (core/decide.py's
        `plays_on`)."""

    def moved_on(self) -> GameState:
        """The game's state once the players reveal a card: a finished encounter leaves
        the screen (or itself, when nothing changes)."""

    def limited(self, character: str, hp: int | None, ap: int | None) -> GameState:
        """The game's state once gear that raised `character`'s limits has left it: its
        HP and AP limits are now at most `hp` and `ap` (None: no limit), and the game's
        own cubes above them go (or itself, when it keeps none)."""


@dataclass(frozen=True)
class Character:
    name: str
    hp: int | None = None
    hp_max: int | None = None
    ap: int | None = None
    ap_max: int | None = None


@dataclass(frozen=True)
class Item:
    name: str
    kind: str
    holder: str | None = None
    wild_die: str | None = None
    raises: tuple[tuple[str, int], ...] = ()
    """The HP and AP limits it raises while held (Volume 2's gear)."""


@dataclass(frozen=True)
class Override:
    position: int
    reason: str


@dataclass(frozen=True)
class State:
    game: str = ""
    players: int = 0
    card: int | None = None
    pulled_from: tuple[int | None, ...] = ()
    """The pull stack: the cards that pulled cards interrupted, innermost last."""
    seen: frozenset[int] = frozenset()
    removed: frozenset[int] = frozenset()
    discarded: frozenset[int] = frozenset()
    chapter: int | None = None
    characters: tuple[Character, ...] = ()
    resources: dict[str, int] = field(default_factory=dict)
    items: tuple[Item, ...] = ()
    milestones: tuple[int, ...] = ()
    milestones_discarded: tuple[int, ...] = ()
    """Milestones a card had discarded (out of the game where DISCARD removes a card)."""
    event_cards: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    """The latest notes (at most RECENT); the log keeps every one."""
    overrides: tuple[Override, ...] = ()
    game_state: GameState | None = None
    """The game's own state (Hildegard: the target or face-off under way, next-set effects),
    typed by what the core asks of it; None until the game keeps any."""

    __pydantic_config__ = {"arbitrary_types_allowed": True}
    """For journal/core/snapshots.py, which reads and writes the core's part with pydantic
    and the game's apart (its `STATE`): here pydantic only checks it is a `GameState`."""

    def character(self, name: str) -> Character | None:
        folded = name.casefold()
        return next((c for c in self.characters if c.name.casefold() == folded), None)

    def items_held(self, holder: str | None) -> tuple[Item, ...]:
        return tuple(i for i in self.items if i.holder == holder)

    def raised(self, holder: str, limit: str) -> int:
        """What the items `holder` carries add to its `limit` ("hp" or "ap")."""
        return sum(n for i in self.items if i.holder == holder for what, n in i.raises
                   if what == limit)

    def limits(self, character: Character) -> tuple[int | None, int | None]:
        """Its HP and AP limits with what its items raise them by."""
        hp, ap = character.hp_max, character.ap_max
        return (None if hp is None else hp + self.raised(character.name, "hp"),
                None if ap is None else ap + self.raised(character.name, "ap"))

    def to_json(self) -> dict[str, Any]:
        """The state as plain JSON values, in a stable order."""
        return {
            "card": self.card,
            "pull_stack": list(self.pulled_from),
            "chapter": self.chapter,
            "players": self.players,
            "resources": dict(sorted(self.resources.items())),
            "items": [_item_json(i) for i in self.items],
            "characters": [
                {"name": c.name, "hp": c.hp, "hp_max": self.limits(c)[0], "ap": c.ap,
                 "ap_max": self.limits(c)[1]}
                for c in self.characters
            ],
            "cards_seen": sorted(self.seen),
            "removed": sorted(self.removed),
            "discarded": sorted(self.discarded),
            "milestones": list(self.milestones),
            **({"milestones_discarded": list(self.milestones_discarded)}
               if self.milestones_discarded else {}),
            "event_cards": list(self.event_cards),
            "notes": list(self.notes),
            "overrides": [{"seq": o.position, "reason": o.reason} for o in self.overrides],
        }


T = TypeVar("T")

RECENT = 10
"""How many of the latest notes (and ended encounters) the state keeps: bounded, so a fold
costs the same at the millionth event as at the first."""


def recent(kept: tuple[T, ...], new: T) -> tuple[T, ...]:
    return (*kept[-(RECENT - 1):], new)


def added(before: tuple[T, ...], after: tuple[T, ...]) -> T | None:
    """What `recent` added to `before` to make `after` (an encounter that ended, in a
    game's `finished`), or None: nothing changed, or the log went back, as it does when an
    undo takes an end back (it holds one line fewer, or an older line again)."""
    if not after or after == before or after[:-1] != before[-(RECENT - 1):]:
        return None
    return after[-1]


def replace(obj: T, **changes: Any) -> T:
    """`dataclasses.replace` for spire's frozen state classes, without re-running
    `__init__`: a fold calls it for every event, and the state is never validated there."""
    new = _new(type(obj))
    # One new dict, assigned whole (the frozen class refuses plain assignment): a fold
    # copies a few objects an event, and filling a fresh instance's dict cost half again.
    _set(new, "__dict__", obj.__dict__ | changes)
    return new


_new, _set = object.__new__, object.__setattr__


def make(cls: type[T], **fields: Any) -> T:
    """`cls(**fields)` for one of spire's frozen state classes, every field without a
    default given, without `__init__` (a frozen dataclass's sets each field through
    object.__setattr__): for what a fold makes every few events."""
    defaults = _DEFAULTS.get(cls)
    if defaults is None:
        defaults = _DEFAULTS[cls] = _defaults(cls)
    new = _new(cls)
    _set(new, "__dict__", defaults | fields)
    return new


_DEFAULTS: dict[type, dict[str, Any]] = {}


def _defaults(cls: type) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for spec in dataclasses.fields(cls):
        if spec.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{spec.name} has a default factory; use __init__")
        if spec.default is not dataclasses.MISSING:
            found[spec.name] = spec.default
    return found


def _item_json(item: Item) -> dict[str, Any]:
    data: dict[str, Any] = {"name": item.name, "kind": item.kind, "holder": item.holder}
    if item.raises:
        data["raises"] = {what: n for what, n in item.raises}
    return data | ({"wild_die": item.wild_die} if item.wild_die else {})


def evolve(state: State, recorded: ev.Entry) -> State:
    """The state after one recorded event."""
    return _evolved(state, recorded.event, recorded.position, recorded.override)


def _evolved(state: State, event: ev.Event, position: int, override: str | None) -> State:
    apply = _HANDLERS.get(type(event)) or _handler(type(event))
    after = apply(event, state)
    if override:
        return overridden(after, position, override)
    return after


def handler(kind: type) -> Handler:
    """How an event of `kind` changes the state: `evolve` without the override, for a fold
    that looks it up once per kind of event (the report's)."""
    return _HANDLERS.get(kind) or _handler(kind)


def overridden(state: State, position: int, override: str) -> State:
    """The state with the override of the event at `position` kept (`evolve`'s last step)."""
    return replace(state, overrides=(*state.overrides, Override(position, override)))


def retracted_positions(history: Iterable[ev.Entry]) -> frozenset[int]:
    """Positions an undo took back (a retraction itself is never retracted)."""
    return frozenset(
        p for r in history if isinstance(r.event, ev.Retracted) for p in r.event.positions
    )


def fold(facts: Iterable[ev.Fact], gone: AbstractSet[int], state: State | None = None) -> State:
    """Fold events as they come, leaving out the positions in `gone` (known beforehand).

    `_evolved` spelt out in the loop (change them together), its handlers looked up in a
    local: a replay folds every event here, and the call an event cost as much as a small
    handler."""
    state = state or State()
    handlers, handler = _HANDLERS, _handler
    for position, event, override in facts:
        if position in gone:
            continue
        cls = type(event)  # (not `event.__class__`: a model's attribute is slow to reach)
        state = (handlers.get(cls) or handler(cls))(event, state)
        if override:
            state = replace(state, overrides=(*state.overrides, Override(position, override)))
    return state


def project(history: Iterable[ev.Recorded], state: State | None = None) -> State:
    """Fold a branch's events into its state, leaving out retracted events."""
    history = list(history)
    gone = retracted_positions(history)
    state = state or State()
    for recorded in history:
        if recorded.position in gone:
            continue
        state = evolve(state, recorded)
    return state


Handler = Callable[[Any, State], State]
HANDLERS: ev.ByEvent[Handler] = ev.ByEvent()
"""How each of the core's events changes the state; each game keeps its own in its
evolve module, and the fold finds them there (`ev.of_game`)."""

_HANDLERS: dict[type, Handler] = {}
"""Each event class's handler, the core's or its game's, as a fold has looked it up: a fold
calls one per event, and a lookup through the tables cost as much as a small handler."""


def _handler(cls: type) -> Handler:
    found: Handler = HANDLERS.get(cls) or ev.of_game(cls, "evolve").get(cls) or _unchanged
    _HANDLERS[cls] = found
    return found


def _unchanged(event: Any, state: State) -> State:
    return state


@HANDLERS.register
def _(event: ev.CampaignStarted, state: State) -> State:
    characters = tuple(_character(c) for c in event.characters)
    return replace(
        state, game=event.game, players=event.players,
        resources=dict(event.resources), characters=characters,
        seen=state.seen | set(event.pulled) if event.pulled else state.seen,
    )


def _character(sheet: ev.CharacterSheet) -> Character:
    return Character(sheet.name, sheet.hp, sheet.hp, sheet.ap, sheet.ap)


def moved_on(state: State) -> State:
    """A card revealed (pulled or retrieved): the players have moved on, and the game's
    finished encounter leaves the screen (its `moved_on` says how)."""
    if state.game_state is None:
        return state
    after = state.game_state.moved_on()
    return state if after is state.game_state else replace(state, game_state=after)


@HANDLERS.register
def _(event: ev.CardRevealed, state: State) -> State:
    return moved_on(replace(
        state, card=event.card, pulled_from=(), seen=_with_card(state.seen, event.card),
        removed=state.removed | set(event.removed) if event.removed else state.removed,
    ))


def _with_card(cards: frozenset[int], card: int) -> frozenset[int]:
    """`cards` and `card` (the same set if it holds `card`: a long campaign sees hundreds)."""
    return cards if card in cards else cards | {card}


@HANDLERS.register
def _(event: ev.CardPulled, state: State) -> State:
    return moved_on(replace(
        state, card=event.card, pulled_from=(*state.pulled_from, state.card),
        seen=state.seen | {event.card},
    ))


@HANDLERS.register
def _(event: ev.PulledCardReturned, state: State) -> State:
    if not state.pulled_from:
        return state
    return replace(state, card=state.pulled_from[-1], pulled_from=state.pulled_from[:-1])


@HANDLERS.register
def _(event: ev.CardDiscarded, state: State) -> State:
    if event.removed_from_game:
        return replace(state, removed=state.removed | {event.card})
    return replace(state, discarded=state.discarded | {event.card})


@HANDLERS.register
def _(event: ev.CardRetrieved, state: State) -> State:
    return moved_on(replace(
        state, card=event.card, pulled_from=(*state.pulled_from, state.card),
        seen=state.seen | {event.card}, discarded=state.discarded - {event.card},
        removed=state.removed - {event.card},
    ))


@HANDLERS.register
def _(event: ev.MilestoneRetrieved, state: State) -> State:
    return replace(state, milestones=(*state.milestones, event.milestone))


@HANDLERS.register
def _(event: ev.MilestoneDiscarded, state: State) -> State:
    kept = tuple(m for m in state.milestones if m != event.milestone)
    return replace(state, milestones=kept,
                   milestones_discarded=(*state.milestones_discarded, event.milestone))


@HANDLERS.register
def _(event: ev.EventCardsRetrieved, state: State) -> State:
    return replace(state, event_cards=(*state.event_cards, event.event))


@HANDLERS.register
def _(event: ev.ChapterStarted, state: State) -> State:
    return replace(state, chapter=event.chapter)


@HANDLERS.register
def _(event: ev.CharacterJoined, state: State) -> State:
    return replace(state, characters=(*state.characters, _character(event.character)))


@HANDLERS.register
def _(event: ev.ItemGained, state: State) -> State:
    item = Item(event.item, event.kind, event.holder, event.wild_die, event.raises)
    return replace(state, items=(*state.items, item))


@HANDLERS.register
def _(event: ev.ItemLost, state: State) -> State:
    index = _find_item(state, event.item, event.holder)
    if index is None:
        return state
    gone = state.items[index]
    state = replace(state, items=state.items[:index] + state.items[index + 1:])
    return _within_limits(state, gone)


@HANDLERS.register
def _(event: ev.ItemPassed, state: State) -> State:
    index = _find_item(state, event.item, event.giver)
    if index is None:
        return state
    given = state.items[index]
    moved = replace(given, holder=event.holder)
    state = replace(state, items=(*state.items[:index], moved, *state.items[index + 1:]))
    return _within_limits(state, given)


def _within_limits(state: State, item: Item) -> State:
    """Gear that raised a limit has left its holder: cubes above the limit now go."""
    if not item.raises or item.holder is None:
        return state
    who = state.character(item.holder)
    if who is None:
        return state
    hp_max, ap_max = state.limits(who)
    kept = replace(who, hp=_at_most(who.hp, hp_max), ap=_at_most(who.ap, ap_max))
    state = replace(state, characters=tuple(kept if c is who else c for c in state.characters))
    if state.game_state is None:
        return state
    return replace(state, game_state=state.game_state.limited(who.name, hp_max, ap_max))


def _at_most(value: int | None, limit: int | None) -> int | None:
    return value if value is None or limit is None else min(value, limit)


def _find_item(state: State, name: str, holder: str | None) -> int | None:
    folded = name.casefold()
    for index, item in enumerate(state.items):
        if item.name.casefold() == folded and item.holder == holder:
            return index
    return None


@HANDLERS.register
def _(event: ev.ResourceGained, state: State) -> State:
    return _add(state, event.resource, event.amount)


@HANDLERS.register
def _(event: ev.ResourceSpent, state: State) -> State:
    return _add(state, event.resource, -event.amount)


def _add(state: State, resource: str, amount: int) -> State:
    resources = dict(state.resources)
    resources[resource] = resources.get(resource, 0) + amount
    return replace(state, resources=resources)


@HANDLERS.register
def _(event: ev.NoteAdded, state: State) -> State:
    return replace(state, notes=recent(state.notes, event.text))
