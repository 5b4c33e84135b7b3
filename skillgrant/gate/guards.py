"""What the gate itself reads or runs from while it decides, and whether a call writes it.

The hook sets ``GUARDED`` for each call (its plan, its audit log, the settings and SKILL.md
holding its hooks, its own installation, as real paths). A call that writes one of them is
``unknown``: the model would otherwise rewrite its own ceiling (reviews W1, W1b, W1c, W2).
"""

from __future__ import annotations

import fnmatch
import os
import posixpath
import re
import sys
from contextvars import ContextVar
from typing import Final

from . import files as fs
from . import linked
from .environment import values
from .homefiles import HOME_CODE, SYSTEM_BINS, home_named
from .nested import Guarded, repositories
from .worktree import pushes_locally
from .writers import braced, into_git, tree_word

#: Files and folders (``True``: the whole tree) the gate itself reads or runs from while it
#: decides — its plan, its audit log, the settings and SKILL.md holding its hooks, its own
#: installation — as real paths; a call that writes one is ``unknown`` (review W1, W2: the model
#: would rewrite its own ceiling). The hook sets them for each call (``guarding``).
GUARDED: ContextVar[tuple[tuple[str, bool], ...]] = ContextVar("guarded", default=())


#: The environment's variables ``guarded_items`` reads (and git, when it is asked).
_ITEMS_ENVIRONMENT: Final = ("HOME", "PATH", "XDG_CONFIG_HOME", "CLAUDE_CONFIG_DIR",
                             "GIT_CONFIG_SYSTEM", "GIT_TEMPLATE_DIR", "GIT_EXEC_PATH",
                             "BASH_ENV", "ENV", "GIT_DIR", "GIT_CONFIG_GLOBAL",
                             "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG",
                             "GIT_COMMON_DIR", "GIT_CONFIG_NOSYSTEM", "CURL_HOME", "WGETRC")


def guarded_items(plan: str, audit_log: str | None, skill_dir: str | None,
                  cwd: str | None, project: str | None) -> tuple[tuple[str, bool], ...]:
    """``_guarded_items``, as the gate's view keeps it (``gate.files.kept``): a service keeps
    the answer while nothing it was read from changes; a hook process reads it each time."""
    def key() -> tuple[object, ...]:
        try:
            here: str | None = os.getcwd()  # a relative path is read from it
        except OSError:
            here = None
        return ("guarded", plan, audit_log, skill_dir, cwd, project, here,
                values(_ITEMS_ENVIRONMENT))

    return fs.kept(key, lambda: _guarded_items(plan, audit_log, skill_dir, cwd, project))


