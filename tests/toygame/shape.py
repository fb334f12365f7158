"""Coin Tally holds to the game interface, as every shipped game's shape.py says of it."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import toygame as package
    from journal.cli.complete import Commands
    from journal.games import interface
    from journal.report.parts import GameReport
    from toygame import (
        catalog,
        commands,
        describe,
        events,
        evolve,
        recheck,
        report,
        rules,
        state,
        view,
    )

    _package: interface.Package = package
    _catalog: interface.Catalog = catalog
    _describe: interface.Describe = describe
    _events: interface.Events = events
    _evolve: interface.Evolve = evolve
    _recheck: interface.Recheck = recheck
    _rules: interface.Rules = rules
    _state: interface.StateModule = state
    _view: interface.View = view
    _report: GameReport = report
    _commands: Commands = commands
