"""A branch as a command sees it (`View`), what status and the branch list show of one,
and a command's shape: a function from the view to the decision it makes."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from journal.errors import Refused
from journal.games import game as game_named
from journal.service import glance as glances
from journal.store import Branch, Campaign

if TYPE_CHECKING:
    from journal.core import events as ev
    from journal.core.decide import Decision
    from journal.core.state import State


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
        from journal.core.state import retracted_positions

        return retracted_positions(self.history)

    def undone_before(self, position: int) -> bool:
        """Whether an undo of the branch before `position` took anything back (asked of
        the undone positions kept apiece, not of the events)."""
        if self._undone is None or "history" in self.__dict__:
            from journal.core import events as ev

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


def view_after(view: View, state: State, written: Iterable[ev.Recorded]) -> View:
    """The view after `written`, evolved from `state`: the view's own, or after an undo
    the state without the events it takes back (no refold of the branch either way)."""
    from journal.core.state import evolve

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
