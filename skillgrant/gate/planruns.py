"""What a plan's programs may run besides a test runner, and which interpreters it names by a
path (issue 29, review s55-greview3 C1, A3): ``Guarded.runs_any`` and ``Guarded.python_libs``,
made from the plan's paths (``planprograms.plan_programs``) once for a guarded set.

A package's module named like a standard or site module (``mypkg/types.py``) is exempt from
the module rule only under a plan whose programs are test runners (``pymodule._on_path``):
pytest puts no package's folder first on ``sys.path``, and the tests are trusted not to run
Python there (s54-greview2 K1). Any other program of the plan may: a script (``python3
tools/run.py`` starting ``python3`` with ``cwd='mypkg'``), a module of the project (``python3
-m mypkg.tool``), a program named by its path (``./run.sh``), a runner of any program (make,
npm, tox: their plans name make's ``GNUmakefile``, ``ALL_STARTS``). Code written in the plan's
own entry (``python3 -c CODE``) is the plan's approved text and is not counted, unless it
imports a module not standard (a project's module, whose code is no approved text; a
relative or dynamic import; session 57, s56-greview3 C)."""

from __future__ import annotations

import os

from ..lazy import compile_on_use

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The modules a test runner's entry names as its own (``python3 -m pytest``,
#: ``python3 -m unittest``), whose files the plan's paths list.
_RUNNERS: Final = frozenset(("pytest", "_pytest", "pluggy", "iniconfig", "py", "unittest"))
#: The settings files pytest reads in an operand's folder (``planprograms`` names them there).
_SETTINGS: Final = frozenset(("conftest.py", "pytest.ini", ".pytest.ini", "pytest.toml",
                              ".pytest.toml", "pyproject.toml", "setup.cfg", "tox.ini"))
#: The name of an interpreter named by its path (``X/bin/python3.11``).
_INTERPRETER: Final = compile_on_use(r"python[0-9.]*")
#: A module's file forms ``module_files`` names for a word (``tests.py``, ``tests/__init__.py``).
_FORMS: Final = (".py", ".pyc", ".so", ".abi3.so", "/__init__.", "/__main__.", ".cpython-")


def runs_any(named: tuple[str, ...], marked: tuple[str, ...], roots: list[str]) -> bool:
    """Whether a program of the plan whose paths are ``named`` (those starting with one of
    ``marked`` are no program's) may run Python in any folder of ``roots`` (see the module's
    text): a runner of any program, or a path no test runner's entry names (its module's
    files, its settings files, test files, an operand folder and its module forms)."""
    names = frozenset(named)
    if "GNUmakefile" in names or "&*" in names:
        return True
    return any(_program(p, names, roots) for p in named if p[:1] not in marked) or any(
        _imports_project(p[1:]) for p in named if p[:1] == "@" and "-c" in p)


def _imports_project(entry: str) -> bool:
    """Whether the plan's entry ``entry`` runs Python code of its own (``python3 -c CODE``)
    that imports a module not standard (a project's: ``import tools.run``, whose code is no
    approved text; s56-greview3 C), by a relative import or a dynamic one (``__import__``,
    ``importlib``, ``runpy``), or code that does not parse."""
    import ast
    import shlex

    from .placed import STANDARD

    try:
        codes = _codes(shlex.split(entry))
    except ValueError:
        return True
    for code in codes:
        try:
            tree = ast.parse(code)
        except (SyntaxError, ValueError):
            return True
        for node in ast.walk(tree):
            tops = [a.name.split(".")[0] for a in node.names] if isinstance(
                node, ast.Import) else [node.module.split(".")[0] if node.module and not
                                        node.level else ""] if isinstance(
                node, ast.ImportFrom) else []
            if any(t not in STANDARD or t in ("importlib", "runpy") for t in tops) or (
                    isinstance(node, ast.Name) and node.id == "__import__"):
                return True
    return False


def _codes(words: list[str]) -> list[str]:
    """The code each interpreter of ``words`` is given by ``-c`` (CPython's options before
    it, as ``pymodule.module_run`` reads them: clustered, ``-W``/``-X`` taking a value, ``-m``
    ending them)."""
    codes = []
    for at, word in enumerate(words):
        if not _INTERPRETER.fullmatch(os.path.basename(word)):
            continue
        k = at + 1
        while k < len(words) and words[k][:1] == "-" and words[k][:2] != "--" and \
                words[k] != "-":
            option, k = words[k], k + 1
            cut = next((i for i, c in enumerate(option[1:], 1) if c in "cmWX"), 0)
            if not cut:
                continue
            if option[cut] in "cm":
                codes += [option[cut + 1:] or (words[k] if k < len(words) else "")][
                    :option[cut] == "c"]
                break
            k += cut == len(option) - 1  # (-W/-X's value: the next word when apart)
    return codes


def _program(path: str, names: frozenset[str], roots: list[str]) -> bool:
    """Whether the plan's plain path ``path`` is a program's (a script's, its folder's, a
    project module's) rather than a test runner's (``runs_any``)."""
    bare = path.rstrip("/")
    above, _, name = bare.rpartition("/")
    stem = name.partition(".")[0]
    root, top = (above.rpartition("/")[0], above.rpartition("/")[2]) if stem in (
        "__init__", "__main__") else (above, stem)
    if name in ("__pycache__", "pyvenv.cfg", "lib") or name in _SETTINGS or (
            top in _RUNNERS and os.path.join(root, top, "__main__.py") in names) or (
            name.endswith(".py") and (name[:5] == "test_" or name[-8:] == "_test.py")) or (
            _INTERPRETER.fullmatch(name) and above.rpartition("/")[2] == "bin"):
        return False  # (a runner's module (`-m`'s forms), an operand's settings, a test, the
        # interpreter named by its path)
    if path[-1:] == "/":  # a script's folder, a module's; not an operand's (its settings
        return not (bare + "/conftest.py" in names or "+" + bare in names or (  # named),
            name == "bin" and any(n.startswith(bare + "/python") for n in names)))  # -m's
    if "/" not in bare and "." not in bare:  # a bare operand word: a folder, `-m unittest
        return bare + ".py" not in names and not any(  # discover`'s (its forms named); not
            os.path.isdir(os.path.join(r, bare)) and not os.path.exists(  # a folder run as
                os.path.join(r, bare, "__main__.py")) for r in roots)  # a script (s56 C1)
    for form in _FORMS:  # (`tests.py`, `tests/__init__.py` of a bare word the plan names)
        at = bare.find(form)
        if at > 0 and "/" not in bare[:at] and bare[:at] in names:
            return False
    return True


def python_libs(named: tuple[str, ...], marked: tuple[str, ...],
                roots: list[str]) -> frozenset[str]:
    """The library folders (``X/lib``) of the interpreters the plan's paths ``named`` name by
    a path (``/opt/x/venv/bin/python`` names ``/opt/x/venv/lib/``; ``tools/env/bin/python``
    ``tools/env/lib/``, from each of ``roots``), and those interpreters' paths:
    ``sitenames`` reads their site folders (review s55-greview3 A3; a link's installation,
    a venv's base: session 57)."""
    libs = [p for p in named if p[:1] not in marked and (p[-5:] == "/lib/" or p == "lib/" or (
        _INTERPRETER.fullmatch(os.path.basename(p)) and "/" in p))]  # (its path: resolved)
    return frozenset(os.path.normpath(p if p[:1] == "/" else os.path.join(r, p))
                     for p in libs for r in ([""] if p[:1] == "/" else roots))
