"""pytest's words in a call a pattern entry allows (issue 29, session 58; s56-greview3 O
``pattern-plan``, s57-pfix's P-OUTSIDE pattern form).

The gate reads a plan's own pytest words at plan time (``collectopts``, ``planprograms``,
``pytestini``): what ``-p NAME``, ``-o pythonpath=…``, an operand's conftests and settings
make pytest import is guarded or the plan refused. A pattern entry (``Bash(python3 -m pytest
*)``) gives no words then: its call may give ``-p helpers`` (``helpers.py`` written by an
allowed ``cp`` runs at pytest's start), ``--override-ini=pythonpath=mypkg``, ``-c other.ini``,
an operand outside the project whose conftest names plugins. So a call's pytest command
that is not a plan entry's own text is read here, failing closed: denied where it gives an
option outside ``collectopts._SAFE`` (what changes no file pytest imports: verbosity, selection,
reporting, xdist's process count), a word the shell expands, a variable set for it but
``_VARIABLES`` (``PYTEST_ADDOPTS``), where ``collectopts`` would refuse it in an entry, or
where an operand lies outside the plan's run folders or below a pytest settings file under
them (its ``pythonpath``, ``addopts``: not read), or is a file of a name pytest does not
collect by itself (it collects a named file whatever its name)."""

from __future__ import annotations

import os

from . import files as fs
from .collectopts import collecting, option_read, plugin_words, pytest_start, unclustered
from .moves import command_words

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The variables a call may set for its pytest (what they change is no file it imports).
_VARIABLES: Final = frozenset(("CI", "TERM", "NO_COLOR", "FORCE_COLOR", "COLUMNS", "TZ",
                               "LANG", "LC_ALL", "PYTHONDONTWRITEBYTECODE",
                               "PYTHONUNBUFFERED", "PYTHONHASHSEED", "PYTHONFAULTHANDLER"))
#: What the shell expands in a word (a variable, a command, a glob, braces, the home): its
#: words are not known (a file named ``-phelpers`` matches ``*``).
_EXPANDED: Final = frozenset("$`*?[{~\\")
#: The shell's operators between commands.
_OPERATORS: Final = frozenset(("&&", "||", ";", "|", "&", "(", ")", "{", "}", "!", "|&"))
#: pytest's settings files (``testroots``' order): one below the run folder, above an
#: operand, is the call's ini (its ``pythonpath``, ``addopts``).
_SETTINGS: Final = ("pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini",
                    "pyproject.toml", "tox.ini", "setup.cfg")


def pattern_word(text: str, directory: str, entries: list[str],
                 runs: tuple[str, ...]) -> str | None:
    """The word of the shell command ``text`` (run in ``directory``) that gives pytest what
    the plan's reading does not follow (see the module's text), where ``text`` is no
    entry's of ``entries``; ``runs`` the plan's run folders. ``text`` itself where its
    commands cannot be read."""
    if text.strip() in entries:
        return None
    try:
        commands = command_words(text)
    except ValueError:
        return text
    for words in (c for command in commands for c in _split(command)):
        made = _make_assignment(words)
        if made is not None:
            return made
        at = pytest_start(words)
        if at is None:
            continue
        assigned = next((w for w in words[:at] if "=" in w and w[:1] != "-" and w.partition(
            "=")[0] not in _VARIABLES), None)  # (`PYTEST_ADDOPTS=-phelpers pytest`)
        if assigned is not None:
            return assigned
        rest = unclustered(plugin_words("pytest", words[at + 1:]))
        try:
            collecting(text, ["pytest", *rest])
        except ValueError:
            return " ".join(rest)
        found = _word(rest, directory, runs)
        if found is not None:
            return found
    return None


