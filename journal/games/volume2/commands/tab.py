"""What Tab offers in a Volume 2 campaign: the faces of the dice the ally whose turn it is
rolls, the encounter's fighters and actions, the catalog's cards met."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from journal.cli.complete import EVERY
from journal.games.volume2.commands.acting import GAME

if TYPE_CHECKING:
    from journal.cli.complete import Source, Table


def _encounter(table: Table) -> Any:
    from journal.games.volume2.state import volume2

    view = table.view()
    return volume2(view.state).encounter if view is not None else None


def _faces(table: Table) -> tuple[str, ...]:
    """The faces of the dice of the ally whose turn it is (hive or shot); both kinds'
    between turns."""
    from journal.games.volume2.dice import faces_of

    enc = _encounter(table)
    turn = enc.turn if enc is not None and enc.under_way else None
    ally = enc.ally(turn.ally) if turn is not None else next(
        (a for a in enc.allies if not a.acted and not a.ko), None) if enc is not None else None
    if ally is not None and ally.card.dice is not None:
        return faces_of(ally.card.dice)
    return tuple(dict.fromkeys((*faces_of("hive"), *faces_of("shot"))))


def _characters(table: Table) -> list[str]:
    view = table.view()
    return [c.name for c in view.state.characters] if view is not None else []


def _fighters(side: str) -> Source:
    """The encounter's allies or enemies (the party's allies between fights)."""
    def names(table: Table) -> list[str]:
        enc = _encounter(table)
        if enc is None or not enc.under_way:
            return _characters(table) if side == "allies" else []
        return [f.name for f in getattr(enc, side)]

    return names


def _actions(table: Table) -> list[str]:
    """The actions of the ally whose turn it is."""
    enc = _encounter(table)
    ally = enc.ally(enc.turn.ally) if enc is not None and enc.turn is not None else None
    return [c.name for c in ally.card.actions()] if ally is not None else []


def _catalog(kind: str) -> Source:
    def names(table: Table) -> list[str]:
        """The rulebook's examples and the entered cards this campaign has met."""
        from journal.games.volume2.catalog import rulebook_cards

        met = table.journal().met_cards(GAME)
        cards = [*rulebook_cards().values(), *met.values()]
        return sorted({c.name for c in cards if c.kind == kind})

    return names


POSITIONALS: dict[tuple[str, ...], tuple[Source, int]] = {
    ("roll",): (_faces, EVERY),
    ("fight",): (_catalog("enemy"), EVERY),
    ("draw",): (_catalog("ally"), 0),
    ("deploy",): (lambda table: ("bee", "pollen"), 0),
    ("action",): (_actions, 0),
}
OPTION_VALUES: dict[str, Source] = {
    "--face": _faces, "--with": _catalog("ally"), "--ally": _fighters("allies"),
    "--choose": _fighters("allies"), "--name": _fighters("enemies"),
    "--on": lambda table: [*_fighters("enemies")(table), *_fighters("allies")(table)],
}
