"""Volume 2's commands: each by its path (`card add` is two words) with the first paragraph
of its help (None for a hidden one), so `spire --help` lists them and journal/cli/dispatch.py
finds which game has a verb without importing any game's commands.

Generated; do not edit it by hand. Regenerate it with

    python -m journal.cli.reference --index
"""

PANEL = 'Volume 2'

COMMANDS: dict[str, str | None] = {
    'fight': 'Begin an encounter: Finnian and up to 2 allies against enemies or wildlife, each from the catalog.',
    'draw': 'An ally pulled from the Ally Deck joins the party (from the catalog).',
    'roll': "Roll an ally's action dice, or re-roll the dice not locked.",
    'lock': 'Lock in dice before re-rolling the rest.',
    'stop': 'Stop rolling: every die counts as locked; the actions come next.',
    'action': "A combination the locked dice make (Finnian's: sickles), on one target.",
    'upkeep': "The ally's turn is over (without a roll, the turn is passed).",
    'enemy': 'One enemy attack: a d20 + ferocity on the damage table, on the ally the target roll chose (`spire target-roll` first).',
    'end': 'End the encounter now (with the reset, if an ally stands).',
    'deploy': 'Deploy bees (+1 damage each to a successful attack) or pollen (+1 HP each to an ally) from the hive, once a hive is rolled; at most 4 a turn.',
    'target-roll': "The target roll before an enemy's attack: the highest d20 is hit; a tie rolls again among the tied allies only.",
    'ability': 'Trigger an enemy\'s ability that changes a number, as its card says: one that stacks adds again each time and lasts the encounter; another, to the end of the round. Enter it with `spire card add ... --ability "RAGE: +1 ferocity (stacks)"`.',
    'trade': 'Reveal a Trading Post Card at a trading post, with its price; at most 5 a playthrough. `spire buy ITEM` then trades for it.',
    'buy': 'Trade meat and pelts for the item of a revealed Trading Post Card, at the price printed on it.',
    'waterfall': 'A waterfall event, row by row: lay it out, choose a card a row, remove what a card removes, end on the story card it names.',
    'waterfall lay': 'Lay the event cards retrieved last face down, row by row.',
    'waterfall choose': "Choose a row's card and reveal it; the rest of that row is discarded.",
    'waterfall remove': 'Remove the cards a revealed card names from the next row ("Remove Row 2 cards B and F").',
    'waterfall end': 'End the waterfall event by revealing the story card it names.',
    'episode': 'End the episode, recording what carries into the next.',
    'episode end': 'End the episode: the story card it ended on, the allies, the milestones in play, the items, bees, pollen, meat and pelts are recorded to carry into the next.',
    'item': '',
    'item use': 'Use up a single-use item (only while an ally is in play).',
    'card': '',
    'card add': 'Enter a card with its printed numbers; entering a name again corrects that card: the options given change, the rest is kept (--combo and --ability given again replace its combinations and abilities).',
}
