"""Whether a project's own test code may put any folder first on ``sys.path`` (issue 29,
session 60: s58-preview S ``conftest-inserts-src``; session 61: read by an allow-list).

A conftest pytest may load, a test module or a package's ``__init__`` is read as moving no
folder only where everything it does is of a shape read exactly (``pathlists``): it imports
only the project's own modules (relative, or a top name the project's folders hold: its source,
the boundary P1g; a name taken from one, or its attribute, only as ``pathimports`` reads that
module under the same allow-list: session 62) and listed modules, of those using only listed
names (``os.path``, ``sys.platform``, ``pytest.raises``: none reaches another namespace by a
string, so no string becomes a name); it names no builtin but those of ``exactlists.BUILTINS``
(``getattr`` of a literal name only), no dunder but a few data ones, no private attribute but
of ``self``, no attribute of ``pathlists.MOVERS`` (``syspath_prepend``, ``pyimport``,
``import_plugin``, ``getfixturevalue``, ``patch``, ``from_parent``: what pytest's own objects
move the path or import by); a function pytest runs with fixtures (``test*``, ``setup*``,
``teardown*``, ``pytest_*``, any decorated one) takes only pytest's own fixtures and hook
arguments, those the project's files define and its ``parametrize`` names (a plugin's
``mocker`` may patch ``sys.path`` by a string); ``pytest.fixture`` is a decorator only, and no
name pytest collects (``test_x = helper``) is bound to a value of another shape. Any other
module, one that cannot be read (a syntax error, past 4 MiB) or a walk cut short makes every
folder one that may be first on ``sys.path`` (``syspathdirs``), as do modules of more than
``_TOTAL`` bytes in all. A module without any of them
reaches ``sys.path`` only through the project's own modules it imports: its source (the
boundary, P1g)."""

from __future__ import annotations

import os

from . import files as fs
from .conftestplugins import LIMIT, above_conftests, below_files
from .pathimports import Imports
from .pathlists import Refused, named
from .pathreader import Reader

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    import ast
    from collections.abc import Callable
    from typing import Final


def moves_path(folder: str, given: tuple[str, ...] = ()) -> bool:
    """Whether a conftest pytest may load for the collecting ``folder`` (in, above or below
    it), a test module below it or a package ``__init__`` pytest imports for one may move
    ``sys.path`` (see the module's text); True where one cannot be read or the folders below
    hold too many entries. ``given``: the plugins the plan's words name (``-p``)."""
    read = _read_files(folder)
    if read is None:
        return True
    conftests, modules, below = read
    left, trees = [_TOTAL], {}

    def parsed(path: str) -> ast.Module | None:
        if path not in trees:
            trees[path] = _parsed(path, left)
        return trees[path]

    def check(path: str, tree: ast.Module) -> None:
        if not Reader(path, folder, fixtures | _fixtures(tree), imports).module(tree):
            raise Refused

    roots = [folder, os.path.join(folder, "src")]
    for path in modules:  # (every folder pytest may put first for a test module or conftest)
        at = os.path.dirname(path)
        while at.startswith(folder.rstrip("/") + "/"):
            roots.append(at)
            at = os.path.dirname(at)
    imports = Imports(folder, list(dict.fromkeys(roots)), parsed, check)
    try:
        fixtures = {n for p in conftests for n in _fixtures(parsed(p))}
        _check_all(modules, parsed, check)
        plugins = _plugins(folder, below, given)  # (asked last: the walk again, s62-greview G7)
        if plugins is None:
            return True
        fixtures |= {n for p in plugins for n in _fixtures(parsed(p))}
        _check_all(plugins, parsed, check)
    except (Refused, RecursionError):
        return True
    return False


def _check_all(paths: list[str], parsed: Callable[[str], ast.Module | None],
               check: Callable[[str, ast.Module], None]) -> None:
    """``check`` of each module of ``paths`` there (``parsed``)."""
    for path in paths:
        tree = parsed(path)
        if tree is not None:
            check(path, tree)


