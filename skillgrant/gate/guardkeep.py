"""The write guard's set kept across hook processes (issue 29: ``guards._guarded_items``, most
of a hook's decision, is the same for each call of a plan in a folder).

A hook process computes the set under ``readlog.recorded``: every question it put to the
system (a ``stat`` of a path, there or not, a folder's listing, a link's target, a file's
bytes, a permission, the password database's entry, the folders of the shared libraries and
modules this process loaded, the package's code: each module's source's time and size as
``modulecache`` checked it) with the answer it got. The set is kept with that record, under
its key: the arguments, the whole environment, the interpreter's own values the set names
(``sys.executable``, prefixes, ``sys.path``, ``sys.argv``, the package's folder), the hook's
``--state-dir`` (``homefiles.NAMED_STATE``) and the user's identities. A file is trusted as
``patterncache``'s: this user's, no one else may write it or its folder, no link. A later
hook takes the kept set only where its key is the same and the
system gives each recorded answer again, asked now (``readlog.same``): a file read is read
again whole, so a change of any byte, of any entry of a folder listed, of any link, of a
path's kind or existence, is seen. A computation that ran a program (git's answers), opened a
file for writing, asked what a record cannot hold, or raised, keeps nothing.

One file per key in the ``guards`` folder of the state folder (``walkcache.state_folder``,
guarded whole by every gate: no session writes it), written whole under a new name and
renamed, bounded as the walks folder is (``walkcache.bound``). A file not read, not of this
format, or of another key keeps nothing: the set is computed.
"""

from __future__ import annotations

import marshal
import os
import sys

from . import files as fs
from . import readlog
from .homefiles import NAMED_STATE
from .walkcache import state_folder, written

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Final

Items = tuple[tuple[str, bool], ...]

#: The kept file's format (another is not read).
_FORMAT: Final = 2
#: A kept file's first bytes, then the checksum (CRC-32) of the rest.
_MAGIC: Final = b"SGK\x02"
#: The kept file is not read past this size.
_LIMIT: Final = 32 << 20


def planned(arguments: tuple[Any, ...], guarded: Callable[..., Items],
            compute: Callable[..., Items]) -> Items:
    """``guarded(*arguments[:-1], programs)`` (``guards.guarded_items``), the ``programs`` made
    of the plan's entries ``arguments[-1]`` (``plan_programs``); in a hook's process of its
    own (``files.kept_across``) the set ``compute`` makes kept (``kept``) under the entries:
    the programs are made of them and of the environment, both in the key (and what making
    them reads, recorded), so a kept set needs neither."""
    from .planprograms import plan_programs

    *head, entries = arguments
    if not fs.kept_across():
        return guarded(*head, plan_programs(entries))
    return kept(arguments, lambda *_: compute(*head, plan_programs(entries)),
                compute.__code__.co_filename)


def kept(arguments: tuple[Any, ...], compute: Callable[..., tuple[tuple[str, bool], ...]],
         module_file: str) -> tuple[tuple[str, bool], ...]:
    """``compute(*arguments)`` (a ``nested.Guarded``), or the one kept for ``arguments`` where
    nothing it read has changed. ``module_file``: the file of the module computing it. What
    this process loaded (``guards``' ``loaded_libraries`` and ``imported_from``) is recorded
    by its whole answer (``readlog.recorded``'s ``values``)."""
    folder = state_folder()
    if not folder:
        return compute(*arguments)
    guards = sys.modules["skillgrant.gate.guards"]  # (what it asks them by)
    values: dict[str, tuple[object, str]] = {
        "loaded_libraries": (guards, "loaded_libraries"),
        "imported_from": (guards, "imported_from")}
    key = _key(arguments, module_file)
    try:
        named = marshal.dumps(key)  # type: ignore[arg-type]
    except ValueError:
        return compute(*arguments)
    import binascii

    path = os.path.join(folder, "guards", f"{binascii.crc32(named):08x}{len(named):x}.kept")
    found = _read(path, key, values)
    if found is not None:
        return found
    from . import testlinks

    remembered: list[str] = []
    remember = testlinks.remember

    def remembering(real: str) -> str:
        remembered.append(real)
        return remember(real)

    def computing() -> tuple[tuple[str, bool], ...]:
        # (the set's one effect on the process: the real spellings of the folded collecting
        # folders, which the walk reads later: kept with it, made again where it is taken)
        testlinks.remember = remembering
        try:
            made = compute(*arguments)
        finally:
            testlinks.remember = remember
        readlog.note_code()  # (the code that computed it: the package's modules loaded)
        return made

    made, record = readlog.recorded(computing, values)
    if record is not None:
        _write(path, key, record, (made, tuple(remembered)))
    return made


