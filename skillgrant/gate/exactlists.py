"""The allow-lists of ``exactcode``'s reading (issue 29, session 59): the builtins, value
methods and attributes module code read exactly may use, and how an import binds names."""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The builtins an allowed expression may name and call (each reaches no namespace by a
#: computed name and runs no code from data; ``getattr`` of a literal name: ``_call``).
BUILTINS: Final = frozenset((
    "abs", "all", "any", "ascii", "bin", "bool", "bytearray", "bytes", "callable", "chr",
    "complex", "dict", "divmod", "enumerate", "float", "format", "frozenset", "hasattr",
    "hash", "hex", "id", "int", "isinstance", "issubclass", "len", "list", "max", "min",
    "object", "oct", "ord", "pow", "print", "range", "repr", "reversed", "round", "set",
    "slice", "sorted", "str", "sum", "tuple", "zip", "open", "property", "staticmethod",
    "classmethod", "getattr", "type", "True", "False", "None", "Ellipsis", "NotImplemented",
    "__file__", "__name__", "__doc__"))
#: The builtins that run a literal string (read where ``strings``: ``_Reader.string``).
STRINGS: Final = frozenset(("exec", "eval", "compile", "__import__"))
#: How deep a literal string's code is read.
DEPTH: Final = 3
#: The methods of any value an allowed expression may call (containers', strings', paths').
METHODS: Final = frozenset((
    "append", "extend", "insert", "remove", "add", "discard", "update", "get", "setdefault",
    "pop", "copy", "clear", "join", "split", "rsplit", "splitlines", "strip", "lstrip",
    "rstrip", "lower", "upper", "replace", "startswith", "endswith", "format", "encode",
    "decode", "resolve", "absolute", "joinpath", "exists", "is_dir", "is_file", "read_text",
    "read_bytes", "mkdir", "items", "keys", "values", "with_name", "with_suffix",
    "relative_to", "expanduser", "as_posix", "count", "index", "read", "write",
    "seek", "tell", "close", "flush", "glob", "rglob", "iterdir", "unlink"))
#: Of those, the methods site code may call (none writes a mapping: the environment's,
#: ``os.environb.update``, s59-preview E-SITE-ENVIRONB).
READING: Final = frozenset(("get", "read", "seek", "tell", "write", "close", "startswith",
                            "endswith", "strip", "split", "join", "lower", "upper", "replace",
                            "format", "encode", "decode", "exists", "is_file", "is_dir",
                            "count", "index"))
#: The attributes import-time code may not name (the module reached in ``sys.modules``).
KEPT: Final = frozenset(("modules",))
#: The prefixes of the interpreter's own attributes reaching a frame and its namespaces (a
#: frame's ``f_globals``, a generator's ``gi_frame``, a coroutine's, an async generator's, a
#: traceback's: s59-preview P-EXACT-FRAME), and a cell's contents.
FRAMES: Final = ("f_", "gi_", "cr_", "ag_", "tb_", "cell_contents")
#: The dunder attributes an allowed expression may name (data: a module's file, version).
DATA: Final = frozenset(("__file__", "__name__", "__version__", "__doc__"))
#: The methods of a class its creation may call: each makes the class not read.
CLASS_HOOKS: Final = frozenset(("__init_subclass__", "__class_getitem__", "__set_name__",
                                "__mro_entries__", "__prepare__"))


def imports(node: object) -> list[tuple[str, str]]:
    """The names the import statement ``node`` binds, each with the dotted name it binds
    (``import a.b``: ``a``, ``a``; ``import a.b as c``: ``c``, ``a.b``; ``from a import b``:
    ``b``, ``a.b``)."""
    import ast

    if isinstance(node, ast.Import):
        return [(a.asname, a.name) if a.asname else (a.name.split(".")[0],) * 2
                for a in node.names]
    assert isinstance(node, ast.ImportFrom)
    base = "." * node.level + (node.module or "")
    return [(a.asname or a.name, base + "." + a.name) for a in node.names]


def binds(node: object, name: str) -> bool:
    """Whether the class body statement ``node`` binds ``name`` (a ``def``, an assignment)."""
    import ast

    return (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and
            node.name == name) or (isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign))
                                   and any(isinstance(t, ast.Name) and t.id == name for t in (
                                       node.targets if isinstance(node, ast.Assign) else
                                       [node.target])))


def reaching(attribute: str) -> bool:
    """Whether an ``attribute`` may reach a namespace or run code: a dunder but ``DATA``'s
    (``__dict__``, ``__globals__``, ``__self__``), a frame's, a generator's… (``FRAMES``), an
    unlisted builtin's name (``builtins.setattr``)."""
    return (attribute[:2] == "__" and attribute not in DATA) or attribute.startswith(
        FRAMES) or unlisted_builtin(attribute)


def unlisted_builtin(name: str) -> bool:
    """Whether ``name`` is a builtin's outside ``BUILTINS`` (``setattr``, ``exec``,
    ``vars``…; an exception's class is listed): as an attribute too (``builtins.exec``)."""
    import builtins

    return hasattr(builtins, name) and name not in BUILTINS and not exception(name)


def exception(name: str) -> bool:
    """Whether ``name`` is a builtin exception's (a warning's) class name."""
    import builtins

    found = getattr(builtins, name, None) if name.endswith(("Error", "Exception", "Warning",
                                                             "Exit", "Interrupt")) else None
    return isinstance(found, type) and issubclass(found, BaseException)


def identifiers(text: bytes) -> set[str]:
    """The identifiers of a module's ``text`` (its imports' names among them)."""
    import re

    return {w.decode() for w in re.findall(rb"[A-Za-z_]\w*", text)}


def listed(dotted: str, entries: frozenset[str]) -> bool:
    """Whether ``dotted`` is in ``entries`` or one public name below one of its ``.*``
    entries (``os.path.join``; not ``os.path.sys.modules``, ``os.path.__dict__``)."""
    head, _, last = dotted.rpartition(".")
    return bool(dotted) and (dotted in entries or (
        head + ".*" in entries and not last.startswith("_") and last not in KEPT))


def spelled(data: bytes, word: str) -> bool:
    """Whether a module's ``data`` names ``word`` (a whole identifier) as Python reads it: in
    its bytes where they are ASCII with no coding cookie in its first two lines; else in its
    text decoded as Python decodes it (the cookie's codec: ``+AF8-`` in UTF-7) and
    NFKC-normalized as Python normalizes identifiers (a fullwidth letter), the whole text (a
    superset); True where it cannot be decoded (s60-preview M, S). Its lines end where
    CPython's do, at ``\r`` too (a cookie on a third ``\r`` line is none: s61-greview G20)."""
    import re

    data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")  # (CPython ends a line at
    if data.isascii() and b"coding" not in b"\n".join(data.split(b"\n", 2)[:2]):  # `\r`)
        return re.search(rb"(?<!\w)" + word.encode() + rb"(?!\w)", data) is not None
    import io
    import tokenize
    import unicodedata

    try:
        text = data.decode(tokenize.detect_encoding(io.BytesIO(data).readline)[0])
    except (SyntaxError, LookupError, UnicodeDecodeError):
        return True
    return re.search(r"(?<!\w)" + re.escape(word) + r"(?!\w)", unicodedata.normalize(
        "NFKC", text)) is not None
