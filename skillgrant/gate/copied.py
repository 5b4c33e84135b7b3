"""A copy out of a guarded folder reads it (review s45 P2; session 46's costs).

``named.named_word`` and ``writers.tree_word`` stop a word naming a path in a guarded folder
unless every program holding it only reads. ``cp``'s sources are read: ``cp /etc/hosts out/``
as root (``/etc`` guarded whole), ``cp target/release/app out/`` (cargo's ``target/``, whose
compiled build scripts ``cargo build`` runs, is guarded) write only the last operand, or the
``-t`` folder. ``written`` asks both again without the words that are only such sources:
each one a literal operand of ``cp`` in every simple command holding it, never a link made
of it (``-l``, ``-s``), a backup, a composed name (``--parents``), or held by any other word
of the text; holding nothing guarded, no walked-up name (``cp -r m sub``: ``m/.cargo``, s44
P10), no module folder's standard names, no test from elsewhere (s50). Else: still judged."""

from __future__ import annotations

import functools
import os
import posixpath
from collections.abc import Callable
from contextvars import ContextVar

from ..lazy import compile_on_use
from . import files as fs
from .gitrevision import from_revision
from .named import GUARDED, folded_items, guarded_path, named_word
from .placed import fold, holds_module, in_worktree, mirrored
from .pymodule import module_path
from .testfiles import foreign, named_test
from .testlinks import holds_through_links
from .worktree import pushes_locally
from .wrapped import READERS
from .writers import tree_word

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def written(words: list[str], directory: str | None, text: str, bare: str) -> str | None:
    """``named_word``, then ``tree_word`` of ``words`` (the guard's words of ``text``), then
    ``brought_tests`` and ``from_revision`` (git's pathspecs from a revision); for a text
    holding ``cp``, once more without the words it only copies out (``read_sources``)."""
    kept = functools.partial(_names_kept, text)  # (asked once, if a walk would be)
    touch: Callable[[str], bool] = functools.partial(touches, names_kept=functools.cache(kept))
    found = named_word(words, directory, text) or tree_word(_stdin_apart(_no_subcommand(
        words, text) if "install" in bare else words, text), directory, touch) or \
        _brought(text, directory) or \
        from_revision(words, directory, lambda p: touch(p) or guarded_path(p) is not None)
    if "cp" not in bare or directory is None:
        return found
    if found is None:
        return through_links(text, directory, words)
    sources = read_sources(text, directory)
    if not sources or found not in sources:
        return found
    rest = [w for w in words if w not in sources]
    return named_word(rest, directory, text) or tree_word(rest, directory, touch) or \
        _brought(text, directory) or through_links(text, directory, rest)  # (T9: s53)


def _stdin_apart(words: list[str], text: str) -> list[str]:
    """``words`` less those of its here-strings and here-documents (a program's standard
    input, no word of it: `git config k v<<<--get` writes; review s48-greview G2), as bash
    reads them (``folded.tree_commands``); each such word once. A text holding ``<<`` that
    bash's reading does not give keeps ``--get``/``--list`` words out too (writers' reads)."""
    if "<<" not in text:
        return words
    from .folded import BODY, tree_commands

    commands = tree_commands(text)
    if commands is None:
        return [w for w in words if not w.startswith(("--get", "--list", "-l"))]
    kept = list(words)
    for command in commands:
        for word in command[command.index(BODY) + 1:] if BODY in command else ():
            if word in kept:
                kept.remove(word)
    return kept


#: pip's names (a version after it), and what may give a name another program in the text.
_PIP: Final = compile_on_use(r"pip[0-9.]*")
_RENAMING: Final = ("{", "$", "`", "\\", "alias", "function", "()")
def _no_subcommand(words: list[str], text: str) -> list[str]:
    """``words`` less the word ``install`` where each one is pip's subcommand, in a simple
    command ``readers.named_commands`` reads (no name set, fed or renamed), its program
    ``pip`` or ``python -m pip``: coreutils' ``install`` (a folder writer, ``writers``) is
    not run (review s46 COST C-pip: ``pip install -r requirements.txt`` under its own entry
    was denied, the file being guarded as one the plan's pip reads)."""
    from . import readers

    commands = None if any(r in text for r in _RENAMING) else readers.named_commands(text)
    if commands is None:
        return words
    for command in commands:
        held = [w for w in command if "install" in w]
        if not held:
            continue
        run = readers.program_words(command) or ("",)
        name = run[0].rsplit("/", 1)[-1]
        at = 3 if run[1:3] == ("-m", "pip") and name[:6] == "python" else int(
            _PIP.fullmatch(name) is not None)
        if not at or held != ["install"] or run[at:at + 1] != ("install",) or not _pip_reads(
                run[at + 1:]):
            return words
    return [w for w in words if w != "install"]