def _make_assignment(words: list[str]) -> str | None:
    """The first variable a command of ``words`` running make gives it on its command line
    (``make test PYTESTFLAGS=-phelpers``, ``PYTEST_ADDOPTS=-phelpers``: make's value over
    the makefiles', exported to its recipes, whose pytest takes it; s59-preview N,
    s58-preview N), where the plan's programs run pytest (``^conftest.py``: pytest, or a
    runner of any program); None for another."""
    from .guardedset import GUARDED

    at = next((k for k, w in enumerate(words) if "=" not in w or w[:1] == "-"), len(words))
    if at >= len(words) or os.path.basename(words[at]) not in ("make", "gmake") or \
            "^conftest.py" not in getattr(GUARDED.get(), "named", ()):
        return None
    return next((w for w in words[at + 1:] if "=" in w and w[:1] != "-"), None)


def _split(words: list[str]) -> list[list[str]]:
    """``words`` cut at the shell's operators."""
    found: list[list[str]] = [[]]
    for word in words:
        if word in _OPERATORS:
            found.append([])
        else:
            found[-1].append(word)
    return [f for f in found if f]


def _word(rest: list[str], directory: str, runs: tuple[str, ...]) -> str | None:
    """The first of pytest's words ``rest`` (after its name) not read here: an option not
    ``collectopts._SAFE`` (``-p NAME`` but ``-p no:NAME``), an operand outside ``runs`` or below a
    settings file under one."""
    valued = False
    for k, word in enumerate(rest):
        if valued:
            valued = False
            continue
        if word == "--" or word[:1] == "@" or not _EXPANDED.isdisjoint(word.partition(
                "::")[0]) or any(c in word for c in "$`{~\\"):  # (a node id's `[1-2]`
            return word  # matches its own file's names only; what follows `--`: operands
            # however spelled; `@FILE`: its lines as words, pytest's fromfile_prefix_chars)
        if word[:1] == "-" and word != "-":
            read = option_read(word, rest[k + 1] if k + 1 < len(rest) else "")
            if read is None:
                return word
            valued = read
        elif _outside(word.split("::")[0], directory, runs) or not _collected_anyway(
                word.split("::")[0], directory):
            return word
    return None


def _collected_anyway(operand: str, directory: str) -> bool:
    """Whether the path ``operand`` (from ``directory``) is a folder or a file of a name pytest
    collects by itself (``testnames.test_name``: the write guard's): pytest collects a file
    operand whatever its name (an init path skips ``python_files``; a ``.txt``/``.rst``
    operand is a doctest file: s59-preview C), so another name's is denied."""
    from .testnames import test_name

    path = os.path.join(directory, operand)
    return fs.is_folder(fs.realpath(path)) or test_name(os.path.basename(
        os.path.normpath(path)).lower())


def _outside(operand: str, directory: str, runs: tuple[str, ...]) -> bool:
    """Whether the path ``operand`` (from ``directory``) lies outside each run folder of
    ``runs``, or below a pytest settings file in a folder under its run folder (pytest's ini
    found from its operands' folder up): as its real path and as spelled (pytest walks up the
    spelled one, a link's folder not resolved: s60-preview C)."""
    path = os.path.normpath(os.path.join(directory, operand))
    real = fs.realpath(path)
    folder = real if fs.is_folder(real) else os.path.dirname(real)
    spelled = path if fs.is_folder(real) else os.path.dirname(path)
    reals = [fs.realpath(r) for r in runs]
    return _below_settings(folder, reals) or _below_settings(spelled, [
        *(os.path.normpath(r) for r in runs), *reals])


def _below_settings(folder: str, runs: list[str]) -> bool:
    """Whether ``folder`` lies outside each of ``runs``, or below a pytest settings file in
    a folder under the run folder it is in."""
    for run in runs:
        if folder == run or folder.startswith(run.rstrip("/") + "/"):
            at = folder
            while at != run and len(at) > len(run):
                if any(fs.exists(os.path.join(at, s)) for s in _SETTINGS):
                    return True
                at = os.path.dirname(at)
            return False
    return True
