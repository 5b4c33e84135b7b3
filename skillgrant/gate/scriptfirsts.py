"""The names a runner of a collecting package.json script tries as files of its folder
before the package they name, and the folders its default globs run (``testroots.
first_loaded`` guards them; issue 29, s59-mreview K6, s60-mreview M4; split from
``testroots`` in session 60)."""

from __future__ import annotations

import os
import re

from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def in_tests(key: str, top: str) -> bool:
    """Whether the folded ``key`` below the folded folder ``top`` is a script (or a name of no
    ending) below a ``tests`` (tap 21's ``@(test?(s)|__test?(s)__)``) folder there at any
    depth, or a ``test(s).js`` anywhere: ava's and tap's default globs run
    ``**/tests/**/*.js`` (s60-mreview M4, M16), or such a folder itself (a tree copied or
    linked there is written by that path only)."""
    from .testnames import JS

    parts = key[len(top) + 1:].split("/") if key.startswith(top + "/") else []
    return bool(parts) and ((not _DEFAULTS.isdisjoint(parts) and (
        parts[-1] in _DEFAULTS or key.endswith(JS) or "." not in parts[-1])) or (
        parts[-1].rpartition(".")[0] in ("test", "tests") and key.endswith(JS)))


#: The folders ava's and tap's default globs run every script below.
_DEFAULTS: Final = frozenset(("test", "tests", "__test__", "__tests__"))


def first_names(folder: str) -> list[str]:
    """``first_loaded``'s folded paths of the run folder ``folder`` (any option of
    ``FIRST_OPTIONS`` in any script, and in each shell script file a script runs: a word
    after ``sh``/``bash``/``dash``, or a path as a command's program: over-strict;
    s61-mreview M5)."""
    try:
        text = fs.read(os.path.join(folder, "package.json"), 1 << 20).decode("utf-8", "replace")
    except (OSError, ValueError):
        return []
    if not text or not any(o in text for o in ("-r", "-R", "-u", "--", "ava", "tap", "sh",
                                                "/")):
        return []  # (none of the words read: no module loaded for them)
    import json

    from .placed import fold
    from .scriptcode import FIRST_OPTIONS, first_name

    try:
        scripts = json.loads(text.removeprefix("\ufeff")).get("scripts")
    except (ValueError, AttributeError):
        return []
    if not isinstance(scripts, dict):
        return []
    top = fold(fs.realpath(folder)).rstrip("/")
    texts = [s for s in scripts.values() if isinstance(s, str)]
    texts += [t for s in texts for t in _shell_files(folder, s)]
    found: list[str] = []
    for script in texts:
        words = [w for w in _SPLIT.split(script) if w]
        if any(os.path.basename(w) in ("ava", "tap") and (k == 0 or words[k - 1] not in
                                                          _REPORTER_OPTIONS)
               for k, w in enumerate(words)):  # (not a reporter's name: `-R tap`, K1b; M9)
            found.append("\0" + top)  # (their default globs: `tests/**`, M4)
        for k, word in enumerate(words):
            option, equals, value = word.partition("=")
            if option in FIRST_OPTIONS:
                value = value if equals else words[k + 1] if k + 1 < len(words) else ""
                found += [f"{top}/{fold(n)}" for n in (first_name(value, option),) if n]
    return found


def _shell_files(folder: str, script: str) -> list[str]:
    """The texts of the files of ``folder`` a script's commands may run as shell scripts (a
    word after a shell's name, a path as a command's program; their first MiB)."""
    from .planscripts import program_at

    found: list[str] = []
    for command in _COMMANDS.split(script):
        words = [w for w in _SPLIT.split(command) if w]
        words = words[program_at(words):]  # (`NODE_ENV=test sh …`: s61-mreview M5b)
        shell = bool(words) and os.path.basename(words[0]) in ("sh", "bash", "dash")
        named = [w for k, w in enumerate(words) if (k == 0 and "/" in w) or (
            k and shell and w[:1] != "-")]
        for word in named:
            try:
                found.append(fs.read(os.path.join(folder, word), 1 << 20).decode(
                    "utf-8", "replace"))
            except (OSError, ValueError):
                continue
    return found


#: Where ``first_names`` cuts a script's text into words (blanks, quotes, operators).
_SPLIT: Final = re.compile(r"[\s\"';&|()<>]+")
_COMMANDS: Final = re.compile(r"[;&|()\n]+")
#: The options whose next word is a reporter's name (mocha's, node's, tap's, c8's, nyc's).
_REPORTER_OPTIONS: Final = frozenset(("-R", "--reporter", "--test-reporter", "-r"))
