"""Scripts a copy or a move brings into a test folder (review s50-greview3 C3's trees,
s51-gfix2 C3): where a plan's program collects tests, node's ``--test`` and jest run every
script below a ``test`` or ``__tests__`` folder whatever its name. ``testfiles.collected``
guards the names below such a folder (``test/x.js``, ``test/sub``), not the folder's own name
(a word ``test`` is make's and npm's target too) nor a name with a dot below it
(``test/v1.2``, read as a file's). So a call copying, moving or linking into such a folder is
read here by where each source lands: the destination operand (or ``-t``'s folder), and in it
each source's own name. A call whose landing place is such a folder, or below one, and whose
source is a script (``testfiles``' script endings), a folder holding one or a link at any
depth (a bounded walk), or a word the gate cannot name (a pattern, an expansion), is denied:
``cp -r src test``, ``cp -r src/. test/``, ``mv src/x.js test/``, ``mv src test``, ``cp -r
src test/v1.2``. A copy of data (``cp a.json test/fixtures/``) is not.
"""

from __future__ import annotations

import functools
import os
import posixpath

from .named import GUARDED
from .placed import fold, tree_holds

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The programs read here (``git mv`` too), by what their operands are: each source, then
#: the destination (the last operand, or the folder of ``-t``/``--target-directory``).
_PLACERS: Final = frozenset(("cp", "mv", "ln", "install", "rsync"))
#: Their options taking the next word as a value, but the target folder (``-S`` suffix;
#: install's owner, group, mode; rsync's remote shell and filters, read as sources: a cost).
_VALUED: Final = frozenset(("-S", "--suffix", "-o", "-g", "-m", "--owner", "--group",
                            "--mode"))
#: What makes a word one the gate cannot name the file of.
_UNNAMED: Final = frozenset("*?[{$`\\~")
#: The folders whose every script a runner runs (``testfiles``), and the scripts' endings.
_FOLDERS: Final = frozenset(("test", "__tests__", "__mocks__"))
_SCRIPTS: Final = (".js", ".cjs", ".mjs", ".jsx", ".ts", ".cts", ".mts", ".tsx")
#: The entries a call's walks of its sources look at, all together (past them: a script).
_ENTRIES: Final = 65536


def brought_tests(text: str, directory: str | None) -> str | None:
    """The destination word of a simple command of ``text`` (run in ``directory``) that
    brings a script into a test folder (see the module's text), or None. A text the gate
    cannot split into commands is read word by word: its first word naming such a folder."""
    folders: frozenset[str] = getattr(GUARDED.get(), "collected", frozenset())
    walked = bool(getattr(GUARDED.get(), "walked", None))
    if not (folders or walked) or not any(p in text for p in _PLACERS):
        return None
    from . import readers  # (as named's: the hook's start does not pay for it)

    commands = readers.named_commands(text)
    if commands is None or directory is None:  # (`A=1; cp …`, `… | xargs cp`: each word)
        return (_word_landed(text.split(), directory, folders) if folders else None) or (
            next((w for w in text.split() if walked and _module_name(w)), None))
    left = [_ENTRIES]
    for command in commands:
        words = readers.program_words(command) if command else None
        name = os.path.basename(words[0]) if words else ""
        if not words or (name not in _PLACERS and (name, *words[1:2]) != ("git", "mv")):
            found = _word_landed(list(command), directory, folders)  # (`find -exec cp`)
            if found is not None:
                return found
            continue
        rest = list(words[2 if name == "git" else 1:])
        sources, into = _operands(rest, name != "rsync")
        if into is None and name == "ln" and sources:
            into = "."  # (`ln -s ../ext`: the link is made in the call's folder)
        if into is None:
            continue
        places = [into, *(posixpath.join(into, posixpath.basename(s.rstrip("/")) or ".")
                          for s in sources)]
        if walked and ((name != "install" and _package_linked(
                name, rest, sources, into, directory)) or _git_landed(sources, into, directory)):
            return into
        if folders and ((any(_landed(p, directory, folders) for p in places) and any(
                _script(s, directory, left) for s in sources)) or _linked(
                name, rest, sources, into, directory, left)):
            return into
    return None


