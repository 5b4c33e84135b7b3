"""Session 52 (s52-gfix2): where node finds a preload named by a package's name (s51-greview
G8: a workspace's link, a ``main`` or ``exports`` leading out, the project's own package by its
name), and the costs of the plans that run a project's tests (issue 29). Each hole is proved
by real bash and node in a scratch copy first (``bash_review.proved_case``), then the printed
hook is asked; each cost by the hook allowing the everyday call."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, home_env, hooked_project, needs, proved_case
from test_gate_files import _settings_hook, payload

#: Real bash, node and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open here, by test name (and case): each a strict xfail.
OPEN = LeftOpen()

#: node code running the payload.
JS_PAYLOAD = "require('child_process').execSync('touch zz')\n"


def _said(project: Path, call: str, env: dict[str, str]) -> tuple[bool, str]:
    """Whether the printed hook allows ``call`` in ``project`` (the session's ``env``), and
    what it said."""
    said = subprocess.run(["/bin/sh", "-c", _settings_hook(project)],
                          input=payload(call, project), cwd=project, env=env,
                          capture_output=True, timeout=60, check=False)
    return said.returncode != 2, (said.stdout + said.stderr).decode()


# --- G8: a preload's package name, resolved as node resolves it ---------------------------------


#: A workspace package (npm links ``node_modules/pre`` to its folder).
WORKSPACE: dict[str, str | bytes] = {
    "package.json": '{"name":"root","workspaces":["pkgs/*"]}\n',
    "pkgs/pre/package.json": '{"name":"pre","main":"index.js"}\n', "pkgs/pre/index.js": "0\n"}
LINKED = "mkdir -p node_modules && ln -s ../pkgs/pre node_modules/pre\n"
#: Each case: the entry, the project's files, the bash text making its links, the file the
#: payload goes to. node 20 loads the payload in each (the proof runs it).
RESOLVED = {
    "require-equals-workspace": ("node --require=pre -e 0", WORKSPACE, LINKED,
                                 "pkgs/pre/index.js"),
    "import-equals-workspace": ("node --import=pre -e 0", WORKSPACE, LINKED,
                                "pkgs/pre/index.js"),
    "index-a-link-out": ("node -r pre -e 0", {"node_modules/pre/package.json": "{}",
                                              "code/keep": ""},
                         "ln -s ../../code/i.js node_modules/pre/index.js\n", "code/i.js"),
    "main-through-a-link": ("node -r pre -e 0",
                            {"node_modules/pre/package.json": '{"main":"lib/m.js"}',
                             "code/keep": ""},
                            "ln -s ../../code node_modules/pre/lib\n", "code/m.js"),
    "self-reference-pattern": ("node -r a/pre -e 0",
                               {"package.json": '{"name":"a","exports":{"./*":"./lib/*.js"}}',
                                "lib/keep": ""}, "", "lib/pre.js"),
    "self-reference-scoped-condition": (
        "NODE_OPTIONS='--import @s/a/pre' node -e 0",
        {"package.json": '{"name":"@s/a","exports":{"./pre":{"import":"./lib/pre.js",'
                         '"default":"./lib/other.js"}}}', "lib/keep": ""}, "", "lib/pre.js"),
    "subpath-in-a-linked-package": ("node -r pre/x -e 0", {
        **WORKSPACE, "pkgs/pre/package.json": '{"name":"pre","exports":{"./x":"./x.js"}}'},
        LINKED, "pkgs/pre/x.js"),
    "held-nearer-package-json": ("cd sub && node -r a/pre -e 0", {
        "sub/keep": "", "src/pj": '{"name":"a","exports":{"./pre":"./pre.js"}}'}, "",
        "sub/package.json")}


@pytest.mark.parametrize("case", list(RESOLVED))
def test_g8_what_a_preloaded_package_name_resolves_to_is_guarded(tmp_path: Path,
                                                                  case: str) -> None:
    """``node -r pre -e 0`` where node finds ``pre`` outside ``node_modules/pre`` (a link, a
    ``main``, an ``exports`` pattern, the project's own name): plan ``Bash(<entry>)``,
    ``Bash(cp *)``: ``cp src/mk <file>`` is denied."""
    needs("bash", "node")
    entry, files, setup, target = RESOLVED[case]
    assert isinstance(files, dict)
    settings = target.endswith("package.json")  # (then the module it exports: sub/pre.js)
    calls = [f"cp {'src/pj' if settings else 'src/mk'} {target}",
             *(["cp src/mk sub/pre.js"] if settings else []), entry]
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                         {**files, "src/mk": JS_PAYLOAD}, calls, setup=setup)
    assert denied == calls[0]


#: Plans whose preload the gate reads (each with the project's files, the bash text making
#: its links): their everyday calls stay allowed, a write beside what node loads too.
KEPT = {"workspace": ("node -r pre -e 0", WORKSPACE, LINKED),
        "self-reference": ("node -r a/pre -e 0", {
            "package.json": '{"name":"a","exports":{"./pre":"./lib/pre.js"}}',
            "lib/pre.js": "0\n"}, "")}


@pytest.mark.parametrize("case", list(KEPT))
def test_g8_a_preloaded_packages_plan_keeps_its_calls(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: the entry and ``cp src/mk lib/other.js`` (a
    file node does not load for the preload) are allowed."""
    needs("bash", "node")
    entry, files, setup = KEPT[case]
    assert isinstance(files, dict)
    project = hooked_project(tmp_path, [f"Bash({entry})", "Bash(cp *)"])
    for name, text in {**files, "src/mk": JS_PAYLOAD}.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(str(text))
    env = home_env(tmp_path / "home")
    subprocess.run(["bash", "-c", setup or "true"], cwd=project, check=True, timeout=60)
    for call in (entry, "mkdir -p lib && cp src/mk lib/other.js"):
        allowed, said = _said(project, call.rpartition("&& ")[2], env)
        assert allowed, said


#: Preloads whose module the gate cannot know: the plan is refused, naming why.
REFUSED = {"import-specifier": ("node -r '#pre' -e 0", {}, "a package's own import"),
           "main-the-project": ("node -r pre -e 0",
                                {"node_modules/pre/package.json": '{"main":"../.."}'},
                                "a folder node runs in or above it"),
           "unreadable-settings": ("node -r pre -e 0", {"node_modules/pre/package.json": "{"},
                                   "is not JSON the gate reads")}


@pytest.mark.parametrize("case", list(REFUSED))
def test_g8_a_preload_the_gate_cannot_resolve_refuses(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``: the entry is denied, the reason named."""
    needs("bash")
    entry, files, reason = REFUSED[case]
    project = hooked_project(tmp_path, [f"Bash({entry})"])
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    allowed, said = _said(project, entry, home_env(tmp_path / "home"))
    assert not allowed and reason in said, said


# --- K5: a test plan's everyday calls, and what stays denied --------------------------------------


VENV_PYTHON = "/work/venv/bin/python"
BUN = Path.home() / ".cache/skillgrant-runtime/bun-1.4.5/package/bin"
#: Python code running the payload; a pytest hook running it (pytest calls it only from a
#: ``conftest.py``, never from a test module).
PY_PAYLOAD = "import os; os.system('touch zz')\n"
HOOKED = "import os\n\ndef pytest_configure(config):\n    os.system('touch zz')\n"
#: A console script running pytest (a venv's ``bin/pytest``).
CONSOLE = (f"#!{VENV_PYTHON}\nimport sys\nfrom pytest import console_main\n"
           "sys.exit(console_main())\n")
#: Each case: the plan's entries, the calls (the last the plan's runner), the project's
#: files. Allowed now: a test renamed in its folder (``mv``, ``git mv``), pytest's console
#: script by its path with a folder or ``-k``, ``node --test test/``, ``bun test --timeout
#: 5000``. Each proof runs the payload under real bash; the hook denies the first call.
HELD = {
    "mv-a-module-to-a-tests-name": (
        ["python3 -m pytest -q", "mv *"], ["mv src/evil.py tests/test_z.py"],
        {"src/evil.py": PY_PAYLOAD}),
    "git-mv-a-module-to-a-tests-name": (
        ["python3 -m pytest -q", "git mv *"], ["git mv src/evil.py tests/test_z.py"],
        {"src/evil.py": PY_PAYLOAD}),
    "mv-a-test-to-conftest": (["python3 -m pytest -q", "mv *"],
                              ["mv tests/test_h.py tests/conftest.py"],
                              {"tests/test_h.py": HOOKED}),
    "mv-a-test-with-a-target-folder": (
        ["python3 -m pytest -q", "mv *"], ["mv -t tests src/test_z.py"],
        {"src/test_z.py": "import os\nos.system('touch zz')\n"}),
    "console-script-folder": ([".venv/bin/pytest -q tests", "cp *"],
                              ["cp src/evil.py tests/test_z.py"], {"src/evil.py": PY_PAYLOAD}),
    "node-test-folder": (["node --test test/", "cp *"], ["cp src/mk test/x.js"],
                         {"src/mk": JS_PAYLOAD, "test/keep": ""}),
    "bun-test-timeout": (["bun test --timeout 5000", "cp *"], ["cp src/mk a.test.ts"],
                         {"src/mk": JS_PAYLOAD})}


@pytest.mark.parametrize("case", list(HELD))
def test_k5_what_a_test_plan_still_denies(tmp_path: Path, case: str) -> None:
    """Plan ``HELD``'s entries: its calls then its runner run the payload under real bash;
    the hook denies the first call (``mv``'s source or target is no test of its folder; a
    new test written under a runner now read by its operands)."""
    entries, calls, files = HELD[case]
    needs("bash", "git", "node", VENV_PYTHON)
    extra = {"PATH": f"{BUN}:{os.environ['PATH']}"} if case.startswith("bun") else None
    own = {"tests/test_a.py": "def test_a():\n    pass\n", ".venv/bin/pytest": CONSOLE}
    denied = proved_case(tmp_path, [f"Bash({e})" for e in entries], {**own, **files},
                         [*calls, entries[0]], extra, executable=(".venv/bin/pytest",),
                         setup="git add -A\n")  # (git mv moves a tracked file)
    assert denied == calls[0]


# --- K1: the session's MAKEFLAGS definitions, read as an entry's own ---------------------------


#: A makefile running the payload when make reads it; a script running it.
MAKE_PAYLOAD = "$(shell touch zz)\n"
SCRIPT = "#!/bin/sh\ntouch zz\n"
#: Each case: the session's values, the file the payload goes to (from ``src/mk``), the
#: Makefile. make reads ``MAKEFLAGS``' definitions as its command line's and exports them to
#: its recipes: ``MAKEFILES=mk`` (read first), ``CC=./cc.sh`` (the recipe's compiler),
#: ``SHELL=./sh.sh`` (the recipe's shell); each proved by real make.
DEFINED = {
    "makefiles": ({"MAKEFLAGS": "MAKEFILES=mk"}, "mk", MAKE_PAYLOAD, "test:\n\techo ok\n"),
    "cc-path": ({"MAKEFLAGS": "CC=./cc.sh"}, "cc.sh", SCRIPT, "test:\n\t$(CC) --version\n"),
    "cc-simple": ({"MAKEFLAGS": "CC:=./cc.sh"}, "cc.sh", SCRIPT,
                  "test:\n\t$(CC) --version\n"),
    "shell": ({"GNUMAKEFLAGS": "SHELL=./sh.sh"}, "sh.sh", SCRIPT, "test:\n\techo ok\n"),
    "exported-to-a-program": ({"MAKEFLAGS": "BASH_ENV=e.sh"}, "e.sh", SCRIPT,
                              "test:\n\tbash -c true\n")}


@pytest.mark.parametrize("case", list(DEFINED))
def test_k1_what_the_sessions_makeflags_define_is_guarded(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(make test)``, ``Bash(cp *)`` under the session's ``MAKEFLAGS``: ``cp src/mk
    <file>`` then ``make test`` run the payload under real make; the hook denies the copy
    (and no longer refuses the plan: ``make test`` alone is allowed, below)."""
    needs("bash", "make")
    extra, target, payload_text, makefile = DEFINED[case]
    files = {"Makefile": makefile, "src/mk": payload_text}
    denied = proved_case(tmp_path / "proof", ["Bash(make test)", "Bash(cp *)"], files,
                         [f"cp src/mk {target} && chmod +x {target}", "make test"], extra)
    assert denied == f"cp src/mk {target} && chmod +x {target}"
    project = hooked_project(tmp_path / "kept", ["Bash(make test)", "Bash(cp *)"])
    (project / "Makefile").write_text(makefile)
    allowed, said = _said(project, "make test", {**home_env(tmp_path / "home"), **extra})
    assert allowed, said


#: The session's definitions the gate cannot read exactly: the plan is refused, naming why.
UNREAD = {"make-expands": "CC=$(shell touch zz)", "backquote": "CC=`touch zz`",
          "shell-assignment": "CC!=touch zz", "options-inside": "PYTEST_ADDOPTS=-pplug",
          "an-include-folder": "-I inc"}


@pytest.mark.parametrize("case", list(UNREAD))
def test_k1_a_sessions_definition_the_gate_cannot_read_refuses(tmp_path: Path,
                                                                case: str) -> None:
    """Plan ``Bash(make test)``: ``make test`` is denied under the session's
    ``MAKEFLAGS=<value>``, the session's MAKEFLAGS named."""
    needs("bash")
    project = hooked_project(tmp_path, ["Bash(make test)"])
    (project / "Makefile").write_text("test:\n\techo ok\n")
    env = {**home_env(tmp_path / "home"), "MAKEFLAGS": UNREAD[case]}
    allowed, said = _said(project, "make test", env)
    assert not allowed and "MAKEFLAGS" in said, said


# --- C3: what a copy or a move brings into a test folder -------------------------------------


#: Each case: the plan's placer entry, the call bringing ``src/x.js`` (no test's name:
#: writable) into the ``test`` folder, where ``node --test`` runs every script: a text the
#: gate cannot split (an assignment first), a copier run by find, ``-t``'s folder, a link.
BROUGHT = {"held-assignment-first": ("cp *", "A=1; cp -r src test"),
           "held-find-exec": ("find *", "find src -name x.js -exec cp {} test/ \\;"),
           "target-option": ("cp *", "cp -t test src/x.js"),
           "target-long-prefix": ("cp *", "cp --target=test src/x.js"),
           "git-mv": ("git mv *", "git mv src/x.js test/"),
           "rsync": ("rsync *", "rsync -a src/ test/")}


@pytest.mark.parametrize("case", list(BROUGHT))
def test_c3_a_script_brought_by_another_spelling(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(node --test)``, ``Bash(cp *)``, the case's placer: the case's call, then
    ``node --test`` run the payload of ``src/x.js`` (a script of no test's name, writable)
    under real bash; the hook denies the case's call."""
    needs("bash", "node", "git", *(["rsync"] if case == "rsync" else []))
    entry, call = BROUGHT[case]
    calls = [call, "node --test"]
    denied = proved_case(tmp_path, ["Bash(node --test)", "Bash(cp *)", f"Bash({entry})"],
                         {"test/a.test.js": "", "src/x.js": JS_PAYLOAD}, calls,
                         setup="git add -A\n")
    assert denied == call


#: Calls a ``node --test`` plan keeps: data copied into a test folder, a tree without
#: scripts, the runner's own words (``test`` is make's and npm's target too).
KEPT_PLACES = {"data-file": "cp src/a.json test/",
               "data-tree": "cp -r data test/",
               "script-elsewhere": "cp -r src out",
               "make-test": "make test", "npm-test": "npm test"}


@pytest.mark.parametrize("case", list(KEPT_PLACES))
def test_c3_a_test_plans_placing_of_data_is_kept(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(node --test)``, ``Bash(cp *)``, ``Bash(make test)``, ``Bash(npm test)``:
    the call is allowed."""
    needs("bash")
    project = hooked_project(tmp_path, ["Bash(node --test)", "Bash(cp *)", "Bash(make test)",
                                        "Bash(npm test)"])
    for name, text in {"test/a.test.js": "", "test/fixtures/keep": "", "src/a.json": "{}",
                       "src/x.js": "0\n", "data/d.json": "{}"}.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    allowed, said = _said(project, KEPT_PLACES[case], home_env(tmp_path / "home"))
    assert allowed, said


# --- s52-greview2 R2: bun's tsconfig/jsconfig mapping of a bunfig preload's name ---------------


#: Each case: the tsconfig.json, whether the plan is refused, the call, whether it is allowed.
#: (The holes themselves: s52-greview2's R2 rows, proved by bun 1.4.5.)
TSCONFIGS = {
    "commented-base-url": ('{\n  // the sources\n  "compilerOptions": {"baseUrl": "code",},\n}\n',
                           "cp src/mk code/tp.js", False),
    "commented-other-file": ('{\n  /* x */ "compilerOptions": {"baseUrl": "code"}\n}\n',
                             "cp src/mk code/other.js", True),
    "paths-pattern-other": ('{"compilerOptions": {"paths": {"t*": ["./code/*.js"]}}}',
                            "cp src/mk out/p.js", True),
    "extends-refuses": ('{"extends": "./base.json"}', "cp src/mk out/p.js", False)}


@pytest.mark.parametrize("case", list(TSCONFIGS))
def test_r2_a_bunfig_preload_read_through_tsconfig(tmp_path: Path, case: str) -> None:
    """bunfig.toml ``preload = ["tp"]``, plan ``Bash(bun x.js)``, ``Bash(cp *)``: the call is
    allowed or denied as the case says (a commented tsconfig.json is read; ``extends``
    refuses the plan, naming it)."""
    needs("bash")
    text, call, allowed = TSCONFIGS[case]
    project = hooked_project(tmp_path, ["Bash(bun x.js)", "Bash(cp *)"])
    for name, body in {"tsconfig.json": text, "bunfig.toml": 'preload = ["tp"]\n',
                       "x.js": "0\n", "src/mk": JS_PAYLOAD, "code/keep": "",
                       "out/keep": ""}.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(body)
    said = _said(project, call, home_env(tmp_path / "home"))
    assert said[0] is allowed, said[1]
    assert case != "extends-refuses" or "extends" in said[1]
