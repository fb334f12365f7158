"""The house's shape, kept by tests rather than by memory: no module over 500 lines and no
class over 200 (each is split by what it does), and no import circle between a game's
modules (each game a package a reader can read from its cards up)."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

JOURNAL = Path(__file__).resolve().parents[1] / "journal"
MODULES = sorted(JOURNAL.rglob("*.py"))
GAMES = sorted(p for p in (JOURNAL / "games").iterdir() if (p / "__init__.py").is_file())


def _name(path: Path) -> str:
    return ".".join(path.relative_to(JOURNAL.parent).with_suffix("").parts)


@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_a_module_stays_under_500_lines_and_a_class_under_200(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 500, f"{_name(path)}: split it by what it does"
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            size = (node.end_lineno or node.lineno) - node.lineno + 1
            assert size <= 200, f"{_name(path)}.{node.name} is {size} lines"


def _imported(path: Path, package: str) -> set[str]:
    """The modules of `package` that `path` imports when it is imported (its top-level
    imports; those inside a function or under TYPE_CHECKING run later, or never)."""
    found: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == package:
                found |= {f"{package}.{alias.name}" for alias in node.names}
            elif node.module.startswith(package + "."):
                found.add(node.module)
    return found


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.name)
def test_a_games_modules_import_one_another_in_one_direction(game: Path) -> None:
    package = _name(game / "__init__.py").removesuffix(".__init__")
    modules = {_name(p): p for p in game.glob("*.py") if p.name != "__init__.py"}
    graph = {name: _imported(path, package) & modules.keys() for name, path in modules.items()}
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as e:
        pytest.fail(f"an import circle in {package}: {' -> '.join(e.args[1])}")
    assert set(order) == set(modules)
