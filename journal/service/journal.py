"""The service: load a branch, decide, append. The only layer that joins rules and storage.

A command is a function from the current view to a `Decision`. A decision that breaks a
rule is refused unless forced; a forced one is recorded with the rules it overrode.
An append that loses a race re-reads the branch and decides again, once, under the
write lock. What a command reads comes from journal.service.reading; export and import are
journal.service.exchange's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from journal.core.chain import Mark, RawEvent, Section
from journal.errors import BadInput, Conflict, NotFound, Refused, RuleViolation, closest
from journal.games import game as game_named
from journal.service import glance as glances
from journal.service.reading import Reading, label, utc_now
from journal.service.views import BranchInfo, Checkpoint, Command, Status, View, of_game, view_after
from journal.store import Branch, Campaign, NewEvent, StaleHead, StoredCard

__all__ = ["BranchInfo", "Checkpoint", "Command", "Journal", "Status", "View", "of_game"]

if TYPE_CHECKING:
    from datetime import datetime

    from journal.core import events as ev
    from journal.core.decide import Decision
    from journal.core.state import State


    Recorder: TypeAlias = "int | Callable[[State], int | None] | None"
    """Whose a write is: a player's number, none, or how to tell it from the state."""


class Journal:
    """One journal database, seen through the current (or a named) campaign: read (its
    `read`, a `Reading`), decided on and written to."""

    def __init__(
        self, db: str, campaign: str | None = None, now: Callable[[], datetime] = utc_now,
    ) -> None:
        self.read = Reading(db, campaign, now)
        """The journal read: its campaigns, views, statuses, checkpoints and replays."""
        self.store, self.now = self.read.store, now

    # -- campaigns ------------------------------------------------------------------------

    def new(
        self, name: str, game: str, players: int, force: bool = False, quick_start: bool = False,
        carried: str | None = None,
    ) -> View:
        """A new campaign, made current; `carried`: the text of the file an episode's end
        wrote, so it begins where that episode ended (in a game of episodes)."""
        from journal.games.packages import package_of

        name = label(name, "campaign")
        rules = game_named(game)
        decision = package_of(game).rules_module().start(rules, players, quick_start, carried)
        override = _overrides(decision, force)
        first = [NewEvent(e, self.now(), override=override) for e in decision.events]
        self.store.tree.create_campaign(name, rules.name, first, self.now())
        self.use(name)
        view = self.read.view()
        return view.with_written(tuple(view.history))

    def use(self, name: str) -> Campaign:
        """Make `name` the current campaign of whoever writes (the database role, the
        machine's user), and of nobody else."""
        campaign = self.store.tree.campaign(name)
        self.store.kept.choose(campaign.name)
        self.read.campaign_name = campaign.name
        return campaign

    # -- the card catalog (journal-wide; an encounter's event keeps its own copy) ----------

    def cards(self, game: str) -> dict[str, Any]:
        """The cards the players entered for `game`, by name, as the game's card models."""
        read = _card_reader(game)
        return {c.name: read(c.name, c.data) for c in self.store.kept.cards(game)}

    def add_card(self, game: str, card: Any, force: bool = False) -> Entered:
        """Enter `card` in `game`'s catalog, unless it breaks a rule `force` does not mend."""
        override = _card_override(game, card, force)
        data = card.model_dump(mode="json", exclude={"name"})
        replaced = self.store.kept.put_card(StoredCard(
            game, card.name, card.kind, card.number, data, self.now().isoformat()))
        return Entered(replaced, override)

    def met_cards(self, game: str) -> dict[str, Any]:
        """The entered cards of `game` the current campaign has met on its current branch:
        its number was revealed, pulled or retrieved there, or a target or face-off there
        used a card of its name. An undone event meets nothing; with no current campaign,
        no card is met."""
        entered = self.cards(game)
        if self.read._current_name() is None:
            return {}
        view = self.read.view()
        if view.state.game != game:
            raise Refused(f"the card catalog is {game}'s; {view.campaign.name!r} plays "
                          f"{view.state.game}")
        used = _cards_used(view)
        return {name: card for name, card in entered.items()
                if card.number in view.state.seen or name.casefold() in used}

    # -- writing --------------------------------------------------------------------------

    def execute(self, command: Command, force: bool = False, player: Recorder = None) -> View:
        """Decide `command` on the current branch and append its events, recorded as
        `player`'s (a number, or how to tell it from the state the command is decided on:
        Volume 2 records the player whose ally acts)."""
        view = self.read.view()  # (which may keep a snapshot of the state it folded: a write)
        try:
            with self.store.look():  # what the decision reads (an undo's events), together
                decided = self._decided(view, command, force, player)
            return self._append(view, *decided)
        except StaleHead:
            # Lost the race: re-read and decide again holding the write lock, so a busy
            # journal cannot overtake the retry and lose the command.
            try:
                with self.store.locked():
                    view = self.read.view()
                    return self._append(view, *self._decided(view, command, force, player))
            except StaleHead as e:
                raise Conflict(f"{e}; twice in a row, so nothing was written") from None

    def _decided(self, view: View, command: Command, force: bool, player: Recorder,
                 ) -> tuple[Decision, list[NewEvent], State]:
        """The command's decision, its events as they will be written, and the state they
        follow (an undo's: without the events it takes back), read before the write."""
        from journal.core import events as ev

        decision = command(view)
        override = _overrides(decision, force)
        whose = _whose(decision, view.state, player)
        new = [NewEvent(e, self.now(), who, override)
               for e, who in zip(decision.events, whose, strict=True)]
        taken = frozenset(p for e in decision.events if isinstance(e, ev.Retracted)
                          for p in e.positions)
        base = self.read.states.without(view.branch, taken) if taken else view.state
        return decision, new, base

    def _append(self, view: View, decision: Decision, new: list[NewEvent], base: State,
                ) -> View:
        views: list[View] = []

        def glance(written: list[ev.Recorded]) -> tuple[str, str]:
            """The glance at the new head, kept in the transaction that writes the events."""
            views.append(view_after(view, base, written))
            return glances.VERSION, glances.of(views[-1].state).dumps()

        self.store.writer.append(view.branch, view.branch.head, new,
                                 checkpoint=_checkpoint_for(decision), glance=glance)
        after = views[-1]
        self.read.states.remember(after.branch, after.state,
                             before=base if len(after.written) == 1 else None)
        self.read.states.keep_snapshot(after.branch, after.state)
        return after

    # -- time travel ----------------------------------------------------------------------

    def checkpoint(self, name: str) -> Checkpoint:
        """Mark the current position of the current branch as `name`."""
        name = label(name, "checkpoint")
        view = self.read.view()
        if any(c.name == name for c in self.read.checkpoints(view)):
            raise BadInput(f"checkpoint {name!r} exists already; choose another name")
        self.store.tree.add_checkpoint(view.branch, name, view.branch.head, self.now())
        return next(c for c in self.read.checkpoints(self.read.view()) if c.name == name)

    def rewind(self, name: str, as_branch: str | None = None) -> View:
        """A new branch forked at checkpoint `name`, or at an event's position (`25` or
        `#25`), made current; nothing is deleted."""
        view = self.read.view()
        at = self._moment(view, name)
        tag = name if not _is_position(name) else str(at)
        branch_name = label(as_branch, "branch") if as_branch else self._free_name(view, tag)
        parent = self._owner(view.branch, at)
        fork_hash = view.history[at - 1].hash
        self.store.tree.create_branch(
            view.campaign, branch_name, parent, at, fork_hash, self.now())
        return self.switch(branch_name)

    def _moment(self, view: View, name: str) -> int:
        """The position a checkpoint's name, or a position (`25`, `#25`), stands for."""
        marks = self.read.checkpoints(view, cards=False)
        found = next((c for c in marks if c.name == name), None)
        if found is not None:
            return found.position
        if _is_position(name):
            return self.read.position(view, name.removeprefix("#"), view.branch.head)
        near = closest(name, (c.name for c in marks))
        if near is not None:
            raise NotFound(f"no checkpoint named {name!r} on this branch; did you mean "
                           f"{near!r}? (or give an event's position, 1 to {view.branch.head})")
        known = ", ".join(c.name for c in marks) or "none"
        raise NotFound(f"no checkpoint named {name!r} on this branch", f"its checkpoints: "
                       f"{known}; or give an event's position, 1 to {view.branch.head}")

    def rename_branch(self, old: str, new: str) -> Branch:
        """Give a branch of the current campaign another name; its events, fork and
        checkpoints stay as they are."""
        return self.store.tree.rename_branch(self.read.campaign(), old, label(new, "branch"))

    def _owner(self, branch: Branch, position: int) -> Branch:
        """The branch whose own events hold `position` (a fork point lies in an ancestor)."""
        while branch.parent_id is not None and branch.fork_position is not None \
                and position <= branch.fork_position:
            branch = self.store.tree.branch_by_id(branch.parent_id)
        return branch

    def _free_name(self, view: View, checkpoint: str) -> str:
        from journal.store.schema import NAME_LONGEST

        taken = {b.name for b in self.store.tree.branches(view.campaign)}
        base = f"from-{checkpoint}"
        name, n = base[:NAME_LONGEST], 2
        while name in taken:  # (cut to fit the journal's names, its number kept whole)
            suffix = f"-{n}"
            name, n = base[:NAME_LONGEST - len(suffix)] + suffix, n + 1
        return name

    def switch(self, name: str) -> View:
        campaign = self.read.campaign()
        branch = self.store.tree.branch(campaign, name)
        self.store.tree.set_current_branch(campaign, branch.name)
        return self.read.view()

    # -- export and import (journal.service.exchange) ---------------------------------------------

    def import_(self, name: str, raw: Iterable[RawEvent | Section | Mark]) -> Branch:
        """A new campaign from checked events, made current: see journal.service.exchange."""
        from journal.service import exchange

        return exchange.import_(self, name, raw)


