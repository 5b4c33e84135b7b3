"""Whether a call only removes or formats what it names (s50-greview3 K1): a collected test
(``testfiles``) it names is then no concern, as ``testfiles.KEPT_TESTS`` says while
``named.named_word`` reads the call's words."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The programs ``kept_tests`` reads: each removes what it names, or rewrites a Python source
#: as the same code (ruff's formatter, black: formatters, keeping its syntax tree).
_KEEPERS: Final = frozenset(("rm", "rmdir", "unlink", "black"))


def kept_tests(text: str) -> bool:
    """Whether each simple command of ``text`` (read as bash reads it) removes what its words
    name (``rm``, ``rmdir``, ``unlink``, ``git rm``) or formats it (``ruff format``,
    ``black``): a test it names is removed or stays the same code, so the runner runs no other
    (s50-greview3 K1). A redirection, or any other program, is not."""
    if not any(name in text for name in ("rm", "unlink", "ruff", "black")):  # (`git rm`)
        return False
    from . import readers  # (as named's: the hook's start does not pay for it)

    commands = readers.named_commands(text)
    for command in commands or [()]:
        words = readers.program_words(command) if command else None
        name = os.path.basename(words[0]) if words else ""
        if not words or not (name in _KEEPERS or (name, *words[1:2]) in (
                ("ruff", "format"), ("git", "rm"))):
            return False
    return True
