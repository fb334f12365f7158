"""A long campaign's JSON report, kept on disk while the branch streams: the sections that
grow with the campaign (the path, the timeline, the encounters, the notes, the undos) are
written to temporary files as they come, one compact JSON value a line, and read back in
order as the report is written; the report holds none of them in memory.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any


class Spool:
    """JSON values in a temporary file (removed when closed or collected), in order."""

    def __init__(self) -> None:
        # Open while the report is built and written; removed when closed or collected.
        self.file = tempfile.TemporaryFile(  # noqa: SIM115
            "w+", encoding="utf-8", newline="\n")
        self.count = 0

    def add(self, value: Any) -> None:
        self.file.write(json.dumps(value, ensure_ascii=False) + "\n")
        self.count += 1

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Any]:
        self.file.seek(0)
        for line in self.file:
            yield json.loads(line)

    def close(self) -> None:
        self.file.close()


@dataclass
class Spooled:
    """The growing sections of a JSON report as spooled. The path's and the timeline's
    cards are named when read back (`names`: a card's name may come later than the card)."""

    path: Spool = field(default_factory=Spool)
    """[seq, card, how, chapter] each."""
    timeline: Spool = field(default_factory=Spool)
    """[seq, kind, text, recorded at, card, how] each (a card's text is None)."""
    encounters: Spool = field(default_factory=Spool)
    notes: Spool = field(default_factory=Spool)
    undos: Spool = field(default_factory=Spool)
    names: dict[int, str] = field(default_factory=dict)

    def close(self) -> None:
        for spool in (self.path, self.timeline, self.encounters, self.notes, self.undos):
            spool.close()
