"""The modules a site folder's start code imports, read (issue 29, sessions 57-60; moved out of
``sitefinders`` in session 60): none may put a finder after the path finder or a folder on
``sys.path`` (``appends``), each module's import-time code read by ``sitecode``'s allow-list
but the texts vetted by their hash (``_VETTED``), each function site code calls of them
resolved and its body read (``_called_read``); a module found in an archive not read
(``_archived``)."""

from __future__ import annotations

import os

from . import files as fs
from .loadedlibs import READ_LIMIT as _LIMIT
from .placed import STANDARD
from .sitearchives import archive_split, archive_tops, entries
from .sitecode import site_code

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


#: What a module's text holds where it may put a finder after the path's (``sys.meta_path``
#: appended to, extended, assigned, indexed, inserted into but at its start; a path hook).
_APPENDS: Final = (rb"path_hooks|setattr\s*\(\s*sys\b|addsitedir|\bpath\s*\.\s*(?:append|extend|"
                   rb"insert)\s*\(|sys\s*\.\s*path\b|from\s+sys\s+import|import\s+sys\s+as\b|"
                   rb"(?<!os)\.\s*path\b")
#: The uses of ``sys.meta_path`` that put no finder after the path finder (a membership test,
#: an insertion at its start, a removal: ``_distutils_hack``'s).
_FIRST: Final = rb"\s*(?:\.\s*insert\s*\(\s*0\s*,|\.\s*remove\s*\(|(?:or|and)\b|:)"


def appends(text: bytes) -> bool:
    """Whether a module's ``text`` may put a finder after the path finder or add a folder to
    ``sys.path`` (``_APPENDS``; each ``meta_path`` but ``_FIRST``'s uses: an alias too)."""
    import re

    if re.search(_APPENDS, text):
        return True
    at = text.find(b"meta_path")
    while at >= 0:
        if not re.match(_FIRST, text[at + 9:at + 80]):
            return True
        at = text.find(b"meta_path", at + 9)
    return False


#: The modules ``site`` imports at every start from ``sys.path`` (a site folder's: read as a
#: ``.pth`` line's module; s58-preview E-SITECUSTOMIZE).
CUSTOMIZE: Final = frozenset(("sitecustomize", "usercustomize"))


#: The texts (SHA-256) of the modules site code imports whose code is not read by the
#: allow-list but by ``appends`` alone, trusted by their content, not their names
#: (s59-preview E-VETTED): setuptools' distutils shim (``_distutils_hack/__init__.py`` of
#: setuptools 49-84 as found on this machine and in 65.5, 68.2, 69.5, 75.8, 84.2; its
#: ``override.py``): a finder first on ``sys.meta_path`` for ``distutils`` and ``pip`` only;
#: virtualenv's distutils patch (``_virtualenv.py`` of virtualenv 20.26 and 21.15). Another
#: version is read by the allow-list (not read: the site folder's names not known).
_VETTED: Final = frozenset((
    "322f93bf23a7b8ccd421cfeeb68129e66dccfc363a40b2d2917aa0e9ef30848f",
    "5f7454880e8a04fa0499ca3f0a3002ca5b7241b15119552965101b4a43c6c0cb",
    "4d27a48545b57dd137ae35376fcf326d2064271084a487960686f8704b94de4a",
    "46849a60a7cc85189cf6b5ac62b3f135004862ce6a96540a81c95ef6fbc4dc3e",
    "4bf5b0bc8f8af7ce7096e96f7167cf4f776f2cc0983f5c8f876ca780b3a67781",
    "df81e6bcba34ee3e3952f776551fb669143b9490fdd6c4caeb32609f97e985b4",
    "ced72e54431ecf2d8d7dbd8a1e27724f1b171af3ca1503c304bf11c59a7fe861",
    "12efecf8d17a5486780aa774b5b6c0e70b56932d8864f35df1eb7a18bb759b3a",
    "cfe56cafbd68fd31a0e87100f111d7d2f6b7157241096500013c07e88d80a22f",
    "0f20351ea7e90039c46d3fabdef991f28b1e3ff33eb13ee6f0d5cd21ea0e8b14",
    # certifi's ``core.py`` (2021.10.08, 2024.08.30 ×2, 2026.05.20 as found on this machine):
    # its ``where()``, which the sandbox's CA ``.pth`` line calls (through certifi's
    # ``from .core import where``)
    "574bb2c4a398773eae9434aeb1c96b2e68db3e0397b03d019c47f4490ece9e81",
    "4fb3b27c36074ddab2caed9545fe36de414a94934df85e367db2ea4469321420",
    "a910c31725d52704c1fc49a81a9a5a5d4fd1f6a099be197e133c4f32e5779d30",
    "5c55f2727746e697f7edac9e17c377d8752e0da7ecca191531b3b80403d61dad"))


