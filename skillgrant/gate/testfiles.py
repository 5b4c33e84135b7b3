"""The test files a test runner finds by itself below the folder it runs in (issue 29, review
s49-greview2 C2, U1): ``pytest`` without a path collects the folder recursively, importing
each ``conftest.py`` and each ``test_*.py``/``*_test.py`` (its default ``python_files``) with
their packages' ``__init__.py``; ``python -m unittest`` without a name is ``discover -s . -p
'test*.py'``, importing each ``test*.py`` of the folder and of each package below it. A
runner of any program (``make``, ``tox``, a node runner) may run either. What they import is
a file of those names at any depth below each folder the plan's programs run in, and its
cached bytecode (``__pycache__/NAME.*.pyc``, a ``NAME.pyc`` beside it): ``named.Index`` guards
them by name (``collected``), as no list of items can name a file not there yet. An Edit
grant covers them (``named.planned_only``: a plan's program reads them).

node's ``--test`` (node 20: each ``.js``/``.cjs``/``.mjs`` file named ``test``, ``test-*``,
``*.test``, ``*-test``, ``*_test``, and every one below a folder named ``test``), ``bun test``
(1.4.5: ``*.test``, ``*_test``, ``*.spec``, ``*_spec`` of ``.js``/``.jsx``/``.ts``/``.tsx``)
and the runners a node runner starts (jest's ``__tests__/``, ``*.spec``, ``*.test``; vitest's;
mocha's ``test/``) find theirs by name too: ``js_test`` reads a superset of their names
(s50-greview3 C3).

The settings that move what pytest collects (``python_files``, ``addopts``'
``--doctest-modules``…) are read (``pytestini``, s54-greview2 A6); ``testpaths`` is not (a
folder it names outside the run folders: residual).
"""

from __future__ import annotations

import os
from contextvars import ContextVar

from . import files as fs
from .placed import fold
from .testnames import JS as _JS
from .testnames import JS_FOLDERS as _JS_FOLDERS
from .testnames import js_test as js_test  # (its importers')
from .testnames import test_name as test_name

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

#: The marks of ``plan_programs`` saying a plan's program collects tests by itself: pytest's
#: settings (``&pytest``), a runner of any program (``&*``), node's ``--test`` (``&node``);
#: and the end of the files ``-m unittest`` runs (``unittest/__main__.py``).
_COLLECTORS: Final = ("&pytest", "&*", "&node")
#: The folders whose ``.rs`` files ``cargo test`` finds and builds as targets by itself.
_CARGO: Final = frozenset(("tests", "examples", "benches"))
#: pytest's options that take no value (pytest 9.0.3's parser, as ``pytest --help`` lists
#: them: ``nargs=0``; ``--debug`` and ``--cache-show`` take an optional one, so are not here),
#: and the short clusters of them the gate has read since session 44 (``-ra``: ``-r``'s value).
PYTEST_FLAGS: Final = frozenset((
    "--cache-clear", "--co", "--collect-in-virtualenv", "--collect-only", "--collectonly",
    "--continue-on-collection-errors", "--disable-plugin-autoload", "--disable-pytest-warnings",
    "--disable-warnings", "--doctest-continue-on-failure", "--doctest-ignore-import-errors",
    "--doctest-modules", "--exitfirst", "--failed-first", "--ff", "--fixtures",
    "--fixtures-per-test", "--force-short-summary", "--full-trace", "--fulltrace", "--funcargs",
    "--help", "--keep-duplicates", "--keepduplicates", "--last-failed", "--lf", "--markers",
    "--new-first", "--nf", "--no-fold-skipped", "--no-header", "--no-showlocals",
    "--no-summary", "--noconftest", "--pdb", "--pyargs", "--quiet", "--runxfail",
    "--setup-only", "--setup-plan", "--setup-show", "--setuponly", "--setupplan", "--setupshow",
    "--showlocals", "--stepwise", "--stepwise-reset", "--stepwise-skip", "--strict",
    "--strict-config", "--strict-markers", "--sw", "--sw-reset", "--sw-skip", "--trace",
    "--trace-config", "--traceconfig", "--verbose", "--version", "--xfail-tb", "-V", "-h", "-l",
    "-q", "-s", "-v", "-x", "-qq", "-vv", "-vvv", "-ra", "-rA"))
