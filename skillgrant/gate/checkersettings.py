"""The plugins and programs a Python checker's settings name (session 48, review s44 W3's
pyproject.toml row; moved out of ``startpaths`` in session 49: s49-greview P1, P2): ``mypy
src`` imports the ``plugins`` its ``mypy.ini``, ``pyproject.toml`` or ``setup.cfg`` names and
runs its ``python_executable``, pylint its ``load-plugins`` (and runs its ``init-hook``),
flake8 its ``[flake8:local-plugins]``, ``coverage report`` its ``[run] plugins``: code the
plan did not grant, run by a program that runs none of the project's otherwise. Under a plan
running one (``planprograms`` marks it ``&NAME``; ``&*`` under a runner of any program;
``&NAME=FILE`` for a settings file its option names: ``--rcfile``, ``--config-file``), each
module or path those settings name is guarded whole, read from the settings file's folder and
each folder a call runs in; for a checker the plan names itself, its settings files are
guarded beyond the plan's own Edit grant too (``nested.only_planned``: they are not the plan's
programs' alone). A settings file that cannot be read denies. Each checker's files and
sections are its documented search list: pylint reads every section of a ``pylintrc`` (its
options are flat), every ``[pylint.*]`` section of ``setup.cfg``/``tox.ini``, every
``[tool.pylint.*]`` table of a TOML file, and the file ``PYLINTRC`` names; coverage the file
``COVERAGE_RCFILE`` names."""

from __future__ import annotations

import os

from . import files as fs
from . import linked
from .planpaths import module_files

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

_PYLINT_KEYS: Final = ("load-plugins", "init-hook")
#: Each checker's settings files (in each folder from the call's up, and the user's), with the
#: sections and keys naming its plugins: (file, sections, keys); ``pyproject.toml``'s tables
#: as dotted sections; a section ending in ``*`` is each section (table) of that prefix.
SETTINGS_FILES: Final = {
    "mypy": tuple((name, ("mypy", "tool.mypy"), ("plugins", "python_executable"))
                  for name in ("mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg",
                               os.path.join("~", ".config", "mypy", "config"),
                               os.path.join("~", ".mypy.ini"))),
    "pylint": (*((name, ("*",), _PYLINT_KEYS) for name in (
        "pylintrc", ".pylintrc", os.path.join("~", ".pylintrc"),
        os.path.join("~", ".config", "pylintrc"))),
               *((name, ("tool.pylint.*",), _PYLINT_KEYS) for name in (
                   "pylintrc.toml", ".pylintrc.toml", "pyproject.toml")),
               *((name, ("pylint.*",), _PYLINT_KEYS) for name in ("setup.cfg", "tox.ini"))),
    "flake8": tuple((name, ("flake8:local-plugins",), ("extension", "report", "paths"))
                    for name in ("setup.cfg", "tox.ini", ".flake8")),
    "coverage": tuple((name, ("run", "coverage:run", "tool.coverage.run"), ("plugins",))
                      for name in (".coveragerc", "setup.cfg", "tox.ini", "pyproject.toml")),
    # pytest's `addopts` (`-p tools.plug`: a plugin module it imports), `filterwarnings` (a
    # category's module it imports: s51-greview G18)
    "pytest": tuple((name, ("pytest", "tool.pytest.ini_options", "tool.pytest", "tool:pytest"),
                     ("addopts", "filterwarnings")) for name in (
        "pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini", "pyproject.toml",
        "tox.ini", "setup.cfg"))}
SETTINGS_FILES["dmypy"] = SETTINGS_FILES["mypy"]
#: The variables naming a checker's settings file in its usual ones' stead.
_VARIABLES: Final = (("pylint", "PYLINTRC"), ("coverage", "COVERAGE_RCFILE"))
#: Of them, those running the project's code anyway (its tests): their settings files stay
#: the plan's programs' alone (``Edit(./**)`` beside ``Bash(pytest tests)``: review s45).
_RUNS_CODE: Final = frozenset({"pytest"})


