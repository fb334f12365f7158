"""Proof: the audit of a campaign and `replay --verify`, each reading the branches as they
stream and checking the caches the journal keeps (statuses, snapshots) against the states
its own fold passed."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from itertools import starmap
from typing import TYPE_CHECKING, Any, Protocol

from journal.service import glance as glances
from journal.store import Branch, Log

if TYPE_CHECKING:
    from journal import audit as audit_
    from journal.audit import Report as AuditReport
    from journal.core.state import State
    from journal.service.views import View
    from journal.store import Campaign, Store


class Reading(Protocol):
    """What the proof asks of the journal it reads (`journal.service.reading.Reading`)."""

    store: Store

    def campaign(self) -> Campaign: ...

    def view(self, branch: str | None = None) -> View: ...


_NOT_REACHED: Any = object()
"""A child's fork whose state its parent's fold has not reached (yet)."""


def verify(journal: Reading) -> list[str]:
    """Fold every branch from scratch, as it streams, and compare with what the
    journal serves: its state, the status kept at its head and each snapshot. A
    branch is folded from its parent's state at the fork (parents come first)."""
    problems: list[str] = []
    tree = journal.store.tree.branches(journal.campaign())
    forks: dict[int, dict[int, State]] = {b.id: {} for b in tree}
    for b in tree:
        if b.parent_id is not None and b.fork_position is not None:
            forks[b.parent_id][b.fork_position] = _NOT_REACHED
    for branch in tree:
        served = journal.view(branch.name)
        start = None
        if branch.parent_id is not None and branch.fork_position is not None:
            found = forks.get(branch.parent_id, {}).get(branch.fork_position)
            if found is not None and found is not _NOT_REACHED:
                start = (branch.fork_position, found)
        folded = _folded_against_snapshots(journal, branch, problems, start, forks[branch.id])
        if folded != served.state:
            problems.append(f"branch {branch.name!r}: the state served at #{branch.head} "
                            "is not the fold of its events")
        glance = journal.store.kept.glance(served.branch, glances.VERSION)
        if glance is not None and glance != glances.of(folded).dumps():
            problems.append(f"branch {branch.name!r}: the status kept at "
                            f"#{served.branch.head} disagrees with its events")
    return problems


def _folded_against_snapshots(
journal: Reading, branch: Branch, problems: list[str], start: tuple[int, State] | None,
    keep: dict[int, State],
) -> State:
    """The branch folded, each event once, as it streams: from its first event, or
    from `start` (the parent's state at the fork); each snapshot it keeps checked on
    the way (`problems` says which disagree), and the state at each position of `keep`
    kept there (its children's forks)."""
    from journal.core import snapshots
    from journal.core.state import project
    from journal.core.stepwise import Stepwise, TooDeep
    from journal.core.timeline import PROJECTION_VERSION, up_to

    kept = dict(journal.store.kept.snapshots_of(branch, PROJECTION_VERSION))
    at, state = start if start is not None else (0, None)
    steps = Stepwise(state, at)

    def check(position: int) -> None:
        if position in keep:
            keep[position] = steps.state
        if position not in kept:
            return
        try:
            cached = snapshots.decode(kept[position])
        except ValueError:
            cached = None
        if cached != steps.state:
            problems.append(f"branch {branch.name!r}: the snapshot at #{position} "
                            "disagrees with its events")

    if at:
        check(at)
    for recorded in journal.store.log.events(branch, after=at):
        try:
            steps.add(recorded)
        except TooDeep:  # an undo past the steps kept: that stretch folded afresh
            here = recorded.position
            steps.restart(project(up_to(here, journal.store.log.events(branch))), here)
        check(recorded.position)
    return steps.state


def audit(
journal: Reading, branch: str | None = None, every: bool = False, expect: str | None = None,
) -> AuditReport:
    """Audit the branch (with its ancestry up to each fork), or every branch, from the
    rows exactly as stored; against the seal beside the journal, and `expect` (a head
    hash the players kept); and the status and snapshots kept against a fresh fold."""

    from journal import audit
    from journal.core.timeline import PROJECTION_VERSION

    campaign = journal.campaign()
    chosen = None if every else journal.store.tree.branch(campaign, branch).name
    kept = journal.store.tree.branches(campaign)
    tree = [audit.BranchRows.of(b) for b in kept]
    checked = [b for b in kept if chosen in (None, b.name)]
    snapshots = {b.name: journal.store.kept.snapshots_of(b, PROJECTION_VERSION) for b in checked}
    keep = {name: {at for at, _ in found} for name, found in snapshots.items()}
    for b in checked:
        keep[b.name].add(b.head)
    names = [c.name for c in journal.store.tree.campaigns()]
    marks = {b.name: tuple((m.name, m.position) for m in journal.store.tree.own_checkpoints(b))
             for b in kept}
    report = audit.audit(campaign.name, campaign.game, tree, _Rows(journal.store.log), chosen,
                         sealed=journal.store.seal(), expect=expect, keep=keep,
                         campaigns=names, marks=marks)
    if report.of_kind("integrity"):
        return report  # past an edit, a cache would be judged against the damage
    cached = [finding for b in checked
              for finding in _cached(journal, b, snapshots[b.name], report.states)]
    return dataclasses.replace(report, findings=report.findings + tuple(cached))


def _cached(
journal: Reading, branch: Branch, kept: list[tuple[int, str]],
    folded: Mapping[tuple[str, int], State],
) -> list[audit_.Finding]:
    """The status (glance) and snapshots kept for a branch, each against the state the
    audit folded there: a cache edited outside spire would show what never happened."""
    from journal.audit import Finding
    from journal.core import snapshots

    def fresh(at: int) -> State:
        found = folded.get((branch.name, at))
        if found is None:  # not folded by the audit (it stopped short): folded here
            from journal.core.state import project

            return project(r for r in journal.store.log.read(branch) if r.position <= at)
        return found

    found = []
    glance = journal.store.kept.glance(branch, glances.VERSION)
    if glance is not None and glance != glances.of(fresh(branch.head)).dumps():
        found.append(Finding("integrity", branch.name, branch.head,
                             "the status kept here disagrees with a fresh fold of the "
                             "events: edited outside spire"))
    for at, text in kept:
        try:
            cached = snapshots.decode(text)
        except (ValueError, KeyError, TypeError):
            cached = None
        if cached != fresh(at):
            found.append(Finding("integrity", branch.name, at, "the snapshot kept here "
                                 "disagrees with a fresh fold of the events: edited "
                                 "outside spire"))
    return found


class _Rows:
    """The audit's reader: a branch's own rows exactly as the store holds them."""

    def __init__(self, log: Log) -> None:
        self.log = log

    def rows(self, branch: audit_.BranchRows) -> Iterator[audit_.Row]:
        from journal.audit import Row

        # no frame a row: the audit reads every one
        return starmap(Row, self.log.own_rows(branch.id))

    def row_at(self, branch: audit_.BranchRows, position: int) -> audit_.Row | None:
        from journal.audit import Row

        found = self.log.own_row_at(branch.id, position)
        return Row(*found) if found is not None else None

    def undos(self, branch: audit_.BranchRows) -> list[audit_.Row]:
        from journal.audit import Row

        return [Row(*row) for row in self.log.own_retraction_rows(branch.id)]
