"""Which library folders an interpreter reads its site folders from (issue 29, session 57,
s56-greview3 V): found as CPython's ``getpath`` finds its prefix. A virtual environment's
``pyvenv.cfg`` (beside the interpreter or one folder up, the path unresolved) gives its own
``lib`` and, unless every ``include-system-site-packages`` line says false (``site.venv``'s
default is true), each ``home``'s installation's; any other interpreter's prefix is found
from its path and its real path (a link followed) up to the standard library's landmark
(``lib/python3.X/os.py``). A script in an interpreter's stead (a shim) is read only as a
version manager's whose installs are listed (pyenv's ``shims/../versions/*``, asdf's
``shims/../installs/python/*``: each read as an interpreter). Where anything in that chain
is not known (another script, no landmark, a ``pyvenv.cfg`` not read, a relative ``home``),
None: the interpreter may import any module (``sitenames.site_names``)."""

from __future__ import annotations

import functools
import os
import sys

from . import files as fs
from .programnames import is_interpreter as is_interpreter

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Callable, Container
    from typing import Final


#: The starts of an executable binary's file: ELF, Mach-O (thin, either order, and universal:
#: macOS's /usr/bin/python3; s57-greview2 K-MACOS).
_BINARIES = frozenset((b"\x7fELF", b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe",
                       b"\xfe\xed\xfa\xcf", b"\xfe\xed\xfa\xce", b"\xca\xfe\xba\xbe"))


#: macOS's ``python3`` stub (a Mach-O universal binary in the system's sealed volume): it
#: runs the developer folder's ``usr/bin/python3`` (``xcrun``'s), installing none.
_STUB = "/usr/bin/python3"
#: Whether this is macOS (a list: the tests emulate it).
_DARWIN = [sys.platform == "darwin"]


def _developer_dirs() -> list[str]:
    """The developer folders ``xcrun`` may take (each: ``DEVELOPER_DIR``, ``xcode-select``'s
    link, Xcode's and the Command Line Tools' default places)."""
    try:
        link = [os.path.join(os.path.dirname(_XCODE_SELECT), os.readlink(_XCODE_SELECT))]
    except OSError:
        link = []
    found = [os.environ.get("DEVELOPER_DIR", ""), *link,
             "/Applications/Xcode.app/Contents/Developer", "/Library/Developer/CommandLineTools"]
    return [d for d in dict.fromkeys(found) if d]


#: ``xcode-select -s``'s link to the chosen developer folder.
_XCODE_SELECT = "/var/db/xcode_select_link"


@functools.lru_cache(maxsize=512)
def interpreter_libs(exe: str) -> list[str] | None:
    """The library folders (``PREFIX/lib``) whose site folders the interpreter at ``exe``
    reads at its start, found as CPython's ``getpath`` does (see ``site_names``): [] where no
    file is there; None where they cannot be known exactly."""
    real = os.path.realpath(exe)
    try:
        magic = fs.read(real, 4)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return []  # (nothing a shell runs)
    except OSError:  # (a FIFO too: not waited for)
        return None
    if magic not in _BINARIES or not is_interpreter(os.path.basename(real)):  # (a script, a
        return _shimmed(os.path.dirname(exe))  # launcher: a shim; s57-greview2 V-LAUNCHER)
    if real == _STUB and magic != b"\x7fELF" and _DARWIN[0]:
        return gathered([], [os.path.join(d, "usr", "bin", "python3") for d in _developer_dirs()],
                        interpreter_libs)  # (macOS's stub: K-MACOS)
    for folder in (os.path.dirname(exe), os.path.dirname(os.path.dirname(exe))):
        venv = venv_libs(folder)
        if venv is None or venv:
            return venv  # (a venv's: pyvenv.cfg beside the interpreter or one folder up)
    found = []
    for at in (real,):  # (getpath searches from the executable's real path, for its own
        named = os.path.basename(at)[6:]  # version's landmark: s58-preview V-LANDMARK-VERSION)
        prefix = _landmark(os.path.dirname(at), named) if "." in named else None  # (no
        if prefix != os.path.dirname(os.path.dirname(at)):  # version in its real name: not
            return None  # known, V-LANDMARK-VERSIONLESS; found higher up, `/`'s merged /lib:
        # a launcher's, not known)
        found.append(os.path.join(prefix, "lib"))
    return list(dict.fromkeys(found))


