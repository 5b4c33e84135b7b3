"""What the gate itself reads or runs from while it decides, and whether a call writes it.

The hook sets ``GUARDED`` for each call (its plan, its audit log, the settings and SKILL.md
holding its hooks, its own installation, as real paths). A call that writes one of them is
``unknown``: the model would otherwise rewrite its own ceiling (reviews W1, W1b, W1c, W2).
"""

from __future__ import annotations

import os
import posixpath
import re
import sys

from ..lazy import compile_on_use
from . import files as fs
from . import linked
from .cargodirs import CARGO_ENVIRONMENT, cargo_dirs, unguarded_target
from .copied import local_push, one_call, touches, written
from .deepnames import READS, RUN_FOLDER, TOOL_MOVES, deep_names
from .entryvars import ASSIGNED, own_text
from .environment import state
from .envpaths import session_paths
from .folded import unquoted
from .homefiles import (
    HOME_CODE,
    MOVED_CODE,
    NPM_ENVIRONMENT,
    SYSTEM_BINS,
    home_named,
    npm_global,
    prefixes,
    state_folders,
    system_code,
    version_files,
)
from .linkmakers import link_then_more
from .loadedlibs import imported_from, loaded_libraries, start_files
from .moves import moved_folders
from .named import GUARDED, above, named_word
from .nested import Guarded, only_planned, repositories
from .planpaths import MARKED, MODULES, SETTINGS, WORKSPACES
from .runfolders import outside, run_folders
from .starttables import MANIFESTS
from .startvars import entry_starts, removed_folder, start_values
from .textwords import text_words
from .writers import clone_word, composer, into_git

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The environment's variables ``guarded_items`` reads (and git, when it is asked).
_ITEMS_ENVIRONMENT: Final = ("HOME", "PATH", "XDG_CONFIG_HOME", "CLAUDE_CONFIG_DIR",
                             "GIT_CONFIG_SYSTEM", "GIT_TEMPLATE_DIR", "GIT_EXEC_PATH",
                             "BASH_ENV", "ENV", "GIT_DIR", "GIT_CONFIG_GLOBAL",
                             "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG",
                             "GIT_COMMON_DIR", "GIT_CONFIG_NOSYSTEM", "CURL_HOME", "WGETRC",
                             "XDG_CACHE_HOME", "XDG_DATA_HOME", "PYTHONPATH", *MOVED_CODE,
                             "SKILLGRANT_STATE_DIR",
                             *CARGO_ENVIRONMENT, *NPM_ENVIRONMENT)


def planned_items(plan: str, audit_log: str | None, skill_dir: str | None, cwd: str | None,
                  project: str | None, entries: tuple[str, ...]) -> tuple[tuple[str, bool], ...]:
    """``guarded_items`` of the programs of the plan's ``entries`` (``guardkeep.planned``)."""
    from .guardkeep import planned

    return planned((plan, audit_log, skill_dir, cwd, project, entries), guarded_items,
                   _guarded_items)


def guarded_items(plan: str, audit_log: str | None, skill_dir: str | None,
                  cwd: str | None, project: str | None,
                  programs: tuple[str, ...] = ()) -> tuple[tuple[str, bool], ...]:
    """``_guarded_items``, as the gate's view keeps it (``gate.files.kept``: while nothing it
    was read from changes)."""
    def key() -> tuple[object, ...]:
        try:
            here: str | None = os.getcwd()  # a relative path is read from it
        except OSError:
            here = None
        # (the whole environment: its _ITEMS_ENVIRONMENT among it; ``state`` hashes at once)
        return ("guarded", plan, audit_log, skill_dir, cwd, project, programs, here, state())

    return fs.kept(key, lambda: _guarded_items(plan, audit_log, skill_dir, cwd, project,
                                               programs))


