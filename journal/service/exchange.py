"""A campaign taken out of the journal and brought into one: the branches and checkpoints
an export writes (journal.service.transfer writes them as JSON Lines), and an import's checked
events written as a new campaign, with what status needs kept as a write keeps it."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Protocol

from journal.core.chain import Mark, RawEvent, Section
from journal.errors import BadInput
from journal.service import glance as glances
from journal.service.loading import Folding
from journal.service.reading import label
from journal.store import Branch

if TYPE_CHECKING:
    from datetime import datetime

    from journal.service.reading import Reading
    from journal.store import Campaign, Store


class Importing(Protocol):
    """What an import asks of the journal it writes to (`journal.service.journal.Journal`)."""

    store: Store
    now: Callable[[], datetime]

    def use(self, name: str) -> Campaign: ...


Exported = list[tuple[Section | None, Iterator[RawEvent], list[Mark]]]
"""Each branch written out: its section (None for the first), its events, its checkpoints."""


def export(journal: Reading, branch: str | None = None) -> Exported:
    """Every branch of the campaign, parents first: the first whole, each other as its
    section, its own events and its own checkpoints. With `branch`, that branch's path
    alone, as the first, with every checkpoint it sees. The events are read as they
    are written out, a chunk at a time."""
    campaign, store = journal.campaign(), journal.store
    if branch is not None:
        path = store.tree.branch(campaign, branch)
        marks = [Mark(*c) for c in store.tree.checkpoints(path)]
        return [(None, store.log.raw(path), marks)]
    tree = store.tree.branches(campaign)
    names = {b.id: b.name for b in tree}
    exported: Exported = []
    for b in tree:
        own, marks = store.log.raw(b, own=b.parent_id is not None), \
            store.tree.own_checkpoints(b)
        if b.parent_id is None or b.fork_position is None:
            exported.insert(0, (None, own, marks))
            continue
        first = next(own, None)  # the hash it continues: the parent's at the fork
        fork_hash = first.prev_hash if first is not None else b.head_hash
        own = itertools.chain([first] if first is not None else [], own)
        exported.append(
            (Section(b.name, names[b.parent_id], b.fork_position, fork_hash), own, marks))
    return exported


def import_(journal: Importing, name: str, raw: Iterable[RawEvent | Section | Mark]) -> Branch:
    """A new campaign from checked events (transfer.parse), written in one transaction:
    a fault found on any line writes nothing. Made current; its `main` branch is returned
    (not folded: the first command that needs its state will)."""
    from journal.core import events as ev

    name = label(name, "campaign")
    stream = iter(raw)
    first = next(stream, None)
    if not isinstance(first, RawEvent):
        raise BadInput("the file holds no events")
    started = ev.parse_payload(first.type, first.v, first.payload)
    if not isinstance(started, ev.CampaignStarted):
        raise BadInput(f"line 1: the first event must be campaign-started, not {first.type}")
    try:  # a campaign of a game this spire does not know could never be used
        ev.learn_game(started.game)
    except BadInput as e:
        raise BadInput(f"line 1: {e}") from None
    folding, store = Folding(), journal.store
    store.tree.create_campaign(
        name, started.game, (), journal.now(),
        recorded=folding.through(itertools.chain([first], stream)))
    store.compact()
    branch = store.tree.branch(journal.use(name))
    if folding.head == (branch.head, branch.head_hash):
        _keep(journal, branch, folding)
    return branch


def _keep(journal: Importing, branch: Branch, folding: Folding) -> None:
    """What status needs, kept as a write keeps it: the first command after a big import
    answers at once instead of folding the whole campaign."""
    from journal import PROJECTION_VERSION
    from journal.core import snapshots

    kept = journal.store.kept
    kept.save_glance(branch, glances.VERSION, glances.of(folding.state).dumps())
    for at, state in folding.kept():
        kept.save_snapshot(branch, at, PROJECTION_VERSION, snapshots.encode(state),
                           journal.now())
