"""Volume 2's commands: each by its path (`card add` is two words) with the first paragraph
of its help (None for a hidden one), so `spire --help` lists them and journal/cli/dispatch.py
finds which game has a verb without importing any game's commands.

Generated; do not edit it by hand. Regenerate it with

    python -m journal.cli.reference --index
"""

PANEL = 'Volume 2'

COMMANDS: dict[str, str | None] = {
    'fight': 'Begin an encounter against enemies or wildlife.',
    'draw': 'An ally pulled from the Ally Deck joins the party.',
    'roll': "Roll an ally's action dice, or re-roll the dice not locked.",
    'lock': 'Lock in dice before re-rolling the rest.',
    'stop': 'Stop rolling: every die counts as locked.',
    'action': 'A combination the locked dice make, on one target.',
    'upkeep': "The ally's turn is over.",
    'enemy': 'One enemy attack, on the ally the target roll chose.',
    'end': 'End the encounter now (with the reset, if an ally stands).',
    'deploy': 'Deploy bees or pollen from the hive.',
    'target-roll': "The target roll before an enemy's attack.",
    'ability': "Trigger an enemy's ability that changes a number.",
    'trade': 'Reveal a Trading Post Card at a trading post.',
    'buy': "Trade meat and pelts for a Trading Post Card's item.",
    'waterfall': 'A waterfall event, played row by row.',
    'waterfall lay': 'Lay the event cards retrieved last face down, row by row.',
    'waterfall choose': "Choose a row's card and reveal it.",
    'waterfall remove': 'Remove the cards a revealed card names from the next row.',
    'waterfall end': 'End the waterfall event by revealing the story card it names.',
    'episode': 'End the episode, recording what carries into the next.',
    'episode end': 'End the episode, recording what carries into the next.',
    'item': '',
    'item use': 'Use up a single-use item (only while an ally is in play).',
    'card': '',
    'card add': 'Enter a card with its printed numbers.',
}
