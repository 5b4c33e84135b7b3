"""What a guarded folder reaches through a link, and guarded files with more than one name.

A folder is guarded by its path; a link inside it leads out of it (reviews s41 S1, S1b, S3):
git runs ``.git/hooks/pre-commit`` where it is a link to ``tools/pre-commit`` (the common way
to share hooks), and Claude Code reads ``.claude/skills/x`` where it is a link to a folder
the gate does not guard. Each such link's target is guarded too: a file as a file, a folder
whole. And a file the gate guards, or one git reads as what to run, with a second name (a
hard link made before the session: review s40 R13, s41 H1–H3) may be written through that
name by any writer, in a folder copy or by a pattern the gate cannot tie to it: the gate
cannot know where the other name lies, so it cannot say what the call must not write
(``ValueError``: the hook denies, naming the file)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Final

from . import files as fs

#: The hooks git runs, by name (githooks(5), git 2.x): a hook is found only by these names.
GIT_HOOKS: Final = (
    "applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit",
    "pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase",
    "post-checkout", "post-merge", "pre-push", "pre-receive", "update", "proc-receive",
    "post-receive", "post-update", "reference-transaction", "push-to-checkout",
    "pre-auto-gc", "post-rewrite", "sendemail-validate", "fsmonitor-watchman",
    "p4-changelist", "p4-prepare-changelist", "p4-post-changelist", "p4-pre-submit",
    "post-index-change")
#: The files of a git folder whose text decides what git reads or runs: its settings, and
#: the files that move its common folder or its working tree elsewhere.
GIT_FILES: Final = ("config", "config.worktree", "commondir", "gitdir")
#: The folders of a ``.claude`` folder whose entries Claude Code reads one level down (a
#: skill's folder, an agent's or command's file, a hook's script; plugins' folders).
CLAUDE_FOLDERS: Final = ("skills", "agents", "commands", "hooks", "output-styles", "plugins",
                         "rules")
#: Entries of a folder looked at for links, at most (more: the folder is not read, and the
#: gate denies: it cannot say what the call must not write).
MAX_ENTRIES: Final = 4096


def git_items(git_dirs: Iterable[str], hooks: str | None) -> list[tuple[str, bool]]:
    """What the git folders ``git_dirs`` and the hooks folder ``hooks`` reach through links:
    each hook and each of ``GIT_FILES`` that is a link, its target (a file); the hooks folder,
    when it is a link, its target whole. Raises ValueError when one of their files git reads
    or runs has another name."""
    items: list[tuple[str, bool]] = []
    folders = dict.fromkeys([*(os.path.join(d, "hooks") for d in git_dirs),
                             *([hooks] if hooks else [])])
    for folder in folders:
        real = fs.realpath(folder)
        if real != folder:
            items.append((real, True))  # `.git/hooks -> ../tools` (S1b)
        for name in GIT_HOOKS:
            path = os.path.join(real, name)
            if fs.islink(path):  # `pre-commit -> ../../tools/pre-commit` (S1)
                items.append((fs.realpath(path), False))
            single_name(path)
    for git_dir in dict.fromkeys(git_dirs):
        for name in GIT_FILES:
            path = os.path.join(git_dir, name)
            if fs.islink(path):  # `.git/config -> ../repo.cfg` (review s41 S1c)
                items.append((fs.realpath(path), False))
            single_name(path)
    return items


def claude_items(folders: Iterable[str]) -> list[tuple[str, bool]]:
    """The targets of the links in each ``.claude`` folder of ``folders`` and in its
    ``CLAUDE_FOLDERS`` (``.claude/hooks -> ../scripts``: S3; ``skills/x -> ~/src/x``), each
    guarded whole. Raises ValueError for a folder too large to read."""
    items: list[tuple[str, bool]] = []
    for folder in folders:
        for name in _entries(folder):
            path = os.path.join(folder, name)
            if fs.islink(path):
                items.append((fs.realpath(path), True))
            elif name in CLAUDE_FOLDERS and fs.entry(path) == "dir":
                items += [(fs.realpath(os.path.join(path, inner)), True)
                          for inner in _entries(path)
                          if fs.islink(os.path.join(path, inner))]
    return items


def single_name(path: str) -> None:
    """Raises ValueError when the file at ``path`` has more than one name."""
    found = fs.identity(path)
    if found is not None and found[2] > 1:
        raise ValueError(
            f"{path!r} has {found[2]} names (a hard link), and a write to another of them "
            f"writes it; find them with `find / -xdev -samefile {path}` and remove them")


def _entries(folder: str) -> list[str]:
    """The names in ``folder`` (none when it is missing or no folder). Its entries are asked
    through the view first, so that a kept answer sees an entry come."""
    fs.islink(os.path.join(folder, "settings.json"))  # the view watches the folder first
    try:
        with os.scandir(folder) as listing:
            names = []
            for entry in listing:
                names.append(entry.name)
                if len(names) > MAX_ENTRIES:
                    raise ValueError(f"{folder!r} holds more than {MAX_ENTRIES} entries, "
                                     "which the gate does not read for links")
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as e:
        raise ValueError(f"{folder!r} cannot be read for links: {e.strerror}") from e
    return names