#: ``SETTINGS_FILES`` by file name: (the checker, its sections, its keys).
_BY_NAME: Final[dict[str, list[tuple[str, tuple[str, ...], tuple[str, ...]]]]] = {}
for _kind, _files in SETTINGS_FILES.items():
    for _name, _sections, _keys in _files:
        _BY_NAME.setdefault(_name, []).append((_kind, _sections, _keys))


def plugin_paths(marks: list[str], folders: list[str],
                 home: str) -> list[tuple[str, bool]]:
    """The items above for the checkers ``marks`` (``*``: every one, their plugins only;
    ``NAME=FILE``: the settings file an option names), the folders a call runs in
    ``folders`` (the call's, each above, the project's) and ``home``."""
    kinds = [m.partition("=")[0] for m in marks]
    wanted = set(SETTINGS_FILES) if "*" in kinds else set(kinds)
    found = dict.fromkeys((os.path.join(f, name) for kind in kinds if kind in SETTINGS_FILES
                           and kind not in _RUNS_CODE for name, _, _ in SETTINGS_FILES[kind]
                           if name[:2] != "~/" for f in folders), True)  # (its Edit grant)
    places = [(os.path.join(f, name), _BY_NAME[name]) for f in dict.fromkeys(folders)
              for name, _ in linked.entries(f) if name in _BY_NAME]  # (one listing each)
    places += [(os.path.join(home, name[2:]), _BY_NAME[name]) for name in _BY_NAME
               if name[:2] == "~/"]
    named = [(k, p) for k, _, p in (m.partition("=") for m in marks) if p]
    named += [(k, os.environ[v]) for k, v in _VARIABLES if k in wanted and os.environ.get(v)]
    for kind, path in named:  # (read as the checker's first file is: `pylintrc`'s sections)
        for at in dict.fromkeys(os.path.join(f, os.path.expanduser(path)) for f in folders):
            found[at] = True
            places.append((at, _BY_NAME.get(os.path.basename(at)) or [
                (kind, *SETTINGS_FILES[kind][0][1:])]))
    for path, readings in places:
        text = _text(path) or ""
        for kind, sections, keys in readings if text else ():
            for key, value in _settings(path, text, sections, keys) if kind in wanted else ():
                value = _plugin_options(value) if key in ("addopts", "filterwarnings") \
                    else value
                found.update(dict.fromkeys(_named(key, value, os.path.dirname(path), folders),
                                           True))
    return list(found.items())


def _plugin_options(value: str) -> str:
    """The modules pytest's ``addopts`` (or ``filterwarnings``) makes it import: each plugin
    (``-p NAME``, ``-pNAME``; not ``-p no:NAME``) and each warning category's module
    (``-W ACTION::mod.Category``; a ``filterwarnings`` line ``ACTION::mod.Category``)."""
    words = value.split()
    found = [w[2:] or (words[at + 1] if at + 1 < len(words) else "")
             for at, w in enumerate(words) if w[:2] == "-p"]
    filters = [w[2:] or (words[at + 1] if at + 1 < len(words) else "")
               for at, w in enumerate(words) if w[:2] == "-W"] + value.splitlines()
    found += [[*f.split(":"), "", ""][2].strip().rpartition(".")[0] for f in filters]
    return " ".join(w for w in found if w and not w.startswith("no:") and
                    w not in ("builtins", "warnings"))


