"""Where a branch's state comes from: as last served, from a snapshot and the events past
it, or folded as the branch streams; the state an undo leaves; the snapshots kept on the
way; and an import's main branch folded as it is written.

A snapshot is the state as the table had it at its position. One that a later undo reaches
behind is passed over for an earlier one.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from typing import TYPE_CHECKING

from journal.core.chain import Mark, RawEvent, Section
from journal.store import Branch, Store

if TYPE_CHECKING:
    from journal.core import events as ev
    from journal.core.state import State


class States:
    """The states of a journal's branches, folded as little as they can be."""

    def __init__(self, store: Store, now: Callable[[], datetime]) -> None:
        self.store, self.now = store, now
        self._known: dict[int, tuple[int, str, State]] = {}
        """The state last served per branch, by (head, head hash): a journal kept open (the
        play shell) folds only what other writers appended since."""
        self._snapshotted: dict[int, int] = {}
        """The position of each branch's latest snapshot, once looked up."""
        self._before: dict[int, tuple[int, str, State]] = {}
        """The state before the one event this journal last wrote on a branch, by the head
        it wrote (head, head hash): an undo of it, the commonest, folds nothing."""

    def of(self, branch: Branch) -> State:
        """The branch's state: as last served if the head has not moved (or that plus the
        events appended since), else from the latest snapshot."""
        from journal.core.state import project, retracted_positions

        known = self._known.get(branch.id)
        if known is not None and known[0] <= branch.head:
            head, digest, state = known
            if head == branch.head and digest == branch.head_hash:
                return state
            tail = self.store.log.read(branch, after=head)
            if tail and tail[0].prev_hash == digest and \
                    min(retracted_positions(tail), default=head + 1) > head:
                state = project(tail, state)
                self.remember(branch, state)
                return state
        state = self._unknown(branch)
        self.remember(branch, state)
        return state

    def remember(self, branch: Branch, state: State, before: State | None = None) -> None:
        """Serve `state` while the branch's head is where it is now; `before`: the state
        before the one event that moved it there, which an undo of that event leaves."""
        self._known[branch.id] = (branch.head, branch.head_hash, state)
        if before is None:
            self._before.pop(branch.id, None)
        else:
            self._before[branch.id] = (branch.head, branch.head_hash, before)

    def _unknown(self, branch: Branch) -> State:
        """The latest snapshot that still holds and the events past it; with none, the
        branch folded as it streams (memory stays flat), a snapshot kept at its head and
        one a little before it (so an undo there starts from the one before)."""
        folded = self._from_snapshot(branch)
        if folded is not None:
            return folded
        from journal.service import collector

        # the whole branch, a state an event: see journal.service.collector
        with collector.paused():
            return self._folded(branch)

    def _folded(self, branch: Branch) -> State:
        """The branch folded from its first event as it streams, its snapshots kept."""
        from journal import PROJECTION_VERSION
        from journal.core import snapshots
        from journal.core.state import fold

        stream, state = self.store.log.stream(branch), None
        retractions = self.store.log.retractions(branch)
        gone = frozenset(p for _, undone in retractions for p in undone)
        done, last = 0, [0]

        def seen(facts: Iterator[ev.Fact]) -> Iterator[ev.Fact]:
            for fact in facts:
                last[0] = fact[0]
                yield fact

        for mark in (_before_undos(retractions, branch.head - snapshots.SNAPSHOT_EVERY),
                     branch.head):
            if mark <= done:
                continue
            state = fold(seen(itertools.islice(stream, mark - done)), gone, state)
            done = mark
            if last[0] == mark >= snapshots.SNAPSHOT_EVERY:  # positions as counted
                if self.store.kept.save_snapshot(
                        branch, mark, PROJECTION_VERSION, snapshots.encode(state), self.now()):
                    self._snapshotted[branch.id] = mark
        return fold(stream, gone, state)  # past the head as counted: nothing, or a gap

    def _from_snapshot(
        self, branch: Branch, taken: frozenset[int] = frozenset(),
    ) -> State | None:
        """The state at the branch's head, with the events at `taken` left out too,
        folded from the latest snapshot before them that no later undo reaches behind;
        None when there is no such snapshot."""
        from journal import PROJECTION_VERSION
        from journal.core import events as ev
        from journal.core import snapshots
        from journal.core.state import fold

        before = min(taken, default=None)
        latest = before is None
        while (found := self.store.kept.snapshot(branch, PROJECTION_VERSION, before)) is not None:
            at, text = found
            if latest:  # the branch's latest snapshot: `keep_snapshot` need not ask again
                self._snapshotted[branch.id] = max(at, self._snapshotted.get(branch.id, 0))
                latest = False
            tail = list(self.store.log.stream(branch, after=at))  # what the fold needs alone
            gone = taken.union(*(e.positions for _, e, _ in tail if isinstance(e, ev.Retracted)))
            if min(gone, default=at + 1) <= at:  # an undo reaches behind it: an older one
                before = min(gone)
                continue
            try:
                state = snapshots.decode(text)
            except (ValueError, KeyError, TypeError):  # a cache that does not read:
                return None                             # folded without it
            return fold(tail, gone, state)
        if latest:  # none at all
            self._snapshotted.setdefault(branch.id, 0)
        return None

    def without(self, branch: Branch, taken: frozenset[int]) -> State:
        """The state at the branch's head as if the events at `taken` had not been
        recorded: what an undo leaves, folded from a snapshot before them."""
        from journal.core.state import project, retracted_positions

        latest = self._before.get(branch.id)
        if latest is not None and latest[:2] == (branch.head, branch.head_hash) \
                and taken == {branch.head}:  # the event this journal wrote last: as before it
            return latest[2]
        found = self._from_snapshot(branch, taken)
        if found is not None:
            return found
        history = self.store.log.read(branch)
        gone = retracted_positions(history) | taken
        return project(r for r in history if r.position not in gone)

    def keep_snapshot(self, branch: Branch, state: State) -> None:
        """A snapshot every so many events a journal kept open writes (the play shell), so
        an undo, or the next process, folds only the events since."""
        from journal import PROJECTION_VERSION
        from journal.core import snapshots

        last = self._snapshotted.get(branch.id)
        if last is None:
            found = self.store.kept.snapshot(branch, PROJECTION_VERSION)
            last = self._snapshotted[branch.id] = found[0] if found else 0
        if branch.head - last >= snapshots.SNAPSHOT_EVERY:  # kept or not, tried again
            self.store.kept.save_snapshot(  # only so many events on (a busy journal)
                branch, branch.head, PROJECTION_VERSION, snapshots.encode(state), self.now())
            self._snapshotted[branch.id] = branch.head


