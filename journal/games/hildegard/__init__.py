"""Spire's End: Hildegard (rulebooks/hildegard.txt; its numbers in rules/hildegard.toml).

Resources: gold, and feats of marksmanship (at most 6). Several cards may share a number
("Reveal 1 of the 3 starting cards"), so a reveal removes nothing. Chapters 1 to 4, the
start of each a checkpoint. Hildegard, and Hallveig in a two-player game. Targets and
face-offs: `rules` decides, `evolve` folds each event into `state` (a face-off's
steps are `combat`'s), `view` shows.
"""

from journal.games import load

GAME = load("hildegard")
