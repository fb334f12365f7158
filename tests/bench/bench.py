"""spire's benchmarks: each figure beside its reference, measured in the same run.

    python tests/bench/bench.py            # 1k, 10k, 100k and 1M events
    python tests/bench/bench.py --quick    # 1k and 10k only, for a smoke test
    python tests/bench/bench.py --oneshot  # only issue 33's rows (with --quick: 1k, 10k)
    python tests/bench/bench.py --serve    # only issue 35's row (with --quick: 1k, 10k)

Machines differ, so every target is a ratio to a reference taken on this machine now
(issue 7): the play shell's status after a roll; `spire --help`/`--version` against
`import typer`; `spire status` as a new process against a process that imports SQLAlchemy
and reads one row; a full replay against plain sqlite3 + json.loads; an import against
plain sqlite3 inserts; and the peak memory of replaying a million events. The play report
(issue 16) is held to a full replay as players run both: `spire report -o FILE.html`
against a cold `spire status`, on the benchmark's journal and on one with undos and a
branch (issue 17's rule: the commands players run, not internal functions; the same
report in one process is printed beside it as a diagnostic, with no target). The table's
screen (issue 35): the time from a write in another process to `spire serve`'s page drawn
after it, beside the write's own time (tests/bench/serving.py).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1]), str(HERE.parent)]

import flat  # noqa: E402 (found through the path above)
import oneshot  # noqa: E402
import serving  # noqa: E402
from journal_gen import build  # noqa: E402

SIZES = (1_000, 10_000, 100_000, 1_000_000)
PY = sys.executable


def median_ms(run: Callable[[], object], times: int) -> float:
    samples = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def process_ms(args: list[str], times: int, env: dict[str, str] | None = None) -> float:
    return median_ms(lambda: subprocess.run(args, check=True, capture_output=True, env=env),
                     times)


def interleaved(*commands: list[str], times: int,
                env: dict[str, str] | None = None) -> list[float]:
    """Medians of commands run turn about, so a busy moment hits them all alike."""
    samples: list[list[float]] = [[] for _ in commands]
    for _ in range(times):
        for command, taken in zip(commands, samples, strict=True):
            taken.append(process_ms(command, 1, env))
    return [statistics.median(taken) for taken in samples]


# -- the play shell ----------------------------------------------------------------------

HILDEGARD_ROUND = ("roll c c r", "wild miss")
VOLUME2_ROUND = ("roll sickle", "upkeep", "enemy 1")
"""Volume 2: Finnian alone spends 1 HP, ends his turn, the foe misses, recoup: 3 events."""


def shell_status_ms(db: Path | str, rounds: int,
                    play: tuple[str, ...] = HILDEGARD_ROUND) -> tuple[float, float]:
    """Medians of a roll and of `status` right after it, inside one play shell; then the
    rest of the round (`play[1:]`) brings the table back to where it rolls again."""
    import contextlib
    import io

    from typer.main import get_command

    from journal.cli import app
    from journal.cli.common import Options, journals_kept
    from journal.cli.play import Shell

    group = get_command(app)
    ctx = group.make_context("spire", ["--db", str(db), "status"])
    ctx.obj = Options(db=str(db), campaign=None)
    rolls, statuses = [], []
    with journals_kept(), contextlib.redirect_stdout(io.StringIO()):
        shell = Shell(ctx)
        shell.execute("status")
        for _ in range(rounds):
            start = time.perf_counter()
            assert shell.execute(play[0]) == 0
            middle = time.perf_counter()
            assert shell.execute("status") == 0
            end = time.perf_counter()
            for line in play[1:]:
                assert shell.execute(line) == 0
            rolls.append((middle - start) * 1000)
            statuses.append((end - middle) * 1000)
    return statistics.median(rolls), statistics.median(statuses)


def shell_odds_ms(db: Path, times: int) -> float:
    """Median of `odds` inside one play shell on a 3-set, 4-die Hildegard target at its
    start, the odds' caches emptied before each, so each answer is worked out afresh
    (issue 20)."""
    import contextlib
    import io

    from typer.main import get_command

    from journal.cli import app
    from journal.cli.common import Options, journals_kept
    from journal.cli.play import Shell
    from journal.games.hildegard import finesse as odds

    group = get_command(app)
    ctx = group.make_context("spire", ["--db", str(db), "status"])
    ctx.obj = Options(db=str(db), campaign=None)
    samples = []
    with journals_kept(), contextlib.redirect_stdout(io.StringIO()):
        shell = Shell(ctx)
        for line in ("new odds --game hildegard",
                     "target Gate --limit 5 --accuracy 4 --sets 3 --parts c,r,d", "odds"):
            assert shell.execute(line) == 0
        for _ in range(times):
            for cached in (odds._fresh, odds._finesse, odds._reroll, odds._after_set,
                           odds.rolls):
                cached.cache_clear()
            start = time.perf_counter()
            assert shell.execute("odds") == 0
            samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


# -- replay, memory, import ----------------------------------------------------------------

EVERY_ROW = ("SELECT position, type, version, payload, recorded_at, player, override, "
             "prev_hash, hash FROM events ORDER BY position")
"""The plain reference read: every stored row, its payload parsed by `json.loads`."""


def plain_read_s(db: Path) -> float:
    start = time.perf_counter()
    with sqlite3.connect(db) as conn:
        for row in conn.execute(EVERY_ROW):
            json.loads(row[3])
    return time.perf_counter() - start


def replay_s(db: Path | str) -> float:
    from journal.service.journal import Journal

    journal = Journal(str(db))
    start = time.perf_counter()
    journal.read.replays.rebuild()
    return time.perf_counter() - start


# The peak resident memory of this process's own address space (VmHWM): ru_maxrss would
# carry over the benchmark's own peak into the child it forks.
MEMORY = """
import sys
from journal.service.reading import Reading
state = Reading(sys.argv[1]).replays.rebuild()
with open("/proc/self/status") as status:
    peak = next(line for line in status if line.startswith("VmHWM:"))
