"""One branch's walk for the audit: its own rows read once, in order, as they stream.

Each row is checked for integrity as it comes and, one row behind (so that a fault found
at the next row, or at the head, is known first), re-decided for legality against the
state before it. Nothing grows with the branch: the state steps back on an undo
(journal.core.stepwise), the events an undo's re-decision looks back on are the latest few
(and, further back, read again), and the dice are counted as they are rolled.
"""

from __future__ import annotations

import json
from collections import Counter, deque
from collections.abc import Collection, Iterator, Sequence
from datetime import datetime
from functools import cache
from typing import Any

from journal.audit.model import (
    BranchRows,
    Checked,
    Finding,
    Kind,
    Overridden,
    Reader,
    Retraction,
    Row,
    lineage,
    row_at,
)
from journal.audit.recheck import die_kinds, recheck
from journal.core import chain
from journal.core import events as ev
from journal.core.state import State, project
from journal.core.stepwise import Stepwise, TooDeep
from journal.errors import BadInput, SpireError
from journal.games.interface import Rolled

_UNREAD: Any = object()
"""A payload not read yet."""
_FAILED: Any = object()
"""A payload that does not read."""
_READ: Any = object()
"""A payload read before, an object (its canonical spelling is in `_CANONICAL`)."""
_CANONICAL: dict[str, str] = {}
"""Payload texts that read as an object, each with its canonical spelling: a campaign
repeats its payloads (the same dice, the same gain), and the audit spells every one to
check its hash. Bounded as the replay's memo is."""
_CANONICAL_MAX = 8192
"""A payload that did not read as JSON."""

RECENT = 1024
"""How many of the latest events a walk keeps parsed, for an undo's re-decision and the
type of the event it took back (older ones are read again)."""


class Walk:
    """One branch's own rows (up to `limit`) checked, starting from the state at its fork
    (`start`, as the parent's walk folded it; folded here from the rows if None)."""

    def __init__(self, reader: Reader, tree: Sequence[BranchRows], branch: BranchRows,
                 limit: int | None, keep: Collection[int] = (),
                 start: State | None = None) -> None:
        self.reader, self.tree, self.branch, self.limit, self.keep = \
            reader, tree, branch, limit, keep
        self.findings: list[Finding] = []
        self.rows = 0
        self.broken: int | None = None
        """The first position an integrity finding names: legality stops before it."""
        self.legality = Legality(self, start)
        self._walk()

    def checked(self) -> Checked:
        parent = next((b.name for b in self.tree if b.id == self.branch.parent_id), None)
        head = self.branch.head if self.limit is None else self.limit
        return Checked(self.branch.name, parent, self.branch.fork, head, self.rows,
                       self.legality.to)

    def find(self, kind: Kind, position: int, message: str, section: str | None = None) -> None:
        self.findings.append(Finding(kind, self.branch.name, position, message, section))
        if kind == "integrity" and (self.broken is None or position < self.broken):
            self.broken = position

    # -- the walk --------------------------------------------------------------------------

    def _walk(self) -> None:
        prev, expected = self._fork_hash(), self.branch.start + 1
        waiting: ev.Recorded | None = None  # parsed, its legality one row behind
        for row in self.reader.rows(self.branch):
            if self.limit is not None and row.position > self.limit:
                break
            self.rows += 1
            if row.position < expected:
                self.find("integrity", row.position,
                           f"an event at or before the fork at #{self.branch.start}")
                continue
            if row.position > expected:
                self.find("integrity", expected, _missing(expected, row.position - 1))
            elif prev is not None and row.prev_hash != prev:
                self.find("integrity", row.position, self._broken_link(row.position))
            parsed = self._row(row)
            if waiting is not None:
                self.legality.check(waiting)
            waiting = parsed
            prev, expected = row.hash, row.position + 1
        if self.limit is None:
            self._head(expected - 1, prev)
        if waiting is not None:
            self.legality.check(waiting)

    def _fork_hash(self) -> str | None:
        """The hash the branch's first own event continues: the parent's at the fork."""
        if self.branch.parent_id is None:
            return chain.GENESIS
        row = row_at(self.reader, self.tree, self.branch, self.branch.start)
        return row.hash if row is not None else None  # missing: found on the parent

    def _broken_link(self, position: int) -> str:
        if position == self.branch.start + 1 and self.branch.parent_id is not None:
            return (f"prev_hash does not continue the parent's chain at the fork "
                    f"(#{self.branch.start})")
        return f"prev_hash is not the hash of #{position - 1}: the chain is broken here"

    def _row(self, row: Row) -> ev.Recorded | None:
        data: Any = _READ
        canonical = _CANONICAL.get(row.payload)
        if canonical is None:
            try:
                data = json.loads(row.payload)
            except ValueError:
                data = _FAILED
            canonical = row.payload if data is _FAILED else chain.canonical_json(data)
            if isinstance(data, dict):
                if len(_CANONICAL) >= _CANONICAL_MAX:
                    _CANONICAL.clear()
                _CANONICAL[row.payload] = canonical
        if chain.link(row.prev_hash, row.envelope(canonical)) != row.hash:
            self.find("integrity", row.position,
                       "its hash does not match its contents: edited outside spire")
        try:
            return parsed(row, data)
        except SpireError as e:
            self.find("integrity", row.position, str(e))
            return None

    def _head(self, last: int, last_hash: str | None) -> None:
        head = self.branch.head
        if head > last:
            self.find("integrity", last + 1,
                       f"{_missing(last + 1, head)}: the head says #{head}, the last event "
                       f"is #{last}")
        elif head < last:
            self.find("integrity", head + 1,
                       f"events past the head: the head says #{head}, the last event is #{last}")
        elif last_hash is not None and self.branch.head_hash != last_hash:
            self.find("integrity", head, f"the head hash is not the hash of #{head}")