def _whose(decision: Decision, state: State, player: Recorder) -> list[int | None]:
    """The player each of the decision's events is recorded as: `player`, or told from
    the state each event follows (a step spire makes for the next turn's move, such as
    Spire's End's upkeep, is the ally's whose turn it ends; the move, the next ally's)."""
    if not callable(player):
        return [player] * len(decision.events)
    from journal.core import events as ev
    from journal.core.state import handler

    whose = [player(state)]
    for done in decision.events[:-1]:  # each event but the last: the state after it
        if isinstance(done, ev.Retracted):  # (an undo is decided alone; folded, it reads
            whose.append(whose[-1])         # the history: the same player)
            continue
        state = handler(type(done))(done, state)
        whose.append(player(state))
    return whose


ENCOUNTERS_STARTED = (
    "target-started", "face-off-started", "ally-drawn", "fight-began", "ally-joined",
    "encounter-began")
"""The events that carry a copy of the cards an encounter used."""


class Entered(NamedTuple):
    """A card entered in the catalog (`Journal.add_card`)."""

    replaced: bool
    """Whether it replaced a card of the same name."""
    override: str | None
    """The rules `--force` entered it over, cited; None: it broke none."""


def _card_override(game: str, card: Any, force: bool) -> str | None:
    """The rules entering `card` breaks (a story card past the game's count), cited, if
    `force` enters it over them (None if it breaks none); without `force`, the first."""
    from journal.core.decide import Decision, past_the_count
    from journal.games.packages import package_of

    named = package_of(game).catalog().story_cards(card)
    broken = (RuleViolation(v.reason, v.section, "enters it anyway")
              for v in past_the_count(game_named(game), named))
    return _overrides(Decision((), tuple(broken)), force)


