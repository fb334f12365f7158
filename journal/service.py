"""The service: load a branch, decide, append. The only layer that joins rules and storage.

A command is a function from the current view to a `Decision`. A decision that breaks a
rule is refused unless forced; a forced one is recorded with the rules it overrode.
An append that loses a race re-reads the branch and decides again, once, under the
write lock.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any

from journal import glance as glances
from journal.chain import Mark, RawEvent, Section
from journal.errors import BadInput, Conflict, NotFound, Refused
from journal.games import game as game_named
from journal.store import Branch, Campaign, NewEvent, StaleHead, Store, StoredCard, url_for

if TYPE_CHECKING:
    # The rules (and with them pydantic) load when a command first folds or decides, not
    # on import: `spire status` in a new process shows the glance kept at the head without.
    from journal import events as ev
    from journal.decide import Decision
    from journal.state import State

CURRENT = "current_campaign"


def utc_now() -> datetime:
    return datetime.now(UTC)


class View:
    """A branch as the players see it: the state its events fold into, and the events
    themselves, read only when a command asks for them (a snapshot spares the fold)."""

    def __init__(
        self, campaign: Campaign, branch: Branch, state: State,
        history: list[ev.Recorded] | Callable[[], list[ev.Recorded]],
        written: tuple[ev.Recorded, ...] = (),
        backwards: Callable[[], Iterator[ev.Recorded]] | None = None,
        undone: Callable[[int], bool] | None = None,
    ) -> None:
        self.campaign, self.branch, self.state, self.written = campaign, branch, state, written
        self._history = history
        self._backwards = backwards
        self._undone = undone

    @cached_property
    def history(self) -> list[ev.Recorded]:
        return self._history if isinstance(self._history, list) else self._history()

    def latest_first(self) -> Iterator[ev.Recorded]:
        """The branch's events newest first, read from the journal only as far back as
        they are asked for (an undo looks back a few events, not the whole campaign)."""
        if self._backwards is None or "history" in self.__dict__:
            return reversed(self.history)
        return self._backwards()

    @property
    def retracted(self) -> frozenset[int]:
        from journal.state import retracted_positions

        return retracted_positions(self.history)

    def undone_before(self, position: int) -> bool:
        """Whether an undo of the branch before `position` took anything back (asked of
        the undone positions kept apiece, not of the events)."""
        if self._undone is None or "history" in self.__dict__:
            from journal import events as ev

            return any(isinstance(r.event, ev.Retracted) and r.position < position
                       for r in self.history)
        return self._undone(position)

    def with_written(self, written: tuple[ev.Recorded, ...]) -> View:
        return View(self.campaign, self.branch, self.state, self._history, written,
                    self._backwards, self._undone)


Command = Callable[[View], "Decision"]



def of_game(game: str, command: Command) -> Command:
    """`command`, refused on a campaign of another game: one game's commands (a target, a
    fight) have no meaning under another's rules."""
    def checked(view: View) -> Decision:
        if view.state.game != game:
            raise Refused(f"this command is for {game_named(game).title}; "
                          f"{view.campaign.name!r} plays {view.state.game}")
        return command(view)

    return checked

if TYPE_CHECKING:
    from journal import audit as audit_
    from journal.audit import Report as AuditReport
    from journal.timeline import Diff, Step


@dataclass(frozen=True)
class Checkpoint:
    name: str
    position: int
    card: int | None
    created_at: str


@dataclass(frozen=True)
class Status:
    """What `spire status` shows: the branch's glance at its head, and its checkpoints."""

    campaign: Campaign
    branch: Branch
    glance: glances.Glance
    checkpoints: list[Checkpoint]


@dataclass(frozen=True)
class BranchInfo:
    branch: Branch
    parent: str | None
    card: int | None
    current: bool


def _cards_at(history: list[ev.Recorded], positions: set[int]) -> dict[int, int | None]:
    """The current card at each of `positions` (one fold, stopping at the last)."""
    from journal.timeline import replay

    wanted = max(positions, default=0)
    return {step.recorded.position: step.after.card
            for step in replay(history, stop=wanted) if step.recorded.position in positions}