print(int(peak.split()[1]) // 1024)
"""


def replay_peak_mb(db: Path) -> int:
    out = subprocess.run([PY, "-c", MEMORY, str(db)], check=True, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(HERE.parents[1])})
    return int(out.stdout.strip())


def replay_rates(db: Path, rounds: int) -> tuple[float, float]:
    """Events a second, medians of rounds taken turn about: a full replay, and plain
    sqlite3 + json.loads reading the same rows."""
    count = sqlite3.connect(db).execute("SELECT count(*) FROM events").fetchone()[0]
    ours, plain = [], []
    for _ in range(rounds):
        plain.append(count / plain_read_s(db))
        ours.append(count / replay_s(db))
    return statistics.median(ours), statistics.median(plain)


def report_figures(db: Path, rounds: int) -> tuple[float, float, int]:
    """Seconds, medians of rounds taken turn about: the HTML play report (read, fold, build,
    render) and a full replay, both in this process (a diagnostic: `Reading.replays.rebuild` is no
    command's); and the report's size in bytes (issue 16)."""
    from journal.report import KEEPS, gather, render
    from journal.service.reading import Reading

    ours, replays, size = [], [], 0
    for _ in range(rounds):
        replays.append(replay_s(db))
        start = time.perf_counter()
        size = len(render(gather(Reading(str(db)), keep=KEEPS["html"]), "html").encode())
        ours.append(time.perf_counter() - start)
    return statistics.median(ours), statistics.median(replays), size


def report_command_figures(db: Path, work: Path, rounds: int) -> tuple[float, float]:
    """Seconds, medians of rounds taken turn about, in new processes as players run them:
    `spire report -o FILE.html` (its imports and template too), and a cold `spire status`
    (a full replay through the command that does one, issue 17's reference)."""
    written = work / "report.html"
    reports, replays = [], []
    for _ in range(rounds):
        replays.append(flat.cold_status_s(db))
        reports.append(flat.command_s(db, "report", "-o", str(written)))
    return statistics.median(reports), statistics.median(replays)


def _report_row(report_cmd: float, cold: float, label: str,
                journal: str = "") -> tuple[str, str, str, str]:
    """Issue 16's target, as issue 17 has the benchmark measure: the command players run
    against a full replay through the command that does one."""
    return (f"spire report -o FILE.html, new process, {label}{journal}", f"{report_cmd:.2f} s",
            f"{cold:.2f} s (cold status: a full replay)", _ratio(report_cmd / cold, 1.5))


def import_rates(db: Path, work: Path, rounds: int) -> tuple[float, float]:
    """Events a second, medians of rounds taken turn about: `spire import` of the branch's
    export, and plain sqlite3 inserting the same rows in one transaction."""
    from journal.service.exchange import export
    from journal.service.journal import Journal
    from journal.service.reading import Reading
    from journal.service.transfer import dump, parse

    exported = work / "export.jsonl"
    exported.write_text("".join(line + "\n" for line in dump(export(Reading(str(db))))))
    rows = [record for line in exported.read_text().splitlines()
            if "seq" in (record := json.loads(line))]  # the events, not the closing record
    ours, plain_rates = [], []
    for n in range(rounds):
        target = Journal(str(work / f"imported-{n}.sqlite"))
        start = time.perf_counter()
        with exported.open() as lines:
            target.import_("copy", parse(lines))
        ours.append(len(rows) / (time.perf_counter() - start))
        plain = work / f"plain-{n}.sqlite"
        with sqlite3.connect(plain) as conn:
            conn.execute("CREATE TABLE events (branch_id, position, type, version, payload, "
                         "recorded_at, player, override, prev_hash, hash)")
        start = time.perf_counter()
        with sqlite3.connect(plain) as conn:
            conn.executemany("INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?,?)", [
                (1, r["seq"], r["type"], r["v"], json.dumps(r["payload"]), r["recorded_at"],
                 r["player"], r["override"], r["prev_hash"], r["hash"]) for r in rows])
        plain_rates.append(len(rows) / (time.perf_counter() - start))
    return statistics.median(ours), statistics.median(plain_rates)


# -- new processes -------------------------------------------------------------------------

READ_ONE_ROW = flat.READ_ONE_ROW



def startup(db: Path, times: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(HERE.parents[1])}
    spire = [PY, "-m", "journal"]
    typer_ms, help_ms, version_ms = interleaved(
        [PY, "-c", "import typer"], [*spire, "--help"], [*spire, "--version"],
        times=times, env=env)
    # As at the table: a command appends (and keeps the glance of its new head), then
    # status is asked for, as many times as the figure takes.
    subprocess.run([*spire, "--db", str(db), "note", "status is asked for"], check=True,
                   capture_output=True, env=env)
    row_ms, status_ms = interleaved(
        [PY, "-c", READ_ONE_ROW, str(db)], [*spire, "--db", str(db), "status"],
        times=times, env=env)
    return {"typer": typer_ms, "help": help_ms, "version": version_ms,
            "one_row": row_ms, "status": status_ms}


# -- a shared journal on PostgreSQL (issue 19) ----------------------------------------------

READ_ONE_ROW_URL = ("import sqlalchemy as sa, sys; e = sa.create_engine(sys.argv[1]); "
                    "c = e.connect(); c.execute(sa.text('SELECT * FROM events LIMIT 1')).first()")


def plain_psycopg_read_s(url: str) -> float:
    import psycopg

    start = time.perf_counter()
    with psycopg.connect(url) as conn:
        for row in conn.execute(EVERY_ROW):
            json.loads(row[3])
    return time.perf_counter() - start


def postgresql_rows(sizes: tuple[int, ...], rounds: int, runs: int,
                    ) -> list[tuple[str, str, str, str]]:
    """The same figures on a PostgreSQL server started for the run from the machine's own
    binaries (tests/pgserver.py, with PostgreSQL's durable settings), on loopback: the play
    shell's status after a roll, `spire status` as a new process, a full replay."""
    import pgserver

    rows: list[tuple[str, str, str, str]] = []
    with pgserver.running(durable=True) as server:
        if isinstance(server, str):
            print(f"PostgreSQL rows left out: {server}", file=sys.stderr)
            return rows
        shells: dict[int, tuple[float, float]] = {}
        biggest = max(s for s in sizes if s <= 100_000)
        for size in (s for s in sizes if s <= 100_000):
            url = server.url(server.fresh_database())
            started = time.perf_counter()
            build(url, size)  # type: ignore[arg-type]
            print(f"built {size:>9,} events on PostgreSQL in "
                  f"{time.perf_counter() - started:5.1f} s", file=sys.stderr)
            shells[size] = shell_status_ms(url, rounds)
            if size == biggest:
                rows += _postgresql_big(url, runs, size)
        rows += _shell_rows(shells, "PostgreSQL")
    return rows


def _postgresql_big(url: str, runs: int, size: int) -> list[tuple[str, str, str, str]]:
    label = f"{size // 1000}k"
    env = {**os.environ, "PYTHONPATH": str(HERE.parents[1])}
    spire = [PY, "-m", "journal"]
    subprocess.run([*spire, "--db", url, "note", "status is asked for"], check=True,
                   capture_output=True, env=env)
    row_ms, status_ms = interleaved(
        [PY, "-c", READ_ONE_ROW_URL, url], [*spire, "--db", url, "status"],
        times=runs, env=env)
    count = size + 1
    ours, plain = [], []
    for _ in range(5):
        plain.append(count / plain_psycopg_read_s(url))
        ours.append(count / replay_s(url))
    replayed, read = statistics.median(ours), statistics.median(plain)
    return [
        (f"PostgreSQL: spire status, new process, {label}", f"{status_ms:.0f} ms",
         f"{row_ms:.0f} ms (SQLAlchemy + psycopg, one row)", _ratio(status_ms / row_ms, 1.5)),
        (f"PostgreSQL: full replay {label}: events/s", f"{replayed:,.0f}",
         f"{read:,.0f} (psycopg + json.loads)", _ratio(replayed / read, 0.5, at_least=True)),
    ]


# -- the table -------------------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1k and 10k events only")
    parser.add_argument("--rounds", type=int, default=60, help="shell rounds per size")
    parser.add_argument("--runs", type=int, default=11, help="process runs per figure")
    parser.add_argument("--no-postgresql", action="store_true",
                        help="leave out the rows of a journal on PostgreSQL")
    parser.add_argument("--flat", action="store_true",
                        help="only the figures that must stay flat with undos (issue 17)")
    parser.add_argument("--oneshot", action="store_true",
                        help="only the one-shot writes, `new` and a session file (issue 33)")
    parser.add_argument("--serve", action="store_true",
                        help="only the time from a write to spire serve's page (issue 35)")
    options = parser.parse_args()
    sizes = SIZES[:2] if options.quick else SIZES
    compiled()
    rows: list[tuple[str, str, str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if options.oneshot:
            _print(_oneshot(work, sizes, options))
            return
        if options.serve:
            _print(_serve(work, sizes, options))
            return
        rows += _flat(work, sizes, options)
        if options.flat:
            _print(rows)
            return
        shells: dict[int, tuple[float, float]] = {}
        volume2_shells: dict[int, tuple[float, float]] = {}
        for size in sizes:
            db = work / f"j{size}.sqlite"
            started = time.perf_counter()
            build(db, size)
            print(f"built {size:>9,} events in {time.perf_counter() - started:5.1f} s",
                  file=sys.stderr)
            if size <= 100_000:
                shells[size] = shell_status_ms(db, options.rounds)
            if size in (1_000, 100_000) or (options.quick and size == sizes[-1]):
                volume2 = work / f"v{size}.sqlite"
                build(volume2, size, game="volume2")
                volume2_shells[size] = shell_status_ms(volume2, options.rounds, VOLUME2_ROUND)
            if size == 100_000 or (options.quick and size == sizes[-1]):
                rows += _big(db, work, options.runs, size)
            if size == 1_000_000:
                peak = replay_peak_mb(db)
                rows.append(("replay 1M events: peak memory", f"{peak} MB", "200 MB",
                             _verdict(peak < 200)))
        rows += _shell_rows(shells) + _shell_rows(volume2_shells, "Volume 2")
        odds_ms = shell_odds_ms(work / "odds.sqlite", options.runs)
        rows.append(("shell: odds, 3-set 4-die target at its start", f"{odds_ms:.1f} ms",
                     "100 ms", _verdict(odds_ms < 100)))
    if not options.no_postgresql:
        rows += postgresql_rows(sizes, options.rounds, options.runs)
    _print(rows)


def compiled() -> None:
    """spire's modules byte-compiled before anything is timed, as `pip install` compiles
    them: with PYTHONDONTWRITEBYTECODE set (as in many containers) every new process of a
    source checkout would compile each module edited since, which an installed spire never
    does. (Done first: the play shell's and issue 17's rows start new processes too.)"""
    import compileall

    compileall.compile_dir(HERE.parents[1] / "journal", quiet=1, force=False)


def _flat(work: Path, sizes: tuple[int, ...], options: argparse.Namespace) -> list[flat.Row]:
    """The figures of issue 17: on journals with an undo in every 20 events (and a branch),
    the play shell's commands at the smallest and the largest size up to 100k, audit and
    replay against the same journal without undos, and at 1M the peak memory of the
    commands that read a whole campaign."""
    small, big = sizes[0], min(sizes[-1], 100_000)
    started = time.perf_counter()
    made = {size: flat.journals(work, size) for size in (small, big)}
    print(f"built the journals with undos in {time.perf_counter() - started:5.1f} s",
          file=sys.stderr)
    rows = flat.shell_rows(made[small], made[big], work, options.rounds, (small, big))
    rows += oneshot.rows(made[small], made[big], work, options.runs, options.rounds // 2,
                         (small, big))
    rows += flat.linear_rows(made[big], 3, big)
    label = f"{big // 1000}k"
    rows.append(_report_row(*report_command_figures(made[big]["hildegard"], work, rounds=5),
                            label, ", undo in 20"))
    if sizes[-1] >= 1_000_000:
        huge = work / "undo-h1M.sqlite"
        build(huge, 1_000_000, undo_every=flat.UNDO_EVERY)
        rows += flat.memory_rows(huge, work, 1_000_000)
    elif options.quick:
        rows += flat.memory_rows(made[big]["hildegard"], work, big)
    return rows


def _oneshot(work: Path, sizes: tuple[int, ...], options: argparse.Namespace) -> list[flat.Row]:
    """Issue 33's rows alone, on journals with undos of the smallest and the largest size
    up to 100k (`--quick`: 1k and 10k)."""
    small, big = sizes[0], min(sizes[-1], 100_000)
    made = {size: flat.journals(work, size) for size in (small, big)}
    return oneshot.rows(made[small], made[big], work, options.runs, options.rounds // 2,
                        (small, big))


def _serve(work: Path, sizes: tuple[int, ...], options: argparse.Namespace) -> list[flat.Row]:
    """Issue 35's row alone, on the benchmark's journals of the smallest size and the
    largest up to 100k (`--quick`: 1k and 10k)."""
    found = []
    for size in (sizes[0], min(sizes[-1], 100_000)):
        db = work / f"j{size}.sqlite"
        build(db, size)
        found += serving.rows(db, work, options.runs * 2, f"{size // 1000}k")
    return found


def _big(db: Path, work: Path, runs: int, size: int) -> list[tuple[str, str, str, str]]:
    label = f"{size // 1000}k"
    start = startup(db, runs)
    replayed, read = replay_rates(db, rounds=5)
    imported, inserted = import_rates(db, work, rounds=5)
    reported, replayed_s, size = report_figures(db, rounds=5)
    report_cmd, cold = report_command_figures(db, work, rounds=5)
    return [
        ("spire --help vs import typer", f"{start['help']:.0f} ms",
         f"{start['typer']:.0f} ms", _ratio(start["help"] / start["typer"], 1.5)),
        ("spire --version vs import typer", f"{start['version']:.0f} ms",
         f"{start['typer']:.0f} ms", _ratio(start["version"] / start["typer"], 1.5)),
        (f"spire status, new process, {label}", f"{start['status']:.0f} ms",
         f"{start['one_row']:.0f} ms (SQLAlchemy, one row)",
         _ratio(start["status"] / start["one_row"], 1.5)),
        (f"full replay {label}: events/s", f"{replayed:,.0f}",
         f"{read:,.0f} (sqlite3 + json.loads)", _ratio(replayed / read, 0.5, at_least=True)),
        (f"import {label}: events/s", f"{imported:,.0f}", f"{inserted:,.0f} (sqlite3 inserts)",
         _ratio(imported / inserted, 1 / 3, at_least=True)),
        (f"report --format html, {label}, in one process (a diagnostic)", f"{reported:.2f} s",
         f"{replayed_s:.2f} s (replays.rebuild)", f"{reported / replayed_s:.2f}x (no target)"),
        _report_row(report_cmd, cold, label),
        (f"report --format html, {label}: size", f"{size / 1e6:.2f} MB", "5 MB",
         _verdict(size < 5_000_000)),
        *serving.rows(db, work, runs * 2, label),
    ]


def _shell_rows(shells: dict[int, tuple[float, float]],
                game: str = "") -> list[tuple[str, str, str, str]]:
    rows = []
    shell = f"shell ({game})" if game else "shell"
    for size, (roll, status) in shells.items():
        rows.append((f"{shell}: status after a roll, {size // 1000}k", f"{status:.2f} ms",
                     f"5 ms (roll: {roll:.2f} ms)", _verdict(status < 5)))
    if 1_000 in shells and 100_000 in shells:
        growth = shells[100_000][1] / shells[1_000][1]
        rows.append((f"{shell}: status 100k / 1k", f"{growth:.2f}x", "1.5x",
                     _verdict(growth <= 1.5)))
    return rows


_ratio, _verdict = flat.ratio, flat.verdict


def _print(rows: list[tuple[str, str, str, str]]) -> None:
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, {platform.platform()}")
    widths = [max(len(r[i]) for r in [("figure", "spire", "reference", "ratio"), *rows])
              for i in range(4)]
    for row in [("figure", "spire", "reference", "ratio"), *rows]:
        cells = (cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        print("  ".join(cells).rstrip())


if __name__ == "__main__":
    main()
