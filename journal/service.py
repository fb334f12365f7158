"""The service: load a branch, decide, append. The only layer that joins rules and storage.

A command is a function from the current view to a `Decision`. A decision that breaks a
rule is refused unless forced; a forced one is recorded with the rules it overrode.
An append that loses a race re-reads the branch and decides again, once, under the
write lock.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from journal import glance as glances
from journal.chain import Mark, RawEvent, Section
from journal.errors import BadInput, Conflict, NotFound, Refused
from journal.games import game as game_named
from journal.loading import Folding, States
from journal.store import Branch, Campaign, NewEvent, StaleHead, Store, StoredCard, url_for
from journal.views import BranchInfo, Checkpoint, Command, Status, View, of_game, view_after

__all__ = ["BranchInfo", "Checkpoint", "Command", "Journal", "Status", "View", "of_game"]

if TYPE_CHECKING:
    # The rules (and with them pydantic) load when a command first folds or decides, not
    # on import: `spire status` in a new process shows the glance kept at the head without.
    from journal import events as ev
    from journal.decide import Decision
    from journal.state import State

CURRENT = "current_campaign"


def utc_now() -> datetime:
    return datetime.now(UTC)


if TYPE_CHECKING:
    from journal.audit import Report as AuditReport
    from journal.timeline import Diff, Step


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
        self.states = States(self.store, now)
        self._current: str | None = None
        """The journal's current campaign, once looked up (when none is asked for)."""
        self._undone: dict[int, tuple[int, frozenset[int]]] = {}
        """Each branch's undone positions, by the head they were read up to."""

    def through(self, campaign: str) -> Journal:
        """The same journal (its store shared) seen through another campaign."""
        other = copy.copy(self)
        other.campaign_name = campaign
        other.states, other._undone = States(self.store, self.now), {}
        return other

    # -- campaigns ------------------------------------------------------------------------

    def campaigns(self) -> list[tuple[Campaign, Branch, bool]]:
        current = self._current_name()
        return [
            (c, self.store.branch(c), c.name == current) for c in self.store.campaigns()
        ]

    def _current_name(self) -> str | None:
        """The campaign asked for, or the journal's current one: looked up once, so a
        journal kept open (the play shell) stays inside the campaign it began in."""
        if self.campaign_name:
            return self.campaign_name
        if self._current is None:
            chosen = self.store.setting(CURRENT)
            names = [c.name for c in self.store.campaigns()]
            if chosen in names:
                self._current = chosen
            elif len(names) == 1:
                self._current = names[0]
        return self._current

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
        state = self.states.of(current)
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
        base = self.states.without(view.branch, taken) if taken else view.state

        def glance(written: list[ev.Recorded]) -> tuple[str, str]:
            """The glance at the new head, kept in the transaction that writes the events."""
            views.append(view_after(view, base, written))
            return glances.VERSION, glances.of(views[-1].state).dumps()

        self.store.append(view.branch, view.branch.head, new,
                          checkpoint=_checkpoint_for(decision), glance=glance)
        after = views[-1]
        self.states.remember(after.branch, after.state,
                             before=base if len(after.written) == 1 else None)
        self.states.keep_snapshot(after.branch, after.state)
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
    ) -> tuple[Branch, frozenset[int], Iterator[ev.Told]]:
        """The branch, the positions its undos took back (found through the index of undos,
        no other event read), and its events past `after` as a story tells them (no
        hashes), read a chunk at a time as they are asked for: a report of a million
        events holds a chunk, not all. The state is not loaded."""
        current = self.store.branch(self.campaign(), branch)
        return current, self._retracted(current), self.store.told(current, after)

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
        """Fold every branch from scratch and compare with what the journal serves."""
        from journal import proof

        return proof.verify(self)

    def audit(
        self, branch: str | None = None, every: bool = False, expect: str | None = None,
    ) -> AuditReport:
        """Audit the branch (with its ancestry), or every branch: see journal.proof."""
        from journal import proof

        return proof.audit(self, branch, every, expect)

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
        folding = Folding()
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


