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
    from journal.core import events as ev
    from journal.service.journal import Journal, Status

STOP_SECONDS = 0.2
"""How long a wait for a change lasts before it looks whether Ctrl-C asked to stop."""

RECHECK_SECONDS = 30.0
"""Without a word from the journal, look again after this long all the same (a dropped
connection, a database that cannot notify)."""


def watch(journal: Journal, last: int) -> None:
    """Show the campaign now and after each change, until Ctrl-C (then return quietly).
    Ctrl-C only asks the loop to stop, so it ends between two reads, never inside one."""
    import signal
    import threading

    stop = threading.Event()
    journal.store.only_read()
    changes = journal.store.changes()
    previous = signal.signal(signal.SIGINT, lambda *_: stop.set())
    seen: tuple[int, int, str] | None = None
    try:
        while not stop.is_set():
            status = journal.read.status()
            now = (status.branch.id, status.branch.head, status.branch.head_hash)
            if now != seen:
                seen = now
                after = max(0, status.branch.head - last)
                latest = journal.store.log.read(status.branch, after=after) if last else []
                show(status, latest, journal.store.log.retracted(status.branch))
            waited = 0.0
            while not stop.is_set() and waited < RECHECK_SECONDS:
                if changes.wait(STOP_SECONDS):
                    break
                waited += STOP_SECONDS
    finally:
        signal.signal(signal.SIGINT, previous)
        changes.close()


def show(status: Status, latest: list[ev.Recorded], retracted: frozenset[int]) -> None:
    from journal.render import lines as render
    from journal.render import status as render_status

    if sys.stdout.isatty():
        sys.stdout.write("\x1b[H\x1b[2J")  # a screen of its own: home, clear
    else:
        render.say(f"-- {datetime.now():%H:%M:%S} " + "-" * 40, "dim")
    render_status.show(status)
    if latest:
        render.say("")
        render.events_table(latest, retracted)
    sys.stdout.flush()
