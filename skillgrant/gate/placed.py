"""Places in a guarded folder the guard reads otherwise (``named.Index``): the files that
would shadow a standard module in the folder first on a plan's Python's ``sys.path`` (review
s44 P3), and a worktree Claude Code makes for an isolated subagent in ``.claude`` (s45)."""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Final


def shadows(path: str, folders: frozenset[str]) -> bool:
    """Whether ``path`` is, in one of ``folders`` (first on a plan's Python's ``sys.path``),
    a file Python imports for a standard module before its own (``argparse.py``, ``.pyc``, an
    extension module; ``json/__init__.py``; s44 P3), or a distribution's metadata there
    (``NAME.dist-info/``, ``.egg-info``, their files; ``.egg-link``, ``.pth``): the entry points
    ``importlib.metadata`` finds on ``sys.path`` name the modules a program loads as its
    plugins (pytest's ``pytest11``: s50-greview3 P1). (``json/`` alone is a namespace.)"""
    head, _, name = path.rpartition("/")
    if head not in folders:
        top, _, package = head.rpartition("/")
        if top in folders and package.lower().endswith(_METADATA):  # (its files: P1)
            return True
        if top not in folders or package not in _STANDARD or name[:9] != "__init__.":
            return False
        return importable(name[8:])
    if name.lower().endswith((*_METADATA, ".egg-link", ".pth")):
        return True
    stem, dot, suffix = name.partition(".")
    return stem in _STANDARD and importable(dot + suffix)


def in_worktree(path: str, folder: str) -> bool:
    """Whether ``path`` lies in a worktree Claude Code makes for an isolated subagent in the
    guarded ``folder`` (``.claude/worktrees/NAME/…``, not the worktree whole), and names none
    of the runtimes' or git's folders there (guarded from a call in it: review s45, a cost)."""
    rest = path[len(folder) + 1:].split("/") if folder[-8:] == "/.claude" else []
    return len(rest) > 2 and rest[0] == "worktrees" and _IN_TREE.isdisjoint(rest)


#: Names in a subagent's worktree that stay guarded wherever they are (``guards._folder_items``).
_IN_TREE: Final = frozenset({".claude", ".git", ".github", ".codex", ".gemini", ".mcp.json",
                             ".pre-commit-config.yaml", "", ".", ".."})


#: The endings of a distribution's metadata folder (or ``.egg-info`` file).
_METADATA: Final = (".dist-info", ".egg-info")


def importable(suffix: str) -> bool:
    """Whether a file ending in ``suffix`` (from its name's first dot) is a module Python
    imports: source, bytecode, an extension module of any interpreter's tags."""
    return suffix in (".py", ".pyc", ".so", ".abi3.so") or (
        suffix[:9] == ".cpython-" and suffix[-3:] == ".so")


#: The standard library's modules and packages: the hook's interpreter's list, and the names
#: other CPythons have that it may not (3.6–3.10's, 3.12's, 3.13's, measured; 3.14's, from its
#: notes): a plan's Python may be another version (review s46 V1).
STANDARD: Final = sys.stdlib_module_names | frozenset({
    "_android_support", "_colorize", "_interpchannels", "_interpqueues", "_interpreters",
    "_ios_support", "_opcode_metadata", "_pydatetime", "_pylong", "_pyrepl", "_sha2",
    "_suggestions", "_sysconfig", "_wmi", "binhex", "dummy_threading", "_dummy_thread",
    "formatter", "parser", "symbol", "macpath", "_bootlocale", "annotationlib", "compression",
    "_zstd", "_remote_debugging", "_hmac", "_types", "_apple_support",
    # what `site` imports at every start from the whole sys.path (PYTHONPATH's folders are on
    # it then: review s46 L3)
    "sitecustomize", "usercustomize"})
_STANDARD: Final = STANDARD