def _named(key: str, value: str, here: str, folders: list[str]) -> list[str]:
    """The paths a plugin setting ``key``'s ``value`` names: each path (a word holding ``/``
    or ending in ``.py``; each word of flake8's ``paths``, a folder) from ``here``, the
    settings file's folder; each module name (``pkg.plugin``, flake8's ``X = pkg.mod:Class``),
    its files in ``here`` and each of ``folders``; an ``init-hook``'s quoted strings as
    folders, whole; mypy's ``python_executable`` and its virtual environment, whole."""
    found: list[str] = []
    for quoted in value.split("'")[1::2] + value.split('"')[1::2]:
        found += [os.path.join(here, quoted), *(os.path.join(f, quoted) for f in folders)]
    for word in value.replace(",", " ").replace("=", " ").replace("\n", " ").split():
        word = word.strip("'\"[]();").split(":", 1)[0]
        if not word:
            continue
        if "/" in word or word.endswith(".py") or word in (".", "..") or key in (
                "paths", "python_executable"):
            path = os.path.join(here, os.path.expanduser(word))  # (and the package or
            found += [path, *(os.path.join(os.path.dirname(path), m) for m in module_files(
                os.path.basename(path).removesuffix(".py")))]  # extension of its name: W1)
            found += [os.path.dirname(os.path.dirname(path))] if key == "python_executable" \
                and os.path.basename(os.path.dirname(path)) in ("bin", "Scripts") else []
        elif word.replace(".", "").replace("_", "").isalnum():
            found += [os.path.join(f, m) for f in (here, *folders) for m in module_files(word)]
    return [os.path.normpath(p) for p in found if os.path.normpath(p) not in folders]


def _text(path: str) -> str | None:
    """The text of the settings file ``path`` (up to 4 MiB); None when it is not there.
    Raises ValueError when it cannot be read."""
    try:
        data = fs.read(path, (1 << 22) + 1)
        if len(data) > 1 << 22:  # (its end not read: s60-preview L)
            raise ValueError("longer than 4 MiB")
        return data.decode()
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return None
    except (OSError, ValueError) as e:
        raise ValueError(f"{path!r} cannot be read for the plugins it names: {e}") from e


def _settings(path: str, text: str, sections: tuple[str, ...],
              keys: tuple[str, ...]) -> list[tuple[str, str]]:
    """The values of ``keys`` in each of ``sections`` of the settings file ``path`` holding
    ``text`` (ini, or TOML for a name ending in ``.toml``, a list's items joined). Raises
    ValueError when it cannot be read."""
    if not any(key in text for key in keys) and not (path.endswith(".toml") and "\\" in text):
        return []  # (a TOML key may be spelled by an escape: `"add\u006fpts"`, s60-preview I)
    try:
        return [found for section in sections for found in (
            _toml(text, section, keys) if path.endswith(".toml") else _ini(text, section, keys))]
    except ValueError as e:
        raise ValueError(f"{path!r} cannot be read for the plugins it names: {e}") from e


def _toml(text: str, section: str, keys: tuple[str, ...]) -> list[tuple[str, str]]:
    import shlex
    import tomllib

    table: object = tomllib.loads(text)
    for part in section.rstrip(".*").split(".") if section != "*" else ():
        table = table.get(part, {}) if isinstance(table, dict) else {}
    tables = _tables(table) if section.endswith("*") else [table]
    values = [(key, t.get(key)) for t in tables if isinstance(t, dict) for key in keys
              if key in t]
    return [(k, shlex.join(map(str, v)) if isinstance(v, list) else str(v)) for k, v in values]
    # (a list's items as they are: `shlex` splits the join back, s60-preview I)


def _tables(table: object) -> list[dict[str, object]]:
    """``table`` and each table below it (pylint's ``[tool.pylint.*]``)."""
    if not isinstance(table, dict):
        return []
    return [table, *(t for v in table.values() for t in _tables(v))]


#: The line breaks ``str.splitlines`` takes besides ``\n`` (and the ``\r\n`` a file read in
#: text mode turns into one): pytest's ``iniconfig`` breaks its lines at each, a checker
#: opening its file in text mode at a lone ``\r``, ``configparser.read_string`` at ``\n``
#: only (review s59-preview I).
_BREAKS: Final = "\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"


