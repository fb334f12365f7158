"""Export and import: a campaign as JSON Lines, one event a line, with its hashes.

An export holds every branch: the first branch's events (`main`), then for each other
branch a line naming it, its parent and the fork, and its own events; the last line is the
closing record, which says how many events each branch has, its head's hash and its
checkpoints. An import
checks every line before anything is written: the JSON, the fields, the positions, the
chain of hashes, every payload, and at the end the closing record, so a file cut short
(even at a line's end) is refused. The first fault is reported with its line number.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from datetime import datetime
from operator import itemgetter
from typing import Any, TextIO

from journal.core import chain
from journal.core import events as ev
from journal.core.chain import Closing, Mark, RawEvent, Section
from journal.core.words import plural
from journal.errors import BadInput, SpireError
from journal.store.schema import NAME_LONGEST
from journal.terminal import visible_json

FIELDS = ("seq", "type", "v", "payload", "recorded_at", "player", "override", "prev_hash", "hash")
KINDS: dict[str, tuple[type, ...]] = {
    "seq": (int,), "v": (int,), "payload": (dict,), "type": (str,), "recorded_at": (str,),
    "prev_hash": (str,), "hash": (str,), "player": (int, type(None)),
    "override": (str, type(None)),
}


Tree = Iterable[tuple["Section | None", Iterable[RawEvent], Iterable[Mark]]]
"""A campaign as exported: the first branch (no section), its events and checkpoints, then
each other branch's section, its own events and its own checkpoints, parents first."""


def dump(tree: Tree) -> Iterator[str]:
    """Each line of the export (without the newline): events, sections, the closing record.
    The control characters JSON leaves raw (C1) are escaped: the same value, and nothing a
    terminal acts on when the export is shown; the import hashes values, not spellings."""
    closing: list[Closing] = []
    for section, raw, marks in tree:
        name, head, digest = "main", 0, chain.GENESIS
        if section is not None:
            yield chain.canonical_json({"branch": section.name, "parent": section.parent,
                                        "fork": section.fork, "fork_hash": section.fork_hash})
            name, head, digest = section.name, section.fork, section.fork_hash
        count = 0
        for r in raw:
            yield visible_json(chain.canonical_json({
                "seq": r.position, "type": r.type, "v": r.v, "payload": r.payload,
                "recorded_at": r.recorded_at, "player": r.player, "override": r.override,
                "prev_hash": r.prev_hash, "hash": r.hash,
            }))
            count, head, digest = count + 1, r.position, r.hash
        kept = []
        for mark in marks:
            yield visible_json(chain.canonical_json(
                {"checkpoint": mark.name, "position": mark.position, "at": mark.created_at}))
            kept.append((mark.name, mark.position, mark.created_at))
        closing.append(Closing(name, count, head, digest, tuple(kept)))
    yield visible_json(chain.canonical_json({"closing": {"branches": [
        c.said() for c in closing]}}))


LONGEST_LINE = 1_000_000
"""An export's line is one event, a few hundred characters (an encounter's first event,
with its cards, a few thousand): a line longer than this is not an export's."""
LARGEST = 10**9
"""The largest position, version or player an import takes (the command line's limit)."""
DIGITS = sys.get_int_max_str_digits() or 4300


def lines(stream: TextIO, longest: int = LONGEST_LINE) -> Iterator[str]:
    """The lines of `stream`, each read no further than `longest` characters: a file that
    never ends a line (/dev/zero) is refused at that length, not read until memory runs out."""
    number = 0
    while line := stream.readline(longest + 1):
        number += 1
        if len(line) > longest:
            raise BadInput(f"line {number} is longer than {longest:,} characters; "
                           "an export's lines are shorter (not an export?)")
        yield line


def _said(value: int) -> str:
    return str(value) if abs(value) < 10**15 else f"of {len(str(abs(value)))} digits"


