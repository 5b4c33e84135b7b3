"""What a site folder's distributions and editable finders make Python import from outside
it (issue 29, sessions 56-57: s56-greview3 E): the top names of the modules its
distributions' ``pytest11`` entry points name (``plugin_tops``: pytest imports each at its
start) and those setuptools' editable finders map (``finder_tops``: ``MAPPING``,
``NAMESPACES``); None (any name) where a ``.pth`` import line's module, or one it imports
from the folder, may put a finder after the path finder that the gate does not read
(editables', scikit-build-core's, meson-python's: ``_APPENDS``)."""

from __future__ import annotations

import os

from . import files as fs
from .loadedlibs import READ_LIMIT as _LIMIT
from .loadedlibs import added_folders, pth_texts
from .placed import STANDARD
from .sitecode import site_code

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final


def finder_tops(folder: str, pths: list[str], words: Callable[[str], set[str]],
                before: tuple[str, ...] = ()) -> set[str] | None:
    """The top-level names the editable finders of the site folder ``folder`` map
    (setuptools' ``__editable___NAME_finder.py``, which a ``.pth`` imports and appends to
    ``sys.meta_path``: its ``MAPPING`` and ``NAMESPACES``, literal dicts; s56-greview3 E):
    each a module found outside every site folder. None where a finder module there is not
    read so (its text not literal), or where ``_finders_read`` of its ``.pth`` files ``pths``
    (``words``: the names of a line; ``before``: the folders on ``sys.path`` before it) is
    false."""
    import glob

    names: set[str] = set()
    for path in glob.glob(os.path.join(glob.escape(folder), "__editable__*finder.py")):
        import ast  # (only where a finder is there: most site folders hold none)

        try:
            data = fs.read(path, _LIMIT + 1)
            tree = ast.parse(data if len(data) <= _LIMIT else b"(")
        except (OSError, SyntaxError, ValueError):
            return None
        read = 0
        for statement in tree.body:
            if not isinstance(statement, (ast.Assign, ast.AnnAssign)):
                continue
            target = statement.target if isinstance(statement, ast.AnnAssign) else \
                statement.targets[0] if len(statement.targets) == 1 else None
            if not isinstance(target, ast.Name) or target.id not in ("MAPPING", "NAMESPACES"):
                continue
            try:
                value = ast.literal_eval(statement.value) if statement.value else None
            except ValueError:
                return None
            if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
                return None
            names |= {k.split(".")[0].lower() for k in value}
            read += target.id == "MAPPING"
        if not read:
            return None
    return names if _finders_read(folder, pths, words, before) else None


#: What a module's text holds where it may put a finder after the path's (``sys.meta_path``
#: appended to, extended, assigned, indexed, inserted into but at its start; a path hook).
_APPENDS: Final = (rb"path_hooks|setattr\s*\(\s*sys\b|addsitedir|\bpath\s*\.\s*(?:append|extend|"
                   rb"insert)\s*\(|sys\s*\.\s*path\b|from\s+sys\s+import|import\s+sys\s+as\b|"
                   rb"(?<!os)\.\s*path\b")
#: The uses of ``sys.meta_path`` that put no finder after the path finder (a membership test,
#: an insertion at its start, a removal: ``_distutils_hack``'s).
_FIRST: Final = rb"\s*(?:\.\s*insert\s*\(\s*0\s*,|\.\s*remove\s*\(|(?:or|and)\b|:)"
#: setuptools' editable finder's ``.pth`` line (its module read: ``finder_tops``).
_EDITABLE: Final = rb"import (__editable___\w+_finder); \1\.install\(\)\s*"


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


