"""What `spire status` shows, kept beside the events.

Status is asked for between every other command at the table, often as a new process. A
glance is the status of one branch at one head, in words and as JSON, worked out when the
head moves (in the same transaction as the events, see `Journal.execute`) and stored with
the head's position and hash. A new process shows it without loading the game's rules or
folding a single event. A branch whose head no command of this spire has moved (a new
campaign, an import, a rewind to a new branch) or whose glance another version of spire
kept has none to show: the journal works one out from the fold and keeps it.

What is not a branch's history is read fresh each time: the campaign's and branch's names,
the head, the checkpoints (a checkpoint is marked without moving the head).

This module is light on purpose: it imports neither the rules nor pydantic, except in
`of`, which the writing side calls with the state it has already folded.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from journal import PROJECTION_VERSION, __version__
from journal.terminal import Style

if TYPE_CHECKING:
    from journal.core.state import State

LAYOUT = 2
"""Bumped when what a glance holds, or how status words it, changes (the rows, the lines,
a game's title or limits)."""

VERSION = f"{__version__}/{PROJECTION_VERSION}/{LAYOUT}"
"""A glance is shown only by a spire that works it out the same way: of the same release,
fold (journal.PROJECTION_VERSION) and layout. Any other works it out anew."""


@dataclass(frozen=True)
class Glance:
    title: str
    """The game's title and the number of players: `Spire's End: Hildegard, 1 player`."""
    rows: tuple[tuple[str, str], ...]
    """(label, words) from the card on: chapter, resources, characters, items, cards."""
    lines: tuple[tuple[str, Style], ...]
    """The encounter under way, then the overrides the table made."""
    state: dict[str, Any]
    """`State.to_json()`: what `spire status --json` prints after the names and the head."""

    def dumps(self) -> str:
        return json.dumps({"title": self.title, "rows": self.rows, "lines": self.lines,
                           "state": self.state}, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def loads(cls, text: str) -> Glance:
        data = json.loads(text)
        return cls(data["title"], tuple((label, words) for label, words in data["rows"]),
                   tuple((line, style) for line, style in data["lines"]), data["state"])


# -- working one out (the writing side, which has the rules loaded) ----------------------

def of(state: State) -> Glance:
    """The glance of a folded state."""
    from journal.core import shown
    from journal.games import game

    rules = game(state.game)
    rows: list[tuple[str, str]] = [("card", card(state) if state.card is not None
                                    else "none revealed yet")]
    if state.chapter is not None:
        rows.append(("chapter", str(state.chapter)))
    rows += _resources(state, rules.resources)
    rows += _listed("characters", [_character(c, state.limits(c)) for c in state.characters])
    rows += _listed("items", [f"{i.name} [{i.kind}] ({i.holder or 'aside'})"
                              for i in state.items])
    rows += [(label, words) for label, words in _collections(state) if words]
    lines: list[tuple[str, Style]] = [(line, "") for line in encounter_lines(state)]
    if state.overrides:
        lines.append((f"overrides ({len(state.overrides)}):", "yellow"))
        lines += [(f"  #{o.position} {o.reason}", "yellow") for o in state.overrides]
    players = "1 player" if state.players == 1 else f"{state.players} players"
    return Glance(f"{rules.title}, {players}", tuple(rows), tuple(lines), shown.state_json(state))


def card(state: State) -> str:
    """The current card, and where a pulled card returns to."""
    if not state.pulled_from:
        return str(state.card)
    back = state.pulled_from[-1]
    return f"{state.card} (pulled; returns to {back if back is not None else 'the start'})"


def encounter_lines(state: State) -> list[str]:
    """The game's own lines: the target or face-off under way."""
    from journal.core import shown

    return shown.lines(state)


def _resources(state: State, limits: dict[str, Any]) -> list[tuple[str, str]]:
    rows = []
    for name, count in state.resources.items():
        limit = limits.get(name)
        cap = f" of {limit.limit}" if limit is not None and limit.limit is not None else ""
        rows.append((name, f"{count}{cap}"))
    return rows


def _collections(state: State) -> list[tuple[str, str]]:
    from journal.core.describe import card_ranges

    return [
        ("milestones", ", ".join(str(m) for m in state.milestones)),
        ("event cards", ", ".join(state.event_cards)),
        ("cards seen", card_ranges(state.seen)),
        ("discarded", card_ranges(state.discarded)),
        ("out of game", card_ranges(state.removed)),
        ("last note", state.notes[-1] if state.notes else ""),
    ]


def _listed(label: str, lines: list[str]) -> list[tuple[str, str]]:
    """One row a line, the label on the first."""
    return [(label if i == 0 else "", line) for i, line in enumerate(lines)]


def _character(c: Any, limits: tuple[int | None, int | None]) -> str:
    """Its cubes against its limits (with what its gear raises them by)."""
    stats = []
    hp_max, ap_max = limits
    if hp_max is not None:
        stats.append(f"HP {c.hp}/{hp_max}")
    if ap_max is not None:
        stats.append(f"AP {c.ap}/{ap_max}")
    return f"{c.name} ({', '.join(stats)})" if stats else str(c.name)
