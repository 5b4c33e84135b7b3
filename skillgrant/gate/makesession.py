"""The values make and its recipes' shells take from the session's environment (issue 29,
session 62: s59-preview N, s61-greview M, M1, M2), read where they reach pytest.

make takes every variable of its environment as its own unless a makefile assigns it (on every
path, not by ``?=``/``+=``; and not under ``-e``, a ``MAKEFLAGS`` holding ``e`` or an
assignment: the environment's or the command line's values first), and a recipe's shell reads
the environment itself (``$$PYTESTFLAGS``, ``$(shell echo $$X)``). The makefile's text is the
project's (P1g); a value the session gives is not, and the gate does not read what pytest
makes of it (``-phelpers``: a plugin it imports). So where a line of the makefiles (a recipe's,
a value's), with the values of the variables it refers to (the makefiles' definitions, each
followed), names pytest, it is a doubt of every folder (fail closed) where it refers to a
variable the session's environment sets and make may take from it (``Values.trusted``: not the
makefiles' own) or names a shell variable the environment sets — but PATH, and a value that is
one program's name PATH finds (``PYTHON=python3``: as the makefile's own literal) — where it
computes a name (``$(X$(Y))``), or where its shell text reads the environment otherwise
(``$$(printenv X)``, backquotes, ``$${!n}``, ``env`` printing it, ``eval``, ``-c`` code's
``os.environ``: s62-greview G8, G8b). A line handing a value to a script that runs pytest
(``sh tests/run.sh $(ARGS)``, G9; or the script reading the environment itself, G10) is the
script's reading: the project's code (P1g), as a makefile's own literal ``-phelpers`` is. So
is any of make's own variables the environment sets (``special``: ``.SHELLFLAGS`` splits into
the shell's words, ``VPATH`` finds prerequisites elsewhere) a doubt, but those make ignores
there (``SHELL``) or reads as options (``MAKEFLAGS``: ``makereads``)"""

from __future__ import annotations

import os
import re

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: make's own variables it does not take from the environment, or reads as its options
#: (``makereads``), or sets for its sub-makes.
_NOT_TAKEN: Final = frozenset(("SHELL", "MAKESHELL", "MAKEFLAGS", "GNUMAKEFLAGS", "MFLAGS",
                               "MAKELEVEL"))
#: The names a line's text names pytest by, or another Python importing what its words name
#: (``python3 -m $(MOD)``, unittest's names: s62-greview G16).
_RUNNERS: Final = ("pytest", "py.test", "python", "unittest")
#: The session's variables whose values name its own folders, read by the gate where used
#: (a venv's, home's: ``$(VIRTUAL_ENV)/bin/python``).
_ELSEWHERE: Final = frozenset(("HOME", "VIRTUAL_ENV", "CONDA_PREFIX", "PWD", "USER",
                               "LOGNAME", "TMPDIR"))
#: A shell's text reading the environment by what it runs (``$$(printenv X)``, backquotes,
#: ``$${!n}``, ``env`` printing it, ``eval``: s62-greview G8; code given by ``-c`` reading
#: ``os.environ``: G8b).
_READS: Final = re.compile(r"\$\$\(|`|\$\$\{!|\b(?:printenv|eval|declare|typeset|compgen|"
                           r"environ|getenv)\b|\benv\s*(?:$|[|;&)])|\s-c\b")
#: How many variables' values one line is followed through.
_FOLLOWED: Final = 256


