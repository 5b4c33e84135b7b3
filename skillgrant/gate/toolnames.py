"""The files gcc, cpp, ld and the dynamic loader look up by name in a folder a toolchain value
names (issue 29, review s54-greview3 D1, D1b, D1c, D2, P1b; session 55).

A toolchain value (``-I.``, ``-B./``, ``-L..``, ``CPATH=.``, ``COMPILER_PATH``'s empty element,
``LD_RUN_PATH=.``) may name the folder a call runs in, or one above it, which cannot be
guarded whole (every write of the session lies there). What the
programs take from such a folder is what they look up there by name, and those names are
guarded in it (``looked_up``), the rest of the folder left as it is:

- the programs and files gcc's driver finds by a prefix or ``COMPILER_PATH`` (``as``, ``ld``,
  ``cc1``, ``collect2``, ``lto-wrapper``, its plugin, ``specs``, the start files ``crt1.o``…,
  and the toolchain's other programs: ``PROGRAMS``); the folders gcc reads below a prefix
  (``include``, ``<machine>/``: every name of ``/usr/lib/gcc``), whole (make's prefix of
  programs' names, ``CROSS_COMPILE=./x-``, is refused there: ``flagpaths.prefix_in_kept``);
- the headers ``#include <…>`` finds there before the system's: every name of the system's
  include folders (a file, or a folder such as ``sys/``, ``bits/`` whole; where the folder
  holds a folder of that name, ``net/``, the names below it the system's holds: session 56),
  the headers the folder holds already (``*.h``, ``*.hpp``…: a header there is code the build
  compiles), those the system's headers ask for that a system may lack (``tbb/``), and
  any but a document a later folder of the same search holds, by its path below it
  (``-I. -Iinclude``: ``include/cfg/c.h`` guards ``./cfg/c.h``), each with its precompiled
  form (``stdio.h.gch``, a file or a folder: cpp takes it first);
- the libraries ld links and the loader loads: every ``lib*`` name and start file of the
  system's library folders (``libm.a``, ``libm.so.6``, ``libgcc_s.so.1``), those the folder
  holds, and the folders below it gcc and the loader try first (``<machine>/``,
  ``glibc-hwcaps/``, ``tls/``, ``x86_64/``…), whole; a sysroot's ``usr/`` and ``lib*/``.

Its boundary (docs/decisions.md, session 56): a header or library of a name neither the
system's folders, the folder nor a later folder of the search holds (a project's own
``-lfoo`` not built yet, a generated ``config.h`` not yet made, a header a source asks for by
``__has_include``), a header in a subfolder of the folder itself (``<cfg/c.h>`` under
``-I.``) and one beside its including source (``#include "cfg.h"``), is the project's own
source, which the session writes as it writes the sources the build compiles and runs
(``t.c``).
"""

from __future__ import annotations

import os

from . import files as fs
from .toollists import ASKED, PROGRAMS, TARGETED, nss_modules

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The folders gcc reads below a prefix's (``-B./``: ``./include``, ``./<machine>/``; the
#: machines are ``/usr/lib/gcc``'s names), guarded whole.
_BELOW_PREFIX: Final = ("include", "include-fixed", "plugin", "lib", "lib64", "bin", "libexec")
#: What gcc and ld read by name in a library folder beside libraries: gcc's specs (``specs``,
#: found in ``LIBRARY_PATH``'s folders by itself: s54-greview3 D1c) and the start files.
_LINKED: Final = ("specs", "libgomp.spec", "libitm.spec", "libsanitizer.spec", "crt1.o",
                  "Scrt1.o", "gcrt1.o", "Mcrt1.o", "rcrt1.o", "grcrt1.o", "crti.o", "crtn.o",
                  "crtbegin.o", "crtbeginS.o", "crtbeginT.o", "crtend.o", "crtendS.o",
                  "crtfastmath.o", "crtprec32.o", "crtprec64.o", "crtprec80.o")
