"""What the audit asks of each event: the command that records it, so the rules can decide
it again, and the dice each type of event rolled.

The core events' rows are here; each game keeps its own in its recheck.py (`RECHECKS`,
`DIE_KINDS`, journal/games/interface.py), asked for through the registry. The tests fail
while an event type has no row.
"""

from __future__ import annotations

from functools import cache

from journal.core import decide
from journal.core import events as ev
from journal.core.decide import Decision
from journal.core.state import State
from journal.errors import Refused
from journal.games import game as game_named
from journal.games import names
from journal.games.interface import DieKind, Earlier, Redecide
from journal.games.packages import package_of


def _started(state: State, e: ev.CampaignStarted) -> Decision:
    if state.game:
        raise Refused("the campaign has begun already")
    return decide.start_campaign(game_named(e.game), e.players)


def _retrieved(e: ev.Payload) -> str:
    """What `spire retrieve` was given: a card number, a milestone, a set of event cards."""
    if isinstance(e, ev.CardRetrieved):
        return str(e.card)
    if isinstance(e, ev.MilestoneRetrieved):
        return f"M{e.milestone}"
    assert isinstance(e, ev.EventCardsRetrieved)
    return e.event


RECHECKS: dict[str, Redecide] = {
    # The core commands (journal/core/decide.py); a holder of None is "aside".
    "campaign-started": lambda s, e, p, h: _started(s, e),
    "card-revealed": lambda s, e, p, h: decide.reveal(s, e.card),
    "card-pulled": lambda s, e, p, h: decide.pull(s, e.card),
    "pulled-card-returned": lambda s, e, p, h: decide.return_(s),
    "card-discarded": lambda s, e, p, h: decide.discard(s, e.card),
    "card-retrieved": lambda s, e, p, h: decide.retrieve(s, _retrieved(e)),
    "milestone-retrieved": lambda s, e, p, h: decide.retrieve(s, _retrieved(e)),
    "event-cards-retrieved": lambda s, e, p, h: decide.retrieve(s, _retrieved(e)),
    "milestone-discarded": lambda s, e, p, h: decide.discard_milestone(s, e.milestone),
    "chapter-started": lambda s, e, p, h: decide.chapter(s, e.chapter),
    "character-joined": lambda s, e, p, h: decide.ally_joins(
        s, e.character.name, e.character.hp, e.character.ap),
    "item-gained": lambda s, e, p, h: decide.gain_item(
        s, e.item, e.kind, e.holder or "aside", e.wild_die, e.raises),
    "item-lost": lambda s, e, p, h: decide.lose_item(s, e.item, e.holder or "aside"),
    "item-passed": lambda s, e, p, h: decide.pass_item(s, e.item, e.holder or "aside"),
    "resource-gained": lambda s, e, p, h: decide.gain(s, e.resource, e.amount),
    "resource-spent": lambda s, e, p, h: decide.spend(s, e.resource, e.amount, e.on),
    "note-added": lambda s, e, p, h: decide.note(e.text),
    "retracted": lambda s, e, p, h: decide.undo(h()),
}
"""Each core event type (every game's) and the command that records it."""


def rows_of(game: str) -> dict[str, Redecide]:
    """The game's own rows (none for no game yet)."""
    return package_of(game).recheck().RECHECKS if game else {}


def every_row() -> dict[str, Redecide]:
    """The core's rows and every registered game's."""
    found = dict(RECHECKS)
    for game in names():
        found.update(rows_of(game))
    return found


def recheck(state: State, recorded: ev.Recorded, before: Earlier) -> Decision:
    """The decision the rules make now for the command that recorded `recorded`.

    Raises what the command would raise: an error no `--force` mends.
    """
    row = RECHECKS.get(recorded.type) or rows_of(state.game).get(recorded.type)
    if row is None:
        owner = next((g for g in names() if recorded.type in rows_of(g)), None)
        if owner is None:
            raise Refused(f"spire has no rule check for {recorded.type}")
        raise Refused(f"a {owner} event in a campaign of {state.game or 'no game'}")
    try:
        return row(state, recorded.event, recorded.player, before)
    except (IndexError, KeyError, TypeError) as e:
        # A forged event the rules were never meant to see must be reported, not crash.
        raise Refused(f"the rules cannot read this event ({type(e).__name__})") from None


def die_kinds() -> tuple[DieKind, ...]:
    """Every registered game's dice, the games in the registry's order (a game registered
    later is counted from then on)."""
    return _die_kinds(names())


@cache
def _die_kinds(games: tuple[str, ...]) -> tuple[DieKind, ...]:
    return tuple(kind for game in games for kind in package_of(game).recheck().DIE_KINDS)
