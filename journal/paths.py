"""Where the data shipped with spire lives: inside the installed package, or beside it
in a source checkout (the repository keeps rules/ and migrations/ at its top level)."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def shipped(name: str) -> Path:
    """The directory `name` (rules or migrations) that ships with this copy of spire."""
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"spire is missing its {name}/ directory")
