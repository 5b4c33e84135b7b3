"""Site start code read exactly (issue 29, session 59): a ``.pth`` import line and a
``sitecustomize``/``usercustomize`` (and the modules they import, ``sitemodules.
appends_none``) read by ``exactcode``'s allow-list in place of a deny-list of spellings
(s58-preview E-DENYLIST-2: ``runpy``, ``timeit``): no ``sys.path``, finder, ``site``,
``importlib`` call, no environment written (s59-preview E-SITE-ENV), no name of ``site``'s
rebound by a ``.pth`` line (run in its namespace: E-PTH-SITE-GLOBALS)."""

from __future__ import annotations

from .placed import STANDARD

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The calls a ``.pth`` import line and ``sitecustomize`` may make (``exactcode``'s allow-list:
#: none moves what Python imports): the environment's values, paths' tests; a function of a
#: module of the site folder is read as that module (``sitemodules.appends_none``).
_SITE_CALLS: Final = frozenset(("os.environ.get", "os.environ.items", "os.environ.keys",
                                "os.environ.copy", "os.path.*"))
#: The attributes site code may not name (``sys.path``, a finder's lists; the environment is
#: read only: stores and writing methods are not read, s59-preview E-SITE-ENV).
_SITE_KEPT: Final = frozenset(("path", "meta_path", "path_hooks", "path_importer_cache"))

def site_code(text: bytes, foreign: set[str], line: bool = False,
              called: set[str] | None = None) -> list[str] | None:
    """The modules site code ``text`` (a ``.pth`` import line, a ``sitecustomize``) imports
    where it is read exactly by ``exactcode``'s allow-list (``_SITE_CALLS``; no ``sys.path``,
    finder, ``site``, ``importlib``, ``runpy``, ``timeit``…: s58-preview E-DENYLIST-2), a
    function of a module of ``foreign`` (not the standard library's: read by
    ``sitemodules.appends_none``) called; a ``.pth`` ``line`` (run in ``site``'s namespace)
    binding none of ``site``'s names; None where it is not (what it adds is not known).
    Each function of a module of ``foreign`` called is added to ``called``
    (``sitemodules.appends_none`` reads its body: s59-preview E-FOREIGN-BODY)."""
    import ast

    from .exactcode import exact

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    if not exact(tree, "", calls=_SITE_CALLS, decorators=frozenset(), bases=frozenset(),
                 foreign=frozenset(n for n in foreign if n not in STANDARD),
                 kept=_SITE_KEPT, strings=True, called=called) or (
                     line and not _binds_no_site_name(tree)):
        return None
    return [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
            and not n.level] + [a.name for n in ast.walk(tree) if isinstance(n, ast.Import)
                                for a in n.names]


def _binds_no_site_name(tree: object, depth: int = 0) -> bool:
    """Whether the ``ast`` module ``tree`` (a ``.pth`` line's, and the literal strings it
    runs) binds no name of ``site``'s module (``makepath``, ``addpackage``…: s59-preview
    E-PTH-SITE-GLOBALS) but ``os`` and ``sys`` as themselves."""
    import ast
    import site

    names = {n for n in vars(site) if not n.startswith("__")} | _SITE_NAMES
    for node in ast.walk(tree):  # type: ignore[arg-type]
        bound = {node.id} if isinstance(node, ast.Name) and not isinstance(
            node.ctx, ast.Load) else {node.name} if isinstance(node, (
                ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else {
            a.asname or a.name.split(".")[0] for a in node.names if a.asname or a.name not in (
                "os", "sys")} if isinstance(node, (ast.Import, ast.ImportFrom)) else set()
        if bound & names or (isinstance(node, ast.Constant) and isinstance(
                node.value, str) and depth < 3 and _parses(node.value) and
                not _binds_no_site_name(ast.parse(node.value), depth + 1)):
            return False
    return True


def _parses(text: str) -> bool:
    """Whether ``text`` parses as Python."""
    import ast

    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True


#: ``site``'s names of other versions (besides the hook's own: ``_binds_no_site_name``).
_SITE_NAMES: Final = frozenset(("makepath", "addpackage", "addsitedir", "addsitepackages",
                                "addusersitepackages", "main", "venv", "execsitecustomize",
                                "execusercustomize", "abs_paths", "removeduppaths", "io",
                                "builtins", "os", "sys", "_trace", "_init_pathinfo"))