def _package_linked(name: str, rest: list[str], sources: list[str], into: str,
                    directory: str) -> bool:
    """Whether a placer's command (``name``, its words ``rest``) puts, under a name a module
    of Python's is imported by (``_module_name``: ``colorsys``, ``pytest``, a site folder's
    ``yaml``) in a folder that is no package's, a link (made, or one moved or copied as a
    link) or a folder, leading to or being a folder holding an ``__init__``, or a link to
    nothing yet, or a word the gate cannot name: Python imports that package from the first
    folder of ``sys.path`` (``ln -s ../pay tests/colorsys``: review s54-greview2 C2). A link to
    a folder holding none is read when one comes (``pymodule.module_path`` of the path through
    the link: ``testlinks``)."""
    makes, keeps, relative = _link_kind(name, rest)
    folder = posixpath.normpath(posixpath.join(directory, into))
    inside = os.path.isdir(folder)
    for source in sources:
        link = posixpath.join(folder, posixpath.basename(source.rstrip("/"))) if inside \
            else folder
        if not _module_name(link) or os.path.exists(posixpath.join(
                posixpath.dirname(link), "__init__.py")):
            continue
        if not source or not _UNNAMED.isdisjoint(source):
            return True
        path = posixpath.join(directory, source)
        if makes and not relative and source[:1] != "/":
            target = posixpath.join(posixpath.dirname(link), source)  # (the link's text)
        elif makes or os.path.islink(path) or (keeps and os.path.isdir(path)):
            target = path
        else:
            continue  # (a file's copy: no package)
        target = os.path.realpath(target)
        if not os.path.isdir(target) or any(
                e.split(".", 1)[0] == "__init__" for e in os.listdir(target)):
            return True
    return False


def _git_landed(sources: list[str], into: str, directory: str) -> bool:
    """Whether a placer's source lands, by its own name, where it makes its folder a git
    directory (``gitdirs.makes_git_dir``: ``ln -s refs/HEAD sub/`` makes ``sub/HEAD``, a link
    git takes as a HEAD; review s55-greview3 G1)."""
    from .gitdirs import makes_git_dir

    folder = posixpath.normpath(posixpath.join(directory, into))
    if not os.path.isdir(folder):
        return makes_git_dir(folder)
    return any(makes_git_dir(posixpath.join(folder, posixpath.basename(s.rstrip("/"))))
               for s in sources)


def _link_kind(name: str, rest: list[str]) -> tuple[bool, bool, bool]:
    """Whether a placer's command (``name``, its words ``rest``) makes a link (``ln``, ``cp
    -s``), keeps a source link as one (``mv``, ``git mv``, ``cp -r``/``-a``/``-P``/``-d``,
    ``rsync -a``/``-l``), and makes it relative to the call's folder (``ln -r``)."""
    options = [w for w in rest if w[:1] == "-" and w != "-"]
    clusters = "".join(w[1:].split("t")[0].split("S")[0] for w in options if w[1:2] != "-")
    makes = name == "ln" or (name == "cp" and ("s" in clusters or "--symbolic-link" in options))
    keeps = name in ("mv", "git") or (name == "cp" and (not set("rRaPd").isdisjoint(
        clusters) or any(w.startswith(("--rec", "--arch", "--no-d")) for w in options))) or (
        name == "rsync" and (not set("al").isdisjoint(clusters) or "--links" in options))
    return makes, keeps, name == "ln" and ("r" in clusters or "--relative" in options)


def _module_name(path: str) -> bool:
    """Whether the last name of ``path`` (no suffix) names a module of Python's standard
    library, of a test runner's start (``pymodule.RUNNER_MODULES``) or of a site folder's
    (``pymodule.module_path``, asked of the name's ``__init__.py``)."""
    from .pymodule import module_path

    name = fold(posixpath.basename(path.rstrip("/")))
    return bool(name) and "." not in name and module_path(f"/{name}/__init__.py")


def _linked(name: str, rest: list[str], sources: list[str], into: str, directory: str,
            left: list[int]) -> bool:
    """Whether a placer's command (``name``, its words ``rest``) makes a link (``ln``, ``cp
    -s``) or places one (``mv``, ``cp -r``/``-a``/``-P``, ``rsync -a``/``-l``: a source that
    is a link, or a folder holding one) below a folder tests are collected in, by its path or
    through a link (``testfiles.foreign``), leading to a folder outside them holding a test's
    name (``testfiles.test_name``: a ``test`` folder too) or a link leading out of it at any
    depth, or where the gate cannot name: a runner walks through it and meets what a call
    wrote there before (``cp src/mk ../ext/test/x.js``, then ``ln -s ../../ext lib/pkg``:
    s53-greview2 T1, T2). A folder the runners walk already is read as it is (``ln -s
    src/components c``: K1), a link to nothing is read when its target comes (a write there
    meets the walk, a link there this rule: K3). A made link's target is read from the link's
    folder (from the call's with ``ln -r``); a placed link's from where it was and from where
    it lands (its text is kept)."""
    from .testfiles import foreign
    from .testlinks import leads_below

    makes, keeps, relative = _link_kind(name, rest)
    if not (makes or keeps):
        return False  # (`install`, a plain `cp`: what a link leads to is copied)
    guards = GUARDED.get()
    folder = posixpath.normpath(posixpath.join(directory, into))
    inside = os.path.isdir(folder)  # (`ln -s T DIR`: the link is DIR/T's name)
    for source in sources:
        unnamed = not source or not _UNNAMED.isdisjoint(source)
        path = posixpath.join(directory, source)
        link = posixpath.join(folder, posixpath.basename(source.rstrip("/")) or ".") \
            if inside else folder
        place = posixpath.join(os.path.realpath(posixpath.dirname(link)),
                               posixpath.basename(link))
        if not (makes or unnamed or os.path.islink(path) or os.path.isdir(path)) or (foreign(
                place, guards) and not leads_below(fold(place), guards)):
            continue
        if unnamed:
            return True
        if makes:
            targets = [path if relative or source[:1] == "/" else posixpath.join(
                posixpath.dirname(link), source)]
        elif os.path.islink(path):
            targets = [os.path.realpath(path),
                       posixpath.join(posixpath.dirname(link), os.readlink(path))]
        elif tree_holds(path, left, lambda e: e.is_symlink()):
            return True  # (a folder placed with the links it holds, their text kept)
        else:
            continue
        for target in map(os.path.realpath, targets):
            if os.path.isdir(target) and foreign(target, guards) and tree_holds(
                    target, left, functools.partial(_leads, target + "/")):
                return True
    return False


