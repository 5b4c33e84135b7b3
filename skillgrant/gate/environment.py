"""The session's environment, for a gate that does not run inside it (``skillgrant serve``).

What a call must not write (``guards``) and how git reads a repository (``worktree``) depend on
the environment the runtime runs its tools in: ``PATH``'s folders, ``HOME``, git's variables,
the project folder (review M-1). The ``skillgrant hook`` process inherits that environment. An
http hook's payload carries none of it, and the service has its own. So the printed http hook
sends each variable the gate reads as a header (Claude Code fills ``${NAME}`` in a header for
the names its ``allowedEnvVars`` lists), and the service decides a call only when every one of
them equals its own: then what it guards is what the hook in the session would guard. The
project folder (``$CLAUDE_PROJECT_DIR``, which Claude Code gives a command hook but not a
header) is the session's ``PWD`` when the payload's transcript lies in that folder's project
folder under the user's Claude configuration; otherwise it is not known, and a call is denied
unless it is denied anyway without it (the project only ever adds what a call must not write).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Mapping

from ..lazy import compile_on_use

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Any, Final

#: The variables GNU make 4.3's built-in rules hand the C toolchain (``$(CC) $(CFLAGS)
#: $(CPPFLAGS) $(TARGET_ARCH) -c``, ``$(LDFLAGS)``, ``$(LDLIBS)``, …; make takes each from the
#: environment), which builders read too (configure, setuptools, cargo's ``cc``), and gcc's
#: own: gcc reads a bare word there as a file (``@opts``, ``-include x``, ``-B v``,
#: ``CPATH=inc``), so ``envpaths.flag_paths`` reads each word as one (s52-greview2 R6d,
#: s53-greview2 V).
FLAGS: Final = ("CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "LDLIBS", "LOADLIBES", "ASFLAGS",
                "OBJCFLAGS", "FFLAGS", "TARGET_ARCH", "TARGET_MACH", "CC", "CXX", "CPP", "AS",
                "LD", "OBJC", "FC", "OUTPUT_OPTION",
                # gcc's own (its manual's "Environment Variables Affecting GCC": the folders it
                # finds its programs, libraries and headers in; GCC_EXEC_PREFIX is -B's)
                "COMPILER_PATH", "LIBRARY_PATH", "CPATH", "C_INCLUDE_PATH",
                "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH", "GCC_EXEC_PREFIX",
                # the linker's run path, pkg-config's and cmake's folders and files (a bare
                # name there is a path: s53-greview2 V8, V9)
                "LD_RUN_PATH", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR", "PKG_CONFIG_SYSROOT_DIR",
                "GCONV_PATH", "CMAKE_TOOLCHAIN_FILE",
                "CMAKE_PREFIX_PATH", "CMAKE_MODULE_PATH",
                # autoconf's link line, kbuild's prefix of the programs' names (s53-greview2
                # V10, V11: ``flagpaths.toolchain``)
                "LIBS", "CROSS_COMPILE")
#: Every environment variable the gate reads to decide a call (tests/gate/test_environment.py
#: finds each ``os.environ`` read in the gate's modules and checks it is here or in OWN).
COMPARED: Final = ("PATH", "HOME", "CDPATH", "XDG_CONFIG_HOME", "CLAUDE_CONFIG_DIR",
                   "CLAUDE_CODE_USE_COWORK_PLUGINS", "GIT_DIR", "GIT_COMMON_DIR", "GIT_CONFIG",
                   "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_GLOBAL",
                   "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "GIT_TEMPLATE_DIR",
                   "GIT_EXEC_PATH", "BASH_ENV", "ENV", "CURL_HOME", "WGETRC", "GNUPGHOME",
                   "LESSKEYIN", "LESSKEY", "MAGICK_CONFIGURE_PATH", "TF_CLI_CONFIG_FILE",
                   "RIPGREP_CONFIG_PATH", "COPILOT_HOME", "XDG_CACHE_HOME", "TMPDIR",
                   "LD_LIBRARY_PATH", "LD_PRELOAD", "NODE_PATH", "RUSTUP_HOME", "PYENV_ROOT",
                   "DEVELOPER_DIR",  # (macOS: which python3 /usr/bin/python3 runs, s58-pfix)
                   "NVM_DIR", "RBENV_ROOT", "ASDF_DATA_DIR", "VOLTA_HOME", "MISE_DATA_DIR",
                   # where cargo builds (s45 P2); cp's and unzip's options (session 46)
                   "CARGO_HOME", "CARGO_TARGET_DIR", "CARGO_BUILD_TARGET_DIR",
                   "CARGO_BUILD_BUILD_DIR", "POSIXLY_CORRECT", "UNZIP", "UNZIPOPT", "ZIPINFO",
                   "ZIPINFOOPT", "XDG_DATA_HOME", "GH_DATA_DIR", "HELM_PLUGINS",
                   "HELM_DATA_HOME", "PRE_COMMIT_HOME", "COREPACK_HOME",  # (s48 H1, N1)
                   "PYTHONPATH", "PERL5LIB", "PERLLIB", "RUBYLIB",
                   "GEM_PATH", "GEM_HOME", "CLASSPATH", "R_LIBS", "R_LIBS_USER",
                   "R_LIBS_SITE", "GOPATH", "JULIA_LOAD_PATH", "npm_config_prefix",
                   "NPM_CONFIG_PREFIX", "npm_config_globalconfig", "NPM_CONFIG_GLOBALCONFIG",
                   "npm_config_userconfig", "NPM_CONFIG_USERCONFIG",
                   # variables naming a file a program loads or runs (review s47 E2–E5;
                   # gate/envpaths.py reads every variable, these are the ones compared)
                   "NODE_OPTIONS", "JAVA_HOME", "JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS",
                   "_JAVA_OPTIONS", "MAVEN_OPTS", "PERL5OPT", "RUBYOPT", "PYTHONSTARTUP",
                   "PYTHONUSERBASE", "PYTHONPYCACHEPREFIX", "MAKEFILES", "KUBECONFIG",
                   "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE", "DOCKER_CONFIG",
                   "GH_CONFIG_DIR",
                   "CLOUDSDK_CONFIG", "GIT_EXTERNAL_DIFF", "GIT_SSH", "GIT_SSH_COMMAND",
                   "GIT_EDITOR", "EDITOR", "VISUAL",
                   # the runtime's plugin folders (gate/skillfiles.py, review s47-greview2 K1)
                   "CLAUDE_CODE_PLUGIN_CACHE_DIR", "CLAUDE_CODE_PLUGIN_SEED_DIR",
                   "BASHOPTS",  # (bash's cdable_vars: gate/entryfolders.py, session 50)
                   # pytest's start variables (gate/startvars.py, session 51)
                   "PYTEST_PLUGINS", "PYTEST_ADDOPTS", "OPENSSL_CONF", "MAKEFLAGS",
                   "GNUMAKEFLAGS", "BUN_OPTIONS",
                   *FLAGS)
#: Sent too, but not compared: the folder the session started in.
PROJECT: Final = "PWD"
#: Variables the gate reads that are the gate's own settings, not the session's.
OWN: Final = ("SKILLGRANT_BASH", "CLAUDE_PROJECT_DIR", "CLAUDE_SKILL_DIR", "CLAUDE_PLUGIN_ROOT",
              "CLAUDE_PLUGIN_DATA", "SKILLGRANT_STATE_DIR")  # (the gate's own state: s53)
#: A header's name: this, then the variable's name.
HEADER: Final = "X-Skillgrant-Env-"
# Claude Code's name for a project's folder under ``<config>/projects`` (the binary's J$).
_MANGLED: Final = compile_on_use(r"[^a-zA-Z0-9]")
_MAX_MANGLED: Final = 200


def values(names: tuple[str, ...]) -> tuple[str | None, ...]:
    """``os.environ.get`` of each of ``names``, without the KeyError ``os.environ`` raises
    and catches inside for a name it has not (a microsecond each: a served call reads some
    forty, most of them unset). CPython's ``os.environ`` keeps its encoded table in
    ``_data`` and updates it on every change; where it has none, each name is asked."""
    seen = _seen()
    if seen is None:
        return tuple(os.environ.get(name) for name in names)
    found = _FOUND.get(names)
    if found is None or found[0] is not seen:  # (answers from the copy, for the copy)
        found = _FOUND[names] = (seen, _looked_up(seen, names))
    return found[1]


def whole() -> tuple[tuple[object, object], ...]:
    """The whole environment as a key (``guards``' set reads every variable: review s47
    E2–E5), the same tuple while ``os.environ``'s table is unchanged (``_seen``'s copy)."""
    seen = _seen()
    if seen is None:
        return tuple(sorted(os.environ.items()))
    if _WHOLE[0] is not seen:
        _WHOLE[:] = [seen, tuple(seen.items())]
    found: tuple[tuple[object, object], ...] = _WHOLE[1]
    return found


def state() -> object:
    """The whole environment as a key that hashes in constant time (``whole`` hashes every
    variable, at each lookup): a number taken anew whenever ``os.environ``'s table is not
    ``_seen``'s copy any more, so that no two states share one; where CPython keeps no table,
    ``whole()``."""
    seen = _seen()
    if seen is None:
        return whole()
    found = _STATE
    if found[0] is not seen:
        found = _new_state(seen)
    return found[1]


def _new_state(seen: dict[Any, Any]) -> tuple[object, int]:
    global _STATE  # (replaced whole: a thread reads one pair, never half of two)
    found = _STATE = (seen, next(_STATES))
    return found


#: ``state``'s copy and its number; numbers are never given twice.
_STATES = itertools.count()
_STATE: tuple[object, int] = (None, -1)


def _seen() -> dict[Any, Any] | None:
    """A copy of ``os.environ``'s encoded table, the same object while the table is equal to
    it (compared whole, at C speed: any change is seen); None where CPython keeps none."""
    table = getattr(os.environ, "_data", None)
    if not isinstance(table, dict):
        return None
    seen = _SEEN[0]
    if seen is None or table != seen:  # changed since
        seen = _SEEN[0] = dict(table)
    return seen


#: ``whole``'s answer, with the copy it was made of.
_WHOLE: list[Any] = [None, ()]


def _looked_up(table: dict[Any, Any], names: tuple[str, ...]) -> tuple[str | None, ...]:
    """``values`` of ``names`` read from the encoded table."""
    keys = _ENCODED.get(names)
    if keys is None:
        keys = _ENCODED[names] = tuple(os.environ.encodekey(name)
                                       for name in names)
    raw = tuple(map(table.get, keys))
    found = _DECODED.get(raw)
    if found is None:
        if len(_DECODED) >= 256:
            _DECODED.clear()
        decode = os.environ.decodevalue
        found = _DECODED[raw] = tuple(None if value is None else decode(value)
                                      for value in raw)
    return found


_ENCODED: dict[tuple[str, ...], tuple[object, ...]] = {}
#: The values decoded, by the encoded ones (the environment seldom changes).
_DECODED: dict[tuple[object, ...], tuple[str | None, ...]] = {}
#: The table as ``values`` last saw it (a copy), and its answers, each with the copy it was
#: read from: one is given while the table is equal to that copy (compared whole, any
#: change is seen; the copy, not the table, is read, so an answer is one state's).
_SEEN: list[dict[Any, Any] | None] = [None]
_FOUND: dict[tuple[str, ...], tuple[dict[Any, Any], tuple[str | None, ...]]] = {}


def environment_doubt() -> str | None:
    """Why no program's name can be judged in the session's environment, or None. ``PATH``:
    an empty entry (``::``, or ``:`` at either end) or a relative one is the folder bash is in
    when it looks a name up, which a ``cd`` moves and a write may fill, so ``git`` may run
    ``./git`` (review M-6); ``~`` and ``~/…`` entries bash expands to the home folder, which
    is guarded. Then the session's other variables (``_relative_variable``). Kept by the
    values it is made of (a service asks it at each shell call)."""
    found = values(_DOUBTED)
    try:
        return _DOUBTS[found]
    except KeyError:
        pass
    if len(_DOUBTS) >= 64:
        _DOUBTS.clear()
    doubt = _DOUBTS[found] = _path_doubt(found[0], found[1:])
    return doubt


def _path_doubt(value: str | None, others: tuple[str | None, ...]) -> str | None:
    """``environment_doubt`` of ``PATH``'s value and ``_PATH_VARIABLES``' (``others``)."""
    # bash reads `~` and `~/…` as the home folder, but `~+` as the folder it is in, `~-` as the
    # one before, and `~name` as a user's home or, with no such user, as relative (review F1)
    odd = next((e for e in (value or "").split(":") if not e.startswith("/") and e != "~"
                and not e.startswith("~/")), None)
    if odd is None:
        return _relative_variable(others)
    shown = ("no PATH (bash's own then ends in '.')" if value is None
             else "an empty PATH" if value == "" else "an empty entry in PATH" if odd == ""
             else f"the relative entry {odd!r} in PATH")
    return (f"the session has {shown}: bash then looks a program's name up in the folder it "
            "is in, so the name may run a file written there; no command is covered until "
            "PATH names only absolute folders")


#: Variables naming a file or folder that git, bash, the runtime, curl, wget, gh, helm or
#: Copilot CLI reads what to run from: a relative value is read from whatever folder the
#: reader is in (git: the repository's top), which the gate cannot name (reviews F2, F2b;
#: s62-vreview V1: the write guard named ``WGETRC``'s file from its own process's folder,
#: which for ``serve`` is not the call's).
_PATH_VARIABLES: Final = ("HOME", "XDG_CONFIG_HOME", "CLAUDE_CONFIG_DIR", "GIT_DIR",
                          "GIT_COMMON_DIR", "GIT_CONFIG", "GIT_CONFIG_GLOBAL",
                          "GIT_CONFIG_SYSTEM", "GIT_TEMPLATE_DIR", "GIT_EXEC_PATH", "BASH_ENV",
                          "ENV", "WGETRC", "CURL_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME")
_DOUBTED: Final = ("PATH", *_PATH_VARIABLES)
#: ``environment_doubt``'s answers, by the values they were made of.
_DOUBTS: dict[tuple[str | None, ...], str | None] = {}


def _relative_variable(found: tuple[str | None, ...]) -> str | None:
    """Why a shell call is not covered because of the session's other variables, or None: a
    relative path in one of ``_PATH_VARIABLES``. (Numbered git settings, ``GIT_CONFIG_COUNT``,
    reach the git the gate asks in this process; the service denies them: environment.py.)"""
    relative = [name for name, value in zip(_PATH_VARIABLES, found, strict=True)
                if value and not value.startswith("/")]
    if relative:
        return (f"the session's {', '.join(relative)} {'is' if len(relative) == 1 else 'are'} "
                "relative, read from whatever folder the program is in, which the gate cannot "
                "name; no command is covered until they are absolute")
    return None


def headers() -> dict[str, str]:
    """The http hook's headers: each variable between ``<`` and ``>``, so that a value Claude
    Code did not fill (or trimmed) is told from an empty one."""
    return {HEADER + name: f"<${{{name}}}>" for name in (*COMPARED, PROJECT)}


#: Each variable sent, and its header's name in lower case.
NAMES: Final = tuple((name, (HEADER + name).lower()) for name in (*COMPARED, PROJECT))


def sent(received: Mapping[str, str]) -> dict[str, str | None]:
    """The variables in a request's headers (``received``: lower-case names), each value
    unwrapped, or None where the header is missing or not wrapped as ``headers`` wraps it."""
    found: dict[str, str | None] = {}
    for name, header in NAMES:
        value = received.get(header)
        found[name] = value[1:-1] if value is not None and len(value) >= 2 and \
            value[0] == "<" and value[-1] == ">" else None
    return found


def session_problem(received: Mapping[str, str],
                    own: Mapping[str, str] = os.environ) -> str | None:
    """Why the service cannot decide a call in the session that sent the headers ``received``
    (None when it can). ``own`` is the service's environment."""
    sent_values = sent(received)
    missing = [name for name, value in sent_values.items() if value is None]
    if missing:
        return (f"the request does not carry the session's {', '.join(missing)} (the "
                f"{HEADER}NAME headers `skillgrant serve --print-config` prints, each value "
                "between < and >)")
    unfilled = [name for name, value in sent_values.items() if value == f"${{{name}}}"]
    if unfilled:  # (measured on Claude Code 2.1.332: tests/conformance/test_s49_serve_npm.py)
        return (f"the request carries {', '.join(unfilled)} as written (${{NAME}}), not the "
                "session's value: Claude Code fills a header only for names of upper-case "
                "letters, digits and _, so the service cannot compare it: use the "
                "`skillgrant hook` command")
    if sent_values["GIT_CONFIG_COUNT"]:  # review F3: the numbered settings are not in a header
        return ("the session sets GIT_CONFIG_COUNT: git takes settings from GIT_CONFIG_KEY_n "
                "and GIT_CONFIG_VALUE_n, which a request does not carry, so what git runs is "
                "not known here: use the `skillgrant hook` command")
    owns = values(COMPARED) if own is os.environ else tuple(own.get(n) for n in COMPARED)
    differing = [name for name, value in zip(COMPARED, owns, strict=True)
                 if sent_values[name] != (value or "")]
    if differing:
        verb = "differs" if len(differing) == 1 else "differ"
        return (f"the session's {', '.join(differing)} {verb} from the service's, so what the "
                "call must not write is not known here: start `skillgrant serve` from the "
                "session's environment, or use the `skillgrant hook` command")
    return _uncarried(sent_values)


