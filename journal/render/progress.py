"""Progress for long work, on the terminal only: a Rich progress line on stderr for what may
take over a second (import, export, replay, audit, report on a long campaign), and nothing
at all when stderr is not a terminal (a pipe, a file, a script), nor for work done sooner.

`working(what)` is a block with a spinner and the time taken; `tracked(items, what, total)`
passes `items` through, counting them (against `total` when it is known). Both start
drawing only once the work has taken `SPIRE_PROGRESS_AFTER` seconds (1 unless set), and
leave nothing on the screen when done. Rich is imported only when stderr is a terminal.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

T = TypeVar("T")

AFTER = 1.0
"""Seconds of work before progress is drawn (SPIRE_PROGRESS_AFTER overrides)."""


class Shown:
    """One piece of work's progress line: drawn once the work is slow, counted as it goes."""

    def __init__(self, what: str, total: int | None) -> None:
        self.what, self.total = what, total
        self.done = 0
        self._progress: Progress | None = None
        self._task: TaskID | None = None
        self._lock = threading.Lock()
        self._closed = False
        self._timer = threading.Timer(_after(), self._start)
        self._timer.daemon = True

    def _start(self) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
        )

        with self._lock:
            if self._progress is not None or self._closed:
                return
            console = Console(stderr=True)
            if not console.is_interactive:  # a dumb terminal: no line redrawn in place
                return
            columns = [SpinnerColumn(), TextColumn("{task.description}")]
            if self.total is not None:
                columns += [BarColumn(), MofNCompleteColumn()]
            else:
                columns.append(TextColumn("{task.completed:,.0f}"))
            self._progress = Progress(*columns, TimeElapsedColumn(), console=console,
                                      transient=True, redirect_stdout=False,
                                      redirect_stderr=False)
            self._task = self._progress.add_task(self.what, total=self.total,
                                                 completed=self.done)
            self._progress.start()

    def advance(self, count: int = 1) -> None:
        self.done += count
        if self._progress is not None and self._task is not None:
            self._progress.update(self._task, completed=self.done)

    def open(self) -> None:
        if _after() <= 0:
            self._start()
        else:
            self._timer.start()

    def close(self) -> None:
        with self._lock:
            self._timer.cancel()
            self._closed = True
            if self._progress is not None:
                self._progress.stop()


def _after() -> float:
    try:
        return float(os.environ.get("SPIRE_PROGRESS_AFTER", AFTER))
    except ValueError:
        return AFTER


def _terminal(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except ValueError:  # closed
        return False


def wanted(streams: bool = False) -> bool:
    """Progress is drawn on a terminal's stderr only; with `streams` (the command writes its
    output as it goes), only when that output goes elsewhere than a terminal, where it would
    show the progress itself."""
    return _terminal(sys.stderr) and not (streams and _terminal(sys.stdout))


@contextmanager
def working(what: str, total: int | None = None,
            streams: bool = False) -> Iterator[Shown | None]:
    """A block of long work, with its progress on the terminal (None: none is drawn)."""
    if not wanted(streams):
        yield None
        return
    shown = Shown(what, total)
    shown.open()
    try:
        yield shown
    finally:
        shown.close()


def tracked(items: Iterable[T], what: str, total: int | None = None,
            streams: bool = False) -> Iterator[T]:
    """`items`, one by one, with their count on the terminal."""
    with working(what, total, streams) as shown:
        for item in items:
            yield item
            if shown is not None:
                shown.advance()
