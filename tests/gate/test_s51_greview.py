"""Review s51 (s51-greview) of s51-gfix: the variables a program reads at its start that make it
load other code, and the files they name (the entry's own: a prefix, ``env``, ``export``,
make's ``N=v``; the session's). Each case proves its hole with real bash in a scratch copy (a
scratch home) first, then asks the printed hook for each call in turn, running the allowed
ones; the hook allowing them all is the finding: these tests fail while the hole is open
(``OPEN`` marks them strict xfails). A case the change holds is a plain passing test."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs, proved_case

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add

#: A shell script running the payload (``touch zz``).
SCRIPT = "#!/bin/sh\ntouch zz\n"
#: node code running the payload.
JS_PAYLOAD = "require('child_process').execSync('touch zz')\n"
#: A package whose ``test`` script runs node.
PACKAGE = {"package.json": '{"name":"a","version":"1.0.0","scripts":{"test":"node -e 0"}}\n'}


def _hole(tmp_path: Path, entry: str, files: dict[str, str | bytes], copies: list[str],
          extra: dict[str, str] | None = None, executable: tuple[str, ...] = ()) -> str | None:
    """Proves that ``copies`` then ``entry`` run the payload under real bash in a hooked
    project holding ``files`` (plan ``Bash(<entry>)``, ``Bash(cp *)``; the session's
    ``extra`` values); the first call the printed hook denies, or None."""
    return proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files, [*copies, entry],
                       extra, executable=executable)


# --- G1: env's split string with the option attached -------------------------------------------


#: Entries giving ``BASH_ENV=e.sh`` to bash through ``env -S``/``--split-string`` (env splits
#: the string into assignments and a command) where the string is attached to the option:
#: ``env -S 'BASH_ENV=e.sh bash -c true'`` (the quote a word of its own) is held.
SPLIT = {"attached-quoted": "env -S'BASH_ENV=e.sh bash' -c true",
         "attached-bare": "env -SBASH_ENV=e.sh bash -c true",
         "long-equals": "env --split-string='BASH_ENV=e.sh bash -c true'",
         "long-equals-part": "env --split-string='BASH_ENV=e.sh bash' -c true",
         "held-apart": "env -S 'BASH_ENV=e.sh bash -c true'",
         # (against s51-gfix 5ce1d9f: -S in a cluster of env's flags; a long option
         # abbreviated, as getopt_long takes it)
         "cluster": "env -vS'BASH_ENV=e.sh bash' -c true",
         "abbreviated-long": "env --split='BASH_ENV=e.sh bash' -c true"}


@pytest.mark.parametrize("case", list(SPLIT))
def test_g1_env_split_string_attached(tmp_path: Path, case: str) -> None:
    """``env -S'BASH_ENV=e.sh bash' -c true``: env splits its string, bash gets
    ``BASH_ENV=e.sh`` and sources it; plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk
    e.sh`` is allowed and bash runs it."""
    needs("bash", "env")
    denied = _hole(tmp_path, SPLIT[case], {"src/mk": SCRIPT}, ["cp src/mk e.sh"])
    assert denied is not None, "the hook allows the file env's split string's BASH_ENV names"


# (attached-*, long-*: open at 3bd429b; closed by s51-gfix 5ce1d9f: env's string attached
# to -S read as code)
# (test_g1_env_split_string_attached: held since the s51 merge)


# --- G2: an empty element of the entry's PATH is the folder a program runs in ----------------


#: Each case: the entry, the name its make recipe runs, found in the folder by the empty
#: element of the entry's ``PATH`` (execvp: "a zero-length prefix … the current directory").
EMPTY_PATH = {"leading": ("PATH=:/usr/bin:/bin make test", "ls"),
              "middle": ("PATH=/usr/bin::/bin make test", "notaprog"),
              "trailing": ("PATH=/usr/bin:/bin: make test", "notaprog"),
              "export-leading": ("export PATH=:/usr/bin:/bin; make test", "ls"),
              "env-leading": ("env PATH=:/usr/bin:/bin make test", "ls"),
              "declare-leading": ("declare -x PATH=:/usr/bin:/bin; make test", "ls"),
              "make-argument": ("make test PATH=:/usr/bin:/bin", "ls"),
              "held-dot": ("PATH=.:/usr/bin:/bin make test", "ls")}


@pytest.mark.parametrize("case", list(EMPTY_PATH))
def test_g2_an_empty_path_element_is_the_folder(tmp_path: Path, case: str) -> None:
    """``PATH=:/usr/bin:/bin make test`` with a recipe ``ls``: make runs ``./ls`` (an
    empty element of ``PATH`` is the current folder); plan ``Bash(<entry>)``, ``Bash(cp *)``:
    ``cp src/x <name>`` (an executable script) is allowed and make runs it."""
    needs("bash", "make")
    entry, name = EMPTY_PATH[case]
    files: dict[str, str | bytes] = {"Makefile": f"test:\n\t{name} >/dev/null\n",
                                     "src/x": SCRIPT}
    denied = _hole(tmp_path, entry, files, [f"cp src/x {name}"], executable=("src/x",))
    assert denied is not None, "the hook allows a program the entry's PATH finds in its folder"


# (open at 3bd429b; closed by s51-gfix 5ce1d9f: an entry's list with an empty element refuses)


# --- G3, G4: npm's own settings given in its variables ----------------------------------------


#: Each case: the entry (its npm variables), the files copied in (``rc``: npm settings naming
#: ``./x.sh`` as the scripts' shell), the session's extra values. npm reads ``npm_config_*``
#: whatever its case (``@npmcli/config``: ``/^npm_config_/i``, the key lower-cased).
NPM_VARS = {"userconfig-mixed": ("NPM_CONFIG_userconfig=rc npm test", {}),
            "globalconfig-mixed": ("Npm_Config_GlobalConfig=rc npm test", {}),
            "held-userconfig-lower": ("npm_config_userconfig=rc npm test", {}),
            "held-session-mixed": ("npm test", {"NPM_CONFIG_userconfig": "rc"})}


@pytest.mark.parametrize("case", list(NPM_VARS))
def test_g3_npm_reads_its_variables_in_any_case(tmp_path: Path, case: str) -> None:
    """``NPM_CONFIG_userconfig=rc npm test``: npm reads ``rc`` as the user's settings
    (``script-shell=./x.sh``) and runs the test script through ``./x.sh``; plan
    ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/rc rc``, ``cp src/x.sh x.sh`` are allowed and
    npm runs it."""
    needs("bash", "npm", "node")
    entry, extra = NPM_VARS[case]
    files: dict[str, str | bytes] = {**PACKAGE, "src/rc": "script-shell=./x.sh\n",
                                     "src/x.sh": SCRIPT}
    denied = _hole(tmp_path, entry, files, ["cp src/rc rc", "cp src/x.sh x.sh"], extra,
                   executable=("src/x.sh",))
    assert denied is not None, "the hook allows the settings file npm's variable names"


# (open at 3bd429b; closed by s51-gfix 5ce1d9f: npm_config_* in any case)


#: Each case: the entry giving node's preload through npm's ``node-options`` setting (npm
#: hands it to each script as ``NODE_OPTIONS``): a bare module name resolves through
#: ``node_modules``.
NPM_PRELOADS = {"env-bare-r": ("npm_config_node_options='-r pre' npm test",
                               "node_modules/pre.js"),
                "held-env-relative": ("npm_config_node_options=--require=./pre.js npm test",
                                      "pre.js")}


@pytest.mark.parametrize("case", list(NPM_PRELOADS))
def test_g4_npms_node_options_preloads_a_bare_module(tmp_path: Path, case: str) -> None:
    """``npm_config_node_options='-r pre' npm test``: the test script's node loads
    ``node_modules/pre.js``; plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk <file>`` is
    allowed and node runs it."""
    needs("bash", "npm", "node")
    entry, target = NPM_PRELOADS[case]
    files: dict[str, str | bytes] = {**PACKAGE, "node_modules/keep": "", "src/mk": JS_PAYLOAD}
    denied = _hole(tmp_path, entry, files, [f"cp src/mk {target}"])
    assert denied is not None, "the hook allows the module npm's node-options preloads"


# (env-bare-r: open at 3bd429b, closed by s51-gfix c78ae65: an entry's own value's preloads
# by a package's name are read, envpaths.preload_paths)


# --- G5: a pytest warning filter imports its category's module --------------------------------


VENV_PYTHON = "/work/venv/bin/python"
#: Python code running the payload.
PY_PAYLOAD = "import os; os.system('touch zz')\n"
#: Each case: the entry, the session's extra values. pytest reads each warning filter
#: (``-W``, ``--pythonwarnings``, the ini's ``filterwarnings``) and imports its category's
#: module (``_resolve_warning_category``) from ``sys.path``: the folder it runs in.
WARNED = {"W": (f"{VENV_PYTHON} -m pytest -W ignore::plug.W", {}),
          "W-attached": (f"{VENV_PYTHON} -m pytest -Wignore::plug.W", {}),
          "pythonwarnings": (f"{VENV_PYTHON} -m pytest --pythonwarnings=ignore::plug.W", {}),
          "o-filterwarnings": (f"{VENV_PYTHON} -m pytest -o filterwarnings=ignore::plug.W", {}),
          "pytest-bin": ("/work/venv/bin/pytest -W ignore::plug.W", {}),
          "entry-addopts": (f"PYTEST_ADDOPTS='-W ignore::plug.W' {VENV_PYTHON} -m pytest", {}),
          "session-addopts": (f"{VENV_PYTHON} -m pytest", {"PYTEST_ADDOPTS": "-W ignore::plug.W"}),
          "held-addopts-p": (f"PYTEST_ADDOPTS=-pplug {VENV_PYTHON} -m pytest", {})}


@pytest.mark.parametrize("case", list(WARNED))
def test_g5_a_warning_filter_imports_its_category(tmp_path: Path, case: str) -> None:
    """``python -m pytest -W ignore::plug.W``: pytest imports ``plug`` (the category's
    module) from the folder it runs in; plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk
    plug.py`` is allowed and pytest runs it."""
    needs("bash", VENV_PYTHON)
    entry, extra = WARNED[case]
    files: dict[str, str | bytes] = {"test_a.py": "def test_a():\n    pass\n",
                                     "src/mk": PY_PAYLOAD}
    denied = _hole(tmp_path, entry, files, ["cp src/mk plug.py"], extra)
    assert denied is not None, "the hook allows the module a warning filter's category names"


# (G5: held since the s51 merge; -o filterwarnings= by collectopts too)


# --- G6: perl's blib module puts a folder's blib/lib first ------------------------------------


#: Perl code running the payload (a module's file).
PERL_PAYLOAD = 'system("touch zz"); 1;\n'
#: Each case: the entry, the folder holding ``blib`` (``blib.pm``, a core module: ``-Mblib``
#: puts ``blib/lib`` and ``blib/arch`` of the folder perl runs in, or of the first of five
#: folders up holding them, first on ``@INC``; ``-Mblib=DIR``: DIR's), the session's values.
BLIB = {"argv": ("perl -Mblib -e 'use List::Util; 1'", ".", {}),
        "argv-dir": ("perl -Mblib=bb -e 'use List::Util; 1'", "bb", {}),
        "entry-perl5opt": ("PERL5OPT=-Mblib perl -e 'use List::Util; 1'", ".", {}),
        "session-perl5opt": ("perl -e 'use List::Util; 1'", ".", {"PERL5OPT": "-Mblib"})}


@pytest.mark.parametrize("case", list(BLIB))
def test_g6_perls_blib_puts_its_folders_first(tmp_path: Path, case: str) -> None:
    """``perl -Mblib -e 'use List::Util; 1'``: perl loads ``blib/lib/List/Util.pm``; plan
    ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk blib/lib/List/Util.pm`` is allowed and
    perl runs it."""
    needs("bash", "perl")
    entry, folder, extra = BLIB[case]
    files: dict[str, str | bytes] = {f"{folder}/blib/arch/keep": "",
                                     f"{folder}/blib/lib/List/keep": "", "src/mk": PERL_PAYLOAD}
    denied = _hole(tmp_path, entry, files, [f"cp src/mk {folder}/blib/lib/List/Util.pm"], extra)
    assert denied is not None, "the hook allows a module of the folder perl's blib puts first"


# (open at c78ae65; closed by s51-gfix 5ce1d9f: perl's -Mblib)


# --- G7: OpenSSL's settings file loads the engine it names ------------------------------------


#: OpenSSL settings (``nodejs_conf``: node's section; ``openssl_conf``: every other program's)
#: loading the engine ``./x.so`` at OpenSSL's start (``dynamic_path``: dlopen'd as written).
OPENSSL_SETTINGS = ("nodejs_conf = nc\nopenssl_conf = nc\n[nc]\nengines = es\n[es]\nx = xe\n"
                    "[xe]\ndynamic_path = ./x.so\ninit = 1\n")
#: A shared library whose constructor runs the payload when it is loaded.
LIBRARY = ("#include <stdlib.h>\n"
           "__attribute__((constructor)) static void run(void) { system(\"touch zz\"); }\n")
#: Each case: the entry, the settings file's name (copied in, or the project's own: ``own``),
#: the session's values. node reads ``OPENSSL_CONF`` (``--openssl-config=F``) at its start;
#: python's ``hashlib`` (pytest imports it) and npm's node too.
OPENSSL = {"node-entry": ("OPENSSL_CONF=oconf node -e 0", "oconf", {}),
           "node-session": ("node -e 0", "oconf", {"OPENSSL_CONF": "oconf"}),
           "node-flag": ("node --openssl-config=oconf -e 0", "oconf", {}),
           "node-options-flag": ("NODE_OPTIONS=--openssl-config=oconf node -e 0", "oconf", {}),
           "npm-session": ("npm test", "oconf", {"OPENSSL_CONF": "oconf"}),
           "pytest-entry": (f"OPENSSL_CONF=oconf {VENV_PYTHON} -m pytest", "oconf", {}),
           "pytest-session": (f"{VENV_PYTHON} -m pytest", "oconf", {"OPENSSL_CONF": "oconf"}),
           "node-entry-own": ("OPENSSL_CONF=o.cnf node -e 0", "own", {}),
           "pytest-session-own": (f"{VENV_PYTHON} -m pytest", "own",
                                  {"OPENSSL_CONF": "{P}/o.cnf"})}


def _library(tmp_path: Path) -> bytes:
    """``LIBRARY`` built (gcc)."""
    (tmp_path / "lib.c").write_text(LIBRARY)
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(tmp_path / "lib.so"),
                    str(tmp_path / "lib.c")], check=True, capture_output=True, timeout=120)
    return (tmp_path / "lib.so").read_bytes()


@pytest.mark.parametrize("case", list(OPENSSL))
def test_g7_openssls_settings_load_an_engine(tmp_path: Path, case: str) -> None:
    """``OPENSSL_CONF=oconf node -e 0``: node's OpenSSL reads ``oconf`` and loads the engine
    ``./x.so`` it names; plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/cnf oconf`` (or the
    project's own ``o.cnf``), ``cp src/so x.so`` are allowed and the program loads it."""
    needs("bash", "gcc", "node", "npm", VENV_PYTHON)
    entry, name, extra = OPENSSL[case]
    files: dict[str, str | bytes] = {**PACKAGE, "test_a.py": "def test_a():\n    pass\n",
                                     "src/cnf": OPENSSL_SETTINGS, "src/so": _library(tmp_path)}
    copies = ["cp src/so x.so"]
    if name == "own":
        files["o.cnf"] = OPENSSL_SETTINGS
    else:
        copies.insert(0, f"cp src/cnf {name}")
    denied = _hole(tmp_path, entry, files, copies, extra)
    assert denied is not None, "the hook allows the engine OpenSSL's settings load"


# (open at c78ae65; closed by s51-gfix 5ce1d9f: OpenSSL's settings and their engines)


# --- G8: a preload's package name resolving outside node_modules/<name> -----------------------


#: A workspace package (npm links ``node_modules/pre`` to its folder).
WORKSPACE: dict[str, str | bytes] = {
    "package.json": '{"name":"root","workspaces":["pkgs/*"]}\n',
    "pkgs/pre/package.json": '{"name":"pre","main":"index.js"}\n', "pkgs/pre/index.js": "0\n"}
#: Each case: the entry, the project's files, the file the payload goes to, the links made
#: (name: target). node resolves a preload's bare name as ``require`` does: through a link
#: in ``node_modules``, the package's ``main``, the project's own name (self-reference by
#: its ``exports``).
PRELOAD_ELSEWHERE = {
    "argv-r-workspace-link": ("node -r pre -e 0", WORKSPACE, "pkgs/pre/index.js",
                              {"node_modules/pre": "../pkgs/pre"}),
    "argv-import-workspace-link": ("node --import pre -e 0", WORKSPACE, "pkgs/pre/index.js",
                                   {"node_modules/pre": "../pkgs/pre"}),
    "node-options-main-out": ("NODE_OPTIONS='-r pre' node -e 0",
                              {"node_modules/pre/package.json": '{"main":"../../lib/m.js"}',
                               "lib/keep": ""}, "lib/m.js", {}),
    "argv-main-out": ("node -r pre -e 0",
                      {"node_modules/pre/package.json": '{"main":"../../lib/m.js"}',
                       "lib/keep": ""}, "lib/m.js", {}),
    "node-options-self-reference": (
        "NODE_OPTIONS='-r a/pre' node -e 0",
        {"package.json": '{"name":"a","exports":{"./pre":"./lib/pre.js"}}', "lib/keep": ""},
        "lib/pre.js", {}),
    "held-node-options-workspace-link": ("NODE_OPTIONS='-r pre' node -e 0", WORKSPACE,
                                         "pkgs/pre/index.js",
                                         {"node_modules/pre": "../pkgs/pre"})}


@pytest.mark.parametrize("case", list(PRELOAD_ELSEWHERE))
def test_g8_a_preloaded_package_resolves_elsewhere(tmp_path: Path, case: str) -> None:
    """``node -r pre -e 0`` with ``node_modules/pre`` a workspace's link: node loads
    ``pkgs/pre/index.js``; plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk <file>`` is
    allowed and node runs it."""
    needs("bash", "node")
    entry, files, target, links = PRELOAD_ELSEWHERE[case]
    assert isinstance(files, dict)
    setup = "".join(f"mkdir -p {Path(n).parent} && ln -s {t} {n}\n" for n, t in links.items())
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                         {**files, "src/mk": JS_PAYLOAD}, [f"cp src/mk {target}", entry],
                         setup=setup)
    assert denied is not None, "the hook allows the module a preloaded package resolves to"


