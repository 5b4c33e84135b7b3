"""Where cargo keeps what it built, for a plan running cargo (review s45 P2).

``cargo build`` runs the build script it compiled into ``target/debug/build/PKG-HASH/
build-script-build`` again, without compiling it, when a file the script named with
``rerun-if-changed`` changes: a covered copy over it is code cargo runs. So cargo's target
folder is guarded whole, as its ``build.rs`` is: ``target/`` in each folder from the call's up
(``planprograms.STARTS``, ``^target/``), and here the folders cargo is told to use instead —
``CARGO_TARGET_DIR``, ``CARGO_BUILD_TARGET_DIR``, ``CARGO_BUILD_BUILD_DIR`` and
``build.target-dir``/``build.build-dir`` in its configuration files (``.cargo/config.toml``
or ``.cargo/config`` in each folder from the call's up, then ``$CARGO_HOME``'s). Reading
stays allowed (``cp target/release/app out/``: ``copied``)."""

from __future__ import annotations

import itertools
import os

from . import files as fs
from .named import above

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

_VARIABLES: Final = ("CARGO_TARGET_DIR", "CARGO_BUILD_TARGET_DIR", "CARGO_BUILD_BUILD_DIR")
#: The environment's variables ``cargo_dirs`` reads (``guards``' key of its items).
CARGO_ENVIRONMENT: Final = ("CARGO_HOME", *_VARIABLES)
_KEYS: Final = ("target-dir", "build-dir")


def cargo_dirs(start: str) -> list[tuple[str, bool]]:
    """The folders (guarded whole) cargo run in ``start`` is told to build in. A
    configuration file naming one that is not read here guards the folder holding its
    ``.cargo`` whole (cargo would read it, the gate cannot)."""
    ups = above(start)
    home = os.environ.get("CARGO_HOME") or os.path.join(os.path.expanduser("~"), ".cargo")
    found = [_placed(v, start, home, [start, *ups]) for v in map(os.environ.get, _VARIABLES)
             if v]
    configs = [os.path.join(f, ".cargo", n) for f in [start, *ups]
               for n in ("config.toml", "config")]
    configs += [os.path.join(home, "config.toml"), os.path.join(home, "config")]
    for config in configs:  # (a file one `include`s is read as one: review s47 C5)
        try:
            text = fs.read(config, 1 << 20).decode()
        except FileNotFoundError:
            continue
        except (OSError, ValueError):  # (unreadable, not UTF-8: cargo's own error)
            text = "target-dir"
        base = os.path.dirname(os.path.dirname(config))
        if any(key in text for key in _KEYS):  # (tomllib only where one is named)
            found += _configured(text, base, home, [start, *ups])
        if "include" in text and len(configs) < 64:
            named = _included(text, os.path.dirname(config))
            found.append([base] if named is None else named)
            configs += [n for n in named or () if n not in configs]
    found += [_built(f) for f in [start, *ups]]
    return [(path, True) for paths in found for path in paths]


def _included(text: str, folder: str) -> list[str] | None:
    """The files the configuration ``text`` (of a file in ``folder``) ``include``s (a path,
    a list of paths or of tables with a ``path``, relative to ``folder``); [] when it cannot
    be read (its folder is then guarded whole): None."""
    import tomllib

    try:
        given = tomllib.loads(text).get("include", [])
    except (tomllib.TOMLDecodeError, ValueError):
        return None
    given = [given] if isinstance(given, str) else given if isinstance(given, list) else [1]
    paths = [g.get("path") if isinstance(g, dict) else g for g in given]
    if not all(isinstance(p, str) for p in paths):
        return None
    return [os.path.normpath(os.path.join(folder, str(p))) for p in paths]


def _built(folder: str) -> list[str]:
    """The build script the ``Cargo.toml`` in ``folder`` names (``package.build``: review s47
    C6; the default ``build.rs`` is ``STARTS``'); the folder whole when it cannot be read."""
    try:
        text = fs.read(os.path.join(folder, "Cargo.toml"), 1 << 20).decode()
    except FileNotFoundError:
        return []
    except (OSError, ValueError):
        return [folder]
    if "build" not in text:
        return []
    import tomllib

    try:
        package = tomllib.loads(text).get("package", {})
    except (tomllib.TOMLDecodeError, ValueError):
        return []  # (cargo refuses it: nothing runs)
    build = package.get("build") if isinstance(package, dict) else None
    return [os.path.normpath(os.path.join(folder, build))] if isinstance(build, str) else \
        [] if build is None or isinstance(build, bool) else [folder]


def _configured(text: str, base: str, home: str, ups: list[str]) -> list[list[str]]:
    """The folders the configuration ``text`` (of a file in ``base/.cargo``) names; ``base``
    itself when it cannot be read."""
    import tomllib

    try:
        build = tomllib.loads(text).get("build", {})
        values = [build.get(key) for key in _KEYS] if isinstance(build, dict) else [1]
    except (tomllib.TOMLDecodeError, ValueError):
        return [[base]]
    if not all(v is None or isinstance(v, str) for v in values):
        return [[base]]
    return [_placed(v, base, home, ups) for v in values if isinstance(v, str) and v]


def _placed(value: str, base: str, home: str, ups: list[str]) -> list[str]:
    """The folders ``value`` (a folder of cargo's, relative to ``base``) may be: cargo's
    templates filled (``{cargo-cache-home}``, ``{workspace-root}`` as each folder up), the
    folder before any other one (``{workspace-path-hash}``)."""
    path = os.path.join(base, value.replace("{cargo-cache-home}", home))
    paths = [os.path.join(base, value.replace("{workspace-root}", f).replace(
        "{cargo-cache-home}", home)) for f in ups] if "{workspace-root}" in value else [path]
    return [os.path.normpath(p[:p.find("{")].rsplit("/", 1)[0] or "/" if "{" in p else p)
            for p in paths]


def unguarded_target(words: list[str], moved: list[str] | str | None) -> str | None:
    """A ``--target-dir`` value of the words (the guard's, of a command) that ``in_target``
    passes but that, read from the call's folder or one a move of the command names (``cd sub
    && cargo build --target-dir target/x``), lies in no folder guarded whole, where the set
    guards a ``target`` folder (a plan running cargo): an earlier call may have put a
    compiled build script there (review s46 C3), saying so. ``moved``: the folders
    ``moves.moved_folders`` names (a str or None: one it cannot). None when there is none."""
    from .cargoargs import in_target
    from .named import folded_items
    from .placed import fold

    values = [v for w, v in itertools.pairwise(words) if w == "--target-dir" and in_target(v)]
    folders_guarded = [item + "/" for item, tree in folded_items() if tree]
    if not values or not any(f.endswith("/target/") for f in folders_guarded):
        return None
    for value in values:
        paths = [os.path.join(f, value) for f in moved] if isinstance(moved, list) else []
        forms = [fold(os.path.normpath(p)) + "/" for path in paths
                 for p in (path, fs.realpath(path))]
        if not paths or not all(any(f.startswith(g) for g in folders_guarded) for f in forms):
            return (f"--target-dir {value} (cargo's build folder, read from the folder it "
                    "runs in, is not in a folder the gate guards: an earlier call may have "
                    "written a compiled build script there, which cargo runs)")
    return None
