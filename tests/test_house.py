"""The house's shape, kept by tests rather than by memory (issue 30, item 5).

- No module over 500 lines and no class over 200: each is split by what it does.
- Every import counts, the top-level ones, those inside a function and those under
  TYPE_CHECKING: a function-level import is an arrow the reader follows all the same.
- Layers, bottom first: `LAYERS`. A module imports its own layer and those below it,
  never one above (the rules do not reach for the service, nor the service for the CLI).
- No import circle anywhere, in a layer or across, the games' packages included: a game's
  state imports nothing of its view.
- No game is named in the code of the core: outside journal/games/, no string or name
  says hildegard, spires-end or volume2. Docstrings and comments are exempt (they quote
  the rulebooks and give examples: `spire new tower --game spires-end`).
"""

from __future__ import annotations

import ast
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

JOURNAL = Path(__file__).resolve().parents[1] / "journal"
MODULES = sorted(JOURNAL.rglob("*.py"))

GAME_LAYERS = {
    "rules": ("", "events", "state", "evolve", "cards", "catalog", "dice", "describe", "view",
              "combat", "turns", "rounds", "split", "finesse", "effects", "meter", "rules",
              "world", "party", "recheck", "order", "allowed"),
    "service": ("demo",),
    "present": ("odds", "odds_next", "meter_odds", "insight", "report"),
    "cli": ("commands", "commands.*", "index", "shape"),
}
"""A game's modules by layer (its package itself, "", with its rules): a game is a package
of one shape, its lower modules beside the core's rules and its upper ones beside the
core's layers that ask for them."""


def _game(layer: str) -> tuple[str, ...]:
    return tuple(f"journal.games.*.{m}".rstrip(".") for m in GAME_LAYERS[layer])


LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("base", ("journal", "journal.errors", "journal.paths", "journal.terminal")),
    ("rules", ("journal.core", "journal.core.*",
               "journal.games", "journal.games.interface", "journal.games.packages",
               *_game("rules"))),
    ("store", ("journal.store", "journal.store.*")),
    ("service", ("journal.service", "journal.service.*", "journal.audit", "journal.audit.*",
                 *_game("service"))),
    ("present", ("journal.render", "journal.render.*", "journal.insight", "journal.insight.*",
                 "journal.report", "journal.report.*", "journal.web", "journal.web.*",
                 *_game("present"))),
    ("cli", ("journal.__main__", "journal.process", "journal.cli", "journal.cli.*",
             *_game("cli"))),
)
"""The layers, bottom first, and the modules of each (shell patterns over their names)."""

GAME_NAMES = re.compile(r"hildegard|spires.end|volume.?2", re.IGNORECASE)


def _name(path: Path, root: Path = JOURNAL) -> str:
    dotted = ".".join(path.relative_to(root.parent).with_suffix("").parts)
    return dotted.removesuffix(".__init__")


# -- the import graph ---------------------------------------------------------------------

def imports(root: Path) -> dict[str, set[str]]:
    """Every module of the package at `root` and the modules of it that it imports, with
    any import statement anywhere in it: top level, in a function, under TYPE_CHECKING."""
    paths = {_name(p, root): p for p in sorted(root.rglob("*.py"))}
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _targets(node, package, paths.keys()):
                while target and target not in paths:  # journal.store.Store: journal.store
                    target = target.rpartition(".")[0]
                if target and target != module:
                    found.add(target)
        graph[module] = found
    return graph


def _targets(node: ast.AST, package: str, modules: object) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            parent = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join([*parent, *([base] if base else [])])
        for alias in node.names:  # `from journal import service` names a module
            whole = f"{base}.{alias.name}"
            yield whole if whole in modules else base  # type: ignore[operator]


def layer_of(module: str) -> str:
    """The layer `module` belongs to; every module is in exactly one."""
    found = [name for name, patterns in LAYERS if any(_matches(module, p) for p in patterns)]
    assert len(found) == 1, f"{module} is in {found or 'no layer'}: place it in LAYERS"
    return found[0]