# (open at ba4fc22; closed by s52-gfix2: noderesolve, node's own resolution of the name)


# --- G9: bun's BUN_OPTIONS ---------------------------------------------------------------------


BUN = Path.home() / ".cache/skillgrant-runtime/bun-1.4.5/package/bin"
#: Each case: the entry, the files copied in (source: target), the project's files, the
#: session's values. bun prepends ``BUN_OPTIONS`` to its command line at every start:
#: ``--preload pre`` (``node_modules/pre.js``), ``--config=F`` (a bunfig whose ``preload``
#: names ``./pre.js``), ``--env-file=F`` (its ``BASH_ENV`` reaches the shell a script starts).
BUN_OPTIONS = {
    "preload-bare": ("BUN_OPTIONS='--preload pre' bun x.js", {"src/mk": "node_modules/pre.js"},
                     {"node_modules/keep": ""}, {}),
    "config": ("BUN_OPTIONS=--config=cfg.toml bun x.js", {"src/mk": "pre.js"},
               {"cfg.toml": 'preload = ["./pre.js"]\n'}, {}),
    "session-config": ("bun x.js", {"src/mk": "pre.js"}, {"cfg.toml": 'preload = ["./pre.js"]\n'},
                       {"BUN_OPTIONS": "--config=cfg.toml"}),
    "env-file": ("BUN_OPTIONS=--env-file=cfg bun y.js", {"src/cfg": "cfg", "src/sh": "e.sh"},
                 {"src/cfg": "BASH_ENV=e.sh\n", "src/sh": SCRIPT}, {})}


