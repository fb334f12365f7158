"""What the players read: lines and Rich tables for people, plain JSON for scripts.

Only this module (and render_audit, for the audit's tables) knows Rich, and it imports
Rich only for a table: the lines every command
prints (what it wrote, the status) are plain text, bold or coloured on a terminal, so
`spire status` and `spire roll` do not pay Rich's start-up. It shows only what the journal
holds, and the journal holds only cards the players were told to reveal.
"""

from __future__ import annotations

import json
import os
import sys
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from journal import events as ev
from journal.describe import card_ranges, describe
from journal.games import game as game_named
from journal.service import BranchInfo, Checkpoint, View
from journal.state import State
from journal.store import Branch, Campaign

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from journal.timeline import Diff, Step

Style = Literal["", "bold", "dim", "yellow", "red", "green"]
STYLES: dict[Style, str] = {
    "": "", "bold": "1", "dim": "2", "yellow": "33", "red": "31", "green": "32"}
"""The styles a line may have, as terminal (SGR) codes."""


@cache
def console() -> Console:
    from rich.console import Console

    return Console(highlight=False)


def print_json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


def emit(renderable: Any) -> None:
    """Print a table without the padding Rich leaves at the end of each line."""
    with console().capture() as captured:
        console().print(renderable)
    sys.stdout.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))


def say(text: str, style: Style = "") -> None:
    """One line, never wrapped: a script or a pipe gets it whole."""
    sys.stdout.write(styled(text, style) + "\n")


def styled(text: str, style: Style) -> str:
    """`text` in `style` on a terminal that takes colour; as it is anywhere else (a pipe, a
    file, NO_COLOR set, TERM=dumb)."""
    if not style or not _colour():
        return text
    return f"\x1b[{STYLES[style]}m{text}\x1b[0m"


def _colour() -> bool:
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    # Windows' classic console prints the codes as they are; Windows Terminal sets
    # WT_SESSION and takes them.
    return sys.stdout.isatty() and (os.name != "nt" or "WT_SESSION" in os.environ)


def width() -> int:
    """The terminal's width; 80 for a pipe or a file (COLUMNS overrides both)."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.stdout.fileno()).columns if sys.stdout.isatty() else 80
    except (OSError, ValueError, AttributeError):
        return 80


# -- after a command ---------------------------------------------------------------------

def written(view: View) -> None:
    """Each event a command appended, then the line of state that matters now."""
    for recorded in view.written:
        say(f"#{recorded.position} {describe(recorded.event)}")
        if recorded.override:
            say(f"   override recorded: {recorded.override}", "yellow")
    say(summary(view.state), "dim")
    for line in encounter_lines(view.state):
        say(line)


def encounter_lines(state: State) -> list[str]:
    """The game's own lines: the target or face-off under way."""
    lines = getattr(state.game_state, "lines", None)
    return list(lines()) if lines is not None else []


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
    return f"card {_card(state)}"


def _card(state: State) -> str:
    if not state.pulled_from:
        return str(state.card)
    back = state.pulled_from[-1]
    return f"{state.card} (pulled; returns to {back if back is not None else 'the start'})"


# -- status ------------------------------------------------------------------------------

def status_json(view: View) -> dict[str, Any]:
    state = view.state
    return {
        "campaign": view.campaign.name,
        "game": state.game,
        "branch": view.branch.name,
        "head": view.branch.head,
        **state.to_json(),
    }


def status(view: View, checkpoints: list[Checkpoint]) -> None:
    state, rules = view.state, game_named(view.state.game)
    rows: list[tuple[str, str]] = [
        ("campaign", f"{view.campaign.name} ({rules.title}, {_players(state.players)})"),
        ("branch", f"{view.branch.name} at #{view.branch.head}"),
        ("card", _card(state) if state.card is not None else "none revealed yet"),
    ]
    if state.chapter is not None:
        rows.append(("chapter", str(state.chapter)))
    rows += _resource_rows(state, rules.resources)
    rows += _listed("characters", [_character(c) for c in state.characters])
    rows += _listed("items", _items(state))
    rows += [(label, text) for label, text in _collections(state) if text]
    if checkpoints:
        rows.append(("checkpoints", ", ".join(f"{c.name} (#{c.position})" for c in checkpoints)))
    labelled(rows)
    for line in encounter_lines(state):
        say(line)
    _overrides(state)


