"""Review s47 (s47-greview2) of the call gate, s47-gfix's cost fixes first: sequences of calls
the printed hook allows under a narrow plan (no tool-wide ``Bash``, no grant of code of the
model's choosing), after which real bash runs a payload (``touch zz``). Each case proves the
hole with real bash in a scratch copy first (a scratch home), then asks the printed hook for
each call in turn, running the allowed ones; the hook allowing them all is the finding: these
tests fail while the hole is open (``OPEN`` marks them strict xfails)."""

from __future__ import annotations

import os
import shutil
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

#: A Python test module that runs the payload when imported.
PY_PAYLOAD = "open('zz', 'w').close()\ndef test_a():\n    pass\n"
#: A script bun runs (JavaScript and TypeScript alike).
JS_PAYLOAD = "require('fs').writeFileSync('zz', '')\n"


def _bun_path() -> dict[str, str]:
    """The session's environment with the oracle's Bun first on PATH, when installed."""
    folder = Path.home() / ".cache" / "skillgrant-runtime" / "bun-1.4.5" / "package" / "bin"
    return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"} if folder.is_dir() else {}


def _case(tmp_path: Path, entries: list[str], files: dict[str, str], calls: list[str],
          extra: dict[str, str] | None = None, setup: str = "") -> str | None:
    """``bash_review.proved_case``."""
    return proved_case(tmp_path, entries, files, calls, extra, setup)


# --- C-self2: the words after `python3 -m MODULE` are no longer guarded -----------------------


#: (the plan's own entry): the module imports the test files in the folder its word names;
#: ``pytest tests`` guards ``tests/`` (a cp into it is denied), ``python3 -m pytest tests``
#: since s47-gfix's C-self2 fix (planprograms._script_words returns at a module not in
#: ``_RUNS_SCRIPTS``) does not.
MODULE_RUNS_TESTS = {
    "pytest": "python3 -m pytest tests",
    "unittest-discover": "python3 -m unittest discover tests",
}


@pytest.mark.parametrize("case", list(MODULE_RUNS_TESTS))
def test_s1_module_entry_runs_the_tests_a_cp_wrote(tmp_path: Path, case: str) -> None:
    """C-self2 relaxed: beside ``Bash(cp *)``, a plan's ``Bash(python3 -m pytest tests)``
    leaves ``tests/`` writable; ``cp src/t.py tests/test_a.py`` then ``python3 -m pytest
    tests`` imports the payload (``pytest tests`` denies the cp)."""
    needs("python3")
    entry = MODULE_RUNS_TESTS[case]
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {"src/t.py": PY_PAYLOAD, "tests/.keep": ""},
                   ["cp src/t.py tests/test_a.py", entry])
    assert denied is not None, "the hook allows a test file written where the entry runs it"



# --- C-self2: `bun run NAME` runs NAME.js / NAME.ts when the package has no such script ------


@pytest.mark.parametrize("suffix", [".js", ".ts"])
def test_s2_bun_run_runs_a_script_file_of_its_name(tmp_path: Path, suffix: str) -> None:
    """C-self2 relaxed: ``bun run lint`` with no ``lint`` script in package.json runs the
    file ``lint.js`` / ``lint.ts`` (Bun's module resolution); ``lint`` itself and
    package.json are guarded, ``lint.js`` is not. Plan ``Bash(bun run lint)``, ``Bash(cp *)``."""
    extra = _bun_path()
    if not extra and shutil.which("bun") is None:
        pytest.skip("not installed: bun")
    denied = _case(tmp_path, ["Bash(bun run lint)", "Bash(cp *)"], {"src/l.js": JS_PAYLOAD},
                   [f"cp src/l.js lint{suffix}", "bun run lint"], extra)
    assert denied is not None, "the hook allows a script file bun run's name resolves to"



# --- pip install -r: the requirements file is guarded, the local project it names is not -----


#: A setup.py that runs the payload when pip prepares the project's metadata.
SETUP_PAYLOAD = "open('zz', 'w').close()\nfrom setuptools import setup\nsetup(name='p')\n"


#: (the plan's requirements.txt, what else the project holds, the calls before the pip
#: call): the file names the project itself, or includes a file (``-r base.txt``: pip reads
#: it as part of the requirements) that a ``cp`` rewrites to name it.
PIP_CASES = {
    "editable": ("-e .\n", {}, ["cp src/setup.py setup.py"]),
    "dot": (".\n", {}, ["cp src/setup.py setup.py"]),
    "included": ("-r base.txt\n", {"base.txt": "\n", "src/base.txt": ".\n"},
                 ["cp src/base.txt base.txt", "cp src/setup.py setup.py"]),
}