def _guarded_items(plan: str, audit_log: str | None, skill_dir: str | None,
                   cwd: str | None, project: str | None,
                   named: tuple[str, ...] = ()) -> tuple[tuple[str, bool], ...]:
    """What a call must not write (``GUARDED``), as real paths: the plan file, the audit log,
    every skillgrant service's state (``homefiles.STATE``), the SKILL.md of ``skill_dir``, the
    ``.claude`` folders (settings and skills holding the hooks) of ``cwd`` and each folder
    above it, of ``$CLAUDE_PROJECT_DIR`` and of the user, the
    ``.git`` folders there and git's own configuration (git runs what they name: review G-7),
    the main checkout's ``.claude`` and the configured hooks folder (``nested.repositories``),
    and this installation (the package's folder, the console script's folder, a virtual
    environment's prefix: Python puts a script's folder first on ``sys.path``). ``project``
    is the session's project folder (the hook's ``$CLAUDE_PROJECT_DIR``); ``named``, the plan's
    programs (``plan_programs``), read from the call's folder and the project's."""
    from .buildnames import named_paths  # (not loaded where the set is kept: guardkeep)
    from .guardfolders import folder_items
    from .planruns import python_libs, runs_any
    from .startpaths import start_paths

    home_named()
    items = [(plan, False), (audit_log, False)]
    runs = run_folders(named, project)  # (where a later call may run them: C1, s52)
    roots = dict.fromkeys([*(f for f in (cwd, project) if f), *runs])  # (whole, as a skill's
    skipped = ("^", SETTINGS, ASSIGNED, RUN_FOLDER, TOOL_MOVES, READS, *MARKED)  # folder is)
    planned = [(name if name[:1] == "/" else base + name, True)  # (os.path.join, as fs.joined)
               for name in [path.rstrip("/") or "." for path in named if path[:1] not in skipped]
               for base in [f.rstrip("/") + "/" for f in roots]]
    held: list[tuple[str, str]] = []  # (make's and cmake's doubts: `writeguard`, session 55)
    jest: set[str] = set()  # (the folders whose makefiles name jest: `jestargs.present`)
    items += [*planned, *named_paths(named, list(roots), held, jest)]  # (what build files
    # name)
    modules = [os.path.join(folder, path[1:]) for path in named if path[:1] == MODULES
               for folder in roots]  # (their standard modules' names: review s44 P3)
    items += _workspace_items(named, roots)  # (review s44 P3)
    if skill_dir:  # its SKILL.md, the scripts ${CLAUDE_SKILL_DIR} entries run (G-13), links (S6)
        items += [(os.path.join(skill_dir, "SKILL.md"), False), (skill_dir, True),
                  *linked.walked([skill_dir], lambda *_: True)]
    # Every folder from the call's up to the root: Claude Code reads the project's settings
    # in the folder it started in, an ancestor of the Bash tool's folder after a `cd` (G-6).
    home = os.path.expanduser("~")
    folders = [project or "", home]
    if cwd:
        folders += [os.path.abspath(cwd), *above(os.path.abspath(cwd))]
    folders += runs[1:]  # (their names found walking up)
    # node looks for a module in each `node_modules` from a script's folder up to the root:
    # those above the project's are no project's to install (review s43 H13)
    inside = tuple(f for f in (project, cwd) if f)
    items += [(os.path.join(f, "node_modules"), True) for f in [*folders[3:], home]
              if f and not any(f == i or f.startswith(i.rstrip("/") + "/") for i in inside)]
    # What follows the call's folder rather than the session's (`local`) is guarded at this
    # call only: an earlier call, in another folder, was not kept from writing it (`always`)
    local: list[tuple[str, bool]] = []
    versions = [(name, False) for name in version_files()]
    ups = [path[1:].rstrip("/") for path in named if path[:1] == "^"]
    versions += [(name, True) for name in ups]  # s44 P1
    # and below it, a settings folder a later call's `cd` makes one up (s44 P10; s52 C1, B5)
    found_up = frozenset(n for n, _ in versions if n not in MANIFESTS)
    walked = found_up | deep_names(named, [*roots])
    items += cargo_dirs(os.path.abspath(cwd or project or "/")) if "^target/" in named else []
    for folder in dict.fromkeys(f for f in folders if f):
        (items if project is None or folder in folders[:2] else local).extend(
            folder_items(folder, versions))
        planned += [(path, True) for path in fs.joined(folder, ups)]  # (found walking up)
    programs: list[tuple[str, bool]] = []
    local_programs: list[tuple[str, bool]] = []
    tops: set[str] = set()
    loose: list[tuple[str, str, str]] = []  # submodules that may be new (review s41 N2)
    for at, start in enumerate(dict.fromkeys(f for f in (project, cwd) if f)):
        (items if at == 0 else local).extend(repositories(
            start, programs if at == 0 else local_programs, tops if at == 0 else set(),
            local, local_programs, loose if at == 0 else None))
    # every skillgrant service's state, its sessions files among it (issue 29, s52-sreview S2)
    items += [(folder, True) for folder in state_folders()]
    items += [(os.path.join(home, ".claude.json"), False),  # its MCP servers (s41 M1)
              (os.path.join(home, ".gitconfig"), False), (os.path.join(home, ".config/git"), True)]
    items += [*zip(fs.joined(home, [name for name, _ in HOME_CODE]),
                   [tree for _, tree in HOME_CODE], strict=True), *npm_global(home)]
    xdg = os.environ.get("XDG_CONFIG_HOME")  # git's configuration there (review H-24)
    items += [(os.path.join(xdg, name), True) for name in ("git", "husky")] if xdg else []
    data = os.environ.get("XDG_DATA_HOME")  # gh's extensions, helm's plugins (s46 E1)
    items += [(os.path.join(data, name), True) for name in ("gh", "helm")] if data else []
    # curl's and wget's settings where the environment moves them (review s41 F7)
    items += [(os.path.join(folder, ".curlrc"), False)
              for folder in (os.environ.get("CURL_HOME"), xdg) if folder]
    items += [(os.environ.get("WGETRC") or "", False)]
    # the system's login files (a login bash's snapshot: review s42 H6), Copilot CLI's own
    # code, which its launcher loads from the cache unchecked (H8)
    items += [("/etc/profile", False), ("/etc/profile.d", True), ("/etc/bash.bashrc", False),
              ("/etc/bashrc", False), (os.path.join(os.environ.get("XDG_CACHE_HOME") or
                                                    os.path.join(home, ".cache"), "copilot"), True)]
    items += [(part.removesuffix("/*"), True) for name in MOVED_CODE  # (a folder, or a list
              for part in (os.environ.get(name) or "").split(os.pathsep) if part]  # of them)
    # every path a session variable names (review s47 E2–E5), as git's programs are kept
    inner = [*folders, *roots, *(above(os.path.abspath(project)) if project else [])]
    programs += session_paths([project] if project else [], inner)
    local_programs += session_paths([os.path.abspath(cwd)] if cwd and cwd != project
                                    else [], inner)
    # PYTHONPATH (L2), relative values where programs run, entries' own (s49-greview3 E1-V3)
    local += start_values(named, list(roots), inner, modules)  # (modules: PYTHONPATH's)
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
    items += start_paths(named, [f for f in (*folders[2:], project) if f], home, bins)  # s48
    # man-db's, Maven's, pip's settings; an activated environment's prefix, a system lib
    items += system_code(bins)  # (review s44 R1, H1, H4, P2)
    # a program there that is a link into the tree (`~/bin/mytool -> ~/src/x/tools/mytool.sh`)
    # runs its target (review s41 S5): folders but the system's are read for links (the
    # system's lead to what only root writes); their files' other names are no concern
    # (rustup's programs are hard links of one file)
    targets = linked.walked([p for p in bins if not (p + "/").startswith(SYSTEM_BINS)],
                            lambda *_: False, named=False)
    # and a target in an environment of its own (pipx's, uv tool's) runs it (s44 P2c)
    items += [*targets, *prefixes([os.path.dirname(path) for path, _ in targets])]
    # the file bash reads before every non-interactive command (review F6)
    items += [(os.environ[name], False) for name in ("BASH_ENV", "ENV") if os.environ.get(name)]
    # the interpreter's own library, which the hook imports at every start (review H-26),
    # and the shared libraries it loads (a root session writes /lib: review s43 H12, H12b)
    items.append((os.path.dirname(os.__file__), True))
    items += [(folder, True) for folder in loaded_libraries()]
    items += [("/etc/ld.so.conf", False), ("/etc/ld.so.conf.d", True),
              ("/etc/ld.so.cache", False)]
    items += [(path, False) for path in (os.environ.get("LD_PRELOAD") or "").replace(
        ":", " ").split()]
    items += [(os.path.dirname(fs.realpath(sys.executable)), True),  # through the view: R2
              (os.path.join(sys.base_prefix, "lib"), True), ("/etc/ld.so.preload", False)]
    # Claude Code's managed settings (a `disableAllHooks` there switches every hook off)
    items += [("/etc/claude-code", True), ("/Library/Application Support/ClaudeCode", True)]
    # the user's settings where CLAUDE_CONFIG_DIR moves them (review s40 R10)
    items.append((os.environ.get("CLAUDE_CONFIG_DIR") or "", True))
    items += [(os.environ[name], name == "GIT_DIR") for name in ("GIT_DIR", "GIT_CONFIG_GLOBAL")
              if os.environ.get(name)]
    items.append((os.path.dirname(os.path.dirname(os.path.abspath(__file__))), True))
    script = sys.argv[0] if sys.argv else ""
    if os.path.basename(script) == "skillgrant":
        items.append((os.path.dirname(os.path.abspath(script)), True))
    if sys.prefix != sys.base_prefix:
        items.append((sys.prefix, True))
    items += [(folder, True) for folder in imported_from()] + [(f, False) for f in start_files()]
    missing: set[str] = set()  # (what is not there has no second name: not asked again)
    reals = linked.real_paths([*[path for path, _ in (*items, *local, *programs,
                                                     *local_programs) if path], *tops,
                                 *modules], missing)
    resolved = [(reals[path], tree) for path, tree in items if path]
    always = [*resolved, *((reals[path], tree) for path, tree in programs if path)]
    found = [*resolved, *((reals[path], tree) for path, tree in local if path)]
    # A program git's settings name, in a folder guarded whole already (`/usr/bin/gh`, which
    # `gh auth setup-git` writes), adds nothing, and its name would deny every word holding
    # it (`gh pr list`: _named_file)
    if programs or local_programs:
        trees = tuple([item.rstrip("/") + "/" for item, tree in found if tree])
        found += [(reals[p], t) for p, t in (*programs, *local_programs)
                  if p and not (reals[p] + "/").startswith(trees)]
    for real, tree in found:  # another name of one is written by any writer (H1–H3)
        if not tree and real not in missing:
            linked.single_name(real)
    made = Guarded(dict.fromkeys(found), always=dict.fromkeys(always),
                   tops=frozenset(reals[top] for top in tops), loose=loose,
                   modules=frozenset(posixpath.normpath(reals[m]) for m in modules),
                   walked=walked, found_up=found_up, **entry_starts(named, list(roots)),
                   planned=lambda: only_planned(planned, [
                       (p, t) for p, t in (*items, *local, *programs, *local_programs) if p],
                       reals), run_folders=frozenset(runs))
    made.written_below = tuple(dict.fromkeys(held))  # (read by `writeguard` only)
    made.jest_by_make = frozenset(jest)  # (read by `jestargs.present` only)
    made.named = named  # (read by `planscripts` only)
    made.runs_any = runs_any(named, skipped, list(roots))  # (`pymodule`: s55-greview3 C1)
    made.python_libs = python_libs(named, skipped, list(roots))  # (`sitenames`: A3)
    return made


