"""The modules a conftest's ``pytest_plugins`` makes pytest import at its start (issue 29,
review s55-greview3 P3): ``pytest_plugins = ["fixtures.db"]`` in a conftest pytest loads
imports ``fixtures.db`` from ``sys.path``, as the ini's ``-p`` does: a module of that name
written in a folder there runs at the next start.

Which conftests pytest loads first depends on its anchors (each operand, node id's file,
``testpaths`` entry: the conftests from the root down to each), and under ``--pyargs`` it
honours the nested ones too (s56-greview3 P): every ``conftest.py`` at any depth below the
collecting folder, and each in a folder above it, is read (session 57: failing closed, a
superset of the anchors' whatever the plan's words or settings name), but in the folders
pytest's default ``norecursedirs`` skip (``.git``, ``node_modules``, a virtual
environment's but its own and its ``test*`` folders': a plan naming a folder inside one is
left open), and in and above each anchor outside it the plan's words and settings name
(``anchors``: an operand, a ``testpaths`` entry), and below it. A named module is read for its own
``pytest_plugins`` (an aggregator) at each place below the collecting folder whose path ends
as its name's (``plugs.py``, ``x/plugs/__init__.py``: wherever ``sys.path`` may find it, a
conftest's basedir, the ini's ``pythonpath``) and in each folder ``roots`` names.

The conftests (the gate's: every ``conftest.py`` is guarded) are read by ``ast``: a literal
string or list/tuple of strings assigned at the top level gives the names; a computed one
whose every name is a literal or an f-string starting with a package's dotted name
(``[f"tests.fixtures.{n}" for n in …]``) every module of that package (``_shaped``; the
conftest's own code runs anyway: it is guarded); anything else (``pytest_plugins`` computed,
extended, imported, set through ``globals()`` or a string, or a conftest that does not parse)
cannot be read, and every module below the collecting folder is taken as one
(``pytestini.widened``'s ``--doctest-modules`` reading); so it is where the folders below
hold more than ``_ENTRIES`` entries."""

from __future__ import annotations

import os

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

#: The name pytest reads in a conftest.
_NAME: Final = "pytest_plugins"
#: The longest module read (bytes): a longer one is not read (s60-preview L).
LIMIT: Final = 1 << 22
#: How many named modules are read for their own ``pytest_plugins`` before every module is
#: taken.
_MODULES: Final = 64
#: How many entries the folders below a collecting folder are read for before every module
#: is taken.
_ENTRIES: Final = 20000
#: The calls a conftest's import-time code may make (dotted as its imports bind them; a
#: ``.*`` entry: every name below): the standard library's path, environment and warning
#: functions, pytest's declarations, hypothesis' profiles. None runs code from data or sets
#: a name given as data.
_CALLS: Final = frozenset((
    "os.path.*", "os.environ.*", "os.getcwd", "os.makedirs", "os.mkdir",
    "os.listdir", "os.scandir", "os.walk", "os.fspath", "glob.glob", "glob.iglob",
    "os.cpu_count", "pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "sys.path.*",
    "sys.getrecursionlimit", "sys.setrecursionlimit", "sys._is_gil_enabled", "re.compile",
    "re.escape", "re.match", "re.search", "re.fullmatch", "re.split", "re.findall",
    "tempfile.*", "warnings.filterwarnings", "warnings.warn",
    "warnings.simplefilter", "atexit.register", "shutil.which", "shutil.rmtree", "platform.*",
    "logging.getLogger", "logging.basicConfig", "pytest.fixture", "pytest.param",
    "pytest.mark.*", "pytest.hookimpl", "pytest.register_assert_rewrite",
    "pytest.importorskip", "hypothesis.settings", "hypothesis.settings.*",
    "hypothesis.configuration.set_hypothesis_home_dir", "collections.namedtuple",
    "collections.OrderedDict", "collections.Counter", "typing.TypeVar", "typing.cast",
    "datetime.*", "datetime.datetime.*",
    "datetime.date.*", "time.time", "time.monotonic", "dataclasses.field", "sys.gettrace",
    "pytest.UsageError", "pytest.skip", "pytest.fail", "pytest.exit", "pytest.xfail",
    "importlib.metadata.entry_points", "importlib.metadata.version",
    "multiprocessing.set_start_method", "site.getsitepackages", "site.getusersitepackages",
    "contextlib.suppress"))
#: Of those, the calls that keep what they are given (a function of the conftest's too: none
#: calls it at import).
_KEEPING: Final = frozenset(("pytest.mark.*", "pytest.param", "pytest.fixture",
                             "atexit.register"))
