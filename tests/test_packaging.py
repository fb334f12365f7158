"""The wheel puts nothing into site-packages but `journal`: rules and migrations ship
inside it (a top-level `rules` or `migrations` would collide with other packages)."""

from __future__ import annotations

import configparser
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Iterator[zipfile.ZipFile]:
    out = tmp_path_factory.mktemp("wheel")
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-cache-dir", "-q", "-w", str(out), str(ROOT)],
        capture_output=True, text=True, timeout=300, check=False)
    assert build.returncode == 0, build.stderr
    (built,) = out.glob("spire_journal-*.whl")
    with zipfile.ZipFile(built) as archive:
        yield archive


def names(wheel: zipfile.ZipFile) -> list[str]:
    return wheel.namelist()


@pytest.mark.slow
def test_the_wheel_holds_only_the_journal_package(wheel: zipfile.ZipFile) -> None:
    tops = {name.split("/", 1)[0] for name in names(wheel)}
    (dist_info,) = [top for top in tops if top.endswith(".dist-info")]
    assert tops == {"journal", dist_info}
    assert {"journal/__init__.py", "journal/store/__init__.py", "journal/cli/__init__.py"} <= set(
        names(wheel))


@pytest.mark.slow
def test_rules_and_migrations_ship_inside_the_package(wheel: zipfile.ZipFile) -> None:
    shipped = set(names(wheel))
    rules = sorted((ROOT / "rules").glob("*.toml"))
    versions = sorted((ROOT / "migrations" / "versions").glob("*.py"))
    assert rules and versions
    assert {f"journal/rules/{r.name}" for r in rules} <= shipped
    assert {f"journal/migrations/versions/{v.name}" for v in versions} <= shipped
    assert {"journal/migrations/env.py", "journal/migrations/script.py.mako"} <= shipped
    assert not [name for name in shipped if "__pycache__" in name or name.endswith(".pyc")]


@pytest.mark.slow
def test_the_console_script_is_spire(wheel: zipfile.ZipFile) -> None:
    (entry_points,) = [n for n in names(wheel) if n.endswith(".dist-info/entry_points.txt")]
    parser = configparser.ConfigParser()
    parser.read_string(wheel.read(entry_points).decode())
    assert dict(parser["console_scripts"]) == {"spire": "journal.process:main"}


@pytest.mark.slow
def test_the_unpacked_wheel_runs_from_outside_the_checkout(
    wheel: zipfile.ZipFile, tmp_path: Path,
) -> None:
    site = tmp_path / "site"
    wheel.extractall(site)
    script = (
        "import sys, journal; assert journal.__file__.startswith(sys.argv[1]), journal.__file__; "
        "from journal.process import main; sys.argv[1:] = sys.argv[2:]; main()"
    )
    env = {"PYTHONPATH": str(site), "PATH": "", "COLUMNS": "100"}

    def spire(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", script, str(site), "--db", str(tmp_path / "j.sqlite"), *args],
            capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60, check=False)

    for args in (("new", "packed", "--game", "volume2"), ("gain", "bees", "2")):
        run = spire(*args)
        assert run.returncode == 0, run.stderr
    run = spire("status", "--json")
    assert run.returncode == 0, run.stderr
    assert '"bees": 3' in run.stdout