def _finders_read(folder: str, pths: list[str], names: Callable[[str], set[str]],
                  before: tuple[str, ...] = ()) -> bool:
    """Whether no ``.pth`` import line of the site folder ``folder`` may move what Python
    imports by its own code (``_site_code``: ``import site; site.addsitedir(…)``), and no module
    it imports from it (nor any that imports from it: ``_appends_none``), but setuptools'
    finders (``finder_tops``), may put a finder after the path finder or a folder on
    ``sys.path`` (``appends``: editables' ``RedirectingFinder``, scikit-build-core's,
    meson-python's loaders map names no site folder lists; s57-greview2 E-EDITABLES,
    E-PTHCODE): where one may, its names are not known. A module is read in the folders
    ``before`` too (PYTHONPATH's: on ``sys.path`` first)."""
    import re

    read = pth_texts(pths)
    if None in read or any(c in _BREAKS for text in read if text for c in text):
        return False  # (a line break site does not take: s59-preview E)
    texts = [text.splitlines() for text in read if text is not None]
    added = added_folders(folder, read)
    called: set[str] = set()
    for lines in texts:  # (a module looked up in every folder a .pth there adds: E-PRESENT)
        code = [line for line in lines if line.startswith(("import ", "import\t")) and not
                re.fullmatch(_nspkg(), line)]  # (setuptools' nspkg template, matched whole:
        # a namespace of this site folder, listed; s57-greview2 K-NSPKG, s58-preview
        # E-NSPKG-LOOKALIKE)
        tops = {n for line in code for n in names(line)
                if n not in STANDARD and not n.startswith("__editable__")}
        modules = [site_code(line.encode(), tops, True, called) for line in code
                   if not re.fullmatch(_EDITABLE, line.encode())]
        if None in modules or not _appends_none([*before, folder, *added], sorted(
                tops | {n for m in modules for n in m or ()}), called):
            return False
    return _appends_none([*before, folder, *added], sorted(_CUSTOMIZE), called)


#: The line breaks ``str.splitlines`` takes that ``site`` does not (it reads a ``.pth`` in text
#: mode: ``\n``, ``\r``, ``\r\n`` only): a text holding one is not read (its lines not known;
#: s59-preview E ``pth-line-split-by-a-form-feed``).
_BREAKS: Final = "\v\f\x1c\x1d\x1e\x85\u2028\u2029"
#: setuptools' namespace ``.pth`` line (``setuptools.namespaces.Installer._nspkg_tmpl``, its
#: statements joined by ``;``; ``_nspkg_tmpl_multi`` for a nested one's parent).
_NSPKG: Final = (
    "import sys, types, os;has_mfs = sys.version_info > (3, 5);p = os.path.join(%(root)s, "
    "*%(pth)r);importlib = has_mfs and __import__('importlib.util');has_mfs and "
    "__import__('importlib.machinery');m = has_mfs and sys.modules.setdefault(%(pkg)r, "
    "importlib.util.module_from_spec(importlib.machinery.PathFinder.find_spec(%(pkg)r, "
    "[os.path.dirname(p)])));m = m or sys.modules.setdefault(%(pkg)r, "
    "types.ModuleType(%(pkg)r));mp = (m or []) and m.__dict__.setdefault('__path__',[]);"
    "(p not in mp) and mp.append(p)", "m and setattr(sys.modules[%(parent)r], %(child)r, m)")


def _nspkg() -> str:
    """``_NSPKG`` as a pattern: its values the only variables (the site folder's expression
    or a literal root, a tuple of names, a package's dotted name)."""
    import re

    def pattern(text: str) -> str:
        for mark, value in (("%(root)s", "@R"), ("%(pth)r", "@T"), ("%(pkg)r", "@P"),
                            ("%(parent)r", "@P"), ("%(child)r", "@N")):
            text = text.replace(mark, value)
        return re.escape(text).replace("@R", r"(?:sys\._getframe\(1\)\.f_locals\['sitedir'\]|"
                                             r"'[^'\\\n]*')").replace(
            "@T", r"\('\w+'(?:, '\w+')*,?\)").replace("@P", r"'[\w.]+'").replace("@N", r"'\w+'")

    return pattern(_NSPKG[0]) + "(?:;" + pattern(_NSPKG[1]) + r")?\s*"


#: The modules ``site`` imports at every start from ``sys.path`` (a site folder's: read as a
#: ``.pth`` line's module; s58-preview E-SITECUSTOMIZE).
_CUSTOMIZE: Final = frozenset(("sitecustomize", "usercustomize"))


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


#: How many modules ``_appends_none`` reads before it takes one as appending.
_READ_MODULES: Final = 64


