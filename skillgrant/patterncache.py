"""Regular expressions a hook's process compiled, kept beside the package's bytecode.

``skillgrant hook`` starts a process for every tool call, and the modules it loads compile
about forty regular expressions: 20.3 M of its 169 M instructions (callgrind, session 46;
docs/performance.md), more than any other part of its start. Python keeps a module's compiled
code in ``__pycache__``; this keeps the patterns' compiled code there too, as ``re`` itself
makes it: the first hook process writes it (``keep``), later ones put each pattern in ``re``'s
own cache before the modules load (``load``), so the module's ``re.compile`` finds it.

Sound as the bytecode is: the file holds, for each pattern's text and flags, the code ``re``'s
compiler made for it in a process of this exact interpreter (the file names the version, and
``_sre``'s magic number and code size), checked equal to the pattern ``re`` compiled before
it is written; ``_sre.compile`` checks the code's form again as it loads it. A file that
does not read, or names another interpreter, is not used, and every pattern compiles as
before. Whoever can write the package's ``__pycache__`` can write its bytecode, which runs;
the hook guards the package's folder from the calls it judges (``gate/guards.py``). Nothing is
written where Python writes no bytecode (``-B``, ``PYTHONDONTWRITEBYTECODE``, a prefix of its
own), and a file that cannot be written is no failure: the next process compiles again.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]  # (re's own engine: no stubs)
import marshal
import os
import stat
import sys

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    import re
    from collections.abc import Callable
    from typing import Final

    #: What ``_sre.compile`` takes after a pattern's text: the flags, the code, the number of
    #: groups less one, the group names' indexes, each group's name; and as the file holds
    #: it, the code as bytes (``_stored``).
    Entry = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]
    Stored = tuple[int, bytes, int, dict[str, int], tuple[str | None, ...]]

#: The interpreters whose ``re`` this has been checked against (its cache, ``_sre.compile``).
VERSIONS: Final = ((3, 11), (3, 12), (3, 13))
#: The patterns kept at most (``re`` keeps 512; a plan's own, and a call's globs, add to the
#: module's): past it the file starts over from the patterns a process compiled itself.
MAX_KEPT: Final = 256
#: The longest pattern kept, and the file's size read at most.
MAX_PATTERN: Final = 4096
MAX_BYTES: Final = 1 << 22

#: What the kept code is for: this interpreter, exactly; and the file's form.
_FOR = (sys.version, sys.implementation.cache_tag, _sre.MAGIC, _sre.CODESIZE)
_FORMAT: Final = 2
#: The patterns ``load`` read, by (type, text, flags) as ``re``'s cache keys them; and
#: whether ``load`` found the folder this user's and the file missing or this interpreter's
#: own (another build's is left alone: the two would write it in turn).
_LOADED: dict[tuple[type, str | bytes, int], Stored] = {}
_WRITABLE: list[bool] = []


def path(kind: str = "patterns") -> str:
    """The file ``kind`` is kept in: the package's ``__pycache__``, named by the
    interpreter's version as its bytecode is (``patterns.cpython-311.3.11.7.marshal``)."""
    folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__")
    version = sys.version.split()[0]
    return os.path.join(folder, f"{kind}.{sys.implementation.cache_tag}.{version}.marshal")


def usable() -> bool:
    """Whether this interpreter's ``re`` is one this was checked against."""
    import re  # (here: modulecache.load, before it, serves re's modules too)

    return checked() and isinstance(getattr(re, "_cache", None), dict) and \
        memoryview(b"").cast(_UNIT).itemsize == _sre.CODESIZE


def checked() -> bool:
    """Whether this interpreter is one of ``VERSIONS``, with a tag for its bytecode."""
    return sys.version_info[:2] in VERSIONS and sys.implementation.cache_tag is not None


