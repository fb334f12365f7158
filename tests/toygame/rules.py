"""Coin Tally's rule: "Toss the coin once per card." (The Coin)"""

from journal.core.decide import Decision, start_campaign
from journal.core.decide import pull_named as pull_named  # noqa: PLC0414 (no unnumbered decks)
from journal.core.state import State
from journal.errors import RuleViolation
from toygame.events import CoinTossed
from toygame.state import tally

start = start_campaign


def toss(state: State, heads: bool) -> Decision:
    violations = []
    if state.card is not None and tally(state).tossed_on == state.card:
        violations.append(RuleViolation(f"the coin was tossed on card {state.card} already",
                                        "The Coin"))
    return Decision((CoinTossed(heads=heads),), tuple(violations))


def whose_turn(state: State) -> str | None:
    return None
