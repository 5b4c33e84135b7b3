"""What start variables name where the plan's programs run (issue 29, review s49-greview3
E1, E2, U1, V2, V3): the session's relative ``PYTHONPATH``, ``MOVED_CODE``'s variables
(``PERL5LIB``, ``NODE_PATH``, …) and ``PYTHONUSERBASE`` (its user site, whose ``.pth`` files
python runs at start) from each folder the plan's programs run in (``_run_folders``: ``env -C
sub``, ``make -C sub``, ``cd sub &&``), and each value a plan's entry sets itself
(``entryvars``), read as the session's value of that name would be (``envpaths.named_paths``)
and by the rule its name has: ``PYTHONPATH``'s folders' standard modules' names, ``WHOLE``'s
paths whole (a value naming a folder a call runs in refuses the plan).
"""

from __future__ import annotations

import functools
import os

from .collectopts import addopts
from .entryvars import ASSIGNED
from .environment import values
from .envpaths import named_paths, preload_paths
from .flagpaths import flag_words, read_word_by_word, variable_words
from .homefiles import MOVED_CODE
from .named import above
from .planpaths import DOTENV, RUNS_IN
from .runfolders import marked_folders
from .startflags import ENV_FILE, bun_options, make_definitions, perl_folders
from .testfiles import collects, test_folders
from .testfiles import removed_folder as removed_folder  # (guards' one import of it)
from .valueparts import loader_tokens

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The variables whose value is a path (or a list of them) a program reads as code or
#: settings, each part guarded whole whatever it looks like (a bare word too: ``cfg``), as
#: the session's are (``guards``, ``homefiles.MOVED_CODE``).
WHOLE: Final = frozenset((*MOVED_CODE, "PATH", "BASH_ENV", "ENV", "XDG_CONFIG_HOME",
                          "XDG_DATA_HOME", "XDG_CACHE_HOME", "CLAUDE_CONFIG_DIR", "GIT_DIR",
                          "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_TEMPLATE_DIR",
                          "GIT_EXEC_PATH", "GIT_COMMON_DIR", "GIT_CONFIG", "CURL_HOME", "WGETRC",
                          "LD_PRELOAD", "MAKEFILES", "PYTHONSTARTUP", "KUBECONFIG",
                          "DOCKER_CONFIG", "GH_CONFIG_DIR", "CLOUDSDK_CONFIG", "JAVA_HOME",
                          "CARGO_HOME", "npm_config_userconfig", "npm_config_globalconfig",
                          "NPM_CONFIG_USERCONFIG", "NPM_CONFIG_GLOBALCONFIG",
                          "npm_config_prefix", "NPM_CONFIG_PREFIX", "PYTHONPYCACHEPREFIX"))
#: The Python versions whose user site a ``PYTHONUSERBASE`` holds (``site``'s
#: ``lib/pythonX.Y[t]/site-packages``; a macOS framework build's ``lib/python/site-packages``).
_USER_SITES: Final = tuple(f"lib/python{v}/site-packages" for v in (
    *(f"3.{m}" for m in range(6, 16)), "3.13t", "3.14t", "3.15t", ""))


def _run_folders(named: tuple[str, ...], roots: list[str]) -> list[str]:
    """The folders the plan's programs run in: ``roots`` (the call's folder, the project's,
    the project's run folders: ``guards``), as absolute paths, and each folder ``named``
    marks ``RUNS_IN`` (``make -C sub``, ``env -C sub``, ``cd sub &&``) joined to each
    (``runfolders.marked_folders``)."""
    absolute = tuple(os.path.abspath(f) for f in roots)
    if "\n" + RUNS_IN not in _marked(named)[0]:
        return list(absolute)
    return list(dict.fromkeys([*absolute, *marked_folders(named, absolute, RUNS_IN)]))


@functools.lru_cache(maxsize=8)
def _marked(named: tuple[str, ...]) -> tuple[str, tuple[str, ...], bool, frozenset[str]]:
    """``named`` joined by newlines (one search for a mark most plans hold none of), the
    assignments it marks ``ASSIGNED`` (each ``NAME=value``), whether a plan's program
    collects tests (``testfiles``), and each assignment with each program it is made for
    (``NAME=value``, NUL, a name: what ``entryvars.own_dropped`` reads), in one pass (a
    plan's paths are hundreds)."""
    joined = "\n" + "\n".join(named) + "\n"
    given = [p[1:].partition("\x00") for p in named if p[:1] == ASSIGNED] if \
        ASSIGNED in joined else []
    pairs = frozenset(f"{a}\x00{n}" for a, _, names in given for n in names.split())
    return joined, tuple(a for a, _, _ in given), collects(joined), pairs


