"""Spire's End's commands: each by its path (`card add` is two words) with the first paragraph
of its help (None for a hidden one), so `spire --help` lists them and journal/cli/dispatch.py
finds which game has a verb without importing any game's commands.

Generated; do not edit it by hand. Regenerate it with

    python -m journal.cli.reference --index
"""

PANEL = "Spire's End"

COMMANDS: dict[str, str | None] = {
    'draw': 'Draw an ally into play.',
    'fight': 'Begin a fight with an enemy.',
    'action': 'The ally whose turn it is performs an action.',
    'rest': 'Rest instead of an action.',
    'recoup': 'Roll 1d8 on the recoup bar to heal or rebuild armor.',
    'boost': 'Spend a full boost meter for Strength (1 turn).',
    'upkeep': 'End the turn: one cube off each status effect.',
    'enemy': "The enemy's action, on the ally the selection roll picks.",
    'death': "A dead ally's death move.",
    'select': 'The selection roll, for a story card asking which ally.',
    'effect': 'A status effect a story card inflicts.',
    'end': 'End the fight now.',
    'ally': 'An ally joins the party.',
    'card': '',
    'card add': 'Enter a card with its printed numbers.',
}