#: pytest's options whose value it reads as data, never as a file it writes or runs: its own
#: (a keyword or mark expression, a count, a test or path it deselects or ignores, a plugin's
#: name) and its best-known plugins' (pytest-xdist 3's ``-n``/``--dist``, pytest-timeout 2's
#: ``--timeout``, pytest-cov 6's ``--cov`` source and thresholds; ``--cov-report`` without a
#: ``:DEST`` to write): an operand after one (``-n 2 tests``) is a test (K1).
PYTEST_DATA: Final = frozenset((
    "-k", "-m", "-p", "-r", "-W", "--pythonwarnings", "--maxfail", "--tb", "--durations",
    "--durations-min", "--capture", "--import-mode", "--deselect", "--ignore", "--ignore-glob",
    "--color", "--code-highlight", "--log-level", "--log-cli-level", "-n", "--numprocesses",
    "--maxprocesses", "--dist", "--timeout", "--timeout-method", "--cov", "--cov-fail-under",
    "--cov-context", "--cov-report"))
_UNITTEST: Final = "unittest/__main__.py"
#: Whether the call being read only removes or formats what it names (``keptests.kept_tests``): a
#: collected test is then no concern (``named.named_word`` sets it for its words).
KEPT_TESTS: ContextVar[bool] = ContextVar("kept_tests", default=False)



def pytest_reads(rest: list[str], word: str, flags: frozenset[str]) -> bool:
    """Whether pytest's words ``rest`` hold ``word`` only as a test it runs (an operand: after
    none of its options, one of ``flags``, or any given its value attached: ``--cov=src``,
    ``--junitxml=r.xml``: argparse's explicit value ends the option) or
    as the value of one of ``PYTEST_DATA`` (``-n 2``, ``--cov=src``; ``--cov-report``'s
    without ``:``)."""
    for at, given in enumerate(rest):
        if word not in given:
            continue
        before = rest[at - 1] if at else ""
        name, equal, value = given.partition("=") if given[:1] == "-" else ("", "", given)
        if given[:1] == "-" and not (equal and _data(name, value)):
            return False
        if given[:1] != "-" and before[:1] == "-" and before not in flags and not (
                _data(before, value) or (before[:2] == "--" and "=" in before)):
            return False  # (argparse's `--opt=v` takes no next word, whatever `opt` is)
    return True


def tests_read(name: str, rest: list[str], word: str) -> bool:
    """Whether a test runner ``name`` (``starttables.TEST_RUNNERS``: ``prove``, ``jest``, …;
    node given ``--test``) holds ``word`` in its words ``rest`` only as an operand, a test it
    runs: after no option but one taking no value (``TEST_FLAGS``, node's ``NODE_TEST_FLAGS``;
    review s49, s51-greview2 K5), never an option's value (``--test-reporter-destination``)."""
    from .starttables import NODE_TEST_FLAGS, TEST_FLAGS

    flags = TEST_FLAGS if name not in ("node", "nodejs") else NODE_TEST_FLAGS
    return all(w[:1] != "-" and (i == 0 or rest[i - 1][:1] != "-" or rest[i - 1] in flags)
               for i, w in enumerate(rest) if word in w)


def _data(option: str, value: str) -> bool:
    """Whether pytest reads ``value`` given to ``option`` as data (``PYTEST_DATA``)."""
    return option in PYTEST_DATA and not (option == "--cov-report" and ":" in value)