@pytest.mark.parametrize("case", list(PIP_CASES))
def test_p1_pip_install_r_runs_the_setup_py_a_cp_wrote(tmp_path: Path, case: str) -> None:
    """s47-gfix's C-pip (copied._no_subcommand): ``pip install -r requirements.txt`` now runs
    under its own entry, the file guarded; a requirements file naming the project itself
    (``-e .``, ``.``: the commonest line), or a file it includes, makes pip run ``setup.py``,
    which a ``cp`` beside it writes (main denied the pip call; pip runs it before it fails).
    A venv of the test's own (never the machine's Python). Plan ``Bash(pip install -r
    requirements.txt)``, ``Bash(cp *)``."""
    needs("python3")
    requirements, more, calls = PIP_CASES[case]
    venv = tmp_path / "venv"
    subprocess.run(["python3", "-m", "venv", str(venv)], check=True, capture_output=True,
                   timeout=300)
    extra = {"PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}",
             "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
             "PIP_NO_BUILD_ISOLATION": "0"}  # (offline: no setuptools to fetch; pip's "0")
    denied = _case(tmp_path, ["Bash(pip install -r requirements.txt)", "Bash(cp *)"],
                   {"src/setup.py": SETUP_PAYLOAD, "requirements.txt": requirements, **more},
                   [*calls, "pip install -r requirements.txt"], extra)
    assert denied is not None, "the hook allows a setup.py the plan's pip install -r runs"



# --- envpaths: a value naming a file the word split misses ---------------------------------


#: (the session's variable, the plan, the files, the calls): the value names a file
#: ``envpaths.named_paths`` does not read as one. ``MAKEFILES=common``: a relative name with no
#: ``/`` and no dot (make reads it before the Makefile; ``common.mk`` is guarded).
#: ``NODE_OPTIONS='--require "./pre/p.js"'``: node reads double quotes in NODE_OPTIONS; the
#: word kept is ``./pre/p.js"`` (the quote stays), no file.
ENV_NAMES = {
    "makefiles-no-dot": (
        {"MAKEFILES": "common"}, ["Bash(make)", "Bash(cp *)"],
        {"Makefile": "all:\n\techo hi\n", "src/c": "$(shell touch zz)\n"},
        ["cp src/c common", "make"]),
    "node-options-quoted": (
        {"NODE_OPTIONS": '--require "./pre/p.js"'}, ["Bash(node tools/app.js)", "Bash(cp *)"],
        {"tools/app.js": "console.log(1)\n", "pre/.keep": "", "src/p.js": JS_PAYLOAD},
        ["cp src/p.js pre/p.js", "node tools/app.js"]),
    # perl loads the module a PERL5OPT `-M` names from the folder its `-I` adds: a module
    # name (`Devel::Cover`, the common coverage setting) and a folder without `/` or dot
    "perl5opt-module": (
        {"PERL5OPT": "-Ilib -MDevel::Cover"}, ["Bash(perl tools/x.pl)", "Bash(cp *)"],
        {"tools/x.pl": "print 1;\n", "lib/Devel/.keep": "",
         "src/c.pm": "package Devel::Cover; system('touch zz'); 1;\n"},
        ["cp src/c.pm lib/Devel/Cover.pm", "perl tools/x.pl"]),
    # git runs GIT_SSH_COMMAND through a shell: `$PWD` is the call's folder; the word kept is
    # `$PWD/hook` (read from the project: no such file) and `/hook`
    "git-ssh-command-variable": (
        {"GIT_SSH_COMMAND": "sh $PWD/hook"}, ["Bash(git fetch)", "Bash(cp *)"], {},
        ["cp src/x.sh hook", "git fetch"]),
    # ssh's settings file named without a dot: its ProxyCommand runs
    "git-ssh-command-settings": (
        {"GIT_SSH_COMMAND": "ssh -F sshcfg"}, ["Bash(git fetch)", "Bash(cp *)"],
        {"src/cfg": "Host *\n  ProxyCommand touch zz\n"},
        ["cp src/cfg sshcfg", "git fetch"]),
}


