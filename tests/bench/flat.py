"""Costs that must stay flat as a campaign grows (issue 17), measured through the commands
players run, on journals like theirs: one undo in every 20 events, notes, a branch.

Each function returns figures taken turn about with their references in the same run;
bench.py prints them.
"""

from __future__ import annotations

import contextlib
import io
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PY = sys.executable
ENV = {**os.environ, "PYTHONPATH": str(HERE.parents[1])}
SPIRE = [PY, "-m", "journal"]

UNDO_EVERY = 20

HILDEGARD = ("roll c c r", "status", "undo", "redo", "wild miss")
VOLUME2 = ("roll sickle", "status", "undo", "redo", "upkeep", "enemy 1")
MEASURED = ("roll", "status", "undo", "redo")
"""The first four lines of each round are measured (a write, a read, an undo of the write
and its redo, which records the roll again); the rest bring the table back to where it
rolls again."""


def shell_costs(db: Path, rounds: int, play: tuple[str, ...]) -> dict[str, float]:
    """Median milliseconds of a roll, `status` after it, `undo` of it and `redo`, inside
    one play shell, round after round."""
    from typer.main import get_command

    from journal.cli import app
    from journal.cli.common import Options, journals_kept
    from journal.cli.play import Shell

    group = get_command(app)
    ctx = group.make_context("spire", ["--db", str(db), "status"])
    ctx.obj = Options(db=str(db), campaign=None)
    taken: dict[str, list[float]] = {name: [] for name in MEASURED}
    with journals_kept(), contextlib.redirect_stdout(io.StringIO()):
        shell = Shell(ctx)
        shell.execute("status")
        for _ in range(rounds):
            for name, line in zip(MEASURED, play, strict=False):  # the rest: unmeasured
                start = time.perf_counter()
                assert shell.execute(line) == 0, line
                taken[name].append((time.perf_counter() - start) * 1000)
            for line in play[len(MEASURED):]:
                assert shell.execute(line) == 0, line
    return {name: statistics.median(samples) for name, samples in taken.items()}


