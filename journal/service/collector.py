"""Python's cyclic garbage collector paused while a long pass runs: a branch folded whole
(a cold status, `Journal.rebuild`), the audit, a report. (`spire replay`, which prints each
step, and `replay --verify` run with it.)

Such a pass makes and frees a state an event; the states hold no cycles and are freed as
they pass, but the allocations set off the collector again and again, and each collection
walks what is alive (a tenth of a full replay's time on a 100k-event campaign). The
collector resumes after the pass and frees whatever cycles it left."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """The collector paused inside (as it was after: a pass inside another leaves it
    paused)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextmanager
def running() -> Iterator[None]:
    """The collector on inside (as it was after), for a pass that leaves a cycle behind
    each step, which reference counting alone would never free: the JSON report's
    `json.dumps` with an indent."""
    enabled = gc.isenabled()
    gc.enable()
    try:
        yield
    finally:
        if not enabled:
            gc.disable()


def resumed() -> None:
    """The collector on again for a command that stays (the play shell, `watch`, `serve`),
    if its process paused it at the start: what is loaded by then (spire's, SQLAlchemy's
    and typer's modules) is frozen first (`gc.freeze`), so the collections of a long
    session do not walk it. Nothing changes where the collector is on (spire run inside
    another program, as the tests run it)."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()