@pytest.mark.parametrize("case", list(BUN_OPTIONS))
def test_g9_buns_options_variable(tmp_path: Path, case: str) -> None:
    """``BUN_OPTIONS='--preload pre' bun x.js``: bun loads ``node_modules/pre.js`` first;
    plan ``Bash(<entry>)``, ``Bash(cp *)``: the copies are allowed and bun runs the
    payload."""
    needs("bash")
    if not (BUN / "bun").exists():
        pytest.skip("bun 1.4.5 is not installed")
    entry, copies, more, extra = BUN_OPTIONS[case]
    files: dict[str, str | bytes] = {
        "x.js": "0\n", "y.js": "require('child_process').execSync('bash -c true')\n",
        "src/mk": JS_PAYLOAD, **more}
    denied = _hole(tmp_path, entry, files, [f"cp {s} {t}" for s, t in copies.items()],
                   {"PATH": f"{BUN}:{os.environ['PATH']}", **extra})
    assert denied is not None, "the hook allows what BUN_OPTIONS makes bun load"


# (open at 5ce1d9f; closed by s51-gfix 11c902a: BUN_OPTIONS read as bun's command line)


# --- G10, G11: make's command line from the session's MAKEFLAGS, and its --eval ---------------


#: A makefile running the payload when make reads it.
MAKE_PAYLOAD = "$(shell touch zz)\n"
#: Each case: the session's values, the file the payload goes to. make reads the
#: environment's ``MAKEFLAGS``/``GNUMAKEFLAGS`` as its command line's: a definition
#: (``MAKEFILES=mk``), an include folder (``-Iinc``: the Makefile's ``-include x.mk``),
#: ``--eval``'s text.
SESSION_MAKEFLAGS = {"makeflags": ({"MAKEFLAGS": "MAKEFILES=mk"}, "mk"),
                     "makeflags-dashdash": ({"MAKEFLAGS": "s -- MAKEFILES=mk"}, "mk"),
                     "gnumakeflags": ({"GNUMAKEFLAGS": "MAKEFILES=mk"}, "mk"),
                     "makeflags-I": ({"MAKEFLAGS": "-Iinc"}, "inc/x.mk"),
                     "makeflags-I-apart": ({"MAKEFLAGS": "-I inc"}, "inc/x.mk"),
                     "makeflags-eval": ({"MAKEFLAGS": "--eval=-include\\ mk"}, "mk")}