def durable_commit_ms(work: Path, times: int) -> float:
    """Plain sqlite3 on the same disk: one row inserted and committed durably (WAL,
    synchronous=FULL, as spire's journal), the floor of any write."""
    path = work / "commit.sqlite"
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("CREATE TABLE IF NOT EXISTS events (position INTEGER, payload TEXT)")
        samples = []
        for n in range(times):
            start = time.perf_counter()
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO events VALUES (?, ?)", (n, '{"type": "note"}'))
            conn.execute("COMMIT")
            samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def command_s(db: Path, *args: str) -> float:
    """Seconds of `spire --db DB ARGS` as a new process, its output thrown away (exit 1,
    an audit's findings, is an answer too)."""
    start = time.perf_counter()
    done = subprocess.run([*SPIRE, "--db", str(db), *args], check=False,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    assert done.returncode in (0, 1), done.stderr
    return time.perf_counter() - start


def turn_about(rounds: int, *commands: tuple[Path, tuple[str, ...]]) -> list[float]:
    """Median seconds of each (journal, command), taken turn about."""
    samples: list[list[float]] = [[] for _ in commands]
    for _ in range(rounds):
        for (db, args), taken in zip(commands, samples, strict=True):
            taken.append(command_s(db, *args))
    return [statistics.median(s) for s in samples]


def cold_status_s(db: Path) -> float:
    """Seconds of `spire status` on a copy of `db` without the status and snapshots kept:
    a full replay, through the command that does one."""
    import shutil

    with tempfile.TemporaryDirectory() as tmp:
        cold = Path(tmp) / "cold.sqlite"
        shutil.copy(db, cold)
        with contextlib.closing(sqlite3.connect(cold)) as conn, conn:
            conn.execute("DELETE FROM glances")
            conn.execute("DELETE FROM snapshots")
        return command_s(cold, "status")


PEAK = """
import atexit, sys
def peak():
    with open("/proc/self/status") as status:
        found = next(line for line in status if line.startswith("VmHWM:"))
    print("PEAK", int(found.split()[1]) // 1024, file=sys.stderr)
atexit.register(peak)
sys.argv = ["spire", *sys.argv[1:]]
from journal.process import main
main()
"""


def peak_mb(db: Path, *args: str) -> int:
    """The peak resident memory (MB) of `spire --db DB ARGS` in a process of its own."""
    done = subprocess.run([PY, "-c", PEAK, "--db", str(db), *args], env=ENV, check=False,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = next(x for x in done.stderr.splitlines() if x.startswith("PEAK"))
    return int(line.split()[1])


def first_after_import_s(export: Path, rounds: int) -> tuple[float, float]:
    """Median seconds of the first `status` after `spire import` (of a fresh journal
    each round), and of a `status` after that one."""
    firsts, laters = [], []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "imported.sqlite"
            subprocess.run([*SPIRE, "--db", str(db), "import", str(export), "--name", "copy"],
                           check=True, capture_output=True, env=ENV)
            firsts.append(command_s(db, "status"))
            laters.append(command_s(db, "status"))
    return statistics.median(firsts), statistics.median(laters)


def with_branch(db: Path) -> None:
    """A checkpoint near the head, and a branch rewound to it with a few events of its
    own, as players leave them; the journal's current branch is main again after."""
    def run(*args: str) -> None:
        subprocess.run([*SPIRE, "--db", str(db), *args], check=True, capture_output=True,
                       env=ENV)

    run("checkpoint", "before-the-gate")
    run("note", "the road to the gate")
    run("rewind", "before-the-gate", "--as", "other-road")
    run("note", "the other road")
    run("switch", "main")


# -- the rows ------------------------------------------------------------------------------

Row = tuple[str, str, str, str]


def ratio(value: float, limit: float, at_least: bool = False) -> str:
    met = value >= limit if at_least else value <= limit
    sign = ">=" if at_least else "<="
    return f"{value:.2f}x ({sign} {limit:.2f}x: {'met' if met else 'NOT met'})"


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


def journals(work: Path, size: int) -> dict[str, Path]:
    """Journals of `size` events with one undo in every 20: Hildegard (with a branch) and
    Volume 2; and Hildegard without undos (with the same branch), the reference a linear
    command is held to."""
    from journal_gen import build

    made = {"hildegard": work / f"undo-h{size}.sqlite", "volume2": work / f"undo-v{size}.sqlite",
            "no undos": work / f"plain-h{size}.sqlite"}
    build(made["hildegard"], size, undo_every=UNDO_EVERY)
    with_branch(made["hildegard"])
    build(made["volume2"], size, game="volume2", undo_every=UNDO_EVERY)
    build(made["no undos"], size)
    with_branch(made["no undos"])  # the same branch: what differs is the undos alone
    return made


def shell_rows(small: dict[str, Path], big: dict[str, Path], work: Path, rounds: int,
               sizes: tuple[int, int]) -> list[Row]:
    """Roll, status, undo and redo inside `spire play` at both sizes; the big one's cost
    held to the small one's, a read to 5 ms, a write to a durable commit."""
    commit = durable_commit_ms(work, 200)
    rows: list[Row] = []
    low, high = (f"{n // 1000}k" for n in sizes)
    for game, play in (("hildegard", HILDEGARD), ("volume2", VOLUME2)):
        at = {size: shell_costs(db[game], rounds, play)
              for size, db in zip(sizes, (small, big), strict=True)}
        for name in MEASURED:
            a, b = at[sizes[0]][name], at[sizes[1]][name]
            rows.append((f"shell ({game}, undo in 20): {name} {high} vs {low}",
                         f"{b:.2f} ms", f"{a:.2f} ms", ratio(b / a, 1.5)))
        rows.append((f"shell ({game}): status, a read, {high}", f"{at[sizes[1]]['status']:.2f} ms",
                     "5 ms", verdict(at[sizes[1]]["status"] < 5)))
        for name in ("roll", "undo", "redo"):
            spent, limit = at[sizes[1]][name], 1.5 * commit + 2
            rows.append((f"shell ({game}): {name}, a write, {high}", f"{spent:.2f} ms",
                         f"{limit:.2f} ms (1.5 x {commit:.2f} ms sqlite3 commit + 2 ms)",
                         verdict(spent <= limit)))
    return rows


def linear_rows(made: dict[str, Path], rounds: int, size: int) -> list[Row]:
    """audit, replay and replay --verify on the journal with undos against the one
    without; audit's rate against a full replay (a cold status); a one-shot status."""
    label = f"{size // 1000}k"
    rows: list[Row] = [status_row(made["hildegard"], 11, label)]
    for args in (("audit",), ("replay",), ("replay", "--verify")):
        undos, plain = turn_about(rounds, (made["hildegard"], args), (made["no undos"], args))
        rows.append((f"spire {' '.join(args)}, {label}, undo in 20 vs none", f"{undos:.2f} s",
                     f"{plain:.2f} s", ratio(undos / plain, 1.5)))
    audits, replays = [], []
    for _ in range(rounds):
        audits.append(command_s(made["hildegard"], "audit"))
        replays.append(cold_status_s(made["hildegard"]))
    audit, replay = statistics.median(audits), statistics.median(replays)
    rows.append((f"spire audit's rate vs a full replay (a cold status), {label}",
                 f"{audit:.2f} s", f"{replay:.2f} s", ratio(replay / audit, 1 / 3, at_least=True)))
    return rows


READ_ONE_ROW = ("import sqlalchemy as sa, sys; e = sa.create_engine('sqlite:///' + sys.argv[1]); "
                "c = e.connect(); c.execute(sa.text('SELECT * FROM events LIMIT 1')).first()")


def status_row(db: Path, runs: int, label: str) -> Row:
    """`spire status` in a new process against the floor: a process that imports
    SQLAlchemy and reads one row, taken turn about (issue 17 asked 1.3x; issue 33, 1.1x)."""
    subprocess.run([*SPIRE, "--db", str(db), "note", "status is asked for"], check=True,
                   capture_output=True, env=ENV)  # as at the table: a write, then status
    floor, status = [], []
    for _ in range(runs):
        floor.append(command_s_plain([PY, "-c", READ_ONE_ROW, str(db)]))
        status.append(command_s(db, "status"))
    a, b = statistics.median(status) * 1000, statistics.median(floor) * 1000
    return (f"spire status, new process, {label}, undo in 20", f"{a:.0f} ms",
            f"{b:.0f} ms (SQLAlchemy, one row)", ratio(a / b, 1.1))


def command_s_plain(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True, env=ENV)
    return time.perf_counter() - start


def memory_rows(db: Path, work: Path, size: int) -> list[Row]:
    """Peak memory of the commands that read a whole campaign, and of the first command
    after an import, on a journal of `size` events."""
    label = f"{size // 1_000_000}M" if size >= 1_000_000 else f"{size // 1000}k"
    export = work / "flat-export.jsonl"
    subprocess.run([*SPIRE, "--db", str(db), "export", "-o", str(export)], check=True,
                   capture_output=True, env=ENV)
    fresh = work / "flat-imported.sqlite"
    subprocess.run([*SPIRE, "--db", str(fresh), "import", str(export), "--name", "copy"],
                   check=True, capture_output=True, env=ENV)
    rows: list[Row] = [status_row(db, 11, label)]
    for args, on in ((("status",), fresh), (("audit",), db), (("replay",), db),
                     (("report", "-f", "html", "-o", str(work / "r.html")), db),
                     (("export", "-o", str(work / "e.jsonl")), db)):
        peak = peak_mb(on, *args)
        cold = " (cold, after an import)" if on == fresh else ""
        rows.append((f"peak memory: {args[0]}{cold}, {label}", f"{peak} MB", "200 MB",
                     verdict(peak < 200)))
    first, later = first_after_import_s(export, 1)
    rows.append((f"first status after an import of {label} vs a status after it",
                 f"{first:.2f} s", f"{later:.2f} s", ratio(first / later, 1.5)))
    return rows
