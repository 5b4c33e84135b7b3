"""Where git and Claude Code look for a folder's repository: its git folder and common folder
(a linked worktree's ``.git`` file names them), the canonical git root whose
``.claude/settings.local.json`` Claude Code 2.1.332 reads in a session started in the folder
(review S-1, S-2: local settings are canonicalised to the repository's root, for a linked
worktree its main checkout; measured through the runtime by the reviewer, and its
``disableAllHooks`` switched the hooks off; review G-12: the gate guards it), and the hooks
folder git's configuration names (``core.hooksPath``, husky's ``.husky``; review G-10)."""

from __future__ import annotations

import os
from contextvars import ContextVar

from ..lazy import compile_on_use
from . import files as fs

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
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
#: Parts of the names of the settings whose value git runs, or names a program git runs (git
#: config's manual: ``core.fsmonitor``, ``core.sshCommand``, ``core.askPass``,
#: ``core.gitProxy``, ``core.pager``, ``core.editor``, ``sequence.editor``,
#: ``credential.helper``, ``diff.external``, ``diff.<driver>.textconv``/``command``,
#: ``filter.<driver>.clean``/``smudge``/``process``, ``merge.<driver>.driver``,
#: ``gpg.program``, ``alias.*`` with ``!``, ``*.cmd``, ``*.path`` of the tools,
#: ``imap.tunnel``, ``remote.<name>.uploadpack``/``receivepack``,
#: ``uploadpack.packObjectsHook``, ``submodule.<name>.update`` (a command after ``!``),
#: ``sendemail.smtpServer``, the browsers and viewers; ``init.templateDir``, whose hooks
#: ``git init`` copies: review s40 R12). Compared in lower case, as parts: a file that
#: mentions none on a line whose value may name a file is not asked about (``_mentions``;
#: review F15): a value of one word without a slash is a program looked up on ``PATH``, whose
#: folders are guarded; a second word may name a file (``sh x.sh``: review s40 R11). (Not
#: ``update``: a new repository's ``logAllRefUpdates`` holds it; an update that runs a
#: command has a ``!``.)
_RUNS: Final = (b"fsmonitor", b"command", b"cmd", b"askpass", b"proxy", b"pager", b"editor",
                b"helper", b"textconv", b"external", b"clean", b"smudge", b"process",
                b"driver", b"program", b"alias", b"tunnel", b"pack", b"hook", b"browser",
                b"viewer", b"httpd", b"smtpserver", b"path", b"sendmail", b"template",
                b"!")


def repository(folder: str) -> tuple[str, str, str] | None:
    """The repository holding ``folder``: its top folder, its git folder and its common git
    folder (the same as the git folder but in a linked worktree); None outside one. Raises
    ValueError when a ``.git`` file cannot be read. (``os.path`` only: the hook runs it on
    every call, and loads no more than deciding needs. The filesystem is asked through the
    gate's view, ``gate.files``.)"""
    top = os.path.abspath(folder)
    while True:
        dot_git = os.path.join(top, ".git")
        kind = fs.entry(dot_git)
        if kind == "link":  # where it leads is no entry of this folder's
            fs.unkept()
            kind = "dir" if os.path.isdir(dot_git) else "file"
        if kind == "dir":
            return top, dot_git, dot_git
        if kind is not None:
            return _linked(top, dot_git)
        parent = os.path.dirname(top)
        if parent == top:
            return None
        top = parent


def _linked(top: str, dot_git: str) -> tuple[str, str, str]:
    """The repository of a ``.git`` file (a linked worktree's or a submodule's)."""
    try:
        text = fs.read(dot_git, _MAX_CONFIG).decode("utf-8")
        if not text.startswith("gitdir: "):
            raise ValueError("no gitdir line")
        git_dir = os.path.join(top, text[len("gitdir: "):].strip())
        common_file = os.path.join(git_dir, "commondir")
        try:
            named = fs.read(common_file, _MAX_CONFIG).decode("utf-8")
        except (FileNotFoundError, NotADirectoryError):
            return top, git_dir, git_dir  # a submodule's own repository
        named = named.strip()
        # `../..` from the real git folder, as the system reads it (a view can keep that)
        common = fs.realpath(os.path.normpath(os.path.join(fs.realpath(git_dir), named))
                             if fs.dots_lead(named) else os.path.join(git_dir, named))
    except (OSError, ValueError) as e:
        raise ValueError(f"{dot_git}: the linked worktree's repository cannot be read "
                         f"({e})") from e
    return top, git_dir, common