def collects(joined: str) -> bool:
    """Whether a plan's program (its paths, each between new lines in ``joined``) collects
    tests by itself."""
    return any(f"\n{n}\n" in joined for n in _COLLECTORS) or _UNITTEST in joined


def test_folders(folders: list[str]) -> frozenset[str]:
    """The folded real paths of ``folders`` (where the plan's programs run)."""
    from .testlinks import remember

    return frozenset(remember(fs.realpath(f)) for f in folders)


def collected(key: str, guards: object) -> bool:
    """Whether the folded real path ``key`` is a test file (see the module's text) below one
    of the folders ``guards`` collects tests in (``Guarded.collected``), or a name without a
    dot (a folder a call may fill: ``cp -r src test/sub``) below a ``test``/``__tests__``
    folder there, whose scripts node's ``--test``, jest run. (The folder itself is not: a
    word ``test`` is ``make test``'s, ``npm test``'s target too.) Or is one at a path a
    runner meets it at through a link (``testlinks.places``: ``test/shared -> ../shared``
    makes ``shared/x.js`` the test ``test/shared/x.js``; s52-greview2 R10)."""
    folders: frozenset[str] = getattr(guards, "collected", frozenset())
    if not folders or _kept(key.rpartition("/")[2]):
        return False
    if _collected(key, folders):
        return True
    from .jestsettings import widened as jest_runs
    from .pytestini import widened
    from .testlinks import places
    from .testroots import first_loaded  # (a runner's module name tried as a file: s60)

    return any(_collected(place, folders) or widened(place, folders, guards) or jest_runs(
        place, folders, guards) or first_loaded(place, guards)
        for place in (key, *places(key, guards)))


def _collected(key: str, folders: frozenset[str]) -> bool:
    """``collected`` of ``key`` by its own path."""
    script = key.endswith(_JS) or "." not in key.rpartition("/")[2]  # (or a folder: C3)
    if key.endswith(".rs"):  # (cargo test's tests/*.rs, tests/*/main.rs, examples/*.rs: C4)
        script = key.rpartition("/")[0].rpartition("/")[2] in _CARGO or (
            key.endswith("/main.rs") and key.split("/")[-3:-2] == ["tests"])
    elif key[-3:] not in (".py", "pyc", ".so", "pyd", "txt") and not script:
        return False
    head, _, name = key.rpartition("/")
    if name.endswith(".pyc") and head.endswith("/__pycache__"):
        head = head[:-12]
    below = [head[len(f):].split("/") for f in folders if head == f or head.startswith(f + "/")]
    return bool(below) and ((name not in _JS_FOLDERS and test_name(name)) or (script and (
        key.endswith(".rs") or any(not _JS_FOLDERS.isdisjoint(parts) for parts in below))))


def foreign(path: str, guards: object) -> bool:
    """Whether ``guards`` collects tests and the folder ``path`` is not below a folder they
    are collected in: a tree copied from it may bring test files there (``cp -r /tmp/t
    docs``; a tree below holds the project's own, guarded as they are: ``tar -czf a.tgz .``)."""
    folders: frozenset[str] = getattr(guards, "collected", frozenset())
    if not folders:
        return False
    from .testlinks import places

    key = fold(path).rstrip("/")
    return not any(k == f or k.startswith(f + "/") for f in folders
                   for k in (key, *places(key, guards)))


def named_test(name: str, guards: object) -> bool:
    """Whether ``guards`` collects tests and the folded ``name`` is a test file's (a word
    ending in one names a file a writer may bring into a collected folder: ``cp
    /tmp/test_x.py docs/``)."""
    return bool(getattr(guards, "collected", ())) and test_name(name) and not _kept(name)


def _kept(name: str) -> bool:
    """Whether the call only removes or formats (``KEPT_TESTS``) the test ``name`` (not a
    package's ``__init__``: its removal moves the folder pytest puts on ``sys.path``)."""
    return KEPT_TESTS.get() and name.split(".", 1)[0] != "__init__"


