"""What the audit asks of Coin Tally's event: the rule that records it, the coin it shows."""

from journal.games.interface import DieKind, Redecide
from toygame import rules

RECHECKS: dict[str, Redecide] = {"coin-tossed": lambda s, e, p, h: rules.toss(s, e.heads)}

DIE_KINDS: tuple[DieKind, ...] = (DieKind("coin", ("heads", "tails"), {
    "coin-tossed": lambda e: ("heads" if e.heads else "tails",)}),)