class Legality:
    """One branch's events re-decided in order against the state before each (from the
    state at its fork, `start`; folded here from the ancestors' rows if None), up to the
    first integrity finding its `walk` makes: the overrides, the undos and the dice rolled,
    and the state at each position of the walk's `keep`. Nothing grows with the branch:
    the state steps back on an undo, and the events an undo looks back on are the latest
    few (further back, read again)."""

    def __init__(self, walk: Walk, start: State | None) -> None:
        self.walk = walk
        self.states: dict[int, State] = {}
        """The state at each position of `keep` the legality fold reached."""
        self.overrides: list[Overridden] = []
        self.retractions: list[Retraction] = []
        self.to: int | None = None
        """The last position re-decided."""
        self.dice: dict[str, Counter[str]] = {}
        self._recent: deque[ev.Recorded] = deque(maxlen=RECENT)
        self._undone = _undone(walk.reader.undos(walk.branch))
        self._steps = self._start(start)

    def _start(self, start: State | None) -> Stepwise | None:
        """The fold at the fork: the parent's, or the ancestors' rows folded here; None if
        any of them does not read (legality is then not checked: reported on the
        ancestor)."""
        if start is None and self.walk.branch.parent_id is not None:
            shared = self._shared()
            if shared is None:
                return None
            start = project(shared)
        steps = Stepwise(start, self.walk.branch.start)
        if self.walk.branch.start in self.walk.keep:
            self.states[self.walk.branch.start] = steps.state
        return steps

    def _shared(self) -> list[ev.Recorded] | None:
        shared = []
        for owner, limit in lineage(self.walk.tree, self.walk.branch):
            for row in self.walk.reader.rows(owner):
                if owner.start < row.position <= limit:
                    try:
                        shared.append(parsed(row))
                    except SpireError:
                        return None
        if [r.position for r in shared] != list(range(1, self.walk.branch.start + 1)):
            return None  # a gap in the ancestry: reported on the ancestor
        return shared

    def check(self, recorded: ev.Recorded | None) -> None:
        """Re-decide an event against the state before it, up to the first integrity
        finding: past a broken chain the rules would judge the damage, not the play."""
        steps = self._steps
        if steps is None or recorded is None or self._stopped(recorded.position):
            self._steps = None
            return
        self._recheck(steps.state, recorded)
        self._recent.append(recorded)
        try:
            steps.add(recorded)
        except TooDeep:  # an undo past the steps kept: the branch folded afresh
            steps.restart(project(self._earlier(recorded.position + 1, oldest_first=True)),
                          recorded.position)
        if recorded.position in self.walk.keep:
            self.states[recorded.position] = steps.state
        if recorded.position not in self._undone:
            self._count_dice(recorded)
        self.to = recorded.position

    def _stopped(self, position: int) -> bool:
        broken = self.walk.broken
        return broken is not None and position >= broken

    def _recheck(self, state: State, recorded: ev.Recorded) -> None:
        if isinstance(recorded.event, ev.Retracted):
            self._retraction(recorded)
        try:
            decision = recheck(state, recorded, lambda: self._earlier(recorded.position))
        except SpireError as e:
            self.walk.find("legality", recorded.position, f"spire would not record this: {e}")
            return
        if recorded.event not in decision.events:
            self.walk.find("legality", recorded.position, _unlike(recorded.event, decision.events))
        if recorded.override is not None:
            self.overrides.append(Overridden(
                self.walk.branch.name, recorded.position, recorded.type, recorded.override,
                tuple(v.citation for v in decision.violations)))
            return
        for violation in decision.violations:
            self.walk.find("legality", recorded.position, violation.reason, violation.section)

    def _retraction(self, recorded: ev.Recorded) -> None:
        assert isinstance(recorded.event, ev.Retracted)
        positions = recorded.event.positions
        types = {}
        for earlier in self._earlier(recorded.position):  # back to the earliest undone
            if earlier.position < min(positions):
                break
            types[earlier.position] = earlier.type
        self.retractions.append(Retraction(
            self.walk.branch.name, recorded.position, positions,
            tuple(types.get(p, "nothing") for p in positions)))

    def _earlier(self, position: int, oldest_first: bool = False) -> Iterator[ev.Recorded]:
        """The branch's events before `position`, latest first (or all of them oldest
        first): the latest few as kept, the rest read again."""
        if oldest_first:
            owners = [*lineage(self.walk.tree, self.walk.branch), (self.walk.branch, position - 1)]
            for owner, limit in owners:
                for row in self.walk.reader.rows(owner):
                    if owner.start < row.position <= limit:
                        yield parsed(row)
            return
        seen = position
        for recorded in reversed(self._recent):
            if recorded.position < seen:
                yield recorded
                seen = recorded.position
        for at in range(seen - 1, 0, -1):
            found = row_at(self.walk.reader, self.walk.tree, self.walk.branch, at)
            if found is None:
                return
            try:
                yield parsed(found)
            except SpireError:
                return

    def _count_dice(self, recorded: ev.Recorded) -> None:
        for name, rolled in _rolls(recorded.type):
            self.dice.setdefault(name, Counter()).update(rolled(recorded.event))


