"""A branch's events replayed: its state folded from the first event, its events as a
story tells them, step by step, and against another branch's. Part of
`journal.service.reading.Reading`, which finds the branch and what its undos took back.
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

    def _at(self, branch: str | None = None) -> tuple[Campaign, Branch]: ...

    def _retracted(self, branch: Branch) -> frozenset[int]: ...

    def view(self, branch: str | None = None) -> View: ...


class Replays:
    """The events of a branch, replayed (a part of `Reading`)."""

    def rebuild(self: Read, branch: str | None = None) -> State:
        """The branch's state folded from its first event, streaming: memory stays flat
        however long the campaign."""
        from journal.core.state import fold
        from journal.service import collector

        _, current = self._at(branch)
        with collector.paused():
            return fold(self.store.log.stream(current), self.store.log.retracted(current))

    def events(
        self: Read, branch: str | None = None, after: int = 0,
    ) -> tuple[Branch, frozenset[int], Iterator[ev.Told]]:
        """The branch, the positions its undos took back (found through the index of undos,
        no other event read), and its events past `after` as a story tells them (no
        hashes), read a chunk at a time as they are asked for: a report of a million
        events holds a chunk, not all. The state is not loaded."""
        _, current = self._at(branch)
        return current, self._retracted(current), self.store.log.told(current, after)

    def replay(self: Read, view: View, first: int, last: int) -> Iterator[Step]:
        """The branch step by step from `first` to `last`, read as it is shown."""
        from journal.core.timeline import replay

        if first > last:
            raise BadInput(f"--from #{first} comes after --to #{last}")
        branch, log = view.branch, self.store.log
        return replay(log.events(branch), first, last, self._retracted(branch),
                      lambda: log.events(branch))

    def diff(self: Read, left: str, right: str) -> Diff:
        from journal.core.timeline import diff

        a, b = self.view(left), self.view(right)
        return diff((a.branch.name, a.history), (b.branch.name, b.history))
