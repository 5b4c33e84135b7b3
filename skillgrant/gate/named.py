"""The guarded set as one index (``GUARDED``), and the words of a command naming what is in it.

``GUARDED`` holds the files and folders the gate itself, the runtime or git reads or runs
from (``guards.guarded_items``), as real paths. A word naming a guarded file is ``unknown``
for any program; a word naming a path in a guarded folder, or one the gate cannot name, only
where a program may write it (``readers``; review s41 W2).
"""

from __future__ import annotations

import fnmatch
import os
import posixpath
import re
import types

from ..lazy import compile_on_use
from . import files as fs
from .below import under
from .guardedset import GUARDED as GUARDED  # (its home: readers reads it too)
from .keptests import kept_tests
from .moves import moved_folders
from .placed import fold, folded_tables, in_worktree, mirrored, shadows
from .testfiles import KEPT_TESTS, collected, named_test
from .testlinks import read_at_any_depth
from .writers import BASH_CLASS, braced

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final



def guarded_path(path: str) -> str | None:
    """The first of ``GUARDED`` ``path`` is, lies in, or (a file) is a hard link to, or None.
    A path that cannot be examined, or inside a ``.git`` folder (when something is guarded:
    s41 N1, a nested repository's configuration and hooks), is its own answer."""
    if GUARDED.get() and "/.git/" in fold(path) + "/":
        return path
    return _indexed().find(path, files_only=False)


def planned_only(path: str) -> bool:
    """Whether every guarded item ``path`` is, lies in or is a link of is one a plan's
    program reads (``Guarded.planned``), which the plan's own Edit grant may cover (review
    s45, a cost: ``Edit(tests/**)`` beside ``Bash(pytest tests)``)."""
    guards = GUARDED.get()
    from .nested import Guarded, planned_of

    planned = planned_of(guards)
    if not planned or "/.git/" in path + "/":
        return False
    kept = _OTHERS[0]
    if kept is not None and kept[0] is guards:
        others = kept[1]
    else:  # made once for the set (issue 29); the start names guarded at any depth are
        # what plan programs read, the settings found walking up no Edit grant's (s45, s53)
        others = Index(Guarded([g for g in guards if g[0] not in planned], always=(),
                               tops=frozenset(), modules=getattr(guards, "modules", frozenset()),
                               walked=getattr(guards, "found_up", frozenset())))
        _OTHERS[0] = (guards, others)
    return others.find(path, files_only=False) is None


#: ``planned_only``'s index of what no plan's program reads, and the set it was made of.
_OTHERS: list[tuple[object, Index] | None] = [None]


class Index:
    """``GUARDED``, arranged for one lookup a question: each item's first place by its path,
    and a folder's by the path it is a prefix of; the files' names, and their identities
    (asked once, at the first question that needs them)."""

    def __init__(self, guards: tuple[tuple[str, bool], ...]) -> None:
        self.guards = guards
        (self.exact, self.files, self.trees, self.folded, self.folded_files,
         self.names) = folded_tables(guards)  # (`.CLAUDE/` is `.claude/` where case folds)
        # A path's part ending in a name with a dot (`x/-oplan.json`), or equal to one without
        # (`/etc/profile`); a word without a slash is read from the call's folders (`_found`),
        # so `--profile`, `git log -- settings.json` and `out/plan.json.bak` hold none (review
        # s44 C14). The dotted names' one search is compiled for the first such word.
        self._dotted = sorted(name for name in self.names if "." in name)
        self._plain = frozenset(name for name in self.names if "." not in name)
        self._search: Callable[[str], object] | None = None
        self._identities: dict[tuple[int, int], int] | None = None
        self.modules: frozenset[str] = getattr(guards, "modules", frozenset())
        self.walked = frozenset(fold(n) for n in getattr(guards, "walked", ()))

    def named(self, word: str) -> bool:
        """Whether ``word`` holds one of the guarded files' names (as ``__init__`` says)."""
        if "/" not in word:
            return False
        parts = fold(word).split("/")
        if "." in word and self._dotted:
            if self._search is None:
                self._search = re.compile(
                    "(?:" + "|".join(map(re.escape, self._dotted)) + r")\Z").search
            if any(self._search(part) is not None for part in parts):
                return True
        return not self._plain.isdisjoint(parts) or named_test(parts[-1], self.guards)

    def find(self, path: str, *, files_only: bool) -> str | None:
        """The first item that ``path`` is (of the files only: ``files_only``), lies in (a
        folder), or is a hard link to (a file); None when there is none."""
        places = []
        key = fold(path)
        at = (self.folded_files if files_only else self.exact).get(key)
        if at is not None:
            places.append(at)
        end = len(key)
        while self.trees and not files_only and (end := key.rfind("/", 0, end)) >= 0:
            at = self.folded.get(key[:end])  # `path` starts with this folder and a slash
            if at is not None and (not in_worktree(key, key[:end]) or self.find(
                    mirrored(key, key[:end]), files_only=False) is not None):  # (s46 W1)
                places.append(at)
        if places:
            return self.guards[min(places)][0]
        if not files_only and ((self.modules and shadows(path, self.modules)) or collected(
                key, self.guards) or (self.walked and under(key, self.walked, KEPT_TESTS.get()))
                or read_at_any_depth(path, key, self.guards, self.walked,
                                     KEPT_TESTS.get())):
            return path  # (a test collected below; a settings folder found walking up: s44 P10)
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


