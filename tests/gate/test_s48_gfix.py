"""Session 48's gate fixes (s48-gfix): the plugins a Python checker's settings name (mypy,
pylint, flake8, coverage, pytest's ``-p``), guarded against a covered writer and, for a checker
the plan names, its settings files against the plan's own Edit grant (review s44 W3's
pyproject.toml row); the readings behind review s47's T3, V4, N4, C5b, M2 (in-process). Each
slow case proves its payload runs under real bash first, then asks the printed hook."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from bash_review import bash, first_denied
from files_fixture import gated_project
from test_gate_files import _settings_hook

from skillgrant.gate.planprograms import plan_programs
from skillgrant.gate.planscripts import ENTRY
from skillgrant.gate.startpaths import cmake_prefixes, npmrc_paths

_MYPY_PLUGIN = "from mypy.plugin import Plugin\n\n\ndef plugin(version):\n    return Plugin\n"
_PAYLOAD = "import os\nos.system('touch zz')\n"

#: (the checker, its entry, the settings file, its text, the plugin file it names, the
#: plugin's harmless text): the payload is the plugin's text after the payload line.
CHECKERS = {
    "mypy": ("mypy", "Bash(mypy src)", "mypy.ini", "[mypy]\nplugins = tools/p.py\n",
             "tools/p.py", _MYPY_PLUGIN),
    "mypy-pyproject-module": ("mypy", "Bash(mypy src)", "pyproject.toml",
                              '[tool.mypy]\nplugins = ["tools/p.py"]\n', "tools/p.py",
                              _MYPY_PLUGIN),
    "pylint": ("pylint", "Bash(pylint src)", ".pylintrc",
               '[MAIN]\nload-plugins=plug\ninit-hook=import sys; sys.path.insert(0, "tools")\n',
               "tools/plug.py", "def register(linter):\n    pass\n"),
    "flake8": ("flake8", "Bash(flake8 src)", "setup.cfg",
               "[flake8:local-plugins]\nextension =\n    XYZ = fplug:P\npaths = ./tools\n",
               "tools/fplug.py", "class P:\n    name = 'x'\n    version = '1'\n\n"
               "    def __init__(self, tree):\n        pass\n\n"
               "    def run(self):\n        return iter(())\n"),
    "coverage": ("coverage", "Bash(coverage report)", ".coveragerc", "[run]\nplugins = cplug\n",
                 "cplug.py", "def coverage_init(reg, options):\n    pass\n"),
    "pytest": ("pytest", "Bash(pytest tests)", "pytest.ini",
               "[pytest]\npythonpath = .\naddopts = -p tools.plug\n", "tools/plug.py", "\n"),
}


def _tools_env() -> dict[str, str]:
    """The environment with ``$SKILLGRANT_REVIEW_TOOLS`` (a folder holding pylint, flake8,
    coverage: ``pip install pylint flake8 coverage`` in a venv, links to its programs) and
    this interpreter's folder (mypy, pytest beside it) first on ``PATH``."""
    import sys

    env = dict(os.environ)
    tools = os.environ.get("SKILLGRANT_REVIEW_TOOLS")
    env["PATH"] = f"{tools + ':' if tools else ''}{env['PATH']}:{Path(sys.executable).parent}"
    return env


def _checker_project(project: Path, case: str, entries: list[str]) -> None:
    _, entry, settings, text, plugin, harmless = CHECKERS[case]
    gated_project(project, [*entries, entry])
    (project / "src").mkdir()
    (project / "src" / "a.py").write_text("x = 1\n")
    (project / "tests").mkdir()
    (project / "tests" / "test_a.py").write_text("def test_a():\n    pass\n")
    (project / settings).write_text(text)
    (project / plugin).parent.mkdir(parents=True, exist_ok=True)
    (project / plugin).write_text(harmless)
    (project / "tools" / "__init__.py").parent.mkdir(exist_ok=True)
    (project / "tools" / "__init__.py").write_text("")
    (project / "e").mkdir()
    (project / "e" / "plug.py").write_text(_PAYLOAD + harmless)