def _workspace_items(named: tuple[str, ...], roots: dict[str, None]) -> list[tuple[str, bool]]:
    """The files of the node workspaces the plan's ``WORKSPACES`` paths name, from each root
    (``nodeworkspaces`` loaded only for a plan that names one: issue 29)."""
    if not any(path[:1] == WORKSPACES for path in named):
        return []
    from .nodeworkspaces import workspaces

    return [(p, True) for path in named if path[:1] == WORKSPACES for folder in roots
            for p in workspaces(os.path.join(folder, path[1:]))]


#: ANSI-C and locale quoting, which spell a name in escapes (``\x73``, ``\163``, ``\u0073``).
_SPELLED = re.compile(r"\$['\"]")
#: A file of more options curl or wget reads (``-K``/``--config``; wget's ``-i``, ``--input-file``):
#: the files it names to write (``output = PATH``) are names the guard cannot read (s44 W5b).
_OPTION_FILE = compile_on_use(r"\bcurl\b.*\s(?:-[A-Za-z]*K|--config)"
                              r"|\bwget\b.*\s(?:-[A-Za-z]*i|--conf|--input)")
#: A command that first moves to a literal folder, then (only if it could) runs the rest.
_LEADING_CD = re.compile(r"\s*cd\s+([A-Za-z0-9_.][A-Za-z0-9_./-]*)\s*&&(.*)", re.DOTALL)


