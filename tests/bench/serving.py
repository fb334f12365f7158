"""The table's screen (issue 35): how long a write takes to reach the page `spire serve`
shows, beside the write itself, measured in the same run.

`spire serve` runs as a process of its own on the benchmark's journal; a viewer holds the
live page's stream open (server-sent events, what the page's script reads: the page's
part drawn by the server); each write is `spire roll c c r` or `spire wild miss` as a new
process, as from a player's terminal. The figure is the time from the event's recorded
time (stamped before its commit, so never too short) to the viewer's receiving the page
drawn after it; the reference is the same write's own time, the process from start to
exit. The issue's target is one second.
"""

from __future__ import annotations

import re
import selectors
import shutil
import socket
import sqlite3
import statistics
import subprocess
import time
from datetime import datetime
from pathlib import Path

import flat
import oneshot

Row = flat.Row
LIMIT_MS = 1000.0
"""Issue 35: the page follows every write within one second."""


class Viewer:
    """The live page's stream, read as the browser reads it."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(b"GET /events HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n")
        self.sock.setblocking(False)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.sock, selectors.EVENT_READ)
        self.text = b""

    def next_state(self, after: int, seconds: float) -> float:
        """When (the clock's time) the stream sent a page holding `#after` as its head."""
        wanted = f'data-head="{after}"'.encode()
        deadline = time.monotonic() + seconds
        while wanted not in self.text:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"the page never showed #{after}")
            if self.selector.select(min(left, 0.1)):
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise ConnectionError("the server ended the stream")
                self.text += chunk
        now = time.time()
        self.text = self.text[self.text.index(wanted):]
        return now

    def close(self) -> None:
        self.selector.close()
        self.sock.close()


def _last(db: Path) -> tuple[int, float]:
    """The head of the journal's latest event: its position, when it was recorded."""
    with sqlite3.connect(db) as conn:
        position, stamp = conn.execute(
            "SELECT position, recorded_at FROM events ORDER BY id DESC LIMIT 1").fetchone()
    return position, datetime.fromisoformat(stamp).timestamp()


def _serve(db: Path) -> tuple[subprocess.Popen[str], int]:
    server = subprocess.Popen([*flat.SPIRE, "--db", str(db), "serve", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=flat.ENV)
    assert server.stdout is not None
    said = server.stdout.readline()
    found = re.search(r"http://[^:]+:(\d+)/", said)
    if found is None:
        server.kill()
        raise RuntimeError(f"spire serve printed no address: {said!r}")
    return server, int(found.group(1))


def rows(db: Path, work: Path, runs: int, label: str) -> list[Row]:
    """The write-to-page row on a copy of `db` (its campaign a Hildegard one)."""
    copy = work / f"serve-{db.name}"
    shutil.copy(db, copy)
    oneshot._run(copy, *oneshot.PRACTICE)
    server, port = _serve(copy)
    viewer = Viewer(port)
    delays, writes = [], []
    try:
        viewer.next_state(_last(copy)[0], 30)  # the page as it stands
        for n in range(runs):
            writes.append(oneshot._run(copy, *oneshot.SESSION_WRITES[n % 2].split()) * 1000)
            position, recorded = _last(copy)
            delays.append((viewer.next_state(position, 10) - recorded) * 1000)
    finally:
        viewer.close()
        server.terminate()
        server.wait(timeout=10)
    delay, write = statistics.median(delays), statistics.median(writes)
    return [(f"spire serve: a write to the page's update, {label} (worst {max(delays):.0f} ms)",
             f"{delay:.0f} ms", f"{write:.0f} ms (the write, a new process)",
             f"{flat.verdict(max(delays) < LIMIT_MS)} (every one < {LIMIT_MS:.0f} ms)")]