def parse(lines: Iterable[str]) -> Iterator[RawEvent | Section | Mark]:
    """Read an export as it comes, checking every line; `BadInput` names the first bad
    line (the import that reads it writes nothing then). Yields each event, and a
    `Section` where another branch's events begin; the closing record is checked, last."""
    reading = _Reading()
    prev, seq = chain.GENESIS, 0
    number = last = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        last = number
        try:
            if reading.closed:
                raise BadInput("the file goes on after its closing record")
            event = _event(line, seq + 1, prev)
            if isinstance(event, RawEvent) and event.type == "retracted":
                reading.undo(event.position, tuple(event.payload["positions"]))
            if isinstance(event, dict) and "checkpoint" in event:
                yield reading.mark(_mark(event, seq))
                continue
            if isinstance(event, dict):
                section = reading.record(event, seq, prev)
                if section is None:
                    continue
                yield section
                prev, seq = section.fork_hash, section.fork
                continue
        except SpireError as e:
            raise BadInput(f"line {number}: {e}") from None
        yield event
        prev, seq = event.hash, seq + 1
    reading.end(last)


class _Reading:
    """What an import has read of an export's branches, to check sections and the
    closing record against."""

    def __init__(self) -> None:
        self.read: list[Closing] = []
        self.name, self.start = "main", 0
        self.closed = False
        self.marks: list[tuple[str, int, str]] = []
        """The checkpoints of the branch being read."""
        self.undos: dict[str, dict[int, int]] = {"main": {}}
        """Per branch read, what its lineage's undos took back: each position taken back,
        by the position of the undo that took it (the undos' own positions by 0)."""

    def undo(self, position: int, positions: tuple[int, ...]) -> None:
        """An undo of the branch being read, checked against its lineage's undos as
        `decide.undo` records them: it takes back an action, once, never another undo
        (a redo records the event again)."""
        taken = self.undos[self.name]
        if len(set(positions)) < len(positions):
            raise BadInput(f"the undo at #{position} names a position twice")
        for p in positions:
            if taken.get(p) == 0:
                raise BadInput(f"the undo at #{position} takes back #{p}, itself an undo; "
                               "an undo is never undone")
            if p in taken:
                raise BadInput(f"the undo at #{position} takes back #{p}, taken back already at "
                               f"#{taken[p]}")
        taken.update(dict.fromkeys(positions, position))
        taken[position] = 0

    def mark(self, mark: Mark) -> Mark:
        """A checkpoint of the branch being read, kept for the closing record."""
        self.marks.append((mark.name, mark.position, mark.created_at))
        return mark

    def record(self, record: dict[str, Any], seq: int, prev: str) -> Section | None:
        """A section (the next branch's) or None for the closing record, once checked."""
        self._end_branch(seq, prev)
        if set(record) == {"closing"}:
            self._close(record["closing"])
            return None
        section = _section(record)
        heads = {c.name: c.head for c in self.read}
        if section.name in heads:
            raise BadInput(f"branch {section.name!r} comes twice")
        if section.parent not in heads:
            raise BadInput(f"no branch {section.parent!r} before branch {section.name!r} to fork "
                           "from")
        if not 1 <= section.fork <= heads[section.parent]:
            raise BadInput(f"branch {section.name!r} forks at #{section.fork}, past "
                           f"{section.parent!r}'s head")
        self.name, self.start = section.name, section.fork
        parent = self.undos[section.parent]  # up to the fork: the parent's later undos are its own
        self.undos[section.name] = {p: by for p, by in parent.items()
                                    if (by or p) <= section.fork}
        return section

    def _end_branch(self, seq: int, prev: str) -> None:
        self.read.append(Closing(self.name, seq - self.start, seq, prev, tuple(self.marks)))
        self.marks = []

    def _close(self, closing: Any) -> None:
        said = closing.get("branches") if isinstance(closing, dict) else None
        if not isinstance(said, list) or not all(isinstance(b, dict) for b in said):
            raise BadInput("the closing record has no list of branches")
        for i, branch in enumerate(c.said() for c in self.read):
            told = said[i] if i < len(said) else None
            if told is not None and "checkpoints" not in told:  # an older spire's export
                branch.pop("checkpoints")
            if told != branch:
                raise BadInput(_disagrees(branch, told))
        if len(said) > len(self.read):
            raise BadInput(f"the closing record names {len(said)} branches, the file "
                           f"{len(self.read)} (cut short?)")
        self.closed = True

    def end(self, number: int) -> None:
        """At the end of the file (`number`: its last line that is not blank, 0 if none)."""
        if not number:
            raise BadInput("the file holds no events")
        if not self.closed:
            raise BadInput(f"the file ends at line {number} without its closing record; it "
                           "was cut short, or an older spire wrote it: export it again")


