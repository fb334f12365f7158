"""Hildegard's commands: each by its path (`card add` is two words) with the first paragraph
of its help (None for a hidden one), so `spire --help` lists them and journal/cli/dispatch.py
finds which game has a verb without importing any game's commands.

Generated; do not edit it by hand. Regenerate it with

    python -m journal.cli.reference --index
"""

PANEL = 'Hildegard'

COMMANDS: dict[str, str | None] = {
    'target': 'Take aim at a target.',
    'faceoff': 'Begin a face-off against one or more enemies.',
    'roll': "Roll a set's shot dice, or re-roll the dice not locked.",
    'lock': 'Lock in dice before re-rolling the rest.',
    'stop': 'Stop finessing: the dice stand as they are.',
    'wild': "Roll the set's wild shot and apply its effect.",
    'feat': 'Spend Feats of Marksmanship.',
    'block': 'Use a shot die to block the hit square showing its part.',
    'assign': "Split a round's bullseyes among several enemies.",
    'effect': "A card's status effect on the next set.",
    'end': 'End the target or the face-off now.',
    'ally': 'An ally joins the party.',
    'card': '',
    'card add': 'Enter a card with its printed numbers.',
}