@pytest.mark.parametrize("case", list(ENV_NAMES))
def test_e1_a_session_variable_names_a_file_the_split_misses(tmp_path: Path,
                                                             case: str) -> None:
    """gate/envpaths.py guards every path a session variable names; these values name a
    file its word split does not find (see ``ENV_NAMES``): a ``cp`` writes it, the plan's
    own program then runs it."""
    variables, entries, files, calls = ENV_NAMES[case]
    needs(calls[-1].split()[0], "ssh")
    setup = "git remote add origin ssh://h.invalid/r" if "GIT_SSH_COMMAND" in variables else ""
    denied = _case(tmp_path, entries, files, calls, variables, setup)
    assert denied is not None, "the hook allows a write to a file a session variable names"


# (makefiles-no-dot, git-ssh-command-settings: closed by s54-gfix3, flagpaths.variable_words:
# MAKEFILES' every word a makefile, a command line's words after its program but options)


# --- envpaths: a variable naming the folder a call runs in, or one above it ---------------


@pytest.mark.parametrize("case", ["project", "parent"])
def test_e2_pythonuserbase_names_a_folder_the_call_runs_in_or_above(tmp_path: Path,
                                                                    case: str) -> None:
    """gate/envpaths.py guards nothing a variable names when the path is a folder a call runs
    in or above one (by design: guarding it whole would deny every write). But ``PYTHONUSERBASE``
    names the folder whose ``lib/pythonX.Y/site-packages/*.pth`` every Python start runs: with
    it the project (or its parent), ``mkdir -p`` and ``cp`` write a ``.pth`` there and the
    plan's ``python3 tools/app.py`` runs it (a folder below the project is denied: E-fixed).
    Plan ``Bash(python3 tools/app.py)``, ``Bash(cp *)``, ``Bash(mkdir *)``."""
    needs("python3")
    version = subprocess.run(
        ["python3", "-c", "import sys; print('python%d.%d' % sys.version_info[:2])"],
        capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    entries = ["Bash(python3 tools/app.py)", "Bash(cp *)", "Bash(mkdir *)"]
    found = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side / "w", entries)
        (project / "tools").mkdir()
        (project / "tools" / "app.py").write_text("print(1)\n")
        (project / "src" / "x.pth").write_text("import os; open('zz', 'w').close()\n")
        base = project if case == "project" else project.parent
        site = os.path.relpath(base / "lib" / version / "site-packages", project)
        calls = [f"mkdir -p {site}", f"cp src/x.pth {site}/x.pth", "python3 tools/app.py"]
        env = {**home_env(tmp_path / side / "home"), "PYTHONUSERBASE": str(base)}
        if side == "proof":
            for call in calls:
                subprocess.run(["bash", "-c", call], cwd=project, env=env, check=False,
                               capture_output=True, timeout=120)
            assert (project / "zz").exists(), "bash ran no payload"
        else:
            found.append(first_denied(project, calls, env))
    assert found[0] is not None, "the hook allows a .pth where PYTHONUSERBASE points"




# --- C-self2: a standard module whose operand is code (`python3 -m pickle FILE`) --------------


#: A pickle that runs ``touch zz`` when loaded (protocol 0: os.system).
PICKLE_PAYLOAD = "cos\nsystem\n(S'touch zz'\ntR."
#: A Python module that runs the payload when imported.
IMPORT_PAYLOAD = "import os\nos.system('touch zz')\n"
#: (the plan's own entry, the file it runs, the payload): each module loads or imports its
#: operand; since s47-gfix the words after ``-m MODULE`` are not guarded for a module not in
#: ``_RUNS_SCRIPTS`` (main denied the cp of the first three; ``unittest test_x``, a module
#: name, was open on main too).
MODULE_OPERANDS = {
    "pickle": ("python3 -m pickle tools/x.pkl", "tools/x.pkl", PICKLE_PAYLOAD),
    "doctest": ("python3 -m doctest tools/x.py", "tools/x.py", IMPORT_PAYLOAD),
    "pydoc": ("python3 -m pydoc ./tools/x.py", "tools/x.py", IMPORT_PAYLOAD),
    "unittest-path": ("python3 -m unittest tools/test_x.py", "tools/test_x.py",
                      IMPORT_PAYLOAD),
    "unittest-name": ("python3 -m unittest test_x", "test_x.py", IMPORT_PAYLOAD),
}