def _disagrees(branch: dict[str, Any], told: dict[str, Any] | None) -> str:
    name = branch["name"]
    if told is None:
        return f"the closing record does not name branch {name!r}"
    if "checkpoints" in branch and {**told, "checkpoints": branch["checkpoints"]} == branch:
        return (f"a checkpoint of branch {name!r} was deleted, renamed or moved; "
                f"the closing record: {_marks(told['checkpoints'])}; the file: "
                f"{_marks(branch['checkpoints'])}")
    events = told.get("events")
    counted = plural(events, "event") if isinstance(events, int) else f"{events!r} events"
    return (f"branch {name!r} was cut short or edited; "
            f"the record: {counted} to #{told.get('head')} (hash "
            f"{str(told.get('hash'))[:12]}...); the file: {plural(branch['events'], 'event')} "
            f"to #{branch['head']} (hash {branch['hash'][:12]}...)")


def _marks(marks: Any) -> str:
    """Checkpoints as the closing record lists them, in a few words."""
    if not isinstance(marks, list) or not all(isinstance(m, list) and len(m) == 3
                                              for m in marks):
        return "(not a list of checkpoints)"
    return ", ".join(f"{str(name)[:40]!r} at #{position}" for name, position, _ in marks) \
        or "none"


def _mark(record: dict[str, Any], head: int) -> Mark:
    """A checkpoint line: a name, a position on the branch so far, and when it was made."""
    name, position, at = record.get("checkpoint"), record.get("position"), record.get("at")
    if set(record) != {"checkpoint", "position", "at"} or not isinstance(name, str) \
            or type(position) is not int or not isinstance(at, str):
        raise BadInput("a checkpoint line wants its name, position and time, and no more")
    if not name.strip() or len(name) > NAME_LONGEST:
        raise BadInput(f"checkpoint name {name[:40]!r} is empty or too long")
    if not 1 <= position <= head:
        raise BadInput(f"checkpoint {name!r} at #{position} is not on the branch (1 to #{head})")
    return Mark(name, position, at)


def _section(record: dict[str, Any]) -> Section:
    name, parent = record.get("branch"), record.get("parent")
    fork, fork_hash = record.get("fork"), record.get("fork_hash")
    if set(record) != {"branch", "parent", "fork", "fork_hash"} or not isinstance(name, str) \
            or not isinstance(parent, str) or type(fork) is not int \
            or not isinstance(fork_hash, str):
        raise BadInput("neither an event, a branch nor the closing record")
    if not name.strip() or len(name) > NAME_LONGEST:
        raise BadInput(f"branch name {name[:40]!r} is empty or too long")
    return Section(name, parent, fork, fork_hash)


