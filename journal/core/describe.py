"""Each event as the sentence a player would say at the table."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from journal.core import events as ev
from journal.core.words import counted


def describe(event: Any) -> str:
    """One line for `event`, e.g. "Revealed card 26"."""
    kind = type(event)
    say = SAYINGS.get(kind) or ev.of_game(kind, "describe").get(kind) or _tag
    return say(event)


def _tag(event: Any) -> str:
    return str(getattr(event, "type", event))


def card_ranges(cards: Iterable[int]) -> str:
    """Card numbers as compact ranges: 11-14, 17."""
    runs: list[list[int]] = []
    for card in sorted(cards):
        if runs and card == runs[-1][-1] + 1:
            runs[-1].append(card)
        else:
            runs.append([card])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


Saying = Callable[[Any], str]
SAYINGS: ev.ByEvent[Saying] = ev.ByEvent()
"""The sentence for each of the core's events; each game keeps its own in its describe
module, and `describe` finds them there (`ev.of_game`)."""


@SAYINGS.register
def _(e: ev.CampaignStarted) -> str:
    from journal.games import game

    players = "1 player" if e.players == 1 else f"{e.players} players"
    pulled = f"; pulled cards {card_ranges(e.pulled)}" if e.pulled else ""
    return f"Began a {game(e.game).title} campaign for {players}{pulled}"


@SAYINGS.register
def _(e: ev.CardRevealed) -> str:
    which = " (the 2 Player Supplemental Card)" if e.supplemental else ""
    if not e.removed:
        return f"Revealed card {e.card}{which}"
    cards = "card" if len(e.removed) == 1 else "cards"
    return f"Revealed card {e.card}{which}; {cards} {card_ranges(e.removed)} left the game"


@SAYINGS.register
def _(e: ev.CardPulled) -> str:
    which = " (the 2 Player Supplemental Card)" if e.supplemental else ""
    return f"Pulled card {e.card}{which}"


@SAYINGS.register
def _(e: ev.PulledCardReturned) -> str:
    return "Returned from the pulled card" if e.card is None else f"Returned to card {e.card}"


@SAYINGS.register
def _(e: ev.CardDiscarded) -> str:
    where = "removed from the game" if e.removed_from_game else "to the discard pile"
    return f"Discarded card {e.card} ({where})"


@SAYINGS.register
def _(e: ev.CardRetrieved) -> str:
    return f"Retrieved card {e.card}"


@SAYINGS.register
def _(e: ev.MilestoneRetrieved) -> str:
    return f"Retrieved milestone {e.milestone}"


@SAYINGS.register
def _(e: ev.MilestoneDiscarded) -> str:
    return f"Discarded milestone {e.milestone}"


@SAYINGS.register
def _(e: ev.EventCardsRetrieved) -> str:
    return f"Retrieved the {e.event} event cards"


@SAYINGS.register
def _(e: ev.ChapterStarted) -> str:
    return f"Chapter {e.chapter} began"


@SAYINGS.register
def _(e: ev.CharacterJoined) -> str:
    c = e.character
    stats = ", ".join(f"{v} {k}" for k, v in (("HP", c.hp), ("AP", c.ap)) if v is not None)
    return f"{c.name} joined" + (f" ({stats})" if stats else "")


@SAYINGS.register
def _(e: ev.ItemGained) -> str:
    if e.holder is None:
        return f"Gained {e.item} ({e.kind} item), set aside"
    return f"{e.holder} gained {e.item} ({e.kind} item)"


@SAYINGS.register
def _(e: ev.ItemLost) -> str:
    return f"Lost {e.item}" + (f" ({e.holder})" if e.holder else "")


@SAYINGS.register
def _(e: ev.ItemPassed) -> str:
    giver, holder = e.giver or "aside", e.holder or "aside"
    return f"Passed {e.item} from {giver} to {holder}"


@SAYINGS.register
def _(e: ev.ResourceGained) -> str:
    return f"+{counted(e.amount, e.resource)}"


@SAYINGS.register
def _(e: ev.ResourceSpent) -> str:
    return f"-{counted(e.amount, e.resource)}" + (f" on {e.on}" if e.on else "")


@SAYINGS.register
def _(e: ev.NoteAdded) -> str:
    return f"Note: {e.text}"


@SAYINGS.register
def _(e: ev.Retracted) -> str:
    return "Undid " + ", ".join(f"#{p}" for p in e.positions)
