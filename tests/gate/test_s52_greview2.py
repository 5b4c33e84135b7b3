"""Session 52 review s52-greview2 of s52-gfix2 (a preload named by a package's name resolved as
node resolves it; the eased costs of the plans running a project's tests). Each hole is proved
by real bash and the real program (node 20, bun 1.4.5, pytest, GNU make) in a scratch copy
first (``bash_review.proved_case``), then the printed hook is asked call by call: the hook
allowing every call is the finding (a strict-xfail row in ``OPEN``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs, proved_case

#: Real bash, node, bun and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open here, by test name (and case): each a strict xfail.
OPEN = LeftOpen()

#: node code running the payload (``touch zz``), as a module or a CommonJS file.
JS_PAYLOAD = "require('child_process').execSync('touch zz')\n"
BUN = Path.home() / ".cache/skillgrant-runtime/bun-1.4.5/package/bin"


# --- R1: what node loads for a preload the gate does not read as a package's name -------------


#: Each case: the plan's entries (beside ``Bash(cp *)``, ``Bash(mkdir *)``), the project's
#: files, the calls (the last runs node), the session's values. node 20 loads the payload in
#: each (the proof runs it).
PRELOADS: dict[str, tuple[list[str], dict[str, str], list[str], dict[str, str]]] = {
    # NODE_OPTIONS' own quotes: node strips them (`-r "pre"` preloads pre)
    "node-options-quoted-name": (["Bash(NODE_OPTIONS='-r \"pre\"' node -e 0)"],
                                 {"node_modules/keep": ""},
                                 ["cp src/mk node_modules/pre.js",
                                  "NODE_OPTIONS='-r \"pre\"' node -e 0"], {}),
    "held-node-options-quoted-require-equals": (
        ["Bash(NODE_OPTIONS='--require=\"pre\"' node -e 0)"], {"node_modules/keep": ""},
        ["cp src/mk node_modules/pre.js", "NODE_OPTIONS='--require=\"pre\"' node -e 0"], {}),
    # CommonJS's require('pre:x') is a package's name (only `node:` is a scheme there)
    "node-options-colon-in-the-name": (["Bash(NODE_OPTIONS='-r pre:x' node -e 0)"],
                                       {"node_modules/keep": ""},
                                       ["cp src/mk node_modules/pre:x.js",
                                        "NODE_OPTIONS='-r pre:x' node -e 0"], {}),
    # the same with a scheme's name before the colon (require reads only `node:` as one)
    "node-options-data-colon-name": (["Bash(NODE_OPTIONS='-r data:x' node -e 0)"],
                                     {"node_modules/keep": ""},
                                     ["cp src/mk node_modules/data:x.js",
                                      "NODE_OPTIONS='-r data:x' node -e 0"], {}),
    "node-options-https-colon-name": (["Bash(NODE_OPTIONS='-r https:x' node -e 0)"],
                                      {"node_modules/keep": ""},
                                      ["cp src/mk node_modules/https:x.js",
                                       "NODE_OPTIONS='-r https:x' node -e 0"], {}),
    # node reads `_` in an option's name as `-`: --experimental_loader is --experimental-loader
    "node-options-underscore-loader": (
        ["Bash(NODE_OPTIONS='--experimental_loader pre' node -e 0)"],
        {"node_modules/pre/keep": ""},
        ["cp src/mk node_modules/pre/index.js",
         "NODE_OPTIONS='--experimental_loader pre' node -e 0"], {}),
    # the test runner's reporter, by a package's name
    "node-options-test-reporter": (
        ["Bash(NODE_OPTIONS='--test-reporter pre' node --test test/)"],
        {"node_modules/pre/keep": "", "test/a.test.js": "0\n"},
        ["cp src/mk node_modules/pre/index.js",
         "NODE_OPTIONS='--test-reporter pre' node --test test/"], {}),
    # held (node's plans guard node_modules/ whole)
    # a subpath's folder with its own package.json: require's LOAD_AS_DIRECTORY reads its main
    "subpath-folders-own-main": (["Bash(node -r pre/sub -e 0)"],
                                 {"node_modules/pre/sub/package.json":
                                  '{"main":"../../../code/m.js"}', "code/keep": ""},
                                 ["cp src/mk code/m.js", "node -r pre/sub -e 0"], {}),
    "node-options-subpath-folders-own-main": (
        ["Bash(NODE_OPTIONS='-r pre/sub' node -e 0)"],
        {"node_modules/pre/sub/package.json": '{"main":"../../../code/m.js"}', "code/keep": ""},
        ["cp src/mk code/m.js", "NODE_OPTIONS='-r pre/sub' node -e 0"], {}),
    # the ES resolver reads the export's target as a URL: `?q`, `#f` are not the file's name
    "import-query-self-reference": (["Bash(node --import 'a/x.js?q' -e 0)"],
                                    {"package.json": '{"name":"a","exports":{"./*":"./lib/*"}}',
                                     "lib/keep": ""},
                                    ["cp src/mk lib/x.js", "node --import 'a/x.js?q' -e 0"], {}),
    "import-fragment-self-reference": (
        ["Bash(node --import 'a/x.js#f' -e 0)"],
        {"package.json": '{"name":"a","exports":{"./*":"./lib/*"}}', "lib/keep": ""},
        ["cp src/mk lib/x.js", "node --import 'a/x.js#f' -e 0"], {}),
    "import-percent-encoded-self-reference": (
        ["Bash(node --import a/x%2ejs -e 0)"],
        {"package.json": '{"name":"a","exports":{"./*":"./lib/*"}}', "lib/keep": ""},
        ["cp src/mk lib/x.js", "node --import a/x%2ejs -e 0"], {}),
    "held-colon-in-the-name": (["Bash(node -r pre:x -e 0)"], {"node_modules/keep": ""},
                               ["cp src/mk node_modules/pre:x.js", "node -r pre:x -e 0"], {}),
    "held-tilde-name-quoted": (["Bash(node -r '~/pre' -e 0)"], {"node_modules/~/keep": ""},
                               ["cp src/mk node_modules/~/pre.js", "node -r '~/pre' -e 0"], {}),
    "held-underscore-loader": (["Bash(node --experimental_loader pre -e 0)"],
                               {"node_modules/pre/keep": ""},
                               ["cp src/mk node_modules/pre/index.js",
                                "node --experimental_loader pre -e 0"], {}),
    "held-home-node-modules": (["Bash(node -r pre -e 0)"], {},
                               ["mkdir -p ~/.node_modules", "cp src/mk ~/.node_modules/pre.js",
                                "node -r pre -e 0"], {}),
    "held-test-reporter": (["Bash(node --test --test-reporter=pre test/)"],
                           {"node_modules/pre/keep": "", "test/a.test.js": "0\n"},
                           ["cp src/mk node_modules/pre/index.js",
                            "node --test --test-reporter=pre test/"], {}),
    "held-env-chdir": (["Bash(env -C sub node -r pre -e 0)"], {"sub/node_modules/keep": ""},
                       ["cp src/mk sub/node_modules/pre.js", "env -C sub node -r pre -e 0"], {}),
}


# (R1f, R1g open at 160ce73; closed by s52-gfix2b: an export target read as a URL too,
# require's only scheme `node:`)


@pytest.mark.parametrize("case", list(PRELOADS))
def test_r1_what_node_preloads_is_guarded(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``, ``Bash(mkdir *)``: a call before the entry
    writing what node preloads is denied."""
    needs("bash", "node")
    entries, files, calls, extra = PRELOADS[case]
    denied = proved_case(tmp_path, [*entries, "Bash(cp *)", "Bash(mkdir *)"],
                         {**files, "src/mk": JS_PAYLOAD}, calls, extra)
    assert denied is not None, "the hook allows every call, and node runs the payload"


