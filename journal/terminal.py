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


