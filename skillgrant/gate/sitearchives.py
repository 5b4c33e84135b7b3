"""What a folder on ``sys.path`` or an archive there gives Python's imports by its listing and
its distributions' metadata (issue 29, sessions 56-58; moved out of ``sitefinders`` in session
60): the top names of the modules its ``pytest11`` entry points name (``plugin_tops``: pytest
imports each at its start), an archive's members (``archive_tops``: zipimport's), a member's
bytes (``archive_member``)."""

from __future__ import annotations

import os

from . import files as fs
from .loadedlibs import READ_LIMIT as _LIMIT

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def entries(folder: str) -> list[str]:
    """The names in ``folder`` ([] where it cannot be listed)."""
    try:
        return os.listdir(folder)
    except OSError:
        return []


def plugin_tops(folder: str) -> set[str]:
    """The top-level names of the modules the ``pytest11`` entry points of the distributions
    installed in the folder ``folder`` of ``sys.path`` name (``acme.testing.plugin``:
    ``acme``; their metadata a ``.dist-info``, an ``.egg-info``, an egg's ``EGG-INFO`` (of
    ``folder`` itself where it is an egg), as ``importlib.metadata`` finds them): an
    editable install's module lives elsewhere, found by its ``.pth`` finder's mapping or a
    namespace portion in its source folder (s56-greview3 E1, N1), a legacy one's metadata in
    its source folder (E)."""
    names: set[str] = set()
    listed = entries(folder)
    paths = [os.path.join(folder, n, "entry_points.txt") for n in listed
             if n.lower().endswith((".dist-info", ".egg-info"))] + [
        os.path.join(folder, n, e, "entry_points.txt") for n in listed
        if n.lower().endswith(".egg") for e in entries(os.path.join(folder, n))
        if e.lower() == "egg-info"] + [os.path.join(folder, e, "entry_points.txt") for e in (
            listed if folder.lower().endswith(".egg") else ()) if e.lower() == "egg-info"]
    # (importlib.metadata's Lookup lowercases the names: s59-preview E-EP-CASE)
    for path in paths:
        try:
            names |= pytest11(fs.read(path, 1 << 20))
        except OSError:
            continue
    return names


def pytest11(data: bytes) -> set[str]:
    """The top names of an ``entry_points.txt``'s (``data``) ``pytest11`` entries, and each
    of their packages' and their modules' paths (``a/b``, ``a/b/plugin``)."""
    import re

    names: set[str] = set()
    section = ""
    for line in data.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if line[:1] == "[":
            section = line.strip("[] ")
        elif section == "pytest11" and "=" in line:  # (each package below its top too, as
            value = re.match(r"\s*([\w.]+)", line.partition("=")[2])  # a namespace member,
            parts = value.group(1).split(".") if value else []  # `a/b/plugin`: E-EP-SUBMODULE;
            for at in range(1, len(parts) + 1):  # importlib.metadata's pattern: E-EP-EXTRAS)
                name = "/".join(parts[:at])
                if all(p.isidentifier() for p in parts[:at]):
                    names.add(name.lower() if name.isascii() else name)
    return names


#: The largest archive read (bytes): a larger one is not (any name).
_ARCHIVE: Final = 1 << 26


def archive_split(path: str) -> tuple[str, str] | None:
    """The archive file a ``sys.path`` entry or module path ``path`` lies in and the path
    inside it (``deps.zip/lib``: ``deps.zip``, ``lib``; zipimport reads a subpath so:
    s58-preview E-ZIP-SUBPATH); None where no folder above it is a file."""
    at, inner = path.rstrip("/"), ""
    while at not in ("", "/") and not os.path.exists(at):
        at, name = os.path.split(at)
        inner = name + ("/" + inner if inner else "")
    return (at, inner) if inner and os.path.isfile(at) else None


def archive_member(path: str) -> bytes | None:
    """The bytes of the file ``path`` inside an archive (``archive_split``): b"" where the
    archive holds no such member or is no archive; None where it cannot be read."""
    import io
    import zipfile

    split = archive_split(path)
    if split is None:
        return b""
    try:
        data = fs.read(split[0], _ARCHIVE + 1)
        if len(data) > _ARCHIVE:
            return None
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return archive.read(split[1])[:_LIMIT] if split[1] in archive.namelist() else b""
    except zipfile.BadZipFile:
        return b""
    except (OSError, ValueError, RuntimeError):
        return None


def archive_tops(path: str, inner: str = "") -> set[str] | None:
    """The top names (lower case) an archive on ``sys.path`` at ``path`` gives (zipimport's:
    a zipped egg ``easy-install.pth`` lists, a ``PYTHONPATH`` zip; s57-greview2 E-EGGZIP):
    each module file and folder of its root, each entry of a folder with no ``__init__``
    there (a namespace's member, ``NAMESPACE/MEMBER``), and the ``pytest11`` entry points of
    its distributions' metadata (``importlib.metadata`` reads them through ``zipfile``): []
    where it is no archive (zipimport skips it); None where it cannot be read (larger than
    ``_ARCHIVE``, not a regular file). ``inner``: the folder inside it on ``sys.path``
    (``deps.zip/lib``)."""
    import io
    import zipfile

    prefix = inner.strip("/") + "/" if inner.strip("/") else ""
    try:
        data = fs.read(path, _ARCHIVE + 1)
        if len(data) > _ARCHIVE:
            return None
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            listed = [n[len(prefix):] for n in archive.namelist() if n.startswith(prefix) and
                      n != prefix]
            metadata = [n for n in listed if n.count("/") == 1 and n.endswith(
                "/entry_points.txt") and (n.split("/")[0].lower().endswith((".dist-info",
                                                                              ".egg-info"))
                                          or (n.lower().startswith("egg-info/") and
                                              path.lower().endswith(".egg")))]
            texts = [archive.read(prefix + n)[:1 << 20] for n in metadata]
    except zipfile.BadZipFile:
        return set()
    except (OSError, ValueError, RuntimeError):  # (an encrypted member: RuntimeError)
        return None
    from .placed import fold

    tops = {n.split("/")[0].partition(".")[0] if "/" not in n.rstrip("/") else n.split("/")[0]
            for n in listed}
    names = {t.lower() if t.isascii() else fold(t) for t in tops if t.isidentifier()}
    regular = {n.split("/")[0] for n in listed if n.count("/") == 1 and n.split("/")[1]
               .partition(".")[0] == "__init__"}
    names |= {f"{n.split('/')[0].lower()}/{n.split('/')[1].partition('.')[0].lower()}"
              for n in listed if n.count("/") >= 1 and n.split("/")[0].isidentifier() and
              n.split("/")[0] not in regular and n.split("/")[1].partition(".")[0].isidentifier()}
    for text in texts:
        names |= pytest11(text)
    return names