def through_links(text: str, directory: str, words: list[str]) -> str | None:
    """A source of a ``cp`` of ``text`` whose copy is written through a link in its
    destination (``out/python3`` made by an earlier ``cp -P``, review s46-greview2 T1; for a
    folder, a link anywhere below the folder it makes, ``out/bin/python3`` after ``cp -r
    .venv/bin out/``, review s47 N1) to a guarded item, or may be (past the call's entries).
    Where the text's commands are not read, each of ``words`` naming a folder is such a
    destination."""
    from . import readers

    commands = readers.named_commands(text)
    if commands is None:
        return next((w for w in words if _through(posixpath.join(directory, w), True)), None)
    for command in commands:
        run = readers.program_words(command)
        parts = _parts(list(run[1:])) if run and run[0] in _CP else None
        if parts is None:
            continue
        sources, folder, whole = parts
        into = posixpath.join(directory, folder)
        if not whole and not os.path.isdir(into):
            continue
        for source in dict.fromkeys(sources):
            path = posixpath.join(directory, source)
            inside = whole or source.rstrip("/")[-2:] in ("/.", ".")  # (its entries, into)
            if _through(into if inside else posixpath.join(
                    into, posixpath.basename(source.rstrip("/"))), os.path.isdir(path)):
                return source
    return None


def _parts(args: list[str]) -> tuple[list[str], str, bool] | None:
    """The sources of ``cp`` given ``args``, the folder it copies them into (``-t``, or the
    last operand of several), and whether that operand is the copy itself (``-T``); None
    when it copies into no folder, or is not read."""
    from .optables import TABLES, Doubt, read_options

    try:
        read = read_options("cp", TABLES["cp"], [None if w[:1] in "*?[" else w for w in args])
    except Doubt:
        return None
    folder = [v for name, v in read.options if name == "target-directory" and v]
    operands = [o for o in read.operands if o]
    whole = any(name == "no-target-directory" for name, _ in read.options)
    if folder:
        return operands, folder[0], False
    return (operands[:-1], operands[-1], whole) if len(operands) > 1 else None


def _through(root: str, tree: bool) -> bool:
    """Whether ``root`` (what a copy writes) is a link to a guarded item, or for a ``tree``
    holds one below it, not following links (each entry taken from the call's ``Walks``:
    past them, it may)."""
    if _linked_guarded(root):
        return True
    if not tree or os.path.islink(root) or not os.path.isdir(root):
        return False
    walks = WALKS.get() or Walks()
    fs.unkept()  # (what the folder holds now)
    stack = [root]
    while stack:
        try:
            with os.scandir(stack.pop()) as entries:
                for entry in entries:
                    walks.left[0] -= 1
                    if walks.left[0] < 0:
                        walks.over = walks.over or root
                        return True
                    if entry.is_symlink():
                        if _linked_guarded(entry.path):
                            return True
                    elif entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
        except OSError:
            return True
    return False


def _linked_guarded(path: str) -> bool:
    """Whether ``path`` is a link leading to a guarded item (or into one)."""
    if not os.path.islink(path):
        return False
    return guarded_path(real := fs.realpath(path)) is not None or touches(real)


def touches(path: str, names_kept: Callable[[], bool] | None = None) -> bool:
    """Whether ``path`` is a guarded file or folder, holds one, or lies in a guarded folder,
    or holds a walked-up settings name (``walked``, review s44 P10) unless ``names_kept``
    says the command puts no tree's names elsewhere."""
    key = fold(path)  # (a file system that folds case: review s45 X1, s46 X2)
    above = key.rstrip("/") + "/"
    if any(key == item or item.startswith(above) or (tree and key.startswith(item + "/") and (
            not in_worktree(key, item) or touches(mirrored(key, item), names_kept)))
           for item, tree in folded_items()) or holds_module(path, GUARDED.get()):
        return True  # (a worktree's path, as its main tree's: review s46 W1)
    names = getattr(GUARDED.get(), "walked", ())
    if not names or (names_kept is not None and names_kept()):
        return False
    return walked(path) or holds_through_links(  # (sub/Makefile -> ../shared/rules: L2)
        key, GUARDED.get(), frozenset(fold(n) for n in names))


