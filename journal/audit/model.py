"""What the audit reads (a branch's rows, as stored, through a `Reader`) and what it finds.
The audit itself is journal.audit; one branch's walk, journal.audit.walk."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal, NamedTuple, Protocol

from journal.core import chain
from journal.core.dice_stats import DiceStats

if TYPE_CHECKING:
    from journal.core.state import State
    from journal.store import Branch

Kind = Literal["integrity", "legality"]


# -- what the audit reads ----------------------------------------------------------------

class Row(NamedTuple):
    """One stored event row, unparsed: what the hash covers, as the file holds it. (A
    named tuple: the audit makes one a row.)"""

    position: int
    type: str
    version: int
    payload: str
    recorded_at: str
    player: int | None
    override: str | None
    prev_hash: str
    hash: str

    def envelope(self, payload: str) -> str:
        """The canonical encoding the hash covers, with the payload spelt canonically
        (`chain.canonical_json` of it when it reads, the text as stored when not)."""
        return chain.envelope(self.position, self.type, self.version, payload,
                              self.recorded_at, self.player, self.override)


@dataclass(frozen=True)
class BranchRows:
    """A branch as stored: where it forks from its parent and its head (its own rows are
    read through the `Reader`, as they stream)."""

    id: int
    name: str
    parent_id: int | None
    fork: int | None
    head: int
    head_hash: str

    @classmethod
    def of(cls, branch: Branch) -> BranchRows:
        return cls(branch.id, branch.name, branch.parent_id, branch.fork_position,
                   branch.head, branch.head_hash)

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


class Reader(Protocol):
    """Where the audit reads a branch's own rows, exactly as stored (the store)."""

    def rows(self, branch: BranchRows) -> Iterator[Row]:
        """Its own rows, in position order, as they stream."""

    def row_at(self, branch: BranchRows, position: int) -> Row | None:
        """Its own row at `position`, if it has one."""

    def undos(self, branch: BranchRows) -> Sequence[Row]:
        """Its own retraction rows."""


def scope(tree: Sequence[BranchRows], name: str | None) -> list[tuple[BranchRows, int | None]]:
    """(branch, last own position it contributes): every branch, or one and its ancestry."""
    if name is None:
        return [(b, None) for b in tree]
    branch = next(b for b in tree if b.name == name)
    return [*lineage(tree, branch), (branch, None)]


def lineage(tree: Sequence[BranchRows], branch: BranchRows) -> list[tuple[BranchRows, int]]:
    """The ancestors `branch` shares events with, root first, each with its last shared position."""
    by_id, found = {b.id: b for b in tree}, []
    limit, parent = branch.fork, branch.parent_id
    while parent is not None and limit is not None:
        owner = by_id[parent]
        found.append((owner, limit))
        limit = min(limit, owner.fork) if owner.fork is not None else None
        parent = owner.parent_id
    return found[::-1]


def row_at(reader: Reader, tree: Sequence[BranchRows], branch: BranchRows,
           position: int) -> Row | None:
    """The row at `position` of `branch`'s stream: its own, or an ancestor's."""
    owners = [(branch, None), *reversed(lineage(tree, branch))]
    for owner, limit in owners:
        if position > owner.start and (limit is None or position <= limit):
            return reader.row_at(owner, position)
    return None