def _guarded_items(plan: str, audit_log: str | None, skill_dir: str | None,
                   cwd: str | None, project: str | None) -> tuple[tuple[str, bool], ...]:
    """What a call must not write (``GUARDED``), as real paths: the plan file, the audit log,
    the SKILL.md of ``skill_dir``, the ``.claude`` folders (settings and skills holding the
    hooks) of ``cwd`` and each folder above it, of ``$CLAUDE_PROJECT_DIR`` and of the user, the
    ``.git`` folders there and git's own configuration (git runs what they name: review G-7),
    the main checkout's ``.claude`` and the configured hooks folder (``nested.repositories``),
    and this installation (the package's folder, the console script's folder, a virtual
    environment's prefix: Python puts a script's folder first on ``sys.path``). ``project``
    is the session's project folder (the hook's ``$CLAUDE_PROJECT_DIR``)."""
    home_named()
    items = [(plan, False), (audit_log, False)]
    if skill_dir:  # its SKILL.md, and the scripts ${CLAUDE_SKILL_DIR} entries run (G-13),
        # with what its links lead to (review s41 S6)
        items += [(os.path.join(skill_dir, "SKILL.md"), False), (skill_dir, True),
                  *linked.walked([skill_dir], lambda *_: True)]
    # Every folder from the call's up to the root: Claude Code reads the project's settings
    # in the folder it started in, an ancestor of the Bash tool's folder after a `cd` (G-6).
    home = os.path.expanduser("~")
    folders = [project or "", home]
    folder = os.path.abspath(cwd) if cwd else ""
    while folder:
        folders.append(folder)
        folder = "" if os.path.dirname(folder) == folder else os.path.dirname(folder)
    # What follows the call's folder rather than the session's (`local`) is guarded at this
    # call only: an earlier call, in another folder, was not kept from writing it (`always`)
    local: list[tuple[str, bool]] = []
    for folder in dict.fromkeys(f for f in folders if f):
        (items if project is None or folder in folders[:2] else local).extend(
            _folder_items(folder))
    programs: list[tuple[str, bool]] = []
    local_programs: list[tuple[str, bool]] = []
    tops: set[str] = set()
    loose: list[tuple[str, str, str]] = []  # submodules that may be new (review s41 N2)
    for at, start in enumerate(dict.fromkeys(f for f in (project, cwd) if f)):
        (items if at == 0 else local).extend(repositories(
            start, programs if at == 0 else local_programs, tops if at == 0 else set(),
            local, local_programs, loose if at == 0 else None))
    # Claude Code's user state: its MCP servers and each project's (review s41 M1)
    items.append((os.path.join(home, ".claude.json"), False))
    items += [(os.path.join(home, ".gitconfig"), False),
              (os.path.join(home, ".config", "git"), True)]
    items += [(os.path.join(home, name), tree) for name, tree in HOME_CODE]
    xdg = os.environ.get("XDG_CONFIG_HOME")  # git's configuration there (review H-24)
    items += [(os.path.join(xdg, "git"), True)] if xdg else []
    # curl's and wget's settings where the environment moves them (review s41 F7)
    items += [(os.path.join(folder, ".curlrc"), False)
              for folder in (os.environ.get("CURL_HOME"), xdg) if folder]
    items += [(os.environ.get("WGETRC") or "", False)]
    # their entries that are links (GNU stow's `~/.config/git/config -> ~/dotfiles/…`) lead
    # to what git and ssh read (review s41 S4)
    items += linked.walked([os.path.join(home, ".config", "git"), os.path.join(home, ".copilot"),
                            os.path.join(home, ".config", "sqlite3"),
                            *([os.path.join(xdg, "git")] if xdg else [])], lambda *_: False)
    items += linked.walked([os.path.join(home, ".ssh")], lambda depth, *_: depth == 0)  # S4b
    items += [("/etc/gitconfig", False), ("/usr/local/etc/gitconfig", False),
              (os.environ.get("GIT_CONFIG_SYSTEM", ""), False)]
    # git's own templates (copied into every new repository, hooks too) and helpers (H-27)
    items += [("/usr/share/git-core", True), ("/usr/lib/git-core", True),
              ("/usr/libexec/git-core", True), (os.environ.get("GIT_TEMPLATE_DIR", ""), True),
              (os.environ.get("GIT_EXEC_PATH", ""), True)]
    # the folders a program's name is found in: a write there is a write to the program the
    # gate judged by its name (review H-12)
    # (each real path found before `..` is read: `link/../bin` is beside the link's target,
    # not beside the link; review F12)
    bins = [fs.realpath(os.path.expanduser(p)) for p in os.environ.get("PATH", "").split(":")
            if p]
    items += [(p, True) for p in bins]
    # a program there that is a link into the tree (`~/bin/mytool -> ~/src/x/tools/mytool.sh`)
    # runs its target (review s41 S5): folders but the system's are read for links (the
    # system's lead to what only root writes); their files' other names are no concern
    # (rustup's programs are hard links of one file)
    items += linked.walked([p for p in bins if not (p + "/").startswith(SYSTEM_BINS)],
                           lambda *_: False, named=False)
    # the file bash reads before every non-interactive command (review F6)
    items += [(os.environ[name], False) for name in ("BASH_ENV", "ENV") if os.environ.get(name)]
    # the interpreter's own library, which the hook imports at every start (review H-26)
    items.append((os.path.dirname(os.__file__), True))
    items += [(os.path.dirname(fs.realpath(sys.executable)), True),  # through the view: R2
              (os.path.join(sys.base_prefix, "lib"), True), ("/etc/ld.so.preload", False)]
    # Claude Code's managed settings (a `disableAllHooks` there switches every hook off)
    items += [("/etc/claude-code", True), ("/Library/Application Support/ClaudeCode", True)]
    # the user's settings where CLAUDE_CONFIG_DIR moves them (review s40 R10)
    items += [(os.environ["CLAUDE_CONFIG_DIR"], True)] if os.environ.get("CLAUDE_CONFIG_DIR") \
        else []
    items += [(os.environ[name], name == "GIT_DIR") for name in ("GIT_DIR", "GIT_CONFIG_GLOBAL")
              if os.environ.get(name)]
    items.append((os.path.dirname(os.path.dirname(os.path.abspath(__file__))), True))
    script = sys.argv[0] if sys.argv else ""
    if os.path.basename(script) == "skillgrant":
        items.append((os.path.dirname(os.path.abspath(script)), True))
    if sys.prefix != sys.base_prefix:
        items.append((sys.prefix, True))
    reals = linked.real_paths([*(path for path, _ in (*items, *local, *programs,
                                                     *local_programs) if path), *tops])
    always = [(reals[path], tree) for path, tree in (*items, *programs) if path]
    found = [(reals[path], tree) for path, tree in (*items, *local) if path]
    # A program git's settings name, in a folder guarded whole already (`/usr/bin/gh`, which
    # `gh auth setup-git` writes), adds nothing, and its name would deny every word holding
    # it (`gh pr list`: _named_file)
    trees = tuple(item.rstrip("/") + "/" for item, tree in found if tree)
    found += [(real, tree) for real, tree in ((reals[p], t)
                                              for p, t in (*programs, *local_programs) if p)
              if not (real + "/").startswith(trees)]
    for real, tree in found:  # another name of one is written by any writer (H1–H3)
        if not tree:
            linked.single_name(real)
    return Guarded(dict.fromkeys(found), always=dict.fromkeys(always),
                   tops=frozenset(reals[top] for top in tops), loose=loose)