#: The folders the dynamic loader tries below each run-path folder before it (glibc's
#: ``glibc-hwcaps/x86-64-v2``…, its legacy platform folders: ``LD_DEBUG=libs``), whole.
_LOADER_BELOW: Final = ("glibc-hwcaps", "tls", "haswell", "xeon_phi", "avx512_1", "x86_64",
                        "i686", "i586", "i486", "i386", "sse2", "aarch64", "power9", "power10",
                        "z13", "z14", "z15", "atomics", "asimdhp")
#: The folders gcc reads below a sysroot (``--sysroot=.``, ``-isysroot .``), whole.
_SYSROOT_BELOW: Final = ("usr", "lib", "lib32", "lib64", "libx32")
#: The endings of a header's name (``looked_up``: those the folder holds are guarded).
HEADERS: Final = (".h", ".hh", ".hpp", ".hxx", ".h++", ".tcc", ".inc", ".def", ".H")
#: The system's folders whose names ``#include <…>`` looks up (a pattern's ``*``: each).
_INCLUDES: Final = ("/usr/include", "/usr/local/include", "/usr/include/*-linux-gnu*",
                    "/usr/lib/gcc/*/*/include", "/usr/lib/gcc/*/*/include-fixed",
                    "/usr/include/c++/*", "/usr/include/c++/*/backward",
                    "/usr/include/*-linux-gnu*/c++/*", "/usr/lib/llvm-*/lib/clang/*/include",
                    "/usr/lib/clang/*/include", "/usr/local/include/*-linux-gnu*")
#: The system's folders whose libraries and start files ld and the loader look up by name.
_LIBRARIES: Final = ("/lib", "/lib64", "/usr/lib", "/usr/lib64", "/usr/local/lib",
                     "/lib/*-linux-gnu*", "/usr/lib/*-linux-gnu*", "/usr/lib/gcc/*/*")
#: The system's folders of pkg-config's package files (``<package>.pc``).
_PACKAGES: Final = ("/usr/lib/pkgconfig", "/usr/share/pkgconfig", "/usr/local/lib/pkgconfig",
                    "/usr/local/share/pkgconfig", "/usr/lib/*-linux-gnu*/pkgconfig",
                    "/usr/lib64/pkgconfig")
#: The kinds of lookup (``looked_up``): programs by a prefix, headers, libraries, a sysroot,
#: pkg-config's packages, glibc's iconv modules (``GCONV_PATH``: s56-greview2 N3).
PROGRAM, HEADER, LIBRARY, SYSROOT, PACKAGE, GCONV = "p", "h", "l", "s", "c", "g"


def kinds(name: str, value: str) -> str:
    """The kinds of lookup a folder the variable ``name``'s ``value`` names is read for
    (``PROGRAM``, ``HEADER``, ``LIBRARY``, ``SYSROOT``), read from the spellings of the
    options it holds, generously (an option's any abbreviation gcc takes: ``--pref``,
    ``--include-d``, ``--library-d``); every kind where the value names none."""
    if name == "GCONV_PATH":  # (glibc's iconv reads its modules' list there: N3)
        return GCONV
    if name.startswith("PKG_CONFIG"):  # (pkg-config reads `<package>.pc` there: X1; puts
        return SYSROOT if "SYSROOT" in name else PACKAGE  # the sysroot before each folder: P1)
    lower = value.lower()
    found = ""
    if name in _PREFIXED or "-B" in value or "--pre" in lower or "prefix" in lower or \
            "plugin" in lower or "exec" in lower:
        found += PROGRAM + LIBRARY  # (gcc hands ld `-L<prefix>`)
    if "INCLUDE_PATH" in name or name == "CPATH" or "-I" in value or "-i" in lower or \
            "incl" in lower:
        found += HEADER
    if name in ("LIBRARY_PATH", "LD_RUN_PATH", "LD_LIBRARY_PATH") or "-L" in value or \
            "-l" in value or "-Wl" in value or "-R" in value or "rpath" in lower or \
            "-X" in value or "libr" in lower:
        found += LIBRARY
    if "sysroot" in lower:
        found += SYSROOT
    return found or PROGRAM + HEADER + LIBRARY


