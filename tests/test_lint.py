"""The tree is clean under ruff with the rule set pyproject.toml chooses (pycodestyle,
pyflakes, isort, bugbear): `.ci/run` runs it with the rest of the suite."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def ruff(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", *args],
                          cwd=cwd, capture_output=True, text=True)


@pytest.mark.slow
def test_ruff_finds_nothing() -> None:
    run = ruff(".")
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.slow
def test_ruff_finds_what_its_rules_forbid(tmp_path: Path) -> None:
    # The check is not a no-op: the project's own settings catch an unused import, an
    # unsorted import block, a mutable default and a line past 100 characters.
    (tmp_path / "pyproject.toml").write_text(
        (ROOT / "pyproject.toml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "bad.py").write_text(
        "import sys\nimport os\n\n\ndef f(x=[]):\n    return x  " + "#" * 100 + "\n",
        encoding="utf-8")
    out = ruff("bad.py", "--output-format", "concise", cwd=tmp_path).stdout
    for code in ("F401", "I001", "B006", "E501"):
        assert code in out, out
