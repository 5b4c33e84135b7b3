"""How the value of a git setting that runs a program names files (``worktree.named_programs``;
review F15, s40 V1, V2, V7, V8, V13): its words as sh reads them, the folders a Python program
imports from, the paths a word names from the call's folder and the repository's top."""

from __future__ import annotations

import os

from ..lazy import compile_on_use
from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: A value's words, as far as they may name a file (quotes and shell operators split).
_VALUE_WORD: Final = compile_on_use(r"[^\s;&|<>()'\"`=]+")


def python_script(path: str) -> bool:
    """Whether the file at ``path`` starts with a ``#!`` line naming a Python interpreter."""
    try:
        head = fs.read(path, 256)
    except (OSError, ValueError):
        return False
    line = head.split(b"\n", 1)[0]
    return line.startswith(b"#!") and (b"python" in line or b"pypy" in line)


def shell_words(text: str, *, strict: bool) -> list[str]:
    """The words of a command's text as sh reads them, as far as they may name a file."""
    import shlex

    try:
        words = shlex.split(text)
    except ValueError:  # an open quote: every quote and backslash dropped
        words = [text.replace("\\", "").replace("'", "").replace('"', "")]
    home = os.path.expanduser("~")
    words = [word.replace("${HOME}", home).replace("$HOME/", home + "/") for word in words]
    for word in words:  # a folder the gate cannot name (review s40 V13)
        if strict and ((("$" in word or "`" in word) and "/" in word) or any(
                part in ("cd", "pushd") for part in _VALUE_WORD.findall(word))):
            raise ValueError(f"git's settings run a program named through a variable, a "
                             f"command or a change of folder ({word[:200]!r}), which the "
                             "gate cannot name")
    # a PATH given to the program names folders its names are looked up in (review s40 V8),
    # as PYTHONPATH, NODE_PATH, PERL5LIB name the folders its modules are
    folders = [entry + "/" for word in words if _SEARCHED.match(word)
               for entry in word.partition("=")[2].split(":") if entry]
    return [part for word in words for part in _VALUE_WORD.findall(word)] + folders + \
        _beside(words)


#: An assignment to a variable naming folders a program looks in.
_SEARCHED: Final = compile_on_use(r"[A-Za-z0-9_]*(PATH|LIB)=")
#: Python's interpreters, which put the script's folder first on ``sys.path``.
_PYTHON: Final = compile_on_use(r"(.*/)?(python|pypy)[0-9.]*")


def _beside(words: list[str]) -> list[str]:
    """The folders a Python program of ``words`` imports from before its own library (review
    s40 V7): the script's folder (``python3 tools/clean.py`` imports ``tools/json.py``), or
    the folder it runs in (``-m``, ``-c``, a script from standard input): the script's word
    ("" for the folder) marked with a NUL, which no value of git's holds."""
    folders = []
    for at, word in enumerate(words):
        if _PYTHON.fullmatch(word) is None:
            continue
        rest = iter(words[at + 1:])
        script = ""  # none: the program is read from standard input, in the folder
        for arg in rest:  # options before the script; -W, -X take a value
            if arg in ("-W", "-X", "--check-hash-based-pycs"):
                next(rest, None)
            elif arg == "-" or (arg[:1] == "-" and arg[:2] != "--" and
                                ("m" in arg or "c" in arg)):
                break  # -m, -c (also in a cluster, `-Bc`)
            elif not arg.startswith("-"):
                script = arg
                break
        folders.append(script + "\0")  # the script, marked (`_program_file`)
        folders.append("\0site:" + word)  # and the site folders it reads (V7f)
    return folders


def program_file(word: str, folder: str, top: str) -> list[tuple[str, bool]]:
    """What a word of a setting's value names, from ``folder`` and from ``top``: a Python
    script (``_beside``'s mark) its folder and its real path's folder (Python's
    ``sys.path[0]``: review s41 V7d), each whole."""
    if word.startswith("\0site:"):  # `.pth` files and `usercustomize` run at the start
        return _site(word[len("\0site:"):], folder, top)
    if word.endswith("\0"):
        script = os.path.expanduser(word[:-1])
        return [(path, True) for base in (folder, top) for path in (
            [os.path.dirname(os.path.join(base, script)),
             os.path.dirname(fs.realpath(os.path.join(base, script)))] if script else [base])]
    word = os.path.expanduser(word.lstrip("!"))
    if not ("/" in word or "." in word) or "://" in word:  # a program's name; a URL
        return []
    pattern = min((word.find(c) for c in "*?[{" if c in word), default=-1)
    if pattern >= 0:  # sh may expand it to any file of its folder (review s40 V1)
        within = word[:pattern].rsplit("/", 1)[0] if "/" in word[:pattern] else "."
        return [(os.path.normpath(os.path.join(base, within)), True) for base in (folder, top)]
    return [(path, fs.is_folder(path)) for path in (os.path.join(folder, word),
                                                      os.path.join(top, word))]


def _site(interpreter: str, folder: str, top: str) -> list[tuple[str, bool]]:
    """The folders whose ``.pth`` files, ``sitecustomize`` and ``usercustomize`` the Python
    ``interpreter`` runs as it starts (review s41 V7f): the user's site folders
    (``~/.local/lib``; a ``PYTHONUSERBASE`` is not read: the service does not compare it),
    the system's (``/usr/lib``,
    ``/usr/local/lib``: written as root), and a virtual environment's ``lib`` beside a
    named interpreter's folder (``.venv/bin/python``), each whole."""
    found = [(os.path.expanduser("~/.local/lib"), True), ("/usr/lib", True),
             ("/usr/local/lib", True)]
    if "/" in interpreter:
        found += [(os.path.join(os.path.dirname(os.path.dirname(place)), "lib"), True)
                  for base in (folder, top)
                  for place in (os.path.join(base, os.path.expanduser(interpreter)),
                                fs.realpath(os.path.join(base, os.path.expanduser(
                                    interpreter))))]
    return found
