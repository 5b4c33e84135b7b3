"""The values make and its recipes' shells take from the session's environment (issue 29,
session 62: s59-preview N, s61-greview M, M1, M2), read where they reach a program.

make takes every variable of its environment as its own unless a makefile assigns it (on every
path, not by ``?=``/``+=``; and not under ``-e``, a ``MAKEFLAGS`` holding ``e`` or an
assignment: the environment's or the command line's values first), and a recipe's shell reads
the environment itself (``$$PYTESTFLAGS``, ``$(shell echo $$X)``). The makefile's text is the
project's (P1g); a value the session gives is not, and the gate does not read what a program
makes of it (pytest's ``-phelpers``: a plugin it imports; a script's ``"$@"`` handing it on:
s62-greview G9). So each line of the makefiles (a recipe's, a value's), with the values of the
variables it refers to (the makefiles' definitions, each followed), is a doubt of every folder
(fail closed) where it refers to a variable the session's environment sets and make may take
from it (``Values.trusted``: not the makefiles' own), or names a shell variable the environment
sets — but PATH, and on a line naming no pytest the variables the gate reads itself where they
are used (``_ELSEWHERE``: HOME, PWD…; the toolchain's, ``flagpaths``) — and where a line naming
pytest computes a name (``$(X$(Y))``) or runs shell text reading the environment otherwise
(``$$(printenv X)``, backquotes, ``$${!n}``, ``env``, ``eval``: G8). So is any of make's own
variables the environment sets (``special``: ``.SHELLFLAGS`` splits into the shell's words,
``VPATH`` finds prerequisites elsewhere), but those make ignores there (``SHELL``) or reads as
options (``MAKEFLAGS``: ``makereads``)"""

from __future__ import annotations

import os
import re

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: make's own variables it does not take from the environment, or reads as its options
#: (``makereads``), or sets for its sub-makes.
_NOT_TAKEN: Final = frozenset(("SHELL", "MAKESHELL", "MAKEFLAGS", "GNUMAKEFLAGS", "MFLAGS",
                               "MAKELEVEL"))
#: The names a line's text names pytest by.
_RUNNERS: Final = ("pytest", "py.test")
#: A shell's text reading the environment by what it runs (``$$(printenv X)``, backquotes,
#: ``$${!n}``, ``env``, ``eval``: s62-greview G8).
_READS: Final = re.compile(r"\$\$\(|`|\$\$\{!|\b(?:env|printenv|eval|export|declare|"
                           r"typeset|compgen|set)\b")
#: The session's variables whose values the gate reads itself where they are used (the
#: search, home, the folders; the toolchain's: ``flagpaths``), taken on a line naming no
#: pytest (a recipe's ``$(CC) $(CPPFLAGS)``, ``$(HOME)/bin``).
_ELSEWHERE: Final = frozenset(("HOME", "PWD", "OLDPWD", "USER", "LOGNAME", "SHELL", "TERM",
                               "TMPDIR", "LANG", "LC_ALL", "LC_CTYPE", "VIRTUAL_ENV"))
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
         "read", None) for n in sorted({*environ, *unnamed}) if special(n) and
        n not in _NOT_TAKEN]
    doubts += [("the gate cannot read the environment the session started make's processes "
                "with", None)] if "*" in unnamed else []
    if any("=" in environ.get(n, "") for n in FLAGS):  # (MAKEFLAGS' `X=v`: any variable)
        environ.update((n, "") for n in [*definitions, *(w for _, t in code for w in
                                                          references(t)[0])])
    for where, text in code:
        made: set[str] = set()
        shell: set[str] = set()
        computed, pending = False, [text]
        while pending and len(made) < _FOLLOWED:
            found, spelled, unknown = references(pending.pop())
            computed, shell = computed or unknown, shell | spelled
            for name in found - made:
                made.add(name)
                pending += definitions.get(name, [])
        texts = [text, *(v for n in made for v in definitions.get(n, []))]
        runs = any(r in t.lower() for t in texts for r in _RUNNERS)
        taken = sorted(n for n in {*(m for m in made if m not in trusted), *shell}
                       if n in environ and n != "PATH" and (runs or not _elsewhere(n)))
        if pending or taken or (runs and (computed or any(_READS.search(t) for t in texts))):
            doubts.append((f"{where} gives a program words the session's environment may "
                           f"hold ({', '.join(taken) or 'a name not read'}), which the gate "
                           "does not read", None))
    return doubts


def _elsewhere(name: str) -> bool:
    """Whether the gate reads the session's ``name`` itself where it is used (``_ELSEWHERE``,
    the toolchain's)."""
    from .environment import FLAGS
    from .flagpaths import toolchain

    return name in _ELSEWHERE or name in FLAGS or toolchain(name)


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
            with open(f"/proc/{pid}/stat", "rb") as handle:
                parent = int(handle.read().rsplit(b")", 1)[1].split()[1])
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
