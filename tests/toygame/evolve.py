"""How a toss changes Coin Tally's state."""

from journal.core.events import ByEvent
from journal.core.state import Handler, State, replace
from toygame.events import CoinTossed
from toygame.state import tally

HANDLERS: ByEvent[Handler] = ByEvent()
"""How each of Coin Tally's events changes the state."""


@HANDLERS.register
def _(event: CoinTossed, state: State) -> State:
    before = tally(state)
    after = replace(before, heads=before.heads + event.heads,
                    tails=before.tails + (not event.heads), tossed_on=state.card)
    return replace(state, game_state=after)
