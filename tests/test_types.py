"""The package type-checks under `mypy --strict` with the pydantic plugin (pyproject.toml)."""

from __future__ import annotations

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
