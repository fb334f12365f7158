"""What the players read: lines and Rich tables for people, plain JSON for scripts.

Only this module (and render_audit, for the audit's tables) knows Rich, and it imports
Rich only for a table: the lines every command prints (what it wrote) go out through
journal.terminal as plain text, bold or coloured on a terminal. Status is worded by
journal.service.glance. It shows only what the journal holds, and the journal holds only cards the
players were told to reveal.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from journal.core import events as ev
from journal.core.describe import describe
from journal.service.glance import card, encounter_lines
from journal.terminal import (
    console,
    emit,
    labelled,
    print_json,
    say,
    styled,
    visible,
    visible_json,
    width,
)

if TYPE_CHECKING:
    from rich.table import Table
    from rich.text import Text

    from journal.core.state import State
    from journal.core.timeline import Diff, Step
    from journal.service.journal import BranchInfo, Checkpoint, View
    from journal.store import Branch, Campaign

__all__ = ["console", "emit", "encounter_lines", "labelled", "print_json", "say", "styled",
           "width"]

# -- after a command ---------------------------------------------------------------------

def written(view: View, done: str = "") -> None:
    """Each event a command appended, then the line of state that matters now. `done`:
    what the command did to the events, said before each ("Redone")."""
    said = f"{done}: " if done else ""
    for recorded in view.written:
        say(f"#{recorded.position} {said}{describe(recorded.event)}")
        if recorded.override:
            say(f"   override recorded: {recorded.override}", "yellow")
    say(summary(view.state), "dim")
    for line in _game_lines(view):
        say(line)


def _game_lines(view: View) -> list[str]:
    """The game's lines; what the game's latest event did only if this command wrote one
    (a note or an undo says nothing new of the fight), where the game can leave it out."""
    from journal.core import shown

    told = any(type(r.event).__module__ != "journal.core.events" for r in view.written)
    return encounter_lines(view.state) if told else shown.quiet_lines(view.state)


def summary(state: State) -> str:
    """One line: where the players are and what they hold."""
    parts = [_card_line(state)]
    if state.chapter is not None:
        parts.append(f"chapter {state.chapter}")
    parts += [f"{name} {count}" for name, count in state.resources.items()]
    return " | ".join(parts)


def _card_line(state: State) -> str:
    if state.card is None:
        return "no card revealed yet"
    return f"card {card(state)}"


# -- log and show ------------------------------------------------------------------------

def event_json(recorded: ev.Recorded, retracted: frozenset[int]) -> dict[str, Any]:
    return {
        "seq": recorded.position,
        "type": recorded.type,
        "payload": ev.payload_data(recorded.event),
        "recorded_at": recorded.recorded_at.isoformat(),
        "retracted": recorded.position in retracted,
        "override": recorded.override,
        "player": recorded.player,
        "hash": recorded.hash,
    }


def _table() -> Table:
    """A Rich table with no borders and no padding at its edges."""
    from rich.table import Table

    return Table(box=None, pad_edge=False, show_edge=False)


def log(view: View, events: list[ev.Recorded]) -> None:
    events_table(events, view.retracted)


def events_table(events: list[ev.Recorded], retracted: frozenset[int]) -> None:
    """`events` as the log shows them, the undone ones struck through."""
    table = _table()
    table.add_column("#", justify="right")
    table.add_column("when")
    table.add_column("what")
    for recorded in events:
        table.add_row(str(recorded.position), _when(recorded), _log_line(recorded, retracted))
    emit(table)


def _when(recorded: ev.Recorded) -> str:
    return f"{recorded.recorded_at:%Y-%m-%d %H:%M}"


def _log_line(recorded: ev.Recorded, retracted: frozenset[int]) -> Text:
    from rich.text import Text

    text = Text(visible(describe(recorded.event)))
    if recorded.position in retracted:
        text.stylize("strike")
        text.append("  [undone]", style="dim")
    if recorded.override:
        text.append(visible(f"  [override: {recorded.override}]"), style="yellow")
    return text


def show(recorded: ev.Recorded, retracted: frozenset[int]) -> None:
    from rich.table import Table
    from rich.text import Text

    data = event_json(recorded, retracted)
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    table.add_row("event", Text(visible(f"#{recorded.position} {describe(recorded.event)}")))
    for key in ("type", "recorded_at", "retracted", "override", "player"):
        if data[key] is not None:
            table.add_row(key, Text(visible(str(data[key]))))
    table.add_row("payload", Text(visible(json.dumps(data["payload"], ensure_ascii=False))))
    table.add_row("prev hash", recorded.prev_hash)
    table.add_row("hash", recorded.hash)
    emit(table)


# -- campaigns ---------------------------------------------------------------------------

def campaigns_json(rows: list[tuple[Campaign, Branch, bool]]) -> list[dict[str, Any]]:
    return [
        {"name": c.name, "game": c.game, "branch": b.name, "head": b.head, "current": current}
        for c, b, current in rows
    ]


def campaigns(rows: list[tuple[Campaign, Branch, bool]]) -> None:
    if not rows:
        from journal.core.words import listed
        from journal.games import names

        say(f"No campaigns yet: `spire new NAME --game GAME` starts one; GAME is "
            f"{listed(names(), 'or')}.")
        return
    table = _table()
    for column in ("", "campaign", "game", "branch", "events"):
        table.add_column(column)
    for c, b, current in rows:
        table.add_row("*" if current else "", c.name, c.game, b.name, str(b.head))
    emit(table)


# -- time --------------------------------------------------------------------------------

def checkpoint_json(c: Checkpoint) -> dict[str, Any]:
    return {"name": c.name, "position": c.position, "card": c.card, "created_at": c.created_at}


def checkpoints(marks: list[Checkpoint]) -> None:
    table = _table()
    for column in ("checkpoint", "#", "card", "when"):
        table.add_column(column, justify="right" if column == "#" else "left")
    for c in marks:
        card = str(c.card) if c.card is not None else "-"
        table.add_row(c.name, str(c.position), card, c.created_at[:16].replace("T", " "))
    emit(table)


def branch_json(b: BranchInfo) -> dict[str, Any]:
    return {"name": b.branch.name, "parent": b.parent, "fork": b.branch.fork_position,
            "head": b.branch.head, "card": b.card, "current": b.current}


def branches(rows: list[BranchInfo]) -> None:
    """The branch tree, children under their parent."""
    children: dict[str | None, list[BranchInfo]] = {}
    for row in rows:
        children.setdefault(row.parent, []).append(row)

    def walk(parent: str | None, depth: int) -> None:
        for row in children.get(parent, []):
            mark = "*" if row.current else " "
            fork = f" forked at #{row.branch.fork_position}" if row.parent else ""
            card = f", card {row.card}" if row.card is not None else ""
            indent = "  " * depth + ("└ " if depth else "")
            say(f"{mark} {indent}{row.branch.name}{fork}: head #{row.branch.head}{card}")
            walk(row.branch.name, depth + 1)

    walk(None, 0)


def replay_json(steps: Iterable[Step]) -> None:
    from journal.core.timeline import step_json

    for step in steps:
        sys.stdout.write(visible_json(json.dumps(step_json(step), ensure_ascii=False)) + "\n")


BACK = frozenset({"b", "back", "\x1b[d", "\x1b[a", "k", "p"})
"""What steps back in `replay --step`: b, the left or up arrow (as `less` and `k`)."""
QUIT = frozenset({"q", "quit", "\x1b"})


def replay(steps: Iterable[Step], pause: Callable[[str], str | None] | None = None) -> None:
    """Each step, as the steps come; with `pause`, which asks its prompt and gives the
    answer casefolded (None: stop), a prompt after each: Enter (or space, or the right
    arrow) shows the next, `b` (or the left arrow) the one before, `q` stops."""
    if pause is None:
        for step in steps:
            _replay_step(step)
        return
    coming = iter(steps)
    shown: list[Step] = []
    """The steps shown so far, for `b` (only when stepping, a person's pace)."""
    index = 0
    while True:
        if index == len(shown):
            following = next(coming, None)
            if following is None:
                return
            shown.append(following)
        _replay_step(shown[index])
        answer = pause(f"[#{shown[index].recorded.position}] Enter: next, b: back, q: quit> ")
        if answer is None or answer in QUIT:
            return
        index = max(index - 1, 0) if answer in BACK else index + 1


def _replay_step(step: Step) -> None:
    line = f"#{step.recorded.position} {describe(step.recorded.event)}"
    if step.retracted:
        line += "  [undone later]"
    if step.recorded.override:
        line += f"  [override: {step.recorded.override}]"
    say(line)
    for change in step.changes:
        say(f"    {change}", "dim")


def diff_json(d: Diff) -> dict[str, Any]:
    from journal.core import shown

    return {
        "shared_until": d.shared,
        "sides": [{"branch": side.branch, "path": list(side.path),
                   "state": shown.state_json(side.state)} for side in (d.left, d.right)],
        "differences": d.differences(),
    }


def diff(d: Diff) -> None:
    say(f"{d.left.branch} and {d.right.branch} share history up to #{d.shared}.")
    for side in (d.left, d.right):
        say(f"On {side.branch} since:")
        for line in side.path or ("nothing new",):
            say(f"  {line}")
    differences = d.differences()
    say("Now:" if differences else "Now: no difference in resources, items or characters.")
    for line in differences:
        say(f"  {line}")