def _ini(text: str, section: str, keys: tuple[str, ...]) -> list[tuple[str, str]]:
    """The values of ``keys`` in ``section`` of the ini ``text``. Raises ValueError where a
    line break is one program's and not another's (``_BREAKS``): its lines are not known."""
    import configparser

    if any(c in _BREAKS for c in text.replace("\r\n", "\n")):
        raise ValueError("a line break other than \\n (pytest's iniconfig breaks lines by "
                         "str.splitlines, configparser at \\n only)")
    if section in ("pytest", "tool:pytest"):  # (pytest's own reading: s60-preview I)
        values = _iniconfig(text).get(section, {})
        return [(key, values[key]) for key in keys if key in values]
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error as e:
        raise ValueError(str(e)) from e
    names = [s for s in parser.sections() if s.startswith(section[:-1])] if \
        section.endswith("*") else [section] if parser.has_section(section) else []
    return [(key, parser.get(name, key)) for name in names for key in keys
            if parser.has_option(name, key)]


def _iniconfig(text: str) -> dict[str, dict[str, str]]:
    """The sections of the ini ``text`` as pytest's ``iniconfig`` (2.x, ``IniConfig(path)``)
    reads them: names as spelled, a section line cut at its first ``#`` or ``;``, a name at
    the first ``=`` (or ``:`` where the name would hold one), continuation lines joined by
    ``\\n``, no inline comment cut from a value. Raises ValueError where iniconfig raises
    its ParseError (pytest stops: a duplicate section or name, a line it does not read)."""
    sections: dict[str, dict[str, list[str]]] = {}
    section: dict[str, list[str]] | None = None
    last: list[str] | None = None
    for line in text.removeprefix("\ufeff").replace("\r\n", "\n").splitlines():
        line = "" if line.lstrip()[:1] in ("#", ";") else line.rstrip()
        if not line:
            continue
        if line[0] == "[":
            section, last = sections.setdefault(_section(line, sections), {}), None
        elif section is None or (line[0].isspace() and last is None):
            raise ValueError(f"a line iniconfig does not read: {line!r}")
        elif line[0].isspace():
            last.append(line.strip())  # type: ignore[union-attr]
        else:
            name, equal, value = line.partition("=")
            if not equal or ":" in name:
                name, colon, value = line.partition(":")
                if not colon:
                    raise ValueError(f"a line iniconfig does not read: {line!r}")
            if name.strip() in section:
                raise ValueError(f"a name given twice: {name.strip()!r}")
            last = section[name.strip()] = [value.strip()] if value.strip() else []
    return {k: {n: "\n".join(v) for n, v in values.items()} for k, values in sections.items()}


def _section(line: str, sections: dict[str, dict[str, list[str]]]) -> str:
    """The name of the section the ``[…]`` ``line`` starts (iniconfig's: cut at its first
    ``#`` and ``;``). Raises ValueError for one iniconfig does not read so (a continuation:
    not read here) or a duplicate."""
    head = line.split("#")[0].rstrip().split(";")[0].rstrip()
    if head[-1:] != "]" or not head[1:-1] or head[1:-1] in sections:
        raise ValueError(f"a section line iniconfig does not read: {line!r}")
    return head[1:-1]


def pytest_settings(folder: str, keys: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """Each value of pytest's settings ``keys`` (``pythonpath``, ``addopts``…) in each of
    its settings files (``SETTINGS_FILES["pytest"]``) in ``folder`` and each folder above
    it (pytest's ini is the first found from its arguments' folder up: every one is read),
    as (the file's folder, the key, the value). Raises ValueError as ``_text``."""
    found: list[tuple[str, str, str]] = []
    files = SETTINGS_FILES["pytest"]
    while True:
        for name, sections, _ in files:
            path = os.path.join(folder, name)
            text = _text(path) or ""
            found += [(folder, k, v) for k, v in _settings(path, text, sections, keys)] \
                if text else []
        if folder in ("/", ""):
            return found
        folder = os.path.dirname(folder)