#: The variables whose folders are prefixes of programs' names.
_PREFIXED: Final = frozenset(("COMPILER_PATH", "GCC_EXEC_PREFIX", "CROSS_COMPILE",
                              "TOOLPREFIX"))


def folder_items(values: list[tuple[list[str], str, str]], kept: set[str],
                 whose: str) -> tuple[list[tuple[str, bool]], set[str]]:
    """For toolchain values (each the paths it names, absolute, its variable's name and its
    value), the items guarding what is looked up by name in each path that is one of ``kept``
    (a folder a call runs in, or above one), or a link to one (``-Ihere``, ``here -> .``:
    s55-greview2 K2), and those paths. Beside ``looked_up``'s names, every name the values'
    other folders hold (``-I. -Iinclude``: ``include/cfg.h`` is guarded whole, and cpp takes a
    ``./cfg.h`` first: G8). Raises ValueError for a prefix of programs' names there
    (``flagpaths.prefix_in_kept``; ``whose``: the session's, a plan's entry's)."""
    from .flagpaths import prefix_in_kept, response_paths

    extra = [(response_paths(paths, name, value, 0), name, value) for paths, name, value
             in values]  # (a response file's: guarded whole but where kept, as the value's)
    values = [(paths + more[0], name, value) for (paths, name, value), more in zip(
        values, extra, strict=True)]
    reals: set[str] = set()
    folders: list[tuple[str, str]] = []
    others: dict[str, str] = {}
    through: set[str] = set()
    for paths, name, value in values:
        for path in paths:
            folder = path if path in kept else _kept_real(path, kept, reals)
            if folder:
                prefix_in_kept(name, value, folder, kept | reals, whose)
                folders.append((folder, kinds(name, value)))
                through.add(path)
            else:
                others[path] = others.get(path, "") + kinds(name, value)
    from .toollinks import linked_targets

    linked, at_kept = linked_targets(others, kept, whose)  # (the links a folder guarded
    linked += [i for t, kind in at_kept for i in looked_up(t, kind)]  # whole holds: W)
    linked += [(p, True) for paths, _, _ in extra for p in paths if p in others]
    if not folders:
        return linked, through
    shadowed: dict[str, bool] = {}
    for other in others:
        shadowed.update(_held(other))
    for folder, kind in dict.fromkeys(folders) if len(folders) > 1 else ():
        shadowed.update(_own(folder, kind))  # (`-I. -I..`: ../cfg.h for ./cfg.h, L3)
    return linked + [i for f, kind in dict.fromkeys(folders)
                     for i in looked_up(f, kind, shadowed, tuple(others))], through


def _held(folder: str) -> dict[str, bool]:
    """The names ``folder`` (a later folder of a search) holds, each with whether it is to be
    guarded whole where an earlier folder shadows it: its own names, and the path below it of
    each header its subfolders hold (``include/cfg/c.h``: ``cfg/c.h``, which cpp takes from
    an earlier folder for ``<cfg/c.h>``: s55-greview2 G8b); a subfolder that is a link, or
    one met after ``_MAX_BELOW`` names, whole (what it holds is not read)."""
    held: dict[str, bool] = {}
    queue, count = [""], 0
    while queue:
        below = queue.pop()
        if count > _MAX_BELOW:
            held[below.rstrip("/")] = True
            continue
        fs.watch_folder(os.path.join(folder, below))
        try:
            with os.scandir(os.path.join(folder, below)) as listing:
                entries = list(listing)
        except OSError:
            continue
        count += len(entries)
        for entry in entries:
            name = below + entry.name
            if entry.is_dir(follow_symlinks=False):
                queue.append(name + "/")
            elif entry.is_symlink() and entry.is_dir():
                held[name] = True  # (a link to a folder: whole)
            elif not below or not _not_header(entry.name):
                held[name] = False
    return held