@pytest.mark.parametrize("case", list(SESSION_MAKEFLAGS))
def test_g10_the_sessions_makeflags(tmp_path: Path, case: str) -> None:
    """The session's ``MAKEFLAGS=MAKEFILES=mk``: ``make test`` reads ``mk`` first; plan
    ``Bash(make test)``, ``Bash(cp *)``: ``cp src/mk <file>`` is allowed and make runs it."""
    needs("bash", "make")
    extra, target = SESSION_MAKEFLAGS[case]
    files: dict[str, str | bytes] = {"Makefile": "-include x.mk\ntest:\n\techo ok\n",
                                     "inc/keep": "", "src/mk": MAKE_PAYLOAD}
    denied = _hole(tmp_path, "make test", files, [f"cp src/mk {target}"], extra)
    assert denied is not None, "the hook allows the makefile the session's MAKEFLAGS names"


# (open at c78ae65; closed by s51-gfix 5ce1d9f: the session's MAKEFLAGS refuses make plans)


#: Entries giving make text to read as a makefile's (``--eval``, ``-E``) in quotes.
EVALUATED = {"eval-quoted": "make --eval='-include mk' test",
             "E-quoted": "make -E '-include mk' test",
             "held-eval-escaped": "make --eval=include\\ mk test"}


@pytest.mark.parametrize("case", list(EVALUATED))
def test_g11_makes_eval_includes_a_makefile(tmp_path: Path, case: str) -> None:
    """``make --eval='-include mk' test``: make includes ``mk``; plan ``Bash(<entry>)``,
    ``Bash(cp *)``: ``cp src/mk mk`` is allowed and make runs it."""
    needs("bash", "make")
    files: dict[str, str | bytes] = {"Makefile": "test:\n\techo ok\n", "src/mk": MAKE_PAYLOAD}
    denied = _hole(tmp_path, EVALUATED[case], files, ["cp src/mk mk"])
    assert denied is not None, "the hook allows the makefile make's --eval includes"


