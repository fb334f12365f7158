"""The seal: each branch's head, position and hash, kept in a small file beside the
journal (JOURNAL.seal), so an edit a hash chain inside the journal cannot see alone (the
last event deleted and the head moved back, a forged event chained on, every hash
recomputed after an edit, a branch or a campaign deleted) is found by `spire audit`. The
store renews it as it writes; this module knows its format and nothing of SQL.

The format (version 2) is JSON Lines: the first line is the whole seal as last written
whole (`{"spire-seal": 2, "campaigns": {...}, "disagreed": [...]}`); each later line is
what one write renewed, of the same shape without the version (the heads it moved and
their own checkpoints, what it found changed), appended in place and synced. Read in
order, later heads win. A last line without its newline is a write cut short (its
transaction never committed) and is not part of the seal. Version 1 (one indented JSON
document) still reads.

A write seals before it commits, so a line may be ahead of the journal: each line a write
seals carries `"pending": {"write": ID, "before": {...}}`, the heads of the branches it
moves as they were before it (null: a branch it makes), and once its transaction has
committed the write appends `{"campaigns": {}, "disagreed": [], "committed": ID}`. Only
the last write's line can be left pending (each write looks at it first, under the write
lock): `resolved` reads it against the journal's heads. The whole seal also keeps, for
each branch, a few of its earlier heads (`"past"`, thinned to about two per power of two
back from the head), so an edit and every hash recomputed after it is placed."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

SEAL_VERSION = 2
READ_VERSIONS = (1, 2)

Head = tuple[int, str]
"""A branch's head: its position and its hash."""
Key = tuple[str, str]
"""(campaign, branch)."""
Heads = dict[Key, Head]
"""(campaign, branch) -> (head position, head hash)."""
Past = dict[Key, dict[int, str]]
"""(campaign, branch) -> the earlier heads sealed, position -> hash."""
Marks = tuple[tuple[str, int], ...]
"""A branch's own checkpoints, name and position, in position order."""


@dataclass(frozen=True)
class Disagreed:
    """A write found a branch's head other than the one sealed: kept in the seal for good,
    so the write that renews the seal does not hide what was changed before it."""

    campaign: str
    branch: str
    sealed: Head
    found: Head


@dataclass(frozen=True)
class Pending:
    """The last write's line, sealed before its commit and not yet said committed: the
    write's id and the heads it moved as they were before it (None: a branch it made)."""

    write: str
    before: dict[Key, Head | None]
    marks: dict[Key, Marks] = field(default_factory=dict)
    """The checkpoints of the branches it moved before it, as the seal kept them."""


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
    pending: Pending | None = None
    """The last write's line, if it is not said committed (its heads are in `heads`)."""
    past: Past = field(default_factory=dict)
    """Earlier heads the seal kept, by branch."""
    unfinished: str | None = None
    """Set by `resolved`: the write the seal was ahead by, which never committed."""
    marks: dict[Key, Marks] = field(default_factory=dict)
    """Each branch's own checkpoints (a branch an older spire sealed last: not known)."""


def text(heads: Heads, disagreed: Sequence[Disagreed], pending: Pending | None = None,
         past: Past | None = None, marks: Mapping[Key, Marks] | None = None) -> str:
    """The whole seal's text, one line: by campaign and branch, each head and its hash
    (its checkpoints, a few earlier heads); then what writes found changed; and the write
    it seals, pending its commit."""
    return _line({"spire-seal": SEAL_VERSION,
                  **_body(heads, disagreed, pending, past, marks)})


def renewal(heads: Heads, disagreed: Sequence[Disagreed], pending: Pending | None = None,
            marks: Mapping[Key, Marks] | None = None) -> str:
    """The line one write appends: the heads it moved (and their checkpoints) and what it
    found changed, pending its commit."""
    return _line(_body(heads, disagreed, pending, None, marks))