class Walks:
    """One call's walks for a walked-up settings name (review s46-greview2 W1-walk): each
    folder's answer by its real path, the entries all walks may still look at
    (``composed.CALL_ENTRIES``), and the first path not looked at whole past them."""

    __slots__ = ("answers", "left", "over")

    def __init__(self) -> None:
        from .composed import CALL_ENTRIES

        self.answers: dict[str, bool] = {}
        self.left = [CALL_ENTRIES]
        self.over: str | None = None


#: The walks of the call being decided (``one_call``); None outside one: each walk alone.
WALKS: ContextVar[Walks | None] = ContextVar("walks", default=None)


def one_call(find: Callable[[str, str | None], str | None], text: str,
             directory: str | None) -> str | None:
    """``find(text, directory)`` (the guard's word) with one ``Walks`` for all its walks;
    a word found past their entries says so."""
    if WALKS.get() is not None:
        return find(text, directory)
    walks = Walks()
    token = WALKS.set(walks)
    try:
        found = find(text, directory)
    finally:
        WALKS.reset(token)
    if found is None or walks.over is None:
        return found
    from .composed import CALL_ENTRIES

    return (f"{found} (the call's folders hold more than the {CALL_ENTRIES:,} entries one call "
            f"looks at for a settings folder a plan's program finds walking up, such as "
            f".cargo; {walks.over} was not looked at whole)")


def walked(path: str) -> bool:
    """``composed.holds_walked`` of the folder ``path``, once a real folder a call (a folder
    in one found to hold none holds none), on the call's ``Walks``."""
    from .composed import holds_walked

    walks = WALKS.get() or Walks()
    real = fs.realpath(path)
    found = walks.answers.get(real)
    if found is None:
        up = real
        while found is None and up.count("/") > 1:
            up = posixpath.dirname(up)
            found = False if walks.answers.get(up) is False else None
        if found is None:
            found = holds_walked(real, walks.left)
            if walks.left[0] < 0:
                walks.over = walks.over or path
        walks.answers[real] = found
    return found


#: Programs that remove what their words name or change its modes, and put no name of a tree
#: elsewhere: a walked-up settings name inside a tree they are given is no concern (issue 29,
#: a cost: ``rm -rf node_modules`` walked it).
_KEEP_NAMES: Final = frozenset({"rm", "rmdir", "unlink", "shred", "chmod", "chown", "chgrp",
                                "setfacl", "touch", "truncate", "mkdir"})


def _names_kept(text: str) -> bool:
    """Whether each simple command of ``text`` (read as bash reads it) is a program of
    ``_KEEP_NAMES`` or a reader, or a redirection."""
    from . import readers

    commands = readers.named_commands(text)
    if commands is None:
        return False
    for command in commands:
        words = readers.program_words(command)
        if command[0] != ">" and (words is None or not words or (
                words[0] not in _KEEP_NAMES and words[0] not in READERS)):
            return False
    return True


#: What a source may be written as: a literal path, a pattern only in its last part.
_PLAIN: Final = compile_on_use(r"[A-Za-z0-9_.+%,:@/][A-Za-z0-9_.+%,:@/-]*"
                               r"(?:/[A-Za-z0-9_.+%,:@*?-]*)?")
#: cp's options under which a source is not only read, or a name is composed: a link made of
#: it (a write to the copy writes it), a backup's suffix, ``--parents``' path.
_NOT_READ: Final = frozenset({"link", "symbolic-link", "backup", "b", "suffix", "parents",
                              "help", "version"})
_CP: Final = frozenset({"cp", "/bin/cp", "/usr/bin/cp"})