def _folder_items(folder: str) -> list[tuple[str, bool]]:
    """The places in ``folder`` that a runtime or git reads as what to run."""
    return [(os.path.join(folder, ".claude"), True),
            # git runs what its repository's config and hooks name (core.fsmonitor, hooks),
            # under grants that run no code of their own (`git status`, `git commit`; G-7)
            (os.path.join(folder, ".git"), True),
            # the hook files the other runtimes load (Copilot CLI, VS Code, Codex; H-18)
            (os.path.join(folder, ".github", "hooks"), True),
            (os.path.join(folder, ".codex"), True),
            *((os.path.join(folder, ".claude", name), False)
              for name in ("settings.json", "settings.local.json")),
            # the project's MCP servers, whose commands Claude Code starts (review s41 M1)
            (os.path.join(folder, ".mcp.json"), False),
            # what their entries that are links lead to, and their files' second names
            # (review s41 S3, L1, L4): Copilot CLI's hooks at any depth, Codex's own files
            *linked.claude_items([os.path.join(folder, ".claude")]),
            *linked.walked([os.path.join(folder, ".github", "hooks")], lambda *_: True),
            *linked.walked([os.path.join(folder, ".codex")], lambda *_: False)]


def guarded_path(path: str) -> str | None:
    """The guarded file or folder ``path`` is, lies in, or (a file) is a hard link to; None
    when it is none of them (the first of ``GUARDED`` that it is). A path that cannot be
    examined is its own answer. A path inside any ``.git`` folder is its own answer too, when
    something is guarded (review s41 N1: a nested repository's configuration and hooks)."""
    if GUARDED.get() and "/.git/" in path + "/":
        return path
    return _indexed().find(path, files_only=False)