@cache
def _rolls(type_: str) -> tuple[tuple[str, Rolled], ...]:
    """The kinds of dice an event of `type_` rolls, each with how to read its faces."""
    return tuple((kind.name, kind.rolls[type_]) for kind in die_kinds()
                 if type_ in kind.rolls)


def _undone(rows: Sequence[Row]) -> frozenset[int]:
    """The positions a branch's own undos took back (one that does not read: none)."""
    gone: set[int] = set()
    for row in rows:
        try:
            gone.update(int(p) for p in json.loads(row.payload)["positions"])
        except (ValueError, KeyError, TypeError):
            continue
    return frozenset(gone)


def _missing(first: int, last: int) -> str:
    return f"#{first} is missing" if first == last else f"#{first} to #{last} are missing"


def parsed(row: Row, data: Any = _UNREAD) -> ev.Recorded:
    """The row's event; `data`, its payload as read already (`_FAILED`: it did not read;
    `_READ`: it read before, as an object)."""
    try:
        if data is _UNREAD:
            data = json.loads(row.payload)
        elif data is _FAILED:
            raise ValueError(row.payload)
        at = datetime.fromisoformat(row.recorded_at)
    except ValueError:
        raise BadInput(f"the payload or time of this {row.type} does not read") from None
    if data is not _READ and not isinstance(data, dict):
        raise BadInput(f"the payload of this {row.type} is not an object")
    try:  # through the replay's memo: a campaign repeats its payloads (the same dice)
        event = ev.parse_stored(row.type, row.version, row.payload)
    except Exception:  # noqa: BLE001 - read again below, to say what is wrong
        if data is _READ:
            data = json.loads(row.payload)
        event = ev.parse_payload(row.type, row.version, data)
    return ev.Recorded(row.position, event, at, row.player, row.override, row.prev_hash, row.hash)


def _unlike(event: ev.Payload, decided: Sequence[ev.Payload]) -> str:
    """How an event differs from what the rules record for the same command."""
    tag = _tag(event)
    if len(decided) != 1 or _tag(decided[0]) != tag:
        made = ", ".join(_tag(e) for e in decided) or "nothing"
        return f"the rules record {made} here, not this {tag}"
    held, ruled = ev.payload_data(event), ev.payload_data(decided[0])
    fields = sorted(k for k in held.keys() | ruled.keys() if held.get(k) != ruled.get(k))
    shown = ", ".join(f"{k} {held.get(k)!r} (the rules: {ruled.get(k)!r})" for k in fields)
    return f"the rules record this {tag} otherwise: {shown}"


def _tag(event: ev.Payload) -> str:
    return str(type(event).model_fields["type"].default)


