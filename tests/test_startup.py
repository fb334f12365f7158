"""Nothing heavy is imported until a command needs it (issue 7): `spire --help` and
`spire --version` load typer and none of the commands; `spire status` loads the module that
defines it and no Rich. The speed itself is measured by tests/bench/bench.py, not here;
these tests keep the import graph that makes it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import Spire

import journal
from journal.cli import MODULES, app, reference
from journal.cli.index import COMMANDS

ROOT = Path(__file__).resolve().parents[1]

# Runs `spire ARGS...` in a fresh interpreter and prints, as JSON, what it printed and the
# modules it had loaded when it finished.
PROBE = """
import contextlib, io, json, sys
from journal.process import main
sys.argv = ["spire", *sys.argv[1:]]
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        main()
    except SystemExit as e:
        code = e.code
print(json.dumps({"code": code, "out": out.getvalue(), "modules": sorted(sys.modules),
                  "collecting": __import__("gc").isenabled()}))
"""

HEAVY = ("sqlalchemy", "pydantic", "rich", "alembic", "journal.service", "journal.store",
         "prompt_toolkit")


def probe(*args: str, env: dict[str, str] | None = None, stdin: str = "") -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, check=True,
        input=stdin, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
    result: dict[str, object] = json.loads(done.stdout)
    return result


def loaded(result: dict[str, object], *prefixes: str) -> list[str]:
    modules = result["modules"]
    assert isinstance(modules, list)
    return [m for m in modules if m.split(".")[0] in prefixes or m.startswith(prefixes)]


def command_modules(result: dict[str, object]) -> list[str]:
    """The modules of commands the process imported: the core's and the games' own."""
    core = [m for m in loaded(result, "journal.cli.") if m.rpartition(".")[2] in MODULES]
    games = [m for m in loaded(result, "journal.games.") if m.endswith(".commands")]
    return core + games


@pytest.mark.slow
@pytest.mark.parametrize("args", [["--help"], ["--version"], []])
def test_help_and_version_load_no_command_and_nothing_heavy(args: list[str]) -> None:
    result = probe(*args)
    assert result["code"] in (0, None)
    assert "spire" in str(result["out"])
    assert command_modules(result) == []
    assert loaded(result, *HEAVY) == []


@pytest.mark.slow
def test_help_lists_every_command_without_loading_one() -> None:
    from journal.cli.dispatch import index
    from journal.cli.panels import PANELS
    from journal.games import names

    out = str(probe("--help")["out"])
    panels = out.split("\n\n")[4:-1]  # usage, two paragraphs, options; the epilog last
    games = [index(game).PANEL for game in names()]  # each game's verbs, after the core's
    assert [p.splitlines()[0] for p in panels] == [f"{panel}:" for panel in [*PANELS, *games]]
    core = panels[:len(PANELS)]
    listed = [line.split()[0] for p in core for line in p.splitlines()[1:]
              if not line.startswith("   ")]
    assert sorted(listed) == sorted(name for name, (_, text) in COMMANDS.items()
                                    if text is not None)
    assert listed == [name for verbs in PANELS.values() for name in verbs if name in COMMANDS]


@pytest.mark.slow
def test_status_loads_its_own_module_and_no_rich(spire: Spire) -> None:
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    spire.ok("reveal", "1")
    result = probe("--db", str(spire.db), "status")
    assert "gray-oaks" in str(result["out"])
    assert command_modules(result) == ["journal.cli.looking"]
    assert loaded(result, "rich") == []


@pytest.mark.slow
@pytest.mark.parametrize("args", [["status"], ["status", "--json"], ["status", "-b", "main"]])
def test_status_after_a_write_loads_neither_the_rules_nor_pydantic(
    hildegard: Spire, args: list[str],
) -> None:
    # The write kept the glance of its new head; status shows it without folding, and
    # typer parses its options without pydantic (journal.cli.text_as_given).
    hildegard.ok("reveal", "1")
    hildegard.ok("note", "the gate is shut")
    result = probe("--db", str(hildegard.db), *args, env={"SPIRE_CAMPAIGN": "gray-oaks"})
    assert result["code"] in (0, None)
    assert "the gate is shut" in str(result["out"])
    assert loaded(result, "pydantic", "pydantic_core", "journal.core.events", "journal.core.state",
                  "journal.core.decide", "journal.games.", "alembic", "rich") == []


WEB = ("starlette", "uvicorn", "jinja2", "anyio", "h11", "journal.web", "journal.cli.serving")
"""What `spire serve` alone loads (issue 35): the web framework, its server, the templates."""


@pytest.mark.slow
@pytest.mark.parametrize("args", [["--help"], ["status"], ["status", "--json"], ["log"],
                                  ["serve", "--help"]])
def test_no_command_but_serve_loads_the_web_server(hildegard: Spire, args: list[str]) -> None:
    hildegard.ok("note", "the gate is shut")
    result = probe("--db", str(hildegard.db), *args, env={"SPIRE_CAMPAIGN": "gray-oaks"})
    assert result["code"] in (0, None), result
    assert str(result["out"]).strip()
    web = loaded(result, *WEB)
    assert web == ([] if args != ["serve", "--help"] else ["journal.cli.serving"]), web


GATE = ["target", "Gate", "--limit", "5", "--accuracy", "3", "--sets", "3", "--parts", "c,r,d"]
WADE_FIGHT = [["card", "add", "Finnian", "--ally", "--recoup", "1"],
              ["card", "add", "Wade Slocum", "--enemy", "--hp", "8", "--ap", "2",
               "--ferocity", "1", "--attacks", "1", "--retreat", "3"],
              ["fight", "Wade Slocum"]]
OTHER_GAMES = {"hildegard": ("journal.games.volume2", "journal.games.spires_end"),
               "volume2": ("journal.games.hildegard", "journal.games.spires_end")}


@pytest.mark.slow
@pytest.mark.parametrize(("game", "before", "write"), [
    ("hildegard", [GATE], ["roll", "c", "c", "r"]),
    ("hildegard", [GATE, ["roll", "c", "c", "r"]], ["lock", "1"]),
    ("hildegard", [], ["reveal", "5"]),
    ("hildegard", [], ["note", "the", "gate", "is", "shut"]),
    ("volume2", [*WADE_FIGHT, ["roll", "hive"],
                 ["lock", "1"]], ["deploy", "pollen"]),
])
def test_a_one_shot_write_loads_its_game_alone_and_no_typer_adapter(
    spire: Spire, game: str, before: list[list[str]], write: list[str],
) -> None:
    # Issue 33: typer's pydantic adapter for a list or a number (`roll c c r`, `lock 1`,
    # `reveal 5`) is no write's; no other game's modules; no Alembic for a journal at the
    # head. (Pydantic itself is loaded: the events are its models, docs/performance.md.)
    spire.ok("new", "gray-oaks", "--game", game)
    spire.ok("reveal", "1")
    for args in before:
        spire.ok(*args)
    result = probe("--db", str(spire.db), *write)
    assert result["code"] in (0, None), result
    assert str(result["out"]).startswith("#")
    assert [m for m in loaded(result, "typer") if m.endswith("adapters")] == []
    others = loaded(result, *OTHER_GAMES[game])  # their verbs' lists only: whose `roll`?
    assert set(others) <= {m for p in OTHER_GAMES[game] for m in (p, f"{p}.index")}
    assert loaded(result, "alembic", "rich", "prompt_toolkit") == []
    assert command_modules(result) == [f"journal.games.{game}.commands"] or \
        write[0] in ("reveal", "note") and command_modules(result) in (
            ["journal.cli.deck"], ["journal.cli.things"])


@pytest.mark.slow
@pytest.mark.parametrize("game", ["hildegard", "volume2", "spires-end"])
def test_a_new_journal_is_made_without_alembic_or_another_games_modules(
    tmp_path: Path, game: str,
) -> None:
    # Issue 33: a new file is made at the head from the store's tables and stamped; the
    # migrations (and Alembic) are for a journal that is older (journal/store/migration.py).
    package = game.replace("-", "_")
    result = probe("--db", str(tmp_path / "new.sqlite"), "new", "first", "--game", game)
    assert result["code"] in (0, None), result
    assert loaded(result, "alembic", "mako", "rich") == []
    others = [m for m in loaded(result, "journal.games.") if m.split(".")[2] != package]
    assert [m for m in others if m.rpartition(".")[2] not in (m.split(".")[2], "index")] == []


@pytest.mark.slow
@pytest.mark.parametrize(("command", "name"), [("report", "night.html"), ("export", "night.jsonl")])
def test_an_output_file_is_named_as_text_without_typers_path_check(
    hildegard: Spire, tmp_path: Path, command: str, name: str,
) -> None:
    # typer's check of a Path builds a pydantic adapter (about 250 M instructions, a
    # twentieth of a 100k report); a file to write is a name, taken as text and made a Path.
    hildegard.ok("reveal", "1")
    written = tmp_path / name
    result = probe("--db", str(hildegard.db), command, "-o", str(written),
                   env={"SPIRE_CAMPAIGN": "gray-oaks"})
    assert result["code"] in (0, None)
    assert written.stat().st_size > 0
    assert [m for m in loaded(result, "typer") if m.endswith("adapters")] == []  # its pydantic


@pytest.mark.slow
def test_the_spire_process_closes_its_journal_and_freezes_what_is_left(tmp_path: Path) -> None:
    # The interpreter's last collections would walk everything a command loaded; `main`
    # closes the journal itself, then freezes the rest (journal.cli.main). What a write
    # recorded is there, and SQLite's write-ahead log was closed with the journal (only
    # these processes open it: one that stayed open would keep the log).
    probe_frozen = PROBE.replace("print(json.dumps({", "import gc\nprint(json.dumps({"
                                 "'frozen': gc.get_freeze_count(), ")
    db = tmp_path / "journal.sqlite"

    def run(*args: str, stdin: str = "", **env: str) -> dict[str, object]:
        done = subprocess.run(
            [sys.executable, "-c", probe_frozen, "--db", str(db), *args], capture_output=True,
            text=True, check=True, input=stdin, env={**os.environ, "PYTHONPATH": str(ROOT), **env})
        result: dict[str, object] = json.loads(done.stdout)
        assert result["code"] in (0, None), done.stderr
        assert isinstance(result["frozen"], int) and result["frozen"] > 0
        assert not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists(), args
        return result

    run("new", "gray-oaks", "--game", "hildegard")
    run("note", "the gate")
    run("play", stdin="note the road\ncheckpoint gate\n")  # the shell's kept journal
    completed = run(_SPIRE_COMPLETE="complete_bash", COMP_WORDS="spire rewind ", COMP_CWORD="2",
                    SPIRE_DB=str(db))
    assert "gate" in str(completed["out"])  # completion opens the journal on its own
    assert "Note: the road" in str(run("log")["out"])


@pytest.mark.slow
def test_a_table_still_comes_from_rich(spire: Spire) -> None:
    spire.ok("new", "gray-oaks", "--game", "hildegard")
    result = probe("--db", str(spire.db), "log")
    assert "#" in str(result["out"]).splitlines()[0]
    assert loaded(result, "rich.table") == ["rich.table"]


def test_the_command_indexes_are_current() -> None:
    # Paths are where the package is imported from (site-packages when CI installs it), so
    # each is compared with the same file in this checkout.
    installed = Path(journal.__file__).parent.parent
    files = {ROOT / path.relative_to(installed): text
             for path, text in reference.index_files().items()}
    assert ROOT / "journal" / "cli" / "index.py" in files
    assert len(files) == 4  # the core's, and each game's
    for path, text in files.items():
        assert path.read_text(encoding="utf-8") == text, (
            f"{path.relative_to(ROOT)} is out of date with the commands; regenerate the "
            f"indexes with `{reference.REGENERATE_INDEX}` and commit them")


@pytest.mark.slow
def test_a_games_verb_loads_that_games_commands_only(spire: Spire) -> None:
    spire.ok("new", "plains", "--game", "volume2")
    result = probe("--db", str(spire.db), "roll", "--help")
    assert "sickle" in str(result["out"])
    assert command_modules(result) == ["journal.games.volume2.commands"]


def test_every_command_in_the_index_is_found(spire: Spire) -> None:
    for name in COMMANDS:
        assert name in spire.ok(name, "--help")


@pytest.mark.slow
@pytest.mark.parametrize("module", MODULES)
def test_a_command_loads_only_its_own_module(module: str) -> None:
    name = next(name for name, (where, _) in COMMANDS.items() if where == module)
    result = probe(name, "--help")
    assert result["code"] in (0, None)
    assert command_modules(result) == [f"journal.cli.{module}"]


def test_a_mistyped_command_is_still_suggested(spire: Spire) -> None:
    assert "did you mean 'status'?" in spire.refused("stauts", code=2)


def test_status_is_bold_on_a_terminal_that_takes_colour(spire: Spire) -> None:
    spire.ok("new", "gray-oaks", "--game", "hildegard")

    def status(**env: str) -> str:
        result = spire.runner.invoke(app, ["--db", str(spire.db), "status"], env=env)
        assert result.exit_code == 0, result.stderr
        return result.stdout

    plain = status()
    assert "\x1b[" not in plain
    assert "\x1b[1mcampaign" in status(FORCE_COLOR="1")
    assert status(FORCE_COLOR="1", NO_COLOR="1") == plain


def test_every_module_that_defines_a_command_is_listed() -> None:
    # A module missing from MODULES would be missing from the index, so from `spire` itself.
    defining = sorted(path.stem for path in (ROOT / "journal" / "cli").glob("*.py")
                      if "@app.command" in path.read_text(encoding="utf-8")
                      or "app.add_typer(" in path.read_text(encoding="utf-8"))
    assert defining == sorted(MODULES)


def test_values_taken_as_given_mean_what_typers_check_makes_them() -> None:
    # journal.cli.text_as_given skips typer's pydantic check only where it would change
    # nothing; a value of another type (a non-text default, a flag from the environment)
    # still goes through it.
    import typer.main
    import typer.testing

    from journal.cli import built_command, text_as_given
    from journal.cli.values import _Checked

    sample = typer.Typer()

    @sample.command()
    def show(name: str = typer.Option(5), loud: bool = typer.Option(False, envvar="LOUD")) -> None:
        print(repr(name), repr(loud))

    command = built_command(typer.main.get_command(sample))
    text_as_given(command, typer.Context(command, help_option_names=["--help"]))
    assert all(isinstance(p, _Checked) and p.as_given in (str, bool) for p in command.params)
    runner = typer.testing.CliRunner()

    def run(*args: str, env: dict[str, str] | None = None) -> tuple[object, str, str]:
        code: object = None
        with runner.isolation(env=env) as (out, err, _):  # this command, not one typer builds
            try:
                command.main(args=list(args), prog_name="show")
            except SystemExit as e:
                code = e.code
            sys.stdout.flush()
            sys.stderr.flush()
            return code, out.getvalue().decode(), err.getvalue().decode()

    assert run()[1] == "'5' False\n"
    assert run("--name", "Hildegard", "--loud")[1] == "'Hildegard' True\n"
    assert run(env={"LOUD": "yes"})[1] == "'5' True\n"
    code, _, err = run(env={"LOUD": "maybe"})
    assert code == 2 and "loud" in err.lower()


def test_numbers_and_lists_taken_as_given_mean_what_typers_check_makes_them() -> None:
    # Issue 33: a whole number in plain digits within its range and a list of texts or of
    # such numbers need no pydantic adapter; anything else still meets typer's check. The
    # same command with typer's check alone answers each line the same.
    import typer.main
    import typer.testing

    from journal.cli import built_command, text_as_given
    from journal.cli.values import _Checked

    sample = typer.Typer(add_completion=False)

    @sample.command()
    def show(dice: list[int] = typer.Argument(None), n: int = typer.Option(1, min=1, max=8),
             words: list[str] = typer.Option([], "--word")) -> None:
        print(repr(dice), repr(n), repr(words))

    typers = typer.main.get_command(sample)
    command = built_command(typer.main.get_command(sample))
    text_as_given(command, typer.Context(command, help_option_names=["--help"]))
    given = {p.name: p.as_given for p in command.params if isinstance(p, _Checked)}
    assert given == {"dice": list[int], "n": int}  # a repeated option (--word): typer's
    runner = typer.testing.CliRunner()

    def run(which: Any, *args: str) -> tuple[object, str]:
        code: object = 0
        with runner.isolation() as (out, _, _):  # this command, not one typer builds
            try:
                which.main(args=list(args), prog_name="show")
            except SystemExit as e:
                code = e.code
            sys.stdout.flush()
            return code, out.getvalue().decode()

    assert run(command, "3", "1", "--n", "2") == (0, "[3, 1] 2 []\n")
    for args in ([], ["3", "1", "--n", "2"], ["007", "--n", "+2", "--word", "a"], ["1_000"],
                 ["x"], ["--n", "9"], ["--n", "0"], ["-1"], ["2", "--n", " 3"]):
        assert run(command, *args) == run(typers, *args), args


@pytest.mark.slow
def test_a_snapshot_is_read_with_its_own_games_state_alone(spire: Spire) -> None:
    # Issue 33: a Volume 2 write on a journal with snapshots read Hildegard's and Spire's
    # End's state modules (their events and cards too) to find whose state it held.
    from journal.core import snapshots
    from journal.service.reading import Reading

    spire.ok("new", "plains", "--game", "volume2")
    spire.ok("reveal", "1")
    for args in WADE_FIGHT:
        spire.ok(*args)
    text = snapshots.encode(Reading(str(spire.db)).view().state)
    read = ("import json, sys\nfrom journal.core import snapshots\n"
            "state = snapshots.decode(sys.argv[1])\n"
            "print(json.dumps([type(state.game_state).__module__, sorted(sys.modules)]))")
    done = subprocess.run([sys.executable, "-c", read, text], capture_output=True, text=True,
                          check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    module, modules = json.loads(done.stdout)
    assert module == "journal.games.volume2.state"
    assert [m for m in modules if m.startswith(OTHER_GAMES["volume2"])] == []


@pytest.mark.slow
def test_a_one_shot_command_runs_with_the_collector_paused_and_a_shell_resumes_it(
    tmp_path: Path,
) -> None:
    # Python's cyclic collector walks everything a command imports, again and again, only
    # to find it alive (a sixth of a one-shot write, issue 33): `spire` pauses it for a
    # command that ends (journal/process.py). The play shell stays, so it runs with it.
    db = str(tmp_path / "journal.sqlite")
    for args in (["new", "gray-oaks", "--game", "hildegard"], ["note", "the gate"], ["log"]):
        result = probe("--db", db, *args)
        assert result["code"] in (0, None), args
        assert result["collecting"] is False, args
    assert "Note: the gate" in str(probe("--db", db, "log")["out"])
    for args, stdin in ((["play"], "note the road\n"), (["watch"], ""),
                        (["serve", "--port", "0"], "")):
        done = subprocess.run(
            [sys.executable, "-c", STAYING, "--db", db, *args], capture_output=True,
            text=True, check=True, input=stdin, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert json.loads(done.stdout.splitlines()[-1]) == {args[0]: True}, done.stderr
    assert "Note: the road" in str(probe("--db", db, "log")["out"])


STAYING = """
import gc, json, sys
import uvicorn
from journal.cli import play, watch
seen = {}
line = play.Shell.execute
def execute(self, text):  # a line of the shell, as it runs
    seen["play"] = gc.isenabled()
    return line(self, text)