class Index:
    """``GUARDED``, arranged for one lookup a question: each item's first place by its path,
    and a folder's by the path it is a prefix of; the files' names, and their identities
    (asked once, at the first question that needs them)."""

    def __init__(self, guards: tuple[tuple[str, bool], ...]) -> None:
        self.guards = guards
        self.exact: dict[str, int] = {}
        self.files: dict[str, int] = {}
        self.trees: dict[str, int] = {}
        for at, (item, tree) in enumerate(guards):
            self.exact.setdefault(item, at)
            (self.trees if tree else self.files).setdefault(
                item.rstrip("/") if tree else item, at)
        self.names = {os.path.basename(item) for item in self.files} - {""}
        # One search for them all: a word holds one of the names exactly when it matches.
        self.named = re.compile("|".join(map(re.escape, sorted(self.names))) or "(?!)").search
        self._identities: dict[tuple[int, int], int] | None = None

    def find(self, path: str, *, files_only: bool) -> str | None:
        """The first item that ``path`` is (of the files only: ``files_only``), lies in (a
        folder), or is a hard link to (a file); None when there is none."""
        places = []
        at = (self.files if files_only else self.exact).get(path)
        if at is not None:
            places.append(at)
        end = len(path)
        while self.trees and not files_only and (end := path.rfind("/", 0, end)) >= 0:
            at = self.trees.get(path[:end])  # `path` starts with this folder and a slash
            if at is not None:
                places.append(at)
        if places:
            return self.guards[min(places)][0]
        found = fs.identity(path)
        if found is None:
            return None
        at = self._file_identities().get(found[:2])  # a hard link to a guarded file (W1b)
        if at is not None:
            return self.guards[at][0]
        return self._linked_into_tree(found) if found[2] > 1 else None

    def _file_identities(self) -> dict[tuple[int, int], int]:
        """The guarded files' identities, asked at the first question that needs them, made
        whole, then shared (review s40 R9)."""
        if self._identities is None:
            made: dict[tuple[int, int], int] = {}
            for item, at in self.files.items():
                known = fs.identity(item)
                if known is not None:
                    made.setdefault(known[:2], at)
            self._identities = made
        return self._identities

    def _linked_into_tree(self, found: tuple[int, int, int]) -> str | None:
        """For a file with more than one name: the first guarded folder on its device, where
        another of its names may lie (a hard link made before the session, by ``cp -al`` or
        ``rsync --link-dest``: review s40 R13); a hard link never crosses devices. A folder
        that cannot be examined may be on it. (Asked of the system: an answer made of it is
        not kept.)"""
        fs.unkept()
        for tree, at in self.trees.items():
            try:
                device = os.stat(tree).st_dev
            except FileNotFoundError:
                continue
            except (OSError, ValueError):
                device = found[0]
            if device == found[0]:
                return f"{self.guards[at][0]} (the file written has {found[2]} names, and " \
                    "one of them may lie in this folder)"
        return None


#: The last ``Index`` made, and what it was made of (the service keeps ``GUARDED`` whole
#: between calls: ``guarded_items``).
_LAST: list[Index | None] = [None]


def _indexed() -> Index:
    guards = GUARDED.get()
    last = _LAST[0]
    if last is None or last.guards is not guards:
        last = _LAST[0] = Index(guards)
    return last


_GLOB = re.compile(r"[*?\[]")
def _names(word: str, index: Index) -> bool:
    """Whether ``word`` holds one of the guarded files' names, or is a pattern its last part
    may match."""
    return index.named(word) is not None or (
        _GLOB.search(word) is not None and any(fnmatch.fnmatchcase(name, _last(word))
                                               for name in index.names))


def _last(word: str) -> str:
    return word.rstrip("/").rsplit("/", 1)[-1]


#: ANSI-C and locale quoting, which spell a name in escapes (``\x73``, ``\163``, ``\u0073``).
_SPELLED = re.compile(r"\$['\"]")
#: A command that first moves to a literal folder, then (only if it could) runs the rest.
_LEADING_CD = re.compile(r"\s*cd\s+([A-Za-z0-9_.][A-Za-z0-9_./-]*)\s*&&(.*)", re.DOTALL)
#: What bash removes from a word's text when it joins it (quotes, a backslash).
_QUOTING = re.compile(r"['\"\\]")
#: The words of a command's text, as far as they may name a file (quotes and operators split).
_TOKEN = re.compile(r"[^\s;&|<>()'\"`=]+")