def session_doubts(code: list[tuple[str, str]], definitions: dict[str, list[str]],
                   trusted: set[str]) -> list[tuple[str, str | None]]:
    """The doubts (why, None: every folder) of the makefiles' lines ``code`` (where, text),
    their variables' ``definitions`` and the names whose values are the makefiles' own
    (``trusted``): see the module's text."""
    from .makelines import FLAGS, special

    environ = {n: v for n, v in os.environ.items() if v}
    unnamed = _unnamed()
    doubts: list[tuple[str, str | None]] = [
        (f"the session's environment gives make its variable {n}, which the gate does not "
         "read", None) for n in sorted({*environ, *unnamed}) if (special(n) or (
            n in unnamed and n != "*")) and n not in _NOT_TAKEN]  # (`LINK.c`: a built-in
    # rule's variable, which no shell can name: s62-greview G11)
    doubts += [("the gate cannot read the environment the session started make's processes "
                "with", None)] if "*" in unnamed else []
    if any("=" in environ.get(n, "") for n in FLAGS):  # (MAKEFLAGS' `X=v`: any variable)
        environ.update((n, "") for n in [*definitions, *(w for _, t in code for w in
                                                          references(t)[0])])
    scanned: dict[str, tuple[set[str], set[str], bool, bool, bool]] = {}
    for where, text in code:
        made: set[str] = set()
        shell: set[str] = set()
        computed = runs = reads = False
        pending = [text]
        while pending and len(made) < _FOLLOWED:
            part = pending.pop()
            if part not in scanned:  # (each text read once a reading: s62-greview T1)
                scanned[part] = (*references(part), any(r in part.lower() for r in _RUNNERS),
                                 _READS.search(part) is not None)
            found, spelled, unknown, named, read = scanned[part]
            computed, runs, reads = computed or unknown, runs or named, reads or read
            shell |= spelled
            for name in found - made:
                made.add(name)
                pending += definitions.get(name, [])
        given = {n for n in {*(m for m in made if m not in trusted), *shell} if n in environ}
        taken = sorted(n for n in given if n != "PATH" and not _program(environ[n]) and not (
            n in _ELSEWHERE and environ[n][:1] == "/"))
        runs = runs or any(r in environ[n].lower() for n in given for r in _RUNNERS)  # (the
        if not runs:  # session's `RUNNER=pytest`, `PY=python3`: G13, G16b)
            continue  # (a line handing a script a value: the script's reading, P1g)
        if pending or taken or computed or reads:
            doubts.append((f"{where} gives a Python program words the session's environment "
                           f"may hold ({', '.join(taken) or 'a name not read'}), which the gate "
                           "does not read", None))
    return doubts


def _program(value: str) -> bool:
    """Whether the session's ``value`` is one program's name the session's PATH finds outside
    the call's folder (``PYTHON=python3``: read as a Makefile's own literal name, P1g), no
    word pytest takes (an option, an operand)."""
    import shutil

    found = shutil.which(value) if re.fullmatch(r"[A-Za-z][\w.+-]*", value) else None
    return found is not None and os.path.isabs(found) and not found.startswith(
        os.getcwd().rstrip("/") + "/")


def _unnamed() -> set[str]:
    """The names of the session's environment the hook's own process does not hold: those no
    shell may name (``.SHELLFLAGS``: dash, which starts the printed hook, drops them; bash
    passes them on to make), read from the environment each process above the hook started
    with, up to the runtime's (the first without ``CLAUDE_PROJECT_DIR``); ``*`` where one
    cannot be read (a doubt)."""
    if not os.path.isdir("/proc/self"):
        return set()
    found: set[str] = set()
    pid = os.getppid()
    for _ in range(16):
        if pid <= 1:  # (init's: no session's)
            break
        try:
            with open(f"/proc/{pid}/environ", "rb") as handle:
                names = [e.partition(b"=")[0].decode(errors="replace") for e in
                         handle.read().split(b"\0") if e]
            parent = fs.parent_pid(pid)
        except (OSError, ValueError, IndexError):
            return {"*"} | found
        found.update(n for n in names if not n.isidentifier())
        if "CLAUDE_PROJECT_DIR" not in names:
            break
        pid = parent
    return found


def references(text: str) -> tuple[set[str], set[str], bool]:
    """The variables ``text`` refers to as make does (``$(X)``, ``${X}``, ``$X``, ``$(X:a=b)``,
    ``$(value X)``, in a function's arguments too), the shell's it names (``$$X``,
    ``$${X}``), and whether it computes a name (``$(X$(Y))``)."""
    import re

    made: set[str] = set()
    shell: set[str] = set()
    computed = False
    at = 0
    while True:
        at = text.find("$", at)
        if at < 0 or at + 1 >= len(text):
            return made, shell, computed
        nxt = text[at + 1]
        if nxt == "$":
            word = re.match(r"\{?([A-Za-z_]\w*)", text[at + 2:])
            shell |= {word.group(1)} if word else set()
            at += 2
            continue
        if nxt not in "({":
            made.add(nxt)
            at += 2
            continue
        end, depth = at + 2, 1
        while end < len(text) and depth:
            depth += (text[end] in "({") - (text[end] in ")}")
            end += 1
        inner = text[at + 2:end - 1]
        name = re.match(r"[^\s:$(){}=#]+", inner)
        if inner[:1] == "$" or (name and inner[name.end():name.end() + 1] == "$"):
            computed = True  # (`$($(Y))`, `$(X$(Y))`: any variable)
        elif (name and inner[name.end():name.end() + 1] in ("", ":", "=")) or not name:
            made |= {name.group()} if name else set()
        elif name.group() in ("value", "origin", "flavor"):
            made.add(inner[name.end():].strip())
        found, spelled, unknown = references(inner[name.end():] if name else inner)
        made, shell, computed = made | found, shell | spelled, computed or unknown
        at = end