def wait(changes, stop):  # a watch between two looks: asked to stop
    seen["watch"] = gc.isenabled()
    stop.set()
def run(self, sockets=None):  # the server, as it would serve
    seen["serve"] = gc.isenabled()
play.Shell.execute, watch._wait, uvicorn.Server.run = execute, wait, run
from journal.process import main
sys.argv = ["spire", *sys.argv[1:]]
try:
    main()
except SystemExit as e:
    assert e.code in (0, None), e.code
print(json.dumps(seen))
"""
"""Runs a command that stays (`play`, `watch`, `serve`) as the `spire` script does, and
prints whether the collector was on while it ran: a shell's line, a watch between two
looks, the server as it starts serving."""


PLUGIN_DIST = {
    "spy_plugin.py": "import pathlib, os\n"
                     "pathlib.Path(os.environ['SPY_MARK']).write_text('loaded')\n"
                     "class Plugin:\n"
                     "    def new_schema_validator(self, *args, **kwargs):\n"
                     "        return None, None, None\n"
                     "plugin = Plugin()\n",
    "spy_plugin-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: spy-plugin\nVersion: 1.0\n",
    "spy_plugin-1.0.dist-info/entry_points.txt": "[pydantic]\nspy = spy_plugin:plugin\n",
}
"""A pydantic plugin, installed as a package installs one (an entry point of the group
`pydantic`), that leaves a mark when it is loaded."""


@pytest.mark.slow
def test_a_write_looks_for_no_pydantic_plugin(tmp_path: Path) -> None:
    # Finding pydantic's plugins reads the entry points of every package installed beside
    # spire, at the first model a command validates; spire has none (journal/process.py).
    site = tmp_path / "site"
    for name, text in PLUGIN_DIST.items():
        (site / name).parent.mkdir(parents=True, exist_ok=True)
        (site / name).write_text(text)
    mark, db = tmp_path / "loaded", str(tmp_path / "journal.sqlite")
    env = {"PYTHONPATH": os.pathsep.join([str(ROOT), str(site)]), "SPY_MARK": str(mark)}
    unset = {k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}

    def run(*args: str, **more: str) -> None:
        done = subprocess.run([sys.executable, "-m", "journal", "--db", db, *args],
                              capture_output=True, text=True, check=False,
                              env={**unset, **env, **more})
        assert done.returncode == 0, done.stderr

    run("new", "gray-oaks", "--game", "hildegard")
    run("target", "Street Merchant")
    run("roll", "c", "c", "r")
    assert not mark.exists()
    run("undo", PYDANTIC_DISABLE_PLUGINS="")  # one set by the player is kept: none disabled
    assert mark.read_text() == "loaded"


LEFT_BEHIND = """
import gc, sys
from journal.process import main
sys.argv = ["spire", *sys.argv[1:]]
try:
    main()
