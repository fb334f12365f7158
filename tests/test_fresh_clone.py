"""A fresh clone runs every behaviour test (issue 18): without the rulebooks beside the
repository (../shared/rulebooks, or SPIRE_RULEBOOKS) only the rulebook quotes go unchecked.
A test of behaviour quotes through conftest.quoted, which then records the quote as not
checked and goes on; only a test that checks nothing but quotes reads `rulebook` and is
skipped, and its name says so."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import quoted, rulebook

TESTS = Path(__file__).resolve().parent


def test_only_tests_of_quotes_read_a_rulebook() -> None:
    readers = []
    for path in sorted(TESTS.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef) or "quote" in function.name:
                continue
            calls = [n for n in ast.walk(function) if isinstance(n, ast.Call)
                     and isinstance(n.func, ast.Name) and n.func.id == "rulebook"]
            readers += [f"{path.name}::{function.name}" for _ in calls[:1]]
    assert readers == [], "these would be skipped without the rulebooks; use quoted()"


def test_a_quote_is_still_checked_when_the_rulebooks_are_here() -> None:
    rulebook("hildegard")  # skipped without them: there is nothing to check against
    quoted("hildegard", "Feats of Marksmanship can be spent like currency")
    with pytest.raises(AssertionError):
        quoted("hildegard", "Hildegard never misses.")


@pytest.mark.slow
def test_without_the_rulebooks_only_quote_tests_are_skipped(tmp_path: Path) -> None:
    """A small run, with SPIRE_RULEBOOKS naming a directory that is not there: the tests
    that quote while they test behaviour all run; only the quote tests are skipped."""
    chosen = ["test_deck.py", "test_things.py::test_feats_at_most_six",
              "test_hildegard_rules.py::test_the_tables_quote_the_rulebook"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:randomly", "-p", "no:cacheprovider", "-v",
         "-rs", "-o", "addopts=", *(str(TESTS / c) for c in chosen)],
        capture_output=True, text=True, cwd=TESTS.parent, check=False, timeout=300,
        env={**os.environ, "SPIRE_RULEBOOKS": str(tmp_path / "not-here")})
    assert done.returncode == 0, done.stdout[-3000:]
    ran = re.findall(r"^(tests/\S+?::[^\s\[]+)(?:\[.*\])? (PASSED|SKIPPED|FAILED)",
                     done.stdout, re.M)
    skipped = [test for test, outcome in ran if outcome == "SKIPPED"]
    assert skipped and all("quote" in test.split("::")[1] for test in skipped), skipped
    assert any(test.startswith("tests/test_deck.py") for test, _ in ran)
    assert not any(test.startswith(("tests/test_deck.py", "tests/test_things.py"))
                   for test in skipped)
    assert f"the rulebooks are not in {tmp_path / 'not-here'} (SPIRE_RULEBOOKS)" in done.stdout
    assert re.search(r"^\d+ rulebook quotes not checked", done.stdout, re.M), done.stdout[-500:]
