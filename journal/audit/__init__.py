"""The audit: was every step legal, has the log been edited? Pure: it reads the rows the
service hands it, exactly as stored, and never writes.

- Integrity: each branch's hash chain, contiguous positions, the fork point continuing the
  parent's chain, the head matching the last event, every payload valid.
- Legality: each event re-decided by the game's rules against the state before it. A rule
  the event breaks is a finding unless it was recorded with `--force` (then an override).
- Plausibility: the faces each kind of die showed against the die's own shares, with a
  chi-squared test once there are enough dice: information, never a finding.
- The seal: each branch's head against the seal kept beside the journal, and against a
  head hash the players give (`--expect`): what a chain kept in the same file cannot see
  alone (the last event deleted and the head moved back, a forged event chained on, every
  hash recomputed after an edit).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from journal.audit.model import (
    BranchRows,
    Checked,
    Finding,
    Kind,
    Overridden,
    Reader,
    Report,
    Retraction,
    Row,
    lineage,
    row_at,
    scope,
)
from journal.audit.recheck import die_kinds
from journal.audit.walk import Walk
from journal.core import dice_stats
from journal.core.dice_stats import DiceStats

if TYPE_CHECKING:
    from journal.store.seal import Marks, Sealed

__all__ = ["BranchRows", "Checked", "Finding", "Kind", "Overridden", "Reader", "Report",
           "Retraction", "Row", "audit"]


# -- the audit ---------------------------------------------------------------------------

def audit(campaign: str, game: str, tree: Sequence[BranchRows], reader: Reader,
          branch: str | None = None, sealed: Sealed | None = None,
          expect: str | None = None,
          keep: Mapping[str, Collection[int]] | None = None,
          campaigns: Collection[str] | None = None,
          marks: Mapping[str, Marks] | None = None) -> Report:
    """Audit `branch` (its own events and its ancestors' up to each fork), or every branch,
    reading each branch's rows once as they stream; with `sealed`, each whole branch
    against the seal (and the seal's branches, campaigns and checkpoints against the
    journal's: `campaigns` its names, `marks` each branch's own checkpoints); with
    `expect`, `branch`'s head against that hash; the state at each position of `keep` (by
    branch) is kept in the report's `states`."""
    walked = scope(tree, branch)
    keep = keep or {}
    forks: dict[int, set[int]] = {}  # each branch's positions its children fork at
    for b, _ in walked:
        if b.parent_id is not None and b.fork is not None:
            forks.setdefault(b.parent_id, set()).add(b.fork)
    walks: list[Walk] = []
    for b, limit in walked:  # parents first: a child starts from its parent's fold
        parent = next((w for w in walks if w.branch.id == b.parent_id), None)
        start = parent.legality.states.get(b.fork) if parent is not None and b.fork else None
        walks.append(Walk(reader, tree, b, limit,
                          {*keep.get(b.name, ()), *forks.get(b.id, ())}, start))
    findings = [f for w in walks for f in w.findings]
    if sealed is not None:
        findings += _against_seal(campaign, reader, tree,
                                  [b for b, limit in walked if limit is None], sealed,
                                  campaigns, marks)
    if expect is not None and branch is not None:
        findings += _against_expected(reader, tree, next(b for b in tree if b.name == branch),
                                      expect)
    return Report(
        campaign, game, tuple(w.checked() for w in walks),
        tuple(findings), tuple(o for w in walks for o in w.legality.overrides),
        tuple(r for w in walks for r in w.legality.retractions), _dice(walks),
        {(w.branch.name, at): state for w in walks for at, state in w.legality.states.items()})


# -- the seal ----------------------------------------------------------------------------

def _against_seal(campaign: str, reader: Reader, tree: Sequence[BranchRows],
                  whole: Sequence[BranchRows], sealed: Sealed,
                  campaigns: Collection[str] | None,
                  marks: Mapping[str, Marks] | None = None) -> list[Finding]:
    """Each whole branch's head against the head the seal keeps for it (a journal that is
    not a file, such as a PostgreSQL one, has none: only --expect checks its heads); each
    branch and campaign the seal keeps, against the journal's (`campaigns`: its
    campaigns' names, None if not known)."""
    if sealed.where is None:
        return []
    if sealed.heads is None:
        return [Finding("integrity", b.name, b.head, f"{sealed.trouble}: the head cannot "
                        "be checked against a seal") for b in whole]
    found = []
    names = {b.name for b in whole}
    for was in sealed.disagreed:
        if was.campaign == campaign and was.branch in names:
            (head, digest), (had, had_hash) = was.sealed, was.found
            found.append(Finding(
                "integrity", was.branch, min(head, had) + (head != had),
                f"when spire last wrote here the journal was not as sealed: the seal said "
                f"#{head} (hash {digest[:12]}...), the journal had #{had} (hash "
                f"{had_hash[:12]}...): changed outside spire"))
    for branch in whole:
        kept = sealed.heads.get((campaign, branch.name))
        if kept is None:
            found.append(Finding("integrity", branch.name, branch.head,
                                 "the branch is not in the seal: made outside spire"))
        else:
            found += _sealed_head(reader, tree, branch, *kept,
                                  sealed.past.get((campaign, branch.name), {}))
        sealed_marks = sealed.marks.get((campaign, branch.name))
        if marks is not None and sealed_marks is not None:
            found += _sealed_marks(branch, sealed_marks, marks.get(branch.name, ()))
    return found + _gone(campaign, tree, sealed, campaigns)