# (open at 5ce1d9f; closed by s51-gfix 11c902a: make's --eval/-E refuses the plan)


# --- G12: an empty element of LD_LIBRARY_PATH is the folder a program runs in -----------------


#: A library whose constructor runs the payload once (the loader's variables removed first:
#: the shell ``system`` starts does not load it again).
ONCE_LIBRARY = ("#include <stdlib.h>\n"
                "__attribute__((constructor)) static void run(void) {\n"
                "  unsetenv(\"LD_PRELOAD\"); unsetenv(\"LD_LIBRARY_PATH\"); system(\"touch zz\");\n"
                "}\n")
#: Each case: the entry, the session's values. ld.so reads an empty element of
#: ``LD_LIBRARY_PATH`` as the current folder: ``ls`` loads ``./libselinux.so.1``.
LIBRARY_PATH = {"entry": ("LD_LIBRARY_PATH=: /bin/ls", {}),
                "session": ("/bin/ls", {"LD_LIBRARY_PATH": ":/nonexist"}),
                # (against s51-gfix 5ce1d9f: ld.so splits at `;` too; the session's trailing)
                "entry-semicolon": ("LD_LIBRARY_PATH='/nonexist;' /bin/ls", {}),
                "session-trailing": ("/bin/ls", {"LD_LIBRARY_PATH": "/nonexist:"})}