def _before_undos(retractions: list[tuple[int, tuple[int, ...]]], mark: int) -> int:
    """The latest position at or before `mark` that no later undo reaches behind: the
    state there, folded without every undone event, is the state the table had there."""
    while True:
        reached = [p for at, undone in retractions if at > mark for p in undone if p <= mark]
        if not reached:
            return mark
        mark = min(reached) - 1


class Folding:
    """The main branch of an import folded as its events pass on their way to the store,
    a stretch at a time through the replay's own fold (each payload was parsed once
    already, to check it: the memo has it). A stretch is folded only once the next has
    been read, so the undos that reach into it are known by then; an undo that reaches
    further back stops the folding: the first command folds that campaign instead."""

    STRETCH = 4096

    def __init__(self) -> None:
        from journal.core.state import State

        self.at, self.state = 0, State()
        """The state after position `at`: the events folded so far."""
        self.waiting: list[ev.Fact] = []
        self.gone: set[int] = set()
        self.undos: list[tuple[int, tuple[int, ...]]] = []
        self.settled: tuple[int, State] | None = None
        """A position a little before the head, and the state the table had there."""
        self.head: tuple[int, str] | None = None

    def through(
        self, items: Iterable[RawEvent | Section | Mark],
    ) -> Iterator[RawEvent | Section | Mark]:
        from journal.core import events as ev

        items = iter(items)
        parse, waiting, undone = ev.parse_stored, self.waiting, ev.Retracted
        for item in items:
            if isinstance(item, Section):  # the main branch ends: the rest pass as they are
                yield item
                break
            if isinstance(item, RawEvent) and self.head != _BROKEN:
                event = parse(item.type, item.v, item.payload_json)
                if isinstance(event, undone):
                    self._undo(item.position, event.positions)
                if self.head != _BROKEN:
                    waiting.append((item.position, event, item.override))
                    self.head = (item.position, item.hash)
                    if len(waiting) >= 2 * self.STRETCH:
                        self._fold(self.STRETCH)
            yield item
        self._finish()
        yield from items

    def _undo(self, position: int, taken: tuple[int, ...]) -> None:
        if min(taken) <= self.at:  # into a stretch folded already
            self.head = _BROKEN
        self.gone.update(taken)
        self.undos.append((position, taken))

    def _fold(self, count: int) -> None:
        from journal.core.state import fold

        facts = self.waiting[:count]
        del self.waiting[:count]
        if facts:
            self.state = fold(facts, self.gone, self.state)
            self.at = facts[-1][0]

    def _finish(self) -> None:
        """Fold what waits, keeping on the way the state at a position a little before the
        head that no undo after it reaches behind."""
        from journal.core import snapshots

        if self.head in (None, _BROKEN) or not self.waiting:
            return
        settled = _before_undos(self.undos, self.waiting[-1][0] - snapshots.SNAPSHOT_EVERY)
        if settled > self.at:
            self._fold(sum(1 for fact in self.waiting if fact[0] <= settled))
            if self.at == settled:
                self.settled = (self.at, self.state)
        self._fold(len(self.waiting))

    def kept(self) -> list[tuple[int, State]]:
        """The snapshots to keep: at the head, and the settled one before it."""
        return [(self.at, self.state), *([self.settled] if self.settled else [])]


_BROKEN = (0, "")
