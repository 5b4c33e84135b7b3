"""Names a program composes from a word (review s45 C1): ``cp -b -S ig x ~/.gitconf`` renames
the old ``~/.gitconf`` to ``~/.gitconfig``; ``sed -iig`` keeps FILE+``ig``; ``split`` writes
PREFIX plus the suffixes it makes. Such a program writes a name no word holds, so each word it
is given stands for every name it begins: one that begins a guarded path (or a name guarded in
a folder, ``named.Index``'s ``walked`` and ``modules``) is a write of it. And a folder a tree
writer copies, holding a settings folder a program finds walking up (``holds_walked``)."""

from __future__ import annotations

import os
import posixpath

from ..lazy import compile_on_use
from . import files as fs
from .below import may_end, rules
from .gitdirs import TREE_NAMES
from .moves import moved_folders
from .named import GUARDED
from .placed import STANDARD, fold, tree_holds
from .pymodule import module_path
from .testfiles import foreign, test_name

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: A program that makes a backup under its destination's name and a suffix (``-b``,
#: ``--backup``, ``-S``/``--suffix`` by any prefix, in a cluster too; patch's ``-z``, ``-B``,
#: ``-Y`` prefixes), sed's in-place copy with a suffix (``-iSUF``, ``-niSUF``,
#: ``--in-place=SUF`` by any prefix), split's and csplit's generated names.
COMPOSES: Final = compile_on_use(
    r"\b(?:cp|mv|install|ln|patch|tar|rsync)\b.*\s(?:-[A-Za-z]*[bSzBY]|--(?:b|su|pr|ba))"
    r"|\bsed\b.*\s(?:-[A-Za-z]*i\S|--in?[a-z-]*=)|\b[gc]?split\b")
#: What a standard module's file may end in past its name (``named._importable``).
_ENDS: Final = (".py", ".pyc", ".so", ".abi3.so", ".cpython-")
_PATTERN: Final = compile_on_use(r"[*?\[]")


def composed_word(words: list[str], directory: str | None, text: str) -> str | None:
    """The first of ``words`` (of the command ``text``, which ``COMPOSES`` matches) whose path,
    read from the call's folder or one a move of ``text`` names, begins the path of a guarded
    item (``~/.gitconf`` begins ``~/.gitconfig``) or a guarded name in its folder; a word the
    gate cannot name. None when none does."""
    folders = moved_folders(text, directory) if directory is not None else None
    if not isinstance(folders, list):
        folders = None  # (a move to a folder the gate cannot name)
    guards = GUARDED.get()
    for word in [*words, *(["xx"] if "split" in text else [])]:  # (split's, csplit's own
        # prefix when none is given: `x`, `xx`)
        path = _path(word, folders)
        if path is None or any(_begins(p, guards) for p in path):
            return word
    return None


#: A program that writes its operand's name less a suffix (a decompressor, ``-S SUF`` too),
#: or more one (a compressor), or guesses a command that does (``gpg FILE``): review s46 D1.
SHORTENS: Final = compile_on_use(
    r"\b(?:un)?(?:gzip|gunzip|pigz|xz|lzma|bzip2|bunzip2|pbzip2|lbzip2|zstd|lz4|lzip|plzip|lzop|"
    r"lrzip|pixz|brotli|compress|zcat|gpg|gpg2)\b"
    # their other names (review s46 D3): any program name holding a compressor's
    r"|\b[\w.+-]*(?:gz|zst|xz|lzma|bz2?|lz4|lzip|lzop|lrz|pixz|brotli|compress)[\w.+-]*\b")
#: gzip's ``-N``/``--name``: the name the archive's header holds, which no word does.
_HEADER_NAME: Final = compile_on_use(r"-[A-Za-z0-9]*N[A-Za-z0-9]*|--na(?:m|me)?")


def shortened_word(words: list[str], directory: str | None, text: str) -> str | None:
    """The first of ``words`` (of the command ``text``, which ``SHORTENS`` matches) whose
    path, read as ``composed_word`` reads it, less any text at its end or with any text after
    it, may name a guarded item or a guarded name in its folder (``gunzip
    ~/.gitconfig.gz`` writes ``~/.gitconfig``; ``gzip -S ig .gitconf``, ``.gitconfig``); a
    header's name (``gunzip -N``); a word the gate cannot name."""
    folders = moved_folders(text, directory) if directory is not None else None
    if not isinstance(folders, list):
        folders = None
    guards = GUARDED.get()
    first = next((i for i, w in enumerate(words) if SHORTENS.search(w.rsplit("/", 1)[-1])), 0)
    for word in words[first + 1:]:  # (the words after the first that may be such a program)
        path = _path(word, folders)
        if _HEADER_NAME.fullmatch(word) or path is None or any(
                _begins(p, guards) or _ends(p, guards) for p in path):
            return word
    return None