#: The decorators of a conftest's ``def`` and ``class`` (called with allowed arguments too):
#: none calls the function at import.
_DECORATORS: Final = frozenset((
    "pytest.fixture", "pytest.hookimpl", "pytest.mark.*", "pytest_asyncio.fixture",
    "contextlib.contextmanager", "contextlib.asynccontextmanager", "functools.lru_cache",
    "functools.cache", "functools.wraps", "staticmethod", "classmethod", "property",
    "dataclasses.dataclass", "typing.overload"))
#: The bases of a conftest's classes (their metaclasses run no code of the class's).
_BASES: Final = frozenset((
    "object", "Exception", "ValueError", "RuntimeError", "TypeError", "KeyError",
    "typing.NamedTuple", "typing.Generic", "typing.Protocol", "typing.TypedDict",
    "enum.Enum", "enum.IntEnum", "enum.StrEnum", "enum.Flag", "unittest.TestCase", "pytest.*",
    "http.server.*", "http.client.*", "socketserver.*", "threading.Thread", "abc.ABC"))
#: pytest's historic hooks: a conftest's run as pytest registers it, before it reads its
#: ``pytest_plugins`` (pluggy replays them on a new plugin; their bodies are read).
_HISTORIC: Final = frozenset(("pytest_addhooks", "pytest_plugin_registered", "pytest_addoption",
                              "pytest_configure", "pytest_warning_recorded"))
#: The methods of their arguments (a parser, a config, a plugin manager) their bodies may call.
_HOOK_METHODS: Final = frozenset(("addoption", "addini", "getgroup", "addinivalue_line",
                                  "getoption", "getini", "getvalue", "add_hookspecs",
                                  "issue_config_time_warning"))
#: The endings of a module Python imports that is no source (its names not read).
_COMPILED: Final = (".pyc", ".so", ".pyd")
#: The folders below that are not read (pytest's ``norecursedirs`` and a venv's skip them).
_SKIPPED: Final = frozenset((".git", ".hg", ".svn", "node_modules", "__pycache__"))


def _sourceless(base: str) -> list[str]:
    """A sourceless module's files at ``base`` (less the suffix)."""
    import glob  # (here: it loads contextlib, ~0.3 ms of a hook that names no module)
    return [p for end in (".*[so]", "/__init__.*[so]") for p in glob.glob(glob.escape(base) + end)]


def conftest_plugins(folder: str, given: tuple[str, ...] = (),
                     roots: Callable[[], tuple[str, ...]] = tuple,
                     anchors: tuple[str, ...] = (), tests: tuple[str, ...] = (),
                     recurse: bool = False) -> tuple[bool, list[str]]:
    """Whether a conftest pytest may load for the collecting ``folder`` (a real path) names
    its plugins in a way not read (every module is then one), and the file patterns
    (``pytestini``'s: a pattern holding a ``/`` matched against a path's end) of the modules
    the others name, and the plugins ``given`` (the ini's ``-p``): each name's module files
    and its packages' ``__init__`` files; and, read by the same rule, what each named
    module's own ``pytest_plugins`` names (pytest registers those too: a plugin
    aggregator; s56-greview3 P2), up to ``_MODULES`` modules, wherever it is below
    ``folder`` or in a folder ``roots`` gives (the ini's ``pythonpath``, the site folders:
    asked only where a module is named); and the conftests
    in, above and below each of ``anchors`` outside ``folder``, and the test modules below
    them (``_modules_naming``: of ``tests``' ``python_files`` patterns and operand paths too).
    ``recurse``: the settings name ``norecursedirs`` (pytest's defaults replaced: no folder
    skipped but ``__pycache__``; s60-preview M)."""
    skipped = frozenset(("__pycache__",)) if recurse else _SKIPPED
    below = below_files(folder, skipped)
    read = None if below is None else _conftests(folder, below, anchors, skipped)
    names = None if read is None else _read_all(read[0])
    others = None if read is None or names is None else _modules_naming(read[1], tests)
    if below is None or names is None or others is None:
        return True, []
    names += others
    names += given
    patterns: list[str] = []
    seen: set[str] = set()
    while names:
        name = names.pop().strip()
        if not name or name in seen:
            continue
        if len(seen) >= _MODULES:
            return True, patterns
        seen.add(name)
        read_only, name = name[:1] == "=", name.lstrip("=")  # (a star import's base: its
        package = name[:-2] if name.endswith(".*") else ""  # names read; every module of
        patterns += [] if read_only else _module_patterns(package or name)  # a package: K)
        tail = "/" + "/".join((package or name).split("."))
        places = [p for p in below if p.endswith((tail + ".py", tail + "/__init__.py")) or (
            package and tail + "/" in p) or (p.endswith(_COMPILED) and (
                p.rpartition("/")[0] + "/" + p.rpartition("/")[2].partition(".")[0]).endswith(
                (tail, tail + "/__init__")))]
        if package:
            patterns.append(tail.lstrip("/") + "/*")
        bases = [os.path.join(r, *(package or name).split(".")) for r in roots()]
        places += [b + e for b in bases for e in (".py", "/__init__.py", ".pyc", "/__init__.pyc")]
        places += [p for b in bases for p in _sourceless(b)]  # (review A-SOURCELESS)
        found = _read_all(places)
        if found is None:
            return True, patterns
        names += found
    return False, patterns