#: How many names ``_held`` reads below a later folder before it guards a subfolder whole.
_MAX_BELOW: Final = 2000


def _own(folder: str, kind: str) -> dict[str, bool]:
    """The files a kept folder holds at its top that its lookups ``kind`` take by name (a
    header's, a library's: ``_looked_up_name``), to be guarded in the other kept folders of the
    search (``-I. -I..``, ``-L. -L..``: s56-greview2 L3; what is below it, not: a walk of
    a folder a call runs in or above)."""
    fs.watch_folder(folder)
    try:
        return dict.fromkeys((n for n in os.listdir(folder) if _looked_up_name(n, kind)), False)
    except OSError:
        return {}


def _kept_real(path: str, kept: set[str], reals: set[str]) -> str | None:
    """The real path of ``path`` where it is that of one of ``kept`` (``reals``: theirs, made
    at the first question), or None."""
    real = fs.realpath(path)
    if real == path:
        return None
    if not reals:
        reals.update(fs.realpath(k) for k in kept)
    return real if real in reals else None


def looked_up(folder: str, kind: str, shadowed: dict[str, bool] | None = None,
              search: tuple[str, ...] = ()) -> list[tuple[str, bool]]:
    """The items guarding in ``folder`` (absolute) what gcc, cpp, ld and the loader look up
    there by name for the lookups ``kind`` names (see the module's text), and the names
    ``shadowed`` (those a later folder of the search holds, ``_held``: a header below one of
    its subfolders by its path, for headers only; ``search``: the search's other folders,
    where an included file is read too): each a file, or a folder whole. A folder
    ``folder`` holds (not a link) named as one of the system's include folders is guarded by
    the names that folder holds below it (``_below``), not whole (s55-greview2 K1)."""
    names: dict[str, bool] = {}
    shadowed = shadowed or {}
    for one in kind:
        names.update(_system_names(one))
    names.update((n, whole) for n, whole in shadowed.items() if n not in names and (
        (HEADER in kind and (whole or not _not_header(n))) or (
            "/" not in n and _looked_up_name(n, kind))))
    names.update((f"{n}.gch", True) for n, whole in shadowed.items()
                 if HEADER in kind and not whole and not _not_header(n))
    if HEADER in kind or LIBRARY in kind or PACKAGE in kind or GCONV in kind:
        fs.watch_folder(folder)  # (a view keeping the answer sees a header come or go)
        try:
            with os.scandir(folder) as listing:
                entries = {e.name: e.is_dir(follow_symlinks=False) for e in listing}
        except OSError:
            entries = {}
        here = [n for n in entries if n not in names and _looked_up_name(n, kind)]
        if HEADER in kind:  # (any name its sources include: `<cfg>`, `<c.inl>`; L)
            here += [n for n in _included(folder, entries, search) if n not in names and
                     n not in here]
        names.update(dict.fromkeys(here, False))  # (the project's own: H1)
        if HEADER in kind:  # (cpp takes `<dir>/stdio.h.gch`, a file or a folder, first: N4)
            names.update({f"{n}.gch": True for n in here})
            for name in [n for n, real in entries.items() if real and n in _SUBFOLDERS]:
                if not shadowed.get(name) and not any(  # (a later folder's link: K1N)
                        _system_names(k).get(name) for k in kind if k != HEADER):
                    names.pop(name, None)  # (a folder of the project's: its names, K1)
                    names.update(_below(name))
    base = folder.rstrip("/") + "/"  # (one concatenation a name: they are thousands)
    return [(base + n, tree) for n, tree in names.items()]