@pytest.mark.parametrize("case", list(LIBRARY_PATH))
def test_g12_an_empty_library_path_element(tmp_path: Path, case: str) -> None:
    """``LD_LIBRARY_PATH=: /bin/ls``: ls loads ``./libselinux.so.1``; plan
    ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/so libselinux.so.1`` is allowed and ls loads
    it."""
    needs("bash", "gcc")
    if "libselinux.so.1" not in subprocess.run(["ldd", "/bin/ls"], capture_output=True,
                                               text=True, check=False).stdout:
        pytest.skip("/bin/ls does not load libselinux.so.1")
    entry, extra = LIBRARY_PATH[case]
    (tmp_path / "lib.c").write_text(ONCE_LIBRARY)
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", str(tmp_path / "lib.so"),
                    str(tmp_path / "lib.c")], check=True, capture_output=True, timeout=120)
    files: dict[str, str | bytes] = {"src/so": (tmp_path / "lib.so").read_bytes()}
    denied = _hole(tmp_path, entry, files, ["cp src/so libselinux.so.1"], extra)
    assert denied is not None, "the hook allows a library an empty LD_LIBRARY_PATH part finds"


# (test_g12_an_empty_library_path_element: held since the s51 merge)


# --- K1 (cost): the session's MAKEFLAGS defining a harmless variable refuses make plans --------


