"""The package's shape (issue 13): imports flow one way, no module reaches into another's
private names, and no module outgrows what one reader can hold.

The import graph is built from the source with ``ast``, every import counted (those inside
functions and under ``TYPE_CHECKING`` too: a cycle through a lazy import is still a cycle a
reader must untangle). A package's ``__init__`` counts as a module of its own.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "skillgrant"
MAX_LINES = 400


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if path.name != "__init__.py":
        base.pop()
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _imports(module: str, path: Path, known: set[str]) -> list[tuple[str, str, int]]:
    """(imported module, imported name or "", line) for every skillgrant import in a module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, "", node.lineno) for a in node.names
                      if a.name.split(".")[0] == "skillgrant"]
        elif isinstance(node, ast.ImportFrom):
            target = _absolute(module, path, node)
            if target.split(".")[0] != "skillgrant":
                continue
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                if submodule in known:  # `from . import vocabulary` imports a module
                    found.append((submodule, "", node.lineno))
                else:
                    found.append((target, alias.name, node.lineno))
    return found


@functools.cache
def _package_imports() -> dict[str, tuple[Path, list[tuple[str, str, int]]]]:
    """Each module's path and skillgrant imports, parsed once a process (both tests read them)."""
    modules = _modules()
    known = set(modules)
    return {name: (path, _imports(name, path, known)) for name, path in modules.items()}


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, (_, imports) in _package_imports().items():
        edges = set()
        for target, _, _ in imports:
            # importing a.b.c runs a/__init__ and a/b/__init__ first; only the module itself is
            # the dependency a reader follows
            if target != name and target in _package_imports():
                edges.add(target)
        graph[name] = edges
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as the modules along it, or None (an iterative depth-first search)."""
    state: dict[str, int] = {}  # 1 on the current path, 2 finished
    for root in sorted(graph):
        if root in state:
            continue
        path = [root]
        stack = [iter(sorted(graph[root]))]
        state[root] = 1
        while stack:
            following = next(stack[-1], None)
            if following is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(following) == 1:
                return [*path[path.index(following):], following]
            elif following not in state:
                state[following] = 1
                path.append(following)
                stack.append(iter(sorted(graph[following])))
    return None


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_no_import_cycle_in_the_package() -> None:
    graph = _graph()
    assert len(graph) > 30  # the walk found the package
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_private_name_is_imported_from_another_module() -> None:
    private = []
    for path, imports in _package_imports().values():
        for target, imported, line in imports:
            dotted = [*target.split("."), *([imported] if imported else [])]
            if any(part.startswith("_") and part != "__version__" for part in dotted):
                private.append(f"{path.relative_to(PACKAGE.parent)}:{line}: "
                               f"{'.'.join(dotted)}")
    assert private == []


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_is_over_the_line_limit(path: Path) -> None:
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.name} has {lines} lines"


def test_no_file_holds_a_merge_conflict_marker() -> None:
    """A merge left ``<<<<<<<``/``=======``/``>>>>>>>`` lines in docs/decisions.md once
    (session 48): every text file of the project is read for them."""
    root = PACKAGE.parent
    texts = [root / "README.md", *(root / "docs").rglob("*.md"), *PACKAGE.rglob("*.py"),
             *(root / "tests").rglob("*.py"), *(root / "grammar").rglob("*"),
             *(root / "benchmarks").rglob("*.py"), *(root / ".ci").rglob("*")]
    marked = [f"{path.relative_to(root)}:{number}"
              for path in texts if path.is_file()
              for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
              if line.startswith(("<<<<<<< ", ">>>>>>> ")) or line == "======="]
    assert marked == []
