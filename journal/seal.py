"""The seal: each branch's head, position and hash, kept in a small file beside the
journal (JOURNAL.seal), so an edit a hash chain inside the journal cannot see alone (the
last event deleted and the head moved back, a forged event chained on, every hash
recomputed after an edit) is found by `spire audit`. The store renews it as it writes;
this module knows its format and nothing of SQL."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SEAL_VERSION = 1

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


def text(heads: Heads, disagreed: Sequence[Disagreed]) -> str:
    """The seal file's text: by campaign and branch, each head and its hash; then what
    writes found changed."""
    campaigns_: dict[str, dict[str, dict[str, Any]]] = {}
    for (campaign, branch), (head, digest) in sorted(heads.items()):
        campaigns_.setdefault(campaign, {})[branch] = {"head": head, "hash": digest}
    found = [{"campaign": d.campaign, "branch": d.branch, "sealed": list(d.sealed),
              "found": list(d.found)} for d in disagreed]
    return json.dumps({"spire-seal": SEAL_VERSION, "campaigns": campaigns_,
                       "disagreed": found}, indent=1, ensure_ascii=False) + "\n"


def _disagreed(data: Any) -> tuple[Disagreed, ...]:
    return tuple(Disagreed(d["campaign"], d["branch"], _head(d["sealed"]), _head(d["found"]))
                 for d in data.get("disagreed", ()))


def _head(pair: Any) -> tuple[int, str]:
    return int(pair[0]), str(pair[1])


def _heads(data: Any) -> Heads:
    if data["spire-seal"] != SEAL_VERSION:
        raise ValueError(f"seal version {data['spire-seal']!r}")
    return {(campaign, branch): (int(sealed["head"]), str(sealed["hash"]))
            for campaign, kept in data["campaigns"].items() for branch, sealed in kept.items()}


def read(path: Path) -> Sealed:
    """The seal kept at `path`: what it vouches for, or why there is none."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Sealed(str(path), _heads(data), None, _disagreed(data))
    except FileNotFoundError:
        return Sealed(str(path), None, f"there is no seal beside the journal ({path})")
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        return Sealed(str(path), None, f"the seal {path} does not read ({e})")


def beside(journal: Path) -> Path:
    """Where the seal of the journal file `journal` is kept."""
    return journal.with_name(f"{journal.name}.seal")