def labelled(rows: list[tuple[str, str]]) -> None:
    """Two columns, the labels bold, long values wrapped under their column. Plain lines
    rather than a Rich table: status answers at once in the play shell."""
    import textwrap

    column = max((len(label) for label, _ in rows), default=0) + 2
    room = max(width() - column, 20)
    for label, value in rows:
        lines = textwrap.wrap(value, room, break_on_hyphens=False) or [""]
        say(styled(label.ljust(column), "bold") + lines[0])
        for more in lines[1:]:
            say(" " * column + more)


def _players(count: int) -> str:
    return "1 player" if count == 1 else f"{count} players"


def _resource_rows(state: State, limits: dict[str, Any]) -> list[tuple[str, str]]:
    rows = []
    for name, count in state.resources.items():
        limit = limits.get(name)
        cap = f" of {limit.limit}" if limit is not None and limit.limit is not None else ""
        rows.append((name, f"{count}{cap}"))
    return rows


def _collections(state: State) -> list[tuple[str, str]]:
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


def _character(c: Any) -> str:
    stats = []
    if c.hp_max is not None:
        stats.append(f"HP {c.hp}/{c.hp_max}")
    if c.ap_max is not None:
        stats.append(f"AP {c.ap}/{c.ap_max}")
    return f"{c.name} ({', '.join(stats)})" if stats else str(c.name)


def _items(state: State) -> list[str]:
    return [f"{i.name} [{i.kind}] ({i.holder or 'aside'})" for i in state.items]


def _overrides(state: State) -> None:
    if not state.overrides:
        return
    say(f"overrides ({len(state.overrides)}):", "yellow")
    for override in state.overrides:
        say(f"  #{override.position} {override.reason}", "yellow")


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
    table = _table()
    table.add_column("#", justify="right")
    table.add_column("when")
    table.add_column("what")
    retracted = view.retracted
    for recorded in events:
        table.add_row(str(recorded.position), _when(recorded), _log_line(recorded, retracted))
    emit(table)


def _when(recorded: ev.Recorded) -> str:
    return f"{recorded.recorded_at:%Y-%m-%d %H:%M}"


def _log_line(recorded: ev.Recorded, retracted: frozenset[int]) -> Text:
    from rich.text import Text

    text = Text(describe(recorded.event))
    if recorded.position in retracted:
        text.stylize("strike")
        text.append("  [undone]", style="dim")
    if recorded.override:
        text.append(f"  [override: {recorded.override}]", style="yellow")
    return text


def show(recorded: ev.Recorded, retracted: frozenset[int]) -> None:
    from rich.table import Table
    from rich.text import Text

    data = event_json(recorded, retracted)
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    table.add_row("event", Text(f"#{recorded.position} {describe(recorded.event)}"))
    for key in ("type", "recorded_at", "retracted", "override", "player"):
        if data[key] is not None:
            table.add_row(key, Text(str(data[key])))
    table.add_row("payload", Text(json.dumps(data["payload"], ensure_ascii=False)))
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
        say("No campaigns yet: `spire new NAME --game hildegard` starts one.")
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


def replay_json(steps: list[Step]) -> None:
    from journal.timeline import step_json

    for step in steps:
        sys.stdout.write(json.dumps(step_json(step), ensure_ascii=False) + "\n")


def replay(steps: list[Step], pause: bool = False) -> None:
    """Each step, and with `pause` Enter between them (end of input stops the replay)."""
    for index, step in enumerate(steps):
        if pause and index:
            try:
                input()
            except EOFError:
                return
        line = f"#{step.recorded.position} {describe(step.recorded.event)}"
        if step.retracted:
            line += "  [undone later]"
        if step.recorded.override:
            line += f"  [override: {step.recorded.override}]"
        say(line)
        for change in step.changes:
            say(f"    {change}", "dim")


def diff_json(d: Diff) -> dict[str, Any]:
    return {
        "shared_until": d.shared,
        "sides": [{"branch": side.branch, "path": list(side.path),
                   "state": side.state.to_json()} for side in (d.left, d.right)],
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