#: Each case: the entry, the session's values. s51-gfix 5ce1d9f refuses every make plan while
#: the session's ``MAKEFLAGS`` defines a variable (G10), though the entry's own ``MAKEFLAGS``
#: definitions are read (``startflags.make_definitions``): ``CC=clang`` names a compiler on
#: ``PATH``, nothing the project holds.
SESSION_DEFINES = {"cc": ("make test", {"MAKEFLAGS": "CC=clang"}),
                   "held-jobs": ("make test", {"MAKEFLAGS": "-j8"})}


@pytest.mark.parametrize("case", list(SESSION_DEFINES))
def test_k1_the_sessions_makeflags_definition_refuses(tmp_path: Path, case: str) -> None:
    """The plan ``Bash(make test)`` approves the call; the hook denies it under the session's
    ``MAKEFLAGS=CC=clang``."""
    entry, extra = SESSION_DEFINES[case]
    project = hooked_project(tmp_path, [f"Bash({entry})"])
    (project / "Makefile").write_text("test:\n\techo ok\n")
    env = {**home_env(tmp_path / "home"), **extra}
    assert first_denied(project, [entry], env) is None, "the hook denies an approved call"


# (open at ba4fc22; closed by s52-gfix2: the session's definitions read as the entry's own)


# --- G15: PYTEST_ADDOPTS' -o addopts= (an option inside an option) ----------------------------


#: Each case: the entry. pytest reads ``PYTEST_ADDOPTS`` as its first options; ``-o
#: addopts=-pplug`` overrides the ini's ``addopts`` with ``-p plug`` (a plugin from the folder
#: it runs in). (The argument ``-o 'addopts=-p plug'`` refuses the plan: s50-greview3 C1.)
ADDOPTS_INI = {"entry-o-addopts": f"PYTEST_ADDOPTS='-o addopts=-pplug' {VENV_PYTHON} -m pytest"}


@pytest.mark.parametrize("case", list(ADDOPTS_INI))
def test_g15_pytest_addopts_overrides_the_ini_addopts(tmp_path: Path, case: str) -> None:
    """``PYTEST_ADDOPTS='-o addopts=-pplug' python -m pytest``: pytest imports ``plug.py``;
    plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk plug.py`` is allowed and pytest runs
    it."""
    needs("bash", VENV_PYTHON)
    files: dict[str, str | bytes] = {"test_a.py": "def test_a():\n    pass\n",
                                     "src/mk": PY_PAYLOAD}
    denied = _hole(tmp_path, ADDOPTS_INI[case], files, ["cp src/mk plug.py"])
    assert denied is not None, "the hook allows the plugin PYTEST_ADDOPTS' -o addopts names"


# (test_g15_pytest_addopts_overrides_the_ini_addopts: held since the s51 merge)


# --- G16: perl's core `if` module loading lib ---------------------------------------------------


#: Each case: the entry, the session's values. ``-Mif=1,lib,inc`` is ``use if 1, 'lib',
#: 'inc'``: the core ``if`` module loads ``lib`` with ``inc`` (first on ``@INC``).
PERL_IF = {"argv": ("perl -Mif=1,lib,inc -e 'use List::Util; 1'", {}),
           "entry-perl5opt": ("PERL5OPT=-Mif=1,lib,inc perl -e 'use List::Util; 1'", {}),
           "session-perl5opt": ("perl -e 'use List::Util; 1'", {"PERL5OPT": "-Mif=1,lib,inc"})}


@pytest.mark.parametrize("case", list(PERL_IF))
def test_g16_perls_if_module_loads_lib(tmp_path: Path, case: str) -> None:
    """``perl -Mif=1,lib,inc -e 'use List::Util; 1'``: perl loads ``inc/List/Util.pm``;
    plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk inc/List/Util.pm`` is allowed and
    perl runs it."""
    needs("bash", "perl")
    entry, extra = PERL_IF[case]
    files: dict[str, str | bytes] = {"inc/List/keep": "", "src/mk": PERL_PAYLOAD}
    denied = _hole(tmp_path, entry, files, ["cp src/mk inc/List/Util.pm"], extra)
    assert denied is not None, "the hook allows a module of the folder if's lib puts first"


# (test_g16_perls_if_module_loads_lib: held since the s51 merge)


# --- G17: an env file's comment without a blank before it -------------------------------------


#: Each case: the entry, the env file's name, the session's values. node's and bun's dotenv
#: parsers end an unquoted value at ``#`` (``BASH_ENV=e.sh#x`` sets ``e.sh``); a script's
#: ``bash -c true`` then sources ``e.sh``.
ENV_COMMENT = {"node-env-file": ("node --env-file=cfg y.js", "cfg", {}),
               "node-dotenv": ("node --env-file=.env y.js", ".env", {}),
               "bun-dotenv": ("bun y.js", ".env", {"PATH": f"{BUN}:{os.environ['PATH']}"})}