def _appends_none(folders: list[str], tops: list[str], called: set[str] | None = None) -> bool:
    """Whether none of the modules ``tops`` of the site folder and the folders its ``.pth``
    adds (``folders``: E-REGEX2), nor any module of them they import (absolute or relative,
    at any depth, up to ``_READ_MODULES``), may put a finder after the path finder
    (``appends``), runs import-time code ``_site_code`` does not read (but ``_VETTED``'s), or
    is not readable; nor any function of them site code calls (``called``, and those its
    modules' code calls) runs code ``_site_code`` does not read (``_called_read``)."""
    import re

    from .exactlists import identifiers

    called = set() if called is None else called
    present = {n.partition(".")[0] for folder in folders for n in _entries(folder)}
    zipped = _archived(folders)
    names, seen = list(tops), set()
    while names:
        name = names.pop()
        if zipped is None or (name.split(".")[0].lower() in zipped and (
                name.split(".")[0] not in STANDARD or name in _CUSTOMIZE)):
            return False  # (site code's module, a sitecustomize, found in a PYTHONPATH zip)
        if name in seen or (name.split(".")[0] in STANDARD and name not in _CUSTOMIZE) or \
                name.split(".")[0] not in present:
            continue
        seen.add(name)
        if len(seen) > _READ_MODULES:
            return False
        for package, text in (t for folder in folders for t in _module_texts(folder, name)):
            if text is None or (name not in _CUSTOMIZE and appends(text)) or (
                    not _vetted(text) and site_code(text, identifiers(text), False,
                                                    called) is None):  # (its import-time
                return False  # code: the allow-list; s59-preview E-DENYLIST-DEEPER)
            if name in _CUSTOMIZE:  # (a module it names by a string too: `__import__('x')`)
                names += sorted(identifiers(text) - STANDARD)
            for word in re.findall(rb"^\s*(?:from|import)\s+(\.*[A-Za-z_][\w.]*)", text,
                                   re.M):
                dots = len(word) - len(word.lstrip(b"."))  # (relative: from its package)
                base = package.split(".")[:len(package.split(".")) - dots + 1] if dots else []
                names.append(".".join([*base, word.lstrip(b".").decode()]))
    return _called_read(folders, present, called)


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
    found: list[tuple[str, bytes | None]] = []
    for file, package in ((path + ".py", name.rpartition(".")[0]),
                          (os.path.join(path, "__init__.py"), name)):
        try:
            data = fs.read(file, _LIMIT + 1)
            found.append((package, None if len(data) > _LIMIT else data))
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError:
            found.append((package, None))
    if any(os.path.isfile(path + s) for s in (".so", ".pyc", ".abi3.so")):
        found.append((name, None))
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
        for file, own in ((path + ".py", package), (os.path.join(path, "__init__.py"),
                                                     ".".join(parts[:at]))):
            try:
                data = fs.read(file, _LIMIT + 1)
                found.append((own, None if len(data) > _LIMIT else data))
            except (FileNotFoundError, NotADirectoryError):
                continue
            except OSError:
                found.append((own, None))
        if any(os.path.isfile(path + s) for s in (".so", ".pyc", ".abi3.so")):
            found.append((package, None))
    return found


def _entries(folder: str) -> list[str]:
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
    listed = _entries(folder)
    paths = [os.path.join(folder, n, "entry_points.txt") for n in listed
             if n.lower().endswith((".dist-info", ".egg-info"))] + [
        os.path.join(folder, n, e, "entry_points.txt") for n in listed
        if n.lower().endswith(".egg") for e in _entries(os.path.join(folder, n))
        if e.lower() == "egg-info"] + [os.path.join(folder, e, "entry_points.txt") for e in (
            listed if folder.lower().endswith(".egg") else ()) if e.lower() == "egg-info"]
    # (importlib.metadata's Lookup lowercases the names: s59-preview E-EP-CASE)
    for path in paths:
        try:
            names |= _pytest11(fs.read(path, 1 << 20))
        except OSError:
            continue
    return names


def _pytest11(data: bytes) -> set[str]:
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
        names |= _pytest11(text)
    return names
