"""Spire's End: Volume 2, Episode 1 (rulebooks/volume2-episode1.txt; rules/volume2.toml).

Discard removes a card from the game entirely; Retrieve brings back a played card, a
milestone or a set of event cards. Finnian starts with 1 bee and 1 pollen and holds at
most 4 of each; meat and pelts buy gear at trading posts. Encounters: Finnian's hive
dice and the allies' shot dice paid in HP, d20 enemies with ferocity, the target roll,
recoup each round: `rules` decides, `state` and `combat` evolve, `view` shows.
"""

from journal.games import load

GAME = load("volume2")