def _event(line: str, seq: int, prev: str) -> RawEvent | dict[str, Any]:
    """The line's event, checked; or the record itself if it is a section or closing."""
    values = _record(line)
    if isinstance(values, dict):
        return values
    position, type_, v, payload, recorded_at, player, override, prev_hash, digest = values
    if position != seq:
        raise BadInput(f"event seq {position} where {seq} was expected")
    if seq == 1 and type_ != "campaign-started":
        raise BadInput(f"the first event must be campaign-started, not {type_}")
    if prev_hash != prev:
        raise BadInput("prev_hash does not match the hash of the event before it")
    payload_json = chain.canonical_json(payload)
    encoded = chain.envelope(position, type_, v, payload_json, recorded_at, player, override)
    try:
        linked = chain.link(prev, encoded)
    except UnicodeEncodeError:
        raise BadInput("not Unicode text (a lone surrogate escape such as \\ud800)") from None
    if linked != digest:
        raise BadInput("hash does not match the event's content (edited?)")
    event = ev.parse_stored(type_, v, payload_json)
    if isinstance(event, ev.Retracted):
        _takes_back(event.positions, seq)
    return RawEvent.spelt(payload_json, position, type_, v, payload, recorded_at, player,
                          override, prev_hash, digest)


def _takes_back(positions: tuple[int, ...], seq: int) -> None:
    """An undo takes back events before it, never the campaign's start (`decide.undo`): a
    file whose undo names anything else would fold into a campaign no command could
    read."""
    if not positions:
        raise BadInput("an undo that takes nothing back")
    wrong = next((p for p in positions if not 1 < p < seq), None)
    if wrong is not None:
        can = f"only #2 to #{seq - 1}" if seq > 2 else "nothing before it but the start"
        raise BadInput(f"the undo at #{seq} cannot take back #{wrong} ({can})")


_values = itemgetter(*FIELDS)
_WELL_TYPED = {
    (int, str, int, dict, str, player, override, str, str)
    for player in (int, type(None)) for override in (str, type(None))}
"""The types of FIELDS' values in a sound line: one test for the line, not one a field."""


def _record(line: str) -> tuple[Any, ...] | dict[str, Any]:
    """A line's values in the order of FIELDS, each of its kind (or, for a section or the
    closing record, the record)."""
    try:
        record = _loads(line)
    except json.JSONDecodeError as e:
        raise BadInput(f"not JSON ({e.msg})") from None
    except ValueError:  # Python's own limit on the digits of a number it reads
        raise BadInput(f"not an export's JSON: a number of more than {DIGITS} digits") from None
    except RecursionError:
        raise BadInput("not an export's JSON: arrays or objects nested too deeply") from None
    if not isinstance(record, dict):
        raise BadInput("not a JSON object")
    try:
        values: tuple[Any, ...] = _values(record)
    except KeyError:
        if "closing" in record or "branch" in record or "checkpoint" in record:
            return record
        raise BadInput(f"missing {', '.join(f for f in FIELDS if f not in record)}") from None
    if tuple(map(type, values)) not in _WELL_TYPED:
        _check_kinds(record)
    for key, value in (("seq", values[0]), ("v", values[2]), ("player", values[5])):
        if value is not None and not 0 <= value <= LARGEST:
            raise BadInput(f"{key} {_said(value)} is out of range (0 to {LARGEST:,})")
    try:
        datetime.fromisoformat(values[4])
    except ValueError:
        raise BadInput(f"recorded_at is not a time: {values[4]!r}") from None
    return values


_DECODER = json.JSONDecoder()


def _loads(line: str) -> Any:
    """`json.loads(line)`, by way of raw_decode when the line is plain JSON and only JSON
    whitespace follows it (json.loads makes two more calls and two regex matches a line).
    Anything else goes to json.loads, for its value or its error."""
    try:
        value, end = _DECODER.raw_decode(line)
    except json.JSONDecodeError:
        return json.loads(line)
    if line[end:].strip(" \t\n\r"):
        return json.loads(line)  # says "Extra data"
    return value


def _check_kinds(record: dict[str, Any]) -> None:
    """Say which field is not of its kind."""
    for key, kind in KINDS.items():
        value = record[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise BadInput(f"{key} must be {kind[0].__name__}")