@pytest.mark.parametrize("case", list(MODULE_OPERANDS))
def test_s3_a_modules_operand_runs_the_file_a_cp_wrote(tmp_path: Path, case: str) -> None:
    """C-self2 relaxed: ``python3 -m pickle FILE`` unpickles FILE (a pickle runs code),
    ``doctest``, ``pydoc`` and ``unittest`` import theirs; the plan's own entry beside
    ``Bash(cp *)`` runs what ``cp src/p tools/x.py`` wrote."""
    needs("python3")
    entry, target, text = MODULE_OPERANDS[case]
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {"src/p": text, "tools/.keep": "", target: "x = 1\n"},
                   [f"cp src/p {target}", entry])
    assert denied is not None, "the hook allows a file the plan's python3 -m MODULE runs"



# --- envpaths: a relative value read from the folder the program moves to --------------------


#: (the variables, the plan, the files, the calls): make reads ``MAKEFILES=common.mk`` from
#: the folder it works in, which ``-C sub`` or a ``cd`` in the call makes ``sub``; envpaths
#: reads a relative value from the hook call's folder and the project's only
#: (``common.mk`` is guarded, not ``sub/common.mk``).
MOVED_FOLDER = {
    "make-C": ({"MAKEFILES": "common.mk"}, ["Bash(make -C sub)", "Bash(cp *)"],
               {"sub/Makefile": "all:\n\techo hi\n", "src/c": "$(shell touch zz)\n"},
               ["cp src/c sub/common.mk", "make -C sub"]),
    "cd-then-make": ({"MAKEFILES": "common.mk"}, ["Bash(make)", "Bash(cd *)", "Bash(cp *)"],
                     {"sub/Makefile": "all:\n\techo hi\n", "src/c": "$(shell touch zz)\n"},
                     ["cp src/c sub/common.mk", "cd sub && make"]),
    # node reads `--require ./pre/p.js` from its working folder
    "cd-then-node": ({"NODE_OPTIONS": "--require ./pre/p.js"},
                     ["Bash(node app.js)", "Bash(cd *)", "Bash(cp *)"],
                     {"sub/app.js": "console.log(1)\n", "sub/pre/.keep": "",
                      "src/p.js": JS_PAYLOAD},
                     ["cp src/p.js sub/pre/p.js", "cd sub && node app.js"]),
}


@pytest.mark.parametrize("case", list(MOVED_FOLDER))
def test_e3_a_relative_value_from_the_folder_the_program_works_in(tmp_path: Path,
                                                                  case: str) -> None:
    """gate/envpaths.py: a relative path a variable names is guarded from the call's folder
    and the project's; a program the call starts in another folder (``make -C sub``, ``cd
    sub && make``, ``cd sub && node app.js``) reads it from there: ``cp src/c
    sub/common.mk`` is allowed, make in ``sub`` reads it first (``MAKEFILES=common.mk``);
    node in ``sub`` preloads ``sub/pre/p.js``."""
    variables, entries, files, calls = MOVED_FOLDER[case]
    needs(calls[-1].split()[-2] if "node" in calls[-1] else "make")
    denied = _case(tmp_path, entries, files, calls, variables)
    assert denied is not None, "the hook allows a write to the file the variable names there"


_open("test_e3_a_relative_value_from_the_folder_the_program_works_in",
      "residual (docs/call-gate.md, the paths the session's variables name): a relative "
      "value read from the call's and the project's folders and the folders the plan's "
      "programs run in (s49-gfix2), not a folder a later call's cd moves it to",
      "cd-then-node")


# --- rustup's `+TOOLCHAIN`: an absolute path is a toolchain whose bin/cargo runs --------------


def test_c1_cargo_plus_a_folder_runs_its_bin_cargo(tmp_path: Path) -> None:
    """rustup (1.29) takes ``cargo +/abs/folder build`` as a toolchain at that path and runs
    ``/abs/folder/bin/cargo`` (a relative path is refused). The gate reads ``+name`` as a
    toolchain's name (s47-gfix's C-cross reads it before the subcommand; main allows it too):
    ``mkdir -p w/bin``, ``cp src/x.sh w/bin/cargo``, ``chmod +x w/bin/cargo`` and ``cargo
    +$PWD/w build`` run the payload. Plan ``Bash(cargo *)`` (the gate's narrow cargo plan),
    ``Bash(cp *)``, ``Bash(mkdir *)``, ``Bash(chmod *)``."""
    needs("cargo", "rustup")
    entries = ["Bash(cargo *)", "Bash(cp *)", "Bash(mkdir *)", "Bash(chmod *)"]
    found = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, entries)
        calls = ["mkdir -p w/bin", "cp src/x.sh w/bin/cargo", "chmod +x w/bin/cargo",
                 f"cargo +{project}/w build"]
        env = home_env(tmp_path / side / "home")
        if side == "proof":
            for call in calls:
                subprocess.run(["bash", "-c", call], cwd=project, env=env, check=False,
                               capture_output=True, timeout=120)
            assert (project / "zz").exists(), "bash ran no payload"
        else:
            found.append(first_denied(project, calls, env))
    assert found[0] is not None, "the hook allows cargo +FOLDER, a toolchain the model made"



