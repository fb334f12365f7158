"""`spire where`: which journal a command would use, and what is in it. Reading it makes
nothing: a journal that is not there is said to be missing, with how to start one."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from journal.core.words import plural
from journal.store import opening
from journal.terminal import print_json, say, styled, visible

if TYPE_CHECKING:
    from journal.service.journal import Journal


def info(journal: Journal, db: str, default: bool) -> dict[str, Any]:
    """What `spire where` shows, as JSON values."""
    store = journal.store
    path = opening.sqlite_file(store.url)
    found: dict[str, Any] = {
        "journal": str(path) if path is not None else opening.shown(store.url),
        "chosen_by": "the default" if default else "--db or SPIRE_DB",
        "there": store.there,
        "bytes": _size(path) if path is not None and store.there else None,
        "schema_revision": store.revision(),
        "campaigns": [],
    }
    if store.there:
        found["campaigns"] = [
            {"name": c.name, "game": c.game, "branch": b.name, "events": b.head,
             "current": current} for c, b, current in journal.read.campaigns()]
    return found


def _size(path: Path) -> int:
    """The file's bytes, with its write-ahead log (the events not yet checkpointed into it)."""
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.is_file())


def show(found: dict[str, Any]) -> None:
    rows = [("journal", found["journal"]), ("chosen by", found["chosen_by"])]
    if not found["there"]:
        _rows(rows)
        say("No journal there yet: `spire new NAME --game GAME` starts one.")
        return
    if found["bytes"] is not None:
        rows.append(("size", _bytes(found["bytes"])))
    rows.append(("schema", f"revision {found['schema_revision']}"))
    campaigns = [f"{c['name']} ({c['game']}, {plural(c['events'], 'event')} on {c['branch']})"
                 + (" *" if c["current"] else "") for c in found["campaigns"]]
    rows += [("campaigns" if i == 0 else "", line) for i, line in enumerate(campaigns)] or \
        [("campaigns", "none yet")]
    _rows(rows)


def _rows(rows: list[tuple[str, str]]) -> None:
    """A label a row, bold, the values never wrapped (a path is copied whole)."""
    column = max(len(label) for label, _ in rows) + 2
    for label, value in rows:
        sys.stdout.write(styled(label.ljust(column), "bold") + visible(value) + "\n")


def _bytes(count: int) -> str:
    from rich.filesize import decimal

    return decimal(count)


def show_json(found: dict[str, Any]) -> None:
    print_json(found)