class Journal:
    """One journal database, seen through the current (or a named) campaign."""

    def __init__(
        self, db: str, campaign: str | None = None, now: Callable[[], datetime] = utc_now,
    ) -> None:
        self.store = Store(url_for(db), lazily=True)
        self.campaign_name = campaign
        self.now = now
        self._known: dict[int, tuple[int, str, State]] = {}
        """The state last served per branch, by (head, head hash): a journal kept open (the
        play shell) folds only what other writers appended since."""
        self._snapshotted: dict[int, int] = {}
        self._undone: dict[int, tuple[int, frozenset[int]]] = {}
        """Each branch's undone positions, by the head they were read up to."""
        """The position of each branch's latest snapshot, once looked up."""

    # -- campaigns ------------------------------------------------------------------------

    def campaigns(self) -> list[tuple[Campaign, Branch, bool]]:
        current = self._current_name()
        return [
            (c, self.store.branch(c), c.name == current) for c in self.store.campaigns()
        ]

    def _current_name(self) -> str | None:
        if self.campaign_name:
            return self.campaign_name
        chosen = self.store.setting(CURRENT)
        names = [c.name for c in self.store.campaigns()]
        if chosen in names:
            return chosen
        return names[0] if len(names) == 1 else None

    def campaign(self) -> Campaign:
        name = self._current_name()
        if name is None:
            raise NotFound(
                "no current campaign: `spire new NAME --game GAME` starts one, "
                "`spire use NAME` picks one")
        return self.store.campaign(name)

    def new(
        self, name: str, game: str, players: int, force: bool = False, quick_start: bool = False,
        carried: str | None = None,
    ) -> View:
        """A new campaign, made current; `carried`: a Volume 2 carry-over file's text, so
        it begins where an episode ended."""
        from journal import decide

        name = _campaign_name(name)
        rules = game_named(game)
        if carried is not None:
            from journal.games.volume2 import world

            decision = world.carried_start(players, world.read_carry_over(carried))
        else:
            decision = decide.start_campaign(rules, players, quick_start)
        override = _overrides(decision, force)
        first = [NewEvent(e, self.now(), override=override) for e in decision.events]
        self.store.create_campaign(name, rules.name, first, self.now())
        self.use(name)
        view = self.view()
        return view.with_written(tuple(view.history))

    def use(self, name: str) -> Campaign:
        campaign = self.store.campaign(name)
        self.store.set_setting(CURRENT, campaign.name)
        self.campaign_name = campaign.name
        return campaign

    # -- reading --------------------------------------------------------------------------

    def view(self, branch: str | None = None) -> View:
        campaign = self.campaign()
        game_named(campaign.game)  # its events and how they fold, known before reading
        current = self.store.branch(campaign, branch)
        state = self._state(current)
        return View(campaign, current, state, lambda: self.store.read(current),
                    backwards=lambda: self.store.backwards(current),
                    undone=lambda position: self.store.undone_before(current, position))

    def status(self, branch: str | None = None) -> Status:
        """The branch at its head, as status shows it: from the glance kept there, without
        loading the rules, or (when none is, or an older spire kept it) from its state,
        and then kept."""
        campaign = self.campaign()
        current = self.store.branch(campaign, branch)
        seen = _glance(self.store.glance(current, glances.VERSION))
        if seen is None:
            view = self.view(current.name)  # its branch as read with the state folded
            current, seen = view.branch, glances.of(view.state)
            self.store.save_glance(current, glances.VERSION, seen.dumps())
        return Status(campaign, current, seen, self._marks(current))

    def _state(self, branch: Branch) -> State:
        """The branch's state: as last served if the head has not moved (or that plus the
        events appended since), else from the latest snapshot."""
        from journal.state import project, retracted_positions

        known = self._known.get(branch.id)
        if known is not None and known[0] <= branch.head:
            head, digest, state = known
            if head == branch.head and digest == branch.head_hash:
                return state
            tail = self.store.read(branch, after=head)
            if tail and tail[0].prev_hash == digest and \
                    min(retracted_positions(tail), default=head + 1) > head:
                state = project(tail, state)
                self._remember(branch, state)
                return state
        state = self._unknown_state(branch)
        self._remember(branch, state)
        return state

    def _remember(self, branch: Branch, state: State) -> None:
        self._known[branch.id] = (branch.head, branch.head_hash, state)

    def _unknown_state(self, branch: Branch) -> State:
        """The latest snapshot that still holds and the events past it; with none, the
        branch folded as it streams (memory stays flat), a snapshot kept at its head and
        one a little before it (so an undo there starts from the one before)."""
        from journal import snapshots
        from journal.state import fold

        folded = self._from_snapshot(branch)
        if folded is not None:
            return folded
        from journal.timeline import PROJECTION_VERSION

        stream, state = self.store.stream(branch), None
        retractions = self.store.retractions(branch)
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
                self.store.save_snapshot(
                    branch, mark, PROJECTION_VERSION, snapshots.encode(state), self.now())
        return fold(stream, gone, state)  # past the head as counted: nothing, or a gap

    def _from_snapshot(
        self, branch: Branch, taken: frozenset[int] = frozenset(),
    ) -> State | None:
        """The state at the branch's head, with the events at `taken` left out too,
        folded from the latest snapshot before them that no later undo reaches behind;
        None when there is no such snapshot."""
        from journal import snapshots
        from journal.state import fold, retracted_positions
        from journal.timeline import PROJECTION_VERSION

        before = min(taken, default=None)
        while (found := self.store.snapshot(branch, PROJECTION_VERSION, before)) is not None:
            at, text = found
            tail = self.store.read(branch, after=at)
            gone = retracted_positions(tail) | taken
            if min(gone, default=at + 1) <= at:  # an undo reaches behind it: an older one
                before = min(gone)
                continue
            try:
                state = snapshots.decode(text)
            except (ValueError, KeyError, TypeError):  # a cache that does not read:
                return None                             # folded without it
            return fold(((r.position, r.event, r.override) for r in tail), gone, state)
        return None

    def _without(self, branch: Branch, taken: frozenset[int]) -> State:
        """The state at the branch's head as if the events at `taken` had not been
        recorded: what an undo leaves, folded from a snapshot before them."""
        from journal.state import project, retracted_positions

        found = self._from_snapshot(branch, taken)
        if found is not None:
            return found
        history = self.store.read(branch)
        gone = retracted_positions(history) | taken
        return project(r for r in history if r.position not in gone)

    def _keep_snapshot(self, branch: Branch, state: State) -> None:
        """A snapshot every so many events a journal kept open writes (the play shell), so
        an undo, or the next process, folds only the events since."""
        from journal import snapshots
        from journal.timeline import PROJECTION_VERSION

        last = self._snapshotted.get(branch.id)
        if last is None:
            found = self.store.snapshot(branch, PROJECTION_VERSION)
            last = self._snapshotted[branch.id] = found[0] if found else 0
        if branch.head - last >= snapshots.SNAPSHOT_EVERY:
            self.store.save_snapshot(
                branch, branch.head, PROJECTION_VERSION, snapshots.encode(state), self.now())
            self._snapshotted[branch.id] = branch.head

    def event(self, position: int) -> tuple[View, ev.Recorded]:
        view = self.view()
        return view, self.store.event_at(view.branch, position)

    # -- the card catalog (journal-wide; an encounter's event keeps its own copy) ----------

    def cards(self, game: str) -> dict[str, Any]:
        """The cards the players entered for `game`, by name, as the game's card models."""
        read = _card_reader(game)
        return {c.name: read(c.name, c.data) for c in self.store.cards(game)}

    def add_card(self, game: str, card: Any) -> bool:
        """Enter `card` in `game`'s catalog; True if it replaced a card of that name."""
        _card_reader(game)
        data = card.model_dump(mode="json", exclude={"name"})
        stamp = self.now().isoformat()
        return self.store.put_card(
            StoredCard(game, card.name, card.kind, card.number, data, stamp))

    def met_cards(self, game: str) -> dict[str, Any]:
        """The entered cards of `game` the current campaign has met on its current branch:
        its number was revealed, pulled or retrieved there, or a target or face-off there
        used a card of its name. An undone event meets nothing; with no current campaign,
        no card is met."""
        entered = self.cards(game)
        if self._current_name() is None:
            return {}
        view = self.view()
        if view.state.game != game:
            raise Refused(f"the card catalog is {game}'s; {view.campaign.name!r} plays "
                          f"{view.state.game}")
        used = _cards_used(view)
        return {name: card for name, card in entered.items()
                if card.number in view.state.seen or name.casefold() in used}

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

    def _retracted(self, branch: Branch) -> frozenset[int]:
        """The positions the branch's undos took back; a journal kept open (the play
        shell) reads only the undos since it last looked."""
        known = self._undone.get(branch.id)
        if known is None or known[0] > branch.head:
            known = (0, frozenset())
        head, gone = known
        if head < branch.head:
            gone = gone | {p for _, undone in self.store.retractions(branch, after=head)
                           for p in undone}
        self._undone[branch.id] = (branch.head, gone)
        return gone

    def _marks(self, branch: Branch) -> list[Checkpoint]:
        """The branch's checkpoints without their cards: no event is read for them."""
        marks = [m for m in self.store.checkpoints(branch) if m[1] <= branch.head]
        gone = self.store.undone_among(branch, {at for _, at, _ in marks})
        return [Checkpoint(n, at, None, stamp) for n, at, stamp in marks if at not in gone]

    # -- writing --------------------------------------------------------------------------

    def execute(self, command: Command, force: bool = False, player: int | None = None) -> View:
        """Decide `command` on the current branch and append its events."""
        view = self.view()
        try:
            return self._append(view, command, force, player)
        except StaleHead:
            # Lost the race: re-read and decide again holding the write lock, so a busy
            # journal cannot overtake the retry and lose the command.
            try:
                with self.store.locked():
                    return self._append(self.view(), command, force, player)
            except StaleHead as e:
                raise Conflict(f"{e}; twice in a row, so nothing was written") from None

    def _append(self, view: View, command: Command, force: bool, player: int | None) -> View:
        from journal import events as ev

        decision = command(view)
        override = _overrides(decision, force)
        new = [NewEvent(e, self.now(), player, override) for e in decision.events]
        views: list[View] = []
        taken = frozenset(p for e in decision.events if isinstance(e, ev.Retracted)
                          for p in e.positions)
        # An undo: the state without the events it takes back, worked out before the write.
        base = self._without(view.branch, taken) if taken else view.state

        def glance(written: list[ev.Recorded]) -> tuple[str, str]:
            """The glance at the new head, kept in the transaction that writes the events."""
            views.append(_after(view, base, written))
            return glances.VERSION, glances.of(views[-1].state).dumps()

        self.store.append(view.branch, view.branch.head, new,
                          checkpoint=_checkpoint_for(decision), glance=glance)
        after = views[-1]
        self._remember(after.branch, after.state)
        self._keep_snapshot(after.branch, after.state)
        return after

    # -- time travel ----------------------------------------------------------------------

    def checkpoint(self, name: str) -> Checkpoint:
        """Mark the current position of the current branch as `name`."""
        name = _label(name, "checkpoint")
        view = self.view()
        if any(c.name == name for c in self.checkpoints(view)):
            raise BadInput(f"checkpoint {name!r} exists already; choose another name")
        self.store.add_checkpoint(view.branch, name, view.branch.head, self.now())
        return next(c for c in self.checkpoints(self.view()) if c.name == name)

    def rewind(self, name: str, as_branch: str | None = None) -> View:
        """A new branch forked at checkpoint `name`, or at an event's position (`25` or
        `#25`), made current; nothing is deleted."""
        view = self.view()
        at = self._moment(view, name)
        label = name if not _is_position(name) else str(at)
        branch_name = _label(as_branch, "branch") if as_branch else self._free_name(view, label)
        parent = self._owner(view.branch, at)
        fork_hash = view.history[at - 1].hash
        self.store.create_branch(view.campaign, branch_name, parent, at, fork_hash, self.now())
        return self.switch(branch_name)

    def _moment(self, view: View, name: str) -> int:
        """The position a checkpoint's name, or a position (`25`, `#25`), stands for."""
        marks = self.checkpoints(view, cards=False)
        found = next((c for c in marks if c.name == name), None)
        if found is not None:
            return found.position
        if _is_position(name):
            return self.position(view, name.removeprefix("#"), view.branch.head)
        known = ", ".join(c.name for c in marks) or "none"
        raise NotFound(f"no checkpoint named {name!r} on this branch (checkpoints: {known}; "
                       f"or give an event's position, 1 to {view.branch.head})")

    def rename_branch(self, old: str, new: str) -> Branch:
        """Give a branch of the current campaign another name; its events, fork and
        checkpoints stay as they are."""
        return self.store.rename_branch(self.campaign(), old, _label(new, "branch"))

    def _owner(self, branch: Branch, position: int) -> Branch:
        """The branch whose own events hold `position` (a fork point lies in an ancestor)."""
        while branch.parent_id is not None and branch.fork_position is not None \
                and position <= branch.fork_position:
            branch = self.store.branch_by_id(branch.parent_id)
        return branch

    def _free_name(self, view: View, checkpoint: str) -> str:
        taken = {b.name for b in self.store.branches(view.campaign)}
        base = f"from-{checkpoint}"
        name, n = base, 2
        while name in taken:
            name, n = f"{base}-{n}", n + 1
        return name

    def switch(self, name: str) -> View:
        campaign = self.campaign()
        branch = self.store.branch(campaign, name)
        self.store.set_current_branch(campaign, branch.name)
        return self.view()

    def branches(self) -> list[BranchInfo]:
        campaign = self.campaign()
        rows = self.store.branches(campaign)
        names = {b.id: b.name for b in rows}
        return [
            BranchInfo(b, names.get(b.parent_id) if b.parent_id else None,
                       self.view(b.name).state.card, b.name == campaign.current_branch)
            for b in rows
        ]

    def rebuild(self, branch: str | None = None) -> State:
        """The branch's state folded from its first event, streaming: memory stays flat
        however long the campaign."""
        from journal.state import fold

        current = self.store.branch(self.campaign(), branch)
        return fold(self.store.stream(current), self.store.retracted(current))

    def history(self, branch: str | None = None) -> list[ev.Recorded]:
        return self.view(branch).history

    def events(
        self, branch: str | None = None, after: int = 0,
    ) -> tuple[Branch, frozenset[int], Iterator[ev.Recorded]]:
        """The branch, the positions its undos took back (found through the index of undos,
        no other event read), and its events past `after` read a chunk at a time as they
        are asked for: a report of a million events holds a chunk, not all. The state is
        not loaded."""
        current = self.store.branch(self.campaign(), branch)
        return current, self._retracted(current), self.store.events(current, after)

    def marks(self, branch: Branch) -> list[Checkpoint]:
        """The checkpoints a branch sees, without their cards: no event is read."""
        return self._marks(branch)

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

    def replay(self, view: View, first: int, last: int) -> Iterator[Step]:
        """The branch step by step from `first` to `last`, read as it is shown."""
        from journal.timeline import replay

        if first > last:
            raise BadInput(f"--from #{first} comes after --to #{last}")
        branch = view.branch
        return replay(self.store.events(branch), first, last, self._retracted(branch),
                      lambda: self.store.events(branch))

    def diff(self, left: str, right: str) -> Diff:
        from journal.timeline import diff

        a, b = self.view(left), self.view(right)
        return diff((a.branch.name, a.history), (b.branch.name, b.history))

    def verify(self) -> list[str]:
        """Fold every branch from scratch, as it streams, and compare with what the
        journal serves: its state, the status kept at its head and each snapshot. A
        branch is folded from its parent's state at the fork (parents come first)."""
        problems: list[str] = []
        tree = self.store.branches(self.campaign())
        forks: dict[int, dict[int, State]] = {b.id: {} for b in tree}
        for b in tree:
            if b.parent_id is not None and b.fork_position is not None:
                forks[b.parent_id][b.fork_position] = _NOT_REACHED
        for branch in tree:
            served = self.view(branch.name)
            start = None
            if branch.parent_id is not None and branch.fork_position is not None:
                found = forks.get(branch.parent_id, {}).get(branch.fork_position)
                if found is not None and found is not _NOT_REACHED:
                    start = (branch.fork_position, found)
            folded = self._folded_against_snapshots(branch, problems, start, forks[branch.id])
            if folded != served.state:
                problems.append(f"branch {branch.name!r}: the state served at #{branch.head} "
                                "is not the fold of its events")
            glance = self.store.glance(served.branch, glances.VERSION)
            if glance is not None and glance != glances.of(folded).dumps():
                problems.append(f"branch {branch.name!r}: the status kept at "
                                f"#{served.branch.head} disagrees with its events")
        return problems

    def _folded_against_snapshots(
        self, branch: Branch, problems: list[str], start: tuple[int, State] | None,
        keep: dict[int, State],
    ) -> State:
        """The branch folded, each event once, as it streams: from its first event, or
        from `start` (the parent's state at the fork); each snapshot it keeps checked on
        the way (`problems` says which disagree), and the state at each position of `keep`
        kept there (its children's forks)."""
        from journal import snapshots
        from journal.state import project
        from journal.stepwise import Stepwise, TooDeep
        from journal.timeline import PROJECTION_VERSION, up_to

        kept = dict(self.store.snapshots_of(branch, PROJECTION_VERSION))
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
        for recorded in self.store.events(branch, after=at):
            try:
                steps.add(recorded)
            except TooDeep:  # an undo past the steps kept: that stretch folded afresh
                here = recorded.position
                steps.restart(project(up_to(here, self.store.events(branch))), here)
            check(recorded.position)
        return steps.state

    def audit(
        self, branch: str | None = None, every: bool = False, expect: str | None = None,
    ) -> AuditReport:
        """Audit the branch (with its ancestry up to each fork), or every branch, from the
        rows exactly as stored; against the seal beside the journal, and `expect` (a head
        hash the players kept); and the status and snapshots kept against a fresh fold."""
        import dataclasses

        from journal import audit
        from journal.timeline import PROJECTION_VERSION

        campaign = self.campaign()
        chosen = None if every else self.store.branch(campaign, branch).name
        kept = self.store.branches(campaign)
        tree = [audit.BranchRows.of(b) for b in kept]
        checked = [b for b in kept if chosen in (None, b.name)]
        snapshots = {b.name: self.store.snapshots_of(b, PROJECTION_VERSION) for b in checked}
        keep = {name: {at for at, _ in found} for name, found in snapshots.items()}
        for b in checked:
            keep[b.name].add(b.head)
        report = audit.audit(campaign.name, campaign.game, tree, _Rows(self.store), chosen,
                             sealed=self.store.seal(), expect=expect, keep=keep)
        if report.of_kind("integrity"):
            return report  # past an edit, a cache would be judged against the damage
        cached = [finding for b in checked
                  for finding in self._cached(b, snapshots[b.name], report.states)]
        return dataclasses.replace(report, findings=report.findings + tuple(cached))

    def _cached(
        self, branch: Branch, kept: list[tuple[int, str]],
        folded: Mapping[tuple[str, int], State],
    ) -> list[audit_.Finding]:
        """The status (glance) and snapshots kept for a branch, each against the state the
        audit folded there: a cache edited outside spire would show what never happened."""
        from journal import snapshots
        from journal.audit import Finding

        def fresh(at: int) -> State:
            found = folded.get((branch.name, at))
            if found is None:  # not folded by the audit (it stopped short): folded here
                from journal.state import project

                return project(r for r in self.store.read(branch) if r.position <= at)
            return found

        found = []
        glance = self.store.glance(branch, glances.VERSION)
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

    # -- export and import ----------------------------------------------------------------

    def export(
        self, branch: str | None = None,
    ) -> list[tuple[Section | None, Iterator[RawEvent], list[Mark]]]:
        """Every branch of the campaign, parents first: the first whole, each other as its
        section, its own events and its own checkpoints. With `branch`, that branch's path
        alone, as the first, with every checkpoint it sees. The events are read as they
        are written out, a chunk at a time."""
        campaign = self.campaign()
        if branch is not None:
            path = self.store.branch(campaign, branch)
            marks = [Mark(*c) for c in self.store.checkpoints(path)]
            return [(None, self.store.raw(path), marks)]
        tree = self.store.branches(campaign)
        names = {b.id: b.name for b in tree}
        exported: list[tuple[Section | None, Iterator[RawEvent], list[Mark]]] = []
        for b in tree:
            own, marks = self.store.raw(b, own=b.parent_id is not None), \
                self.store.own_checkpoints(b)
            if b.parent_id is None or b.fork_position is None:
                exported.insert(0, (None, own, marks))
                continue
            first = next(own, None)  # the hash it continues: the parent's at the fork
            fork_hash = first.prev_hash if first is not None else b.head_hash
            own = itertools.chain([first] if first is not None else [], own)
            exported.append(
                (Section(b.name, names[b.parent_id], b.fork_position, fork_hash), own, marks))
        return exported

    def import_(self, name: str, raw: Iterable[RawEvent | Section | Mark]) -> Branch:
        """A new campaign from checked events (transfer.parse), written in one transaction:
        a fault found on any line writes nothing. Made current; its `main` branch is returned
        (not folded: the first command that needs its state will)."""
        from journal import events as ev

        name = _campaign_name(name)
        stream = iter(raw)
        first = next(stream, None)
        if not isinstance(first, RawEvent):
            raise BadInput("the file holds no events")
        started = ev.parse_payload(first.type, first.v, first.payload)
        if not isinstance(started, ev.CampaignStarted):
            raise BadInput(f"line 1: the first event must be campaign-started, not {first.type}")
        try:  # a campaign of a game this spire does not know could never be used
            game_named(started.game)
        except BadInput as e:
            raise BadInput(f"line 1: {e}") from None
        folding = _Folding()
        self.store.create_campaign(
            name, started.game, (), self.now(),
            recorded=folding.through(itertools.chain([first], stream)))
        self.store.compact()
        campaign = self.use(name)
        branch = self.store.branch(campaign)
        if folding.head == (branch.head, branch.head_hash):
            # What status needs, kept as a write keeps it: the first command after a big
            # import answers at once instead of folding the whole campaign.
            from journal import snapshots
            from journal.timeline import PROJECTION_VERSION

            self.store.save_glance(branch, glances.VERSION, glances.of(folding.state).dumps())
            for at, state in folding.kept():
                self.store.save_snapshot(branch, at, PROJECTION_VERSION,
                                         snapshots.encode(state), self.now())
        return branch


