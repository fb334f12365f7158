"""spire: the campaign journal for the Spire's End tabletop games."""

__version__ = "0.1.0"

PROJECTION_VERSION = 7
"""Bump when `evolve` changes what it computes: older snapshots and glances are then
ignored. (Here, not in journal.core.state, so that a glance can be checked without the rules.)"""
