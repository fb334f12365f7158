"""Every command of the core (a game's own are in its package's index.py): the module under
journal.cli that defines it, and the first paragraph of its help (None for a hidden one),
so `spire --help` lists the commands without importing them and `spire NAME` imports only
NAME's module.

Generated; do not edit it by hand. Regenerate it with

    python -m journal.cli.reference --index
"""

COMMANDS: dict[str, tuple[str, str | None]] = {
    'audit': ('audit', 'Check the journal: nothing edited, every step legal.'),
    'new': ('campaigns', 'Start a campaign and make it the current one.'),
    'campaigns': ('campaigns', 'List the campaigns in the journal; * marks the current one.'),
    'use': ('campaigns', 'Make NAME the current campaign.'),
    'demo': ('campaigns', 'Play a short stretch of a campaign, to watch.'),
    'where': ('campaigns', 'Which journal is in use, and what it holds.'),
    'info': ('campaigns', None),
    'reveal': ('deck', 'Advance to card N.'),
    'pull': ('deck', 'Draw card N out of sequence.'),
    'return': ('deck', 'Go back from a pulled card to the card it interrupted.'),
    'discard': ('deck', 'Discard card N, or a milestone in play.'),
    'retrieve': ('deck', 'Retrieve a played card, a milestone, or event cards.'),
    'chapter': ('deck', 'Begin chapter N.'),
    'map': ('insight', 'The story cards every road reached, chapter by chapter.'),
    'odds': ('insight', 'Exact chances from where the players stand.'),
    'status': ('looking', 'Where the campaign stands.'),
    'log': ('looking', 'The events of the current branch, undone ones marked.'),
    'watch': ('looking', 'Follow the campaign live: its status and latest events.'),
    'show': ('looking', 'One event in full: its payload, time, override and hashes.'),
    'play': ('play', 'A shell inside the current campaign.'),
    'report': ('report', 'A play report of the session, to keep or share.'),
    'gain': ('things', 'Gain gold, feats, bees, pollen, meat or pelts.'),
    'spend': ('things', 'Spend gold, feats, bees, pollen, meat or pelts.'),
    'note': ('things', 'Write a note into the journal.'),
    'undo': ('things', 'Take back the latest action. It stays in the log, marked undone.'),
    'redo': ('things', 'Take back the latest undo.'),
    'checkpoint': ('time', 'Mark the current position, to rewind to later.'),
    'checkpoints': ('time', 'The checkpoints this branch can rewind to.'),
    'rewind': ('time', 'Go back to a checkpoint or any event, in a new branch.'),
    'branches': ('time', 'The tree of branches; * marks the current one.'),
    'switch': ('time', 'Make another branch of the campaign the current one.'),
    'replay': ('time', 'The campaign as a play-by-play, event by event.'),
    'diff': ('time', 'Where two branches part, and how they differ now.'),
    'export': ('transfer', "Write the campaign's events as JSON Lines."),
    'import': ('transfer', 'Read an exported file into a new campaign.'),
    'help': ('helping', "The commands panel by panel, or one command's help."),
    'completion': ('helping', 'Print the completion script for SHELL.'),
    'serve': ('serving', "Serve the campaign's live page and history to a browser."),
    'card': ('cards', 'The card catalog: cards entered once, reused by name.'),
    'item': ('things', 'Items: gain, lose, or pass one to another character.'),
    'branch': ('time', 'A branch by name: rename one (`spire branches` lists them).'),
}