def _leads(inside: str, entry: os.DirEntry[str]) -> bool:
    """Whether ``entry`` of a folder a link leads to (``inside``: its path and a ``/``) is a
    test's name, or a link leading out of that folder (``_linked``)."""
    from .testfiles import test_name

    return test_name(fold(entry.name)) or (entry.is_symlink() and not (
        os.path.realpath(entry.path) + "/").startswith(inside))


def _word_landed(words: list[str], directory: str | None,
                 folders: frozenset[str]) -> str | None:
    """Where ``words`` hold a placer's name (a program run by another, or in a text the gate
    cannot split), the first word naming a test folder or a path below one (any word when
    there is no folder to read it from); else None."""
    if not any(os.path.basename(w) in _PLACERS for w in words):
        return None
    return next((w for w in words if directory is None or _landed(w, directory, folders)),
                None)


def _operands(rest: list[str], target: bool) -> tuple[list[str], str | None]:
    """The sources and the destination of a placer's words ``rest`` (GNU's: options
    anywhere before ``--``; with ``target``, ``-t DIR``, ``-tDIR``, ``--target-directory=DIR``
    and its prefixes, in a cluster too: ``-rt DIR``); no destination for fewer than two
    operands and no ``-t``."""
    operands: list[str] = []
    into: str | None = None
    at, ended = 0, False
    while at < len(rest):
        word = rest[at]
        at += 1
        if ended or word[:1] != "-" or word == "-":
            operands.append(word)
        elif word == "--":
            ended = True
        elif target and len(word.partition("=")[0]) > 2 and "--target-directory".startswith(
                word.partition("=")[0]):
            into = word.partition("=")[2] or (rest[at] if at < len(rest) else "")
            at += "=" not in word
        elif target and word[:2] != "--" and "t" in word[1:]:
            cut = word.index("t", 1)
            into = word[cut + 1:] or (rest[at] if at < len(rest) else "")
            at += not word[cut + 1:]
        elif word in _VALUED:
            operands.append(rest[at] if at < len(rest) else "")  # (read as a source: more)
            at += 1
    if into is not None:
        return operands, into
    return (operands[:-1], operands[-1]) if len(operands) > 1 else (operands, None)


def _landed(word: str, directory: str, folders: frozenset[str]) -> bool:
    """Whether the path ``word`` (from ``directory``) is a test folder, or a path below one,
    below a folder tests are collected in (as written, as its real path, and as each path a
    runner meets it at through a link: ``testlinks.places``)."""
    if not word or not _UNNAMED.isdisjoint(word):
        return "test" in word  # (a word the gate cannot name, holding the folder's name)
    from .testlinks import places

    path = posixpath.normpath(posixpath.join(directory, word))
    real = fold(os.path.realpath(path))  # (and where a runner meets it through a link: R10)
    for key in dict.fromkeys((fold(path), real, *places(real, GUARDED.get()))):
        for folder in folders:
            if key.startswith(folder + "/") and not _FOLDERS.isdisjoint(
                    key[len(folder) + 1:].split("/")):
                return True
    return False


def _script(source: str, directory: str, left: list[int]) -> bool:
    """Whether ``source`` (from ``directory``) is a script, a folder holding a script or a
    link at any depth (``left``: the entries the call may still look at), or a word the gate
    cannot name."""
    if not source or not _UNNAMED.isdisjoint(source):
        return True
    path = posixpath.join(directory, source)
    if not os.path.isdir(path):
        return fold(path).endswith(_SCRIPTS) or os.path.islink(path)
    return tree_holds(path, left, lambda entry: entry.is_symlink() or fold(entry.name).endswith(
        _SCRIPTS))
