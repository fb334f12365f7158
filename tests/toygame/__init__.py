"""Coin Tally, a game no one ships: a deck, one counter (coins), one event (a coin
tossed) and one rule ("Toss the coin once per card"). Registered by its test, it proves
the seam: the core keeps it with no change outside this package.
"""

from pathlib import Path

from journal.games import load

GAME = load("tally", Path(__file__).with_name("rules.toml"))