# --- R2: bun resolves a preload's bare name through tsconfig.json/jsconfig.json too ------------


#: Each case: the project's files (beside a ``bunfig.toml`` preloading ``tp`` and ``x.js``), the
#: file the payload goes to. bun 1.4.5 resolves a bare name by the ``paths`` and ``baseUrl`` of
#: the project's tsconfig.json/jsconfig.json before ``node_modules`` (the proof runs it).
BUN_RESOLVED = {
    "jsconfig-base-url": ({"jsconfig.json": '{"compilerOptions":{"baseUrl":"code"}}',
                           "code/keep": ""}, "code/tp.js"),
    "tsconfig-base-url": ({"tsconfig.json": '{"compilerOptions":{"baseUrl":"./code"}}',
                           "code/keep": ""}, "code/tp.js"),
    "tsconfig-paths-pattern": ({"tsconfig.json":
                                '{"compilerOptions":{"paths":{"t*":["./code/*.js"]}}}',
                                "code/keep": ""}, "code/p.js"),
    "tsconfig-paths": ({"tsconfig.json":
                             '{"compilerOptions":{"paths":{"tp":["./code/tp.js"]}}}',
                             "code/keep": ""}, "code/tp.js"),
}


# (open at 5795ee7; closed by s52-gfix2 160ce73: gate/tsconfigpaths.py)


