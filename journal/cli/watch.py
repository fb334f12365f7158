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
    import threading

    from journal.core import events as ev
    from journal.service.journal import Journal, Status
    from journal.store.watching import Changes

STOP_SECONDS = 0.2
"""How long a wait for a change lasts before it looks whether Ctrl-C asked to stop."""

RECHECK_SECONDS = 30.0
"""Without a word from the journal, look again after this long all the same (a dropped
connection, a database that cannot notify)."""


RETRY_SECONDS = 1.0
"""How often a watch whose server went away looks whether it is back."""


def watch(journal: Journal, last: int) -> None:
    """Show the campaign now and after each change, until Ctrl-C (then return quietly).
    Ctrl-C only asks the loop to stop, so it ends between two reads, never inside one.
    A server that goes away is said once, and waited for: the watch goes on when it is
    back (a writer, which cannot wait, says so and exits 3)."""
    import signal
    import threading

    from journal.errors import Unreachable
    from journal.service import collector
    from journal.terminal import tell

    collector.resumed()  # a watch stays: its cycles are freed as it goes
    stop = threading.Event()
    since = datetime.now()
    journal.store.only_read()
    changes: Changes | None = journal.store.changes()
    previous = signal.signal(signal.SIGINT, lambda *_: stop.set())
    seen: tuple[int, int, str] | None = None
    away = False
    try:
        while not stop.is_set():
            try:
                if changes is None:
                    changes = journal.store.changes()
                seen = _draw(journal, last, seen, since)
                if away:
                    tell("the journal's server is back; watching again")
                    away = False
                _wait(changes, stop)
            except Unreachable as e:
                if not away:
                    tell("the journal's server went away; waiting for it (Ctrl-C stops)", str(e))
                    away = True
                if changes is not None:
                    changes.close()
                    changes = None
                stop.wait(RETRY_SECONDS)
    finally:
        signal.signal(signal.SIGINT, previous)
        if changes is not None:
            changes.close()
        if stop.is_set() and sys.stdout.isatty():
            sys.stdout.write("\n")  # the shell's prompt on a line of its own, not after ^C
            sys.stdout.flush()


def _draw(journal: Journal, last: int, seen: tuple[int, int, str] | None,
          since: datetime) -> tuple[int, int, str]:
    """Show the campaign again if its branch's head moved since `seen`; the head now."""
    status = journal.read.status()
    now = (status.branch.id, status.branch.head, status.branch.head_hash)
    if now != seen:
        after = max(0, status.branch.head - last)
        latest = journal.store.log.read(status.branch, after=after) if last else []
        show(status, latest, journal.store.log.retracted(status.branch), since)
    return now


def _wait(changes: Changes, stop: threading.Event) -> None:
    """Until the journal may have changed, Ctrl-C asks to stop, or it is time to look
    again all the same."""
    waited = 0.0
    while not stop.is_set() and waited < RECHECK_SECONDS:
        if changes.wait(STOP_SECONDS):
            return
        waited += STOP_SECONDS


def show(status: Status, latest: list[ev.Recorded], retracted: frozenset[int],
         since: datetime) -> None:
    """The screen: a header (live since when, the last update, how to stop), the status,
    and the latest events. On a terminal it replaces the one before; to a pipe or a file
    each comes after a dated rule."""
    from journal.render import lines as render
    from journal.render import status as render_status

    updated = datetime.now()
    if sys.stdout.isatty():
        sys.stdout.write("\x1b[H\x1b[2J")  # a screen of its own: home, clear
        render.say(header(status, since, updated), "dim")
        render.say("")
    else:
        render.say(f"-- {updated:%H:%M:%S} " + "-" * 40, "dim")
    render_status.show(status)
    if latest:
        render.say("")
        render.events_table(latest, retracted)
    sys.stdout.flush()


def header(status: Status, since: datetime, updated: datetime) -> str:
    """The watch's first line, within 80 columns: what it follows, since when, the last
    update and how to stop."""
    day = "%H:%M" if since.date() == updated.date() else "%d %b %H:%M"
    return (f"watching {status.campaign.name} ({status.branch.name}) · live since "
            f"{since:{day}} · updated {updated:%H:%M:%S} · Ctrl-C stops")
