"""What the shell analysis (``shell.analyse``) answers: the simple commands a command line
may run, the files it redirects, or a doubt; and the variables it sets carried onto the
commands they may reach."""

from __future__ import annotations

from ..records import NamedTuple
from .words import CARRY_FREE, Word


class Simple(NamedTuple):
    """A simple command that would run: its words (assignments first, wrappers removed) and its
    source text; ``assigns`` when it sets variables for the commands after it."""

    words: tuple[Word, ...]
    text: str
    stripped: tuple[str, ...] = ()
    assigns: bool = False
    program: str | None = None


class Redirect(NamedTuple):
    """A file a redirection writes (or, with ``reads``, reads: ``< file`` passes a file the
    command's words do not name): the target word, relative to the working directory at that
    point; ``after_cd`` when a ``cd``, ``pushd`` or ``popd`` may have moved it; ``raced`` when
    a program of the same command may run before it opens the file (earlier, at the same time,
    or in an earlier turn of a loop), and put a symbolic link there."""

    target: Word
    text: str
    after_cd: bool = False
    reads: bool = False
    raced: bool = False


class Analysis(NamedTuple):
    """The commands and redirections read, or a doubt. ``reprinted``: the reading written back
    as bash text, for the cross-check with bash (``crosscheck``); None for a command the plain
    fast path read, which needs none."""

    commands: tuple[Simple, ...] = ()
    redirects: tuple[Redirect, ...] = ()
    doubt: str | None = None
    reprinted: str | None = None


def carried_past(commands: list[Simple], carried: list[Word]) -> tuple[Simple, ...]:
    """Each command as written, and again with the variables the whole command sets for later
    commands before it (a loop runs its body again, so every command, in any order), unless it
    sets them itself or is a builtin in ``CARRY_FREE``: both must be covered. Any program
    may give a meaning to any variable it is given (``npm_config_script_shell``,
    ``http_proxy``): the plan must name it."""
    if not carried:
        return tuple(commands)
    prefix = tuple(dict.fromkeys(carried))
    out = []
    for command in commands:
        out.append(command)  # the variables may not reach it: none was exported
        if not (command.assigns or command.program in CARRY_FREE):
            out.append(command._replace(words=prefix + command.words))
    return tuple(out)
