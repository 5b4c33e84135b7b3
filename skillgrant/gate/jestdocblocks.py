"""The environments jest 29's tests name in their docblocks (issue 29, review s56-sreview:
``docblock-environment``): a test's first comment may hold ``@jest-environment ./tools/e.js``
(``<rootDir>/…``, ``../…``, absolute), which jest resolves from its ``rootDir`` and loads as
code before the test. ``jestsettings`` asks, for a write under a collecting folder, whether a
test there names the file so: each test's head (its first ``_HEAD`` bytes) is read, the tests
being the files of jest's default names there (``x.test.js``, ``__tests__/…``) and those the
settings' patterns match. Past ``_MAX_FILES`` files, not read (None: the caller fails closed).
A docblock not read exactly (its first comment past ``_HEAD``, a pragma's value on another
line, a ``..`` from a ``rootDir`` the settings may set anywhere) may name any file of any
ending (jest loads ``./tools/s.txt`` as CommonJS): the answer is ``EVERY`` then (s59, review
s58-mreview JD; fail closed: every write the collecting plan's guard asks about)."""

from __future__ import annotations

import os
import re

from . import files as fs
from .placed import fold

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: How much of a test is read for its docblock (jest reads the file's first comment: a
#: license's past 8 KiB too, s58-mreview JD2).
_HEAD: Final = 1 << 20
#: How many entries below a collecting folder are looked at before the answer is None.
_MAX_FILES: Final = 20_000
#: A name of jest's default ``testMatch`` (``x.test.js``, ``spec.ts``, ``x.testspec.js``;
#: any name ending so is read: a superset).
_TEST_NAME: Final = re.compile(r"(?:test|spec)\.[cm]?[jt]sx?$")
_SCRIPT: Final = re.compile(r"\.[cm]?[jt]sx?$")
#: A docblock's environment pragma and its value on its line (none: the next line's, which
#: jest-docblock joins: not read).
_PRAGMA: Final = re.compile(rb"@jest-environment(?![\w-])(?:[ \t]+([^\s*]\S*))?")
#: What marks a name's ending any path may have (``./tools/e.js`` from a ``rootDir`` the
#: settings set anywhere: s58-mreview JD5), in ``environments``' answer.
SUFFIX: Final = "\0"
#: ``environments``' answer where a docblock is not read exactly: the ending of every path.
EVERY: Final = frozenset((SUFFIX,))
#: The folders jest never collects in.
_SKIPPED: Final = frozenset(("node_modules", ".git"))


def environments(folder: str, patterns: list[re.Pattern[str]],
                 endings: tuple[str, ...]) -> set[str] | None:
    """The folded paths (each with ``endings`` added) the tests below ``folder`` name as
    their environment by a path, from each folder from the test's up to ``folder``, and as
    an ending of any path (``SUFFIX`` first: jest's ``rootDir`` may be any); None where the
    tests are too many to read; ``EVERY`` where a test's docblock is not read exactly (its
    first comment past ``_HEAD``, a pragma's value on another line, a ``..``: review
    s58-mreview JD)."""
    found: set[str] = set()
    seen = 0
    for top, folders, names in os.walk(folder):
        folders[:] = [f for f in folders if f not in _SKIPPED]
        seen += len(names) + len(folders)
        if seen > _MAX_FILES:
            return None
        tests = os.path.basename(top) == "__tests__" or "/__tests__/" in top + "/"
        for name in names:
            path = os.path.join(top, name)
            if (tests and _SCRIPT.search(name)) or _TEST_NAME.search(name) or any(
                    p.search(fold(path)) for p in patterns):
                named = _named(path, [top, *_between(top, folder)], endings)
                if named is None:
                    return set(EVERY)
                found |= named
    return found


def _named(path: str, bases: list[str], endings: tuple[str, ...]) -> set[str] | None:
    """``environments``' paths of the test ``path`` (from each of ``bases``, and as an
    ending); None where its docblock is not read exactly."""
    try:
        head = fs.read(path, _HEAD)
    except (OSError, ValueError):
        return set()
    if head.lstrip()[:2] == b"/*" and b"*/" not in head:
        return None
    found: set[str] = set()
    for value in (v.decode(errors="replace").removesuffix("*/") for v in _PRAGMA.findall(
            head)):  # (`… ./e.js*/`: jest-docblock drops the comment's end, s58-mreview JD7)
        if not value:
            return None
        if value[:1] in "./" or value.startswith("<rootDir>") or "/" in value:
            relative = value.removeprefix("<rootDir>").lstrip("/")
            if ".." in relative.split("/"):
                return None  # (from a rootDir the settings may set anywhere)
            found |= {fold(os.path.normpath(os.path.join(base, value.replace(
                "<rootDir>", base, 1))) + e) for base in bases for e in endings}
            found |= {SUFFIX + "/" + fold(os.path.normpath(relative)) + e
                      for e in endings if value[:1] != "/"}
    return found


def _between(top: str, folder: str) -> list[str]:
    """The folders from ``top``'s parent up to ``folder``."""
    found: list[str] = []
    while top != folder and top.startswith(folder + "/"):
        top = os.path.dirname(top)
        found.append(top)
    return found