def folded_items() -> list[tuple[str, bool]]:
    """``GUARDED``'s items in lower case (s45 X1), made once for the set."""
    guards = GUARDED.get()
    if _FOLDED[0] is not guards:
        _FOLDED[:] = [guards, [(fold(item), tree) for item, tree in guards]]
    return _FOLDED[1]  # type: ignore[return-value]


_FOLDED: list[object] = [None, []]


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
    return index.named(word) or (
        _GLOB.search(word) is not None and any(fnmatch.fnmatchcase(name, _last(word))
                                               for name in index.names))


def _last(word: str) -> str:
    return word.rstrip("/").rsplit("/", 1)[-1]


#: What ``_found`` answers for a path the gate cannot name.
_ANYWHERE = ""


def named_word(words: list[str], directory: str | None, text: str) -> str | None:
    """A word of the shell command ``text`` (its ``words``, quotes removed) naming a guarded
    file (any program may write what its words name: ``cp``, ``tee``, ``sed -i``; review
    W1b), or a path in a guarded folder or one the gate cannot name that a program of
    ``text`` may write (``readers.writer_of``; review s41 W2). A program's words may name the
    skill's own scripts and the project's venv, which a command may run. A relative path is
    read from the call's folder and from each one a ``cd``, ``pushd`` or ``-C`` of the text
    moves to (review s42 W6)."""
    index = _indexed()
    return held_word(words, directory, text, index) if index.files else None


def held_word(words: list[str], directory: str | None, text: str, index: Index) -> str | None:
    """``named_word``'s answer of the guarded ``index`` (``writeguard``'s too: the folders
    make's doubts write-guard, of the words no exact entry of the plan names)."""
    folders = _folders(text, directory)
    doubtful = ["`"] if "`" in text else []  # `pwd`/.claude/…: a word made of a command (GF6)
    kept = KEPT_TESTS.set(kept_tests(text))  # (a test removed or formatted: s50-greview3 K1)
    listed, _LISTED[0] = _LISTED[0], {}  # (each folder a pattern lists, once: T8)
    try:  # (each word asked once: a here-document's 30,000 lines took minutes, s58-hreview T1)
        asked = {word: _doubtful(word, folders, index) for word in dict.fromkeys(words)}
    finally:
        KEPT_TESTS.reset(kept)
        _LISTED[0] = listed
    doubtful += [word for word in words if asked[word]]
    return _readers().writer_of(text, doubtful) if doubtful else None


def _doubtful(word: str, folders: list[str] | None, index: Index) -> bool:
    """Whether ``held_word`` asks who writes ``word``: a form (``braced``, s42 W7) may expand to
    a guarded name (W1c, s44 C13) or names one, or a path the gate cannot name; a NUL, none."""
    forms = braced(word)
    return any(_names(form, index) for form in forms) or ("\x00" not in word and (
        _UNNAMEABLE.search(word) is not None or any(  # (before braced's rewrite)
            [_found(form, folders, index) is not None for form in forms])))