def entry_starts(named: tuple[str, ...], roots: list[str]) -> dict[str, frozenset[str]]:
    """What ``Guarded`` holds of the plan's start inputs: the folders below which tests are
    collected (``collected``: ``testfiles.test_folders`` of the folders the plan's programs
    run in, when a plan's program collects them; s49-greview2 C2, U1), and the assignments
    the plan's entries make for their programs (``assigned``: ``entryvars.own_dropped``)."""
    marked = _marked(named)
    collected = test_folders(_run_folders(named, roots)) if marked[2] else frozenset()
    return {"collected": collected, "assigned": marked[3]}


#: The session's variables ``value_items`` reads where the plan's programs run (and
#: ``MOVED_CODE``'s); of them, those whose folders are guarded whole (python's bytecode
#: prefix: every module's bytecode is read there, s50-greview3 U2; perl's ``-I``: U1).
_PYTHON: Final = ("PYTHONPATH", "PYTHONUSERBASE", "PERL5OPT", "PYTHONPYCACHEPREFIX",
                   "OPENSSL_CONF")
_MOVED: Final = frozenset((*MOVED_CODE, "PERL5OPT", "PYTHONPYCACHEPREFIX"))


def start_values(named: tuple[str, ...], roots: list[str], inner: list[str],
                 modules: list[str]) -> list[tuple[str, bool]]:
    """``value_items`` from the folders the plan's programs run in (``_run_folders`` of the
    call's folder and the project's, ``roots``), the folders whose standard modules' names
    are guarded added to ``modules``, with the session's ``PYTHONPATH`` as it is (a relative
    folder from the hook's; an empty entry: ``roots``, review s46 L2, L4), and the modules a
    site ``.pth`` imports guarded in each of ``PYTHONPATH``'s folders (``sitenames``: U6); the
    env files a node runner's programs load (``DOTENV``) read as its entries' own values
    (E1); a value naming one of ``inner`` (the folders a call runs in), the home or one above
    them whole refuses the plan, as the session's pytest variables making a plan's pytest
    import what the gate does not name do (``collectopts.addopts``: U7)."""
    found = (*values(("PYTHONPATH", "PYTHONUSERBASE", "PERL5OPT", "PYTHONPYCACHEPREFIX",
                      "OPENSSL_CONF")), *values(MOVED_CODE))
    start = len(modules)  # (the folders on sys.path before site runs: PYTHONPATH's)
    python_path = (found[0] or "").split(os.pathsep)
    modules += [p for p in python_path if p]
    modules += roots if len(python_path) > 1 and "" in python_path else []
    given = [(n, v, False) for n, v in zip((*_PYTHON, *MOVED_CODE), found, strict=True) if v]
    given += [(a.partition("=")[0], a.partition("=")[2], True) for a in _marked(named)[1]]
    given += [(ENV_FILE, f, True) for f in DOTENV if ".env" in named]  # (a node runner's)
    defined = _session_definitions(named)  # (make's, from the session's MAKEFLAGS: K1)
    words = _words(defined)  # (refused first as the session's: its error names MAKEFLAGS)
    given += defined
    _pytests(named)
    if not given:
        return []
    runs = _run_folders(named, roots)
    kept: set[str] = set()
    if any(own for _, _, own in given):  # (only an entry's own value may name one of them)
        kept = {os.path.normpath(f) for f in (*inner, *runs[:len(roots)],
                                              os.path.expanduser("~"), "/") if f}
        kept |= {p for f in kept for p in above(f)}
    items, more = value_items(given, runs, kept)
    items += [i for n, v, _ in defined for i in _looked_up(n, v, _joined(  # (R6)
        flag_words(n, v, [v]), runs), kept)] if words else []
    modules += more
    if modules[start:]:  # (what a site .pth imports, in PYTHONPATH's folders: U6)
        from .sitenames import module_items, start_imports  # (only then: issue 29)

        items += module_items(list(dict.fromkeys(modules[start:])),
                              start_imports(named, values(("PATH",))[0] or ""))
    return items