def _vetted(text: bytes) -> bool:
    """Whether a module's ``text`` is one of ``_VETTED``'s."""
    import hashlib

    return hashlib.sha256(text).hexdigest() in _VETTED


#: How many modules ``appends_none`` reads before it takes one as appending.
_READ_MODULES: Final = 64


def appends_none(folders: list[str], tops: list[str], called: set[str] | None = None,
                 after: list[str] | None = None) -> bool:
    """Whether none of the modules ``tops`` of the site folder and the folders its ``.pth``
    adds (``folders``: E-REGEX2), nor any module of them they import (absolute or relative,
    at any depth, up to ``_READ_MODULES``), may put a finder after the path finder
    (``appends``), runs import-time code ``_site_code`` does not read (but ``_VETTED``'s), or
    is not readable; nor any function of them site code calls (``called``, and those its
    modules' code calls) runs code ``_site_code`` does not read (``_called_read``: its module
    looked up in the folders ``after`` too, the other site folders)."""
    import re

    from .exactlists import identifiers

    called = set() if called is None else called
    present = {n.partition(".")[0] for folder in folders for n in entries(folder)}
    zipped = _archived(folders)
    names, seen = list(tops), set()
    while names:
        name = names.pop()
        if zipped is None or (name.split(".")[0].lower() in zipped and (
                name.split(".")[0] not in STANDARD or name in CUSTOMIZE)):
            return False  # (site code's module, a sitecustomize, found in a PYTHONPATH zip)
        if name in seen or (name.split(".")[0] in STANDARD and name not in CUSTOMIZE) or \
                name.split(".")[0] not in present:
            continue
        seen.add(name)
        if len(seen) > _READ_MODULES:
            return False
        for package, text in (t for folder in folders for t in _module_texts(folder, name)):
            if text is None or (name not in CUSTOMIZE and appends(text)) or (
                    not _vetted(text) and site_code(text, identifiers(text), False,
                                                    called) is None):  # (its import-time
                return False  # code: the allow-list; s59-preview E-DENYLIST-DEEPER)
            if name in CUSTOMIZE:  # (a module it names by a string too: `__import__('x')`)
                names += sorted(identifiers(text) - STANDARD)
            for word in re.findall(rb"^\s*(?:from|import)\s+(\.*[A-Za-z_][\w.]*)", text,
                                   re.M):
                dots = len(word) - len(word.lstrip(b"."))  # (relative: from its package)
                base = package.split(".")[:len(package.split(".")) - dots + 1] if dots else []
                names.append(".".join([*base, word.lstrip(b".").decode()]))
    after = after or []
    return _called_read([*folders, *after], present | {
        n.partition(".")[0] for folder in after for n in entries(folder)}, called)


def _archived(folders: list[str]) -> set[str] | None:
    """The top names the archives among ``folders`` (a ``PYTHONPATH`` zip) give
    (``archive_tops``): their modules are not read (s59-preview E-ZIP-SITE-CODE,
    E-ZIP-SITECUSTOMIZE); None where one cannot be read."""
    found: set[str] = set()
    for folder in folders:
        inside = None if os.path.isdir(folder) else archive_split(folder)
        if os.path.isfile(folder) or inside:
            listed = archive_tops(*(inside or (folder, "")))
            if listed is None:
                return None
            found |= listed
    return found


