"""Volume 2's events as the table would say them."""

from __future__ import annotations

from journal.core.describe import Saying
from journal.core.events import ByEvent
from journal.core.words import numbered
from journal.games.volume2 import events as v2

SAYINGS: ByEvent[Saying] = ByEvent()
"""The sentence for each of Volume 2's events."""


@SAYINGS.register
def _(e: v2.AllyJoined) -> str:
    return f"{e.card.name} joined the party"


@SAYINGS.register
def _(e: v2.EncounterBegan) -> str:
    allies = ", ".join(a.name for a in e.allies)
    enemies = ", ".join(f"{x.name} ({x.hp} HP, {x.ap} AP)" for x in e.enemies)
    return f"Encounter: {allies} against {enemies}"


@SAYINGS.register
def _(e: v2.ActionDiceRolled) -> str:
    spent = f" for {e.spent} HP" if e.spent else " again"
    return f"{e.ally} rolled {', '.join(e.faces) or 'no dice'}{spent}"


@SAYINGS.register
def _(e: v2.ActionDiceLocked) -> str:
    return f"{e.ally} locked {numbered('die', e.dice)}"


@SAYINGS.register
def _(e: v2.FinesseEnded) -> str:
    return f"{e.ally} let the dice stand"


@SAYINGS.register
def _(e: v2.ActionTaken) -> str:
    return f"{e.ally}: {e.action}" + (f" on {e.target}" if e.target else "")


@SAYINGS.register
def _(e: v2.HiveDeployed) -> str:
    what = "bee" if e.what == "bee" else "pollen"
    plural = "s" if e.what == "bee" and e.count != 1 else ""
    return f"Deployed {e.count} {what}{plural}" + (f" on {e.on}" if e.on else "")


@SAYINGS.register
def _(e: v2.TurnEnded) -> str:
    return f"{e.ally}'s upkeep"


@SAYINGS.register
def _(e: v2.TargetRolled) -> str:
    rolls = ", ".join(f"{a} {r}" for a, r in zip(e.allies, e.rolls, strict=False))
    return f"Target roll{' between the allies in question' if e.between else ''}: {rolls}"


@SAYINGS.register
def _(e: v2.TargetChosen) -> str:
    return f"Spent a bee to target {e.ally}"


@SAYINGS.register
def _(e: v2.EnemyAttacked) -> str:
    return f"{e.enemy} attacked {e.target}, rolled {e.roll}"


@SAYINGS.register
def _(e: v2.AbilityTriggered) -> str:
    return f"{e.enemy}'s {e.ability} triggered"


@SAYINGS.register
def _(e: v2.EncounterClosed) -> str:
    return "Ended the encounter"


@SAYINGS.register
def _(e: v2.TradingCardRevealed) -> str:
    return f"Revealed a Trading Post Card: {e.card.name} for {e.card.price()}"


@SAYINGS.register
def _(e: v2.ItemBought) -> str:
    return f"Bought {e.card.name} for {e.card.price()}" + (f" for {e.holder}" if e.holder else "")


@SAYINGS.register
def _(e: v2.WaterfallLaid) -> str:
    return f"Laid out {e.event}: rows of {', '.join(str(n) for n in e.rows)}"


@SAYINGS.register
def _(e: v2.WaterfallCardChosen) -> str:
    from journal.games.volume2.state import card_name

    return f"Chose {card_name(e.row, e.card)} of the waterfall"


@SAYINGS.register
def _(e: v2.WaterfallCardsRemoved) -> str:
    from journal.games.volume2.state import card_name

    return "Removed " + ", ".join(card_name(e.row, c) for c in e.cards)


@SAYINGS.register
def _(e: v2.WaterfallEnded) -> str:
    return f"The waterfall event ended on card {e.card}"


@SAYINGS.register
def _(e: v2.EpisodeEnded) -> str:
    card = f" on card {e.carried.ended_on}" if e.carried.ended_on else ""
    return f"The episode ended{card}"


@SAYINGS.register
def _(e: v2.DeckCardPulled) -> str:
    return f"Pulled {e.name} from the {e.deck.capitalize()} Deck"


@SAYINGS.register
def _(e: v2.ItemUsed) -> str:
    return f"Used {e.item}"