def _pytests(named: tuple[str, ...]) -> None:
    """Refuses the plan (ValueError) one of whose programs runs pytest (``^conftest.py``:
    pytest, or a runner of any program) while the session's ``PYTEST_PLUGINS`` names a
    module or its ``PYTEST_ADDOPTS`` an option making pytest import what the gate does not
    name (``collectopts.addopts``; s50-greview3 U7); or bun (or a runner of any program)
    while the session sets ``BUN_OPTIONS`` (G9)."""
    if values(("BUN_OPTIONS",))[0] and "^bunfig.toml" in named:  # (s51-greview G9)
        raise ValueError("the session's BUN_OPTIONS gives the plan's bun options (a bunfig, "
                         "preloads, env files) the gate does not read")
    plugins, options = values(("PYTEST_PLUGINS", "PYTEST_ADDOPTS"))
    if (plugins or options) and "^conftest.py" in named:
        if plugins:
            raise ValueError(f"the session's PYTEST_PLUGINS={plugins!r} makes the plan's "
                             "pytest import modules from folders the gate does not name")
        addopts("the session's PYTEST_ADDOPTS", options or "")


def _session_definitions(named: tuple[str, ...]) -> list[tuple[str, str, bool]]:
    """The variables the session's ``MAKEFLAGS``/``GNUMAKEFLAGS`` define (``startflags.
    make_definitions``) for a plan running make (``Makefile``: make, or a runner of any
    program), each read as a plan's entry's own assignment (``value_items``' ``own``: make
    reads them as its command line's and exports them to its recipes, so every path a value
    names is guarded whole, ``WHOLE``'s names by their rule; ``CC=clang`` names none: review
    s51-greview K1). Raises ValueError for an option but make's plain flags (s51-greview
    G10), a value make or a recipe's shell expands (``$``, a backquote; ``N!=cmd`` runs one),
    or a name an entry may not set (``_UNSET``)."""
    found: list[tuple[str, str, bool]] = []
    for flags in values(("MAKEFLAGS", "GNUMAKEFLAGS")) if "Makefile" in named else ():
        for word in make_definitions("the session's MAKEFLAGS", flags) if flags else ():
            spelled, _, value = word.partition("=")
            name = spelled.rstrip(":+?")  # (`N:=v`, `N::=v`, `N+=v`, `N?=v`)
            if not name or not name.isascii() or not name.replace("_", "a").replace(
                    ".", "a").isalnum() or name[0].isdigit() or name in _UNSET or any(
                    c in value for c in "$`"):
                raise ValueError(f"the session's MAKEFLAGS/GNUMAKEFLAGS ({flags!r}) define "
                                 f"{word!r} for the plan's make, which the gate does not read "
                                 "exactly; unset it or define it in the plan's entry")
            found.append((name, value, True))
    return found


def _words(defined: list[tuple[str, str, bool]]) -> list[str]:
    """Every word of the values ``defined``, each a path guarded whole, read as the session's
    toolchain variables are (``flagpaths.flag_words``: split at blanks, ``,``, ``:``, ``=``;
    a response file's ``@`` dropped; an option's attached value; gcc's prefixes and a
    prefix of programs' names refused unless they end in ``/``), whatever the name: a recipe
    or a program a recipe runs may read any as a file (``.SHELLFLAGS=run`` runs ``/bin/sh
    run``; ``CFLAGS=@opts`` makes gcc read ``opts``; s52-greview2 R6, R6c; s53-greview2 V12),
    and no one approved these values, where an entry's are."""
    try:
        return [w for name, value, _ in defined for w in flag_words(name, value, [value])]
    except ValueError as e:
        raise ValueError(f"the session's MAKEFLAGS/GNUMAKEFLAGS define a value which holds {e}; "
                         "unset it or define it in the plan's entry") from e


#: What the session's ``MAKEFLAGS`` may not define (``entryvars``' refused names, and the
#: variables whose value is more options or plugins: read only where an entry sets them).
_UNSET: Final = frozenset(("HOME", "CDPATH", "BASHOPTS", "SHELLOPTS", "ZDOTDIR", "MAKEFLAGS",
                           "GNUMAKEFLAGS", "PYTEST_PLUGINS", "PYTEST_ADDOPTS", "BUN_OPTIONS"))


def _files_values(name: str, value: str, folders: list[str], kept: set[str],
                  own: bool) -> tuple[list[tuple[str, bool]], list[str]]:
    """``value_items`` of the files a value names whose contents name more: OpenSSL's
    settings file and its engines (``OPENSSL_CONF``, node's ``--openssl-config``: G7); the env
    files an entry's ``ENV_FILE`` (``--env-file=F``: the file and its values, each the entry's
    own; E1) or ``BUN_OPTIONS`` (its ``--env-file``s: bun's command line's, s51-greview G9)
    name. Nothing for another value."""
    items = _openssl(value, folders, kept, own) if name == "OPENSSL_CONF" or \
        "--openssl-config" in value else []  # (its engines: G7)
    if not own or name not in (ENV_FILE, "BUN_OPTIONS"):
        return items, []
    if name == "BUN_OPTIONS":
        more = value_items([(ENV_FILE, f.partition("=")[2], True)
                            for f, _ in bun_options(value)], folders, kept)
        return items + more[0], more[1]
    from .startfiles import env_file  # (an entry's --env-file alone: s59-hfix)

    files = _joined([value], folders)
    more = value_items([(n, v, True) for f in files for n, v in env_file(f)], folders, kept)
    return items + [(f, False) for f in files] + more[0], more[1]


