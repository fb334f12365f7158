"""What the pages show, read through the service and drawn by the Jinja2 templates under
`templates/` with autoescaping: every name and note the players typed reaches the page
escaped there. The party and the encounter are the glance `spire status` shows (spoiler-
safe as it is: only what the players revealed), the events the sentences `spire replay`
prints, the state at an event a `Walks` moment: the web layer works out no rule itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from journal.web import history
from journal.web.told import lines, told

if TYPE_CHECKING:
    from jinja2 import Environment

    from journal.service.reading import Reading

LATEST = 10
"""How many of the latest events the live page lists."""


def environment() -> Environment:
    from jinja2 import Environment, PackageLoader, select_autoescape

    env = Environment(loader=PackageLoader("journal.web", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True),
                      trim_blocks=True, lstrip_blocks=True)
    env.filters["part"] = part
    return env


def part(name: object) -> str:
    """A name as one part of a path: its slashes quoted too (jinja's urlencode keeps them)."""
    from urllib.parse import quote

    return quote(str(name), safe="")


class Pages:
    """The pages of one journal, opened read-only: one reading per campaign asked for and
    one history walk each, kept while the server runs."""

    def __init__(self, read: Reading) -> None:
        self.read = read
        self.env = environment()
        self._through: dict[str | None, Reading] = {None: read}
        self._histories: dict[str | None, history.History] = {}
        self._parts: dict[str | None, tuple[int, str]] = {}

    def reading(self, name: str | None) -> Reading:
        """The journal seen through campaign `name` (the current one if None); NotFound
        for one it does not hold."""
        if name not in self._through:
            from journal.errors import NotFound

            if name not in {c.name for c, _, _ in self.read.campaigns()}:
                raise NotFound(f"no campaign {name!r} in this journal")
            self._through[name] = self.read.through(name) if name else self.read
        return self._through[name]

    def live(self, name: str | None) -> str:
        """The live page, whole."""
        facts = self._live(name)
        return self.env.get_template("live.html").render(
            **facts, part=self._render_part(facts))

    def part(self, name: str | None, generation: int) -> str:
        """What the live page's changing part holds now (drawn once per change of the
        journal, whoever asks: twenty viewers read the journal once)."""
        kept = self._parts.get(name)
        if kept is None or kept[0] != generation:
            kept = self._parts[name] = (generation, self._render_part(self._live(name)))
        return kept[1]

    def _render_part(self, facts: dict[str, Any]) -> str:
        return self.env.get_template("_live.html").render(**facts)

    def _live(self, name: str | None) -> dict[str, Any]:
        from journal.core.events import learn_game

        read = self.reading(name)
        status = read.status()
        learn_game(status.campaign.game)
        branch = status.branch
        latest = read.store.log.read(branch, after=max(0, branch.head - LATEST))
        return {"status": status, "glance": status.glance, "campaign": status.campaign.name,
                "name": name, "latest": lines(latest[::-1], read.retracted(branch)),
                "odds": odds(read)}

    def history(self, name: str | None, branch: str | None, at: int | None) -> str:
        read = self.reading(name)
        found = self._histories.get(name)
        if found is None:
            found = self._histories[name] = history.History(read)
        facts = found.at(branch, at)
        return self.env.get_template("history.html").render(
            **facts, campaign=read.campaign().name, name=name)


def odds(read: Reading) -> list[tuple[str, str]]:
    """The odds `spire odds` weighs now, as the lines it prints (each parted into its lead
    and the rest); none when there is nothing to weigh."""
    from journal.errors import SpireError
    from journal.insight.odds import odds as weigh

    try:
        found = weigh(read.view().state)
    except SpireError:
        return []
    return told(found)
