"""Coin Tally's event as the table says it."""

from journal.core.describe import Saying
from journal.core.events import ByEvent
from toygame.events import CoinTossed

SAYINGS: ByEvent[Saying] = ByEvent()
"""The sentence for each of Coin Tally's events."""


@SAYINGS.register
def _(e: CoinTossed) -> str:
    return f"Tossed the coin: {'heads' if e.heads else 'tails'}"
