"""Lines for people and JSON for scripts: what every command prints.

A line is plain text, bold or coloured only on a terminal that takes colour; JSON is
printed whole. One Rich `Console` decides colour for every command, lines and tables alike:
Rich reads FORCE_COLOR, TTY_COMPATIBLE, TERM and the terminal (Windows' classic console
too), and NO_COLOR here means no escape code at all (no bold, dim or strike either). Rich
is imported only when that can matter: for a table (`emit`), or a styled line on a
terminal; a line printed to a pipe or a file (`spire status | less`, the tests) never pays
its start-up. Nothing here knows the games.
"""

from __future__ import annotations

import json
import os
import sys
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal, TextIO

if TYPE_CHECKING:
    from rich.console import Console

Style = Literal["", "bold", "dim", "yellow", "red", "green"]
"""The styles a line may have (Rich style names)."""

BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
"""The format characters that reorder text (Unicode's bidirectional controls: the marks,
embeddings, overrides and isolates): U+202E shows what follows it backwards, so a name
can read as another, and a line as something it does not say."""
CONTROLS = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0))} | {
    code: f"\\u{code:04x}" for code in BIDI}
"""Control characters (C0, DEL, C1) and the bidirectional controls as they are shown:
escaped. Text the players typed (or a file they imported) may hold them, and written to a
terminal as they are they retitle the window, clear the screen, turn text around or worse;
the journal keeps the text as given."""
JSON_CONTROLS = {code: f"\\u{code:04x}" for code in (*range(0x7F, 0xA0), *BIDI)}
"""What JSON leaves raw of those characters (it escapes C0 itself), escaped."""


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


def console(out: TextIO | None = None) -> Console:
    """The console every command prints through, for the output and environment it has
    now (the play shell and the tests run many commands in one process); `out` for
    another stream than standard output (stderr's refusals)."""
    return _console(out or sys.stdout, *(os.environ.get(name) for name in _DECIDES))


_DECIDES = ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TERM", "COLUMNS", "COLORTERM")
"""What Rich reads to decide colour and width (and what we read for NO_COLOR)."""


@lru_cache(maxsize=4)
def _console(out: Any, no_color: str | None, *_: str | None) -> Console:
    from rich.console import Console

    if no_color:  # no-color.org: Rich's own no_color keeps bold, dim and strike; with no
        return Console(file=out, highlight=False, color_system=None)  # colour system, none
    return Console(file=out, highlight=False)


def print_json(value: Any) -> None:
    sys.stdout.write(visible_json(json.dumps(value, indent=2, ensure_ascii=False)) + "\n")


def emit(renderable: Any) -> None:
    """Print a table without the padding Rich leaves at the end of each line. Its text
    cells are shown as they are: control characters escaped, and no Rich markup read in
    them (a campaign named [/bold] is that name, not a tag)."""
    renderable = _as_given(renderable)
    with console().capture() as captured:
        console().print(renderable)
    sys.stdout.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))


def _as_given(renderable: Any) -> Any:
    """A table with its text cells as Text, control characters escaped (Rich would read
    markup in a str, and passes an escape through): the same table, its rows added again
    to columns copied without their cells (Rich edits no cell once it is added)."""
    import copy

    from rich.table import Table
    from rich.text import Text

    if not isinstance(renderable, Table):
        return renderable
    given = copy.copy(renderable)
    given.columns = [column.copy() for column in renderable.columns]
    given.rows = []
    cells = zip(*(column.cells for column in renderable.columns), strict=True)
    for row, in_row in zip(renderable.rows, cells, strict=True):
        given.add_row(*(Text(visible(cell)) if isinstance(cell, str) else cell
                        for cell in in_row), style=row.style, end_section=row.end_section)
    return given


def say(text: str, style: Style = "") -> None:
    """One line, whole to a script, a pipe or a file; on a terminal narrower than it,
    wrapped at its words under its own text (`wrapped`), never cut inside a word at the
    edge. Its control characters (a newline too) are shown escaped."""
    text = visible(text)
    lines = wrapped(text, width()) if sys.stdout.isatty() else [text]
    sys.stdout.write("".join(styled(line, style) + "\n" for line in lines))