def main_folder(folder: str) -> str | None:
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
    if os.path.basename(common) != ".git":
        raise ValueError(f"{os.path.join(top, '.git')}: the linked worktree's main checkout "
                         f"is not known (its repository is {common})")
    return os.path.dirname(common)


def main_checkout(folder: str) -> Path | None:
    """``main_folder`` as a path."""
    from pathlib import Path

    found = main_folder(folder)
    return None if found is None else Path(found)


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
    if not any(os.environ.get(name) for name in _GIT_ENV) and not any(
            _mentions(f, _MENTIONS) for f in _config_files(git_dir, common)):
        return None
    # git's `rev-parse --git-path hooks`: core.hooksPath's last value, from the top
    values = [value for _, key, value in _listed(folder, git_dir) if key == b"core.hookspath"]
    if not values:
        return None  # the git folder's own
    answer = os.path.expanduser(values[-1].decode("utf-8", "surrogateescape"))
    if not answer:
        raise ValueError(f"git's hooks folder for {folder} is not known")
    return os.path.join(found[0], answer)


def included_files(folder: str) -> list[str]:
    """The configuration files git reads for a command in ``folder`` when one it reads
    includes another (``include.path``, ``includeIf``): each, from git's own answer (``git
    config --list --show-origin``), as a path from ``folder`` and from the repository's top
    (review H-14: an included file in the working tree is git's configuration too). Raises
    ValueError when git cannot answer."""
    found = repository(folder)
    if found is None:
        return []
    top, git_dir, common = found
    if not any(_mentions(f, (b"include",)) for f in _config_files(git_dir, common)):
        return []
    listed = _listed(folder, git_dir)
    names = {origin[len(b"file:"):].decode("utf-8", "surrogateescape")
             for origin, _, _ in listed if origin.startswith(b"file:")}
    # and every include the files name, whatever its condition (review H-14b: `onbranch:`,
    # `hasconfig:` may become true in a later call)
    for origin, key, value in listed:
        if origin.startswith(b"file:") and _INCLUDE.fullmatch(key):
            base = os.path.dirname(origin[len(b"file:"):].decode("utf-8", "surrogateescape"))
            names.add(os.path.join(base, os.path.expanduser(
                value.decode("utf-8", "surrogateescape"))))
    return [os.path.join(base, name) for name in names for base in (folder, top)]


#: An include's key, as ``git config --list`` gives it (in lower case but the condition).
_INCLUDE: Final = compile_on_use(rb"include(if\..*)?\.path")
#: ``_listed``'s answers while ``asking`` (one git run a repository: review s41 C1).
_ANSWERS: ContextVar[dict[str, list[tuple[bytes, bytes, bytes]]] | None] = ContextVar(
    "answers", default=None)


class asking:  # (a context manager, as contextlib's would make: not loaded here)
    """Within it, git's settings for a repository are asked of git once (``_listed``)."""

    def __enter__(self) -> None:
        self._token = _ANSWERS.set({})

    def __exit__(self, *_: object) -> None:
        _ANSWERS.reset(self._token)


def _listed(folder: str, git_dir: str | None) -> list[tuple[bytes, bytes, bytes]]:
    """git's settings for a command in ``folder`` (whose git folder is ``git_dir``; None:
    outside a repository): each setting's origin, key and value, from ``git config --list
    --show-origin -z`` ([] when git refuses the repository), a file's origin from the root.
    Raises ValueError as ``run_git``."""
    answers = _ANSWERS.get()
    key = git_dir or folder
    if answers is not None and key in answers:
        return answers[key]
    done = run_git(folder, "config", "--list", "--show-origin", "-z")
    fields = (done or b"").split(b"\0")
    here = os.fsencode(folder)
    listed = [(_absolute(origin, here), *entry.partition(b"\n")[::2])
              for origin, entry in zip(fields[0::2], fields[1::2], strict=False)]
    if answers is not None:
        answers[key] = listed
    return listed


def _absolute(origin: bytes, folder: bytes) -> bytes:
    """A ``file:`` origin as a path from the root (git gives one from ``folder``)."""
    if not origin.startswith(b"file:"):
        return origin
    return b"file:" + os.path.join(folder, origin[len(b"file:"):])