@pytest.mark.parametrize("case", list(ENV_COMMENT))
def test_g17_an_env_files_comment_without_a_blank(tmp_path: Path, case: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """``node --env-file=cfg y.js`` with ``cfg``'s ``BASH_ENV=e.sh#x``: the script's bash
    sources ``e.sh``; plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/sh e.sh`` is allowed
    and bash runs it."""
    needs("bash", "node")
    for name in ("BASH_ENV", "NODE_OPTIONS"):  # (an env file sets no variable already set)
        monkeypatch.delenv(name, raising=False)
    entry, name, extra = ENV_COMMENT[case]
    if "bun" in case and not (BUN / "bun").exists():
        pytest.skip("bun 1.4.5 is not installed")
    files: dict[str, str | bytes] = {
        name: "BASH_ENV=e.sh#x\n", "src/sh": SCRIPT,
        "y.js": "require('child_process').execSync('bash -c true')\n"}
    denied = _hole(tmp_path, entry, files, ["cp src/sh e.sh"], extra)
    assert denied is not None, "the hook allows the file an env file's BASH_ENV names"


# (G17: closed in session 51, startfiles.env_file reads a bare value to `#` too)


# --- G18: the module a project's guarded pytest settings' filterwarnings names -----------------


#: Each case: the project's pytest settings (guarded: ``starttables``' pytest row) naming a
#: warning category of ``plug``: pytest imports ``plug`` from its folder (``sys.path``).
WARNING_SETTINGS = {"pytest-ini": ("pytest.ini", "[pytest]\nfilterwarnings = ignore::plug.W\n"),
                    "pyproject": ("pyproject.toml", "[tool.pytest.ini_options]\n"
                                                    "filterwarnings = ['ignore::plug.W']\n")}


@pytest.mark.parametrize("case", list(WARNING_SETTINGS))
def test_g18_the_module_pytests_settings_filterwarnings_names(tmp_path: Path,
                                                                 case: str) -> None:
    """``python -m pytest`` with ``pytest.ini``'s ``filterwarnings = ignore::plug.W``: pytest
    imports ``plug.py``; plan ``Bash(<python> -m pytest)``, ``Bash(cp *)``: ``cp src/mk
    plug.py`` is allowed and pytest runs it."""
    needs("bash", VENV_PYTHON)
    name, text = WARNING_SETTINGS[case]
    files: dict[str, str | bytes] = {"test_a.py": "def test_a():\n    pass\n", name: text,
                                     "src/mk": PY_PAYLOAD}
    denied = _hole(tmp_path, f"{VENV_PYTHON} -m pytest", files, ["cp src/mk plug.py"])
    assert denied is not None, "the hook allows the module pytest's settings' filter imports"


# (G18: every case held since the fix in session 51, checkersettings reads filterwarnings)


# --- G19: what an npm settings file npm's variables name holds ---------------------------------


#: Each case: the entry, the session's values. The project's ``rc`` (guarded whole: a value
#: of ``npm_config_userconfig``/``globalconfig``) sets ``script-shell=./x.sh``: npm runs each
#: script through it (the project's ``.npmrc`` saying so is held).
NPM_SETTINGS_FILE = {"entry-userconfig": ("npm_config_userconfig=rc npm test", {}),
                     "entry-globalconfig": ("npm_config_globalconfig=rc npm test", {}),
                     "session-userconfig": ("npm test", {"npm_config_userconfig": "rc"})}


@pytest.mark.parametrize("case", list(NPM_SETTINGS_FILE))
def test_g19_the_shell_an_npm_settings_file_names(tmp_path: Path, case: str) -> None:
    """``npm_config_userconfig=rc npm test`` with ``rc``'s ``script-shell=./x.sh``: npm runs
    the test script through ``./x.sh``; plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/x.sh
    x.sh`` is allowed and npm runs it."""
    needs("bash", "npm", "node")
    entry, extra = NPM_SETTINGS_FILE[case]
    files: dict[str, str | bytes] = {**PACKAGE, "rc": "script-shell=./x.sh\n",
                                     "src/x.sh": SCRIPT}
    denied = _hole(tmp_path, entry, files, ["cp src/x.sh x.sh"], extra,
                   executable=("src/x.sh",))
    assert denied is not None, "the hook allows the shell an npm settings file names"


# (test_g19_the_shell_an_npm_settings_file_names: held since the s51 merge)