@pytest.mark.parametrize("case", list(BUN_RESOLVED))
def test_r2_what_buns_preload_name_resolves_to_is_guarded(tmp_path: Path, case: str) -> None:
    """bunfig.toml ``preload = ["tp"]``; plan ``Bash(bun x.js)``, ``Bash(cp *)``: ``cp src/mk
    <file>`` is denied."""
    needs("bash")
    if not (BUN / "bun").exists():
        pytest.skip("bun 1.4.5 is not installed")
    files, target = BUN_RESOLVED[case]
    calls = [f"cp src/mk {target}", "bun x.js"]
    denied = proved_case(tmp_path, ["Bash(bun x.js)", "Bash(cp *)"],
                         {**files, "bunfig.toml": 'preload = ["tp"]\n', "x.js": "0\n",
                          "src/mk": JS_PAYLOAD}, calls,
                         {"PATH": f"{BUN}:{os.environ['PATH']}"})
    assert denied is not None, "the hook allows every call, and bun runs the payload"


# --- R3: the folder node runs in, moved by an allowed `cd` ---------------------------------------


#: Each case: the plan's entries, the project's files, the calls (the last runs node in a
#: folder the session moved to). node resolves a preload's name from the folder it runs in:
#: the nearest package.json there names the project's own package (self-reference).
MOVED = {
    "cd-then-self-reference": (
        ["Bash(node -r a/pre -e 0)", "Bash(cd *)"],
        {"sub/keep": "", "src/pj": '{"name":"a","exports":{"./pre":"./pre.js"}}'},
        ["cp src/pj sub/package.json", "cp src/mk sub/pre.js", "cd sub && node -r a/pre -e 0"]),
    "held-cd-then-self-reference-node-options": (
        ["Bash(NODE_OPTIONS='-r a/pre' node -e 0)", "Bash(cd *)"],
        {"sub/keep": "", "src/pj": '{"name":"a","exports":{"./pre":"./pre.js"}}'},
        ["cp src/pj sub/package.json", "cp src/mk sub/pre.js",
         "cd sub && NODE_OPTIONS='-r a/pre' node -e 0"]),
}


# (test_r3_a_preload_resolved_where_the_session_moved: every case held since the fix, s51 merge)


@pytest.mark.parametrize("case", list(MOVED))
def test_r3_a_preload_resolved_where_the_session_moved(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cd *)``, ``Bash(cp *)``: a call before node's writing
    what node resolves the preload to from ``sub/`` is denied."""
    needs("bash", "node")
    entries, files, calls = MOVED[case]
    denied = proved_case(tmp_path, [*entries, "Bash(cp *)"], {**files, "src/mk": JS_PAYLOAD},
                         calls)
    assert denied is not None, "the hook allows every call, and node runs the payload"


# --- R4: pytest's console script by its path: the environment it runs in ------------------------


#: A Python whose standard library and pytest are the session's (a venv made with them).
BASE_PYTHON = "/root/.pyenv/versions/3.11.7/bin/python3"
#: A ``.pth`` line: Python's site runs it at every start.
PTH_PAYLOAD = "import os; os.system('touch zz')\n"
#: Each case: the venv's folder. ``python3 -m venv`` makes it, its ``bin/pytest`` a console
#: script run by the venv's ``bin/python`` (its shebang), as pip writes one.
VENVS = {"venv": ("venv", "venv/bin/pytest"), "dot-venv": (".venv", ".venv/bin/pytest"),
         "tools-env": ("tools/env", "tools/env/bin/pytest"),
         # a link to the venv's console script, by its path (`ln -s .venv/bin/pytest pytest`)
         "link-to-console-script": (".venv", "./pytest"),
         # a venv in the home (`~/venvs/p`), its console script by the home's path
         "held-home-venv": ("~/v", "~/v/bin/pytest"),
         "held-python-m-pytest": ("venv", "venv/bin/python -m pytest")}


# (R4b open at 160ce73: a link to the console script by another path; closed by s52-gfix2b)


@pytest.mark.parametrize("case", list(VENVS))
def test_r4_a_console_scripts_environment_is_guarded(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<venv>/bin/pytest tests)`` (``bin/python -m pytest``), ``Bash(cp *)``:
    ``cp src/evil.pth <venv>/lib/python3.11/site-packages/evil.pth`` is denied (Python's site
    runs each ``.pth`` line starting ``import`` at the console script's start)."""
    needs("bash", BASE_PYTHON)
    venv, program = VENVS[case]
    full = "$HOME" + venv[1:] if venv[:1] == "~" else "$PWD/" + venv
    setup = (f'V="{full}"; {BASE_PYTHON} -m venv --system-site-packages "$V" && printf '
             "'#!%s/bin/python\\nimport sys\\nfrom pytest import console_main\\n"
             "sys.exit(console_main())\\n' \"$V\" > \"$V/bin/pytest\" && chmod +x "
             '"$V/bin/pytest" && ln -s "$V/bin/pytest" pytest\n')
    calls = [f"cp src/evil.pth {venv}/lib/python3.11/site-packages/evil.pth",
             f"{program} tests"]
    denied = proved_case(tmp_path, [f"Bash({calls[-1]})", "Bash(cp *)"],
                         {"tests/test_a.py": "def test_a():\n    pass\n",
                          "src/evil.pth": PTH_PAYLOAD}, calls, setup=setup, in_place=True)
    assert denied is not None, "the hook allows every call, and pytest's start runs the payload"


