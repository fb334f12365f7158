"""Coin Tally in a report: no encounters, and the coin counted as a die."""

from __future__ import annotations

from journal.games import Game
from journal.report.fold import Taker
from journal.report.model import Dice, Found
from journal.report.parts import GameParts
from journal.report.sections import Counted
from toygame.recheck import DIE_KINDS

DEATHS = False


class NoEncounters:
    """Coin Tally has no encounters to follow."""

    def taker(self, kind: type) -> Taker | None:
        return None

    def close(self) -> None:
        pass

    def opened(self) -> int | None:
        return None


def parts(rules: Game, found: Found) -> GameParts:
    coin = Counted(DIE_KINDS, "")
    return GameParts(NoEncounters(), coin, lambda state: Dice(coin.stats(), None, ""))
