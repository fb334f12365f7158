"""Nothing of a game registers itself: each game says its events, how each folds and how
each is said in three tables (its events module's `EVENTS`, its evolve module's
`HANDLERS`, its describe module's `SAYINGS`), and the core reads them where it needs them
(journal/core/events.py). These tests hold every shipped game to its tables."""

from __future__ import annotations

import importlib
import inspect
from types import ModuleType

import pytest

from journal.core import describe, state
from journal.core import events as ev
from journal.games import names, package

GAMES = names()


def _layer(game: str, layer: str) -> ModuleType:
    return importlib.import_module(f"{package(game)}.{layer}")


def _defined(module: ModuleType) -> set[type[ev.Payload]]:
    """The event classes `module` defines (a class with a `type` tag)."""
    return {cls for _, cls in inspect.getmembers(module, inspect.isclass)
            if issubclass(cls, ev.Payload) and cls.__module__ == module.__name__
            and "type" in cls.model_fields}


@pytest.mark.parametrize("game", GAMES)
def test_a_game_lists_every_event_it_defines(game: str) -> None:
    events = _layer(game, "events")
    assert set(events.EVENTS) == _defined(events)
    assert len(events.EVENTS) == len(set(events.EVENTS))


@pytest.mark.parametrize("game", GAMES)
def test_each_of_a_games_events_is_said_and_its_handlers_are_its_own(game: str) -> None:
    events = set(_layer(game, "events").EVENTS)
    handlers = _layer(game, "evolve").HANDLERS
    sayings = _layer(game, "describe").SAYINGS
    assert set(sayings) == events  # every event has its sentence, and no other's
    assert set(handlers) <= events  # (an event that changes nothing needs no handler)
    assert handlers, "a game whose events change nothing"


def test_the_cores_tables_hold_the_cores_events_only_once_every_game_is_loaded() -> None:
    """Loading a game adds nothing to the core: its tables are its own modules'."""
    for game in GAMES:
        for layer in ("events", "evolve", "describe"):
            _layer(game, layer)
    core = set(ev.CORE_EVENTS)
    assert set(state.HANDLERS) <= core
    assert set(describe.SAYINGS) == core


@pytest.mark.parametrize("game", GAMES)
def test_the_fold_and_the_sentences_find_a_games_tables_by_its_events(game: str) -> None:
    events = _layer(game, "events")
    handlers = _layer(game, "evolve").HANDLERS
    sayings = _layer(game, "describe").SAYINGS
    for kind in events.EVENTS:
        assert ev.of_game(kind, "evolve") is handlers
        assert ev.of_game(kind, "describe") is sayings
        assert ev.payload_type(ev.tag_of(kind)) is kind


def test_an_unknown_event_type_is_bad_input_naming_it() -> None:
    from journal.errors import BadInput

    with pytest.raises(BadInput, match="unknown event type 'coin-flipped'"):
        ev.payload_type("coin-flipped")
