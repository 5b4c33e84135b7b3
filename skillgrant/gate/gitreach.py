"""Whether a call's git may run in a repository whose programs the gate did not guard at every
call of the session (issue 29, review s40 V3, V9, V10).

The guarded set (``guards.GUARDED``) holds what git runs from files in the repositories
holding the session's project folder and in their populated submodules (``always``), at every
call. A repository reached otherwise — a clone inside the project (``git -C vendor/lib``,
``cd vendor/lib && git …``), a linked worktree (its own copy of ``tools/run``), a bare
repository — is guarded only from a call made in it: an earlier call, in the project's folder,
was free to write the file its settings run, or its ``core.hooksPath`` hooks. A call whose git
may run in such a repository is denied when git there runs a file the session's guarded set
does not hold, or reads a git folder that is not a ``.git`` folder (which no call may write at
any depth: review G-15)."""

from __future__ import annotations

import os

from . import files as fs
from .environment import values
from .guards import guarded_word
from .moves import GITS, command_words, git_folders, names_repository
from .named import GUARDED
from .nested import Guarded, repository_items, submodules
from .worktree import named_programs, repository, untracked_repositories

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The environment's variables the guard's questions about a command read (``findings``):
#: CDPATH (a ``cd``), the home folder and git's configuration files and variables.
_FINDINGS_ENVIRONMENT: Final = ("CDPATH", "HOME", "XDG_CONFIG_HOME", "PATH", "GIT_CONFIG_COUNT",
                                "GIT_CONFIG_PARAMETERS", "GIT_CONFIG", "GIT_DIR",
                                "GIT_COMMON_DIR", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM")


def findings(text: str, directory: str | None) -> tuple[str | None, str | None]:
    """``guarded_word`` of a covered shell command ``text`` run in ``directory``, and when it
    names none, ``foreign_git``'s reason (or None). A service keeps the pair whole, under the
    guarded set it was found against, while nothing it asked the gate's view about changes
    (``files.kept``: any change forgets it; a question the view cannot watch, or to git, keeps
    nothing); a hook process asks each time. Raises ValueError as they do."""
    guards = GUARDED.get()
    if not guards:
        return None, None

    def key() -> tuple[object, ...]:
        here: str | None = None
        if directory is None:  # the process's own folder, where the command is read from
            try:
                here = os.getcwd()
            except OSError:
                here = None
        # the set by its identity: the answer kept holds the set, whose identity no other
        # object then takes
        return ("findings", text, directory, here, id(guards), values(_FINDINGS_ENVIRONMENT))

    def find() -> tuple[object, str | None, str | None]:
        named = guarded_word(text, directory)
        return guards, named, None if named is not None else foreign_git(text, directory)

    _, named, foreign = fs.kept(key, find)
    return named, foreign


def foreign_git(text: str, directory: str | None) -> str | None:
    """Why the shell command ``text``, run in ``directory``, may run git in a repository
    whose programs the gate did not guard at every call; None when it may not (or nothing is
    guarded: ``check_call`` outside a hook). Without ``directory`` (a runtime that sends no
    folder), the process's own. Raises ValueError when git's places cannot be read."""
    guards = GUARDED.get()
    if not isinstance(guards, Guarded):
        return None
    if directory is None:  # a runtime sending no folder: git runs in the hook's own
        try:
            directory = os.getcwd()
        except OSError:
            return "the call's folder is not known, nor the hook's"
    folders = git_folders(text, directory)
    if isinstance(folders, str):
        return folders
    named = names_repository(text)
    looked: set[str] = set()
    folders += _untracked(text, folders, guards)
    for folder in dict.fromkeys(folders):
        found = discover(folder)
        top = fs.realpath(found[0] if found is not None else folder)
        if named and not _own(folder, found, guards.tops):
            return (f"the command gives git its repository or working tree by name, and git "
                    f"may then work in {folder}, which is not a working tree whose programs "
                    "the gate guards at every call of the session (its project's repositories "
                    "and their submodules)")
        if top in guards.tops and top in looked:
            continue
        looked.add(top)
        # in a repository guarded at every call, the submodules that may be new (N2), as
        # the set found them (from the same index)
        repos = [repo for real, repo in guards.loose if (real + "/").startswith(top + "/")] \
            if top in guards.tops else [found, *submodules(*found)] if found is not None \
            else None
        runs = _unguarded(folder, found, repos, guards)
        if runs is not None:
            return (f"git may run in {folder} (the repository at {top}, or a submodule "
                    f"of it), where it runs or reads {runs!r}, which the gate guards only at "
                    "calls made there: an earlier call may have written it (the gate guards, "
                    "at every call, the programs of the session's project repositories and "
                    "their submodules held in their git folders)")
    return None


def _untracked(text: str, folders: list[str], guards: Guarded) -> list[str]:
    """When ``text`` may make a clone a submodule and then run git again (review s41 N2c):
    every clone that the index of a repository guarded at every call it runs in does not
    hold."""
    ignored = _changes_index(text)
    if ignored is None:
        return []
    found = [discover(folder) for folder in folders]
    return [clone for top in dict.fromkeys(f[0] for f in found if f is not None)
            if fs.realpath(top) in guards.tops
            for clone in untracked_repositories(top, ignored=ignored)]


#: git's commands that may put a submodule in the index, from a working tree or a commit.
_INDEXERS: Final = frozenset({"add", "stage", "update-index", "submodule", "read-tree",
                              "checkout", "switch", "restore", "reset", "merge", "pull",
                              "rebase", "cherry-pick", "revert", "stash", "am", "apply", "mv"})


def _changes_index(text: str) -> bool | None:
    """When ``text`` runs a git command that may put a submodule in the index and runs git
    more than once: whether it may add ignored files too (``-f``); None otherwise."""
    try:
        commands = command_words(text)
    except ValueError:
        return True
    words = [w for c in commands for w in c]
    gits = [at for at, w in enumerate(words) if w.rsplit("/", 1)[-1] in GITS
            or w.rsplit("/", 1)[-1].startswith("git-")]
    if len(gits) < 2 or not any(w in _INDEXERS for w in words):
        return None
    return "-f" in words or "--force" in words or any(
        w.startswith("-") and not w.startswith("--") and "f" in w for w in words)


def _own(folder: str, found: tuple[str, str, str] | None, tops: frozenset[str]) -> bool:
    """Whether ``folder`` is the top of a repository whose programs are guarded at every call,
    or its git folder."""
    real = fs.realpath(folder)
    return real in tops or (found is not None and fs.realpath(found[1]) == real
                            and fs.realpath(found[0]) in tops)


def _unguarded(folder: str, found: tuple[str, str, str] | None,
               repos: list[tuple[str, str, str]] | None, guards: Guarded) -> str | None:
    """A file or folder git run in ``folder`` (in the repositories ``repos``, of which
    ``found`` holds the folder; None: outside one) runs or reads as what to run that
    ``guards.always`` does not hold, nor a ``.git`` folder; None when there is none."""
    if repos is None:  # the user's and the system's settings, from the folder
        items = named_programs(folder)
    else:
        items = []
        for repo in repos:  # from the folder too (`git clone`: s40 V12)
            places, programs = repository_items(*repo, folder if repo == found else None)
            items += places + programs
    files, trees = _always(guards)
    for path, _ in items:
        real = fs.realpath(path)
        if "/.git/" in real + "/" or real in files or real in trees:
            continue
        end = len(real)  # a folder above it guarded whole
        while (end := real.rfind("/", 0, end)) > 0 and real[:end] not in trees:
            pass
        if end <= 0:
            return path
    return None


def _always(guards: Guarded) -> tuple[frozenset[str], frozenset[str]]:
    """The files and the folders (guarded whole) of ``guards.always``, made once for the set:
    the items themselves, not ``guards.Index``'s answers (which also name a file with a
    second name on a guarded folder's device, a reason to deny a write: review s41 N6)."""
    made = guards.__dict__.get("_always_sets")
    if made is None:
        made = guards.__dict__["_always_sets"] = (
            frozenset({p for p, tree in guards.always if not tree}),
            frozenset({p.rstrip("/") or "/" for p, tree in guards.always if tree}))
    return made


def discover(folder: str) -> tuple[str, str, str] | None:
    """The repository git finds from ``folder``, as ``worktree.repository`` gives it: the
    first folder on the way up holding a ``.git``, or that is a git folder itself (a bare
    repository: a ``HEAD`` beside ``objects`` or a ``commondir``), whose top is then itself;
    None outside one."""
    top = os.path.abspath(folder)
    while True:
        if fs.entry(os.path.join(top, ".git")) is not None:
            return repository(top)
        if fs.entry(os.path.join(top, "HEAD")) is not None and (
                fs.entry(os.path.join(top, "objects")) is not None
                or fs.entry(os.path.join(top, "commondir")) is not None):
            return top, top, top
        parent = os.path.dirname(top)
        if parent == top:
            return None
        top = parent
