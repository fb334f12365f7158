"""`spire watch`: the campaign's status and its latest events, shown again each time
anyone appends (a second screen at the table, a player at home). It only reads: the
journal is opened so that not even a cache is written.

The journal's store says when it may have changed (PostgreSQL's LISTEN/NOTIFY, SQLite's
data_version); the view is drawn again only when the branch's head has moved.
"""

from __future__ import annotations

import sys
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from journal import events as ev
    from journal.service import Journal, Status

RECHECK_SECONDS = 30.0
"""Without a word from the journal, look again after this long all the same (a dropped
connection, a database that cannot notify)."""


def watch(journal: Journal, last: int) -> None:
    """Show the campaign now and after each change, until Ctrl-C (then return quietly)."""
    journal.store.only_read()
    changes = journal.store.changes()
    seen: tuple[int, int, str] | None = None
    try:
        while True:
            status = journal.status()
            now = (status.branch.id, status.branch.head, status.branch.head_hash)
            if now != seen:
                seen = now
                latest = journal.store.read(status.branch, after=max(0, status.branch.head - last)) \
                    if last else []
                show(status, latest, journal.store.retracted(status.branch))
            changes.wait(RECHECK_SECONDS)
    except KeyboardInterrupt:
        pass
    finally:
        changes.close()


def show(status: Status, latest: list[ev.Recorded], retracted: frozenset[int]) -> None:
    from journal import glance, render

    if sys.stdout.isatty():
        sys.stdout.write("\x1b[H\x1b[2J")  # a screen of its own: home, clear
    else:
        render.say(f"-- {datetime.now():%H:%M:%S} " + "-" * 40, "dim")
    glance.show(status)
    if latest:
        render.say("")
        render.events_table(latest, retracted)
    sys.stdout.flush()