def _folders(text: str, directory: str | None) -> list[str] | None:
    """The folders the relative words of ``text`` may be read from: ``directory`` and each
    one a move of the text names (``moves.moved_folders``); None when one cannot be named, or
    a program word may be a ``cd`` the moves do not see (``readers.programs_named``). The
    cheap tests first: most commands hold neither a move nor an indirect program."""
    if directory is None:
        return None
    moved = moved_folders(text, directory) if any(move in text for move in _MOVING) or \
        _QUOTED.search(text) else [directory]
    if isinstance(moved, str):
        return None
    if any(sign in text for sign in _INDIRECT_SIGNS) and not _readers().programs_named(text):
        return None
    if any(runner in text for runner in ("npm", "pnpm", "yarn")):  # a package's script runs
        # in its root, the nearest folder above holding package.json, and reads its words
        # from there (`npm run build -- project/.claude/…` from a workspace: review s44 M9)
        moved = list(dict.fromkeys(
            moved + [up for folder in moved for up in above(folder)]))
    return moved


def above(folder: str) -> list[str]:
    """The folders above the absolute ``folder``, nearest first, up to the root."""
    found = []
    while (parent := posixpath.dirname(folder)) != folder:
        found.append(parent)
        folder = parent
    return found


def _readers() -> types.ModuleType:
    """``gate/readers.py``, imported when a command needs it (most calls name no guarded
    folder: the hook's start does not pay for it)."""
    from . import readers

    return readers


#: What a command whose program may be other than a literal word holds (``programs_named``).
_INDIRECT_SIGNS: Final = ("$", "`", "eval", "source", "builtin", "command", "exec", ". ")
#: A quote or a backslash, which may spell a move (`"c"d`, `c\\d`: review s42 GF11).
_QUOTED: Final = compile_on_use(r"['\"\\\\]")
#: A word that may move the folder a command's later words are read from (``moves._MOVES``).
_MOVING: Final = ("cd", "pushd", "popd", "C", "--c", "--d", "--git-dir", "--work-tree",
                  "GIT_", "-w", "--w", "--p", "-D")  # (`C`: `-C`, a cluster `-vC..`; `--c`, `--d`:
# `--chdir`'s, `--directory`'s prefixes: M2, s44 M2c; `-w`, `--w`: `unshare -w`, `--wd`,
# `--working-directory`: s44 M3; `--p`: npm's `--prefix`, M9; `-D`: `sudo -D DIR`, s50)


#: What makes a word a path the gate cannot name: an expansion (``$``, a backtick: review s42
#: GF6), a response file whose words a program reads as its own (``@FILE``, in an option's value
#: too: ``-Wl,@args``; W5, W11), a brace sequence (``{e..e}``: GF2), a folder of the process
#: asking (``/proc/self/cwd``, ``/dev/fd``: the hook's or the service's, not bash's; GF1b).
_UNNAMEABLE: Final = compile_on_use(r"[$`]|^@|^-.*[,=]@|\{[^{}]*\.\.[^{}]*\}|/proc/|/dev/fd")


