"""`spire` as a process of its own: what is set before anything else is imported.

A one-shot command (`spire roll c c r`) spends most of its life importing: SQLAlchemy,
pydantic and the game's events, rules and cards make some hundred thousand objects that
live as long as the process. Python's cyclic collector, left on, is set off again and again
while they are made, and each collection walks what is alive only to find it alive: about
a sixth of a one-shot write (docs/performance.md, issue 33). So the collector is paused for
the whole of a one-shot command, as journal.service.collector pauses it over a long pass:
such a command is short, and what it frees it frees by reference counting (its states hold
no cycles). A pass that leaves a cycle behind each step runs with the collector on
(`collector.running`: the JSON report), and tests/test_startup.py holds every command
that reads a whole branch to leaving, at 3,000 events, fewer than one more object in a
cycle an event than at 1,000 (the audit's undos leave a fraction of one). A
command that stays (the play shell, `watch`, `serve`) resumes it as it begins
(`collector.resumed`), so a session of hours frees its cycles as it goes.

Pydantic's plugins (none are spire's) are not looked for either: finding them reads the
entry points of every package installed beside spire, at the first model a command
validates. A `PYDANTIC_DISABLE_PLUGINS` already set is kept.

This module imports nothing of spire's but the CLI, and that only once both are set.
"""

from __future__ import annotations

import gc
import os


def main() -> None:
    """`spire`: one command, the collector paused while it runs (unless it stays)."""
    gc.disable()
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    from journal.cli import main as command

    command()
