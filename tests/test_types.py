"""The package type-checks under `mypy --strict` with the pydantic plugin (pyproject.toml)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_mypy_strict_finds_nothing(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path), str(ROOT / "journal")],
        cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.slow
def test_the_test_game_holds_to_the_game_interface(tmp_path: Path) -> None:
    """Coin Tally (tests/toygame/) is checked against the Protocols as a shipped game is:
    its shape.py assigns each module to what the core asks of it (the journal read from
    this checkout, as the test above reads it, however it is installed)."""
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path), "-p", "toygame"],
        cwd=ROOT, capture_output=True, text=True,
        env={**os.environ, "MYPYPATH": os.pathsep.join([str(ROOT / "tests"), str(ROOT)])})
    assert run.returncode == 0, run.stdout + run.stderr