def _card_reader(game: str) -> Callable[[str, dict[str, Any]], Any]:
    """The game's reader of a card its catalog stored."""
    from journal.games.packages import package_of

    return package_of(game).catalog().card_from


def _cards_used(view: View) -> set[str]:
    """The names (casefolded) of the cards the branch's encounters used, undone ones aside."""
    gone = view.retracted
    started = [r.event for r in view.history
               if r.type in ENCOUNTERS_STARTED and r.position not in gone]
    cards = [c for e in started for c in (
        getattr(e, "card", None), getattr(e, "meter", None), getattr(e, "enemy", None),
        *getattr(e, "enemies", ()), *getattr(e, "allies", ()))]
    return {c.name.casefold() for c in cards if c is not None}


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
    from journal.core import events as ev

    chapters = [e.chapter for e in decision.events if isinstance(e, ev.ChapterStarted)]
    return f"chapter-{chapters[-1]}" if chapters else None




# -- session files played (`spire play < FILE`) ----------------------------------------

class Played(NamedTuple):
    """The longest beginning of a session file played into a campaign already."""

    through: int
    """The number of its last line played (of the file as it is now)."""
    whole: bool
    """Whether that is every command of the file."""
    what: str
    """When and where it was played ("#12 to #30 on main, 2026-12-07 03:10")."""


def played(journal: Journal, campaign: str, lines: list[str]) -> Played | None:
    """How much of these lines was played into `campaign` as a session file already: the
    whole file, or its first commands (a file that stopped at a refused line and was
    mended, a file that grew by a session), if any were."""
    commands = _commands(lines)
    marks = _session_marks(campaign, [line for _, line in commands])
    kept = journal.store.kept.played(marks)
    for count in range(len(commands), 0, -1):
        what = kept.get(marks[count - 1])
        if what is not None:
            return Played(commands[count - 1][0], count == len(commands), what)
    return None


def keep_played(journal: Journal, campaign: str, lines: list[str], what: str) -> None:
    """Keep that `lines` (a whole file, or the lines of one before where it stopped) were
    played into `campaign`, and `what` of them."""
    commands = [line for _, line in _commands(lines)]
    if commands:
        journal.store.kept.keep_played(_session_marks(campaign, commands)[-1], what)


def _commands(lines: list[str]) -> list[tuple[int, str]]:
    """A session file's commands, each with its line's number: blank lines, comments and
    spaces at either end aside."""
    return [(number, line.strip()) for number, line in enumerate(lines, 1)
            if line.strip() and not line.lstrip().startswith("#")]


def _session_marks(campaign: str, commands: list[str]) -> list[str]:
    """The mark of each beginning of a session file in a campaign, its first command's to
    the whole file's: a digest of the campaign's name and those commands."""
    import hashlib

    digest = hashlib.sha256(campaign.encode("utf-8", "surrogateescape"))
    marks = []
    for command in commands:
        digest.update(("\n" + command).encode("utf-8", "surrogateescape"))
        marks.append(digest.copy().hexdigest()[:32])
    return marks