def _read_files(folder: str) -> tuple[list[str], list[str], list[str]] | None:
    """The conftests pytest may load for ``folder``, every module read (those, the test
    modules below it and the ``__init__`` of their packages and of the conftests' up: those
    pytest imports; a package's that holds neither is the project's source, P1g) and the
    files below it; None where
    the folders below hold too many entries, or a doctest text file (``test*.txt``: pytest
    runs its examples in its own process, s61-greview G16)."""
    from .testnames import test_name

    below = below_files(folder, frozenset(("__pycache__", ".git")), (".txt",))  # (pytest's
    if below is None or any(  # norecursedirs may be set, a hook may collect in node_modules:
            p.rpartition("/")[2].lower().startswith("test") and p.endswith(".txt")
            for p in below):  # every folder but a repository's read, G17; a doctest file's
        return None  # `>>>` code, G16)
    conftests = list(dict.fromkeys([*above_conftests(folder), *(
        p for p in below if p.endswith("/conftest.py"))]))
    tests = [p for p in below if p.endswith(".py") and test_name(p.rpartition("/")[2].lower())
             and not p.endswith(("/conftest.py", "/__init__.py"))]
    held, inits = set(below), []
    for path in [*tests, *(c for c in conftests if c in held)]:  # (a conftest's package too)
        at = path.rpartition("/")[0]
        while at + "/__init__.py" in held:
            inits.append(at + "/__init__.py")
            at = at.rpartition("/")[0]
    return conftests, list(dict.fromkeys([*conftests, *inits, *tests])), below


def _plugins(folder: str, below: list[str], plan: tuple[str, ...]) -> list[str] | None:
    """The plugin modules among the files ``below`` the collecting ``folder`` pytest imports at
    its start (a conftest's or test module's ``pytest_plugins``, the settings' or ``plan``'s
    ``-p``:
    ``conftestplugins``; s62-greview G7), and their packages' ``__init__`` files; None where
    they are not read (or one is a compiled module's)."""
    import fnmatch

    from .checkersettings import pytest_settings
    from .conftestplugins import conftest_plugins
    from .pytestini import words

    try:
        given = tuple(w[2:] or (ws[k + 1] if k + 1 < len(ws) else "") for _, _, value in
                      pytest_settings(folder, ("addopts",)) for ws in [words(value)]
                      for k, w in enumerate(ws) if w[:2] == "-p")
    except ValueError:
        return None
    every, patterns = conftest_plugins(folder, tuple(g for g in (*given, *plan) if g[:3] != "no:"))
    if every:
        return None
    found = [p for p in below if any(fnmatch.fnmatchcase(p, "*/" + q.lstrip("/")) if "/" in q
                                     else fnmatch.fnmatchcase(p.rpartition("/")[2], q)
                                     for q in patterns)]
    return None if any(not p.endswith(".py") for p in found) else found


#: How many bytes of modules one ``moves_path`` reads in all (s62-greview T2: two test
#: modules of 1 MB took 4.7 s of a hook's CPU, sixteen 36 s, past the hook's timeout).
_TOTAL: Final = 1 << 20


def _parsed(path: str, left: list[int]) -> ast.Module | None:
    """The module at ``path`` parsed; None where there is none. Raises ``Refused`` where it
    cannot be read (past ``LIMIT``, not Python's) or the modules read would pass ``left``'s
    bytes (what is read is taken from it)."""
    import ast

    try:
        data = fs.read(path, LIMIT + 1)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
    except (OSError, ValueError):
        raise Refused from None
    left[0] -= len(data)
    if len(data) > LIMIT or left[0] < 0:
        raise Refused
    try:
        return ast.parse(data)
    except (SyntaxError, ValueError, UnicodeError, LookupError, MemoryError, RecursionError):
        raise Refused from None


def _fixtures(tree: ast.Module | None) -> set[str]:
    """The names of the functions of ``tree`` a ``fixture`` decorates (``pytest.fixture``,
    ``fixture``, called or not) and the ``name=`` strings of those decorators (the fixtures
    a project's file defines)."""
    import ast

    found: set[str] = set()
    for node in ast.walk(tree) if tree else ():
        fixtures = [d for d in getattr(node, "decorator_list", ()) if named(
            d.func if isinstance(d, ast.Call) else d) == "fixture"]
        if fixtures and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.add(node.name)
            found.update(k.value.value for d in fixtures for k in getattr(d, "keywords", ())
                         if k.arg == "name" and isinstance(k.value, ast.Constant) and
                         isinstance(k.value.value, str))
    return found