def _needs(program: str, env: dict[str, str]) -> None:
    if shutil.which(program, path=env["PATH"]) is None:
        pytest.skip(f"not installed: {program} (see SKILLGRANT_REVIEW_TOOLS)")


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CHECKERS))
def test_a_checkers_plugin_module_written_by_a_covered_copy(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(cp *)`` and a checker's entry, whose settings name a plugin module: ``cp
    e/plug.py <the module>`` then the covered checker imports it (proved with real bash and the
    real checker); the hook denies the copy."""
    env = _tools_env()
    program, entry, _, _, plugin, _ = CHECKERS[case]
    _needs(program, env)
    calls = [f"cp e/plug.py {plugin}", entry[5:-1]]
    _checker_project(tmp_path / "proof", case, ["Bash(cp *)"])
    for call in calls:
        bash(call, tmp_path / "proof", env)
    assert (tmp_path / "proof" / "zz").exists(), "bash ran no payload: the case proves nothing"
    _checker_project(tmp_path / "run", case, ["Bash(cp *)"])
    assert first_denied(tmp_path / "run", calls, env) == calls[0]


def _write(project: Path, path: str, content: str, env: dict[str, str]) -> bool:
    """Whether the printed hook allows Claude Code's Write of ``content`` to ``path``."""
    body = json.dumps({"session_id": "s", "hook_event_name": "PreToolUse", "cwd": str(project),
                       "tool_name": "Write", "tool_input": {
                           "file_path": str(project / path), "content": content}}).encode()
    done = subprocess.run(["/bin/sh", "-c", _settings_hook(project)], input=body, cwd=project,
                          capture_output=True, timeout=60, check=False, env=env)
    return done.returncode != 2


#: (the checker, its entry, the settings file the Write tool writes, the text naming the
#: plugin ``plug.py`` in the call's folder or ``tools``).
WRITTEN = {
    "flake8-setup.cfg": ("flake8", "Bash(flake8 src)", "setup.cfg",
                         "[flake8:local-plugins]\nextension =\n    XYZ = fplug:P\n"
                         "paths = ./tools\n"),
    "coverage-pyproject": ("coverage", "Bash(coverage report)", "pyproject.toml",
                           '[tool.coverage.run]\nplugins = ["cplug"]\n'),
    "pylint-pyproject": ("pylint", "Bash(pylint src)", "pyproject.toml",
                         '[tool.pylint.main]\nload-plugins = ["plug"]\n'
                         "init-hook = 'import sys; sys.path.insert(0, \"tools\")'\n"),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(WRITTEN))
def test_the_write_tool_names_a_plugin_in_a_checkers_settings(tmp_path: Path,
                                                             case: str) -> None:
    """Plan ``Edit(./**)`` and a checker's entry: the Write tool writes the checker's
    settings file naming a plugin the model writes (``Edit(./**)`` grants that), and the
    covered checker imports it (proved). The checker runs no project code otherwise, so its
    settings are not the plan's programs' alone: the Write is denied."""
    env = _tools_env()
    program, entry, settings, text = WRITTEN[case]
    _needs(program, env)

    def build(project: Path) -> None:
        gated_project(project, ["Edit(./**)", entry])
        (project / "src").mkdir()
        (project / "src" / "a.py").write_text("x = 1\n")
        (project / "tools").mkdir()
        for name in ("fplug", "cplug", "plug"):
            text = _PAYLOAD + CHECKERS["flake8" if name == "fplug" else "coverage"
                                       if name == "cplug" else "pylint"][5]
            (project / "tools" / f"{name}.py").write_text(text)
            (project / f"{name}.py").write_text(text)

    build(tmp_path / "proof")
    (tmp_path / "proof" / settings).write_text(text)
    bash(entry[5:-1], tmp_path / "proof", env)
    assert (tmp_path / "proof" / "zz").exists(), "bash ran no payload: the case proves nothing"
    build(tmp_path / "run")
    assert not _write(tmp_path / "run", settings, text, env)
    assert _write(tmp_path / "run", "src/b.py", "y = 2\n", env)  # (the plan's Edit grant)


@pytest.mark.slow
def test_pytests_settings_stay_the_plans_own_edit(tmp_path: Path) -> None:
    """Cost control (review s45): beside ``Bash(pytest tests)``, pytest runs the project's
    tests anyway, so ``Edit(./**)`` still writes its settings (``pyproject.toml``)."""
    project = tmp_path / "project"
    gated_project(project, ["Edit(./**)", "Bash(pytest tests)"])
    assert _write(project, "pyproject.toml", "[tool.pytest.ini_options]\naddopts = -q\n",
                  dict(os.environ))


def test_plan_programs_mark_the_checkers_and_read_new_folders() -> None:
    """In-process: the marks and paths ``plan_programs`` gives the rules closed this session."""
    assert "&mypy" in plan_programs(("Bash(mypy src)",))
    assert "&*" in plan_programs(("Bash(make test)",))
    assert "&pytest" in plan_programs(("Bash(python3 -m pytest tests)",))
    assert "infra/.terraform/" in plan_programs(("Bash(terraform -chdir=infra plan)",))
    assert "infra/.terraform/" in plan_programs(("Bash(tofu -chdir=infra plan)",))
    assert "+." in plan_programs(('Bash(python3 -c "import json")',))
    assert "+." in plan_programs(("Bash(python3 - < q.txt)",))
    assert "+." not in plan_programs(("Bash(python3 -I -c x)",))
    assert "+." not in plan_programs(("Bash(python3 tools/x.py)",))
    for entry, path in (("npm i -g ./tools/cli", "./tools/cli"), ("npm pack ../x", "../x"),
                        ("npm i foo@file:lib/x", "lib/x"), ("pnpm add file:///abs/x", "/abs/x"),
                        ("npm i x.tgz", "x.tgz")):
        assert path in plan_programs((f"Bash({entry})",)), entry
    assert not any("lodash" in p for p in plan_programs(("Bash(npm i lodash/lodash)",))
                   if p[:1] != ENTRY)  # (the entry's text, marked: planscripts)


def test_npmrc_values_name_guarded_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process: each ``.npmrc`` from the call's folder up names paths (``--require``,
    ``--import=``, ``script-shell``) read from each folder; URLs are none."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    sub = tmp_path / "p" / "sub"
    sub.mkdir(parents=True)
    (tmp_path / "p" / ".npmrc").write_text(
        'node-options="--require ./a.js --import=./b.mjs"\nscript-shell = tools/sh\n'
        "registry=https://registry.npmjs.org/\n; x=c/d\n")
    found = {path for path, _ in npmrc_paths([str(sub), str(tmp_path / "p")],
                                             str(tmp_path / "home"))}
    for name in ("a.js", "b.mjs", "tools/sh"):
        assert str(tmp_path / "p" / name) in found and str(sub / name) in found
    assert not any("registry" in p or p.endswith("c/d") for p in found)


