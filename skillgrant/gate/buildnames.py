"""The files a plan's build file names, which the program the plan runs reads too (issue 29;
review s48-greview P1, M1): the requirements files a pip requirements file includes and the
local projects it builds (pip's "Requirements File Format": ``-r``/``--requirement``,
``-c``/``--constraint`` relative to the file, ``-e PATH`` and path lines relative to the
call's folder), and the makefiles a makefile includes (GNU make's "Including Other
Makefiles": ``include``, ``-include``, ``sinclude``) with the sources make's built-in rules
remake each from. ``planprograms`` names the file (``REQUIREMENTS``, ``MAKEFILE``);
``guards`` reads it here, where the file is guarded, so what it names is what the plan's
program will read."""

from __future__ import annotations

import os
import re

from . import files as fs
from .planpaths import CMAKELISTS, MAKEFILE, REQUIREMENTS

#: The bytes of a build file read for what it names, and how deep its inclusions are read.
_LIMIT = 1 << 20
_DEPTH = 8
_MAKEFILES = ("GNUmakefile", "makefile", "Makefile")


def named_paths(named: tuple[str, ...], roots: list[str],
                held: list[tuple[str, str]] | None = None,
                jest: set[str] | None = None) -> list[tuple[str, bool]]:
    """What the build files ``named`` marks (``=FILE``: pip's; ``:FILE``, ``:DIR``: make's)
    name, from each folder of ``roots`` (the call's, the project's), guarded whole; what
    make's and cmake's readings cannot compute added to ``held`` (the folder each doubt may
    read below, and why: ``writeguard``); the real folders whose makefile (or a file make
    reads from it) names jest added to ``jest``. Raises
    ValueError for a name the gate cannot read exactly (a ``$`` in a makefile's include or a
    requirement's path: the plan's program would read a file the gate cannot name)."""
    found: list[tuple[str, bool]] = []
    for mark, path in ((n[:1], n[1:]) for n in named if n[:1] in (REQUIREMENTS, MAKEFILE,
                                                                   CMAKELISTS)):
        path, *line = path.split("\0")  # (make's command line: `planprograms`)
        for root in roots:
            start = os.path.join(root, path)
            if mark == CMAKELISTS:  # (what it includes, its subdirectories: session 54)
                from .cmakereads import built_source, lists_reads  # (a plan's cmake only)
                source = built_source(os.path.dirname(start), held)  # (a build's: s55)
                found += [(p, True) for s in dict.fromkeys((start, source)) if s
                          for p in [s, *lists_reads(s, os.path.dirname(s), held)]]
                continue
            if mark == MAKEFILE and fs.is_folder(start):  # (make's own search: GNU make's
                start = next((os.path.join(start, m) for m in _MAKEFILES  # "What Name to
                              if fs.exists(os.path.join(start, m))), "")  # Give Your Makefile")
            from .makereads import makefile_reads  # (read for a plan's make only)
            read = (_requirements(start, root, _DEPTH) if mark == REQUIREMENTS else
                    makefile_reads(start, root, held, line)) if start else []
            found += [(p, True) for p in read]
            if jest is not None and mark == MAKEFILE and start and _names_jest([start, *read]):
                jest.add(fs.realpath(os.path.dirname(start)))  # (`jestargs.present`: J6)
    return found


def _names_jest(paths: list[str]) -> bool:
    """Whether a file of ``paths`` (a makefile and what make reads from it) names jest, its
    quotes and escapes dropped (``je''st``), or the session's value of a variable one refers
    to does (a recipe's ``$(JS_RUNNER)``: s58-mreview J6d)."""
    for path in paths[:_READS]:
        try:
            text = re.sub(rb"[\\'\"]", b"", fs.read(path, _LIMIT))
        except (OSError, ValueError):
            continue
        if b"jest" in text or any("jest" in os.environ.get(n.decode(), "") for n in
                                  re.findall(rb"\$[({]([A-Za-z_]\w*)[)}]", text)):
            return True
    return False


#: How many files make reads are looked at for jest's name.
_READS = 256


def _text(path: str) -> str:
    """The text of ``path``, empty when it is not there; ValueError when it cannot be read."""
    try:
        return fs.read(path, _LIMIT).decode()
    except (FileNotFoundError, NotADirectoryError):
        return ""
    except (OSError, ValueError) as e:
        raise ValueError(f"{path!r} cannot be read for the files it names: {e}") from e


def _requirements(path: str, root: str, depth: int) -> list[str]:
    """The files and folders the requirements file ``path`` names, and theirs."""
    found: list[str] = []
    here = os.path.dirname(path)
    for line in _text(path).replace("\\\n", "").splitlines():
        words = line.split(" #", 1)[0].split() if line[:1] != "#" else []
        for at, word in enumerate(words):
            kind, value = _option(words, at)
            if kind in ("-r", "-c"):
                included = os.path.join(here, _exact(value, path))
                found += [included, *(_requirements(included, root, depth - 1)
                                      if depth else [])]
            elif kind == "-e" or (at == 0 and _local(word)):
                local = _exact(value if kind == "-e" else word, path)
                local = local.removeprefix("file:").split("#", 1)[0].split("[", 1)[0]
                found += [p for f in (root, here) for p in _built(os.path.join(f, local), root)
                          ] if _local(local) else []
    return found


def _option(words: list[str], at: int) -> tuple[str, str]:
    """The option ``words[at]`` is (``-r``, ``-c``, ``-e``: apart, attached, ``--long=``) and
    its value; empty for any other word."""
    word = words[at]
    following = words[at + 1] if at + 1 < len(words) else ""
    for short, long in (("-r", "--requirement"), ("-c", "--constraint"), ("-e", "--editable")):
        if word in (short, long):
            return short, following
        if word.startswith(long + "="):
            return short, word[len(long) + 1:]
        if word.startswith(short) and word[1:2] != "-":
            return short, word[2:]
    return "", ""


def _built(folder: str, root: str) -> list[str]:
    """The local project ``folder`` pip builds: whole, or the call's folder's build files (the
    call's folder is never guarded whole: docs/call-gate.md)."""
    if os.path.normpath(folder) == os.path.normpath(root):
        return [os.path.join(root, n) for n in ("pyproject.toml", "setup.py", "setup.cfg")]
    return [os.path.normpath(folder)]


def _local(word: str) -> bool:
    """Whether a requirement ``word`` is a local path (``./pkg``, ``../x``, ``/x``,
    ``file:x``, ``.``), which pip builds."""
    return word[:1] in "./" or word.startswith("file:") if word else False


def _exact(name: str, path: str) -> str:
    """``name`` as ``path`` gives it; ValueError where it is computed (``$(VAR)``, ``${X}``),
    which the gate cannot name."""
    if "$" in name:
        raise ValueError(f"{path!r} names a file the gate cannot name exactly ({name!r}), "
                         "which the plan's program reads")
    return name
