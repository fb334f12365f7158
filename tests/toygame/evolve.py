"""How a toss changes Coin Tally's state."""

from journal.core.state import State, applies, replace
from toygame.events import CoinTossed
from toygame.state import tally


@applies
def _(event: CoinTossed, state: State) -> State:
    before = tally(state)
    after = replace(before, heads=before.heads + event.heads,
                    tails=before.tails + (not event.heads), tossed_on=state.card)
    return replace(state, game_state=after)
