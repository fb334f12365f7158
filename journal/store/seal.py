"""The seal: each branch's head, position and hash, kept in a small file beside the
journal (JOURNAL.seal), so an edit a hash chain inside the journal cannot see alone (the
last event deleted and the head moved back, a forged event chained on, every hash
recomputed after an edit) is found by `spire audit`. The store renews it as it writes;
this module knows its format and nothing of SQL.

The format (version 2) is JSON Lines: the first line is the whole seal as last written
whole (`{"spire-seal": 2, "campaigns": {...}, "disagreed": [...]}`); each later line is
what one write renewed, of the same shape without the version (the heads it moved, what
it found changed), appended in place and synced. Read in order, later heads win. A last
line without its newline is a write cut short (its transaction never committed) and is
not part of the seal. Version 1 (one indented JSON document) still reads."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SEAL_VERSION = 2
READ_VERSIONS = (1, 2)

Heads = dict[tuple[str, str], tuple[int, str]]
"""(campaign, branch) -> (head position, head hash)."""


@dataclass(frozen=True)
class Disagreed:
    """A write found a branch's head other than the one sealed: kept in the seal for good,
    so the write that renews the seal does not hide what was changed before it."""

    campaign: str
    branch: str
    sealed: tuple[int, str]
    found: tuple[int, str]


@dataclass(frozen=True)
class Sealed:
    """The seal kept beside a journal: where, the heads it vouches for (None when there is
    none that reads), why there is none, and the heads writes found changed."""

    where: str | None
    heads: Heads | None
    trouble: str | None = None
    disagreed: tuple[Disagreed, ...] = ()
    renewals: int | None = None
    """How many renewals follow the whole seal, when one more can be appended to it (None
    when the next write must write it whole: none yet, an older version, a line cut
    short)."""


def text(heads: Heads, disagreed: Sequence[Disagreed]) -> str:
    """The whole seal's text, one line: by campaign and branch, each head and its hash;
    then what writes found changed."""
    return _line({"spire-seal": SEAL_VERSION, **_body(heads, disagreed)})


def renewal(heads: Heads, disagreed: Sequence[Disagreed]) -> str:
    """The line one write appends: the heads it moved and what it found changed."""
    return _line(_body(heads, disagreed))


def _body(heads: Heads, disagreed: Sequence[Disagreed]) -> dict[str, Any]:
    campaigns_: dict[str, dict[str, dict[str, Any]]] = {}
    for (campaign, branch), (head, digest) in sorted(heads.items()):
        campaigns_.setdefault(campaign, {})[branch] = {"head": head, "hash": digest}
    found = [{"campaign": d.campaign, "branch": d.branch, "sealed": list(d.sealed),
              "found": list(d.found)} for d in disagreed]
    return {"campaigns": campaigns_, "disagreed": found}


def _line(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False) + "\n"


def _disagreed(data: Any) -> tuple[Disagreed, ...]:
    return tuple(Disagreed(d["campaign"], d["branch"], _head(d["sealed"]), _head(d["found"]))
                 for d in data.get("disagreed", ()))


def _head(pair: Any) -> tuple[int, str]:
    return int(pair[0]), str(pair[1])


def _heads(data: Any) -> Heads:
    return {(campaign, branch): (int(sealed["head"]), str(sealed["hash"]))
            for campaign, kept in data["campaigns"].items() for branch, sealed in kept.items()}


def _version(data: Any) -> int:
    if data["spire-seal"] not in READ_VERSIONS:
        raise ValueError(f"seal version {data['spire-seal']!r}")
    return int(data["spire-seal"])


def read(path: Path) -> Sealed:
    """The seal kept at `path`: what it vouches for, or why there is none."""
    try:
        return parsed(str(path), path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Sealed(str(path), None, f"there is no seal beside the journal ({path})")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        return Sealed(str(path), None, f"the seal {path} does not read ({e})")


def parsed(where: str, text: str) -> Sealed:
    """The seal in `text`: its whole seal and the renewals after it, in order (a last line
    cut short left out); or version 1's one document. ValueError (and KeyError, TypeError)
    when it does not read."""
    lines = text.split("\n")
    cut = lines.pop()  # "" when the last line ended, as every whole one does
    lines = [line for line in lines if line.strip()]  # a blank line says nothing
    try:
        first = json.loads(lines[0]) if lines else None
    except ValueError:
        first = None  # version 1 spreads its one document over many lines
    if not isinstance(first, dict) or first.get("spire-seal") != SEAL_VERSION:
        data = json.loads(text)
        _version(data)
        return Sealed(where, _heads(data), None, _disagreed(data))
    heads: Heads = {}
    disagreed: list[Disagreed] = []
    for line in lines:
        data = json.loads(line)
        heads.update(_heads(data))
        disagreed += _disagreed(data)
    return Sealed(where, heads, None, tuple(disagreed), None if cut else len(lines) - 1)


def beside(journal: Path) -> Path:
    """Where the seal of the journal file `journal` is kept."""
    return journal.with_name(f"{journal.name}.seal")