def value_items(given: list[tuple[str, str, bool]], folders: list[str],
                kept: set[str]) -> tuple[list[tuple[str, bool]], list[str]]:
    """What the session's relative values of ``PYTHONPATH``, ``MOVED_CODE``'s variables and
    ``PYTHONUSERBASE``, and each value an entry sets (``given``: each name, value and whether
    the entry's), name, read from each of ``folders`` (where the plan's programs run): the
    items guarded (whole), and the folders whose standard modules' names are
    (``PYTHONPATH``'s). An entry's ``ENV_FILE`` (``--env-file=F``) is the file's values, each
    the entry's own (E1); ``PERL5OPT``'s folders are ``PERL5LIB``'s (U1), ``NODE_OPTIONS``'
    preloads by a package's name its ``node_modules`` (U4). A value naming one of ``kept`` (a
    folder a call runs in, or above one) whole refuses the plan (ValueError)."""
    items: list[tuple[str, bool]] = []
    modules: list[str] = []
    for name, value, own in given:
        listed = _listed(name, value)  # (ld.so's `;` too: s51-greview G12)
        parts = [p for p in listed if p]
        name = _checked(name, value, own)
        more = _files_values(name, value, folders, kept, own)
        items += more[0]
        modules += more[1]
        if name == ENV_FILE and own:
            continue
        if name == "PERL5OPT":  # (its `-I`, `-Mlib=` folders are PERL5LIB's: s50-greview3 U1)
            parts = perl_folders(value.split(), False)
        if name == "PYTHONPATH":  # (its folders: standard modules' names, review s46 L2)
            modules += _joined(parts, folders)
            modules += folders if own and "" in value.split(":") else []
        elif name == "PYTHONUSERBASE":  # (its user site's `.pth` files run: U1)
            items += [(os.path.join(b, s), True) for b in _joined(parts, folders)
                      for s in _USER_SITES]
        if own and (name in WHOLE or name == "PERL5OPT") and name != "PYTHONPATH":
            items += _whole(name, _joined(parts, folders), kept)
        elif not own and name in _MOVED:  # (a relative one, where the programs run: E2;
            relative = [p or "." for p in listed] if name == "LD_LIBRARY_PATH" else parts
            items += [(p.removesuffix("/*"), True) for p in _joined(  # an empty one: G12)
                [p for p in relative if p[:1] not in ("/", "~")], folders)]
        if own:  # (the toolchain's read as the session's are: s53-greview2 V6, V8)
            items += _looked_up(name, value, _joined(_flag_words(name, value), folders),
                                kept) if read_word_by_word(name, value) else []
            items += [(p, True) for p in _named(value, folders) if p not in kept]
            items += [(p.rstrip("/"), True) for p in preload_paths(value, folders)]
            items += [(p, True) for p in _node_read(name, value, parts, folders)]
    return items, modules


def _looked_up(name: str, value: str, paths: list[str],
               kept: set[str]) -> list[tuple[str, bool]]:
    """``paths`` (what the toolchain's ``name=value`` names) guarded whole, but one of
    ``kept`` (a folder a call runs in, or above one) by the names gcc, ld and make look up
    there (``toolnames.looked_up``: s54-greview3 D2)."""
    if not paths:
        return []
    from .toolnames import folder_items

    items, through = folder_items([(paths, name, value)], kept, "a plan's entry gives")
    return items + [(p, True) for p in paths if p not in kept and p not in through]


def _flag_words(name: str, value: str) -> list[str]:
    """``flagpaths.variable_words`` of an entry's own ``name=value`` (its ValueError names it):
    read word by word as the session's is."""
    try:
        return variable_words(name, value, [value])
    except ValueError as e:
        raise ValueError(f"a plan's entry gives {name}={value!r}, which holds {e}") from e