def _key(arguments: tuple[object, ...], module_file: str) -> tuple[object, ...]:
    return (_FORMAT, arguments, dict(os.environ), sys.executable, sys.prefix, sys.base_prefix,
            sys.exec_prefix, sys.platform, sys.version, tuple(sys.path),
            tuple(sys.argv), tuple(NAMED_STATE), os.__file__, module_file, os.getuid(),
            os.geteuid(), os.getgid(), os.getegid(), tuple(os.getgroups()))



def _read(path: str, key: tuple[object, ...],
          values: dict[str, tuple[object, str]]) -> tuple[tuple[str, bool], ...] | None:
    """The set kept at ``path`` for ``key``, where the system answers as recorded."""
    import stat

    from ..patterncache import owned

    try:  # (this user's, no one else may write it or its folder, no link: as patterncache)
        if not owned(os.lstat(os.path.dirname(path)), stat.S_ISDIR):
            return None
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        if not owned(os.fstat(fd), stat.S_ISREG):
            return None
        chunks: list[bytes] = []
        while (left := _LIMIT + 1 - sum(map(len, chunks))) > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
    except OSError:
        return None
    finally:
        os.close(fd)
    import binascii

    whole = b"".join(chunks)  # (its checksum first: a file damaged is not unmarshalled)
    if whole[:4] != _MAGIC or int.from_bytes(whole[4:8], "big") != binascii.crc32(whole[8:]):
        return None
    try:
        data = marshal.loads(whole[8:])
    except (ValueError, EOFError, TypeError):
        return None
    if not (type(data) is tuple and len(data) == 4 and data[0] == _FORMAT and
            data[1] == key and type(data[2]) is dict and type(data[3]) is tuple and
            len(data[3]) == 4 and readlog.same(data[2], values)):
        return None
    return _made(*data[3])


def _made(items: object, attributes: object, planned: object, remembered: object,
          ) -> tuple[tuple[str, bool], ...] | None:
    from . import testlinks
    from .nested import Guarded

    if type(items) is not tuple or type(attributes) is not dict or type(
            remembered) is not tuple:
        return None
    made = tuple.__new__(Guarded, items)
    vars(made).update(attributes)
    made.planning = None if planned is None else lambda: planned  # type: ignore[assignment]
    for real in remembered:
        testlinks.remember(real)
    return made


def _write(path: str, key: tuple[object, ...], record: readlog.Record,
           kept: tuple[Items, tuple[str, ...]]) -> None:
    """Keeps the set ``kept[0]`` (and the folders it remembered, ``kept[1]``) with its
    ``record`` at ``path``, where marshal can write it whole."""
    import binascii

    from .nested import planned_of

    made, remembered = kept

    if type(made).__name__ != "Guarded":
        return
    attributes = {name: value for name, value in vars(made).items() if name != "planning"}
    planned = planned_of(made) if getattr(made, "planning", None) is not None else None
    try:
        data = marshal.dumps((_FORMAT, key, record,  # type: ignore[arg-type]
                              (tuple(made), attributes, planned, remembered)))
    except ValueError:
        return
    if len(data) > _LIMIT:
        return
    written(path, _MAGIC + binascii.crc32(data).to_bytes(4, "big") + data, ".kept")