def test_cmake_prefixes_of_path(tmp_path: Path) -> None:
    """In-process: a ``PATH`` entry's prefix is guarded whole; the home's (``~/bin``) or
    one holding the call's folder, its package folders only."""
    home = tmp_path / "home"
    (home / ".local" / "bin").mkdir(parents=True)
    (home / "bin").mkdir()
    found = dict(cmake_prefixes([str(home / "proj")], str(home), [
        str(home / ".local" / "bin"), str(home / "bin"), "/usr/bin"]))
    assert found[str(home / ".local")] is True
    assert str(home) not in found and found[str(home / "share")] is True
    assert not any(p.startswith("/usr") for p in found)


# --- costs (brief item 3): sound calls the gate denied under their own entries ---------------


def _hook_says(project: Path, command: str) -> int:
    """The printed hook's exit status for ``command`` in ``project`` (2: denied)."""
    from test_gate_files import payload

    done = subprocess.run(["/bin/sh", "-c", _settings_hook(project)],
                          input=payload(command, project), cwd=project, capture_output=True,
                          timeout=60, check=False)
    return done.returncode


def _branches(project: Path) -> None:
    """A repository with ``safe`` (a commit changing ``src/a.py``) and ``evil`` (one
    changing the Makefile ``make test`` runs) off the base commit; ``work`` checked out."""
    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=project, check=True, capture_output=True, timeout=60)

    git("config", "user.email", "a@b")
    git("config", "user.name", "a")
    (project / "src").mkdir()
    (project / "src" / "a.py").write_text("1\n")
    (project / "Makefile").write_text("test:\n\techo ok\n")
    git("add", "src", "Makefile")
    git("commit", "-qm", "base")
    git("branch", "safe")
    git("branch", "evil")
    git("checkout", "-q", "safe")
    (project / "src" / "a.py").write_text("2\n")
    git("commit", "-qam", "s")
    git("checkout", "-q", "evil")
    (project / "Makefile").write_text("test:\n\ttouch zz\n")
    git("commit", "-qam", "e")
    git("checkout", "-q", "-b", "work", "safe~1")


