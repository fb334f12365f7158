"""Words the pages borrow from the terminal's: the events as `spire replay` says them,
the odds as `spire odds` prints them (the game's own insight module words them)."""

from __future__ import annotations

import contextlib
import io
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from journal.core import events as ev


@dataclass(frozen=True)
class Line:
    """An event as replay tells it: its number, its sentence, whether an undo took it back."""

    position: int
    sentence: str
    undone: bool


def lines(events: list[ev.Recorded], undone: frozenset[int]) -> list[Line]:
    """Each event's sentence, its undo marked."""
    from journal.core.describe import describe

    return [Line(r.position, describe(r.event), r.position in undone) for r in events]


def told(found: dict[str, Any]) -> list[tuple[str, str]]:
    """The lines `spire odds` prints for `found` (the game's insight module's words, to
    a string rather than the terminal: the server prints nothing else on stdout), each
    parted into its lead and the rest (`parted`)."""
    from journal.games.packages import package_of

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        package_of(found["game"]).insight().show_odds(found, False)
    return [parted(line) for line in out.getvalue().splitlines() if line.strip()]


_LEAD = re.compile(r"( *\S.*?  +| +)(?=\S)")
"""A line's label (its indent, its first words and the two or more spaces that end them),
or its indent alone."""
LEAD_LONGEST = 16
"""The widest lead kept beside the rest (a label is 8 columns): a table's first cell of 40
would leave the rest no room on a phone, so such a line wraps as a sentence does."""


def parted(line: str) -> tuple[str, str]:
    """A line of `spire odds` as its lead and the rest: a label padded to its column
    (`enemy   The Crows: 3 of 7 bullseyes`, `  targeted    Finnian 50.0%`), or the indent
    of a line that belongs to the one above; ("", line) for a sentence, or for a lead
    wider than `LEAD_LONGEST`. The page sets the rest beside its lead, so on a narrow
    screen it wraps under itself, not under the label."""
    found = _LEAD.match(line)
    if found is None or len(found.group(0)) > LEAD_LONGEST:
        return "", line
    return found.group(0), line[found.end():]