_NOT_REACHED: Any = object()
"""A child's fork whose state its parent's fold has not reached (yet)."""


class _Rows:
    """The audit's reader: a branch's own rows exactly as the store holds them."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def rows(self, branch: audit_.BranchRows) -> Iterator[audit_.Row]:
        from journal.audit import Row

        return (Row(*row) for row in self.store.own_rows(branch.id))

    def row_at(self, branch: audit_.BranchRows, position: int) -> audit_.Row | None:
        from journal.audit import Row

        found = self.store.own_row_at(branch.id, position)
        return Row(*found) if found is not None else None

    def undos(self, branch: audit_.BranchRows) -> list[audit_.Row]:
        from journal.audit import Row

        return [Row(*row) for row in self.store.own_retraction_rows(branch.id)]


class _Folding:
    """The main branch of an import folded as its events pass on their way to the store
    (each payload was parsed once already, to check it: the memo has it); an undo steps
    back (journal.stepwise). One that reaches further back than the steps kept stops it:
    the first command folds that campaign instead."""

    def __init__(self) -> None:
        from journal.stepwise import Stepwise

        self.steps = Stepwise()
        self.head: tuple[int, str] | None = None

    @property
    def state(self) -> State:
        return self.steps.state

    def through(
        self, items: Iterable[RawEvent | Section | Mark],
    ) -> Iterator[RawEvent | Section | Mark]:
        from journal import events as ev
        from journal.stepwise import TooDeep

        items = iter(items)
        parse, add, when = ev.parse_stored, self.steps.add, _IMPORTED
        for item in items:
            if isinstance(item, Section):  # the main branch ends: the rest pass as they are
                yield item
                break
            if isinstance(item, RawEvent):  # the time is the file's; the fold needs none
                event = parse(item.type, item.v, item.payload_json)
                try:
                    add(ev.Recorded(item.position, event, when, item.player, item.override,
                                    item.prev_hash, item.hash))
                except TooDeep:
                    yield item
                    break
                self.head = (item.position, item.hash)
            yield item
        else:
            return
        self.head = None if not isinstance(item, Section) else self.head
        yield from items

    def kept(self) -> list[tuple[int, State]]:
        """The snapshots to keep: at the head, and one settled a little before it, so an
        undo there starts from it."""
        from journal import snapshots

        assert self.head is not None
        found = [(self.head[0], self.state)]
        earlier = self.steps.settled(snapshots.SNAPSHOT_EVERY)
        if earlier is not None:
            found.append(earlier)
        return found


_IMPORTED = datetime(1970, 1, 1, tzinfo=UTC)


def _glance(text: str | None) -> glances.Glance | None:
    """A kept glance, or None when there is none or it does not read (a cache: the journal
    works it out again)."""
    if text is None:
        return None
    try:
        return glances.Glance.loads(text)
    except (ValueError, KeyError, TypeError):
        return None


ENCOUNTERS_STARTED = (
    "target-started", "face-off-started", "ally-drawn", "fight-began", "ally-joined",
    "encounter-began")
"""The events that carry a copy of the cards an encounter used."""


def _card_reader(game: str) -> Callable[[str, dict[str, Any]], Any]:
    """The game's reader of a stored card: Hildegard's and Spire's End's keep catalogs."""
    if game == "spires-end":
        from journal.games.spires_end.cards import card_from as ally_or_enemy

        return ally_or_enemy
    if game == "volume2":
        from journal.games.volume2.cards import card_from as ally_or_foe

        return ally_or_foe
    if game != "hildegard":
        raise BadInput(f"{game} has no card catalog yet")
    from journal.games.hildegard.cards import card_from

    return card_from


def _cards_used(view: View) -> set[str]:
    """The names (casefolded) of the cards the branch's encounters used, undone ones aside."""
    gone = view.retracted
    started = [r.event for r in view.history
               if r.type in ENCOUNTERS_STARTED and r.position not in gone]
    cards = [c for e in started for c in (
        getattr(e, "card", None), getattr(e, "meter", None), getattr(e, "enemy", None),
        *getattr(e, "enemies", ()), *getattr(e, "allies", ()))]
    return {c.name.casefold() for c in cards if c is not None}