def venv_libs(prefix: str) -> list[str] | None:
    """The library folders of the virtual environment at ``prefix`` (its own, and unless
    every ``include-system-site-packages`` line says false, each ``home``'s installation's);
    [] where it is none (no ``pyvenv.cfg``); None where its file cannot be read or a base
    is not known."""
    cfg = os.path.join(prefix, "pyvenv.cfg")
    try:
        text = fs.read(cfg, 1 << 16).decode()
    except (FileNotFoundError, NotADirectoryError):
        return []
    except (OSError, ValueError):
        return None
    read = [(k.strip().lower(), v.strip()) for k, _, v in (
        line.partition("=") for line in text.splitlines()) if _]
    found = [os.path.join(prefix, "lib")]
    system = [v.lower() for k, v in read if k == "include-system-site-packages"]
    if system and all(v == "false" for v in system):  # (site.venv: "true" unless a line
        return found  # says otherwise, the last one read; each taken)
    homes = [v for k, v in read if k == "home"]  # (getpath takes the first: each taken)
    if not homes or any(h[:1] != "/" for h in homes):
        return None
    version = ".".join(next((v for k, v in read if k in ("version", "version_info")),
                            "").split(".")[:2])  # (its base's landmark: V-LANDMARK-VENV-HOME)
    return gathered(found, homes, lambda home: _home_libs(home, version))


def gathered(found: list[str], sources: list[str],
             libs: Callable[[str], list[str] | None]) -> list[str] | None:
    """``found`` and then the library folders ``libs`` gives for each of ``sources``, each
    folder once; None where one's cannot be known (``libs`` gives None)."""
    for source in sources:
        more = libs(source)
        if more is None:
            return None
        found += [m for m in more if m not in found]
    return found


def _home_libs(home: str, version: str) -> list[str] | None:
    """The library folders of the base installation a venv's ``home`` names: the prefix
    getpath finds searching up from it (unresolved) for the landmark of its ``version``
    (``3.11``: the venv's ``version``; "": not written, any one version's), and each of its
    interpreters' links' installations; None where one is not known."""
    import glob

    base = _landmark(home, version if version.count(".") == 1 else "")
    if base is None:
        return None
    found = [os.path.join(base, "lib")]
    for exe in glob.glob(os.path.join(glob.escape(home), "python*")):
        if is_interpreter(os.path.basename(exe)) and os.path.realpath(exe) != exe:
            more = interpreter_libs(exe)  # (a link: its installation's too)
            if more is None:
                return None
            found += [m for m in more if m not in found]
    return found


@functools.lru_cache(maxsize=512)
def _landmark(folder: str, version: str = "") -> str | None:
    """The prefix CPython ``version`` (``3.11``; "": not known) finds searching up from
    ``folder`` for its standard library's landmark (``lib/python3.11/os.py``,
    ``lib/python311.zip``); None where none is found (its compiled-in prefix: not known
    here), or where the version is not known and the prefix holds more than one's."""
    import glob

    at = folder.rstrip("/") or "/"
    spelled = version or "[23]*"
    while True:
        lib = os.path.join(glob.escape(at), "lib")
        found = glob.glob(os.path.join(lib, f"python{spelled}", "os.py")) + glob.glob(
            os.path.join(lib, f"python{spelled.replace('.', '')}.zip"))
        if found:
            versions = {os.path.basename(os.path.dirname(f)) if f.endswith("os.py") else
                        os.path.basename(f)[6:-4].replace(".", "") for f in found}
            return at if version or len({v.replace(".", "").removeprefix("python")
                                         for v in versions}) == 1 else None
        if at == "/":
            return None
        at = os.path.dirname(at)


