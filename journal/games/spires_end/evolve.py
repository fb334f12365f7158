"""How Spire's End's events change its state: the handlers, registered with the core fold.

For now they live beside the state they build (journal/games/spires_end/state.py); this
module is the layer the registry imports, as it imports every game's `evolve`."""

from journal.games.spires_end import state  # noqa: F401  (its handlers register on import)
