"""Lines for people and JSON for scripts: what every command prints, without Rich.

A line is plain text, bold or coloured only on a terminal that takes colour; JSON is
printed whole. Rich is imported only for a table (`emit`), so a command that prints lines
(`spire status`, `spire roll`) never pays its start-up. Nothing here knows the games.
"""

from __future__ import annotations

import json
import os
import sys
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from rich.console import Console

Style = Literal["", "bold", "dim", "yellow", "red", "green"]
STYLES: dict[Style, str] = {
    "": "", "bold": "1", "dim": "2", "yellow": "33", "red": "31", "green": "32"}
"""The styles a line may have, as terminal (SGR) codes."""

CONTROLS = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0))}
"""Control characters (C0, DEL, C1) as they are shown: escaped. Text the players typed
(or a file they imported) may hold them, and written to a terminal as they are they
retitle the window, clear the screen or worse; the journal keeps the text as given."""
JSON_CONTROLS = {code: f"\\u{code:04x}" for code in range(0x7F, 0xA0)}
"""What JSON leaves raw of the control characters (it escapes C0 itself), escaped."""


def visible(text: str) -> str:
    """`text` with its control characters escaped (an escape, ESC, shows as \\x1b)."""
    return text.translate(CONTROLS)


LINES = {code: text for code, text in CONTROLS.items() if code not in (0x09, 0x0A)}


def visible_lines(text: str) -> str:
    """A document (several lines, tabs kept) with its other control characters escaped."""
    return text.translate(LINES)


def visible_json(text: str) -> str:
    """JSON text with the control characters JSON leaves raw escaped (\\u009b): the same
    JSON value, nothing a terminal acts on."""
    return text.translate(JSON_CONTROLS)


@cache
def console() -> Console:
    from rich.console import Console

    return Console(highlight=False)


def print_json(value: Any) -> None:
    sys.stdout.write(visible_json(json.dumps(value, indent=2, ensure_ascii=False)) + "\n")


def emit(renderable: Any) -> None:
    """Print a table without the padding Rich leaves at the end of each line. Its text
    cells are shown as they are: control characters escaped, and no Rich markup read in
    them (a campaign named [/bold] is that name, not a tag)."""
    _as_given(renderable)
    with console().capture() as captured:
        console().print(renderable)
    sys.stdout.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))


def _as_given(renderable: Any) -> None:
    """A table's text cells as Text with their control characters escaped (Rich would
    read markup in a str, and passes an escape through)."""
    from rich.table import Table
    from rich.text import Text

    if not isinstance(renderable, Table):
        return
    for column in renderable.columns:
        # Rich keeps a column's cells in `_cells` (public API adds rows, never edits them).
        column._cells = [Text(visible(cell)) if isinstance(cell, str) else cell
                         for cell in column._cells]


def say(text: str, style: Style = "") -> None:
    """One line, never wrapped: a script or a pipe gets it whole. Its control characters
    (a newline too) are shown escaped."""
    sys.stdout.write(styled(text, style) + "\n")


def styled(text: str, style: Style) -> str:
    """`text`, control characters escaped, in `style` on a terminal that takes colour; as
    it is anywhere else (a pipe, a file, NO_COLOR set, TERM=dumb)."""
    text = visible(text)
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



def labelled(rows: list[tuple[str, str]]) -> None:
    """Two columns, the labels bold, long values wrapped under their column. Plain lines
    rather than a Rich table: status answers at once in the play shell."""
    import textwrap

    column = max((len(label) for label, _ in rows), default=0) + 2
    room = max(width() - column, 20)
    for label, value in rows:
        lines = textwrap.wrap(visible(value), room, break_on_hyphens=False) or [""]
        _write(styled(label.ljust(column), "bold") + lines[0])
        for more in lines[1:]:
            _write(" " * column + more)


def _write(line: str) -> None:
    """A line already made visible (and styled)."""
    sys.stdout.write(line + "\n")