# --- R5: require's global folder beside node's installation --------------------------------------


#: Each case: the plan's entry. node's require looks for a name last in its global folders:
#: ``$HOME/.node_modules``, ``$HOME/.node_libraries`` and ``$PREFIX/lib/node``, where PREFIX is
#: the folder above the one holding node (a prefix of one's own: ``/usr/local``, a
#: toolchain's folder; here a link of node in the case's folder, ``../px/bin/node``).
GLOBAL = {"plain": "node -r gpre -e 0", "node-options": "NODE_OPTIONS='-r gpre' node -e 0"}


# (open at c879aea; closed by s52-gfix2 160ce73: noderesolve._global_folders)


@pytest.mark.parametrize("case", list(GLOBAL))
def test_r5_nodes_global_folder_is_guarded(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``, node on PATH at ``../px/bin/node``: ``cp src/mk
    ../px/lib/node/gpre.js`` is denied."""
    needs("bash", "node")
    node = os.path.realpath(str(shutil.which("node")))
    setup = ('mkdir -p "$T/px/bin" "$T/px/lib/node" && '
             f'{{ ln {node} "$T/px/bin/node" || cp {node} "$T/px/bin/node"; }}\n')
    calls = ["cp src/mk ../px/lib/node/gpre.js", GLOBAL[case]]
    denied = proved_case(tmp_path, [f"Bash({calls[-1]})", "Bash(cp *)"], {"src/mk": JS_PAYLOAD},
                         calls, {"PATH": f"{{P}}/../px/bin:{os.environ['PATH']}"}, setup=setup)
    assert denied is not None, "the hook allows every call, and node runs the payload"


# --- R6: the session's MAKEFLAGS definitions, read as an entry's own ----------------------------


#: Each case: the session's MAKEFLAGS, the Makefile, the file the payload (``touch zz``) goes
#: to. GNU make 4.3 reads each definition as its command line's and exports it to each
#: recipe: ``.SHELLFLAGS=run`` runs ``/bin/sh run 'echo ok'`` (the file ``run``);
#: ``SHELL=/bin/bash BASH_ENV=e`` makes each recipe's bash read ``e`` first; ``CFLAGS=@opts``
#: makes gcc read its options from the file ``opts`` (``-wrapper sh,-c,touch\ zz``).
ECHO = "test:\n\techo ok\n"
COMPILE = "test: t.c\n\t$(CC) $(CFLAGS) -c t.c -o t.o\n"
SESSION_DEFINITIONS = {
    "shellflags-a-file": (".SHELLFLAGS=run", ECHO, "run", "touch zz\n"),
    "held-bash-env-a-bare-name": ("SHELL=/bin/bash BASH_ENV=e", ECHO, "e", "touch zz\n"),
    "cflags-a-response-file": ("CFLAGS=@opts", COMPILE, "opts", "-wrapper sh,-c,touch\\ zz\n"),
    # make looks for a prerequisite not in its folder in VPATH's folders: `$<` is v/t.sh
    "vpath-a-folder": ("VPATH=v", "test: t.sh\n\tsh $<\n", "v/t.sh", "touch zz\n"),
    # gcc's -B prefix: it runs the assembler it finds there (v/as; cp keeps src/x executable)
    "cflags-a-program-prefix": ("CFLAGS=-Bv/", COMPILE, "v/as", "#!/bin/sh\ntouch zz\n"),
    "held-makefiles": ("MAKEFILES=mk", ECHO, "mk", "$(shell touch zz)\n"),
}


# (open at 160ce73; closed by s52-gfix2b: startvars._words, startflags.make_definitions)


@pytest.mark.parametrize("case", list(SESSION_DEFINITIONS))
def test_r6_the_sessions_makeflags_definitions(tmp_path: Path, case: str) -> None:
    """The session's MAKEFLAGS; plan ``Bash(make test)``, ``Bash(cp *)``: ``cp src/x <file>``
    is denied (or the plan refused)."""
    needs("bash", "make", "gcc")
    flags, makefile, target, text = SESSION_DEFINITIONS[case]
    calls = [f"cp src/x {target}", "make test"]
    denied = proved_case(tmp_path, ["Bash(make test)", "Bash(cp *)"],
                         {"Makefile": makefile, "t.c": "int x;\n", "v/keep": "", "src/x": text},
                         calls, {"MAKEFLAGS": flags}, executable=("src/x",))
    assert denied is not None, "the hook allows every call, and make runs the payload"


# --- R7: npm's global settings beside node's installation ----------------------------------------


#: Each case: the plan's entry. npm reads its global settings from ``$PREFIX/etc/npmrc`` (PREFIX:
#: the folder above the node running it, by default), whose ``node-options`` npm hands each
#: script as ``NODE_OPTIONS``: here ``--require=./src/pay.js``, a project file no entry runs.
NPM_GLOBAL = {"held-npm-test": "npm test", "held-npm-run": "npm run t"}


@pytest.mark.parametrize("case", list(NPM_GLOBAL))
def test_r7_npms_global_settings_are_guarded(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``, node on PATH at ``../px/bin/node``: ``cp
    src/npmrc ../px/etc/npmrc`` is denied."""
    needs("bash", "node", "npm")
    node = os.path.realpath(str(shutil.which("node")))
    setup = ('mkdir -p "$T/px/bin" "$T/px/etc" && '
             f'{{ ln {node} "$T/px/bin/node" || cp {node} "$T/px/bin/node"; }}\n')
    calls = ["cp src/npmrc ../px/etc/npmrc", NPM_GLOBAL[case]]
    files = {"package.json": '{"name":"p","scripts":{"test":"node -e 0","t":"node -e 0"}}',
             "src/pay.js": JS_PAYLOAD, "src/npmrc": "node-options=--require=./src/pay.js\n"}
    denied = proved_case(tmp_path, [f"Bash({calls[-1]})", "Bash(cp *)"], files, calls,
                         {"PATH": f"{{P}}/../px/bin:{os.environ['PATH']}"}, setup=setup)
    assert denied is not None, "the hook allows every call, and npm's script runs the payload"


# --- R8: a preload by a package's name on the command line of a program starting node ----------


#: A package linked into ``node_modules`` (``npm link``'s, pnpm's) by no workspace's name.
LINKED_PACKAGE = {"package.json": '{"name":"root","scripts":{"test":"node -e 0"}}\n',
             "pkgs/pre/package.json": '{"name":"pre","main":"index.js"}\n',
             "pkgs/pre/index.js": "0\n", "x.js": "0\n"}
LINKED = "mkdir -p node_modules && ln -s ../pkgs/pre node_modules/pre\n"
#: Each case: the entry; node (or bun) preloads ``pre`` through the link, ``pkgs/pre/index.js``.
STARTERS = {"held-bun-preload": "bun --preload pre x.js", "held-bun-r": "bun -r pre x.js",
            "held-npx-node": "npx node -r pre -e 0",
            "held-npm-exec-node": "npm exec -- node -r pre -e 0",
            "held-env-node": "env node -r pre -e 0",
            "held-timeout-node": "timeout 60 node -r pre -e 0", "held-node": "node -r pre -e 0",
            # npm's node-options given on its command line (a setting, as in .npmrc)
            "npm-test-node-options-flag": "npm test --node-options='-r pre'",
            "held-npm-exec-node-options-flag": "npm exec --node-options='-r pre' -- node -e 0"}


# (R8 open at 160ce73; closed by s52-gfix2b: startflags reads npm's --node-options)


#: Each case: the project's ``.npmrc``. npm's ini reader takes a value's surrounding quotes
#: off (``node-options="-r pre"`` is ``-r pre``), and hands it to each script as NODE_OPTIONS.
NPMRC_QUOTED = {"double-quoted": 'node-options="-r pre"\n',
                "single-quoted": "node-options='-r pre'\n",
                "plain": "node-options=-r pre\n"}


# (R8b open at 160ce73; closed by s52-gfix2b: startpaths.npmrc_paths resolves node-options)


@pytest.mark.parametrize("case", list(NPMRC_QUOTED))
def test_r8_an_npmrc_quoted_node_options(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(npm test)``, ``Bash(cp *)``, the project's ``.npmrc``: ``cp src/mk
    pkgs/pre/index.js`` is denied."""
    needs("bash", "node", "npm")
    calls = ["cp src/mk pkgs/pre/index.js", "npm test"]
    denied = proved_case(tmp_path, ["Bash(npm test)", "Bash(cp *)"],
                         {**LINKED_PACKAGE, ".npmrc": NPMRC_QUOTED[case], "src/mk": JS_PAYLOAD},
                         calls, setup=LINKED)
    assert denied is not None, "the hook allows every call, and the preload runs the payload"


@pytest.mark.parametrize("case", list(STARTERS))
def test_r8_a_preload_on_a_starters_command_line(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk pkgs/pre/index.js`` is denied."""
    needs("bash", "node", "npm")
    if case.startswith("bun") and not (BUN / "bun").exists():
        pytest.skip("bun 1.4.5 is not installed")
    calls = ["cp src/mk pkgs/pre/index.js", STARTERS[case]]
    denied = proved_case(tmp_path, [f"Bash({calls[-1]})", "Bash(cp *)"],
                         {**LINKED_PACKAGE, "src/mk": JS_PAYLOAD}, calls,
                         {"PATH": f"{BUN}:{os.environ['PATH']}"}, setup=LINKED)
    assert denied is not None, "the hook allows every call, and the preload runs the payload"


# --- R9: a plan's script by a relative path, run where an allowed cd moved the call ---------------


#: Each case: the entries (beside ``Bash(cd *)``, ``Bash(cp *)``), the payload's file, the
#: calls. The plan approves ``x.js`` (``x.py``) in the project's folder; after ``cd sub`` the
#: same words run ``sub/x.js``, a file a call wrote.
CD_SCRIPTS = {
    "node": ("Bash(node x.js)", "src/mk", JS_PAYLOAD,
             ["cp src/mk sub/x.js", "cd sub && node x.js"]),
    "python": ("Bash(python3 x.py)", "src/mk", "import os\nos.system('touch zz')\n",
               ["cp src/mk sub/x.py", "cd sub && python3 x.py"]),
}


# (test_r9_a_plans_script_where_cd_moved_the_call: every case held since the fix, s51 merge)


@pytest.mark.parametrize("case", list(CD_SCRIPTS))
def test_r9_a_plans_script_where_cd_moved_the_call(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(node x.js)``, ``Bash(cd *)``, ``Bash(cp *)``: ``cp src/mk sub/x.js`` then
    ``cd sub && node x.js``: one is denied."""
    needs("bash", "node", "python3")
    entry, source, text, calls = CD_SCRIPTS[case]
    denied = proved_case(tmp_path, [entry, "Bash(cd *)", "Bash(cp *)"],
                         {"x.js": "0\n", "x.py": "0\n", "sub/keep": "", source: text}, calls)
    assert denied is not None, "the hook allows every call, and the moved script runs"


# --- C1 (cost): the session's MAKEFLAGS a careful user has ---------------------------------------


#: Each case: the session's MAKEFLAGS. make passes a definition with a blank to its sub-makes
#: escaped (``make CFLAGS='-O2 -g'`` gives them ``MAKEFLAGS= -- CFLAGS=-O2\ -g``); it names no
#: file, so the plan's make reads nothing the gate does not know.
CAREFUL_MAKEFLAGS = {"escaped-blank": "CFLAGS=-O2\\ -g",
                     "sub-make-form": " -- CFLAGS=-O2\\ -g CC=clang",
                     "held-plain": "CC=clang CFLAGS=-O2"}


@pytest.mark.parametrize("case", list(CAREFUL_MAKEFLAGS))
def test_c1_a_sessions_harmless_makeflags_keeps_make(tmp_path: Path, case: str) -> None:
    """The session's MAKEFLAGS; plan ``Bash(make test)``: ``make test`` is allowed."""
    needs("bash", "make")
    project = hooked_project(tmp_path, ["Bash(make test)"])
    (project / "Makefile").write_text(ECHO)
    env = {**home_env(tmp_path / "home"), "MAKEFLAGS": CAREFUL_MAKEFLAGS[case]}
    assert first_denied(project, ["make test"], env) is None, "the hook denies make test"


# (open at 160ce73; closed by s52-gfix2b: startvars._words, startflags.make_definitions)


#: Each case: the entry, the project's files (beside ``x.js``, ``code/``), the file the payload
#: goes to: bun resolves a preload's bare name by tsconfig.json's ``paths`` whatever names it
#: (its command line, BUN_OPTIONS, a bunfig's ``[test]`` table).
BUN_PRELOADERS = {
    "held-argv-preload": ("bun --preload tp x.js", {}, "code/tp.js"),
    "held-argv-r": ("bun -r tp x.js", {}, "code/tp.js"),
    "bun-options": ("BUN_OPTIONS='--preload tp' bun x.js", {}, "code/tp.js"),
    # bun's --tsconfig-override names the settings file it reads paths from
    "held-tsconfig-override": ("bun --tsconfig-override=cfg.json x.js",
                          {"bunfig.toml": 'preload = ["tp"]\n', "tsconfig.json": "{}\n",
                           "cfg.json":
                           '{"compilerOptions":{"paths":{"t*":["./code/*.js"]}}}'},
                          "code/p.js"),
    "held-bunfig-test-table": ("bun test", {"bunfig.toml": '[test]\npreload = ["tp"]\n',
                                       "a.test.js": "0\n"}, "code/tp.js"),
}


# (R2b open at 160ce73: an entry's BUN_OPTIONS' --preload; closed by s52-gfix2b)


@pytest.mark.parametrize("case", list(BUN_PRELOADERS))
def test_r2_buns_preload_name_through_tsconfig_however_named(tmp_path: Path, case: str) -> None:
    """tsconfig.json ``paths`` ``{"tp": ["./code/tp.js"]}``; plan ``Bash(<entry>)``,
    ``Bash(cp *)``: ``cp src/mk code/tp.js`` is denied."""
    needs("bash")
    if not (BUN / "bun").exists():
        pytest.skip("bun 1.4.5 is not installed")
    entry, files, target = BUN_PRELOADERS[case]
    calls = [f"cp src/mk {target}", entry]
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                         {"tsconfig.json": '{"compilerOptions":{"paths":{"tp":["./code/tp.js"]}}}',
                          "code/keep": "", "x.js": "0\n", **files, "src/mk": JS_PAYLOAD}, calls,
                         {"PATH": f"{BUN}:{os.environ['PATH']}"})
    assert denied is not None, "the hook allows every call, and bun runs the payload"


#: Each case: the entry. The node it runs is ``px/bin/node`` in the project (a toolchain the
#: project holds), named by its path or put on PATH by the entry: require's global folder is
#: ``px/lib/node``.
PROJECT_NODE = {"by-path": "px/bin/node -r gpre -e 0",
                "entry-path": "PATH=px/bin:/usr/bin:/bin node -r gpre -e 0"}


# (R5b open at 160ce73; closed by s52-gfix2b: startflags NODE_PATH, startvars PATH)


@pytest.mark.parametrize("case", list(PROJECT_NODE))
def test_r5_a_project_nodes_global_folder_is_guarded(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk px/lib/node/gpre.js`` is denied."""
    needs("bash", "node")
    node = os.path.realpath(str(shutil.which("node")))
    setup = (f"mkdir -p px/bin px/lib/node && {{ ln {node} px/bin/node || "
             f"cp {node} px/bin/node; }}\n")
    calls = ["cp src/mk px/lib/node/gpre.js", PROJECT_NODE[case]]
    denied = proved_case(tmp_path, [f"Bash({calls[-1]})", "Bash(cp *)"], {"src/mk": JS_PAYLOAD},
                         calls, setup=setup)
    assert denied is not None, "the hook allows every call, and node runs the payload"


# --- R10: a test folder reached through a link the project holds ---------------------------------


#: Each case: the plan's entry, the project's link (name: target), the project's files. node 20's
#: test runner follows a link in its folder (``test/shared -> ../shared``), or a link named
#: ``test`` (``lib/test -> ../shared``), and runs every script below: ``shared/x.js`` too.
LINKED_TESTS = {
    "link-in-the-test-folder": ("node --test test/", {"test/shared": "../shared"},
                                {"test/a.js": "0\n"}),
    "link-named-test": ("node --test", {"lib/test": "../shared"},
                        {"a.test.js": "0\n", "lib/keep": ""}),
}


@pytest.mark.parametrize("case", list(LINKED_TESTS))
def test_r10_a_test_folder_through_a_link(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk shared/x.js`` is denied."""
    needs("bash", "node")
    entry, links, files = LINKED_TESTS[case]
    calls = ["cp src/mk shared/x.js", entry]
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                         {**files, "shared/keep": "", "src/mk": JS_PAYLOAD}, calls, links=links)
    assert denied is not None, "the hook allows every call, and node's test runner runs it"


# (R10 open at 160ce73; closed by s53-gfix2: testlinks.places, each path a runner meets a
# file at through a link)


@pytest.mark.parametrize("name", ["CFLAGS", "CPPFLAGS"])
def test_r6_the_sessions_compiler_flags(tmp_path: Path, name: str) -> None:
    """The session's ``CFLAGS=-Bv/`` (make takes each environment variable as a make
    variable; its built-in and most Makefiles' rules pass it to gcc, which runs ``v/as``);
    plan ``Bash(make test)``, ``Bash(cp *)``: ``cp src/x v/as`` is denied."""
    needs("bash", "make", "gcc")
    makefile = f"test: t.c\n\t$(CC) $({name}) -c t.c -o t.o\n"
    calls = ["cp src/x v/as", "make test"]
    denied = proved_case(tmp_path, ["Bash(make test)", "Bash(cp *)"],
                         {"Makefile": makefile, "t.c": "int x;\n", "v/keep": "",
                          "src/x": "#!/bin/sh\ntouch zz\n"}, calls, {name: "-Bv/"},
                         executable=("src/x",))
    assert denied is not None, "the hook allows every call, and make runs the payload"


# (R6d open at 160ce73; closed by s53-gfix2: environment.FLAGS read word by word,
# envpaths.flag_paths, and compared under the service)


# --- R11: a test run's valued options read as taking a value for every node-family program ------


#: Each case: the entry. bun 1.4.5 outside ``bun test`` takes ``--timeout``, ``--rerun-each``
#: as flags with no value and runs the next word as its script (the proof runs it).
BUN_FLAGS = {"timeout": "bun --timeout x.js", "rerun-each": "bun --rerun-each x.js"}


@pytest.mark.parametrize("case", list(BUN_FLAGS))
def test_r11_buns_script_after_a_test_runs_option(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk x.js`` is denied."""
    needs("bash")
    if not (BUN / "bun").exists():
        pytest.skip("bun 1.4.5 is not installed")
    calls = ["cp src/mk x.js", BUN_FLAGS[case]]
    denied = proved_case(tmp_path, [f"Bash({calls[-1]})", "Bash(cp *)"],
                         {"x.js": "0\n", "src/mk": JS_PAYLOAD}, calls,
                         {"PATH": f"{BUN}:{os.environ['PATH']}"})
    assert denied is not None, "the hook allows every call, and bun runs the payload"


# (test_r11_buns_script_after_a_test_runs_option: every case held since the fix, s51 merge)


# --- R12: a preload named by a path to a folder: its package.json's main, its index link --------


#: Each case: the entry, the project's files, the bash text making its links, the file the
#: payload goes to. node's require loads a folder by its package.json's main (which may lead
#: out of it) or its index.js (which may be a link out), as for a package's name (G8).
PATH_PRELOADS = {
    "main-leads-out": ("node -r ./lib/pre -e 0",
                       {"lib/pre/package.json": '{"main":"../../code/m.js"}', "code/keep": ""},
                       "", "code/m.js"),
    "index-a-link-out": ("node -r ./lib/pre -e 0",
                         {"lib/pre/package.json": "{}", "code/keep": ""},
                         "ln -s ../../code/i.js lib/pre/index.js\n", "code/i.js"),
    "node-options-main-leads-out": (
        "NODE_OPTIONS='-r ./lib/pre' node -e 0",
        {"lib/pre/package.json": '{"main":"../../code/m.js"}', "code/keep": ""}, "",
        "code/m.js"),
}


@pytest.mark.parametrize("case", list(PATH_PRELOADS))
def test_r12_a_folder_preloaded_by_its_path(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk <file>`` is denied."""
    needs("bash", "node")
    entry, files, setup, target = PATH_PRELOADS[case]
    calls = [f"cp src/mk {target}", entry]
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                         {**files, "src/mk": JS_PAYLOAD}, calls, setup=setup)
    assert denied is not None, "the hook allows every call, and node runs the payload"


# (R12 open at 160ce73; closed by s52-gfix2b: planpaths.required, noderesolve.folder_paths)