def _read_all(paths: list[str]) -> list[str] | None:
    """``_read`` of each of ``paths``, joined; None where one is None."""
    found: list[str] = []
    for path in paths:
        names = _read(path)
        if names is None:
            return None
        found += names
    return found


def _read(path: str) -> list[str] | None:
    """The names the module at ``path`` assigns ``pytest_plugins`` ([] where none or no
    file); None where it cannot be read (see the module's text)."""
    if path.endswith(_COMPILED):  # (bytecode, an extension module: not read, s59-preview
        from .sitearchives import archive_member  # A-SOURCELESS)

        return None if os.path.isfile(path) or archive_member(path) != b"" else []
    try:
        data = fs.read(path, LIMIT + 1)
    except NotADirectoryError:  # (a folder above it a file: a zip on sys.path, its member
        from .sitearchives import archive_member  # read as zipimport would; s58-preview A)

        member = archive_member(path)
        return [] if member == b"" else None if member is None else _names(member)
    except (FileNotFoundError, IsADirectoryError):
        return []
    except (OSError, ValueError):
        return None  # (a conftest not readable: pytest's run fails or not)
    return _names(data) if len(data) <= LIMIT else None  # (s60-preview L)


def _modules_naming(below: list[str], tests: tuple[str, ...] = ()) -> list[str] | None:
    """What the test modules and package ``__init__`` files among the files ``below`` name as
    plugins: pytest reads ``pytest_plugins`` of each module it imports as a test module or
    package (``consider_module``; s59-preview M), and a package's ``__init__`` runs before its
    conftest (what it puts in ``sys.modules`` under the conftest's name is the conftest
    pytest registers). Each whose text spells ``pytest_plugins`` is read as a conftest is
    (``_read``; None where one is not read exactly); another sets it only by code that could
    as well import the module itself, the project's source a test imports (decisions.md,
    session 60). A module of ``tests``' names (``python_files`` patterns) or paths (the
    plan's operands) is a test module too (pytest collects an operand whatever its name)."""
    import fnmatch

    from .exactlists import spelled
    from .testnames import test_name

    found: list[str] = []
    for path in below:
        name = path.rpartition("/")[2]
        if not name.endswith(".py") or name == "conftest.py" or not (test_name(
                name.lower()) or path in tests or any(fnmatch.fnmatch(
                path, "*/" + p.lstrip("/")) if "/" in p else fnmatch.fnmatch(name, p)
                for p in tests if p[:1] != "/")):
            continue
        try:
            data = fs.read(path, LIMIT + 1)
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            continue
        except (OSError, ValueError):
            return None
        if len(data) > LIMIT or spelled(data, _NAME):  # (as Python reads it: s60-preview M)
            names = _names(data) if len(data) <= LIMIT else None
            if names is None:
                return None
            found += names
    return found


def _conftests(folder: str, below: list[str], anchors: tuple[str, ...],
               skipped: frozenset[str]) -> tuple[list[str], list[str]] | None:
    """The conftests in and above ``folder``, those among the files ``below`` it, and those
    in, above and below each of ``anchors`` outside it; and the files below them all; None
    where one's folders below hold too many entries."""
    found = [*above_conftests(folder), *(p for p in below if p.endswith("/conftest.py"))]
    files = list(below)
    for anchor in anchors:
        if anchor != folder:  # (inside too: below a folder `below_files` skips; P-VENVMARK2)
            outside = below_files(anchor, skipped)
            if outside is None:
                return None
            found += [*above_conftests(anchor), *(p for p in outside if p.endswith(
                "/conftest.py"))]
            files += outside  # (a `testpaths` entry outside: its test modules, s60-preview M)
    return list(dict.fromkeys(found)), list(dict.fromkeys(files))


def above_conftests(folder: str) -> list[str]:
    """The conftests in ``folder`` and each folder above it."""
    found, at = [], folder
    while True:
        found.append(os.path.join(at, "conftest.py"))
        if at in ("/", ""):
            break
        at = os.path.dirname(at)
    return found


