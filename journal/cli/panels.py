"""The panels `spire --help` groups the core's commands in (each game's verbs are listed
under its own panel, from its index: journal/cli/dispatch.py).

One table: `spire --help` lists the commands panel by panel (journal/cli/index.py keeps
each command's help, so the list needs no command built), and typer is given the panel as
the command's rich_help_panel.
"""

from __future__ import annotations

JOURNAL = "The journal"
DECK = "The deck"
TIME = "Time"
PROOF = "Proof and insight"

PANELS: dict[str, tuple[str, ...]] = {
    JOURNAL: ("new", "campaigns", "use", "where", "demo", "play", "status", "watch", "log",
              "show", "note", "gain", "spend", "item", "card", "help", "completion"),
    DECK: ("reveal", "pull", "return", "discard", "retrieve", "chapter"),
    TIME: ("undo", "redo", "checkpoint", "checkpoints", "rewind", "branches", "branch",
           "switch", "replay", "diff"),
    PROOF: ("audit", "report", "export", "import", "odds", "map"),
}
"""Each panel's commands, in the order `spire --help` lists them; the panels in order."""


def panel_of(command: str) -> str | None:
    """The panel `command` is listed in; None for one no panel names."""
    return next((panel for panel, names in PANELS.items() if command in names), None)
