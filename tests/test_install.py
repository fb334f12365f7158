"""`pipx install .` and `uv tool install .` give a `spire` that runs in a new shell, outside
any virtual environment: the install route the README gives for an application.

Each installs into throwaway homes under tmp_path, never the user's. Installing fetches
spire's dependencies from the package index, so the tests are skipped, saying why, where it
is out of reach, and where the tool is not installed (`.ci/run` installs both).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

import pytest

from journal import __version__

ROOT = Path(__file__).resolve().parents[1]
INSTALL_TIMEOUT = 600


def _tool(name: str) -> str | None:
    """The tool `name`: on PATH, or beside the Python running the tests (a venv's bin)."""
    beside = Path(sys.executable).parent / name
    return shutil.which(name) or (str(beside) if beside.is_file() else None)


@cache
def _index_unreachable() -> str | None:
    """Why the package index cannot be reached, or None if it can: pip, ignoring this
    machine's own configuration (--isolated), downloads one small dependency of spire's."""
    with tempfile.TemporaryDirectory() as into:
        with_pip = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--isolated", "--no-deps",
             "--no-cache-dir", "--timeout", "15", "--retries", "1", "-q", "-d", into,
             "platformdirs"], capture_output=True, text=True, check=False, timeout=120)
    if with_pip.returncode == 0:
        return None
    said = (with_pip.stderr.strip().splitlines() or ["no reason given"])[-1]
    return f"installing needs the package index, which is out of reach here (pip: {said})"


def _new_shell(bin_dir: Path, home: Path) -> subprocess.CompletedProcess[str]:
    """`spire --version` in a new shell that knows nothing but `bin_dir`: no virtual
    environment, no variable of this process (env -i)."""
    return subprocess.run(
        ["env", "-i", f"PATH={bin_dir}", f"HOME={home}", "/bin/sh", "-c", "spire --version"],
        capture_output=True, text=True, check=False, timeout=60)


def _installed(tool: str, command: list[str], env: dict[str, str]) -> None:
    if _tool(tool) is None:
        pytest.skip(f"{tool} is not installed (`.ci/run` installs it: pip install {tool})")
    reason = _index_unreachable()
    if reason is not None:
        pytest.skip(reason)
    done = subprocess.run([_tool(tool) or tool, *command], capture_output=True, text=True,
                          check=False, timeout=INSTALL_TIMEOUT, env={**os.environ, **env})
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_pipx_install_gives_a_spire_that_runs_in_a_new_shell(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    _installed("pipx", ["install", str(ROOT)], {
        "PIPX_HOME": str(tmp_path / "pipx"), "PIPX_BIN_DIR": str(bin_dir),
        "PIPX_MAN_DIR": str(tmp_path / "man"), "HOME": str(tmp_path)})
    shown = _new_shell(bin_dir, tmp_path)
    assert (shown.returncode, shown.stdout, shown.stderr) == (0, f"spire {__version__}\n", "")
    assert Path(os.path.realpath(bin_dir / "spire")).is_relative_to(tmp_path / "pipx")


@pytest.mark.slow
def test_uv_tool_install_gives_a_spire_that_runs_in_a_new_shell(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    _installed("uv", ["tool", "install", "--python", sys.executable, str(ROOT)], {
        "UV_TOOL_DIR": str(tmp_path / "tools"), "UV_TOOL_BIN_DIR": str(bin_dir),
        "UV_PYTHON_DOWNLOADS": "never", "HOME": str(tmp_path)})
    shown = _new_shell(bin_dir, tmp_path)
    assert (shown.returncode, shown.stdout, shown.stderr) == (0, f"spire {__version__}\n", "")
    assert (tmp_path / "tools" / "spire-journal").is_dir()