def wrapped(text: str, room: int) -> list[str]:
    """`text` in lines of at most `room` columns, broken at spaces: each line after the
    first under the text of the first, past its indent and its event's `#N ` ("#4 Hildegard
    takes aim ..."), or two more columns in for a line that is not an event's."""
    if len(text) <= room or room < 20:  # (a terminal that says it is 0 wide: as a pipe)
        return [text]
    if text.startswith("$ ") and (lines := _command_lines(text, room)):
        return lines
    import textwrap

    indent = len(text) - len(text.lstrip(" "))
    number = text[indent:].split(" ", 1)[0]
    hang = len(number) + 1 if number[1:].isdigit() and number[0] == "#" else 2
    under = " " * min(indent + hang, room // 2)
    return textwrap.wrap(text, room, initial_indent="", subsequent_indent=under,
                         break_long_words=False, break_on_hyphens=False,
                         drop_whitespace=True) or [text]


def _command_lines(text: str, room: int) -> list[str] | None:
    """A command line shown as typed (`$ spire ...`), broken between its shell words, each
    line but the last ending in ` \\` as a shell continues one, so that it can be copied
    as it is; a quoted word ("Recoup Bar Example") is never broken. None if a word is
    too long for a line of its own (a long note): such a line wraps as prose does."""
    words, word, quote = [], "", ""
    for character in text:
        if character == " " and not quote:
            if word:
                words.append(word)
            word = ""
            continue
        if character in "\"'" and (quote == character or not (quote or word)):
            quote = "" if quote else character  # (an apostrophe inside a word opens none)
        word += character
    if word:
        words.append(word)
    if max(map(len, words)) > room - 6:
        return None
    lines, line = [], words[0]
    for word in words[1:]:
        if len(line) + 1 + len(word) + 2 > room:
            lines.append(f"{line} \\")
            line = f"    {word}"
        else:
            line = f"{line} {word}"
    return [*lines, line]


def tell(message: str, more: str = "", lead: str = "spire: ") -> None:
    """A message of spire's on stderr, as a refusal is: `lead` and its reason in one line
    of 80 columns (journal.errors.parted cuts a long one before its hint), then what
    follows it (that hint, and `more`) on a second line, indented, dimmed on a terminal
    (where a hint wider than the terminal wraps at its words, as `say`'s lines do)."""
    from journal.errors import WIDTH, parted

    reason, hint = parted(message, room=WIDTH - len(lead))
    print(f"{lead}{visible(reason)}", file=sys.stderr)
    if under := "; ".join(part for part in (hint, " ".join(more.split())) if part):
        under = visible(f"  {under}")
        lines = wrapped(under, width(sys.stderr)) if sys.stderr.isatty() else [under]
        for line in lines:
            print(styled(line, "dim", sys.stderr), file=sys.stderr)
    sys.stderr.flush()


def styled(text: str, style: Style, out: TextIO | None = None) -> str:
    """`text`, control characters escaped, in `style` if it goes (to standard output, or
    to `out`) to a terminal that takes colour; as it is anywhere else (a pipe, a file,
    NO_COLOR set, TERM=dumb)."""
    text = visible(text)
    if not style or not _may_colour(out or sys.stdout):
        return text
    from rich.text import Text

    with console(out).capture() as captured:
        console(out).print(Text(text, style=style), end="", soft_wrap=True)
    return captured.get()


def _may_colour(out: TextIO) -> bool:
    """Whether the console could colour at all, answered without Rich where the answer is
    plain: NO_COLOR set, or output to a pipe or a file that nothing forces to colour."""
    if os.environ.get("NO_COLOR"):
        return False
    if not any(os.environ.get(name) for name in ("FORCE_COLOR", "TTY_COMPATIBLE")) and \
            not _isatty(out):
        return False
    # Windows' classic console takes colour only through Rich's own writes, not as codes
    # in a line written as text.
    return console(out).color_system is not None and not console(out).legacy_windows


def _isatty(out: TextIO) -> bool:
    try:
        return out.isatty()
    except (ValueError, AttributeError):
        return False


def width(out: TextIO | None = None) -> int:
    """The width of the terminal standard output (or `out`) is on; 80 for a pipe or a file
    (COLUMNS overrides both)."""
    out = out or sys.stdout
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(out.fileno()).columns if out.isatty() else 80
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
