"""Whether a call only removes, formats or renames in its folder what it names (s50-greview3
K1, s51-greview2 K5): a collected test (``testfiles``) it names is then no concern, as
``testfiles.KEPT_TESTS`` says while ``named.named_word`` reads the call's words."""

from __future__ import annotations

import os
import posixpath

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The programs ``kept_tests`` reads: each removes what it names, or rewrites a Python source
#: as the same code (ruff's formatter, black: formatters, keeping its syntax tree).
_KEEPERS: Final = frozenset(("rm", "rmdir", "unlink", "black"))
#: The options of ``mv`` and ``git mv`` that change neither what is renamed nor where (no
#: target folder, no backup beside it).
_RENAME_FLAGS: Final = {"mv": frozenset(("-f", "-i", "-n", "-v", "--force", "--interactive",
                                          "--no-clobber", "--verbose")),
                        "git": frozenset(("-f", "-k", "-n", "-v", "--force", "--dry-run",
                                          "--verbose"))}
#: What a renamed test's word may not hold: a pattern, an expansion, a quote's escape, ``..``.
_UNPLAIN: Final = frozenset("*?[{$`\\~")


def kept_tests(text: str) -> bool:
    """Whether each simple command of ``text`` (read as bash reads it) removes what its words
    name (``rm``, ``rmdir``, ``unlink``, ``git rm``), formats it (``ruff format``,
    ``black``) or renames a test to another test's name in its folder (``_renamed``): a test
    it names is removed or stays the same code, so the runner runs no other (s50-greview3 K1,
    s51-greview2 K5). A redirection, or any other program, is not."""
    if not any(name in text for name in ("rm", "unlink", "ruff", "black", "mv")):  # (`git rm`)
        return False
    from . import readers  # (as named's: the hook's start does not pay for it)

    commands = readers.named_commands(text)
    for command in commands or [()]:
        words = readers.program_words(command) if command else None
        name = os.path.basename(words[0]) if words else ""
        if not words or not (name in _KEEPERS or (name, *words[1:2]) in (
                ("ruff", "format"), ("git", "rm")) or _renamed(name, words)):
            return False
    return True


def _renamed(name: str, words: tuple[str, ...]) -> bool:
    """Whether ``words`` (``mv``'s, ``git mv``'s; of the program ``name``) rename one test
    file (``testfiles.test_name``: not ``conftest.py``, not a package's ``__init__.py``) to
    another test's name of its kind in the same folder, no option but ``_RENAME_FLAGS``': the
    runner collects the same code under another name, in the same place, so what it imports
    beside it is the same (s51-greview2 K5). A folder at the new name would take the file
    into it: making one of a test's name is a write of a collected name, denied."""
    from .placed import fold
    from .testfiles import test_name

    if name != "mv" and (name, *words[1:2]) != ("git", "mv"):
        return False
    rest, flags = words[1 + (name == "git"):], _RENAME_FLAGS[name]
    ends = rest.index("--") if "--" in rest else len(rest)
    operands = [*(w for w in rest[:ends] if w not in flags), *rest[ends + 1:]]
    if len(operands) != 2 or not all(w in flags for w in rest[:ends] if w[:1] == "-") or any(
            not _UNPLAIN.isdisjoint(w) or ".." in w.split("/") or w[-1:] == "/" or
            w[:1] == "-" for w in operands):
        return False
    (folder, old), (into, new) = (posixpath.split(posixpath.normpath(w)) for w in operands)
    kinds = [n.rpartition(".")[2] for n in (old, new)]
    return folder == into and kinds[0] == kinds[1] and all(
        test_name(fold(n)) and n.split(".", 1)[0] not in ("conftest", "__init__") and
        n[-4:] not in (".pyc", ".pyd") and n[-3:] != ".so" for n in (old, new))
