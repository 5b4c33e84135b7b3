"""The folders beside the run folders that a collecting plan's test runners read tests from
(issue 29, review s53-greview2 T6, T11, T12).

``Guarded.collected`` holds the folders the plan's programs run in; a runner also collects
in a folder its operand names (``node --test ../ext/``: the plan names it, and guards it
whole), one its settings name (bun's ``bunfig.toml`` ``[test] root``, pytest's
``testpaths``), one a ``package.json`` script's words name (``"test": "node --test
../ext/"``; the scripts the plan runs where ``planscripts`` names them). A link there leads
the runner to a file anywhere (``../ext/test/o -> ../../other``): ``testlinks`` walks these
folders too, and a path met below one (the file itself, or through a link) is read as the
runner's. Only folders outside the run folders
count (one below them is walked already); they are read from the run folders' settings
files, which the plan guards (a session cannot change them), once a guarded set.
"""

from __future__ import annotations

import itertools
import os
import re

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The guarded set the roots were read for (by identity), and its roots.
_LAST: list[tuple[object, tuple[str, ...]]] = []
#: A settings file read at most this far (a settings file is small).
_LIMIT: Final = 1 << 20
#: pytest's settings files, each with the section holding ``testpaths`` (pytest 9's order).
_PYTEST: Final = (("pytest.toml", "pytest"), (".pytest.toml", "pytest"),
                  ("pytest.ini", "pytest"), (".pytest.ini", "pytest"),
                  ("pyproject.toml", "tool.pytest.ini_options"),
                  ("pyproject.toml", "tool.pytest"), ("tox.ini", "pytest"),
                  ("setup.cfg", "tool:pytest"))


def runner_roots(guards: object, runs: tuple[str, ...]) -> tuple[str, ...]:
    """The real folders, none at or below one of the real folders ``runs`` (the walk's own
    roots), that a runner of the collecting plan of ``guards`` reads tests from (see the
    module's text); () where the plan collects none."""
    if _LAST and _LAST[0][0] is guards:
        return _LAST[0][1]
    found: dict[str, None] = {}
    if getattr(guards, "collected", None):
        from .nested import planned_of
        from .planscripts import plan_scripts

        names = plan_scripts(guards)
        inside = tuple(r.rstrip("/") + "/" for r in runs)
        named = [p for p in planned_of(guards) if not (p + "/").startswith(inside)]
        found.update(dict.fromkeys(p for p in named if fs.is_folder(p)))
        for run in runs:
            for folder in _settings_roots(run, names):
                real = fs.realpath(folder)
                if real != "/" and not (real + "/").startswith(inside) and fs.is_folder(real):
                    found[real] = None  # (`/`: a URL's base, `vite --base /`; s55-sreview C1)
    roots = tuple(found)
    _LAST[:] = [(guards, roots)]
    return roots


def _settings_roots(folder: str, names: frozenset[str] | None) -> list[str]:
    """The folders ``folder``'s settings name for a runner: bunfig's ``[test] root``,
    pytest's ``testpaths`` and ``addopts``' operands in the first settings file pytest finds
    from ``folder`` up (s55-sreview R2: a monorepo's), each word of a ``package.json``
    script the plan runs (``names``: ``planscripts``; None: any) (``_script_folders``)."""
    found: list[str] = []
    test = _toml(os.path.join(folder, "bunfig.toml")).get("test")
    root = test.get("root") if isinstance(test, dict) else None
    found += [os.path.join(folder, root)] if isinstance(root, str) else []
    above = folder
    while True:
        paths = next((p for n, sec in _PYTEST if (p := _pytest_paths(os.path.join(above, n),
                                                                      sec)) is not None), None)
        if paths is not None:  # (testpaths from the settings' folder, addopts' from the call's)
            found += [os.path.join(b, p) for p in paths for b in dict.fromkeys((above, folder))]
            break
        if above == "/":
            break
        above = os.path.dirname(above)
    found = [os.path.normpath(_before_pattern(p)) for p in found if p]
    return found + _script_folders(folder, os.path.join(folder, "package.json"), 0, names)


def _before_pattern(path: str) -> str:
    """``path`` up to the folder before its first pattern character (``../t*/x``: ``..``)."""
    at = next((k for k, c in enumerate(path) if c in "*?["), None)
    return path if at is None else path[:at].rpartition("/")[0] or "."


def _text(path: str) -> str | None:
    """The text of the file at ``path``; None where there is none."""
    try:
        return fs.read(path, _LIMIT).decode("utf-8", "replace")
    except (OSError, ValueError):
        return None


def _toml(path: str) -> dict[str, object]:
    """The TOML file at ``path`` read; {} where it is not there or not read."""
    text = _text(path)
    if text is None:
        return {}
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return {}


def _pytest_paths(path: str, section: str) -> list[str] | None:
    """pytest's ``testpaths``, and ``addopts``' words that are no option (its operands, and
    ``--rootdir``'s value), in ``section`` of the settings file at ``path``; None where the
    file or the section is not there (pytest reads the next file)."""
    found = _testpaths(path, section, "testpaths")
    if found is None:
        return None
    words = [w for v in _testpaths(path, section, "addopts") or [] for w in v.split()]
    return found + [w.partition("=")[2] if w.startswith("--rootdir=") else w for w in words
                    if w[:1] != "-" or w.startswith("--rootdir=")]