def _called_read(folders: list[str], present: set[str], called: set[str]) -> bool:
    """Whether each function ``called`` (dotted: ``acme_boot.setup``) of a module of
    ``folders`` (its top among ``present``) runs only code read by the allow-list: its
    module's text vetted (``_VETTED``), or a ``def`` of that name at its top level whose body
    ``site_code`` reads as run (a name bound otherwise, a re-exported ``runpy.run_path``, an
    attribute of an object: not read; s59-preview E-FOREIGN-BODY, E-FOREIGN-REEXPORT); the
    functions those bodies call in turn too."""
    from .exactlists import identifiers

    done: set[str] = set()
    while called - done:
        dotted = sorted(called - done)[0]
        done.add(dotted)
        if len(done) > _READ_MODULES:
            return False
        module, _, function = dotted.rpartition(".")
        if module.split(".")[0] not in present:
            continue  # (a module not there: not imported from these folders)
        own = [t for folder in folders for t in _own_texts(folder, module)]
        if not own:
            return False  # (an attribute of an object, a module not found: not read)
        for package, text in own:
            if text is None:
                return False
            if _vetted(text):
                continue
            origin = _reexported(text, package, function)  # (`from .core import where`)
            if origin is not None and origin.split(".")[0] not in STANDARD:
                called.add(origin)
            elif site_code(text + b"\n" + function.encode() + b"()\n", identifiers(text),
                           False, called) is None:
                return False  # (a standard function re-exported: read as the allow-list)
    return True


def _reexported(text: bytes, package: str, name: str) -> str | None:
    """The dotted name a module's ``text`` (of the package ``package``) imports as ``name`` at
    its top level (``from .core import where``: ``certifi.core.where``); None where it binds
    it otherwise or not at all."""
    import ast

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    base = package.split(".")[:len(package.split(".")) - node.level + 1] \
                        if node.level else []
                    return ".".join([*base, node.module, alias.name])
    return None


def _own_texts(folder: str, name: str) -> list[tuple[str, bytes | None]]:
    """The package (its relative imports' base) and text of the module ``name`` itself (its
    source, or its package's ``__init__``) in ``folder``: None for the text where it is
    there but not readable (an extension module's); none where absent."""
    path = os.path.join(folder, *name.split("."))
    found = _texts_at(path, name.rpartition(".")[0], name)
    if any(os.path.isfile(path + s) for s in (".so", ".pyc", ".abi3.so")):
        found.append((name, None))
    return found


def _texts_at(path: str, package: str, own: str) -> list[tuple[str, bytes | None]]:
    """The package and text of the module whose source is ``path``.py (in ``package``) or
    of the package whose ``__init__`` is in ``path`` (``own``): None for the text where it
    is there but not readable; none where absent."""
    found: list[tuple[str, bytes | None]] = []
    for file, of in ((path + ".py", package), (os.path.join(path, "__init__.py"), own)):
        try:
            data = fs.read(file, _LIMIT + 1)
            found.append((of, None if len(data) > _LIMIT else data))
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError:
            found.append((of, None))
    return found


def _module_texts(folder: str, name: str) -> list[tuple[str, bytes | None]]:
    """The package and text of the module ``name`` (dotted) in the site folder ``folder``
    (its source, a package's ``__init__``; None for one not readable: an extension
    module's), and of each package above it; none for a module not there."""
    parts = name.split(".")
    found: list[tuple[str, bytes | None]] = []
    for at in range(1, len(parts) + 1):
        path = os.path.join(folder, *parts[:at])
        package = ".".join(parts[:at - 1])
        found += _texts_at(path, package, ".".join(parts[:at]))
        if any(os.path.isfile(path + s) for s in (".so", ".pyc", ".abi3.so")):
            found.append((package, None))
    return found
