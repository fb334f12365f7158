"""One waiter on the journal per server, in a thread of its own, and every viewer told
of each change through asyncio: a hundred pages open cost one database connection that
waits (PostgreSQL's LISTEN/NOTIFY, SQLite's data_version), not a hundred.

Each viewer holds a queue of one: a viewer slow to read is told "changed" once, however
many writes it missed, and draws the page as it stands then.
"""

from __future__ import annotations

import asyncio
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from journal.store import Store
    from journal.store.watching import Changes

WAIT_SECONDS = 0.2
"""How long one wait for a change lasts before the thread looks whether to stop."""

RECHECK_SECONDS = 30.0
"""Without a word from the journal, tell the viewers to look again all the same."""

RETRY_SECONDS = 1.0
"""How often a feed whose server went away looks whether it is back."""


class Feed:
    """The journal's changes, told to every viewer subscribed."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.generation = 0
        """How many times the journal may have changed since the feed started."""
        self._viewers: set[asyncio.Queue[int]] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def viewers(self) -> int:
        return len(self._viewers)

    @property
    def closed(self) -> bool:
        return self._stop.is_set()

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Wait for changes in a thread, telling the viewers on `loop`."""
        self._loop = loop
        self._thread = threading.Thread(target=self._run, name="spire-feed", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop waiting, and tell every viewer to end its stream."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2 * WAIT_SECONDS + 1)
        self._tell()

    def subscribe(self) -> asyncio.Queue[int]:
        queue: asyncio.Queue[int] = asyncio.Queue(maxsize=1)
        self._viewers.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[int]) -> None:
        self._viewers.discard(queue)

    def _run(self) -> None:
        from journal.errors import StorageError

        while not self._stop.is_set():
            try:
                changes = self.store.changes()
            except StorageError:
                self._stop.wait(RETRY_SECONDS)
                continue
            try:
                self._follow(changes)
            except StorageError:  # the server went away: told once it is back
                self._stop.wait(RETRY_SECONDS)
            finally:
                changes.close()

    def _follow(self, changes: Changes) -> None:
        waited = 0.0
        while not self._stop.is_set():
            if changes.wait(WAIT_SECONDS) or waited >= RECHECK_SECONDS:
                waited = 0.0
                self._changed()
            else:
                waited += WAIT_SECONDS

    def _changed(self) -> None:
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._tell)

    def _tell(self) -> None:
        """On the loop: one more generation, told to each viewer not told already."""
        self.generation += 1
        for queue in list(self._viewers):
            if queue.empty():
                queue.put_nowait(self.generation)
