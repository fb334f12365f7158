"""Hildegard's commands: each by its path (`card add` is two words) with the first paragraph
of its help (None for a hidden one), so `spire --help` lists them and journal/cli/dispatch.py
finds which game has a verb without importing any game's commands.

Generated; do not edit it by hand. Regenerate it with

    python -m journal.cli.reference --index
"""

PANEL = 'Hildegard'

COMMANDS: dict[str, str | None] = {
    'target': 'Take aim at a target: from the catalog by name, or with its numbers inline.',
    'faceoff': "Begin a face-off against one or more enemies on Hildegard's hit meter.",
    'roll': "Roll a set's shot dice, or re-roll the dice not locked (finesse).",
    'lock': 'Lock in dice before re-rolling the rest (finesse): at least one each time.',
    'stop': 'Stop finessing: the dice stand as they are; the wild shot comes next.',
    'wild': "Roll the set's wild shot and apply its effect.",
    'feat': 'Spend Feats of Marksmanship: hone 1, wild 1, bullseye 2, reset 2, redo 3, block 1.',
    'block': 'Use a shot die to block the hit square showing its part (face-offs).',
    'assign': "Split a round's bullseyes among several enemies (the rest go to the others in order).",
    'effect': "A card's status effect on the next set: Flub, Tame, Graze; Hit at once.",
    'end': 'End the target now (its outcome is what the bullseyes so far make it), or the face-off.',
    'ally': 'An ally joins the party, with the thresholds printed on the card.',
    'card': '',
    'card add': 'Enter a card with its printed numbers; entering a name again replaces that card.',
}
