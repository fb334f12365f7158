"""The audit: was every step legal, has the log been edited? Pure: it reads the rows the
service hands it, exactly as stored, and never writes.

- Integrity: each branch's hash chain, contiguous positions, the fork point continuing the
  parent's chain, the head matching the last event, every payload valid.
- Legality: each event re-decided by the game's rules against the state before it. A rule
  the event breaks is a finding unless it was recorded with `--force` (then an override).
- Plausibility: the faces each kind of die showed against the die's own shares, with a
  chi-squared test once there are enough dice: information, never a finding.
- The seal: each branch's head against the seal kept beside the journal, and against a
  head hash the players give (`--expect`): what a chain kept in the same file cannot see
  alone (the last event deleted and the head moved back, a forged event chained on, every
  hash recomputed after an edit).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from journal import chain, dice_stats
from journal import events as ev
from journal.dice_stats import DiceStats
from journal.errors import BadInput, SpireError
from journal.recheck import DIE_KINDS, recheck
from journal.state import State, project, retracted_positions
from journal.stepwise import Stepwise, TooDeep

if TYPE_CHECKING:
    from journal.seal import Sealed
    from journal.store import Branch

Kind = Literal["integrity", "legality"]


# -- what the audit reads ----------------------------------------------------------------

@dataclass(frozen=True)
class Row:
    """One stored event row, unparsed: what the hash covers, as the file holds it."""

    position: int
    type: str
    version: int
    payload: str
    recorded_at: str
    player: int | None
    override: str | None
    prev_hash: str
    hash: str

    def encoded(self) -> str:
        """The canonical encoding the hash covers (payload re-spelt canonically if it reads)."""
        try:
            payload = chain.canonical_json(json.loads(self.payload))
        except ValueError:
            payload = self.payload
        return chain.envelope(self.position, self.type, self.version, payload,
                              self.recorded_at, self.player, self.override)


@dataclass(frozen=True)
class BranchRows:
    """A branch as stored: where it forks from its parent, its head, its own rows."""

    id: int
    name: str
    parent_id: int | None
    fork: int | None
    head: int
    head_hash: str
    rows: tuple[Row, ...]

    @classmethod
    def of(cls, branch: Branch, rows: Sequence[dict[str, Any]]) -> BranchRows:
        columns = [f.name for f in fields(Row)]
        return cls(branch.id, branch.name, branch.parent_id, branch.fork_position,
                   branch.head, branch.head_hash,
                   tuple(Row(**{c: r[c] for c in columns}) for r in rows))

    @property
    def start(self) -> int:
        """The last position it shares with its parent (0 for a campaign's first branch)."""
        return self.fork or 0


# -- what it finds -----------------------------------------------------------------------

@dataclass(frozen=True)
class Finding:
    """A problem at one position of one branch: the log was edited, or a rule was broken."""

    kind: Kind
    branch: str
    position: int
    message: str
    section: str | None = None

    def text(self) -> str:
        cited = f" (rulebook: {self.section})" if self.section else ""
        return f"{self.branch} #{self.position}: {self.message}{cited}"


@dataclass(frozen=True)
class Overridden:
    """An event recorded with --force: the rules it overrode, and what the rules find now."""

    branch: str
    position: int
    type: str
    override: str
    found: tuple[str, ...]


@dataclass(frozen=True)
class Retraction:
    """An undo: the positions it took back and what they were."""

    branch: str
    position: int
    positions: tuple[int, ...]
    undone: tuple[str, ...]


@dataclass(frozen=True)
class Checked:
    """One branch's part of the audit: its own events, and how far legality could go."""

    name: str
    parent: str | None
    fork: int | None
    head: int
    events: int
    legality_to: int | None
    """The last position re-checked; None when no position was left to check."""


@dataclass(frozen=True)
class Report:
    campaign: str
    game: str
    branches: tuple[Checked, ...]
    findings: tuple[Finding, ...]
    overrides: tuple[Overridden, ...]
    retractions: tuple[Retraction, ...]
    dice: tuple[DiceStats, ...]
    states: Mapping[tuple[str, int], State] = field(default_factory=dict, compare=False,
                                                   repr=False)
    """The state folded at each position asked for (`keep`), by (branch, position): what
    the caches kept there are checked against, without folding the branch again."""

    @property
    def problems(self) -> int:
        return len(self.findings)

    def of_kind(self, kind: Kind) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.kind == kind)


# -- the audit ---------------------------------------------------------------------------

