"""Coin Tally's one event."""

from typing import Literal

from journal.core.events import Payload


class CoinTossed(Payload):
    """The coin tossed at the table, and how it fell."""

    type: Literal["coin-tossed"] = "coin-tossed"
    heads: bool