@functools.lru_cache(maxsize=16)
def _shimmed(folder: str) -> list[str] | None:
    """The library folders of the installations a version manager's shim in ``folder`` may
    run (pyenv's ``shims/../versions/*``, asdf's ``shims/../installs/python/*``: each, read as
    an interpreter); None for any other script in an interpreter's stead."""
    import glob

    if os.path.basename(folder) != "shims":
        return None
    top = glob.escape(os.path.dirname(folder))
    installs = [*glob.glob(os.path.join(top, "versions", "*")),
                *glob.glob(os.path.join(top, "installs", "python", "*"))]
    if not installs:
        return None
    found: list[str] = []
    for install in installs:
        venv = venv_libs(install)
        if venv is None:
            return None
        if venv or _landmark(install) == install:  # (a venv, or an installation's prefix)
            found += [m for m in venv or [os.path.join(install, "lib")] if m not in found]
            continue
        for at in glob.glob(os.path.join(glob.escape(install), "bin", "python*")):
            if is_interpreter(os.path.basename(at)):
                more = interpreter_libs(at)
                if more is None:
                    return None
                found += [m for m in more if m not in found]
        found += [os.path.join(install, "lib")]
    return list(dict.fromkeys(found))


def path_libs(path: str, prefixes: tuple[str, ...]) -> list[str] | None:
    """The library folders of ``prefixes`` (the system's, the user's), of the hook's
    Python's base installation (a venv's), of each folder of ``path`` (a ``PATH``) and of
    each interpreter there (``interpreter_libs``: a link's installation, a venv's base, the
    versions a pyenv or asdf shim runs) and each test runner's script there names
    (``_shebang``); None where one's cannot be known."""
    bins = [os.path.expanduser(b).rstrip("/") for b in path.split(":") if b[:1] in "/~" and b]
    # (bash expands a `~` entry: s58-preview T-TILDE-PATH)
    found = [*prefixes, os.path.join(sys.base_prefix, "lib"),
             *(os.path.join(os.path.dirname(b), "lib") for b in bins)]
    exes: list[str] = []
    for b in dict.fromkeys(bins):
        try:
            with os.scandir(b) as entries:
                listed = [e for e in entries if is_interpreter(e.name) or e.name in _RUNNERS]
        except OSError:
            continue
        exes += [e.path for e in listed if is_interpreter(e.name)]
        for runner in (e.path for e in listed if e.name in _RUNNERS):
            named = _shebang(runner) if os.path.basename(b) != "shims" else ""  # (a version
            if named is None:  # manager's shim runs its installs' pytest: read above)
                return None
            exes += [named] if named else []
    return gathered(found, exes, interpreter_libs)


#: The test runners' console scripts whose interpreter is read (a pipx/uv tool's venv off
#: ``PATH``: s58-preview T-SHEBANG).
_RUNNERS: Final = frozenset(("pytest", "py.test"))


def _shebang(script: str, depth: int = 0) -> str | None:
    """The interpreter the console script ``script`` runs: its ``#!`` path, or pip's
    ``exec "PATH" "$0" "$@"`` second line after ``#!/bin/sh`` (a long path's), what a shell
    wrapper execs (``_wrapped``); "" where it runs ``PATH``'s (``#!/usr/bin/env python3``)
    or is none; None where it cannot be known (another script, a binary launcher)."""
    import shlex

    try:
        head = fs.read(script, 4096)
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
        return ""
    except OSError:
        return None
    if head[:2] != b"#!":
        return None  # (a binary launcher: s58-preview T-TRAMPOLINE)
    lines = head.decode("utf-8", "replace").splitlines()
    try:
        words = shlex.split(lines[0][2:])
    except ValueError:
        return None
    if words[:1] == ["/usr/bin/env"] and len(words) == 2 and is_interpreter(words[1]):
        return ""  # (PATH's interpreter: read)
    if len(words) == 1 and is_interpreter(os.path.basename(words[0])):
        return words[0] if _console(lines[1:]) else None  # (its body: T-SCRIPT-BODY)
    code = [line for line in lines[1:] if line.strip() and line.lstrip()[:1] != "#"]
    shell = words[:1] in (["/bin/sh"], ["/bin/bash"]) or words[:2] in (
        ["/usr/bin/env", "bash"], ["/usr/bin/env", "sh"])
    if not shell or not all(w[:1] == "-" for w in words[1:] if w not in ("bash", "sh")):
        return None
    if code and code[0].startswith("'''exec'"):  # (pip's, for a path too long for `#!`)
        try:
            again = shlex.split(code[0])
        except ValueError:
            return None
        return again[1] if len(again) > 1 and is_interpreter(os.path.basename(
            again[1])) and _console(code[2:]) else None
    return _wrapped(code, depth)


