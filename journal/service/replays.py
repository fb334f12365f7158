"""A branch's events replayed: its state folded from the first event, its events as a
story tells them, step by step, and against another branch's. A journal read
(`journal.service.reading.Reading`) holds one as its `replays`, and is what it asks to
find the branch and what its undos took back.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol

from journal.errors import BadInput

if TYPE_CHECKING:
    from journal.core import events as ev
    from journal.core.state import State
    from journal.core.timeline import Diff, Step
    from journal.service.views import View
    from journal.store import Branch, Campaign, Store


class Read(Protocol):
    """What a replay asks of the journal read (`Reading`)."""

    store: Store

    def at(self, branch: str | None = None) -> tuple[Campaign, Branch]: ...

    def retracted(self, branch: Branch) -> frozenset[int]: ...

    def view(self, branch: str | None = None) -> View: ...


class Replays:
    """The events of a journal's branches, replayed: `journal.replays.rebuild()`..."""

    def __init__(self, read: Read) -> None:
        self.read = read

    def rebuild(self, branch: str | None = None) -> State:
        """The branch's state folded from its first event, streaming: memory stays flat
        however long the campaign."""
        from journal.core.state import fold
        from journal.service import collector

        _, current = self.read.at(branch)
        log = self.read.store.log
        with collector.paused():
            return fold(log.stream(current), log.retracted(current))

    def events(
        self, branch: str | None = None, after: int = 0,
    ) -> tuple[Branch, frozenset[int], Iterator[ev.Told]]:
        """The branch, the positions its undos took back (found through the index of undos,
        no other event read), and its events past `after` as a story tells them (no
        hashes), read a chunk at a time as they are asked for: a report of a million
        events holds a chunk, not all. The state is not loaded."""
        _, current = self.read.at(branch)
        return current, self.read.retracted(current), self.read.store.log.told(current, after)

    def replay(self, view: View, first: int, last: int) -> Iterator[Step]:
        """The branch step by step from `first` to `last`, read as it is shown."""
        from journal.core.timeline import replay

        if first > last:
            raise BadInput(f"--from #{first} comes after --to #{last}")
        branch, log = view.branch, self.read.store.log
        return replay(log.events(branch), first, last, self.read.retracted(branch),
                      lambda: log.events(branch))

    def diff(self, left: str, right: str) -> Diff:
        from journal.core.timeline import diff

        a, b = self.read.view(left), self.read.view(right)
        return diff((a.branch.name, a.history), (b.branch.name, b.history))