def _node_read(name: str, value: str, parts: list[str], folders: list[str]) -> list[str]:
    """What node reads by an entry's own ``PATH`` (``parts``: require's global folder
    ``lib/node`` beside each node, s52-greview2 R5b) or ``NODE_OPTIONS`` (the ``main`` of a
    folder preloaded by its path: R12), or bun by its ``BUN_OPTIONS``: what the
    tsconfig.json/jsconfig.json ``paths`` and ``baseUrl`` of each of ``folders`` (and each up)
    map its preloads by a bare name to (bun resolves them so before ``node_modules``, as a
    bunfig's: ``tsconfigpaths``; R2b)."""
    from .envpaths import preloaded
    from .tsconfigpaths import mapped_paths

    if name == "PATH":
        return _joined([os.path.join(p, "..", "lib", "node") for p in parts], folders)
    roots = [os.path.abspath(f) for f in folders]
    ups = list(dict.fromkeys([*roots, *(u for r in roots for u in above(r))]))
    if name == "NODE_OPTIONS":  # (a folder preloaded by its path: its main, R12)
        from .noderesolve import folder_paths

        return [p for spec in preloaded(value, True) for r in roots
                for p in folder_paths(os.path.normpath(os.path.join(r, spec)), ups)]
    if name != "BUN_OPTIONS":
        return []
    return [p for spec in preloaded(value) for r in roots for p in mapped_paths(spec, r, ups)]


def _checked(name: str, value: str, own: bool) -> str:
    """``name`` as its program reads it (npm's ``npm_config_*`` in any case: s51-greview G3);
    ValueError for an entry's list whose empty element is the folder a program runs in
    (``PATH=:/usr/bin``: G2)."""
    name = name.lower() if name.lower().startswith("npm_config_") else name
    try:
        loader_tokens(name, value)  # (`$ORIGIN`: the loader's own, s56-greview2 D1)
    except ValueError as e:
        raise ValueError(f"a plan's entry gives {name}={value!r}, which holds {e}") from e
    if own and name in WHOLE and "" in _listed(name, value) and (value or name == "PATH"):
        raise ValueError(f"a plan's entry sets {name}={value!r}, whose empty element is the "
                         "folder a program runs in, which cannot be guarded whole")
    return name


def _listed(name: str, value: str) -> list[str]:
    """The elements of the list ``value`` of ``name``, as its reader splits it: at ``:``, and
    for the dynamic loader's ``LD_LIBRARY_PATH`` at ``;`` too (ld.so(8); s51-greview G12)."""
    return value.replace(";", ":").split(":") if name == "LD_LIBRARY_PATH" else \
        value.split(":")


def _openssl(value: str, folders: list[str], kept: set[str],
             own: bool) -> list[tuple[str, bool]]:
    """OpenSSL's settings file ``value`` names (``OPENSSL_CONF``'s, node's
    ``--openssl-config=F``), read from each of ``folders``, guarded, and every path its lines
    name (an engine's ``dynamic_path``, an ``.include``), guarded whole (s51-greview G7)."""
    if "--openssl-config" in value:
        words = value.replace("=", " ").split()
        value = next((words[k + 1] for k, w in enumerate(words[:-1])
                      if w == "--openssl-config"), "")
    files = _joined([value], folders) if value else []
    items = [(f, False) for f in files if f not in kept or not own]
    for path in files:
        for line in _lines(path):
            items += [(p, True) for p in _named(line.replace("=", " "), [os.path.dirname(
                path), *folders]) if p not in kept]
    return items


def _lines(path: str) -> list[str]:
    """The lines of the settings file ``path`` (none when it is not there)."""
    from .startfiles import settings_text

    text = settings_text(path)
    return [] if text is None else text.splitlines()


def _whole(name: str, paths: list[str], kept: set[str]) -> list[tuple[str, bool]]:
    """``paths`` (the entry's ``name`` names) guarded whole; ValueError for one of ``kept``."""
    for path in paths:
        if os.path.normpath(path.removesuffix("/*")) in kept:
            raise ValueError(f"a plan's entry sets {name} to a folder a call runs in or one "
                             f"above it ({path!r}), which cannot be guarded whole")
    return [(p.removesuffix("/*"), True) for p in paths]


def _joined(parts: list[str], folders: list[str]) -> list[str]:
    """Each of ``parts`` (``~`` read), a relative one from each of ``folders``."""
    found: list[str] = []
    for part in parts:
        part = os.path.expanduser(part)
        found += [part] if part[:1] == "/" else [os.path.normpath(os.path.join(f, part))
                                                 for f in folders]
    return found


def _named(value: str, folders: list[str]) -> list[str]:
    """The paths an entry's ``value`` names as a session's value would (``named_paths``),
    relative ones from each of ``folders``."""
    return _joined([p for p in named_paths(value) if p != "./"], folders)