@pytest.mark.slow
def test_a_merge_or_rebase_stays_a_writer_of_the_whole_tree(tmp_path: Path) -> None:
    """Review s47 C-git stays a cost (the lead, 15:12): predicting what a merge or rebase
    writes is a second model of git (s48-greview2 G1, G2 found directory renames, replayed
    commits, octopus merges), so under their own entries beside ``Bash(make test)`` each stays
    a writer of the whole working tree, which holds the gate's and the plan's files."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(git merge *)", "Bash(git rebase *)", "Bash(git pull)",
                            "Bash(make test)"])
    _branches(project)
    for denied in ("git merge safe", "git merge --ff-only safe", "git rebase safe",
                   "git merge evil", "git pull", "git merge FETCH_HEAD"):
        assert _hook_says(project, denied) == 2, denied


#: ``find`` without an action reads: its patterns (``-name``, ``-path``) and its ``.`` start.
FINDS = ["find . -name '*.py' -not -path './.venv/*'", "find . -name '*.py'",
         "find . -path '*/tests/*' -name '*.py'", "find . -name conftest.py"]


@pytest.mark.slow
def test_find_patterns_pass_beside_a_runner_reading_the_folder(tmp_path: Path) -> None:
    """Review s47 (a cost): ``find . -name '*.py'`` and ``-not -path './.venv/*'`` pass under
    ``Bash(find *)`` beside ``Bash(pytest *)`` (its ``conftest.py`` guarded); ``find`` with an
    action writing stays denied. (``find .``'s ``.`` was read as bash's ``.`` builtin.)"""
    project = tmp_path / "project"
    gated_project(project, ["Bash(find *)", "Bash(pytest *)"])
    (project / "conftest.py").write_text("\n")
    (project / ".venv").mkdir()
    for command in FINDS:
        assert _hook_says(project, command) == 0, command
    for command in ("find . -name '*.py' -delete", "find . -name '*.py' -fprint x",
                    "find . -name x; . ./conftest.py"):
        assert _hook_says(project, command) == 2, command


@pytest.mark.slow
@pytest.mark.parametrize("program", ["tclsh", "php", "lua5.4", "Rscript"])
def test_an_interpreters_script_runs_under_its_own_entry(tmp_path: Path, program: str) -> None:
    """Review s47 (a cost): ``Bash(tclsh tools/x.tcl)`` denied its own call (the script is
    guarded as the plan's program, and the readers rule did not read tclsh's operand as the
    script it runs). The copy over the script stays denied; a copy of it out is denied too
    since session 53 (its name is guarded at any depth: s53-gfix rule 1, a cost)."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", f"Bash({program} tools/x)"])
    (project / "tools").mkdir()
    (project / "tools" / "x").write_text("\n")
    assert _hook_says(project, f"{program} tools/x") == 0
    # (a copy out reads it, but puts the name `x`, guarded at any depth since session 53's
    # rule 1, in `y` when `y` is a folder: denied, a stated cost; `cat` would read it)
    assert _hook_says(project, "cp tools/x y") == 2
    assert _hook_says(project, "cp y tools/x") == 2


#: Session values whose paths the gate cannot know: a substitution of another command, a
#: `${…}` form it does not evaluate (review s48-greview E2, the lead: fail closed).
UNKNOWN_VALUES = {"substitution": "sh $(cat /tmp/where)/ssh.sh",
                  "backquote": "sh `cat /tmp/where`/ssh.sh",
                  "indirect": "sh ${!WRAPPER}", "replaced": "sh ${WRAPPER/a/b}"}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(UNKNOWN_VALUES))
def test_a_session_value_the_gate_cannot_read_denies_naming_it(tmp_path: Path,
                                                               case: str) -> None:
    """A session variable holding a substitution or form whose output is not known: every
    call is denied, the denial naming the variable (fail closed); the decidable forms
    (``$(pwd)``, ``$(git rev-parse --show-toplevel)``, ``${PWD%/}``) are read."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(echo *)"])
    env = {**os.environ, "GIT_SSH_COMMAND": UNKNOWN_VALUES[case]}
    from test_gate_files import payload

    for command in ("echo hi", "cp a b"):
        done = subprocess.run(["/bin/sh", "-c", _settings_hook(project)],
                              input=payload(command, project), cwd=project, env=env,
                              capture_output=True, timeout=60, check=False)
        assert done.returncode == 2 and b"GIT_SSH_COMMAND" in done.stderr, done.stderr
    for known in ("sh $(pwd)/x.sh", 'sh "$(git rev-parse --show-toplevel)/x.sh"',
                  "sh ${PWD%/}/x.sh"):
        env["GIT_SSH_COMMAND"] = known
        done = subprocess.run(["/bin/sh", "-c", _settings_hook(project)],
                              input=payload("echo hi", project), cwd=project, env=env,
                              capture_output=True, timeout=60, check=False)
        assert done.returncode == 0, (known, done.stderr)


@pytest.mark.slow
def test_a_node_preload_runs_under_its_own_entry(tmp_path: Path) -> None:
    """Review s48-greview (a cost): ``Bash(node -r ./pre.js app.js)`` denied its own call (the
    preload is guarded as the plan's program, and the readers rule read only the script as
    run). A copy over either file stays denied."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(node -r ./pre.js app.js)",
                            "Bash(node --require ./tools/pre.js tools/app.js)",
                            "Bash(node -r dotenv/config app.js)"])
    for command in ("node -r ./pre.js app.js", "node --require ./tools/pre.js tools/app.js",
                    "node -r dotenv/config app.js"):
        assert _hook_says(project, command) == 0, command
    for command in ("cp x pre.js", "cp x app.js", "cp x tools/pre.js"):
        assert _hook_says(project, command) == 2, command