def _matches(module: str, pattern: str) -> bool:
    """`journal.games.*.odds` names each game's odds: a star stands for one name."""
    return re.fullmatch(re.escape(pattern).replace(r"\*", "[^.]+"), module) is not None


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Each import of a layer above the importer's, as `a (service) -> b (cli)`."""
    rank = {name: i for i, (name, _) in enumerate(LAYERS)}
    return sorted(f"{m} ({layer_of(m)}) -> {t} ({layer_of(t)})"
                  for m, targets in graph.items() for t in targets
                  if rank[layer_of(t)] > rank[layer_of(m)])


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The import circles: each set of modules that import one another, round and round
    (the strongly connected components of more than one module, found by Tarjan's walk)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph.get(module, ())):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = set()
            while True:
                top = stack.pop()
                component.add(top)
                if top == module:
                    break
            if len(component) > 1:
                found.append(component)

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def said(found: list[set[str]]) -> list[str]:
    """Each circle said as its modules: `journal.core.decide <-> journal.core.state`."""
    return sorted(" <-> ".join(sorted(c)) for c in found)


# -- the tests ------------------------------------------------------------------------------

@pytest.mark.parametrize("path", MODULES, ids=_name)
def test_a_module_stays_under_500_lines_and_a_class_under_200(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 500, f"{_name(path)}: split it by what it does"
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ClassDef):
            size = (node.end_lineno or node.lineno) - node.lineno + 1
            assert size <= 200, f"{_name(path)}.{node.name} is {size} lines"


def test_every_module_has_its_layer_and_imports_none_above_it() -> None:
    graph = imports(JOURNAL)
    assert "journal.games.packages" in graph["journal.service.journal"]  # a function-level import
    assert "journal.games.interface" in graph["journal.games.packages"]  # TYPE_CHECKING's
    assert upward(graph) == []


def test_no_import_circle_anywhere() -> None:
    assert said(circles(imports(JOURNAL))) == []


GAMES = sorted(p for p in (JOURNAL / "games").iterdir() if (p / "__init__.py").is_file())


def _imported_at_top(path: Path, package: str) -> set[str]:
    """The modules of `package` that `path` imports when it is imported."""
    found: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == package:
                found |= {f"{package}.{alias.name}" for alias in node.names}
            elif node.module.startswith(package + "."):
                found.add(node.module)
    return found


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.name)
def test_a_games_modules_import_one_another_in_one_direction_as_they_load(game: Path) -> None:
    """Stricter than the circles left to untie: as a game's modules load, none waits on
    one that waits on it (a reader can read a game from its cards up)."""
    from graphlib import CycleError, TopologicalSorter

    package = _name(game / "__init__.py")
    modules = {_name(p): p for p in game.glob("*.py") if p.name != "__init__.py"}
    graph = {name: _imported_at_top(path, package) & modules.keys()
             for name, path in modules.items()}
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as e:
        pytest.fail(f"an import circle in {package}: {' -> '.join(e.args[1])}")
    assert set(order) == set(modules)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the journal package to break on purpose."""
    copy = tmp_path / "journal"
    shutil.copytree(JOURNAL, copy, ignore=shutil.ignore_patterns("__pycache__", "templates"))
    return copy


def _add(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def test_the_house_test_fails_when_an_upward_import_is_added(tree: Path) -> None:
    """A rule reaching for the service inside a function is still an upward import."""
    _add(tree / "core" / "decide.py",
         "\n\ndef _peek() -> None:\n    from journal.service import journal\n")
    assert upward(imports(tree)) == [
        "journal.core.decide (rules) -> journal.service.journal (service)"]
    assert said(circles(imports(tree)))  # the service decides: it is a circle too


def test_the_house_test_fails_when_an_import_circle_is_added(tree: Path) -> None:
    """The state naming the decisions only for the type checker still closes a circle."""
    circle = "\nif TYPE_CHECKING:\n    from journal.core.decide import Decision\n"
    _add(tree / "core" / "state.py", circle)
    graph = imports(tree)
    assert upward(graph) == []  # both are the rules' layer
    assert said(circles(graph)) == ["journal.core.decide <-> journal.core.state"]


def test_a_games_state_importing_its_view_is_a_circle(tree: Path) -> None:
    """The knot issue 30 untied: the view reads the state's classes, so the state asks
    nothing of its view (journal/core/shown.py asks the view for the core)."""
    _add(tree / "games" / "volume2" / "state.py",
         "\n\ndef _lines() -> None:\n    from journal.games.volume2 import view\n")
    assert said(circles(imports(tree))) == [
        "journal.games.volume2.state <-> journal.games.volume2.view"]


# -- no game named in the core --------------------------------------------------------------

def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string constants that stand as statements: docstrings, and the
    attribute docstrings under an assignment."""
    return {id(node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)}


def game_names(path: Path) -> list[str]:
    """Where the code of `path` names a game: a string (docstrings aside), a name, an
    attribute, an argument or an imported module. Comments are not code."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        words: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and id(node) not in skipped:
            words = [node.value]
        elif isinstance(node, ast.Name):
            words = [node.id]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif isinstance(node, ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef):
            words = [node.name]
        elif isinstance(node, ast.arg):
            words = [node.arg]
        elif isinstance(node, ast.ImportFrom):
            words = [node.module or "", *(a.name for a in node.names)]
        elif isinstance(node, ast.Import):
            words = [a.name for a in node.names]
        found += [f"{path.name}:{getattr(node, 'lineno', '?')}: {w!r}"
                  for w in words if GAME_NAMES.search(w)]
    return found


CORE = [p for p in MODULES if (JOURNAL / "games") not in p.parents]


@pytest.mark.parametrize("path", CORE, ids=_name)
def test_the_core_names_no_game(path: Path) -> None:
    assert game_names(path) == []


def test_the_games_are_named_in_the_registry() -> None:
    """The registry is the one place outside the games' own packages that names them."""
    found = game_names(JOURNAL / "games" / "__init__.py")
    assert len(found) == 6, found  # each game's name and its package in GAMES


def test_the_name_check_finds_a_game_named_in_code(tmp_path: Path) -> None:
    module = tmp_path / "odds.py"
    module.write_text('"""Hildegard\'s odds (a docstring may name it)."""\n\n'
                      "# so may a comment: spires-end\n"
                      'if game == "volume2":\n    from journal.games.hildegard import odds\n',
                      encoding="utf-8")
    assert sorted(line.split(": ", 1)[1] for line in game_names(module)) == [
        "'journal.games.hildegard'", "'volume2'"]