def named_programs(folder: str) -> list[tuple[str, bool]]:
    """The files git's settings name as what to run, for a command in ``folder`` (review F15:
    ``core.fsmonitor=tools/x.sh`` runs ``tools/x.sh`` at ``git status``): each word with a
    slash of the value of each setting whose name holds one of ``_RUNS``, from git's own
    answer (``git config --list -z``), as a path from ``folder`` and from the repository's
    top (git runs most from the top); and each word with a dot (``sh x.sh``: review s40
    R11). A word with neither is a program's name, or an option: not a file's. Asked only
    when a configuration file git reads mentions such a setting, or an include, or the
    environment gives git configuration. Each value's words as sh reads them (its quotes and
    backslashes removed: review s40 V2); a word with a pattern (``tools/*``) guards the
    folder it lies in, whole (V1). Pairs of a path and whether it is a folder's tree. Raises
    ValueError when git cannot answer, or a word names a file through a variable other than
    ``HOME``."""
    found = repository(folder)
    # outside a repository, the user's and the system's settings (`init.templateDir`, whose
    # hooks `git init` copies: review s40 R12)
    top, files = (found[0], _config_files(found[1], found[2])) if found is not None else \
        (folder, _global_config_files())
    if not any(os.environ.get(name) for name in _GIT_ENV) and not any(
            _mentions(f, (b"include",), on_lines=_RUNS)  # an include: git reads it (V4)
            for f in files):
        return []
    from .gitvalues import program_file, python_script, shell_words  # (only here: issue 29)

    paths: list[tuple[str, bool]] = []
    for _, key, value in _listed(folder, found[1] if found is not None else None):
        if any(part in key.lower() for part in _RUNS):
            # an alias runs only as `git <alias>`, which the gate denies as a subcommand
            # it does not know: a word it cannot name is then no reason to deny every call
            text = value.decode("utf-8", "surrogateescape")
            if key.lower().startswith(b"credential.") and key.lower().endswith(b".helper") \
                    and not text.startswith("!") and "/" not in text.split(" ", 1)[0]:
                # `helper = store --file x` runs `git credential-store --file x`: the first
                # word is a program's name (git's folders and PATH, both guarded)
                text = text.partition(" ")[2]
            for word in shell_words(text, strict=not key.lower().startswith(b"alias.")):
                paths += program_file(word, folder, top)
    # a Python program run by its `#!` line imports from its folder first (review s41 V7a)
    return paths + [(os.path.dirname(place), True) for path, tree in paths
                    if not tree and python_script(path) for place in (path, fs.realpath(path))]


def untracked_repositories(top: str, *, ignored: bool) -> list[str]:
    """The repositories inside the working tree at ``top`` that its index does not hold,
    which a ``git add .`` makes submodules (review s41 N2c): git's ``ls-files --others``
    lists each as its folder with a slash; the ignored ones too when ``ignored`` (``git add
    -f``). Raises ValueError as ``run_git``."""
    done = run_git(top, "ls-files", "--others", "-z",
                    *(() if ignored else ("--exclude-standard",)))
    return [os.path.join(top, os.fsdecode(entry.rstrip(b"/")))
            for entry in (done or b"").split(b"\0") if entry.endswith(b"/")]


def pushes_locally(folder: str, operand: str | None) -> bool:
    """Whether ``git push`` run in ``folder`` with the repository operand ``operand`` (None:
    the default remote) may push to a repository on this machine, whose ``pre-receive`` and
    ``update`` hooks git then runs (review H-1): a folder that exists, or any remote of the
    repository's configuration whose URL is a local path (read from its text, every
    ``url``/``pushurl`` line: a remote's name is not matched to its section, which only
    widens the answer; with an include, git is asked)."""
    if operand is not None and fs.is_folder(os.path.join(folder, operand)):
        return True
    found = repository(folder)
    if found is None:
        return False
    _, git_dir, common = found
    files = _config_files(git_dir, common)
    if any(_mentions(f, (b"include",)) for f in files):
        answer = run_git(folder, "config", "-z", "--get-regexp", r"^remote\..*\.(push)?url$")
        urls = [e.partition(b"\n")[2] for e in (answer or b"").split(b"\0")]
    else:
        urls = [m.group(1) for f in files[:2] for m in _URL.finditer(_text(f))]
    return any(_local_url(u.decode("utf-8", "surrogateescape").strip().strip('"'))
               for u in urls if u.strip())