def read_sources(text: str, directory: str) -> frozenset[str]:
    """The words of ``text`` that are only ``cp``'s sources, whose paths (from
    ``directory``) ``held`` finds nothing guarded in."""
    if os.environ.get("POSIXLY_CORRECT") is not None or any(
            move in text for move in ("cd", "pushd", "popd")):
        return frozenset()  # (options read after an operand; a source read from elsewhere)
    from . import readers  # (for a text holding cp, whose words the guard stopped)

    commands = readers.named_commands(text)
    if commands is None:
        return frozenset()
    sources: set[str] = set()
    others: list[str] = []
    for command in commands:
        words = readers.program_words(command)
        found = _sources(list(words[1:])) if words and words[0] in _CP else None
        if words is None or found is None:
            others += command
            continue
        others += command[:len(command) - len(words)]
        sources |= found[0]
        others += found[1]
    return frozenset(w for w in sources if _PLAIN.fullmatch(w) and ".." not in w.split("/")
                     and not any(w in o for o in others) and not held(w, directory)
                     and not os.path.islink(posixpath.join(directory, w)))  # (a copy of a
    # link may be a link, written through later: review s46-greview2 T1)


def _sources(args: list[str]) -> tuple[set[str], list[str]] | None:
    """The sources of ``cp`` given ``args``, and its other words (its destination, its
    options' values); None when the options are not read, or a source may be written."""
    from .optables import TABLES, Doubt, read_options

    first = next((i for i, w in enumerate(args) if w[:1] != "-" or w == "-"), len(args))
    if any(w[:1] == "-" and w != "-" for w in args[first:]):
        return None  # (an option after an operand is one to BSD's cp: review s46 T2)
    try:  # (a pattern where an option may stand may become one)
        read = read_options("cp", TABLES["cp"], [
            None if w[:1] in "*?[" else w for w in args])
    except Doubt:
        return None
    if any(name in _NOT_READ for name, _ in read.options) or None in read.operands:
        return None
    folder = [v or "" for name, v in read.options if name == "target-directory"]
    operands = [o or "" for o in read.operands]
    if not folder and len(operands) < 2:
        return None  # (one operand: cp copies nothing)
    values = [v or "" for _, v in read.options]
    return set(operands if folder else operands[:-1]), [
        *values, *([] if folder else operands[-1:]), "--"]


def held(word: str, directory: str) -> bool:
    """Whether the path ``word`` names from ``directory`` (a pattern: the folder before it)
    holds a guarded item below it, a walked-up settings name at or below it, or a module
    folder's standard names."""
    path = posixpath.normpath(posixpath.join(directory, word))
    if "*" in word or "?" in word:
        path = posixpath.dirname(path)
    names: frozenset[str] = getattr(GUARDED.get(), "walked", frozenset())
    last = fold(posixpath.basename(word.rstrip("/")))  # (the name the copy makes: its last
    if last in names or (named_test(last, GUARDED.get()) and foreign(path, GUARDED.get())) or (
            names and (last in ("head", "commondir") or module_path("/" + last))):
        return True  # part; `cp -r src/.cargo sub/`; a test: s50-gfix2; `cp a/HEAD sub/`: s55)
    for form in dict.fromkeys((path, fs.realpath(path))):
        above = fold(form).rstrip("/") + "/"
        if any(item.startswith(above) for item, _ in folded_items()) or holds_module(
                form, GUARDED.get()) or walked(form):
            return True
    return False


def local_push(words: list[str], directory: str | None) -> str | None:
    """``push`` when the command may run ``git push`` to a repository on this machine (its
    hooks run: review H-1), or when the gate cannot tell (no folder)."""
    for i, word in enumerate(words[:-1]):
        if word.rsplit("/", 1)[-1] == "git" and "push" in words[i + 1:i + 8]:
            at = words.index("push", i + 1)
            operand = next((w for w in words[at + 1:] if not w.startswith("-")), None)
            if directory is None or pushes_locally(directory, operand):
                return "push"
    return None


def _brought(text: str, directory: str | None) -> str | None:
    """``intotests.brought_tests``, loaded only under a plan collecting tests or reading code."""
    if not (getattr(GUARDED.get(), "collected", None) or getattr(GUARDED.get(), "walked", 0)):
        return None
    from .intotests import brought_tests  # (the hook's start does not pay for it)
    return brought_tests(text, directory)


def _pip_reads(words: tuple[str, ...]) -> bool:
    """``pipreads.pip_reads``, loaded for a pip install only."""
    from .pipreads import pip_reads
    return pip_reads(words)