def below_files(folder: str, skipped: frozenset[str] = _SKIPPED,
                more: tuple[str, ...] = ()) -> list[str] | None:
    """The ``.py`` files (and their compiled forms, and files of ``more``'s endings) at any
    depth below ``folder`` (but in ``skipped`` folders and virtual environments); None where
    more than ``_ENTRIES`` entries were read."""
    found: list[str] = []
    for listed in fs.walked(folder, _ENTRIES):  # (a link to a folder: pytest follows it, once)
        if listed is None:
            return None
        at, entries, into = listed
        venv = at != folder and any(e.name == "pyvenv.cfg" for e in entries)
        for entry in entries:  # (a virtual environment's folders: pytest collects in none, but
            if entry.name.endswith((".py", *_COMPILED, *more)):  # loads the conftest of one its
                found.append(entry.path)  # anchor's `test*` folder is, and of its `test*` ones)
            elif entry.name not in skipped and entry.is_dir() and not (
                    venv and not entry.name.startswith("test")):
                into.append(entry.path)
    return found


def _names(data: bytes) -> list[str] | None:
    """The module names a conftest's bytes ``data`` assign to ``pytest_plugins`` as literals
    at its top level; None where the name is used any other way (see the module's text)."""
    import ast

    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return None
    found: list[str] = []
    read: set[int] = set()
    for statement in tree.body:
        value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
        targets = statement.targets if isinstance(statement, ast.Assign) else [
            statement.target] if isinstance(statement, ast.AnnAssign) else []
        if value is None or len(targets) != 1 or not isinstance(targets[0], ast.Name) or \
                targets[0].id != _NAME:
            continue
        try:
            given = ast.literal_eval(value)
        except ValueError:
            shaped = None if isinstance(value, ast.JoinedStr) else _shaped(value)  # (computed:
            # each name's literal package, K; a string's interpolation may hold commas)
            if shaped is None:
                return None
            found += shaped
            read.add(id(statement))
            continue
        values = given.split(",") if isinstance(given, str) else list(given) if isinstance(
            given, (list, tuple)) else [None]  # (a string: split at commas, as pytest does)
        if not all(isinstance(v, str) for v in values):
            return None
        found += [str(v) for v in values]
        read.add(id(statement))
    from .exactcode import exact  # (loaded where a conftest is read: the hook's start)

    stars = _stars(tree)  # (`from base import *`: base read as an aggregator, K-STAR)
    if stars is None or not exact(tree, _NAME, _CALLS, _DECORATORS, _BASES, frozenset(read),
                                  hooks=_HISTORIC, methods=_HOOK_METHODS, keeping=_KEEPING):
        return None  # (code not read exactly by the allow-list: s58-preview P-DYNAMIC6)
    return found + stars


def _stars(tree: object) -> list[str] | None:
    """The modules the ``ast`` module ``tree`` star-imports (their ``pytest_plugins`` is its
    own); None for a relative one without a module's name (``from . import *``)."""
    import ast

    found = []
    for node in ast.walk(tree):  # type: ignore[arg-type]
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            if not node.module:
                return None
            found.append("=" + node.module)  # (read, not a plugin: K-STAR2)
    return found


def _shaped(node: object) -> list[str] | None:
    """The names a computed ``pytest_plugins`` value ``node`` (an ``ast`` expression) gives,
    where each is a literal string or an f-string whose literal start holds a ``.``
    (``f"tests.fixtures.{name}"``: a module of the package ``tests.fixtures``, read as
    ``tests.fixtures.*``, every module below it; s56-greview3 K): a list, tuple or set of
    them, a comprehension making them, a sum of such; None for any other value (every
    module)."""
    import ast

    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.split(",")
    if isinstance(node, ast.JoinedStr):
        start = node.values[0] if node.values else None
        text = start.value if isinstance(start, ast.Constant) and isinstance(
            start.value, str) else ""
        package = text.rpartition(".")[0]
        return [package + ".*"] if package and "," not in text else None
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        found: list[str] = []
        for element in node.elts:
            shaped = _shaped(element) if isinstance(element, (ast.Constant, ast.JoinedStr)) \
                else None  # (an element is one name: `'help' + 'ers'` is not read)
            if shaped is None:
                return None
            found += shaped
        return found
    if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
        return _shaped(node.elt) if isinstance(node.elt, (ast.Constant, ast.JoinedStr)) \
            else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and not any(
            isinstance(n, (ast.Constant, ast.JoinedStr)) for n in (node.left, node.right)):
        left, right = _shaped(node.left), _shaped(node.right)
        return None if left is None or right is None else left + right
    return None


def _module_patterns(name: str) -> list[str]:
    """The files (``pytestini`` patterns) Python imports for the module ``name``
    (``fixtures.db``): each of its dotted prefixes' source, bytecode and extension files and
    package ``__init__`` files, and their cached bytecode."""
    parts = [p for p in name.strip().split(".") if p]
    found: list[str] = []
    for at in range(1, len(parts) + 1):
        path = "/".join(parts[:at])
        head, _, last = path.rpartition("/")
        cache = (head + "/" if head else "") + "__pycache__/" + last + ".*"
        found += [path + ".py", path + ".pyc", path + ".*so", path + ".pyd",
                  path + "/__init__.*", cache]
    return found
