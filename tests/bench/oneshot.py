"""What the README shows (issue 33): a one-shot write in each game, `spire new` on a new
file, and a session file (`spire play < FILE`), each beside its reference in the same run.

A one-shot write is a new process, as a player who does not open the play shell runs it,
held to the floor of `status` (a process that imports SQLAlchemy and reads one row, taken
turn about with it); each write is undone after it is timed (the undo not timed), so the
table is where the write is legal again. `spire new` makes a new file each time. A session
file's line is held to the same line typed into the play shell, both in this process.
"""

from __future__ import annotations

import contextlib
import io
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import flat

Row = flat.Row

Args = tuple[str, ...]
FRESH: Args = ("target", "Street Merchant", "--force")
"""A target begun afresh, whatever the journal's head holds (a set under way at 100k)."""
WRITES: dict[str, tuple[tuple[tuple[Args, ...], Args], ...]] = {
    "hildegard": (((FRESH,), ("roll", "c", "c", "r")),
                  ((FRESH, ("roll", "c", "c", "r")), ("lock", "1")),
                  ((), ("reveal", "5")), ((), ("note", "the merchant again"))),
    "volume2": (((("roll", "hive"), ("lock", "1")), ("deploy", "pollen")),),
}
"""Each game's writes: the commands that bring the table to where the write is legal (run
once, not timed, and undone after), then the write (timed, then undone)."""

PRACTICE: Args = ("target", "Practice", "--limit", "99", "--accuracy", "3", "--sets", "99999",
                  "--parts", "c,r,d", "--hit", "40", "--miss", "41", "--force")
"""A target the session's rounds never finish, begun whatever the journal's head holds."""

SESSION_WRITES = ("roll c c r", "wild miss")
SESSION_READS = ("status", "log --last 3")
"""The lines of a Hildegard session file: a write that a second one brings back, and reads."""


def _run(db: Path, *args: str) -> float:
    """Seconds of `spire --db DB ARGS` as a new process, which must do what it is asked
    (a refused write timed, then an undo of the write before it, would time nothing)."""
    start = time.perf_counter()
    done = subprocess.run([*flat.SPIRE, "--db", str(db), *args], check=False,
                          capture_output=True, env=flat.ENV)
    taken = time.perf_counter() - start
    assert done.returncode == 0, (args, done.stderr)
    return taken


def write_rows(journals: dict[str, Path], work: Path, runs: int, label: str) -> list[Row]:
    """Each game's one-shot writes on a copy of its journal (with undos) against the
    floor, taken turn about."""
    rows: list[Row] = []
    for game, writes in WRITES.items():
        db = work / f"oneshot-{game}-{label}.sqlite"
        shutil.copy(journals[game], db)
        for setup, write in writes:
            for args in setup:
                _run(db, *args)
            floors, taken = [], []
            for _ in range(runs):
                floors.append(flat.command_s_plain([flat.PY, "-c", flat.READ_ONE_ROW, str(db)]))
                taken.append(_run(db, *write))
                _run(db, "undo")
            for _ in setup:
                _run(db, "undo")
            a, b = statistics.median(taken) * 1000, statistics.median(floors) * 1000
            rows.append((f"spire {' '.join(write)} ({game}), new process, {label}, undo in 20",
                         f"{a:.0f} ms", f"{b:.0f} ms (SQLAlchemy, one row)",
                         flat.ratio(a / b, 1.3)))
    return rows


def new_row(floor_db: Path, work: Path, runs: int) -> Row:
    """`spire new` on a new journal file each time against the floor."""
    floors, taken = [], []
    for n in range(runs):
        fresh = work / f"new-{n}.sqlite"
        floors.append(flat.command_s_plain([flat.PY, "-c", flat.READ_ONE_ROW, str(floor_db)]))
        taken.append(_run(fresh, "new", "first", "--game", "hildegard"))
    a, b = statistics.median(taken) * 1000, statistics.median(floors) * 1000
    return ("spire new NAME on a new file, new process", f"{a:.0f} ms",
            f"{b:.0f} ms (SQLAlchemy, one row)", flat.ratio(a / b, 1.5))


def _played(db: Path, lines: list[str]) -> float:
    """Seconds of `spire play` reading `lines` from a file as its standard input, in this
    process (its journal opened and folded once, as the process would)."""
    from typer.main import get_command

    from journal.cli import app

    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as session:
        session.write("".join(f"{line}\n" for line in lines))
    with open(session.name, "rb") as raw, contextlib.redirect_stdout(io.StringIO()):
        given = sys.stdin
        sys.stdin = io.TextIOWrapper(raw)  # not a terminal: the batch path
        start = time.perf_counter()
        try:
            # --again: the same lines each round (a file played once is refused after)
            get_command(app).main(args=["--db", str(db), "play", "--again"], prog_name="spire")
        except SystemExit as e:
            assert not e.code, e.code
        finally:
            sys.stdin = given
        taken = time.perf_counter() - start
    Path(session.name).unlink()
    return taken


def _typed(db: Path, lines: list[str]) -> float:
    """Seconds of the same lines run in one play shell (opened and folded once, then each
    line as typed), in this process."""
    from typer.main import get_command

    from journal.cli import app
    from journal.cli.common import Options, journals_kept
    from journal.cli.play import Shell

    group = get_command(app)
    ctx = group.make_context("spire", ["--db", str(db), "status"])
    ctx.obj = Options(db=str(db), campaign=None)
    with journals_kept(), contextlib.redirect_stdout(io.StringIO()):
        start = time.perf_counter()
        shell = Shell(ctx)
        for line in lines:
            assert shell.execute(line) == 0, line
        return time.perf_counter() - start


def session_rows(db: Path, work: Path, rounds: int, label: str) -> list[Row]:
    """A session file's cost a line against the same lines in the shell, reads and writes
    apart, turn about: each a run of `status` then the lines, less a run of `status`
    alone (the journal's opening and first fold), over the lines."""
    copy = work / f"session-{label}.sqlite"
    shutil.copy(db, copy)
    _run(copy, *PRACTICE)  # sets enough for every round, whatever the head held
    rows: list[Row] = []
    for kind, round_ in (("writes", SESSION_WRITES), ("reads", SESSION_READS)):
        lines = list(round_) * rounds
        files, shells = [], []
        for _ in range(5):
            opened = _played(copy, ["status"])
            files.append((_played(copy, ["status", *lines]) - opened) / len(lines) * 1000)
            opened = _typed(copy, ["status"])
            shells.append((_typed(copy, ["status", *lines]) - opened) / len(lines) * 1000)
        a, b = statistics.median(files), statistics.median(shells)
        rows.append((f"spire play < FILE, {kind} ({', '.join(round_)}), a line, {label}",
                     f"{a:.2f} ms", f"{b:.2f} ms (the same lines in the shell)",
                     flat.ratio(a / b, 1.3)))
    return rows


def rows(small: dict[str, Path], big: dict[str, Path], work: Path, runs: int, rounds: int,
         sizes: tuple[int, int]) -> list[Row]:
    """Issue 33's rows: the writes at both sizes, `new`, and a session file at the big."""
    low, high = (f"{n // 1000}k" for n in sizes)
    found = write_rows(small, work, runs, low) + write_rows(big, work, runs, high)
    found.append(new_row(small["hildegard"], work, runs))
    return found + session_rows(big["hildegard"], work, rounds, high)
