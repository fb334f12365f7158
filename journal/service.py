"""The service: load a branch, decide, append. The only layer that joins rules and storage.

A command is a function from the current view to a `Decision`. A decision that breaks a
rule is refused unless forced; a forced one is recorded with the rules it overrode.
An append that loses a race re-reads the branch and decides again, once, under the
write lock.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any
from datetime import datetime, timezone

from journal import decide
from journal import events as ev
from journal.chain import RawEvent
from journal.decide import Decision
from journal.errors import BadInput, Conflict, NotFound
from journal.games import game as game_named
from journal.state import State, evolve, project, retracted_positions
from journal.store import Branch, Campaign, NewEvent, StaleHead, Store, url_for

CURRENT = "current_campaign"


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


@dataclass(frozen=True)
class View:
    """A branch as the players see it: its events and the state they fold into."""

    campaign: Campaign
    branch: Branch
    history: list[ev.Recorded]
    state: State
    written: tuple[ev.Recorded, ...] = field(default=())

    @property
    def retracted(self) -> frozenset[int]:
        return retracted_positions(self.history)


Command = Callable[[View], Decision]


class Journal:
    """One journal database, seen through the current (or a named) campaign."""

    def __init__(
        self, db: str, campaign: str | None = None, now: Callable[[], datetime] = utc_now,
    ) -> None:
        self.store = Store(url_for(db))
        self.campaign_name = campaign
        self.now = now

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

    def new(self, name: str, game: str, players: int, force: bool = False) -> View:
        name = _campaign_name(name)
        rules = game_named(game)
        decision = decide.start_campaign(rules, players)
        override = _overrides(decision, force)
        first = [NewEvent(e, self.now(), override=override) for e in decision.events]
        self.store.create_campaign(name, rules.name, first, self.now())
        self.use(name)
        view = self.view()
        return replace(view, written=tuple(view.history))

    def use(self, name: str) -> Campaign:
        campaign = self.store.campaign(name)
        self.store.set_setting(CURRENT, campaign.name)
        self.campaign_name = campaign.name
        return campaign

    # -- reading --------------------------------------------------------------------------

    def view(self, branch: str | None = None) -> View:
        campaign = self.campaign()
        current = self.store.branch(campaign, branch)
        history = self.store.read(current)
        return View(campaign, current, history, project(history))

    def event(self, position: int) -> tuple[View, ev.Recorded]:
        view = self.view()
        return view, self.store.event_at(view.branch, position)

    def cards(self, game: str) -> dict[str, Any]:
        """The cards the players entered for `game`, by name (the catalog)."""
        return {}

    def checkpoints(self, view: View) -> list[tuple[str, int]]:
        """The branch's checkpoints; one whose event was undone no longer counts."""
        gone = view.retracted
        return [(name, at) for name, at in self.store.checkpoints(view.branch) if at not in gone]

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
        decision = command(view)
        override = _overrides(decision, force)
        new = [NewEvent(e, self.now(), player, override) for e in decision.events]
        written = self.store.append(
            view.branch, view.branch.head, new, checkpoint=_checkpoint_for(decision))
        return _after(view, written)

    # -- export and import ----------------------------------------------------------------

    def export(self, branch: str | None = None) -> list[RawEvent]:
        campaign = self.campaign()
        return self.store.raw(self.store.branch(campaign, branch))

    def import_(self, name: str, raw: list[RawEvent]) -> View:
        name = _campaign_name(name)
        started = ev.parse_payload(raw[0].type, raw[0].v, raw[0].payload)
        assert isinstance(started, ev.CampaignStarted)  # checked by transfer.parse
        self.store.create_campaign(name, started.game, (), self.now(), recorded=raw)
        self.use(name)
        return self.view()


def _campaign_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise BadInput("the campaign needs a name")
    return name


def _overrides(decision: Decision, force: bool) -> str | None:
    if not decision.violations:
        return None
    if not force:
        raise decision.violations[0]
    return "; ".join(v.citation for v in decision.violations)


def _checkpoint_for(decision: Decision) -> str | None:
    chapters = [e.chapter for e in decision.events if isinstance(e, ev.ChapterStarted)]
    return f"chapter-{chapters[-1]}" if chapters else None


def _after(view: View, written: Iterable[ev.Recorded]) -> View:
    """The view after `written`, evolved from the view before (no refold), except an undo,
    which refolds without the retracted events."""
    written = tuple(written)
    history = view.history + list(written)
    branch = Branch(
        view.branch.id, view.branch.campaign_id, view.branch.name, view.branch.parent_id,
        view.branch.fork_position, written[-1].position, written[-1].hash)
    if any(isinstance(r.event, ev.Retracted) for r in written):
        state = project(history)
    else:
        state = view.state
        for recorded in written:
            state = evolve(state, recorded)
    return View(view.campaign, branch, history, state, written)