def removed_folder(words: list[str], directory: str | None,
                   touches: Callable[[str], bool]) -> str | None:
    """A folder a program removes, clears or makes its own tree in, that ``touches`` a guarded
    item (is one, holds one, lies in one) or the gate cannot name (an expansion, a pattern,
    ``~user``, a relative one with no folder): pytest's ``--basetemp`` value (apart or after
    ``=``; removed whole before its first ``tmp_path``: s50-greview B1, the home, a main
    checkout beside a worktree), ``python -m venv``'s and ``virtualenv``'s operands (``--clear``
    empties them; any makes ``bin/``, ``lib/``, ``pyvenv.cfg`` there: V1); each word after
    ``venv`` not an option is read as one. Then ``settings_file``."""
    found = settings_file(words, directory, touches)
    if found is not None:
        return found
    for at, word in enumerate(words):
        if word.startswith("--basetemp"):
            values = [word.partition("=")[2] or (words[at + 1] if at + 1 < len(words) else "")]
        elif word in ("venv", "-mvenv", "virtualenv") or word.endswith("/virtualenv"):
            values = [w for w in words[at + 1:] if w[:1] != "-"] or ["."]
        else:
            continue
        for value in values:
            if _unnamed(value, directory):
                return value or word
            path = os.path.normpath(os.path.join(directory or "/", os.path.expanduser(value)))
            if touches(path) or touches(fs.realpath(path)):
                return value
    return None


def _unnamed(value: str, directory: str | None) -> bool:
    """Whether the gate cannot name the folder ``value`` (from ``directory``) names."""
    return not value or any(c in value for c in "$`*?[{") or (
        value[:1] == "~" and value[:2] != "~/" and value != "~") or (
        directory is None and value[:1] not in ("/", "~"))


def settings_file(words: list[str], directory: str | None,
                  touches: Callable[[str], bool]) -> str | None:
    """The word giving pytest (a word after ``pytest``, ``py.test``, ``-m pytest``) options
    from a file the gate does not read, one not guarded (an item no call writes: the project's
    ``pytest.ini``): an argument file (``@args.txt``: its parser's ``fromfile_prefix_chars``),
    an ini file (``-c x.ini``, ``-cx.ini``, ``-qc x.ini``, ``--config-file[=]x.ini``), and any
    ``addopts`` the call gives (``-o addopts=…``). Each may hold ``--basetemp=.claude``, which
    removes the gate's settings, or ``-p``, ``python_files``: s50-greview3 B1."""
    at = next((k for k, w in enumerate(words) if os.path.basename(w) in _PYTEST), None)
    rest = words[at + 1:] if at is not None else []
    for k, word in enumerate(rest):
        after = rest[k + 1] if k + 1 < len(rest) else ""
        if "addopts" in word:
            return word
        if word[:1] == "@" and len(word) > 1:
            value = word[1:]
        elif word[:14] == "--config-file=" or word == "--config-file":
            value = word[14:] if word != "--config-file" else after
        elif word[:1] == "-" and word[1:2] not in ("-", "") and "c" in word:
            letters = word[1:].split("c", 1)[0]  # (a cluster's letters before `c`: flags?)
            if any(c in _PYTEST_VALUED for c in letters):
                continue
            value = word[len(letters) + 2:] or after
        else:
            continue
        path = os.path.normpath(os.path.join(directory or "/", os.path.expanduser(value)))
        if _unnamed(value, directory) or not (touches(path) or touches(fs.realpath(path))):
            return word if value in word else f"{word} {value}"
    return None


_PYTEST: Final = frozenset(("pytest", "py.test"))
#: pytest's short options taking a value (its own and its plugins'): a ``c`` after one of them
#: in a cluster is part of the value (``-rc``, ``-kc``).
_PYTEST_VALUED: Final = frozenset("rkmpoWnc")
