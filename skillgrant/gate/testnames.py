"""The names of the files a test runner collects by themselves (issue 29): pytest's, unittest's
and node runners' tests, their bytecode and extension modules, and the folders whose scripts
node's ``--test`` and jest run (``testfiles`` reads where they are collected;
``syspathdirs`` which folders hold them)."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The endings of the files a node runner loads as tests, and the folders below which node's
#: ``--test`` (``test``) and jest (``__tests__``; ``__mocks__``, a package's mock in any of
#: its ``roots``: s54-greview2 A7) run each such file whatever its name.
JS: Final = (".js", ".cjs", ".mjs", ".jsx", ".ts", ".cts", ".mts", ".tsx")
JS_FOLDERS: Final = frozenset(("test", "__tests__", "__mocks__"))


def test_name(name: str) -> bool:
    """Whether the folded ``name`` is a test file's a runner collects, or its bytecode's
    (``test_z.cpython-311.pyc``, ``conftest.cpython-311-pytest-9.0.3.pyc``, ``test_z.pyc``), or
    an extension module's of its name (``test_z.abi3.so``, ``.cpython-*.so``, ``.pyd``: it is
    imported in the source's stead; s50-greview3 C2), or a node runner's test (``js_test``) or
    folder of tests (``test``, ``__tests__``: C3)."""
    if name in JS_FOLDERS or name.endswith(JS):  # (a folder whose scripts run: C3)
        return name in JS_FOLDERS or js_test(name.rpartition(".")[0])
    if name.endswith(".txt"):  # (pytest's default `--doctest-glob`, `test*.txt`: D1)
        return name.startswith("test")
    if name.endswith((".pyc", ".so", ".pyd")):  # (an extension module shadows NAME.py: C2)
        name = name.split(".", 1)[0] + ".py"
    return name.endswith(".py") and (name in ("conftest.py", "__init__.py") or name.endswith(
        "_test.py") or name.startswith("test"))


def js_test(stem: str) -> bool:
    """Whether a script's folded name less its ending, ``stem``, is a test's some node runner
    runs by its name: it starts with ``test`` or ``spec`` (node's ``test``, ``test-*``; jest's
    ``spec``), or holds one after ``.``, ``-`` or ``_`` (``a.test``, ``a-test``, ``a_spec``,
    ``a.spec.helper``): a superset of node 20's, bun 1.4.5's, jest's and vitest's names."""
    return stem.startswith(("test", "spec")) or any(
        f"{mark}{word}" in stem for mark in "._-" for word in ("test", "spec"))


def tests_folder(folder: str) -> bool:
    """Whether ``folder`` holds a test module or a conftest (pytest's names) at its top."""
    import os

    try:
        with os.scandir(folder) as entries:
            return any(e.name == "conftest.py" or test_name(e.name.lower()) for e in entries)
    except OSError:
        return False
