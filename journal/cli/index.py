"""Every command of the core (a game's own are in its package's index.py): the module under
journal.cli that defines it, and the first paragraph of its help (None for a hidden one),
so `spire --help` lists the commands without importing them and `spire NAME` imports only
NAME's module.

Generated; do not edit it by hand. Regenerate it with

    python -m journal.cli.reference --index
"""

COMMANDS: dict[str, tuple[str, str | None]] = {
    'audit': ('audit', 'Check the journal: nothing edited, every step legal; list overrides, undos and dice.'),
    'new': ('campaigns', 'Start a campaign and make it the current one.'),
    'campaigns': ('campaigns', 'List the campaigns in the journal; * marks the current one.'),
    'use': ('campaigns', 'Make NAME the current campaign.'),
    'demo': ('campaigns', "Play a short stretch of a campaign into the game's demo campaign, to watch."),
    'where': ('campaigns', 'Which journal is in use: its file (or database), size, schema revision, campaigns.'),
    'info': ('campaigns', None),
    'reveal': ('deck', "Advance to card N (in Spire's End, the cards in between leave the game)."),
    'pull': ('deck', 'Draw card N out of sequence; `spire return` goes back to the card it interrupted. A card of an unnumbered deck is pulled by its deck and name.'),
    'return': ('deck', 'Go back from a pulled card to the card it interrupted.'),
    'discard': ('deck', 'Discard card N (in some games this removes it from the game), or a milestone in play.'),
    'retrieve': ('deck', 'Retrieve a played card, a milestone, or a set of event cards by name.'),
    'chapter': ('deck', 'Begin chapter N; its start is recorded as the checkpoint chapter-N.'),
    'map': ('insight', "The story cards every road reached: across the campaign's branches and every campaign of its game in the journal, by chapter, how often and when first."),
    'odds': ('insight', 'Exact chances from where the players stand, with the best finesse.'),
    'status': ('looking', 'Where the campaign stands: card, chapter, resources, characters, items.'),
    'log': ('looking', 'The events of the current branch, undone ones marked.'),
    'watch': ('looking', 'Follow the campaign live: its status and latest events, again whenever anyone appends.'),
    'show': ('looking', 'One event in full: its payload, time, override and hashes.'),
    'play': ('play', 'A shell inside the current campaign: the same commands, without `spire`.'),
    'report': ('report', "A play report to keep or share: the story of the session in order (cards, chapters, checkpoints, notes), each encounter step by step, resources, items, overrides and undos, dice statistics and the players' luck."),
    'gain': ('things', "Gain gold, feats, bees, pollen, meat or pelts (within the rulebook's limits)."),
    'spend': ('things', 'Spend gold, feats, bees, pollen, meat or pelts.'),
    'note': ('things', 'Write a note into the journal.'),
    'undo': ('things', 'Take back the latest action. It stays in the log, marked undone.'),
    'redo': ('things', 'Take back the latest undo: the action it undid is recorded again, as it was.'),
    'checkpoint': ('time', 'Mark the current position, to rewind to later.'),
    'checkpoints': ('time', 'The checkpoints this branch can rewind to, with position, card and time.'),
    'rewind': ('time', 'Go back to a checkpoint or any event in a new branch, made current; the branch left is kept.'),
    'branches': ('time', 'The tree of branches: parent, fork position, head, current card; * marks the current.'),
    'switch': ('time', 'Make another branch of the campaign the current one.'),
    'replay': ('time', 'The campaign as a play-by-play: each event as a sentence, and what it changed.'),
    'diff': ('time', "Where two branches part, each one's path since, and how they differ now."),
    'export': ('transfer', "Write the campaign's events as JSON Lines, one event a line, with their hashes."),
    'import': ('transfer', 'Read an exported file into a new campaign, after checking every hash.'),
    'help': ('helping', "The commands panel by panel, or one command's help (as `spire COMMAND --help`): the core's and the campaign's game's (every game's, by panel, with no campaign)."),
    'completion': ('helping', "Print the script that makes SHELL complete spire's commands, options and names."),
    'serve': ('serving', "Serve the campaign's live page and its history to a browser: the tablet or the TV."),
    'card': ('cards', "The card catalog: cards entered once with their printed numbers, reused by name (`card add` takes the campaign's game's numbers: `spire card add --help`)."),
    'item': ('things', "Items: gain, lose, or pass one to another character (and the game's own: use)."),
    'branch': ('time', 'A branch by name: rename one (`spire branches` lists them).'),
}