def _uncarried(sent_values: Mapping[str, str | None]) -> str | None:
    """Why a compared value the session sent names a variable no header carries (its
    reading is the session's, not the service's: s49-greview V1), or None."""
    for name in COMPARED:
        value = sent_values.get(name) or ""
        other = next((v for v in named_variables(value) if v not in COMPARED and
                      v not in (PROJECT, "PWD")), None) if "$" in value else None
        if other is not None:
            return (f"the session's {name} reads ${other}, a variable a request does not "
                    "carry, so the paths it names are not known here: use the `skillgrant "
                    "hook` command, or give it a value without it")
    return None


def project_folder(received: Mapping[str, str], body: bytes,
                   own: Mapping[str, str] = os.environ) -> tuple[str | None, str | None]:
    """The session's project folder (its ``PWD``, when the payload's transcript is in that
    folder's project folder), or None and why it is not known."""
    import json  # loaded by the hook anyway; this module is on its path

    try:
        payload = json.loads(body)
    except (ValueError, RecursionError):
        payload = None
    transcript = payload.get("transcript_path") if isinstance(payload, dict) else None
    return project_of(sent(received)[PROJECT] or "", transcript, own)


def project_of(folder: str, transcript: object,
               own: Mapping[str, str] = os.environ) -> tuple[str | None, str | None]:
    """``project_folder`` of the session's ``PWD`` (``folder``, unwrapped: ``sent``) and the
    payload's ``transcript_path`` (``transcript``, any JSON value)."""
    if not folder.startswith("/") or not isinstance(transcript, str):
        return None, ("the session's project folder is not known: the request's PWD is not "
                      "an absolute folder, or the payload has no transcript_path")
    configured, home = values(("CLAUDE_CONFIG_DIR", "HOME")) if own is os.environ else (
        own.get("CLAUDE_CONFIG_DIR"), own.get("HOME"))
    config = configured or os.path.join(home or "", ".claude")
    mangled = _MANGLED.sub("-", folder)
    projects = os.path.join(os.path.normpath(config), "projects") + "/"
    transcript = os.path.normpath(transcript)  # a subagent's lies deeper in the same folder
    name = transcript[len(projects):].split("/", 1)[0] if transcript.startswith(projects) \
        and "/" in transcript[len(projects):] else None
    if len(mangled) > _MAX_MANGLED:  # review s41 F4: Claude Code adds a hash not computed here
        return None, (f"the session's project folder is not known: the name of its project "
                      f"folder is over {_MAX_MANGLED} characters, which Claude Code ends with "
                      "a hash of the folder that the service does not compute")
    if name != mangled:
        return None, (f"the session's project folder is not known: its transcript "
                      f"{transcript[:300]!r} is not in the project folder of {folder[:300]!r} "
                      f"under {config!r}")
    return folder, None


def named_variables(value: str) -> list[str]:
    """The variables ``value`` reads (``$NAME``, ``${NAME…}``, ``${!NAME}``), as
    ``_expanded`` reads them: under ``skillgrant serve`` one the request does not carry makes
    the value's reading the service's, not the session's (s49-greview V1)."""
    found: list[str] = []
    at = value.find("$")
    while at >= 0:
        start = at + 1 + (value[at + 1:at + 2] == "{")
        start += value[start:start + 1] in ("!", "#")
        end = start
        while end < len(value) and (value[end].isalnum() or value[end] == "_"):
            end += 1
        if end > start and not value[start].isdigit():  # (`$1`: no variable)
            found.append(value[start:end])
        at = value.find("$", at + 1)
    return found
