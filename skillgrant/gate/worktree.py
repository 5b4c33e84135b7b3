"""Where git and Claude Code look for a folder's repository: its git folder and common folder
(a linked worktree's ``.git`` file names them), the canonical git root whose
``.claude/settings.local.json`` Claude Code 2.1.332 reads in a session started in the folder
(review S-1, S-2: local settings are canonicalised to the repository's root, for a linked
worktree its main checkout; measured through the runtime by the reviewer, and its
``disableAllHooks`` switched the hooks off; review G-12: the gate guards it), and the hooks
folder git's configuration names (``core.hooksPath``, husky's ``.husky``; review G-10)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Final

#: What makes a configuration file worth asking git about: a hooks folder, or an include
#: (which may name one). Compared in lower case: git reads keys in any case.
_MENTIONS: Final = (b"hookspath", b"include")
#: Environment variables through which git takes configuration or another repository.
_GIT_ENV: Final = ("GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG", "GIT_DIR",
                   "GIT_COMMON_DIR", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM")
#: A configuration file read further than this is taken as mentioning a hooks folder.
_MAX_CONFIG: Final = 1 << 20


def repository(folder: str) -> tuple[Path, Path, Path] | None:
    """The repository holding ``folder``: its top folder, its git folder and its common git
    folder (the same as the git folder but in a linked worktree); None outside one. Raises
    ValueError when a ``.git`` file cannot be read."""
    here = Path(os.path.abspath(folder))
    for top in (here, *here.parents):
        dot_git = top / ".git"
        if dot_git.is_dir():
            return top, dot_git, dot_git
        if not dot_git.exists():
            continue
        try:
            text = dot_git.read_text(encoding="utf-8")
            if not text.startswith("gitdir: "):
                raise ValueError("no gitdir line")
            git_dir = top / text[len("gitdir: "):].strip()
            common_file = git_dir / "commondir"
            if not common_file.exists():
                return top, git_dir, git_dir  # a submodule's own repository
            common = (git_dir / common_file.read_text(encoding="utf-8").strip()).resolve()
        except (OSError, ValueError) as e:
            raise ValueError(f"{dot_git}: the linked worktree's repository cannot be read "
                             f"({e})") from e
        return top, git_dir, common
    return None


def main_checkout(folder: str) -> Path | None:
    """The canonical git root of ``folder``, whose ``.claude/settings.local.json`` Claude Code
    reads (review S-2: in a subfolder too): the main working tree of the linked worktree
    holding it (its ``.git`` a file naming a git folder that has a ``commondir``), else the
    top of its repository (or submodule); None outside one. Raises ValueError when it is in a
    linked worktree and the main working tree cannot be found."""
    found = repository(folder)
    if found is None:
        return None
    top, git_dir, common = found
    if common == git_dir:
        return top
    if common.name != ".git":
        raise ValueError(f"{top / '.git'}: the linked worktree's main checkout is not known "
                         f"(its repository is {common})")
    return common.parent


def hooks_folder(folder: str) -> str | None:
    """The folder whose programs git runs as hooks for a command run in ``folder``, when its
    configuration may name one (``core.hooksPath``): git's own answer (``git rev-parse
    --git-path hooks``), asked only when a configuration file git reads mentions a hooks
    folder or an include, or the environment gives git configuration; None otherwise (the
    hooks are then in the git folder, guarded as such). Raises ValueError when git cannot
    answer."""
    found = repository(folder)
    if found is None:
        return None
    _, git_dir, common = found
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    files = [common / "config", git_dir / "config.worktree", Path(home, ".gitconfig"),
             Path(xdg, "git", "config"), Path("/etc/gitconfig")]
    if not any(os.environ.get(name) for name in _GIT_ENV) and not any(map(_mentions, files)):
        return None
    try:
        done = subprocess.run(["git", "rev-parse", "--git-path", "hooks"], cwd=folder,
                              capture_output=True, timeout=30, check=False)
    except FileNotFoundError:
        return None  # no git: no hooks run
    except (OSError, subprocess.SubprocessError) as e:
        raise ValueError(f"git's hooks folder for {folder} is not known ({e})") from e
    answer = done.stdout.decode("utf-8", "surrogateescape").rstrip("\n")
    if done.returncode != 0 or not answer:
        raise ValueError(f"git's hooks folder for {folder} is not known (git rev-parse: "
                         f"{done.stderr.decode('utf-8', 'replace').strip()!r})")
    return os.path.join(folder, answer)


def _mentions(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            text = f.read(_MAX_CONFIG + 1)
    except FileNotFoundError:
        return False
    except OSError:
        return True
    lowered = text.lower()
    return len(text) > _MAX_CONFIG or any(word in lowered for word in _MENTIONS)