def _found(word: str, folders: list[str] | None, index: Index) -> str | None:
    """The guarded item ``word`` names (``Index.find``) read from any of ``folders``, or
    may name once expanded (a pattern reaching a guarded folder); ``_ANYWHERE`` for a path
    the gate cannot name (``_UNNAMEABLE``, ``~user``, a relative path from no known folder, a
    pattern before a ``..``); for a short option, also its attached value's, and for any
    word, what follows each comma (``-Wl,``'s list)."""
    if _UNNAMEABLE.search(word) or (word[:1] == "~" and word != "~" and word[:2] != "~/") or (
            "[" in word and (BASH_CLASS.search(word) or word.count("[") > word.count("]"))):
        return _ANYWHERE  # an expansion, `~+`, a response file, a brace sequence; a bracket
        # expression Python's glob does not read as bash (`[^x]`, `[x[:alpha:]]`, one cut
        # at its `=` by the guard's words: review s43 G1)
    if word[:1] == "~":
        word = os.path.expanduser("~") + word[1:]
    short = word[:1] == "-" and word[1:2] not in ("-", "")
    if short and len(word) > _MAX_TAILS:
        return _ANYWHERE  # its tails are not all read (review s43 N1)
    forms = [word] + [word[k:] for k in range(2, len(word))] if short else [word]
    forms += [word[k + 1:] for k, c in enumerate(word) if c == ","]  # `-Wp,-DA=1,-o,PATH`:
    # `_TOKEN` splits at `=`, leaving `1,-o,PATH` (N1)
    for form in forms:
        if folders is None and form[:1] != "/":
            return _ANYWHERE
        # posixpath.join's answer, as a word's one concatenation (it costs a microsecond)
        for folder in folders if form[:1] != "/" and folders else [""]:
            full = form if not folder else folder + form if folder[-1] == "/" \
                else folder + "/" + form
            try:
                found = _glob_found(full, index) if _GLOB.search(form) else _path_found(
                    full, index, probe=form is word or "/" in form)
            except (ValueError, OSError):  # a surrogate or a NUL: no name the gate reads
                return _ANYWHERE
            if found is not None:
                return found
    return None


def _path_found(full: str, index: Index, *, probe: bool) -> str | None:
    """The item the path ``full`` is or lies in, by its normal form, then its real path (for
    an option's attached value without a slash, only when it is a link)."""
    named = posixpath.normpath(full)
    if named.startswith(("/proc/", "/dev/fd")):
        return _ANYWHERE  # the asking process's own folders, reached by a pattern or `..`
        # (`/pro?/self/cwd`: review s44 GF1c), as `_UNNAMEABLE`'s
    found = index.find(named, files_only=False)
    if found is None and (probe or fs.entry(full) == "link"):
        real = fs.realpath(full)
        if real != named:
            found = index.find(real, files_only=False)
    return found


#: The longest short option whose attached tails are each read as a path.
_MAX_TAILS: Final = 256
#: Pattern levels a word may have for the disk to be asked what it matches.
_MAX_LEVELS: Final = 3
#: Paths a pattern matches that are looked at; past it, the pattern is a path the gate cannot
#: name.
_MAX_MATCHES: Final = 256


#: The folders listed during the call ``held_word`` asks about (``globbed.globbed``'s
#: memo; None outside one).
_LISTED: list[dict[object, object] | None] = [None]


def _glob_found(full: str, index: Index) -> str | None:
    """For a pattern: the item a path it matches now is or lies in (through a link too), the
    item its folder before the first pattern lies in, or the first item below that folder
    whose next part the pattern may match once it exists (bash matches a leading dot only
    with a dot)."""
    from .globbed import globbed, may_be_process_folder  # (only for a pattern word)

    parts = full.split("/")
    at = next(i for i, part in enumerate(parts) if _GLOB.search(part))
    if ".." in parts[at:] or sum(_GLOB.search(p) is not None for p in parts) > _MAX_LEVELS \
            or may_be_process_folder(posixpath.normpath("/".join(parts[:at]) or "/"),
                                     parts[at:]):
        return _ANYWHERE  # `s*/../.claude/…`: what the pattern matches, then up (W8); a
        # pattern of many levels costs folders to the power of its levels (s43 T1);
        # `/pro?/self/cwd`, matched here in the gate's process (s44 GF1c)
    fs.unkept()  # what the pattern matches now (a link `lnk -> .claude/hooks`: GF1)
    matches = globbed(parts, at, _LISTED[0] if _LISTED[0] is not None else {})
    if matches is None or len(matches) > _MAX_MATCHES:
        return _ANYWHERE
    for match in matches:
        found = _path_found(match, index, probe=True)
        if found is not None:
            return found
    head = posixpath.normpath("/".join(parts[:at]) or "/")
    for folder in dict.fromkeys((head, fs.realpath(head))):
        found = index.find(folder, files_only=False)
        if found is not None:
            return found
        above = folder.rstrip("/") + "/"
        for item, _tree in index.guards:
            if item.startswith(above):
                first = item[len(above):].split("/", 1)[0]
                if any(fnmatch.fnmatchcase(first, form) and (
                        first[:1] != "." or form[:1] == ".") for form in braced(parts[at])):
                    return item
    return None