def load() -> int:
    """Put each kept pattern in ``re``'s cache; how many. Nothing on any doubt (``read``).
    Says whether ``keep`` may write (``_WRITABLE``). Where ``re`` asks its cache by
    subscript (3.11: ``_compile`` takes a KeyError for a pattern not there), each kept
    pattern is compiled from its code the first time ``re`` asks for it (``_OnAsk``): a
    hook asks for about 70 of the 150 or more kept; elsewhere each is compiled here."""
    import re

    if not usable():
        return 0
    writable, entries = read("patterns", _FORMAT)
    _WRITABLE[:] = [True] if writable else []
    try:
        if type(entries) is not dict:
            return 0
        kept = {(type(text), text, flags): entries[text, flags] for text, flags in entries
                if type(text) in (str, bytes)}
        if _ASKS and type(re._cache) is dict:  # type: ignore[attr-defined]
            re._cache = _OnAsk(re._cache)  # type: ignore[attr-defined]
        compiled = {} if type(re._cache) is _OnAsk else {  # type: ignore[attr-defined]
            key: _sre.compile(key[1], *_code(stored)) for key, stored in kept.items()}
    except Exception:  # (a file of this user's that does not read: compiled, and replaced)
        return 0
    _LOADED.update(kept)
    for key, pattern in compiled.items():
        re._cache.setdefault(key, pattern)  # type: ignore[attr-defined]
    return len(kept)


#: Whether ``re._compile`` asks its cache by subscript, taking a KeyError as not there.
_ASKS: Final = sys.version_info[:2] == (3, 11)


class _OnAsk(dict):  # type: ignore[type-arg]
    """``re``'s cache, where a kept pattern (``_LOADED``) not yet compiled is compiled from its
    kept code as ``re`` asks for it, and kept there; any other key is not there (KeyError),
    as in a plain dict. A kept pattern whose code ``_sre.compile`` refuses is forgotten:
    ``re`` compiles it (and ``keep`` keeps it anew)."""

    __slots__ = ()

    def __missing__(self, key: tuple[type, str | bytes, int]) -> object:
        stored = _LOADED.get(key)
        if stored is None:
            raise KeyError(key)
        try:
            pattern = _sre.compile(key[1], *_code(stored))
        except Exception:
            del _LOADED[key]
            raise KeyError(key) from None
        self[key] = pattern
        return pattern


def read(kind: str, form: int) -> tuple[bool, object]:
    """Whether ``kind``'s file may be written (the folder this user's and the file missing,
    or this interpreter's own: another build's is left alone, the two would write it in
    turn), and what it holds when it is of ``form`` and this interpreter's, else None.
    Nothing on any doubt: a file (or its folder) not this user's, or that others may write,
    a link in its place, one that does not read or is another interpreter's."""
    writable, fd = opened(kind)
    if fd is None:
        return writable, None
    try:
        return unpacked(os.read(fd, MAX_BYTES), form)
    except OSError:  # (a file of this user's that does not read: replaced)
        return True, None
    finally:
        os.close(fd)


def unpacked(data: bytes, form: int) -> tuple[bool, object]:
    """``read``'s answer for a file whose text begins with ``data`` (what follows the head
    ``write`` marshals, its ``tail``, is not read here)."""
    try:
        found, made, held = marshal.loads(data)
        if made != _FOR:  # another build of this version: its file, left alone
            return False, None
        return True, held if found == form else None
    except Exception:  # (a file of this user's that does not read: replaced)
        return True, None


def opened(kind: str) -> tuple[bool, int | None]:
    """Whether ``kind``'s file may be written (as ``read`` says), and the file opened to be
    read (its descriptor, closed on exec) where it is trusted: this user's, no one else may
    write it or its folder, no link in its place; else None."""
    target = path(kind)
    try:
        if not owned(os.lstat(os.path.dirname(target)), stat.S_ISDIR):
            return False, None  # (no such folder either: nothing is written there)
        fd = os.open(target, _READ)
    except FileNotFoundError:
        return True, None
    except OSError:  # (a link in its place: O_NOFOLLOW; a folder that cannot be read)
        return False, None
    try:
        trusted = owned(os.fstat(fd), stat.S_ISREG)
    except OSError:  # (as a file that does not read: replaced)
        trusted = None
    if trusted:
        return True, fd
    os.close(fd)
    return trusted is None, None


#: How the file is opened to be read: never through a link, never waiting on a FIFO.
_READ: Final = os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW | os.O_NONBLOCK