def _sealed_marks(branch: BranchRows, sealed: Marks, held: Marks) -> list[Finding]:
    """A branch's own checkpoints against those the seal keeps: nothing in spire deletes,
    renames or moves one."""
    if tuple(held) == tuple(sealed):
        return []
    differ = set(held) ^ set(sealed)
    at = min((position for _, position in differ), default=branch.head)
    return [Finding("integrity", branch.name, at,
                    f"the checkpoints are not as sealed: the seal keeps {_marked(sealed)}, the "
                    f"journal has {_marked(held)}: deleted, renamed or moved outside spire")]


def _marked(marks: Marks) -> str:
    return ", ".join(f"{name!r} at #{position}" for name, position in marks) or "none"


def _gone(campaign: str, tree: Sequence[BranchRows], sealed: Sealed,
          campaigns: Collection[str] | None) -> list[Finding]:
    """The branches of the campaign, and the campaigns, the seal keeps and the journal
    does not: nothing in spire deletes one."""
    assert sealed.heads is not None
    there = {b.name for b in tree}
    found = [Finding("integrity", branch, head,
                     f"the seal keeps branch {branch!r} (head #{head}, hash {digest[:12]}...), "
                     "which the journal does not have: deleted outside spire")
             for (owner, branch), (head, digest) in sorted(sealed.heads.items())
             if owner == campaign and branch not in there]
    if campaigns is None:
        return found
    missing: dict[str, list[tuple[str, int]]] = {}
    for (owner, branch), (head, _) in sorted(sealed.heads.items()):
        if owner != campaign and owner not in campaigns:
            missing.setdefault(owner, []).append((branch, head))
    for owner, kept in missing.items():
        first, head = kept[0]
        heads = ", ".join(f"{branch} #{at}" for branch, at in kept)
        found.append(Finding("integrity", first, head,
                             f"the seal keeps campaign {owner!r} ({heads}), which the journal "
                             "does not have: deleted outside spire"))
    return found


def _sealed_head(reader: Reader, tree: Sequence[BranchRows], branch: BranchRows, head: int,
                 digest: str, past: Mapping[int, str]) -> list[Finding]:
    def find(position: int, message: str) -> list[Finding]:
        return [Finding("integrity", branch.name, position, message)]

    at = row_at(reader, tree, branch, head) if head > 0 else None
    if at is None and 0 < head <= branch.head:
        return []  # the sealed head's row is gone: the chain's own check names the gap
    there = at.hash if at is not None else digest
    if head > branch.head:
        return find(branch.head + 1, f"{_missing(branch.head + 1, head)} from the journal: the "
                    f"seal says the head is #{head}, the journal's is #{branch.head}")
    if there != digest:
        first, last, mine = _rewritten(reader, tree, branch, {**past, head: digest})
        began = f"at #{last}" if first == last else f"somewhere in #{first} to #{last}"
        intact = f" (#{first - 1} is as sealed)" if first > 1 else ""
        return find(first, f"#{last} is not the event sealed there (hash {mine[:12]}..., "
                    f"the journal's {_hash_at(reader, tree, branch, last)[:12]}...): "
                    f"rewritten outside spire: the edit began {began}{intact}")
    if head < branch.head:
        return find(head + 1, f"{_events(head + 1, branch.head)} past the sealed head "
                    f"#{head}: appended outside spire")
    return []


def _rewritten(reader: Reader, tree: Sequence[BranchRows], branch: BranchRows,
               sealed: Mapping[int, str]) -> tuple[int, int, str]:
    """Where an edit the chain was recomputed after can have begun: after the latest head
    the seal kept that the journal still has (`first`, the position after it), at or before
    the earliest it kept that the journal has otherwise (`last`, whose sealed hash is
    `mine`)."""
    first, last, mine = 1, 0, ""
    for at in sorted(sealed):
        if at > branch.head:
            break
        if _hash_at(reader, tree, branch, at) == sealed[at]:
            first = at + 1
            continue
        last, mine = at, sealed[at]
        break
    return first, last, mine


def _hash_at(reader: Reader, tree: Sequence[BranchRows], branch: BranchRows, at: int) -> str:
    row = row_at(reader, tree, branch, at)
    return row.hash if row is not None else ""


def _against_expected(reader: Reader, tree: Sequence[BranchRows], branch: BranchRows,
                      expect: str) -> list[Finding]:
    """`branch`'s head against the hash the players kept (a prefix of 8 or more digits)."""
    wanted = expect.strip().lower()
    if branch.head_hash.startswith(wanted):
        return []
    owners = [*lineage(tree, branch), (branch, branch.head)]
    at = next((r.position for owner, limit in owners for r in reader.rows(owner)
               if r.position <= limit and r.hash.startswith(wanted)), None)
    if at is not None:
        return [Finding("integrity", branch.name, at + 1,
                        f"the head expected is #{at} (hash {wanted[:12]}...); "
                        f"{_events(at + 1, branch.head)} came after it")]
    return [Finding("integrity", branch.name, branch.head,
                    f"no event of the branch has the hash expected ({wanted[:12]}...): the "
                    "history was rewritten, or the hash is another journal's")]


def _missing(first: int, last: int) -> str:
    return f"#{first} is missing" if first == last else f"#{first} to #{last} are missing"


def _events(first: int, last: int) -> str:
    return f"#{first}" if first == last else f"#{first} to #{last}"




# -- dice --------------------------------------------------------------------------------

def _dice(walks: Sequence[Walk]) -> tuple[DiceStats, ...]:
    """Each kind of die's faces, from every event that rolled one (players' and enemies')."""
    found = []
    for kind in die_kinds():
        faces: Counter[str] = Counter()
        for walk in walks:
            faces.update(walk.legality.dice.get(kind.name, {}))
        if faces:
            found.append(dice_stats.stats(kind.name, faces, kind.printed))
    return tuple(found)
