"""The panels `spire --help` groups the commands in, and which games each command serves.

One table: `spire --help` lists the commands panel by panel (journal/cli/index.py keeps
each command's panel, so the list needs no command built), typer is given the panel as the
command's rich_help_panel, and the play shell's `help` and Tab leave out the commands of
other games than the campaign's.
"""

from __future__ import annotations

JOURNAL = "The journal"
DECK = "The deck"
TIME = "Time"
PROOF = "Proof and insight"
HILDEGARD = "Hildegard"
SPIRES_END = "Spire's End"
VOLUME2 = "Volume 2"

PANELS: dict[str, tuple[str, ...]] = {
    JOURNAL: ("new", "campaigns", "use", "where", "demo", "play", "status", "log", "show", "note",
              "gain", "spend", "item", "ally", "card", "help", "completion"),
    DECK: ("reveal", "pull", "return", "discard", "retrieve", "chapter"),
    TIME: ("undo", "redo", "checkpoint", "checkpoints", "rewind", "branches", "branch",
           "switch", "replay", "diff"),
    PROOF: ("audit", "report", "export", "import", "odds", "map"),
    HILDEGARD: ("target", "faceoff", "roll", "lock", "stop", "wild", "feat", "block",
                "assign", "effect", "end"),
    SPIRES_END: ("draw", "fight", "action", "rest", "recoup", "boost", "upkeep", "enemy",
                 "death", "select"),
    VOLUME2: ("deploy", "target-roll", "ability", "trade", "buy", "waterfall", "episode"),
}
"""Each panel's commands, in the order `spire --help` lists them; the panels in order."""

GAMES = {HILDEGARD: "hildegard", SPIRES_END: "spires-end", VOLUME2: "volume2"}
"""The panels that are one game's."""

ALSO: dict[str, tuple[str, ...]] = {
    "roll": ("volume2",), "lock": ("volume2",), "stop": ("volume2",), "end": ("spires-end",
    "volume2"), "effect": ("spires-end",), "draw": ("volume2",), "fight": ("volume2",),
    "action": ("volume2",), "upkeep": ("volume2",), "enemy": ("volume2",),
}
"""Commands of one game's panel that another game plays too (Volume 2 rolls and locks
as Hildegard does; its fights are drawn, fought and acted as Spire's End's)."""


def panel_of(command: str) -> str | None:
    """The panel `command` is listed in; None for one no panel names."""
    return next((panel for panel, names in PANELS.items() if command in names), None)


def games_of(command: str) -> tuple[str, ...] | None:
    """The games that play `command`; None for a command of every game."""
    panel = panel_of(command)
    if panel not in GAMES:
        return None
    return (GAMES[panel], *ALSO.get(command, ()))


def of_other_games(game: str) -> set[str]:
    """The commands no campaign of `game` plays."""
    return {name for names in PANELS.values() for name in names
            if (games := games_of(name)) is not None and game not in games}
