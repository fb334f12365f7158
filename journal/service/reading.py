"""The journal read: one journal database seen through a campaign, its branches' views,
statuses, events and checkpoints, and (journal.service.replays) their replays.
A `Journal` (journal.service.journal), which writes, holds one of its database as its `read`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Self

from journal.errors import BadInput, NotFound
from journal.service import glance as glances
from journal.service.loading import States
from journal.service.replays import Replays
from journal.service.views import BranchInfo, Checkpoint, Status, View
from journal.store import Branch, Campaign, Store, url_for
from journal.store.schema import NAME_LONGEST

if TYPE_CHECKING:
    # The rules (and with them pydantic) load when a command first folds or decides, not
    # on import: `spire status` in a new process shows the glance kept at the head without.
    from journal.audit import Report as AuditReport
    from journal.core import events as ev

def utc_now() -> datetime:
    return datetime.now(UTC)


class Reading:
    """One journal database, seen through the current (or a named) campaign, read."""

    def __init__(
        self, db: str, campaign: str | None = None, now: Callable[[], datetime] = utc_now,
    ) -> None:
        self.store = Store(url_for(db), lazily=True)
        self.campaign_name = campaign
        self.now = now
        self.states = States(self.store, now)
        self._current: str | None = None
        """The current campaign of whoever reads (journal.store.kept: the database role's,
        the machine's user's), once looked up (when none is asked for)."""
        self._undone: dict[int, tuple[int, frozenset[int]]] = {}
        """Each branch's undone positions, by the head they were read up to."""
        self._games: dict[str, str] = {}
        """Each campaign's game, once looked up: it never changes."""
        self.replays = Replays(self)
        """The branches' events replayed: rebuilt, streamed, stepped through, compared."""

    def through(self, campaign: str) -> Self:
        """The same journal (its store shared) seen through another campaign."""
        other = copy.copy(self)
        other.campaign_name = campaign
        other.states, other._undone = States(self.store, self.now), {}
        other.replays = Replays(other)
        return other

    # -- campaigns ------------------------------------------------------------------------

    def campaigns(self) -> list[tuple[Campaign, Branch, bool]]:
        current, tree = self._current_name(), self.store.tree
        return [(c, tree.branch(c), c.name == current) for c in tree.campaigns()]

    def _current_name(self) -> str | None:
        """The campaign asked for, or the current one of whoever reads: looked up once, so
        a journal kept open (the play shell) stays inside the campaign it began in."""
        if self.campaign_name:
            return self.campaign_name
        if self._current is None:
            chosen = self.store.kept.current_campaign()
            campaigns = self.store.tree.campaigns()
            self._games.update((c.name, c.game) for c in campaigns)  # `game` asks no more
            names = [c.name for c in campaigns]
            if chosen in names:
                self._current = chosen
            elif len(names) == 1:
                self._current = names[0]
        return self._current

    def campaign(self) -> Campaign:
        return self.store.tree.campaign(self._named())

    def at(self, branch: str | None = None) -> tuple[Campaign, Branch]:
        """The current campaign and one of its branches (its current one unless named),
        read together."""
        return self.store.tree.campaign_at(self._named(), branch)

    def _named(self) -> str:
        name = self._current_name()
        if name is None:
            raise NotFound(
                "no current campaign: `spire new NAME --game GAME` starts one, "
                "`spire use NAME` picks one")
        return name

    def game(self) -> str:
        """The current campaign's game, looked up once (a campaign never changes game): a
        command that asks which game it plays before it acts reads the campaign once."""
        name = self._current_name()
        found = self._games.get(name) if name is not None else None
        if found is None:
            campaign = self.campaign()
            found = self._games[campaign.name] = campaign.game
        return found

    # -- a branch, at its head --------------------------------------------------------------

    def view(self, branch: str | None = None) -> View:
        with self.store.look():  # what finds the current campaign, if not known yet, too
            campaign, current = self.at(branch)
        from journal.core.events import learn_game

        learn_game(campaign.game)  # its events known by their tags before reading
        state, log = self.states.of(current), self.store.log
        return View(campaign, current, state, lambda: log.read(current),
                    backwards=lambda: log.backwards(current),
                    undone=lambda position: log.undone_before(current, position))

    def status(self, branch: str | None = None) -> Status:
        """The branch at its head, as status shows it: from the glance kept there, without
        loading the rules, or (when none is, or an older spire kept it) from its state,
        and then kept."""
        with self.store.look():  # the campaign, its branch, the glance, its marks: together
            campaign, current = self.at(branch)
            seen = _glance(self.store.kept.glance(current, glances.VERSION))
            marks = self._marks(current) if seen is not None else None
        if seen is None or marks is None:  # (the one when the other: both, for the types)
            view = self.view(current.name)  # its branch as read with the state folded
            current, seen = view.branch, glances.of(view.state)
            self.store.kept.save_glance(current, glances.VERSION, seen.dumps())
            marks = self._marks(current)
        return Status(campaign, current, seen, marks)

    def event(self, position: int) -> tuple[View, ev.Recorded]:
        view = self.view()
        return view, self.store.log.event_at(view.branch, position)

    def branches(self, cards: bool = True) -> list[BranchInfo]:
        """The campaign's branches, each with its parent's name and whether it is current;
        with `cards`, the card each stands at (its state loaded: a fold from its latest
        snapshot, or of the whole branch when it has none), else no card and no state
        (what the map, the report and completion need)."""
        campaign = self.campaign()
        rows = self.store.tree.branches(campaign)
        names = {b.id: b.name for b in rows}
        return [
            BranchInfo(b, names.get(b.parent_id) if b.parent_id else None,
                       self.view(b.name).state.card if cards else None,
                       b.name == campaign.current_branch)
            for b in rows
        ]

    # -- checkpoints and undos --------------------------------------------------------------

    def checkpoints(self, view: View, cards: bool = True) -> list[Checkpoint]:
        """The checkpoints a branch sees (its own and its ancestors' up to each fork), with
        the card each marks (when asked: it takes a replay); one whose event was undone no
        longer counts."""
        marks = self._marks(view.branch)
        if not cards:
            return marks
        at_card = _cards_at(view.history, {c.position for c in marks})
        return [Checkpoint(c.name, c.position, at_card.get(c.position), c.created_at)
                for c in marks]

    def marks(self, branch: Branch) -> list[Checkpoint]:
        """The checkpoints a branch sees, without their cards: no event is read."""
        return self._marks(branch)

    def _marks(self, branch: Branch) -> list[Checkpoint]:
        """The branch's checkpoints without their cards: no event is read for them."""
        marks = [m for m in self.store.tree.checkpoints(branch) if m[1] <= branch.head]
        gone = self.store.log.undone_among(branch, {at for _, at, _ in marks})
        return [Checkpoint(n, at, None, stamp) for n, at, stamp in marks if at not in gone]

    def retracted(self, branch: Branch) -> frozenset[int]:
        """The positions the branch's undos took back; a journal kept open (the play
        shell) reads only the undos since it last looked."""
        known = self._undone.get(branch.id)
        if known is None or known[0] > branch.head:
            known = (0, frozenset())
        head, gone = known
        if head < branch.head:
            gone = gone | {p for _, undone in self.store.log.retractions(branch, after=head)
                           for p in undone}
        self._undone[branch.id] = (branch.head, gone)
        return gone

    def position(self, view: View, mark: str | None, default: int) -> int:
        """A position given as a number or a checkpoint's name."""
        if mark is None:
            return default
        if mark.isdigit():
            at = int(mark)
            if not 1 <= at <= view.branch.head:
                raise BadInput(f"position {at} is not on branch {view.branch.name!r} "
                               f"(1 to {view.branch.head})")
            return at
        for found in self.checkpoints(view):
            if found.name == mark:
                return found.position
        raise NotFound(f"{mark!r} is neither a position nor a checkpoint of this branch")

    # -- the events, checked (replayed: journal.service.replays) -----------------------------------

    def history(self, branch: str | None = None) -> list[ev.Recorded]:
        return self.view(branch).history

    def verify(self) -> list[str]:
        """Fold every branch from scratch and compare with what the journal serves."""
        from journal.audit import proof

        return proof.verify(self)

    def audit(
        self, branch: str | None = None, every: bool = False, expect: str | None = None,
    ) -> AuditReport:
        """Audit the branch (with its ancestry), or every branch: see journal.audit.proof."""
        from journal.audit import proof
        from journal.service import collector

        with collector.paused():  # a state an event, as a replay: see journal.service.collector
            return proof.audit(self, branch, every, expect)


def _glance(text: str | None) -> glances.Glance | None:
    """A kept glance, or None when there is none or it does not read (a cache: the journal
    works it out again)."""
    if text is None:
        return None
    try:
        return glances.Glance.loads(text)
    except (ValueError, KeyError, TypeError):
        return None


def _cards_at(history: list[ev.Recorded], positions: set[int]) -> dict[int, int | None]:
    """The current card at each of `positions` (one fold, stopping at the last)."""
    from journal.core.timeline import replay

    wanted = max(positions, default=0)
    return {step.recorded.position: step.after.card
            for step in replay(history, stop=wanted) if step.recorded.position in positions}


def label(name: str, what: str) -> str:
    """A campaign's, branch's or checkpoint's name as given, its spaces collapsed; `what`
    names which in the refusal of an empty one, or one longer than `NAME_LONGEST`."""
    name = " ".join(name.split())
    if not name:
        raise BadInput(f"the {what} needs a name")
    if len(name) > NAME_LONGEST:
        raise BadInput(f"a {what} name of {len(name)} characters is too long (at most "
                       f"{NAME_LONGEST})")
    return name