def _included(folder: str, entries: dict[str, bool], search: tuple[str, ...]) -> list[str]:
    """The files ``folder`` holds at its top (``entries``) its sources' include directives
    name (``includes.included``: ``<cfg>``, ``"c.inl"``, a header whatever its name, as
    ``./c.h`` is by its ending: session 55's rule; one not there yet is the project's own
    source, session 56's boundary); where one cannot be read exactly (a computed include),
    every file there but a source's (``t.c``: the project's own, compiled anyway)."""
    from .includes import COMPILED, included

    spelled = included(folder, search)
    return [n for n, is_folder in entries.items() if not is_folder and (
        not n.endswith(COMPILED) if spelled is None else n in spelled)]


def _not_header(name: str) -> bool:
    """Whether a later folder's file ``name`` (a path below it) is one no source includes: a
    document's, a settings file's, an image's, an object's (``README.md``, ``data.json``,
    ``LICENSE``: s55-greview2 K3). cpp takes any other name a source spells from the earlier
    folder (``<cfg>``, ``<cfg/c.inl>``: s56-greview2 L1)."""
    base = name.rpartition("/")[2]
    return base.endswith(_NOT_HEADERS) or base in _DOCUMENTS or base[:1] == "."


#: The endings and names of a folder's files no source includes (``_not_header``).
#: (Not a text table: ``.txt``, ``.csv``, ``.inc`` are ``#include``d inside initializers,
#: s56-greview2 L1b.)
#: A build's files neither (s56-greview2 K4: ``meson.build``, ``config.h.in``, ``Kconfig``).
_NOT_HEADERS: Final = (".md", ".markdown", ".rst", ".adoc", ".json", ".yml", ".yaml", ".toml",
                       ".png", ".jpg", ".jpeg", ".gif", ".svg", ".pdf", ".o", ".obj", ".mk",
                       ".am", ".py", ".sh", ".in", ".ac", ".build", ".bazel", ".bzl", ".cmake",
                       ".gn", ".gni")
_DOCUMENTS: Final = frozenset(("LICENSE", "LICENCE", "COPYING", "README", "AUTHORS", "NOTICE",
                               "CHANGELOG", "ChangeLog", "NEWS", "INSTALL", "THANKS", "TODO",
                               "Makefile", "makefile", "GNUmakefile", "Doxyfile", "Kconfig",
                               "Kbuild", "BUILD", "WORKSPACE", "CMakeLists.txt", "SConstruct",
                               "SConscript", "meson_options.txt", "meson.options", "configure"))


def _looked_up_name(name: str, kind: str) -> bool:
    """Whether a file ``name`` is one the lookups ``kind`` names take by its name from a
    folder holding it (the folder's own, or a later folder's of the search: ``looked_up``):
    a header's (``*.h``…), a library's (``lib*``, ``*.so``, ``*.so.N``, ``*.a``: ld's
    ``-l:foo.so`` too), a pkg-config package's (``*.pc``); not a ``README.md`` beside them
    (s55-greview2 K3)."""
    return (HEADER in kind and name.endswith(HEADERS)) or (LIBRARY in kind and (
        name[:3] == "lib" or name.endswith((".so", ".a")) or ".so." in name)) or (
        PACKAGE in kind and name.endswith(".pc")) or (GCONV in kind and name.endswith(".so"))