def guarded_word(text: str, directory: str | None) -> str | None:
    """A word of a shell command's ``text`` that names a file the gate guards (``GUARDED``),
    resolved from ``directory``, or that holds the name of one (the plan file's,
    ``settings.json``, ``SKILL.md``): any program the plan allows may write what its words
    name (``cp``, ``tee``, ``sed -i``, ``git checkout``; review W1b). For a program that
    writes folders (``writers.tree_word``), also a word naming a folder that holds a guarded
    file, or a path in a guarded folder, or the program writing a working tree that holds
    one (``cp -r evil/. .``, ``tar -x``, ``git stash pop``; reviews W1c, W2). None when
    nothing is guarded. One ``copied.Walks`` serves all its walks (W1-walk)."""
    return one_call(_guarded_word, text, directory) if GUARDED.get() else None


def _guarded_word(text: str, directory: str | None) -> str | None:
    runs = getattr(GUARDED.get(), "run_folders", None)  # (C1, s52: `runfolders`)
    away = outside(text, directory, runs) if runs and directory is not None else None
    if away is not None:
        return f"{away} (the session moved there; the plan's programs run in its folders only)"
    if ("py" in text and "test" in text) or ("make" in text and "^conftest.py" in getattr(
            GUARDED.get(), "named", ())):  # (a pattern entry's pytest words: s58-pfix; make's
        # command-line variables where the plan runs pytest: s60-pfix)
        from .callpytest import pattern_word
        from .planscripts import plan_entries

        here = directory or "."
        given = pattern_word(text, here, plan_entries(GUARDED.get()), runs or (here,))
        if given is not None:
            return f"{given} (pytest given words no plan entry gives: what it imports is not read)"
    text = own_text(text, GUARDED.get())  # (the plan's entries' own assignments: s50)
    bare = unquoted(text)  # (a program's name spelled with quotes: `c''url`, `sho''pt`)
    quoted = _SPELLED.search(text) or (  # `$'.claude/\x73ettings.json'` spells any name (G-4)
        ("curl" in bare or "wget" in bare) and _OPTION_FILE.search(bare))  # `curl -K` (W5b)
    if quoted:
        return quoted.group()
    if ("shopt" in bare or "GLOB" in bare or "BASHOPTS" in bare or " -O" in bare) and any(
            c in text for c in "*?[("):
        return "shopt"  # patterns matched under other options than bash's defaults (dotglob,
        # nocaseglob, extglob, globstar), which the guard does not read (review s44 K2)
    linked = link_then_more(text)  # a link a command makes, written through (review s43 L1)
    if linked is not None:
        return linked
    moved = _LEADING_CD.fullmatch(text)
    if moved is not None and directory is not None and (not os.environ.get("CDPATH") or (
            moved.group(1).startswith(("./", "../")))):
        # `cd src && cp a b`: the rest read from src, and from here as well, where it
        # runs when the `cd` fails or past a `;`, `||` or `&` (H-31); CDPATH may send a bare
        # name elsewhere (H-30)
        named = named_word(text_words(text), directory, text)
        return named or guarded_word(moved.group(2), posixpath.normpath(
            posixpath.join(directory, moved.group(1)))) or guarded_word(
            moved.group(2), directory)
    words = text_words(text)
    if "sed" in bare:  # sed's `w`/`W` take the file they write attached (`1w.claude/…`,
        words += [w[k + 1:] for w in words for k, c in enumerate(w) if c in "wW"]  # s44 W18)
    return written(words, directory, text, bare) or into_git(words, directory) or \
        composer(words) or clone_word(words, directory, touches) or \
        local_push(words, directory) or _composed(words, directory, text, bare)


