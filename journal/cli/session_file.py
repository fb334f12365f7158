"""`spire play < FILE`: a session file, played into a campaign once.

A file is kept as played by a digest of the campaign's name and each beginning of its
commands (journal.service.journal.played), so a file played again is refused, and so is
one whose first lines were played: it stopped at a refused line that the players mended,
or it grew by the next session. `--from LINE` plays on from a line, `--again` plays it all.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from journal.service.journal import Journal, View


class Shell(Protocol):
    """What a session file is played through: the play shell (journal.cli.play.Shell)."""

    def view(self) -> View | None: ...
    def journal(self) -> Journal: ...
    def batch(self, lines: Iterable[str], keep_going: bool, start: int = 1,
              ) -> tuple[int, int | None]: ...


def played_once(shell: Shell, lines: list[str], keep_going: bool, again: bool,
                start: int) -> int:
    """`shell.batch` over a file's lines, once for a campaign: a file whose lines from
    `start` on were played into the campaign already (all of them, or the first of
    them) is refused, nothing run, unless `again`; what a file recorded is kept as
    played, the whole file or its lines before the one it stopped at."""
    from datetime import datetime

    from journal.errors import BadInput, Refused
    from journal.service.journal import keep_played, played

    if start > len(lines):
        raise BadInput(f"the file has {len(lines)} lines: --from {start} is past its end",
                       "`spire play --from LINE < FILE` begins at a line of the file")
    view = shell.view()
    if view is None:  # no campaign yet: the file makes its own (`new`), refused if twice
        return shell.batch(lines, keep_going, start)[0]
    journal = shell.journal()
    name, before = view.campaign.name, view.branch.head
    found = played(journal, name, lines)
    if found is not None and found.through >= start and not again:
        if found.whole:
            raise Refused(f"this file was played already: {found.what}",
                          "`spire play --again < FILE` plays it again")
        on = found.through + 1
        raise Refused(f"lines 1 to {found.through} were played: {found.what}",  # 80 columns
                      f"`spire play --from {on} < FILE` plays on from line {on}; --again "
                      "plays it all")
    code, stopped = shell.batch(lines, keep_going, start)
    after = shell.view()
    if after is not None and after.campaign.name == name and after.branch.head != before:
        keep_played(journal, name, lines if stopped is None else lines[:stopped - 1],
                    f"#{before + 1} to #{after.branch.head} on {after.branch.name}, "
                    f"{datetime.now():%Y-%m-%d %H:%M}")
    return code
