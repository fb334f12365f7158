"""Spire's End, the original (rulebooks/spires-end.txt; rules/spires-end.toml).

"Reveal N" from card M removes the unrevealed cards between them from the game; the
discard pile holds the cards the players have experienced. No currency: allies carry
items, at most 3 combat items each, story items unlimited. Seven allies, two in play;
fights on d8 action bars: `rules` decides, `state` and `combat` evolve, `view` shows.
"""

from journal.games import load

GAME = load("spires-end")
