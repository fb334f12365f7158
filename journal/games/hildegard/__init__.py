"""Spire's End: Hildegard (rulebooks/hildegard.txt; its numbers in rules/hildegard.toml).

Resources: gold, and feats of marksmanship (at most 6). Several cards may share a number
("Reveal 1 of the 3 starting cards"), so a reveal removes nothing. Chapters 1 to 4, the
start of each a checkpoint. Hildegard, and Hallveig in a two-player game. Targets and
face-offs: `rules` decides, `evolve` folds each event into `state` (a face-off's
steps are `combat`'s), `view` shows.
"""

from typing import TYPE_CHECKING

from journal.games import load

GAME = load("hildegard")

if TYPE_CHECKING:  # each module of the game holds to its Protocol (journal/games/interface.py)
    from journal.games import interface
    from journal.games.hildegard import (
        catalog,
        commands,
        demo,
        index,
        insight,
        odds,
        recheck,
        report,
        rules,
        state,
    )

    _odds: interface.Odds = odds
    _insight: interface.Insight = insight
    _rules: interface.Rules = rules
    _recheck: interface.Recheck = recheck
    _report: interface.Report = report
    _catalog: interface.Catalog = catalog
    _state: interface.StateModule = state
    _commands: interface.Commands = commands
    _index: interface.Index = index
    _demo: interface.Demo = demo