except SystemExit as e:
    assert e.code in (0, 1, None), e.code  # 1: an audit's findings are an answer too
gc.unfreeze()  # what `main` froze as it ended: the cycles left behind among it
print(gc.collect())
"""
"""Runs `spire ARGS...` as the `spire` script does, and prints how many objects it left
in cycles that only the collector frees."""


@pytest.mark.slow
@pytest.mark.parametrize("args", [
    ["log"], ["replay"], ["replay", "--verify"], ["audit"], ["map"],
    ["export", "-o", "{out}.jsonl"], ["report", "-o", "{out}.json"],
    ["report", "-o", "{out}.html"], ["report", "-o", "{out}.md"],
])
def test_a_command_that_reads_a_whole_branch_leaves_no_cycle_an_event(
    tmp_path: Path, args: list[str],
) -> None:
    # A one-shot command runs with the collector paused (journal/process.py): a pass that
    # left a cycle behind each event would grow with the campaign, unfreed (the JSON
    # report's encoder did: 337 MB at 100k events, 31 objects an event). Three times the
    # events leave fewer than one more object an event (what a collection has not reached
    # yet where the collector runs; the audit's undos, a fraction of one).
    sys.path.insert(0, str(ROOT / "tests" / "bench"))
    from journal_gen import build

    left = {}
    for events in (1000, 3000):
        db = tmp_path / f"j{events}.sqlite"
        build(db, events, undo_every=20, name="long")
        command = [a.format(out=tmp_path / f"out{events}") for a in args]
        done = subprocess.run(
            [sys.executable, "-c", LEFT_BEHIND, "--db", str(db), "-c", "long", *command],
            capture_output=True, text=True, check=False,
            env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert done.returncode == 0, done.stderr
        left[events] = int(done.stdout.splitlines()[-1])
    assert left[3000] - left[1000] < 2000, left
