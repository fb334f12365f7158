"""The facts a journal records: frozen pydantic models, named in the past tense.

Each payload type carries a schema version. Stored payloads are never rewritten: an old
version is upgraded when read, by the upcasters registered here.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import (
    Annotated,
    Any,
    ClassVar,
    Literal,
    NamedTuple,
    TypeAlias,
    TypeVar,
    get_args,
    get_type_hints,
)

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from journal.errors import BadInput, TooNew, invalid

Card: TypeAlias = int

# What the players type is checked against these where it comes in (journal.core.decide),
# so that what spire keeps it can carry over, export and import again. Events read from a
# journal are not held to them: an older spire may have kept more.
CARD_HIGHEST = 99_999
"""The highest card number: a Volume 2 episode carries the story card it ended on."""
NAME_LONGEST = 200
"""The most characters in the name of an item or a character the players type (a
campaign's, branch's or checkpoint's is held to the journal's columns, as long)."""
NOTE_LONGEST = 10_000
"""The most characters in a note: its event, exported, is one line, and an import reads
lines of at most a million characters (six for each character JSON writes longest)."""


class Payload(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    version: ClassVar[int] = 1


class CampaignStarted(Payload):
    type: Literal["campaign-started"] = "campaign-started"
    game: str
    players: int = Field(ge=1)
    resources: tuple[tuple[str, int], ...] = ()
    characters: tuple[CharacterSheet, ...] = ()
    pulled: tuple[Card, ...] = ()
    """Cards the set-up pulls (Hildegard, two players: Hallveig's character and weapon)."""


class CharacterSheet(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)
    name: str
    hp: int | None = None
    ap: int | None = None


class CardRevealed(Payload):
    type: Literal["card-revealed"] = "card-revealed"
    card: Card
    removed: tuple[Card, ...] = ()
    """Cards the reveal removed from the game (spires-end: the cards in between)."""
    supplemental: bool = False
    """Hildegard, two players: the 2 Player Supplemental Card of this number was revealed."""


class CardPulled(Payload):
    type: Literal["card-pulled"] = "card-pulled"
    card: Card
    supplemental: bool = False
    """Hildegard, two players: the 2 Player Supplemental Card of this number was pulled
    (a journal written before it was said reads as False)."""


class PulledCardReturned(Payload):
    type: Literal["pulled-card-returned"] = "pulled-card-returned"
    card: Card | None = None
    """The card the pull had interrupted, now current again."""


class CardDiscarded(Payload):
    type: Literal["card-discarded"] = "card-discarded"
    card: Card
    removed_from_game: bool


class CardRetrieved(Payload):
    type: Literal["card-retrieved"] = "card-retrieved"
    card: Card


class MilestoneRetrieved(Payload):
    type: Literal["milestone-retrieved"] = "milestone-retrieved"
    milestone: int


class MilestoneDiscarded(Payload):
    """A milestone leaves play, as a card instructs."""

    type: Literal["milestone-discarded"] = "milestone-discarded"
    milestone: int


class EventCardsRetrieved(Payload):
    type: Literal["event-cards-retrieved"] = "event-cards-retrieved"
    event: str


class ChapterStarted(Payload):
    type: Literal["chapter-started"] = "chapter-started"
    chapter: int


class CharacterJoined(Payload):
    type: Literal["character-joined"] = "character-joined"
    character: CharacterSheet


class ItemGained(Payload):
    """Version 2 added the item's kind; version 1 items were all story items."""

    type: Literal["item-gained"] = "item-gained"
    version: ClassVar[int] = 2
    item: str
    kind: str
    holder: str | None = None
    wild_die: str | None = None
    """Hildegard: the wild shot die a fishing item adds (Item Classification)."""
    raises: tuple[tuple[Literal["hp", "ap"], int], ...] = ()
    """Volume 2's gear: the limits it raises while held ("Allies cannot exceed the HP Limit
    without additional gear")."""


class ItemLost(Payload):
    type: Literal["item-lost"] = "item-lost"
    item: str
    holder: str | None = None


class ItemPassed(Payload):
    type: Literal["item-passed"] = "item-passed"
    item: str
    giver: str | None
    holder: str | None


class ResourceGained(Payload):
    type: Literal["resource-gained"] = "resource-gained"
    resource: str
    amount: int = Field(ge=1)


class ResourceSpent(Payload):
    type: Literal["resource-spent"] = "resource-spent"
    resource: str
    amount: int = Field(ge=1)
    on: str | None = None


class NoteAdded(Payload):
    type: Literal["note-added"] = "note-added"
    text: str = Field(min_length=1)


class Retracted(Payload):
    """An undo: the events at `positions` no longer count. They stay in the log."""

    type: Literal["retracted"] = "retracted"
    positions: tuple[int, ...]


CoreEvent = Annotated[
    CampaignStarted
    | CardRevealed
    | CardPulled
    | PulledCardReturned
    | CardDiscarded
    | CardRetrieved
    | MilestoneRetrieved
    | MilestoneDiscarded
    | EventCardsRetrieved
    | ChapterStarted
    | CharacterJoined
    | ItemGained
    | ItemLost
    | ItemPassed
    | ResourceGained
    | ResourceSpent
    | NoteAdded
    | Retracted,
    Field(discriminator="type"),
]
Event: TypeAlias = Payload
"""Any event: a core one or one of a game's (each game module defines its own union)."""



CORE_EVENTS: tuple[type[Payload], ...] = get_args(get_args(CoreEvent)[0])
"""The core's events: what every game's campaign records (cards, items, notes, undos)."""

_TYPES: dict[str, type[Payload]] = {}
"""Each event class spire knows, by its type tag: the core's, and each game's once learnt."""


def learn(events: Iterable[type[Payload]]) -> None:
    """Know `events` by their type tags from now on."""
    _TYPES.update((kind.model_fields["type"].default, kind) for kind in events)


learn(CORE_EVENTS)


def learn_game(game: str) -> None:
    """Know the events of the game called `game` (its events module's `EVENTS`), as the
    service does before it reads a campaign of the game."""
    from journal.games import package

    learn(importlib.import_module(f"{package(game)}.events").EVENTS)


def payload_type(type_: str) -> type[Payload]:
    """The payload class of an event type: the core's, or a game's learnt (the service
    learns the campaign's game before it reads); an unknown type learns every game's."""
    found = _TYPES.get(type_)
    if found is None:
        found = payload_types().get(type_)
    if found is None:
        raise BadInput(f"unknown event type {type_!r}")
    return found


def payload_types() -> dict[str, type[Payload]]:
    """Every event type spire knows, by its `type` tag (imports every game's events)."""
    from journal.games import names

    for name in names():
        learn_game(name)
    return dict(_TYPES)


Fn = TypeVar("Fn", bound=Callable[..., Any])


class ByEvent(dict[type, Fn]):
    """Functions by the event class they take first: how each event changes the state (the
    core's `HANDLERS` in journal/core/state.py, each game's in its evolve module) and how
    each is said (`SAYINGS`, the core's and each game's describe module's). Filled by
    `@table.register` over each function, as `functools.singledispatch` is; read by the
    core, which finds a game's table from the package of the event (`of_game`)."""

    def register(self, fn: Fn) -> Fn:
        """Add `fn` under the event class its first parameter is annotated with."""
        self[next(iter(get_type_hints(fn).values()))] = fn
        return fn


def of_game(kind: type, layer: str) -> dict[type, Any]:
    """The table the game that defines the event class `kind` keeps in its module of
    `layer` ("evolve": `HANDLERS`, "describe": `SAYINGS`): every game defines its events in
    its package's events module (journal/games/interface.py), so the package of `kind`
    says whose. Empty for an event of no game's."""
    package, _, module = kind.__module__.rpartition(".")
    if module != "events" or kind in CORE_EVENTS:
        return {}
    found: dict[type, Any] = getattr(
        importlib.import_module(f"{package}.{layer}"), _TABLES[layer])
    return found


_TABLES = {"evolve": "HANDLERS", "describe": "SAYINGS"}


Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
_UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def upcaster(type_: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register `fn` to lift a `type_` payload from `from_version` to the next version."""

    def register(fn: Upcaster) -> Upcaster:
        _UPCASTERS[(type_, from_version)] = fn
        return fn

    return register


@upcaster("item-gained", 1)
def _item_kind_added(payload: dict[str, Any]) -> dict[str, Any]:
    return {**payload, "kind": "story"}


def current_version(type_: str) -> int:
    return payload_type(type_).version


def upcast(type_: str, version: int, data: dict[str, Any]) -> dict[str, Any]:
    """Lift a stored payload of `version` to the current version of its type."""
    latest = current_version(type_)
    if version > latest:
        raise TooNew(f"{type_} version {version} is newer than this spire knows ({latest})")
    if version < 1 or (version < latest and (type_, version) not in _UPCASTERS):
        raise BadInput(f"{type_} has no version {version} (this spire knows 1 to {latest})")
    while version < latest:
        data = _UPCASTERS[(type_, version)](data)
        version += 1
    return data


def parse_payload(type_: str, version: int, data: dict[str, Any]) -> Event:
    """Validate a stored payload (upcasting it first) into its event model."""
    data = upcast(type_, version, {**data, "type": type_})
    try:
        return payload_type(type_).model_validate(data)
    except ValidationError as e:
        raise BadInput(f"invalid {type_} payload: {invalid(e.errors()[0])}") from None


def payload_data(event: Payload) -> dict[str, Any]:
    """The payload as stored: its fields without the `type` tag (kept in its own column)."""
    return event.model_dump(mode="json", exclude={"type"}, exclude_defaults=True)


class Recorded(NamedTuple):
    """An event as the journal holds it: its place in the branch and its provenance.
    (A named tuple: a replay makes one per event, and it is only read.)"""

    position: int
    event: Event
    recorded_at: datetime
    player: int | None = None
    override: str | None = None
    prev_hash: str = ""
    hash: str = ""

    @property
    def type(self) -> str:
        # `tag_of`, its lookup spelt out: an audit asks each event
        tag = _TAGS.get(type(self.event))
        return tag if tag is not None else tag_of(type(self.event))


def tag_of(kind: type[Payload]) -> str:
    """An event class's type tag ("note-added")."""
    tag = _TAGS.get(kind)
    if tag is None:  # each class's tag looked up once: pydantic's lookup is slow
        tag = _TAGS[kind] = kind.model_fields["type"].default
    return tag


_TAGS: dict[type, str] = {}
"""Each event class's type tag, as `tag_of` has looked it up."""


class Told:
    """An event as a story tells it: where, what, when, and the rules it overrode; without
    the player and the hashes only proof reads. (What the play report and the map read of
    every event of a branch: a plain class with slots, the lightest object that has these
    four names; a tuple's subclass costs more to make and to free.)"""

    __slots__ = ("event", "override", "position", "recorded_at")

    def __init__(self, position: int, event: Event, recorded_at: datetime,
                 override: str | None = None) -> None:
        self.position, self.event, self.recorded_at, self.override = (
            position, event, recorded_at, override)

    def __repr__(self) -> str:
        return (f"Told(position={self.position!r}, event={self.event!r}, "
                f"recorded_at={self.recorded_at!r}, override={self.override!r})")


Entry: TypeAlias = "Recorded | Told"
"""An event as the report reads it: with its proof (a test's history in hand) or without
(a branch as it streams, `store.log.told`)."""


Fact: TypeAlias = tuple[int, Event, "str | None"]
"""An event as a replay folds it: (position, event, the rules it overrode), without the
provenance only proof reads. A plain tuple: a replay makes one per event."""


_PARSED: dict[tuple[str, int, str], Payload] = {}
_PARSED_MAX = 8192
_VALIDATE: dict[tuple[str, int], Callable[[str], Payload]] = {}
"""Per event type at its current version, how its stored JSON is validated."""


def parse_stored(type_: str, version: int, text: str) -> Event:
    """A stored payload's event. Payloads are frozen values and a campaign repeats many
    (the same dice, the same gain), so a bounded memo spares validating each again."""
    key = (type_, version, text)
    found = _PARSED.get(key)
    if found is not None:
        return found
    validate = _VALIDATE.get((type_, version))
    if validate is None and version == current_version(type_):
        # The model's SchemaValidator (its documented `__pydantic_validator__`), what
        # `model_validate_json` calls: a campaign's notes are each new to the memo.
        validate = payload_type(type_).__pydantic_validator__.validate_json
        _VALIDATE[(type_, version)] = validate
    if validate is not None:
        try:
            event = validate(text)
        except ValidationError:
            event = parse_payload(type_, version, json.loads(text))  # says what is wrong
    else:
        event = parse_payload(type_, version, json.loads(text))
    if len(_PARSED) >= _PARSED_MAX:
        _PARSED.clear()
    _PARSED[key] = event
    return event


StoredRow: TypeAlias = tuple[int, str, int, str, "str | None"]
"""A stored event as a replay reads it: position, type, version, payload text, override."""


ToldRow: TypeAlias = tuple[int, str, int, str, str, "str | None"]
"""A stored event as a story reads it: position, type, version, payload text, the time it
was recorded (ISO 8601), override."""


def told(rows: Iterable[ToldRow]) -> list[Told]:
    """The events of stored rows as a story tells them, each payload by way of
    `parse_stored`'s memo (looked up here, as `facts` does)."""
    memo, when = _PARSED, datetime.fromisoformat
    return [
        Told(position, event if (event := memo.get((type_, version, text))) is not None
             else parse_stored(type_, version, text), when(at), override)
        for position, type_, version, text, at, override in rows]


def facts(rows: Iterable[StoredRow]) -> list[Fact]:
    """The facts of stored rows, each payload by way of `parse_stored`'s memo.

    The memo is looked up here, in the comprehension, and `parse_stored` called only for a
    payload not in it: a replay parses every row, most are in the memo, and the call a row
    cost about as much as the lookup."""
    memo = _PARSED
    return [
        (position, event if (event := memo.get((type_, version, text))) is not None
         else parse_stored(type_, version, text), override)
        for position, type_, version, text, override in rows]