# --- envpaths: java's `@argfile` in JDK_JAVA_OPTIONS -------------------------------------------


#: A Java agent that runs the payload before main (built in the test with javac and jar).
AGENT = ("public class Agent { public static void premain(String a) throws Exception {"
         " new ProcessBuilder(\"touch\", \"zz\").start().waitFor(); } }\n")


def test_e4_jdk_java_options_argfile(tmp_path: Path) -> None:
    """gate/envpaths.py keeps the ``@`` of ``JDK_JAVA_OPTIONS=@args.txt``: the path guarded is
    ``@args.txt``; the java launcher reads ``args.txt`` (an argument file, honoured there:
    "Picked up JDK_JAVA_OPTIONS: @args.txt"). ``cp src/args.txt args.txt`` (``-javaagent:
    src/agent.jar``) is allowed; the plan's ``java -version`` runs the agent. Plan ``Bash(java
    -version)``, ``Bash(cp *)``."""
    needs("java", "javac", "jar")
    setup = ("cd src && javac Agent.java && jar cfm agent.jar m.txt Agent.class && "
             "rm Agent.java Agent.class m.txt")
    denied = _case(tmp_path, ["Bash(java -version)", "Bash(cp *)"],
                   {"args.txt": "-Dx=y\n", "src/args.txt": "-javaagent:src/agent.jar\n",
                    "src/Agent.java": AGENT, "src/m.txt": "Premain-Class: Agent\n"},
                   ["cp src/args.txt args.txt", "java -version"],
                   {"JDK_JAVA_OPTIONS": "@args.txt"}, setup)
    assert denied is not None, "the hook allows a write to the argument file java reads"



# --- skillfiles: the plugin folders the runtime reads by its variables -----------------------


#: A plugin command whose body the args fill into a command (the runtime runs it).
RUNS = "---\ndescription: d\n---\nResult: !`echo $ARGUMENTS`\n"


@pytest.mark.parametrize("variable", ["CLAUDE_CONFIG_DIR", "CLAUDE_CODE_PLUGIN_CACHE_DIR"])
def test_k1_a_plugin_in_the_folder_the_runtime_reads_is_a_candidate(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str) -> None:
    """gate/skillfiles.py looks for plugins in ``~/.claude/plugins`` only; Claude Code 2.1.332
    reads them from ``CLAUDE_CODE_PLUGIN_CACHE_DIR`` when set, else ``<its config folder>/
    plugins`` (the binary's ``Yd()``: ``s.CLAUDE_CODE_PLUGIN_CACHE_DIR`` … ``k(rt(), B())``;
    ``CLAUDE_CODE_PLUGIN_SEED_DIR`` adds more). With a project command of the same name
    (``.claude/commands/pl/other.md``, harmless) the gate judges that file alone, and the
    plugin's, whose ``!`` command the args fill (``hi; touch zz``), is no candidate (the
    module's rule: every file the runtime may run for the name is judged). A unit proof: which
    of the two the runtime runs was not measured (an e2e case through Claude Code)."""
    from skillgrant.gate import skillfiles
    from skillgrant.gate.call import check_call

    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_CODE_PLUGIN_CACHE_DIR", raising=False)
    config = tmp_path / "config"
    plugins = config / "plugins" if variable == "CLAUDE_CONFIG_DIR" else tmp_path / "cache"
    monkeypatch.setenv(variable, str(config if variable == "CLAUDE_CONFIG_DIR" else plugins))
    command = plugins / "pl" / "commands" / "other.md"
    for path, text in ((plugins / "pl" / ".claude-plugin" / "plugin.json", '{"name": "pl"}'),
                       (command, RUNS),
                       (tmp_path / "project" / ".claude" / "commands" / "pl" / "other.md",
                        "---\ndescription: d\n---\nHello.\n")):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    cwd = str(tmp_path / "project")
    call = {"skill": "pl:other", "args": "hi; touch zz"}
    found = skillfiles.skill_files("pl:other", cwd)
    assert isinstance(found, list) and str(command) in found, found
    assert check_call("Skill", call, ["Skill(pl:other)", "Bash(echo *)"],
                      cwd=cwd).status == "not_covered"