def audit(campaign: str, game: str, tree: Sequence[BranchRows],
          branch: str | None = None, sealed: Sealed | None = None,
          expect: str | None = None,
          keep: Mapping[str, Collection[int]] | None = None) -> Report:
    """Audit `branch` (its own events and its ancestors' up to each fork), or every branch;
    with `sealed`, each whole branch against the seal; with `expect`, `branch`'s head
    against that hash; the state at each position of `keep` (by branch) is kept in the
    report's `states`."""
    scope = _scope(tree, branch)
    keep = keep or {}
    forks: dict[int, set[int]] = {}  # each branch's positions its children fork at
    for b, _ in scope:
        if b.parent_id is not None and b.fork is not None:
            forks.setdefault(b.parent_id, set()).add(b.fork)
    walks: list[_Walk] = []
    for b, limit in scope:  # parents first: a child starts from its parent's fold
        parent = next((w for w in walks if w.branch.id == b.parent_id), None)
        start = parent.states.get(b.fork) if parent is not None and b.fork else None
        walks.append(_Walk(tree, b, limit, {*keep.get(b.name, ()), *forks.get(b.id, ())},
                           start))
    dice = _dice([r for w in walks for r in w.counted()])
    findings = [f for w in walks for f in w.findings]
    if sealed is not None:
        findings += _against_seal(campaign, tree, [b for b, limit in scope if limit is None],
                                  sealed)
    if expect is not None and branch is not None:
        findings += _against_expected(tree, next(b for b in tree if b.name == branch), expect)
    return Report(
        campaign, game, tuple(w.checked() for w in walks),
        tuple(findings), tuple(o for w in walks for o in w.overrides),
        tuple(r for w in walks for r in w.retractions), dice,
        {(w.branch.name, at): state for w in walks for at, state in w.states.items()})


# -- the seal ----------------------------------------------------------------------------

def _against_seal(campaign: str, tree: Sequence[BranchRows], whole: Sequence[BranchRows],
                  sealed: Sealed) -> list[Finding]:
    """Each whole branch's head against the head the seal keeps for it (a journal that is
    not a file, such as a PostgreSQL one, has none: only --expect checks its heads)."""
    if sealed.where is None:
        return []
    if sealed.heads is None:
        return [Finding("integrity", b.name, b.head, f"{sealed.trouble}: the head cannot "
                        "be checked against a seal") for b in whole]
    found = []
    names = {b.name for b in whole}
    for was in sealed.disagreed:
        if was.campaign == campaign and was.branch in names:
            (head, digest), (had, had_hash) = was.sealed, was.found
            found.append(Finding(
                "integrity", was.branch, min(head, had) + (head != had),
                f"when spire last wrote here the journal was not as sealed: the seal said "
                f"#{head} (hash {digest[:12]}...), the journal had #{had} (hash "
                f"{had_hash[:12]}...): changed outside spire"))
    for branch in whole:
        kept = sealed.heads.get((campaign, branch.name))
        if kept is None:
            found.append(Finding("integrity", branch.name, branch.head,
                                 "the branch is not in the seal: made outside spire"))
        else:
            found += _sealed_head(tree, branch, *kept)
    return found


def _sealed_head(tree: Sequence[BranchRows], branch: BranchRows, head: int,
                 digest: str) -> list[Finding]:
    def find(position: int, message: str) -> list[Finding]:
        return [Finding("integrity", branch.name, position, message)]

    at = _row_at(tree, branch, head) if head > 0 else None
    if at is None and 0 < head <= branch.head:
        return []  # the sealed head's row is gone: the chain's own check names the gap
    there = at.hash if at is not None else digest
    if head > branch.head:
        return find(branch.head + 1, f"{_missing(branch.head + 1, head)} from the journal: the "
                    f"seal says the head is #{head}, the journal's is #{branch.head}")
    if there != digest:
        return find(head, f"#{head} is not the event sealed there (hash {digest[:12]}..., "
                    f"the journal's {str(there)[:12]}...): rewritten outside spire")
    if head < branch.head:
        return find(head + 1, f"{_events(head + 1, branch.head)} past the sealed head "
                    f"#{head}: appended outside spire")
    return []


def _against_expected(tree: Sequence[BranchRows], branch: BranchRows,
                      expect: str) -> list[Finding]:
    """`branch`'s head against the hash the players kept (a prefix of 8 or more digits)."""
    wanted = expect.strip().lower()
    if branch.head_hash.startswith(wanted):
        return []
    owners = [(branch, branch.head), *_lineage(tree, branch)]
    rows = [r for owner, limit in owners for r in owner.rows
            if r.position <= limit and r.hash.startswith(wanted)]
    if rows:
        at = rows[0].position
        return [Finding("integrity", branch.name, at + 1,
                        f"the head expected is #{at} (hash {wanted[:12]}...); "
                        f"{_events(at + 1, branch.head)} came after it")]
    return [Finding("integrity", branch.name, branch.head,
                    f"no event of the branch has the hash expected ({wanted[:12]}...): the "
                    "history was rewritten, or the hash is another journal's")]