def _campaign_name(name: str) -> str:
    return _label(name, "campaign")


def _label(name: str, what: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise BadInput(f"the {what} needs a name")
    return name


def _is_position(name: str) -> bool:
    """`25` or `#25`: an event's position, as the log numbers it."""
    return name.removeprefix("#").isdigit()


def _overrides(decision: Decision, force: bool) -> str | None:
    if not decision.violations:
        return None
    if not force:
        raise decision.violations[0]
    return "; ".join(v.citation for v in decision.violations)


def _checkpoint_for(decision: Decision) -> str | None:
    from journal import events as ev

    chapters = [e.chapter for e in decision.events if isinstance(e, ev.ChapterStarted)]
    return f"chapter-{chapters[-1]}" if chapters else None


def _before_undos(retractions: list[tuple[int, tuple[int, ...]]], mark: int) -> int:
    """The latest position at or before `mark` that no later undo reaches behind: the
    state there, folded without every undone event, is the state the table had there."""
    while True:
        reached = [p for at, undone in retractions if at > mark for p in undone if p <= mark]
        if not reached:
            return mark
        mark = min(reached) - 1


def _after(view: View, state: State, written: Iterable[ev.Recorded]) -> View:
    """The view after `written`, evolved from `state`: the view's own, or after an undo
    the state without the events it takes back (no refold of the branch either way)."""
    from journal.state import evolve

    written = tuple(written)
    branch = Branch(
        view.branch.id, view.branch.campaign_id, view.branch.name, view.branch.parent_id,
        view.branch.fork_position, written[-1].position, written[-1].hash)
    for recorded in written:
        state = evolve(state, recorded)
    backwards = view.latest_first

    def latest_first() -> Iterator[ev.Recorded]:
        return itertools.chain(reversed(written), backwards())

    if "history" in view.__dict__:
        return View(view.campaign, branch, state, view.history + list(written), written,
                    latest_first)
    # Not read yet: read when asked, up to the old head (a branch's events are read up to
    # the head they are read for), then what was written.
    return View(view.campaign, branch, state, lambda: view.history + list(written), written,
                latest_first)
