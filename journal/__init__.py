"""spire: the campaign journal for the Spire's End tabletop games."""

__version__ = "0.1.0"
