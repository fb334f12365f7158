"""Every command of `spire`: the module under journal.cli that defines it, and the first
paragraph of its help (None for a hidden one), so `spire --help` lists the commands without
importing them and `spire NAME` imports only NAME's module.

Generated; do not edit it by hand. Regenerate it with

    python -m journal.cli.reference --index > journal/cli/index.py
"""

# ruff: noqa: E501

COMMANDS: dict[str, tuple[str, str | None]] = {
    'audit': ('audit', 'Check the journal: nothing edited, every step legal; list overrides, undos and dice.'),
    'new': ('campaigns', 'Start a campaign and make it the current one.'),
    'campaigns': ('campaigns', 'List the campaigns in the journal; * marks the current one.'),
    'use': ('campaigns', 'Make NAME the current campaign.'),
    'demo': ('campaigns', 'Play a short stretch of a Hildegard campaign into a campaign named `demo`.'),
    'reveal': ('deck', "Advance to card N (in Spire's End, the cards in between leave the game)."),
    'pull': ('deck', 'Draw card N out of sequence; `spire return` goes back to the card it interrupted.'),
    'return': ('deck', 'Go back from a pulled card to the card it interrupted.'),
    'discard': ('deck', 'Discard card N (in Volume 2 this removes it from the game).'),
    'retrieve': ('deck', 'Retrieve a played card, a milestone or a set of event cards (Volume 2).'),
    'chapter': ('deck', 'Begin chapter N; its start is recorded as the checkpoint chapter-N.'),
    'target': ('hildegard', 'Take aim at a target: from the catalog by name, or with its numbers inline.'),
    'faceoff': ('hildegard', "Begin a face-off against one or more enemies on Hildegard's hit meter."),
    'roll': ('hildegard', "Roll a set's shot dice, or re-roll the dice not locked (finesse)."),
    'lock': ('hildegard', 'Lock in dice before re-rolling the rest (finesse): at least one each time.'),
    'stop': ('hildegard', 'Stop finessing: the dice stand as they are; the wild shot comes next.'),
    'wild': ('hildegard', "Roll the set's wild shot and apply its effect."),
    'feat': ('hildegard', 'Spend Feats of Marksmanship: hone 1, wild 1, bullseye 2, reset 2, redo 3, block 1.'),
    'block': ('hildegard', 'Use a shot die to block the hit square showing its part (face-offs).'),
    'assign': ('hildegard', "Split a round's bullseyes among several enemies (the rest go to the first)."),
    'effect': ('hildegard', "A card's status effect: Hildegard's on the next set, Spire's End's on anyone."),
    'end': ('hildegard', "End the target now (its outcome is what the bullseyes so far make it); in Spire's End, the fight."),
    'status': ('looking', 'Where the campaign stands: card, chapter, resources, characters, items.'),
    'log': ('looking', 'The events of the current branch, undone ones marked.'),
    'show': ('looking', 'One event in full: its payload, time, override and hashes.'),
    'play': ('play', 'A shell inside the current campaign: the same commands, without `spire`.'),
    'report': ('report', "A play report to keep or share: the path of cards, each encounter, resources, items, notes, overrides and undos, dice statistics and the players' luck."),
    'draw': ('spires_end', "Draw an ally into play: a starting ally, or the next one taking a dead ally's place (the dead ally's items pass to it). From the catalog by name, or its numbers inline."),
    'fight': ('spires_end', 'Begin a fight with an enemy: from the catalog by name, or its numbers inline. Its bars are numbered as its action cards pick them, and cost no HP.'),
    'action': ('spires_end', 'The ally whose turn it is performs an action: pay the HP, roll 1d8, apply the result.'),
    'rest': ('spires_end', "Rest instead of an action: +1, +2, +3 on the heal of this turn's recoup."),
    'recoup': ('spires_end', 'Recoup: roll 1d8 on the recoup bar to heal, rebuild armor or cleanse.'),
    'boost': ('spires_end', 'Spend a full boost meter for Strength (1 turn).'),
    'upkeep': ('spires_end', 'End the turn: one cube off each status effect, its effect applied (negative first).'),
    'enemy': ('spires_end', "The enemy's action: the selection roll picks the ally, the action card the bar."),
    'death': ('spires_end', "A dead ally's death move, before the next ally takes its place."),
    'select': ('spires_end', 'The selection roll, for a story card that asks which ally: 1-4 Ally 1, 5-8 Ally 2.'),
    'gain': ('things', "Gain gold, feats, bees, pollen, meat or pelts (within the rulebook's limits)."),
    'spend': ('things', 'Spend gold, feats, bees, pollen, meat or pelts.'),
    'ally': ('things', 'An ally joins the party, with the thresholds printed on the card.'),
    'note': ('things', 'Write a note into the journal.'),
    'undo': ('things', 'Take back the latest action. It stays in the log, marked undone.'),
    'checkpoint': ('time', 'Mark the current position, to rewind to later.'),
    'checkpoints': ('time', 'The checkpoints this branch can rewind to, with position, card and time.'),
    'rewind': ('time', 'Go back to a checkpoint in a new branch, made current; the branch left is kept.'),
    'branches': ('time', 'The tree of branches: parent, fork position, head, current card; * marks the current.'),
    'switch': ('time', 'Make another branch of the campaign the current one.'),
    'replay': ('time', 'The campaign as a play-by-play: each event as a sentence, and what it changed.'),
    'diff': ('time', "Where two branches part, each one's path since, and how they differ now."),
    'export': ('transfer', "Write the campaign's events as JSON Lines, one event a line, with their hashes."),
    'import': ('transfer', 'Read an exported file into a new campaign, after checking every hash.'),
    'card': ('cards', 'The card catalog: cards entered once with their printed numbers, reused by name.'),
    'item': ('things', 'Items: gain, lose, or pass one to another character.'),
}