def _events(first: int, last: int) -> str:
    return f"#{first}" if first == last else f"#{first} to #{last}"


def _scope(tree: Sequence[BranchRows], name: str | None) -> list[tuple[BranchRows, int | None]]:
    """(branch, last own position it contributes): every branch, or one and its ancestry."""
    if name is None:
        return [(b, None) for b in tree]
    branch = next(b for b in tree if b.name == name)
    return [*_lineage(tree, branch), (branch, None)]


def _lineage(tree: Sequence[BranchRows], branch: BranchRows) -> list[tuple[BranchRows, int]]:
    """The ancestors `branch` shares events with, root first, each with its last shared position."""
    by_id, found = {b.id: b for b in tree}, []
    limit, parent = branch.fork, branch.parent_id
    while parent is not None and limit is not None:
        owner = by_id[parent]
        found.append((owner, limit))
        limit = min(limit, owner.fork) if owner.fork is not None else None
        parent = owner.parent_id
    return found[::-1]


def _row_at(tree: Sequence[BranchRows], branch: BranchRows, position: int) -> Row | None:
    """The row at `position` of `branch`'s stream: its own, or an ancestor's."""
    owners = [(branch, None), *reversed(_lineage(tree, branch))]
    for owner, limit in owners:
        if position > owner.start and (limit is None or position <= limit):
            return next((r for r in owner.rows if r.position == position), None)
    return None


