"""Spire's End's commands: each by its path (`card add` is two words) with the first paragraph
of its help (None for a hidden one), so `spire --help` lists them and journal/cli/dispatch.py
finds which game has a verb without importing any game's commands.

Generated; do not edit it by hand. Regenerate it with

    python -m journal.cli.reference --index
"""

PANEL = "Spire's End"

COMMANDS: dict[str, str | None] = {
    'draw': "Draw an ally into play: a starting ally, or the next one taking a dead ally's place (the dead ally's items pass to it). From the catalog by name, or its numbers inline.",
    'fight': 'Begin a fight with an enemy: from the catalog by name, or its numbers inline. Its bars are numbered as its action cards pick them, and cost no HP.',
    'action': 'The ally whose turn it is performs an action: pay the HP, roll 1d8, apply the result.',
    'rest': "Rest instead of an action: +1, +2, +3 on the heal of this turn's recoup.",
    'recoup': 'Recoup: roll 1d8 on the recoup bar to heal or rebuild armor; a roll in its Cleanse range removes a status effect too.',
    'boost': 'Spend a full boost meter for Strength (1 turn).',
    'upkeep': 'End the turn: one cube off each status effect, its effect applied (negative first).',
    'enemy': "The enemy's action: the selection roll picks the ally, the action card the bar.",
    'death': "A dead ally's death move, before the next ally takes its place.",
    'select': 'The selection roll, for a story card that asks which ally: 1-4 Ally 1, 5-8 Ally 2.',
    'effect': 'A status effect a story card inflicts, on an ally or the enemy, with its clocks.',
    'end': 'End the fight now: the story ends it, or the players abandon it.',
    'ally': 'An ally joins the party, with the thresholds printed on the card.',
    'card': '',
    'card add': 'Enter a card with its printed numbers; entering a name again replaces that card.',
}
