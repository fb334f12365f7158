"""Volume 2's rules between fights: trading posts (and, as they land, waterfall events and
the episode's carry-over). Pure functions from the campaign state to the event a command
records, like `rules`; a broken rule cites its rulebook section and `--force` records it.
"""

from __future__ import annotations

from journal.decide import Decision, item_holder
from journal.errors import BadInput, NotFound, RuleViolation
from journal.games.volume2 import GAME
from journal.games.volume2 import events as v2
from journal.games.volume2.cards import TradeCard
from journal.games.volume2.state import volume2
from journal.state import State

TRADING = "Trading Post Cards"
TRADING_POSTS: int = GAME.raw["trading"]["per_playthrough"]

Violations = list[RuleViolation]


def _folded(name: str) -> str:
    return " ".join(name.split()).casefold()


def trading_card(state: State, card: TradeCard) -> Decision:
    """A Trading Post Card revealed. "Only 5 Trading Post Cards may be revealed each
    playthrough" (our reading, PRODUCT.md: per playthrough, that is per branch)."""
    revealed = volume2(state).trading
    violations: Violations = []
    if len(revealed) >= TRADING_POSTS:
        violations.append(RuleViolation(
            f"{len(revealed)} Trading Post Cards have been revealed this playthrough; only "
            f"{TRADING_POSTS} may be", TRADING))
    return Decision((v2.TradingCardRevealed(card=card),), tuple(violations))


def buy(state: State, name: str, to: str | None) -> Decision:
    """The item of a revealed Trading Post Card, for the meat and pelts it costs."""
    game = volume2(state)
    card = next((c for c in reversed(game.trading) if _folded(c.name) == _folded(name)), None)
    if card is None:
        shown = ", ".join(c.name for c in game.trading) or "none yet"
        raise NotFound(f"no Trading Post Card {name!r} was revealed (revealed: {shown}); "
                       "`spire trade NAME --meat N --pelts N` reveals one")
    violations: Violations = []
    if card.name in game.bought:
        violations.append(RuleViolation(f"{card.name} was bought already; the card went back "
                                        "to the deck", TRADING))
    for resource, price in (("meat", card.meat), ("pelts", card.pelts)):
        have = state.resources.get(resource, 0)
        if price > have:
            violations.append(RuleViolation(
                f"{card.name} costs {card.price()}; you have {have} {resource}", TRADING))
    holder = item_holder(state, to)
    return Decision((v2.ItemBought(card=card, holder=holder),), tuple(violations))


def trade_card(name: str, meat: int | None, pelts: int | None, kind: str | None) -> TradeCard:
    """The card as typed: its item's name and the price at the bottom of its face."""
    name = " ".join(name.split())
    if not name:
        raise BadInput("the Trading Post Card needs its item's name")
    if not meat and not pelts:
        raise BadInput(f"what does {name} cost? --meat N and/or --pelts N, as printed")
    wanted = (kind or "gear").casefold()
    if wanted not in ("gear", "single-use", "story"):
        raise BadInput(f"unknown item kind {kind!r}; Volume 2 has: gear, single-use, story")
    return TradeCard(name=name, meat=meat or 0, pelts=pelts or 0, kind=wanted)