def _ends(path: str, guards: tuple[tuple[str, bool], ...]) -> bool:
    """Whether ``path`` less some text at its end may name a guarded item, a walked-up name
    or a standard module's file in a module folder."""
    key = fold(path).rstrip("/")
    if any(key.startswith(fold(item)) for item, _ in guards):
        return True
    head, _, name = key.rpartition("/")
    walked: frozenset[str] = getattr(guards, "walked", frozenset())
    if any(name.startswith(fold(w)) for w in walked) or may_end(
            head.split("/"), name, rules(fold(w) for w in walked), False):
        return True
    from .placed import shadows

    folders: frozenset[str] = getattr(guards, "modules", frozenset())
    return bool(folders) and any(shadows(f"{head}/{name[:k]}", folders)
                                 for k in range(1, len(name)))


def _path(word: str, folders: list[str] | None) -> list[str] | None:
    """The paths ``word`` may name, each as a normal path (with a slash for a folder); the
    head of a pattern; [] for an option; None for a word the gate cannot name."""
    home = os.path.expanduser("~")
    if word[:1] == "-" and "=" not in word:
        return []
    word = word.split("=", 1)[1] if word[:1] == "-" else word
    if "$" in word or "`" in word or (word[:1] == "~" and word[:2] != "~/" and word != "~"):
        return None
    path = home + word[1:] if word[:1] == "~" else word
    cut = _PATTERN.search(path)  # a pattern: the names it matches begin with its head
    path = path[:cut.start()] if cut else path
    if path[:1] == "/":
        return [_normal(path)]
    return None if folders is None else [_normal(posixpath.join(f, path)) for f in folders]


def _normal(path: str) -> str:
    return posixpath.normpath(path) + ("/" if path.endswith("/") else "")


def _begins(path: str, guards: tuple[tuple[str, bool], ...]) -> bool:
    """Whether ``path``, with any text after it, may name a guarded item."""
    key = fold(path)  # (a file system that folds case: s45 X1, s46 X2)
    if any(fold(item).startswith(key) for item, _ in guards):
        return True
    head, _, name = path.rpartition("/")
    walked: frozenset[str] = getattr(guards, "walked", frozenset())
    if name and (any(fold(w).startswith(fold(name)) for w in walked) or may_end(
            fold(head).split("/"), name, rules(fold(w) for w in walked), True)):
        return True  # (a settings name found walking up, at any depth: s44 P10; a rule)
    if head not in getattr(guards, "modules", frozenset()):
        return False
    return any(n.startswith(name) or (name.startswith(n) and any(
        e.startswith(name[len(n):]) or name[len(n):].startswith(e) for e in _ENDS))
        for n in STANDARD)


#: Entries of the folders a tree writer names that one call looks at for a walked-up settings
#: name, all walks together (about 1.5 µs each: 131,072 take some 200 ms, paid only by a
#: command copying such trees; review s46-greview2 W1-walk: 400 spellings of one big folder,
#: each walked whole, took the hook past its 30 s timeout).
CALL_ENTRIES: Final = 131072


def holds_walked(path: str, left: list[int] | None = None) -> bool:
    """Whether the folder ``path`` holds, at any depth, an entry named as a settings folder a
    plan's program finds by walking up (``Guarded.walked``, compared in lower case: s45 X1):
    ``cp -r m sub`` brings ``m/.cargo`` to ``sub/.cargo`` (review s44 P10). ``left`` holds the
    entries the call may still look at (each one looked at takes one); past them the tree may
    (``left[0]`` is then below 0). A link to a folder is walked too (``cp -rL`` copies what it
    leads to; a loop ends at the bound)."""
    walked = frozenset(fold(w) for w in getattr(GUARDED.get(), "walked", ()))
    ends = tuple(end for _, end in rules(walked))  # (below any folder: it may land in one)
    tests = foreign(path, GUARDED.get())  # (a test a runner collects, from elsewhere: s50)
    if not (walked or tests) or not os.path.isdir(path):
        return False
    fs.unkept()  # (what the folder holds now)
    return tree_holds(path, [CALL_ENTRIES] if left is None else left, lambda entry: fold(
        entry.name) in walked or (bool(ends) and fold(entry.name).endswith(ends)) or bool(
            tests and test_name(fold(entry.name))) or (bool(walked) and (module_path(fold(
                entry.path), entry.path) or entry.name in TREE_NAMES)))  # (s53-greview P1, G2: s54)
