"""A call that may make a symbolic link and write through it (review s43 L1).

The gate finds a guarded file by the normal and the real form of each path a word names, when
it decides. A link made *in the same call* is not there yet: ``git checkout evil -- out/l &&
gcc … -o out/l/x.sh`` (a branch holding ``out/l -> ../.claude/hooks``) writes the hook script
through a folder that does not exist at decision time; so does any later write, by any
program (``gcc`` is in no list), to any path under the link or to the link itself. A link made
by an earlier call is found by the real form. ``ln`` followed by another listed writer was
refused before (reviews H-20, H-22); this is the general rule: a program that may make a link
the command does not spell (``LINK_MAKERS``: it unpacks, copies a tree, moves, or writes a
working tree from a revision) in a call of more than one command is ``unknown``, whatever the
order (a loop or a pipeline runs a later word first). A single command stays read as before.
"""

from __future__ import annotations

from ..lazy import compile_on_use
from .programnames import program_named
from .writers import GIT_KEEPS, WORKTREE, git_subcommand

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Programs that may make a symbolic link their words do not spell: unpackers and patchers
#: (``WORKTREE``), tree copies and moves, and git writing files from a revision.
LINK_MAKERS: Final = WORKTREE | {"ln", "mv", "rsync", "tar", "gtar", "ditto", "rclone", "cp",
                                 "git", "cmake"}  # (`cmake -E create_symlink`: s44 W1)
#: What ends a command (or starts another one) in a call's text; a quoted one too (refusing
#: more, never less).
_SEPARATOR = compile_on_use(r"[;&|\n()`]")
_WORD = compile_on_use(r"[^\s;&|<>()`=]+")


def link_then_more(text: str) -> str | None:
    """The program of the call ``text`` that may make a symbolic link, when the call holds
    another command as well (review s43 L1); None for a single command or one with no such
    program."""
    parts: list[str] = _SEPARATOR.split(text.replace("'", "").replace('"', "").replace("\\", ""))
    if len(parts) < 2:
        return None
    for part in parts:
        words: list[str] = _WORD.findall(part)
        for i, word in enumerate(words):
            name = word.rsplit("/", 1)[-1]
            # a pattern or git's dashed builtin naming one (`/usr/bin/l[n]`: review s44 W2)
            named = (name, []) if name in LINK_MAKERS else program_named(
                word, LINK_MAKERS, None)
            if named is None:
                continue
            name, rest = named[0], [*named[1], *words[i + 1:]]
            if (name == "git" and git_subcommand(rest) in (*GIT_KEEPS, None)) or (
                    name == "cp" and not any(w[:1] == "-" for w in rest)) or (
                    name == "cmake" and "-E" not in rest):
                continue  # `git add`, `git commit`; a plain cp follows a link it copies
            return word
    return None