def _console(lines: list[str]) -> bool:
    """Whether a console script's body ``lines`` (after its ``#!``) is an installer's template
    running pytest's entry point and nothing else (a launcher's own ``sys.path.append`` may
    move what it imports: s58-preview T-SCRIPT-BODY): pip's and installer's, conda's and older
    distlib's (``pyw?``), uv's (s58-preview K-CONSOLE-TEMPLATE)."""
    import re

    body = [line.strip().replace('"', "'") for line in lines
            if line.strip() and not line.lstrip().startswith("#")]
    at = 2 if body[:2] == ["import re", "import sys"] else 1
    entry = re.fullmatch(r"from (?:pytest|_pytest\.config|py\.test) import (\w+)",
                         body[at]) if len(body) > at else None
    if entry is None or body[at - 1] != "import sys":
        return False
    run = ["if __name__ == '__main__':"]
    if at == 2:
        return body[3:] in ([*run, fr"sys.argv[0] = re.sub(r'(-script\.{ending}|\.exe)?$', '', "
                                   f"sys.argv[0])", f"sys.exit({entry.group(1)}())"]
                            for ending in ("pyw", "pyw?"))
    return body[2:] == [*run, "if sys.argv[0].endswith('-script.pyw'):",
                        "sys.argv[0] = sys.argv[0][:-11]", "elif sys.argv[0].endswith('.exe'):",
                        "sys.argv[0] = sys.argv[0][:-4]", f"sys.exit({entry.group(1)}())"]


#: The variables a test runner's wrapper may export (what they change is no folder Python
#: imports from; Nix's ``makeWrapper`` exports ``PYTHONNOUSERSITE``).
_EXPORTS: Final = frozenset(("PYTHONNOUSERSITE", "PYTHONDONTWRITEBYTECODE", "LANG", "LC_ALL"))


def _wrapped(code: list[str], depth: int) -> str | None:
    """What a shell wrapper whose lines ``code`` export only ``_EXPORTS`` and then ``exec
    [-a NAME] TARGET … "$@"`` runs: the interpreter TARGET is, or the one TARGET's script
    runs (``_shebang``, three levels); None for any other wrapper (s58-preview K-WRAPPER,
    T-SHEBANG)."""
    import shlex

    try:
        split = [shlex.split(line) for line in code]
    except ValueError:
        return None
    if not split or any(len(w) != 2 or w[0] != "export" or w[1].partition("=")[0] not in
                        _EXPORTS for w in split[:-1]):
        return None
    last = split[-1]
    if last[:1] != ["exec"]:
        return None
    target = last[3:] if last[1:2] == ["-a"] else last[1:]
    if not target or target[0][:1] != "/":
        return None
    if is_interpreter(os.path.basename(target[0])):  # (only `-m pytest "$@"` after it: a
        return target[0] if target[1:] in (["-m", "pytest", "$@"], [  # script or code may
            "-m", "py.test", "$@"]) else None  # move sys.path: s58-preview T-WRAPPER-SCRIPT)
    return _shebang(target[0], depth + 1) if depth < 3 and target[1:] == ["$@"] else None


#: The short options that take a value.
_VALUED: Final = frozenset("cmWX")


def module_run(values: list[str | None],
               among: Container[str] | None = None) -> tuple[str, int] | None:
    """The module an interpreter given the words ``values`` (after its name; None for a
    pattern) runs, and the index of the word after it; None when it runs no module, or one
    the words do not name literally (a pattern). With ``among``: its top package, and None
    unless ``among`` holds it."""
    at = 0
    while at < len(values):
        value = values[at]
        at += 1
        if value is None or value[:1] != "-" or value in ("-", "--"):
            return None  # a script, stdin, a pattern: no module named here
        if value[:2] == "--":
            at += value == "--check-hash-based-pycs"
            continue
        flag = next((k for k in range(1, len(value)) if value[k] in _VALUED), 0)
        if not flag:
            continue
        attached = value[flag + 1:]
        if value[flag] == "c":
            return None
        if value[flag] == "m":
            module = attached or (values[at] if at < len(values) else None)
            top = module.split(".", 1)[0] if module and among is not None else module
            return None if not top or (among is not None and top not in among) else (
                top, at + (not attached))
        at += not attached  # (-W's, -X's value)
    return None
