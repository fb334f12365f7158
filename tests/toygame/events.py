"""Coin Tally's one event."""

from typing import Literal

from journal.core.events import Payload


class CoinTossed(Payload):
    """The coin tossed at the table, and how it fell."""

    type: Literal["coin-tossed"] = "coin-tossed"
    heads: bool


EVENTS: tuple[type[Payload], ...] = (
    CoinTossed,
)
"""Every event of Coin Tally's own, as the core learns them (journal.core.events.learn)."""