class _Walk:
    """One branch's own rows (up to `limit`) checked, with its ancestors' rows folded first."""

    def __init__(self, tree: Sequence[BranchRows], branch: BranchRows, limit: int | None,
                 keep: Collection[int] = (), start: State | None = None) -> None:
        self.tree, self.branch, self.limit, self.keep = tree, branch, limit, keep
        self.start = start
        """The state at the fork, as the parent's walk folded it (None: folded here)."""
        self.states: dict[int, State] = {}
        """The state at each position of `keep` the legality fold reached."""
        self.rows = [r for r in branch.rows if limit is None or r.position <= limit]
        self.findings: list[Finding] = []
        self.overrides: list[Overridden] = []
        self.retractions: list[Retraction] = []
        self.legality_to: int | None = None
        self._own: list[ev.Recorded] = []
        self._types: dict[int, str] = {}
        """The type of each event before the one being checked, by position."""
        self._integrity()
        self._legality()

    def checked(self) -> Checked:
        parent = next((b.name for b in self.tree if b.id == self.branch.parent_id), None)
        head = self.branch.head if self.limit is None else self.limit
        return Checked(self.branch.name, parent, self.branch.fork, head, len(self.rows),
                       self.legality_to)

    def counted(self) -> list[ev.Recorded]:
        """Its own events that still count (not undone), for the dice statistics."""
        gone = retracted_positions(self._own)
        return [r for r in self._own if r.position not in gone]

    def _find(self, kind: Kind, position: int, message: str, section: str | None = None) -> None:
        self.findings.append(Finding(kind, self.branch.name, position, message, section))

    # -- integrity -------------------------------------------------------------------------

    def _integrity(self) -> None:
        prev, expected = self._fork_hash(), self.branch.start + 1
        for row in self.rows:
            if row.position < expected:
                self._find("integrity", row.position,
                           f"an event at or before the fork at #{self.branch.start}")
                continue
            if row.position > expected:
                self._find("integrity", expected, _missing(expected, row.position - 1))
            elif prev is not None and row.prev_hash != prev:
                self._find("integrity", row.position, self._broken_link(row.position))
            self._row(row)
            prev, expected = row.hash, row.position + 1
        if self.limit is None:
            self._head(expected - 1, prev)

    def _fork_hash(self) -> str | None:
        """The hash the branch's first own event continues: the parent's at the fork."""
        if self.branch.parent_id is None:
            return chain.GENESIS
        row = _row_at(self.tree, self.branch, self.branch.start)
        return row.hash if row is not None else None  # missing: found on the parent

    def _broken_link(self, position: int) -> str:
        if position == self.branch.start + 1 and self.branch.parent_id is not None:
            return (f"prev_hash does not continue the parent's chain at the fork "
                    f"(#{self.branch.start})")
        return f"prev_hash is not the hash of #{position - 1}: the chain is broken here"

    def _row(self, row: Row) -> None:
        if chain.link(row.prev_hash, row.encoded()) != row.hash:
            self._find("integrity", row.position,
                       "its hash does not match its contents: edited outside spire")
        try:
            self._own.append(_parsed(row))
        except SpireError as e:
            self._find("integrity", row.position, str(e))

    def _head(self, last: int, last_hash: str | None) -> None:
        head = self.branch.head
        if head > last:
            self._find("integrity", last + 1,
                       f"{_missing(last + 1, head)}: the head says #{head}, the last event "
                       f"is #{last}")
        elif head < last:
            self._find("integrity", head + 1,
                       f"events past the head: the head says #{head}, the last event is #{last}")
        elif last_hash is not None and self.branch.head_hash != last_hash:
            self._find("integrity", head, f"the head hash is not the hash of #{head}")

    # -- legality --------------------------------------------------------------------------

    def _legality(self) -> None:
        """Re-decide each own event against the state before it, up to the first integrity
        finding: past a broken chain the rules would judge the damage, not the play."""
        stream = self._shared()
        if stream is None:
            return
        broken = min((f.position for f in self.findings), default=None)
        steps = Stepwise(self.start or project(stream), self.branch.start)
        if self.branch.start in self.keep:
            self.states[self.branch.start] = steps.state
        self._types = {r.position: r.type for r in stream}
        for recorded in self._own:
            if broken is not None and recorded.position >= broken:
                break
            self._recheck(steps.state, recorded, stream)
            stream.append(recorded)
            self._types[recorded.position] = recorded.type
            try:
                steps.add(recorded)
            except TooDeep:  # an undo past the steps kept: the branch folded afresh
                steps.restart(project(stream), recorded.position)
            if recorded.position in self.keep:
                self.states[recorded.position] = steps.state
            self.legality_to = recorded.position

    def _shared(self) -> list[ev.Recorded] | None:
        """The ancestors' events up to the fork, parsed; None if any of them does not read."""
        shared = []
        for owner, limit in _lineage(self.tree, self.branch):
            for row in owner.rows:
                if owner.start < row.position <= limit:
                    try:
                        shared.append(_parsed(row))
                    except SpireError:
                        return None
        if [r.position for r in shared] != list(range(1, self.branch.start + 1)):
            return None  # a gap in the ancestry: reported on the ancestor
        return shared

    def _recheck(self, state: State, recorded: ev.Recorded, before: list[ev.Recorded]) -> None:
        if isinstance(recorded.event, ev.Retracted):
            self._retraction(recorded, before)
        try:
            decision = recheck(state, recorded, before)
        except SpireError as e:
            self._find("legality", recorded.position, f"spire would not record this: {e}")
            return
        if recorded.event not in decision.events:
            self._find("legality", recorded.position, _unlike(recorded.event, decision.events))
        if recorded.override is not None:
            self.overrides.append(Overridden(
                self.branch.name, recorded.position, recorded.type, recorded.override,
                tuple(v.citation for v in decision.violations)))
            return
        for violation in decision.violations:
            self._find("legality", recorded.position, violation.reason, violation.section)

    def _retraction(self, recorded: ev.Recorded, before: list[ev.Recorded]) -> None:
        assert isinstance(recorded.event, ev.Retracted)
        positions = recorded.event.positions
        self.retractions.append(Retraction(
            self.branch.name, recorded.position, positions,
            tuple(self._types.get(p, "nothing") for p in positions)))


def _missing(first: int, last: int) -> str:
    return f"#{first} is missing" if first == last else f"#{first} to #{last} are missing"


def _parsed(row: Row) -> ev.Recorded:
    try:
        data = json.loads(row.payload)
        at = datetime.fromisoformat(row.recorded_at)
    except ValueError:
        raise BadInput(f"the payload or time of this {row.type} does not read") from None
    if not isinstance(data, dict):
        raise BadInput(f"the payload of this {row.type} is not an object")
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


# -- dice --------------------------------------------------------------------------------

def _dice(events: Sequence[ev.Recorded]) -> tuple[DiceStats, ...]:
    """Each kind of die's faces, from every event that rolled one (players' and enemies')."""
    found = []
    for kind in DIE_KINDS:
        faces = [f for r in events if r.type in kind.rolls for f in kind.rolls[r.type](r.event)]
        if faces:
            found.append(dice_stats.stats(kind.name, faces, kind.printed))
    return tuple(found)