#: Programs that may compose a name they write (``composed``), or write their own settings
#: (``ownsettings``), as text a command holding one holds.
_COMPOSERS: Final = ("cp", "mv", "install", "ln", "patch", "tar", "rsync", "sed", "split",
                     "z", "lz", "pg", "brotli", "compress")  # (and SHORTENS': s46 D1)
_OWN: Final = ("gh", "npm", "pnpm", "yarn", "kubectl", "oc", "aws", "gcloud", "az", "docker",
               "podman", "pip", "conda", "rustup", "helm", "cargo")


def _composed(words: list[str], directory: str | None, text: str, bare: str) -> str | None:
    """``composed.composed_word`` (s45 C1), ``ownsettings.own_settings`` (G2, S1), as needed."""
    found = removed_folder(words, directory, touches)  # (--basetemp, venv: s50-greview B1 V1)
    if found is None and any(name in bare for name in _COMPOSERS):
        from .composed import COMPOSES, SHORTENS, composed_word, shortened_word

        found = composed_word(words, directory, text) if COMPOSES.search(bare) else None
        found = found or (shortened_word(words, directory, text) if SHORTENS.search(bare) else
                          None)
    if found is None and "--target-dir" in bare:  # (session 47: in a guarded target/ only)
        found = unguarded_target(words, moved_folders(text, directory) if directory else None)
    if found is None and any(name in bare for name in _OWN):
        from .ownsettings import own_settings
        found = own_settings(words, bare)
    return found
