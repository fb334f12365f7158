"""The history page's facts: a branch after any of its events (`Walks.moment`, one walk
per campaign kept while the server runs), the state then as status words it, the
campaign's branches and checkpoints, and the roads-taken map."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from journal.web.told import lines

if TYPE_CHECKING:
    from journal.service.reading import Reading
    from journal.service.views import BranchInfo


class History:
    """The history of one campaign's branches, browsed."""

    def __init__(self, read: Reading) -> None:
        from journal.service.browse import Walks

        self.read = read
        self.walks = Walks(read)
        self._roads: tuple[tuple[Any, ...], str] | None = None

    def at(self, branch: str | None, position: int | None) -> dict[str, Any]:
        """What the page shows of `branch` (the current one if None) after its event at
        `position` (its head's if None)."""
        from journal.service import glance

        moment = self.walks.moment(branch, position)
        infos = self.read.branches(cards=False)
        head, at = moment.branch.head, moment.position
        return {"moment": moment, "glance": glance.of(moment.state),
                "sentence": lines([moment.recorded], frozenset())[0].sentence,
                "around": lines(list(moment.around), moment.undone),
                "branches": infos, "marks": self.read.marks(moment.branch),
                "previous": at - 1 if at > 1 else None,
                "next": at + 1 if at < head else None, "roads": self.roads(infos)}

    def roads(self, infos: list[BranchInfo]) -> str:
        """The roads-taken map as SVG (`spire map`'s, the report's drawing), drawn again
        only when a branch moved."""
        key = (tuple((i.branch.id, i.branch.head_hash) for i in infos),
               tuple((c.name, b.head_hash) for c, b, _ in self.read.campaigns()))
        if self._roads is None or self._roads[0] != key:
            from journal.insight import mapping
            from journal.report.roads import svg

            self._roads = (key, svg(mapping.story_map(*mapping.roads(self.read))))
        return self._roads[1]
