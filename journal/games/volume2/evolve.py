"""How Volume 2's events change its state: the handlers, registered with the core fold.

For now they live beside the state they build (journal/games/volume2/state.py and
rounds.py); this module is the layer the registry imports, as it imports every game's
`evolve`."""

from journal.games.volume2 import rounds, state  # noqa: F401  (their handlers register on import)
