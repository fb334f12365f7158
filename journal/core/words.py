"""Counts said as people say them: "1 feat", "2 feats", "1 die", "3 dice"."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

IRREGULAR = {"die": "dice", "enemy": "enemies", "ally": "allies", "was": "were", "is": "are"}


def possessive(name: str) -> str:
    """"The Crows'", "Hildegard's": a name ending in s takes the apostrophe alone, as the
    rulebooks write it ("The Crows' Face-Off Card")."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def plural(count: int, word: str) -> str:
    """`count` and `word`, the word in the plural unless the count is one."""
    return f"{count} {word if count == 1 else many(word)}"


def many(word: str) -> str:
    return IRREGULAR.get(word, word if word.endswith("s") else f"{word}s")


def numbered(word: str, numbers: Sequence[int]) -> str:
    """A word and the numbers it names, the word in the plural unless there is one:
    "die 3", "dice 1, 3"."""
    return f"{word if len(numbers) == 1 else many(word)} {', '.join(map(str, numbers))}"


def given(count: int, word: str) -> str:
    """"1 face was given", "2 faces were given"."""
    return f"{plural(count, word)} {'was' if count == 1 else 'were'} given"


def against(count: int, limit: int, word: str) -> str:
    """A count against its limit: "1 of 2 bullseyes"; past it, "3 bullseyes, limit 2"."""
    if count <= limit:
        return f"{count} of {plural(limit, word)}"
    return f"{plural(count, word)}, limit {limit}"


def counted(amount: int, resource: str) -> str:
    """A resource counted: "1 feat", "2 feats", "3 gold" (its name is the plural)."""
    return f"{amount} {resource[:-1] if amount == 1 and resource.endswith('s') else resource}"


def percent(chance: dict[str, Any]) -> str:
    """A chance as `spire odds --json` gives it, in percent to a tenth: "12.5%"."""
    return f"{100 * chance['value']:.1f}%"


def listed(words: Sequence[str], last: str = "and") -> str:
    """Words as a sentence lists them: "hildegard", "hildegard or volume2", "a, b or c"."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"
