"""What a site folder's editable finders make Python import from outside it (issue 29,
sessions 56-57: s56-greview3 E): the top names setuptools' editable finders map
(``finder_tops``: ``MAPPING``, ``NAMESPACES``); None (any name) where a ``.pth`` import
line's module, or one it imports from the folder, may put a finder after the path finder
that the gate does not read (editables', scikit-build-core's, meson-python's:
``sitemodules.appends``), or a ``.pth`` line is not read exactly (``sitecode``). Its
distributions' entry points and archives: ``sitearchives``."""

from __future__ import annotations

import os

from . import files as fs
from .loadedlibs import READ_LIMIT as _LIMIT
from .loadedlibs import added_folders, pth_texts
from .placed import STANDARD
from .sitecode import site_code
from .sitemodules import CUSTOMIZE, appends_none

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Final

def finder_tops(folder: str, pths: list[str], words: Callable[[str], set[str]],
                before: tuple[str, ...] = (), after: tuple[str, ...] = ()) -> set[str] | None:
    """The top-level names the editable finders of the site folder ``folder`` map
    (setuptools' ``__editable___NAME_finder.py``, which a ``.pth`` imports and appends to
    ``sys.meta_path``: its ``MAPPING`` and ``NAMESPACES``, literal dicts; s56-greview3 E):
    each a module found outside every site folder. None where a finder module there is not
    read so (its text not literal), or where ``_finders_read`` of its ``.pth`` files ``pths``
    (``words``: the names of a line; ``before``: the folders on ``sys.path`` before it;
    ``after``: the other site folders) is false."""
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
    return names if _finders_read(folder, pths, words, before, after) else None

#: setuptools' editable finder's ``.pth`` line (its module read: ``finder_tops``).
_EDITABLE: Final = rb"import (__editable___\w+_finder); \1\.install\(\)\s*"

def _finders_read(folder: str, pths: list[str], names: Callable[[str], set[str]],
                  before: tuple[str, ...] = (), after: tuple[str, ...] = ()) -> bool:
    """Whether no ``.pth`` import line of the site folder ``folder`` may move what Python
    imports by its own code (``_site_code``: ``import site; site.addsitedir(…)``), and no module
    it imports from it (nor any that imports from it: ``appends_none``), but setuptools'
    finders (``finder_tops``), may put a finder after the path finder or a folder on
    ``sys.path`` (``appends``: editables' ``RedirectingFinder``, scikit-build-core's,
    meson-python's loaders map names no site folder lists; s57-greview2 E-EDITABLES,
    E-PTHCODE): where one may, its names are not known. A module is read in the folders
    ``before`` too (PYTHONPATH's: on ``sys.path`` first); a function site code calls, in
    ``after`` too (the other site folders: a venv's base's; s60-preview E)."""
    import re

    read = pth_texts(pths)
    if None in read or any(c in _BREAKS for text in read if text for c in text):
        return False  # (a line break site does not take: s59-preview E)
    texts = [text.splitlines() for text in read if text is not None]
    added = added_folders(folder, read)
    called: set[str] = set()
    places = [*before, folder, *added]
    elsewhere = [a for a in after if a not in places]
    for lines in texts:  # (a module looked up in every folder a .pth there adds: E-PRESENT)
        code = [line for line in lines if line.startswith(("import ", "import\t")) and not
                re.fullmatch(_nspkg(), line)]  # (setuptools' nspkg template, matched whole:
        # a namespace of this site folder, listed; s57-greview2 K-NSPKG, s58-preview
        # E-NSPKG-LOOKALIKE)
        tops = {n for line in code for n in names(line)
                if n not in STANDARD and not n.startswith("__editable__")}
        modules = [site_code(line.encode(), tops, True, called) for line in code
                   if not re.fullmatch(_EDITABLE, line.encode())]
        if None in modules or not appends_none(places, sorted(
                tops | {n for m in modules for n in m or ()}), called, elsewhere):
            return False
    return appends_none(places, sorted(CUSTOMIZE), called, elsewhere)

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
