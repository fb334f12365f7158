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
    JOURNAL: ("new", "campaigns", "use", "where", "demo", "play", "status", "watch", "serve",
              "log", "show", "note", "gain", "spend", "item", "card", "help", "completion"),
    DECK: ("reveal", "pull", "return", "discard", "retrieve", "chapter"),
    TIME: ("undo", "redo", "checkpoint", "checkpoints", "rewind", "branches", "branch",
           "switch", "replay", "diff"),
    PROOF: ("audit", "report", "export", "import", "odds", "map"),
}
"""Each panel's commands, in the order `spire --help` lists them; the panels in order."""


def panel_of(command: str) -> str | None:
    """The panel `command` is listed in; None for one no panel names."""
    return next((panel for panel, names in PANELS.items() if command in names), None)


FIRST: dict[str, dict[str, str]] = {
    "start, or pick up a campaign": {
        "demo": "Watch a short stretch of a campaign, command by command",
        "new": "Start a campaign: spire new NAME --game GAME",
        "campaigns": "List the campaigns in the journal",
        "use": "Make another campaign the current one",
    },
    "at the table": {
        "play": "A shell inside the campaign: the commands without `spire`",
        "reveal": "Advance to card N",
        "status": "Where the campaign stands",
        "log": "What happened, event by event",
    },
    "mistakes and time": {
        "undo": "Take back the latest action (`redo` takes back the undo)",
        "checkpoint": "Mark this moment, to rewind to later",
        "rewind": "Go back to a checkpoint or an event, in a new branch",
        "switch": "Play on another branch",
    },
}
"""The commands a session starts with, as bare `spire` lists them (git's short list), each
in a few words; `spire help` lists every one with its own help."""


def first_screen() -> str:
    """What bare `spire` prints: the commands a session starts with, in one screen."""
    lines = ["usage: spire [--db PATH|URL] [-c NAME] COMMAND [ARGS]...",
             "The campaign journal for the Spire's End tabletop games. A session starts with:"]
    width = max(len(name) for names in FIRST.values() for name in names)
    for heading, rows in FIRST.items():
        lines += ["", heading]
        lines += [f"   {name.ljust(width)}   {text}" for name, text in rows.items()]
    return "\n".join([*lines, "", "`spire help` lists every command, and `spire help COMMAND` "
                      "tells one."])
