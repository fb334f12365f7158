"""Spire's End: Volume 2, Episode 1 (rulebooks/volume2-episode1.txt; rules/volume2.toml).

Discard removes a card from the game entirely; Retrieve brings back a played card, a
milestone or a set of event cards. Finnian starts with 1 bee and 1 pollen and holds at
most 4 of each; meat and pelts buy gear at trading posts. Encounters: Finnian's hive
dice and the allies' shot dice paid in HP, d20 enemies with ferocity, the target roll,
recoup each round: `rules` decides, `state` and `combat` evolve, `view` shows.
"""

from typing import TYPE_CHECKING

from journal.games import load

GAME = load("volume2")

if TYPE_CHECKING:  # each module of the game holds to its Protocol (journal/games/interface.py)
    from journal.games import interface
    from journal.games.volume2 import (
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
