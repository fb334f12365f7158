"""Spire's End holds to the game interface: each of its modules is checked by mypy against
the Protocol of what the core asks of it (journal/games/interface.py, and the upper layers'
own: the report's, the demo's, the command line's). Nothing imports this module: it is
read by the type checker alone, at the top of the game's layers.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import journal.games.spires_end as package
    from journal.cli.complete import Commands
    from journal.games import interface
    from journal.games.spires_end import (
        catalog,
        commands,
        demo,
        describe,
        events,
        evolve,
        index,
        insight,
        odds,
        recheck,
        report,
        rules,
        state,
        view,
    )
    from journal.report.parts import GameReport
    from journal.service.demo import Demo

    _package: interface.Package = package
    _catalog: interface.Catalog = catalog
    _describe: interface.Describe = describe
    _events: interface.Events = events
    _evolve: interface.Evolve = evolve
    _index: interface.Index = index
    _insight: interface.Insight = insight
    _odds: interface.Odds = odds
    _recheck: interface.Recheck = recheck
    _rules: interface.Rules = rules
    _state: interface.StateModule = state
    _view: interface.View = view
    _report: GameReport = report
    _demo: Demo = demo
    _commands: Commands = commands
