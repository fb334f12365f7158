"""Spire's End, the original (rulebooks/spires-end.txt; rules/spires-end.toml).

"Reveal N" from card M removes the unrevealed cards between them from the game; the
discard pile holds the cards the players have experienced. No currency: allies carry
items, at most 3 combat items each, story items unlimited. Seven allies, two in play;
fights on d8 action bars: `rules` decides, `state` and `combat` evolve, `view` shows.
"""

from typing import TYPE_CHECKING

from journal.games import load

GAME = load("spires-end")

if TYPE_CHECKING:  # each module of the game holds to its Protocol (journal/games/interface.py)
    from journal.games import interface
    from journal.games.spires_end import (
        catalog,
        commands,
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