def guarded_word(text: str, directory: str | None) -> str | None:
    """A word of a shell command's ``text`` that names a file the gate guards (``GUARDED``),
    resolved from ``directory``, or that holds the name of one (the plan file's,
    ``settings.json``, ``SKILL.md``): any program the plan allows may write what its words
    name (``cp``, ``tee``, ``sed -i``, ``git checkout``; review W1b). For a program that
    writes folders (``writers.tree_word``), also a word naming a folder that holds a guarded
    file, or a path in a guarded folder, or the program writing a working tree that holds
    one (``cp -r evil/. .``, ``tar -x``, ``git stash pop``; reviews W1c, W2). None when
    nothing is guarded."""
    if not GUARDED.get():
        return None
    quoted = _SPELLED.search(text)  # `$'.claude/\x73ettings.json'` spells any name (G-4)
    if quoted is not None:
        return quoted.group()
    moved = _LEADING_CD.fullmatch(text)
    if moved is not None and directory is not None and (not os.environ.get("CDPATH") or (
            moved.group(1).startswith(("./", "../")))):
        # `cd src && cp a b`: the rest read from src, and from here as well, where it
        # runs when the `cd` fails or past a `;`, `||` or `&` (H-31); CDPATH may send a bare
        # name elsewhere (H-30)
        named = _named_file(_TOKEN.findall(_QUOTING.sub("", text)), directory)
        return named or guarded_word(moved.group(2), posixpath.normpath(
            posixpath.join(directory, moved.group(1)))) or guarded_word(
            moved.group(2), directory)
    bare = _QUOTING.sub("", text)  # bash joins `pla''n.json`, unescapes `pla\n.json`
    words = _TOKEN.findall(bare)
    return _named_file(words, directory) or into_git(words, directory) or \
        tree_word(words, directory, _touches) or _local_push(words, directory)


def _local_push(words: list[str], directory: str | None) -> str | None:
    """``push`` when the command may run ``git push`` to a repository on this machine (its
    hooks run: review H-1), or when the gate cannot tell (no folder)."""
    for i, word in enumerate(words[:-1]):
        if word.rsplit("/", 1)[-1] == "git" and "push" in words[i + 1:i + 8]:
            at = words.index("push", i + 1)
            operand = next((w for w in words[at + 1:] if not w.startswith("-")), None)
            if directory is None or pushes_locally(directory, operand):
                return "push"
    return None


def _touches(path: str) -> bool:
    """Whether ``path`` is a guarded file or folder, holds one, or lies in a guarded folder."""
    above = path.rstrip("/") + "/"
    return any(path == item or item.startswith(above) or (tree and path.startswith(item + "/"))
               for item, tree in GUARDED.get())


def _named_file(words: list[str], directory: str | None) -> str | None:
    """A word naming a guarded file (its files: a program's words may name the skill's own
    scripts and the project's venv, which a command may run)."""
    index = _indexed()
    if not index.files:
        return None
    for word in words:
        if any(_names(form, index) for form in braced(word)):
            return word  # `*.json`, `pl?n.json` may expand to the plan's name (W1c)
        if "$" in word or "*" in word or word.startswith("~") or "\x00" in word:
            continue  # a NUL names no file (the command is judged as it is)
        # posixpath.join's answer, as a word's one concatenation (it costs a microsecond)
        full = word if word[:1] == "/" or directory is None else directory + word \
            if not directory or directory[-1] == "/" else directory + "/" + word
        try:
            if full.startswith("/") and (
                    index.find(named := posixpath.normpath(full), files_only=True)
                    or ((real := fs.realpath(full)) != named  # else the same question
                        and index.find(real, files_only=True))):
                return word
        except (ValueError, OSError):  # a surrogate or a NUL: no file's name
            continue
    return None