def _testpaths(path: str, section: str, key: str) -> list[str] | None:
    """The words of ``key`` in ``section`` of the settings file at ``path`` ([] where the
    section holds none); None where the file or the section is not there."""
    if path.endswith(".toml"):
        table: object = _toml(path)
        for part in section.split("."):
            table = table.get(part) if isinstance(table, dict) else None
        if not isinstance(table, dict):
            return None
        value = table.get(key, [])
        return [v for v in value if isinstance(v, str)] if isinstance(value, list) else \
            value.split() if isinstance(value, str) else []
    text = _text(path)
    if text is None:
        return None
    import configparser

    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return None
    if not parser.has_section(section):
        return None
    return parser.get(section, key, fallback="").split()


def _script_folders(folder: str, path: str, depth: int,
                    names: frozenset[str] | None = None) -> list[str]:
    """The folders the words of the scripts of the ``package.json`` at ``path`` that the plan
    runs (``planscripts.script_closure`` of ``names``; s55-sreview C1, C2) (or, at
    ``depth`` 1, the text of a script file in ``folder`` they name: ``sh run.sh``; its
    first MiB) name from ``folder`` and
    from each folder a ``cd`` in them names (``cd .. && node --test ext/``), ``~/`` and
    ``$HOME`` the home's, ``$INIT_CWD``, ``$PWD``, ``$npm_config_local_prefix`` (npm's)
    ``folder`` (s55-sreview R1, R3). Raises ValueError for a script word holding any other
    expansion (``$npm_package_config_dir``, ``${PWD%/*}``, `` `dirname $PWD` ``: R4), and
    for a script file's path built from one (``$X/ext``, ``cd $X``)."""
    text = _text(path)
    if text is None or "\0" in text:  # (a program's file: no script's text)
        return []
    if depth == 0:
        import json

        try:
            scripts = json.loads(text).get("scripts")
        except (ValueError, AttributeError):
            return []
        if not isinstance(scripts, dict):
            return []
        from .planscripts import script_closure

        text = "\n".join(script_closure({k: v for k, v in scripts.items()
                                          if isinstance(v, str)}, names).values())
    text = _KNOWN.sub(lambda m: os.path.expanduser("~") if "HOME" in m.group() else folder,
                      text).replace("\\", "")  # (bash drops an unquoted backslash: `..\/`)
    unknown = (_UNSPELLED if depth == 0 else _UNKNOWN).search(text)
    if unknown is not None:
        raise ValueError(f"a package.json script of {folder!r} holds a word the gate does not "
                         f"expand ({unknown.group()!r}), where a test runner may collect")
    words = [w.rpartition("=")[2] for w in _WORDS.split(text) if w]
    words = [os.path.expanduser(w) if w[:2] == "~/" else w for w in words if "$" not in w]
    bases = [folder, *(os.path.join(folder, b) for a, b in itertools.pairwise(words)
                       if a in ("cd", "pushd"))]
    found = [os.path.normpath(os.path.join(b, _before_pattern(w))) for w in words
             for b in bases if w[:1] != "-"]
    if depth == 0:
        found += [f for w in dict.fromkeys(words) if w[:1] != "-" and (os.path.normpath(
                  os.path.join(folder, w)) + "/").startswith(folder.rstrip("/") + "/") and
                  fs.entry(os.path.join(folder, w)) == "file"
                  for f in _script_folders(folder, os.path.join(folder, w), 1)]
    return found


#: The variables npm sets to the package's folder (``INIT_CWD``: the folder npm runs in,
#: ``PWD``, ``npm_config_local_prefix``), and ``HOME``, as ``$X`` or ``${X}``.
_KNOWN: Final = re.compile(r"\$(?:\{(?:INIT_CWD|PWD|npm_config_local_prefix|HOME)\}|"
                           r"(?:INIT_CWD|PWD|npm_config_local_prefix|HOME)\b)")
#: A path built from what the gate does not compute: another variable or a command's output
#: before or after a ``/``, or a ``cd`` to one (s55-sreview R3).
_UNKNOWN: Final = re.compile(r"(?:\$\{?\w+\}?|`[^`]*`|\$\([^)]*\))/|/[^\s;&|]*\$|"
                             r"\bcd\s+(?:\$|`)")
#: In a ``package.json`` script: any expansion left after ``_KNOWN``'s (a variable, a
#: parameter expansion, a command's output: ``$npm_package_config_dir``, ``${PWD%/*}``), as
#: the word holding it (s55-sreview R4: no more spellings read, each refused).
_UNSPELLED: Final = re.compile(r"[^\s;&|()<>]*[$`][^\s;&|()<>]*")
#: Where a script's text is cut into words (blanks, quotes, the shell's operators).
_WORDS: Final = re.compile(r"""[\s'"`;&|()<>]+""")