def committed(write: str) -> str:
    """The line a write appends once its transaction committed."""
    return _line({"campaigns": {}, "disagreed": [], "committed": write})


def _body(heads: Heads, disagreed: Sequence[Disagreed], pending: Pending | None = None,
          past: Past | None = None, marks: Mapping[Key, Marks] | None = None,
          ) -> dict[str, Any]:
    campaigns_: dict[str, dict[str, dict[str, Any]]] = {}
    for (campaign, branch), (head, digest) in sorted(heads.items()):
        kept: dict[str, Any] = {"head": head, "hash": digest}
        if marks is not None and (campaign, branch) in marks:
            kept["checkpoints"] = [list(m) for m in marks[(campaign, branch)]]
        earlier = (past or {}).get((campaign, branch))
        if earlier:
            kept["past"] = [[at, earlier[at]] for at in sorted(earlier)]
        campaigns_.setdefault(campaign, {})[branch] = kept
    found = [{"campaign": d.campaign, "branch": d.branch, "sealed": list(d.sealed),
              "found": list(d.found)} for d in disagreed]
    body: dict[str, Any] = {"campaigns": campaigns_, "disagreed": found}
    if pending is not None:
        before: dict[str, dict[str, list[Any] | None]] = {}
        for (campaign, branch), was in sorted(pending.before.items()):
            before.setdefault(campaign, {})[branch] = None if was is None else list(was)
        body["pending"] = {"write": pending.write, "before": before, "marks": _nested(
            {key: [list(m) for m in found] for key, found in pending.marks.items()})}
    return body


def _nested(by_key: Mapping[Key, Any]) -> dict[str, dict[str, Any]]:
    nested: dict[str, dict[str, Any]] = {}
    for (campaign, branch), value in sorted(by_key.items()):
        nested.setdefault(campaign, {})[branch] = value
    return nested


def _marks_of(kept: Any) -> Marks:
    return tuple((str(name), int(at)) for name, at in kept)


def _marks(data: Any) -> dict[Key, Marks]:
    return {(campaign, branch): _marks_of(sealed["checkpoints"])
            for campaign, kept in data["campaigns"].items() for branch, sealed in kept.items()
            if "checkpoints" in sealed}


def _line(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False) + "\n"


def _disagreed(data: Any) -> tuple[Disagreed, ...]:
    return tuple(Disagreed(d["campaign"], d["branch"], _head(d["sealed"]), _head(d["found"]))
                 for d in data.get("disagreed", ()))


def _head(pair: Any) -> Head:
    return int(pair[0]), str(pair[1])


def _heads(data: Any) -> Heads:
    return {(campaign, branch): (int(sealed["head"]), str(sealed["hash"]))
            for campaign, kept in data["campaigns"].items() for branch, sealed in kept.items()}


def _past(data: Any, past: Past) -> None:
    """Every head `data` seals, and the earlier ones it keeps, added to `past`."""
    for campaign, kept in data["campaigns"].items():
        for branch, sealed in kept.items():
            earlier = past.setdefault((campaign, branch), {})
            for at, digest in sealed.get("past", ()):
                earlier[int(at)] = str(digest)
            earlier[int(sealed["head"])] = str(sealed["hash"])


def _pending(data: Any) -> Pending | None:
    found = data.get("pending")
    if found is None:
        return None
    return Pending(str(found["write"]), {
        (campaign, branch): None if was is None else _head(was)
        for campaign, kept in found["before"].items() for branch, was in kept.items()}, {
        (campaign, branch): _marks_of(marks)
        for campaign, kept in found.get("marks", {}).items() for branch, marks in kept.items()})


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
    past: Past = {}
    marks: dict[Key, Marks] = {}
    disagreed: list[Disagreed] = []
    pending: Pending | None = None
    renewals = -1
    for line in lines:
        data = json.loads(line)
        if "committed" in data:  # a write says it committed: its line is no longer ahead
            if pending is not None and pending.write == data["committed"]:
                pending = None
            continue
        renewals += 1
        heads.update(_heads(data))
        marks.update(_marks(data))
        _past(data, past)
        disagreed += _disagreed(data)
        pending = _pending(data)  # a later write looked at the one before, under the lock
    return Sealed(where, heads, None, tuple(disagreed), None if cut else renewals,
                  pending, past, marks=marks)


