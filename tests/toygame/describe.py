"""Coin Tally's event as the table says it."""

from journal.core.describe import says
from toygame.events import CoinTossed


@says
def _(e: CoinTossed) -> str:
    return f"Tossed the coin: {'heads' if e.heads else 'tails'}"