def owned(found: os.stat_result, kind: Callable[[int], bool]) -> bool:
    """Whether ``found`` (not followed through a link) is of ``kind``, this process's user's,
    and no one else may write it (``gate/guardkeep.py`` trusts its kept file so too)."""
    return kind(found.st_mode) and found.st_uid == os.geteuid() and not found.st_mode & 0o022


def keep() -> int:
    """Write the kept patterns with those compiled in this process since (``re``'s cache);
    how many were added. Nothing when nothing was, when Python writes no bytecode here, or
    when the file there is another interpreter's."""
    import re

    if not writes() or not _WRITABLE:
        return 0
    cached = dict(re._cache)  # type: ignore[attr-defined]
    new = {key: stored for key, stored in ((key, _checked(key, pattern))
                                           for key, pattern in cached.items()
                                           if key not in _LOADED and key[0] in (str, bytes)
                                           and len(key[1]) <= MAX_PATTERN)
           if stored is not None}
    if not new:
        return 0
    kept = {**_LOADED, **new} if len(_LOADED) + len(new) <= MAX_KEPT else \
        dict(list(new.items())[:MAX_KEPT])
    if not write("patterns", _FORMAT, {key[1:]: stored for key, stored in kept.items()}):
        return 0
    _LOADED.clear()
    _LOADED.update(kept)
    return len(new)


def writes() -> bool:
    """Whether this process keeps what it compiled: where Python writes bytecode."""
    return usable() and not sys.dont_write_bytecode and sys.pycache_prefix is None


def write(kind: str, form: int, held: object, tail: bytes = b"", most: int = MAX_BYTES) -> bool:
    """Replace ``kind``'s file with ``held`` (in ``form``, for this interpreter), then
    ``tail``, whole or not at all; whether it was (not where ``held`` takes more than ``most``
    bytes). A folder this user cannot write is no failure."""
    target = path(kind)
    temporary = f"{target}.{os.getpid()}"
    try:
        data = marshal.dumps((form, _FOR, held))  # type: ignore[arg-type]
        if len(data) > most:
            return False
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data[:MAX_BYTES + 1])  # (longer: a file load refuses, never read)
                out.write(tail)
        except BaseException:
            os.unlink(temporary)
            raise
        os.replace(temporary, target)
    except (OSError, ValueError):  # (a folder this user cannot write: the next compiles again)
        return False
    return True


def _checked(key: tuple[type, str | bytes, int], pattern: re.Pattern[str]) -> Stored | None:
    """``key``'s pattern as the file holds it (``_stored``): what ``re``'s compiler gives
    ``_sre.compile`` for its text and flags, made as ``re._compiler.compile`` makes it; None
    unless that, read back as ``load`` reads it, compiles to ``pattern`` itself (the code
    compared whole: ``Pattern.__eq__``; its groups)."""
    import re

    kind, text, flags = key
    if type(flags) is not int or type(text) is not kind:
        return None
    try:
        parsed = re._parser.parse(text, flags)
        code = re._compiler._code(parsed, flags)  # type: ignore[attr-defined]
        groups = parsed.state.groups
        index = dict(parsed.state.groupdict)
        names: list[str | None] = [None] * groups
        for name, at in index.items():
            names[at] = name
        stored = _stored((flags | parsed.state.flags, list(map(int, code)), groups - 1, index,
                          tuple(names)))
        made = _sre.compile(text, *_code(stored))
        same = made == pattern and made.groups == pattern.groups and \
            made.groupindex == pattern.groupindex
    except Exception:
        return None
    return stored if same else None


def _stored(entry: Entry) -> Stored:
    """``entry`` as the file holds it: the code as bytes (one object to read back, not an
    integer each), in this machine's order and ``_sre``'s code size."""
    flags, code, groups, index, names = entry
    size = _sre.CODESIZE
    return (flags, b"".join(c.to_bytes(size, sys.byteorder) for c in code), groups, index,
            names)


def _code(stored: Stored) -> Entry:
    """A stored entry (``_stored``) as ``_sre.compile`` takes it, its code a list again."""
    flags, code, groups, index, names = stored
    return flags, memoryview(code).cast(_UNIT).tolist(), groups, index, names


#: The ``memoryview`` format of one code unit (``usable`` checks its size).
_UNIT: Final = "I" if _sre.CODESIZE == 4 else "H"
