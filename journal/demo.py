"""The demo: a short scripted stretch of a Hildegard campaign, for a newcomer to watch.

The two targets are the rulebook's own worked examples (Street Merchant, Card Peddler)
and the card numbers are the ones the rulebook prints; nothing of the story is spoiled.
"""

from __future__ import annotations

from dataclasses import replace

from journal import decide
from journal.errors import NotFound
from journal.service import Command, Journal, View

NAME = "demo"

SCRIPT: tuple[Command, ...] = (
    lambda v: decide.reveal(v.state, 1),
    lambda v: decide.gain_item(v.state, "Slingshot", "story", "Hildegard"),
    lambda v: decide.note("Street Merchant: 3 bullseyes in 2 sets; bonus challenge met"),
    lambda v: decide.gain(v.state, "feats", 1),
    lambda v: decide.reveal(v.state, 26),
    lambda v: decide.pull(v.state, 12),
    lambda v: decide.return_(v.state),
    lambda v: decide.note("Card Peddler: finessed twice; ring + dot, 1 bullseye"),
    lambda v: decide.gain(v.state, "gold", 2),
    lambda v: decide.undo(v.history),
    lambda v: decide.gain(v.state, "gold", 1),
    lambda v: decide.spend(v.state, "feats", 1, "hone"),
    lambda v: decide.reveal(v.state, 27),
)


def play(journal: Journal) -> tuple[View, bool]:
    """Play the script into `demo`, or show it if it is there already; `demo` becomes
    the current campaign. Returns the view and whether it was played now."""
    try:
        journal.use(NAME)
        return journal.view(), False
    except NotFound:
        pass
    view = journal.new(NAME, "hildegard", 1)
    for step in SCRIPT:
        view = journal.execute(step)
    return replace(view, written=()), True