#: A ``url = …`` or ``pushurl = …`` line of a git configuration file.
_URL: Final = compile_on_use(rb"(?im)^\s*(?:push)?url\s*=\s*(.*?)\s*$")


def _text(path: str) -> bytes:
    try:
        return fs.read(path, _MAX_CONFIG)
    except OSError:
        return b""


def _local_url(url: str) -> bool:
    """Whether git reads ``url`` as a path on this machine (not ``x://``, not ``host:path``)."""
    if url.startswith("file:"):
        return True
    if "://" in url:
        return False
    return ":" not in url.split("/", 1)[0]


def _config_files(git_dir: str, common: str) -> list[str]:
    return [os.path.join(common, "config"), os.path.join(git_dir, "config.worktree"),
            *_global_config_files()]


def _global_config_files() -> list[str]:
    home = os.path.expanduser("~")
    xdg = os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    return [os.path.join(home, ".gitconfig"), os.path.join(xdg, "git", "config"),
            "/etc/gitconfig"]


def run_git(folder: str, *args: str) -> bytes | None:
    """git's standard output for ``args`` run in ``folder``; None when there is no git, or git
    refuses the repository (it then runs nothing there). Raises ValueError otherwise."""
    import subprocess  # only for a repository configured so

    from .crosscheck import MAY_WAIT, BashNeeded

    fs.unkept()  # what git reads for its answer is not known here
    if not MAY_WAIT.get():  # the service's event loop: asked again from a thread (s41 F6)
        raise BashNeeded(f"git config in {folder}")
    try:
        # safe.directory: the configuration is read whoever owns the repository (the service
        # may run as another user than the session's, whose git reads it: review F9)
        done = subprocess.run([_git(), "-c", "safe.directory=*", *args], cwd=folder,
                              capture_output=True, timeout=30, check=False)
    except FileNotFoundError:
        return None  # no git: no hooks run
    except (OSError, subprocess.SubprocessError) as e:
        raise ValueError(f"git's configuration for {folder} is not known ({e})") from e
    if done.returncode != 0 and b"dubious ownership" in done.stderr:
        return None  # git refuses the repository: it runs no command there, nor a hook
    if done.returncode != 0:
        raise ValueError(f"git's configuration for {folder} is not known (git: "
                         f"{done.stderr.decode('utf-8', 'replace').strip()!r})")
    return done.stdout


def _git() -> str:
    """git, from the system's folders first: not from a folder early on ``PATH`` the call may
    have written (review H-12b); then from ``PATH``'s absolute folders, which the gate guards
    (review H-12d: Nix, conda, Linuxbrew)."""
    import shutil

    absolute = [p for p in os.environ.get("PATH", "").split(":") if p.startswith("/")]
    found = shutil.which("git", path=":".join(["/usr/bin", "/bin", "/usr/local/bin",
                                               "/opt/homebrew/bin", *absolute]))
    if found is None:
        raise FileNotFoundError("git")
    return found


def _mentions(path: str, words: tuple[bytes, ...], *,
              on_lines: tuple[bytes, ...] = ()) -> bool:
    """Whether the configuration file at ``path`` mentions one of ``words`` (in any case), or
    one of ``on_lines`` on a line whose value may name a file (a slash, a backslash, more
    than one word, a path or template setting), a value's lines joined first; or cannot be
    read whole. The file is read once."""
    try:
        text = fs.read(path, _MAX_CONFIG + 1)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as e:  # git would fail on it, or wait (a FIFO: review s40 R5b)
        raise ValueError(f"{path}: git's configuration cannot be read ({e})") from e
    lowered = text.lower()
    if len(text) > _MAX_CONFIG or any(word in lowered for word in words):
        return True
    # git reads CRLF as LF, and a backslash may hide a space or a slash (review s40 V5, V6)
    lines = lowered.replace(b"\r\n", b"\n").replace(b"\\\n", b"").split(b"\n")
    # (a path setting's one relative word, `templateDir = .tmpl`, names a file: review V11)
    return any(any(word in line for word in on_lines) and (
        b"/" in line or b"\\" in line or len(line.partition(b"=")[2].split()) > 1
        or b"template" in line or b"path" in line) for line in lines)