def holds_module(path: str, guards: object) -> bool:
    """Whether the folder ``path`` is or holds a folder whose standard modules' files
    ``guards`` (``GUARDED``) guards (``shadows``), or is a package of such a name in one
    (``cp -r pkg json``)."""
    folders = getattr(guards, "modules", ())
    if not folders:
        return False
    path = path.rstrip("/") or "/"
    above = path.rstrip("/") + "/"
    head, _, name = path.rpartition("/")
    return any(f == path or f.startswith(above) for f in folders) or (
        head in folders and name in _STANDARD) or shadows(path, folders)


def folded_tables(guards: Sequence[tuple[str, bool]]) -> tuple[
        dict[str, int], dict[str, int], dict[str, int], dict[str, int], dict[str, int],
        set[str]]:
    """``named.Index``'s tables of the guarded items ``guards`` (each a path and whether it is
    a folder): each item's first place by its folded form (``fold``: s45 X1); the files' and
    the folders' (their ``/`` at the end dropped) by their paths, then by their folded forms;
    the files' folded names, none empty. Each item is folded once (``fold`` inlined for ASCII,
    which it leaves each ``/`` of)."""
    exact: dict[str, int] = {}
    files: dict[str, int] = {}
    trees: dict[str, int] = {}
    folded: dict[str, int] = {}
    folded_files: dict[str, int] = {}
    names: set[str] = set()
    for at, (item, tree) in enumerate(guards):
        plain = item.isascii()
        key = item.lower() if plain else fold(item)
        exact.setdefault(key, at)
        if tree:
            trees.setdefault(item.rstrip("/"), at)
            folded.setdefault(key.rstrip("/") if plain else fold(item.rstrip("/")), at)
        elif files.setdefault(item, at) == at:
            folded_files.setdefault(key, at)
            names.add(key.rpartition("/")[2] if plain else fold(os.path.basename(item)))
    return exact, files, trees, folded, folded_files, names - {""}


def fold(text: str) -> str:
    """``text`` as a file system that folds case and ignores normalization compares names
    (APFS; review s45 X1, s46 X2): lower case for ASCII; else decomposed (NFD), folded by
    Unicode's full case folding (``ſ`` is ``s``), decomposed again. It folds as much as such a
    system or more: the guard finds more, never less."""
    if text.isascii():
        return text.lower()
    import unicodedata

    text = text.translate(_IGNORED)  # (code points HFS+ drops from a name: review s46 X3)
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).casefold())


#: U+200C–U+200F, U+202A–U+202E, U+206A–U+206F and U+FEFF: HFS+ ignores them in a name.
_IGNORED: Final = dict.fromkeys([*range(0x200C, 0x2010), *range(0x202A, 0x202F),
                                 *range(0x206A, 0x2070), 0xFEFF])


def mirrored(path: str, folder: str) -> str:
    """The path of the main working tree that ``path``, in a subagent's worktree in the
    ``.claude`` folder ``folder`` (``in_worktree``), stands for there: the worktree holds the
    same tree, so what is guarded in the main tree by its place in it (a relative
    ``core.hooksPath``, husky's ``.husky/_``, a plan's ``Makefile``) is guarded in the
    worktree too (review s46 W1)."""
    rest = path[len(folder) + 1:].split("/", 2)
    return folder[:-len("/.claude")] + "/" + (rest[2] if len(rest) > 2 else "")


def tree_holds(path: str, left: list[int], found: Callable[[os.DirEntry[str]], bool]) -> bool:
    """Whether the folder ``path`` holds, at any depth, an entry ``found`` says yes to, or may:
    ``left`` holds the entries the call may still look at (each one looked at takes one; past
    them the tree may, ``left[0]`` then below 0), and a folder not read may hold one. A link to
    a folder is walked too (a loop ends at the bound)."""
    stack = [path]
    while stack:
        try:
            with os.scandir(stack.pop()) as entries:
                for entry in entries:
                    left[0] -= 1
                    if left[0] < 0 or found(entry):
                        return True
                    if entry.is_dir():
                        stack.append(entry.path)
        except OSError:
            return True
    return False