def _system_names(kind: str) -> dict[str, bool]:
    """Each name ``looked_up`` guards in a folder for ``kind``, with whether it is guarded
    whole: the ``PROGRAMS`` and what gcc reads below a prefix (every name of
    ``/usr/lib/gcc``: a prefix's ``<machine>/``); the names of the system's include folders
    (a folder whole); the ``lib*`` and ``*.o`` names of its library folders and
    ``_LINKED``'s; read once a process."""
    if kind in _NAMES:
        return _NAMES[kind]
    from glob import glob

    names: dict[str, bool] = {}
    machines = [os.path.basename(f) for f in glob("/usr/lib/gcc/*")]
    if kind == PROGRAM:  # (gcc's driver runs `<machine>-as` from a prefix too: N1)
        names.update(dict.fromkeys(PROGRAMS, False))
        names.update(dict.fromkeys((f"{m}-{p}" for m in machines for p in TARGETED), False))
        names.update(dict.fromkeys((*_BELOW_PREFIX, *machines), True))
    for pattern in {HEADER: _INCLUDES, LIBRARY: _LIBRARIES, PACKAGE: _PACKAGES}.get(kind, ()):
        for folder in glob(pattern):
            _listed(folder, kind, names)
    if kind == HEADER:  # (what the system's headers ask for that it may lack: B1)
        for name in ASKED:
            names.setdefault(name, "/" not in name and "." not in name)
            names.setdefault(name + ".gch", True)
    if kind == LIBRARY:  # (gcc's startfile prefixes' `<machine>/<version>/` too: N3)
        names.update(dict.fromkeys(_LINKED, False))
        names.update(dict.fromkeys((*_LOADER_BELOW, *machines), True))
        names.update(dict.fromkeys(nss_modules(), False))
    if kind == SYSROOT:
        names.update(dict.fromkeys(_SYSROOT_BELOW, True))
    if kind == GCONV:  # (its list names the modules it loads, `<folder>/<name>.so`)
        names.update({"gconv-modules": False, "gconv-modules.cache": False,
                      "gconv-modules.d": True})
    _NAMES[kind] = names
    return names


def _listed(folder: str, kind: str, names: dict[str, bool]) -> None:
    """Adds to ``names`` what the system's ``folder`` holds that ``_system_names`` guards for
    ``kind``: every name of an include folder (a folder whole; its precompiled form beside
    it, ``stdio.h.gch``, which cpp takes first: s55-greview2 N4), a library folder's ``lib*``
    and ``*.o``."""
    for entry in _entries(folder):
        if kind == HEADER:
            folder_entry = entry.is_dir()
            names.setdefault(entry.name, folder_entry)
            if folder_entry:
                _SUBFOLDERS.setdefault(entry.name, []).append(entry.path)
            if not folder_entry:  # (a folder's headers are guarded with it, whole)
                names[entry.name + ".gch"] = True
        elif kind == PACKAGE:  # (pkgconf takes `<name>-uninstalled.pc` first)
            names[entry.name] = names[entry.name.removesuffix(".pc") + "-uninstalled.pc"] = False
        elif entry.name[:3] == "lib" or entry.name.endswith(".o"):
            names[entry.name] = False
            stem = entry.name.partition(".so")[0].removesuffix(".a")  # (ld tries `-lX`'s
            if entry.name[:3] == "lib" and stem != entry.name:  # .so, then .a: s56-greview2 N1)
                names[stem + ".so"] = names[stem + ".a"] = False


def _entries(folder: str) -> list[os.DirEntry[str]]:
    """The entries of the system's ``folder`` (none where it cannot be listed), watched: a
    service's answers built from them are dropped when it changes."""
    fs.watch_folder(folder)
    try:
        with os.scandir(folder) as listing:
            return list(listing)
    except OSError:
        return []


#: ``_system_names``' answers, each made at its first question.
_NAMES: dict[str, dict[str, bool]] = {}


def _below(name: str) -> dict[str, bool]:
    """The names below ``<name>/`` cpp looks up in a folder that holds a folder ``name``, one
    of the system's include folders' (``misc/``, ``net/``, ``debug/``): each of their names
    below it (a file with its precompiled form, or a folder whole), so that a project's own
    folder of that name stays writable but for them (s55-greview2 K1)."""
    names: dict[str, bool] = {}
    for path in _SUBFOLDERS[name]:
        for entry in _entries(path):
            inner = f"{name}/{entry.name}"
            names[inner] = entry.is_dir()
            if not names[inner]:
                names[inner + ".gch"] = True
    return names


#: The subfolders of the system's include folders, by name, each with its paths
#: (``_listed``: made with ``_system_names``' answer for headers).
_SUBFOLDERS: dict[str, list[str]] = {}