def resolved(sealed: Sealed, journal: Mapping[Key, Head],
             marks: Mapping[Key, Marks] | None = None) -> Sealed:
    """The seal as it vouches for the journal whose heads are `journal` (and whose
    branches' checkpoints are `marks`), the last write's line read against them: where
    every branch it moved is as the write found it (a branch it made, not there), the
    write never committed (a crash or a failed commit between the seal and the commit),
    and the seal vouches for the journal before it; where every one is as it wrote it, it
    committed. Anything else is no write's doing: the line is taken as sealed, and the
    audit finds what differs."""
    pending = sealed.pending
    if pending is None or sealed.heads is None:
        return sealed
    marks = marks or {}

    def found(key: Key) -> tuple[Head | None, Marks | None]:
        return journal.get(key), marks.get(key) if key in journal else None

    after = {key: (sealed.heads.get(key), sealed.marks.get(key)) for key in pending.before}
    before = {key: (was, pending.marks.get(key) if was is not None else None)
              for key, was in pending.before.items()}
    if any(_unlike(found(key), after[key]) for key in pending.before) \
            and not any(_unlike(found(key), before[key]) for key in pending.before):
        return _unwritten(sealed, pending)
    return replace(sealed, pending=None)


def _unlike(found: tuple[Head | None, Marks | None], kept: tuple[Head | None, Marks | None],
            ) -> bool:
    """Whether the journal's head and checkpoints differ from those kept (checkpoints
    not kept, by an older spire, are not compared)."""
    return found[0] != kept[0] or (kept[1] is not None and found[1] != kept[1])


def _unwritten(sealed: Sealed, pending: Pending) -> Sealed:
    """The seal without the pending write's line, which never committed."""
    assert sealed.heads is not None
    heads = dict(sealed.heads)
    marks = dict(sealed.marks)
    past = {key: dict(earlier) for key, earlier in sealed.past.items()}
    for key, was in pending.before.items():
        left = sealed.heads.get(key)
        if was is None:
            heads.pop(key, None)
            past.pop(key, None)
            marks.pop(key, None)
            continue
        heads[key] = was
        if key in pending.marks:
            marks[key] = pending.marks[key]
        else:
            marks.pop(key, None)
        if left is not None and left != was:
            past.get(key, {}).pop(left[0], None)
    return replace(sealed, heads=heads, past=past, marks=marks, pending=None,
                   unfinished=_unfinished(sealed.heads, pending))


def _unfinished(heads: Heads, pending: Pending) -> str:
    where = ", ".join(f"{branch} #{heads[(campaign, branch)][0]} of {campaign!r}"
                      for campaign, branch in sorted(pending.before) if (campaign, branch) in heads)
    return f"the seal was one write ahead of the journal ({where}): a write that never committed"


def thinned(past: Mapping[int, str], head: int) -> dict[int, str]:
    """The earlier heads the whole seal keeps of a branch at `head`: the earliest and the
    latest in each stretch of a power of two back from the head (#head-1, #head-2 to -3,
    -4 to -7...), so about two for each doubling of the branch, and an edit found is placed
    within about half its distance from the head."""
    kept: dict[int, tuple[int, int]] = {}
    for at in past:
        if 0 < at < head:
            stretch = (head - at).bit_length()
            earliest, latest = kept.get(stretch, (at, at))
            kept[stretch] = (min(earliest, at), max(latest, at))
    return {at: past[at] for at in sorted({at for pair in kept.values() for at in pair})}


def beside(journal: Path) -> Path:
    """Where the seal of the journal file `journal` is kept."""
    return journal.with_name(f"{journal.name}.seal")
