"""Where bun finds a preload named by a package's name before ``node_modules`` (review
s52-greview2 R2): bun 1.4.5 resolves a bare name by the ``compilerOptions`` of a
``tsconfig.json`` or ``jsconfig.json`` first, ``paths`` (``"tp": ["./code/tp.js"]``, a
pattern ``"t*": ["./code/*.js"]``) and ``baseUrl`` (``"code"``: ``code/tp.js``). What this
gives, for a preload of a ``bunfig.toml`` in a folder: each such file from the folder up
(guarded: a new one would change the answer), and for each there is, every path its
``paths`` map the name to and the name below its ``baseUrl``, with the endings bun adds and
the folder whole. Refused (ValueError, naming why): a file the gate cannot read as JSON with
comments, one that ``extends`` another (not read here), a target that is a folder a call runs
in or above one.
"""

from __future__ import annotations

import os

from . import files as fs
from .named import above
from .noderesolve import outside

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Any, Final

#: The endings bun adds to a name it resolves, and its folders' index files.
_ENDINGS: Final = (".tsx", ".ts", ".jsx", ".js", ".mjs", ".cjs", ".mts", ".cts", ".json")
_NAMES: Final = ("tsconfig.json", "jsconfig.json")


def mapped_paths(spec: str, base: str, folders: list[str]) -> list[str]:
    """The paths (see the module's text) for the bare name ``spec`` a bunfig in the folder
    ``base`` preloads, ``folders`` the ones a call runs in (and each up). Raises ValueError
    where they are not known."""
    found: list[str] = []
    for folder in [base, *above(base)]:
        for name in _NAMES:
            path = os.path.join(folder, name)
            found.append(path)
            options = _options(path)
            if options is None:
                continue
            root = folder
            if isinstance(options.get("baseUrl"), str):
                root = os.path.normpath(os.path.join(folder, options["baseUrl"]))
                found += _ended(os.path.join(root, spec), folders, path)
            mapped = options.get("paths")
            for key, targets in (mapped.items() if isinstance(mapped, dict) else ()):
                star = key.find("*")
                if key != spec and not (star >= 0 and spec.startswith(key[:star]) and
                                        spec.endswith(key[star + 1:]) and
                                        len(spec) >= len(key) - 1):
                    continue
                match = spec[star:len(spec) - len(key) + star + 1] if star >= 0 else ""
                for target in targets if isinstance(targets, list) else [targets]:
                    if isinstance(target, str):
                        found += _ended(os.path.join(root, target.replace("*", match)),
                                        folders, path)
    return found


def _ended(path: str, folders: list[str], source: str) -> list[str]:
    """``path`` (normalized), with each ending bun adds, its index files, and the folder
    whole; ValueError where it is a folder a call runs in or above one."""
    path = outside(os.path.normpath(path), folders, f"{source}'s compilerOptions")
    return [path, *(path + e for e in _ENDINGS),
            *(os.path.join(path, "index" + e) for e in _ENDINGS), path + "/"]


def _options(path: str) -> dict[str, Any] | None:
    """The ``compilerOptions`` of the file at ``path`` (JSON with comments and trailing
    commas, as TypeScript reads it), or None where there is none. ValueError for one not
    read, or one that ``extends`` another."""
    import json

    try:
        text = fs.read(path, 1 << 20).decode()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, ValueError) as e:
        raise ValueError(f"{path!r} cannot be read ({e}): where bun finds a preload is not "
                         "known") from e
    try:
        settings = json.loads(_plain(text))
    except ValueError as e:
        raise ValueError(f"{path!r} is not JSON the gate reads: where bun finds a preload "
                         "is not known") from e
    if not isinstance(settings, dict) or "extends" in settings:
        raise ValueError(f"{path!r} extends another settings file (or is no object), which "
                         "the gate does not read: where bun finds a preload is not known")
    options = settings.get("compilerOptions")
    return options if isinstance(options, dict) else {}


def _plain(text: str) -> str:
    """``text`` less its comments (``//``, ``/* */``, outside strings) and the commas before
    a closing bracket (JSON with comments, as tsconfig.json is written)."""
    import re

    strings = r'"(?:\\.|[^"\\])*"'
    text = re.sub(strings + r"|//[^\n]*|/\*.*?\*/", lambda m: m.group() if m.group()[0] == '"'
                  else " ", text, flags=re.DOTALL)
    return re.sub(strings + r"|,(\s*[]}])", lambda m: m.group(1) if m.group(1) is not None
                  else m.group(), text)
