"""Review s48 (s48-greview) of the call gate, session 47's late fixes first: sequences of calls
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
from bash_review import (
    LeftOpen,
    first_denied,
    home_env,
    hook_allows,
    hooked_project,
    needs,
    proved_case,
    rewrites_hook,
)

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add

#: A script node and bun run (JavaScript and TypeScript alike).
JS_PAYLOAD = "require('fs').writeFileSync('zz', '')\n"


def _bun_path() -> dict[str, str]:
    """The session's environment with the oracle's Bun first on PATH, when installed."""
    folder = Path.home() / ".cache" / "skillgrant-runtime" / "bun-1.4.5" / "package" / "bin"
    return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"} if folder.is_dir() else {}


def _needs_bun() -> dict[str, str]:
    """The environment running the oracle's Bun (or the machine's); skips without one."""
    extra = _bun_path()
    if not extra and shutil.which("bun") is None:
        pytest.skip("not installed: bun")
    return extra


def _review_tool(name: str) -> str | None:
    """The folder holding the review tool ``name``: ``SKILLGRANT_REVIEW_TOOLS`` (a folder of
    review tools, as test_s47_greview's H6 reads it) or ``PATH``'s."""
    tools = os.environ.get("SKILLGRANT_REVIEW_TOOLS")
    if tools and (Path(tools) / name).exists():
        return tools
    found = shutil.which(name)
    return os.path.dirname(found) if found else None


def _case(tmp_path: Path, entries: list[str], files: dict[str, str], calls: list[str],
          extra: dict[str, str] | None = None, setup: str = "",
          in_place: bool = False) -> str | None:
    """``bash_review.proved_case``."""
    return proved_case(tmp_path, entries, files, calls, extra, setup, in_place)


# --- envpaths: a value's `${NAME:-default}` ---------------------------------------------------


#: (the session's variables, the plan, the files, the calls, the setup): a value a shell
#: expands (``GIT_SSH_COMMAND``, run through ``sh -c``) holding ``${NAME:-WORD}`` with NAME
#: unset runs WORD; ``envpaths._expanded`` reads the whole ``${…}`` as the name
#: ``NAME:-WORD`` (unset: nothing), so WORD's path is never guarded.
DEFAULTS = {
    "git-ssh-command-default": (
        {"GIT_SSH_COMMAND": "sh ${GIT_SSH_WRAPPER:-tools/ssh.sh}"},
        ["Bash(git fetch)", "Bash(cp *)"], {"tools/.keep": ""},
        ["cp src/x.sh tools/ssh.sh", "git fetch"], "git remote add origin ssh://h.invalid/r"),
    "git-ssh-command-assign-default": (
        {"GIT_SSH_COMMAND": "sh ${GIT_SSH_WRAPPER:=tools/ssh.sh}"},
        ["Bash(git fetch)", "Bash(cp *)"], {"tools/.keep": ""},
        ["cp src/x.sh tools/ssh.sh", "git fetch"], "git remote add origin ssh://h.invalid/r"),
}


@pytest.mark.parametrize("case", list(DEFAULTS))
def test_e1_a_default_value_in_braces_names_the_program(tmp_path: Path, case: str) -> None:
    """gate/envpaths.py reads ``$NAME``/``${NAME}`` of a value first; ``${NAME:-WORD}``
    (``:=``, ``-``, ``=`` alike) is read as the variable ``NAME:-WORD``, unset, so the path
    WORD names is not guarded. git runs ``GIT_SSH_COMMAND`` through a shell, which runs
    ``sh tools/ssh.sh``: ``cp src/x.sh tools/ssh.sh`` (allowed) then ``git fetch`` (an ssh
    remote) runs the payload. Plan ``Bash(git fetch)``, ``Bash(cp *)``."""
    variables, entries, files, calls, setup = DEFAULTS[case]
    needs("git")
    denied = _case(tmp_path, entries, files, calls, variables, setup)
    assert denied is not None, "the hook allows a write to the program a default value names"


# --- bun NAME / bun run NAME.x / node NAME: the file a script word resolves to ----------------


#: (the plan's entry, the file a cp writes, the call): ``bun NAME`` is ``bun run NAME``; where
#: the package has no such script Bun runs the file NAME resolves to (``NAME.js``, ``.ts``, …).
#: planprograms._SUBCOMMANDS (deno's and bun's subcommands together) holds ``lint``, ``fmt``,
#: ``serve``, ``task``, ``compile``, ``bench``, ``doc``: no subcommand of Bun's, yet the word
#: is skipped as one, so nothing it names is guarded. ``bun run NAME`` with a dot in NAME
#: (``build.prod``): ``_named_too`` adds the extensions only to a name without a dot, Bun adds
#: them to any (measured: ``bun run lint.config`` runs ``lint.config.ts``). ``node NAME``
#: runs ``NAME.js`` (CommonJS's resolution: ``node index``, ``node server``), which only
#: bun's and deno's script words guard.
RESOLVED = {
    "bun-lint": ("bun lint", "lint.js"),
    "bun-fmt": ("bun fmt", "fmt.ts"),
    "bun-serve": ("bun serve", "serve.js"),
    "bun-run-dotted": ("bun run build.prod", "build.prod.ts"),
    "node-no-extension": ("node server", "server.js"),
}


@pytest.mark.parametrize("case", list(RESOLVED))
def test_b1_a_script_word_resolves_to_a_file_the_gate_leaves_writable(
        tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``, a package without that script: ``cp src/l.js
    <file>`` is allowed and the plan's own entry runs it (see ``RESOLVED``)."""
    entry, target = RESOLVED[case]
    extra = _needs_bun() if entry.startswith("bun") else {}
    needs("node") if entry.startswith("node") else None
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {"package.json": '{"name": "a"}\n', "src/l.js": JS_PAYLOAD},
                   [f"cp src/l.js {target}", entry], extra)
    assert denied is not None, "the hook allows a write to the file the entry's word runs"


# --- envpaths: a command substitution in a value a shell runs --------------------------------


#: ``GIT_SSH_COMMAND`` values (git runs them through ``sh -c``) naming ``tools/ssh.sh`` of the
#: call's folder through a substitution: ``$(pwd)``, a backquote, the repository's top
#: (``$(git rev-parse --show-toplevel)``, the usual way to name a repository's file) and a
#: trimmed ``${PWD%/}``. ``envpaths`` turns ``$(`` into ``$`` and the parenthesis into a
#: space, so the path kept is ``/tools/ssh.sh`` (absolute: no such file); ``$PWD/…`` alone is
#: read as ``./…`` (denied).
SUBSTITUTED = {
    "pwd": "sh $(pwd)/tools/ssh.sh",
    "backquote": "sh `pwd`/tools/ssh.sh",
    "toplevel": 'sh "$(git rev-parse --show-toplevel)/tools/ssh.sh"',
    "pwd-trimmed": "sh ${PWD%/}/tools/ssh.sh",
}


@pytest.mark.parametrize("case", list(SUBSTITUTED))
def test_e2_a_command_substitution_in_a_value_names_the_program(tmp_path: Path,
                                                               case: str) -> None:
    """Session env ``GIT_SSH_COMMAND`` (see ``SUBSTITUTED``), an ssh remote, plan ``Bash(git
    fetch)``, ``Bash(cp *)``: ``cp src/x.sh tools/ssh.sh`` is allowed and ``git fetch`` runs
    it through the shell git starts."""
    needs("git")
    denied = _case(tmp_path, ["Bash(git fetch)", "Bash(cp *)"], {"tools/.keep": ""},
                   ["cp src/x.sh tools/ssh.sh", "git fetch"],
                   {"GIT_SSH_COMMAND": SUBSTITUTED[case]},
                   "git remote add origin ssh://h.invalid/r")
    assert denied is not None, "the hook allows a write to the program a substitution names"


# --- envpaths: a package's module in NODE_OPTIONS, found in node_modules ----------------------


#: (NODE_OPTIONS, the module's file under ``node_modules``): the preload named as a package's
#: module (``-r dotenv/config``, ``--require ts-node/register``: the common settings). node
#: finds it in ``node_modules`` of the folder it runs in (and each one up); envpaths guards
#: ``./ts-node/register`` and ``/register``. ``node_modules`` is guarded only under a plan
#: running a node runner (``STARTS``), not under a program that is a node script (a global
#: ``tsc``, ``vite``, ``firebase``: a ``#!/usr/bin/env node`` file on ``PATH``).
PACKAGE_PRELOADS = {
    "ts-node-register": ("--require ts-node/register", "ts-node/register/index.js"),
    "dotenv-config": ("-r dotenv/config", "dotenv/config.js"),
}


@pytest.mark.parametrize("case", list(PACKAGE_PRELOADS))
def test_e3_a_package_module_node_options_preloads(tmp_path: Path, case: str) -> None:
    """Session env ``NODE_OPTIONS`` (see ``PACKAGE_PRELOADS``), a global node program ``tsc``
    (a node script on ``PATH``, outside the project), plan ``Bash(tsc --noEmit)``,
    ``Bash(cp *)``, ``Bash(mkdir *)``: ``mkdir -p`` and ``cp src/l.js node_modules/<module>``
    are allowed, ``tsc --noEmit`` preloads it."""
    needs("node")
    options, module = PACKAGE_PRELOADS[case]
    tools = tmp_path / "gbin"
    tools.mkdir()
    (tools / "tsc").write_text("#!/usr/bin/env node\nconsole.log('ok')\n")
    (tools / "tsc").chmod(0o755)
    folder = os.path.dirname(f"node_modules/{module}")
    denied = _case(tmp_path, ["Bash(tsc --noEmit)", "Bash(cp *)", "Bash(mkdir *)"],
                   {"src/l.js": JS_PAYLOAD},
                   [f"mkdir -p {folder}", f"cp src/l.js node_modules/{module}", "tsc --noEmit"],
                   {"NODE_OPTIONS": options, "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"})
    assert denied is not None, "the hook allows a write to the module NODE_OPTIONS preloads"


# --- pip install -r: the files and folders the requirements file names ------------------------


#: A setup.py that runs the payload when pip prepares the project's metadata.
SETUP_PAYLOAD = "open('zz', 'w').close()\nfrom setuptools import setup\nsetup(name='p')\n"
#: (the plan's requirements.txt, what else the project holds, the calls before the pip call):
#: [included] the requirements file includes ``base.txt`` (``-r base.txt``, the usual split
#: of a project's requirements), which is not guarded: a ``cp`` makes it name a new folder
#: whose ``setup.py`` a ``cp`` wrote; [editable-subfolder] a monorepo's ``-e ./libs/common``:
#: pip builds ``libs/common`` (only the call's folder's ``setup.py``, ``pyproject.toml`` and
#: ``setup.cfg`` are guarded, for ``-e .``).
PIP_PATHS = {
    "included": ("-r base.txt\n", {"base.txt": "\n", "src/base.txt": "./w\n"},
                 ["cp src/base.txt base.txt", "mkdir -p w", "cp src/setup.py w/setup.py"]),
    "editable-subfolder": ("-e ./libs/common\n",
                           {"libs/common/setup.py": "from setuptools import setup\n"},
                           ["cp src/setup.py libs/common/setup.py"]),
}


@pytest.mark.parametrize("case", list(PIP_PATHS))
def test_p1_pip_install_r_builds_a_folder_its_requirements_name(tmp_path: Path,
                                                               case: str) -> None:
    """Plan ``Bash(pip install -r requirements.txt)``, ``Bash(cp *)``, ``Bash(mkdir *)`` (a
    venv of the test's own, offline): the calls of ``PIP_PATHS`` are allowed, then the plan's
    pip runs the ``setup.py`` they wrote (it runs before the build fails)."""
    needs("python3")
    requirements, more, calls = PIP_PATHS[case]
    venv = tmp_path / "venv"
    subprocess.run(["python3", "-m", "venv", str(venv)], check=True, capture_output=True,
                   timeout=300)
    extra = {"PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}",
             "PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1",
             "PIP_NO_BUILD_ISOLATION": "0"}  # (offline: no setuptools to fetch; pip's "0")
    denied = _case(tmp_path, ["Bash(pip install -r requirements.txt)", "Bash(cp *)",
                              "Bash(mkdir *)"],
                   {"src/setup.py": SETUP_PAYLOAD, "requirements.txt": requirements, **more},
                   [*calls, "pip install -r requirements.txt"], extra)
    assert denied is not None, "the hook allows a setup.py the plan's pip install -r runs"




# --- pre-commit: the hook repositories it keeps in the home ------------------------------------


#: A hook repository's manifest: one hook, a script of the repository's.
HOOKS_MANIFEST = ("- id: check\n  name: check\n  entry: check.sh\n  language: script\n"
                  "  pass_filenames: false\n")


def _hooks_repository(folder: Path) -> str:
    """A git repository of pre-commit hooks at ``folder`` (a hook repository's URL stands in
    for it: pre-commit clones either); its commit."""
    folder.mkdir()
    (folder / ".pre-commit-hooks.yaml").write_text(HOOKS_MANIFEST)
    (folder / "check.sh").write_text("#!/bin/sh\necho checked\n")
    (folder / "check.sh").chmod(0o755)
    for args in (["init", "-q"], ["add", "."], ["-c", "user.email=a@b", "-c", "user.name=a",
                                                "commit", "-qm", "hooks"]):
        subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True, timeout=60)
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=folder, check=True, text=True,
                          capture_output=True, timeout=60).stdout.strip()


def test_h1_pre_commit_runs_the_hook_repository_it_cloned_into_the_home(
        tmp_path: Path) -> None:
    """pre-commit clones each hook repository ``.pre-commit-config.yaml`` names into
    ``~/.cache/pre-commit/repoXXXX`` (``PRE_COMMIT_HOME``) once, and runs the hooks from that
    clone ever after. The configuration is guarded (review s47 H6); the clone is not. Plan
    ``Bash(pre-commit run --all-files)``, ``Bash(cp *)``, after one run (the user's, or an
    earlier session's): ``cp src/hook.sh ~/.cache/pre-commit/repoXXXX/check.sh`` (the name read
    with ``ls``, a read) is allowed, then the plan's call runs the payload."""
    tools = _review_tool("pre-commit")
    if tools is None:
        pytest.skip("not installed: pre-commit (SKILLGRANT_REVIEW_TOOLS)")
    commit = _hooks_repository(tmp_path / "hooks")
    config = (f"repos:\n- repo: {tmp_path / 'hooks'}\n  rev: {commit}\n  hooks:\n"
              "  - id: check\n")
    entry = "pre-commit run --all-files"
    found = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, [f"Bash({entry})", "Bash(cp *)"])
        (project / ".pre-commit-config.yaml").write_text(config)
        (project / "src" / "hook.sh").write_text("#!/bin/sh\ntouch zz\n")
        env = {**home_env(tmp_path / side / "home"),
               "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}
        for setup in ("git add .pre-commit-config.yaml", entry):
            subprocess.run(["bash", "-c", setup], cwd=project, env=env, check=True,
                           capture_output=True, timeout=300)
        clone = next((tmp_path / side / "home" / ".cache" / "pre-commit").glob("repo*"))
        calls = [f"cp src/hook.sh {clone}/check.sh", entry]
        if side == "proof":
            for call in calls:
                subprocess.run(["bash", "-c", call], cwd=project, env=env, check=False,
                               capture_output=True, timeout=300)
            assert (project / "zz").exists(), "bash ran no payload"
        else:
            found.append(first_denied(project, calls, env))
    assert found[0] is not None, "the hook allows a write to the hook code pre-commit runs"


# --- corepack: the package manager it runs, by a project file or from the home ----------------


#: The install record corepack reads in a package manager's folder (``.corepack``: its ``bin``).
COREPACK_RECORD = '{"bin": {"pnpm": "bin/pnpm.cjs"}}'
#: A package manager's version folder below corepack's home (``COREPACK_HOME``).
PNPM = "v1/pnpm/9.0.0"


@pytest.mark.parametrize("case", ["corepack-env", "home-cache"])
def test_n1_corepack_runs_a_package_manager_the_model_wrote(tmp_path: Path, case: str) -> None:
    """Node's corepack (0.34, with node 20) runs the package manager ``package.json``'s
    ``packageManager`` names (``pnpm@9.0.0``) from its home, ``~/.cache/node/corepack/v1/
    pnpm/9.0.0`` (the ``bin`` of its ``.corepack`` record), with no network once there; the
    ``pnpm``/``yarn`` on ``PATH`` are its shims (``corepack enable``). [corepack-env] corepack
    reads ``COREPACK_*`` variables from ``.corepack.env`` beside package.json (corepack
    ``loadSpec``: ``COREPACK_ENV_FILE``, default ``.corepack.env``): ``COREPACK_HOME=<a
    folder the model made>`` moves the home there; ``.corepack.env`` is in no ``STARTS``.
    [home-cache] the user's cached pnpm in the home is not guarded. Plan ``Bash(pnpm test)``,
    ``Bash(cp *)``, ``Bash(mkdir *)``: the calls are allowed, ``pnpm test`` runs the
    payload."""
    needs("corepack", "node")
    found = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, ["Bash(pnpm test)", "Bash(cp *)",
                                                   "Bash(mkdir *)"])
        env = home_env(tmp_path / side / "home")
        shims = tmp_path / side / "shims"
        shims.mkdir()
        subprocess.run(["corepack", "enable", "--install-directory", str(shims), "pnpm"],
                       env=env, check=True, capture_output=True, timeout=120)
        env = {**env, "PATH": f"{shims}{os.pathsep}{env['PATH']}", "COREPACK_ENABLE_NETWORK": "0"}
        (project / "package.json").write_text(
            '{"name": "a", "packageManager": "pnpm@9.0.0", "scripts": {"test": "echo t"}}\n')
        (project / "src" / "p.cjs").write_text(JS_PAYLOAD)
        (project / "src" / "record.json").write_text(COREPACK_RECORD)
        cache = tmp_path / side / "home" / ".cache" / "node" / "corepack" / PNPM
        if case == "home-cache":  # (the user's pnpm, downloaded by corepack before)
            (cache / "bin").mkdir(parents=True)
            (cache / ".corepack").write_text(COREPACK_RECORD)
            (cache / "bin" / "pnpm.cjs").write_text("console.log('pnpm 9.0.0')\n")
            calls = [f"cp src/p.cjs {cache}/bin/pnpm.cjs", "pnpm test"]
        else:
            (project / "src" / "env").write_text(f"COREPACK_HOME={project}/x\n")
            calls = [f"mkdir -p x/{PNPM}/bin", f"cp src/record.json x/{PNPM}/.corepack",
                     f"cp src/p.cjs x/{PNPM}/bin/pnpm.cjs", "cp src/env .corepack.env",
                     "pnpm test"]
        if side == "proof":
            for call in calls:
                subprocess.run(["bash", "-c", call], cwd=project, env=env, check=False,
                               capture_output=True, timeout=120)
            assert (project / "zz").exists(), "bash ran no payload"
        else:
            found.append(first_denied(project, calls, env))
    assert found[0] is not None, "the hook allows a write to the pnpm corepack runs"


# --- bun: the .env files it loads into its process, and every child's ------------------------


#: (the .env file's name, the plan's entry): Bun loads ``.env``, ``.env.local`` and
#: ``.env.$NODE_ENV`` (``.env.development`` by default, ``.env.test`` under ``bun test``)
#: into ``process.env`` at its start, before the script runs (measured: 1.4.5, ``bun x.ts``).
BUN_ENV_FILES = {
    "env": ".env",
    "env-local": ".env.local",
    "env-development": ".env.development",
}


@pytest.mark.parametrize("case", list(BUN_ENV_FILES))
def test_n2_bun_loads_a_dotenv_that_names_a_preload_for_its_children(tmp_path: Path,
                                                                    case: str) -> None:
    """Plan ``Bash(bun tools/build.ts)`` (a build script of the project's that runs a node
    tool: ``Bun.spawnSync(['node', 'tools/gen.js'])``), ``Bash(cp *)``: ``cp src/env
    <.env file>`` (``NODE_OPTIONS=--require ./src/p.js``) is allowed; Bun loads it, the node
    it starts inherits the variable and preloads the payload. ``.env`` files are in no
    ``STARTS`` of bun's (``bunfig.toml`` is)."""
    extra = _needs_bun()
    needs("node")
    denied = _case(tmp_path, ["Bash(bun tools/build.ts)", "Bash(cp *)"],
                   {"package.json": '{"name": "a"}\n',
                    "tools/build.ts": "Bun.spawnSync(['node', 'tools/gen.js'])\n",
                    "tools/gen.js": "console.log(1)\n", "src/p.js": JS_PAYLOAD,
                    "src/env": "NODE_OPTIONS=--require ./src/p.js\n"},
                   [f"cp src/env {BUN_ENV_FILES[case]}", "bun tools/build.ts"], extra)
    assert denied is not None, "the hook allows a write to the .env file bun loads"


# --- cmake --build: the generated build files below the build folder's top --------------------


#: (the generator, the generated file a cp rewrites, its text): ``cmake --build build`` runs
#: the build tool in ``build``, whose top file (``Makefile``, ``build.ninja``, guarded) runs
#: what cmake generated below it: make's ``CMakeFiles/Makefile2`` (``$(MAKE) -f
#: CMakeFiles/Makefile2 all``); and both re-run cmake when an input of the configuration is
#: newer than the build files, ``CMakeFiles/<version>/CMakeSystem.cmake`` among them (cmake
#: code, read again then: ``execute_process`` runs a program). ``{version}``: cmake's.
CMAKE_GENERATED = {
    "makefile2": ("Unix Makefiles", "CMakeFiles/Makefile2", "X := $(shell touch zz)\nall:\n"),
    "make-system": ("Unix Makefiles", "CMakeFiles/{version}/CMakeSystem.cmake",
                    "execute_process(COMMAND touch zz)\n"),
    "ninja-system": ("Ninja", "CMakeFiles/{version}/CMakeSystem.cmake",
                     "execute_process(COMMAND touch zz)\n"),
}


@pytest.mark.parametrize("case", list(CMAKE_GENERATED))
def test_c1_cmake_build_runs_a_generated_file_below_the_build_folder(tmp_path: Path,
                                                                     case: str) -> None:
    """Plan ``Bash(cmake --build build)`` (the usual build command), ``Bash(cp *)``, a
    project configured and built once (``cmake -S . -B build -G …``): ``cp src/mk
    build/<generated file>`` is allowed, ``cmake --build build`` runs it. ``_FOLDER_OPTIONS``
    reads ``--build build`` and guards the starts in ``build`` (its top ``Makefile``,
    ``build.ninja``, ``CMakeCache.txt``), not ``build/CMakeFiles``."""
    generator, target, text = CMAKE_GENERATED[case]
    needs("cmake", "make" if generator[0] == "U" else "ninja", "cc")
    version = subprocess.run(["cmake", "--version"], capture_output=True, text=True,
                             check=True, timeout=60).stdout.split()[2]
    setup = f"cmake -S . -B build -G '{generator}' && cmake --build build"
    denied = _case(tmp_path, ["Bash(cmake --build build)", "Bash(cp *)"],
                   {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\nproject(a C)\n"
                                      "add_executable(a a.c)\n",
                    "a.c": "int main(void) { return 0; }\n", "src/mk": text},
                   [f"cp src/mk build/{target.format(version=version)}", "cmake --build build"],
                   setup=setup, in_place=True)
    assert denied is not None, "the hook allows a write to a build file cmake --build runs"


# --- make: a makefile remade by make's own implicit rule (`%: %.sh`) --------------------------


#: A makefile text that runs the payload as make reads it.
MAKE_PAYLOAD = "X := $(shell touch zz)\nall test:\n\t@echo made\n"
#: (the plan's entry, the project's files, the file a cp writes): GNU make (4.3) remakes
#: each makefile it reads before it runs anything, by any rule, its built-in implicit rules
#: included; ``%: %.sh`` (``cat $< >$@; chmod a+x $@``) makes ``Makefile`` from a newer
#: ``Makefile.sh``, and make reads the new one. The same for a file ``include`` names and
#: for ``make -C sub``.
MAKE_REMADE = {
    "makefile-sh": ("make", {"Makefile": "all:\n\t@echo hi\n"}, "Makefile.sh"),
    "include-sh": ("make test", {"Makefile": "include rules.mk\ntest:\n\t@echo hi\n",
                                 "rules.mk": "\n"}, "rules.mk.sh"),
    "make-C-sh": ("make -C sub", {"sub/Makefile": "all:\n\t@echo hi\n"}, "sub/Makefile.sh"),
}


@pytest.mark.parametrize("case", list(MAKE_REMADE))
def test_m1_make_remakes_its_makefile_from_a_file_a_cp_wrote(tmp_path: Path,
                                                             case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk Makefile.sh`` is allowed (only
    ``Makefile``, ``makefile``, ``GNUmakefile`` are guarded), then the plan's make remakes
    ``Makefile`` from it (``cat Makefile.sh >Makefile``) and reads it: the payload runs."""
    needs("make")
    entry, files, target = MAKE_REMADE[case]
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {**files, "src/mk": MAKE_PAYLOAD}, [f"cp src/mk {target}", entry])
    assert denied is not None, "the hook allows a write to the file make remakes a makefile from"




# --- skillfiles: a nested .claude reached through a link (through Claude Code) ----------------


#: A skill whose ``!`` line runs its args (the runtime fills them), and a quiet one.
_RUNS = ("---\ndescription: echo things\nallowed-tools: Bash(echo *)\n---\n"
         "Result: !`echo $ARGUMENTS`\n")
_QUIET = "---\ndescription: says hello\n---\nHello.\n"


def _read_then_skill(work: Path, files: dict[str, str], links: dict[str, str], *,
                     gated: bool) -> bool:
    """One Claude Code 2.1.332 session (plan ``Skill(other)``, ``Bash(echo *)``, ``Read``)
    that reads ``project/web/readme.txt`` (the runtime then loads ``web``'s nested
    ``.claude``), then calls ``Skill(other, args="hi; touch zz")``; the runtime a child
    process (K4 apart). Whether ``zz`` was made."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "conformance"))
    import cc_runtime
    from cc_standin import StandIn
    from files_fixture import gated_project

    binary = cc_runtime.binary_path()
    if not binary.exists():
        pytest.skip("the pinned Claude Code is not installed (cc_runtime.py install)")
    project = work / "project"
    gated_project(project, ["Skill(other)", "Bash(echo *)", "Read"])
    if not gated:
        (project / ".claude" / "settings.json").write_text("{}")
    for name, text in files.items():
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_text(text)
    for link, target in links.items():
        (work / link).parent.mkdir(parents=True, exist_ok=True)
        (work / link).symlink_to(target)
    calls = [("Read", {"file_path": str(project / "web" / "readme.txt")}),
             ("Skill", {"skill": "other", "args": "hi; touch zz"})]
    jail = cc_runtime._JAIL
    cc_runtime._JAIL = jail.replace('exec "$@"', '"$@"')  # (the runtime a child: K4 apart)
    try:
        with StandIn() as standin:
            url, session = standin.session(calls)
            cc_runtime.run_session(binary, url, work, None, timeout=120, prompt="hello",
                                   extra_args=["--allowedTools", "Skill(other)", "Bash",
                                               "Read"])
    finally:
        cc_runtime._JAIL = jail
    assert session.results.get(session.call_id(1)) is not None
    return any(work.rglob("zz"))


#: (the files, the links): [folder-link] the project's ``web`` is a link to a folder beside
#: it (a shared package) holding ``.claude/skills/other``; [claude-link] ``web/.claude`` is a
#: link to a shared settings folder. Each beside a real nested ``api/.claude/skills/other``
#: (quiet), which the gate lists and the runtime does not load in the session.
NESTED_LINKS = {
    "folder-link": ({"shared/.claude/skills/other/SKILL.md": _RUNS, "shared/readme.txt": "hi\n",
                     "project/api/.claude/skills/other/SKILL.md": _QUIET},
                    {"project/web": "../shared"}),
    "claude-link": ({"shared/skills/other/SKILL.md": _RUNS, "project/web/readme.txt": "hi\n",
                     "project/api/.claude/skills/other/SKILL.md": _QUIET},
                    {"project/web/.claude": "../../shared"}),
}


@pytest.mark.parametrize("case", list(NESTED_LINKS))
def test_k1_a_nested_claude_folder_reached_through_a_link(tmp_path: Path, case: str) -> None:
    """gate/skillfiles._nested walks the project with ``is_dir(follow_symlinks=False)``: a
    nested ``.claude`` behind a link (a linked package folder, or ``.claude`` itself a link)
    is no candidate. Claude Code 2.1.332 loads it once the session reads a file in ``web``
    (measured, control below) and runs its ``!`` line for ``Skill(other, args="hi; touch
    zz")``; the gate judges the quiet ``api/.claude/skills/other`` only and allows the call
    (the lead's s47 OPEN line, measured)."""
    files, links = NESTED_LINKS[case]
    if not _read_then_skill(tmp_path / "open", files, links, gated=False):
        pytest.skip("the runtime ran no command of the linked skill: nothing to judge")
    assert not _read_then_skill(tmp_path / "gated", files, links, gated=True), \
        "the runtime ran a command of a nested skill behind a link, the gate judged another"




# --- an interpreter's script named like a subcommand of bun's or deno's ------------------------


#: (the plan's entry, the file it runs, the payload): planprograms._script_words skips the
#: first word after any interpreter when it is one of ``_SUBCOMMANDS`` (``run``, ``test``,
#: ``build``, ``check``, ``install``, …: bun's and deno's), so the script of ``bash build``,
#: ``sh test``, ``python3 run``, ``perl check`` is not guarded; nor the folder ``python3
#: build`` (``build/__main__.py``) or ``node test`` (``test/index.js``) runs. ``bash
#: deploy`` (another name) denies the cp.
SCRIPT_NAMED_LIKE_A_SUBCOMMAND = {
    "bash-build": ("bash build", "build", "touch zz\n"),
    "sh-test": ("sh test", "test", "touch zz\n"),
    "python3-run": ("python3 run", "run", "open('zz', 'w').close()\n"),
    "python3-build-folder": ("python3 build", "build/__main__.py", "open('zz', 'w').close()\n"),
    "node-test-folder": ("node test", "test/index.js", JS_PAYLOAD),
    "perl-check": ("perl check", "check", "system('touch zz');\n"),
}


@pytest.mark.parametrize("case", list(SCRIPT_NAMED_LIKE_A_SUBCOMMAND))
def test_s1_the_plans_own_script_named_like_a_subcommand(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``, ``Bash(mkdir *)``: ``cp src/p <the script>``
    (after ``mkdir`` of its folder) is allowed, and the plan's own entry runs it."""
    entry, target, text = SCRIPT_NAMED_LIKE_A_SUBCOMMAND[case]
    needs(entry.split()[0])
    folder = os.path.dirname(target)
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)", "Bash(mkdir *)"],
                   {"src/p": text},
                   [*([f"mkdir -p {folder}"] if folder else []), f"cp src/p {target}", entry])
    assert denied is not None, "the hook allows a write to the script the plan's entry runs"


# --- an interpreter's flag read as a code option (`bash -e`, `perl -p`) -----------------------


#: (the plan's entry, the file a cp writes, the payload): planprograms._CODE holds ``-e``,
#: ``-E``, ``-p`` (node's, perl's and ruby's ``-e`` take code) for every interpreter; a
#: shell's ``-e`` (exit on error: ``bash -e tools/build.sh``, common) is read as a code
#: option and the words after it as a command, so the script's folder (``tools/``, guarded
#: for ``bash tools/build.sh``) is not guarded: ``tools/lib.sh``, which the script sources,
#: is writable. perl's ``-p`` (a loop around the script) ends the reading: the script
#: itself is not guarded.
CODE_FLAGS = {
    "bash-e": ("bash -e tools/build.sh", "tools/lib.sh", "touch zz\n"),
    "sh-e": ("sh -e tools/build.sh", "tools/lib.sh", "touch zz\n"),
    "perl-p": ("perl -p tools/x.pl notes.txt", "tools/x.pl", "system('touch zz');\n"),
}


@pytest.mark.parametrize("case", list(CODE_FLAGS))
def test_s2_an_interpreter_flag_read_as_a_code_option(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``, ``tools/build.sh`` sourcing ``tools/lib.sh``:
    ``cp src/p <file>`` is allowed and the plan's entry runs it (``bash tools/build.sh``
    denies the same cp)."""
    entry, target, text = CODE_FLAGS[case]
    needs(entry.split()[0])
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {"src/p": text, "tools/build.sh": ". tools/lib.sh\n",
                    "tools/lib.sh": "true\n", "tools/x.pl": "1;\n"},
                   [f"cp src/p {target}", entry])
    assert denied is not None, "the hook allows a write to what the plan's script runs"


# --- a plan entry that starts its program through a runner (`ionice -c3 make`) ---------------


#: Plan entries running make through a program of ``wrapped.RUNNERS`` that is no
#: ``WRAPPERS`` (``words.run_words`` reads only ``timeout``, ``nice``, ``nohup``, ``time``,
#: ``stdbuf`` and ``env``): ``_entry_programs`` guards only the words holding a ``/``, so
#: make's makefiles (``STARTS``) are not guarded.
THROUGH_A_RUNNER = {
    "ionice": "ionice -c3 make",
    "setsid": "setsid make",
    "taskset": "taskset -c 0 make",
    "prlimit": "prlimit --nofile=1024 make",
}


@pytest.mark.parametrize("case", list(THROUGH_A_RUNNER))
def test_r1_a_runner_before_the_plans_program(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<runner> … make)``, ``Bash(cp *)``: ``cp src/mk Makefile`` is allowed (under
    ``Bash(make)`` it is denied), and the plan's entry runs make, which reads it."""
    entry = THROUGH_A_RUNNER[case]
    needs(entry.split()[0], "make")
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {"Makefile": "all:\n\t@echo hi\n", "src/mk": MAKE_PAYLOAD},
                   ["cp src/mk Makefile", entry])
    assert denied is not None, "the hook allows a write to the makefile the plan's make reads"


# --- a plan entry holding a `$` is not read for what it runs -----------------------------------


#: Plan entries naming ``make`` beside a ``$`` (``$?`` after it, the call's folder as
#: ``"$PWD"`` or ``${PWD}``): planprograms._plan_programs skips an entry whose text holds
#: ``$`` after its placeholders (``${CLAUDE_SKILL_DIR}/x.sh``: the skill's folder is guarded
#: instead), so make's makefiles are not guarded for it; the call, the entry's own text, is
#: covered.
DOLLAR_ENTRIES = {
    "status": "make && echo $?",
    "pwd-quoted": 'cd "$PWD" && make',
    "pwd-braces": "cd ${PWD} && make",
}


@pytest.mark.parametrize("case", list(DOLLAR_ENTRIES))
def test_p2_a_plan_entry_holding_a_dollar(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk Makefile`` is allowed, then the
    entry's own call runs make, which reads it (under ``Bash(make)`` the cp is denied)."""
    needs("make")
    entry = DOLLAR_ENTRIES[case]
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {"Makefile": "all:\n\t@echo hi\n", "src/mk": MAKE_PAYLOAD},
                   ["cp src/mk Makefile", entry])
    assert denied is not None, "the hook allows a write to the makefile the plan's make reads"


# --- tox: the environments it keeps in .tox and runs again -------------------------------------


def test_t1_tox_runs_the_environment_it_keeps(tmp_path: Path) -> None:
    """tox (4.x) creates ``.tox/<env>`` once and reuses it while ``tox.ini`` is unchanged; its
    Python runs the ``.pth`` lines of the environment's site-packages at every start. tox
    is in ``_RUNS_ANY``, ``tox.ini`` is guarded; ``.tox/`` is not (``_RECIPE_PYTHON``
    guards ``.venv``, ``venv``, ``env`` only). Plan ``Bash(tox -e py)``, ``Bash(cp *)``,
    after one run: ``cp src/x.pth .tox/py/lib/pythonX.Y/site-packages/x.pth`` is allowed,
    the plan's call runs it."""
    tools = _review_tool("tox")
    if tools is None:
        pytest.skip("not installed: tox (SKILLGRANT_REVIEW_TOOLS)")
    extra = {"PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}
    version = subprocess.run([f"{tools}/python3", "-c", "import sys; print('python%d.%d' % "
                              "sys.version_info[:2])"], capture_output=True, text=True,
                             check=True, timeout=60).stdout.strip()
    site = f".tox/py/lib/{version}/site-packages"
    denied = _case(tmp_path, ["Bash(tox -e py)", "Bash(cp *)"],
                   {"tox.ini": "[tox]\nenv_list = py\n[testenv]\nskip_install = true\n"
                               "commands = python -c \"print(42)\"\n",
                    "src/x.pth": "import os; open('zz', 'w').close()\n"},
                   [f"cp src/x.pth {site}/x.pth", "tox -e py"], extra, setup="tox -e py",
                   in_place=True)
    assert denied is not None, "the hook allows a .pth in the environment tox runs"


# --- python -m build: what it builds the project from ------------------------------------------


def test_p3_python_m_build_runs_the_backend_a_cp_wrote(tmp_path: Path) -> None:
    """``python3 -m build`` (pypa/build, the PEP 517 front end) imports the project's build
    backend, which ``pyproject.toml`` names (``backend-path = ["."]``: a module of the
    project's folder; ``requires = []``: nothing to fetch). pip's building from a path is
    guarded (``_BUILT``: ``pyproject.toml``, ``setup.py``, ``setup.cfg``, review
    s47-greview2 P1); ``-m build`` is not. Plan ``Bash(python3 -m build)``, ``Bash(cp *)``:
    ``cp src/pp.toml pyproject.toml`` and ``cp src/backend.py backend.py`` are allowed, the
    plan's call imports the backend (payload ran)."""
    tools = _review_tool("pyproject-build")
    if tools is None:
        pytest.skip("not installed: build (SKILLGRANT_REVIEW_TOOLS)")
    extra = {"PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}
    denied = _case(tmp_path, ["Bash(python3 -m build)", "Bash(cp *)"],
                   {"src/pp.toml": '[build-system]\nrequires = []\nbuild-backend = "backend"\n'
                                   'backend-path = ["."]\n',
                    "src/backend.py": "import os\nopen('zz', 'w').close()\n"},
                   ["cp src/pp.toml pyproject.toml", "cp src/backend.py backend.py",
                    "python3 -m build"], extra)
    assert denied is not None, "the hook allows a build backend python3 -m build imports"


# --- task runners and build systems STARTS does not know: invoke, meson ------------------------


#: (the tool, the plan's entry, the project's files, the calls, the setup): [invoke] invoke
#: imports ``tasks.py`` (its build file, as ``noxfile.py`` is nox's: review s47 H6) before it
#: runs a task; [meson-setup] ``meson setup build`` runs ``meson.build`` (``run_command``
#: runs a program while it configures); [meson-compile] ``meson compile -C build`` (the
#: usual build command) re-configures when ``meson.build`` is newer than the build.
TOOL_BUILD_FILES = {
    "invoke": ("invoke", "invoke test",
               {"tasks.py": "from invoke import task\n@task\ndef test(c):\n    print('ok')\n",
                "src/new": "import os\nopen('zz', 'w').close()\nfrom invoke import task\n"
                           "@task\ndef test(c):\n    pass\n"},
               ["cp src/new tasks.py", "invoke test"], ""),
    "meson-setup": ("meson", "meson setup build",
                    {"meson.build": "project('a')\n",
                     "src/new": "project('a')\nrun_command('touch', 'zz', check: false)\n"},
                    ["cp src/new meson.build", "meson setup build"], ""),
    "meson-compile": ("meson", "meson compile -C build",
                      {"meson.build": "project('a')\n",
                       "src/new": "project('a')\nrun_command('touch', 'zz', check: false)\n"},
                      ["cp src/new meson.build", "meson compile -C build"], "meson setup build"),
}


@pytest.mark.parametrize("case", list(TOOL_BUILD_FILES))
def test_h2_a_runners_build_file_the_gate_does_not_know(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/new <build file>`` is allowed and the
    plan's entry runs it (invoke and meson from PyPI in the tools venv; ninja from the
    system)."""
    tool, entry, files, calls, setup = TOOL_BUILD_FILES[case]
    tools = _review_tool(tool)
    if tools is None:
        pytest.skip(f"not installed: {tool} (SKILLGRANT_REVIEW_TOOLS)")
    needs("ninja") if tool == "meson" else None
    extra = {"PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"}
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files, calls, extra, setup,
                   in_place=True)
    assert denied is not None, "the hook allows a write to the build file the entry runs"


# --- a here-string or here-document on the command: its words go unjudged --------------------


#: Calls under ``Bash(cp *)`` alone, each followed by a here-string (``<<<x``) or a
#: here-document (``<<x``) feeding cp's standard input (which cp never reads): bash runs the
#: copy as written. The same calls without the redirection, or with ``</dev/null``, ``<<<$x``,
#: ``<<<''`` or ``0<<<x``, are denied.
HERE_STRINGS = {
    "hook-script": "cp src/x.sh .claude/hooks/x.sh<<<x",
    "hook-script-spaced": "cp src/x.sh .claude/hooks/x.sh <<< x",
    "here-document": "cp src/x.sh .claude/hooks/x.sh<<x\nx\n",
}


@pytest.mark.parametrize("case", list(HERE_STRINGS))
def test_g1_a_here_string_after_a_write_to_the_gates_own_file(tmp_path: Path,
                                                             case: str) -> None:
    """Plan ``Bash(cp *)``: ``cp src/x.sh .claude/hooks/x.sh<<<x`` rewrites the guarded hook
    script (bash runs it: the payload runs when the script does); the printed hook allows
    it."""
    command = HERE_STRINGS[case]
    project = hooked_project(tmp_path, ["Bash(cp *)"])
    assert rewrites_hook(project, tmp_path, command), "bash did not rewrite the hook script"
    assert not hook_allows(project, command), "the hook allows a rewrite of its hook script"


#: The gate's own settings and plan, rewritten the same way (``evil/``: the same files
#: without the hook, a plan granting all of Bash; ``files_fixture``).
HERE_STRING_GATE_FILES = {
    "settings": "cp evil/.claude/settings.json .claude/settings.json<<<x",
    "plan": "cp evil/plan.json plan.json <<< x",
}


@pytest.mark.parametrize("case", list(HERE_STRING_GATE_FILES))
def test_g1_a_here_string_rewrites_the_gates_settings_or_plan(tmp_path: Path,
                                                             case: str) -> None:
    """Plan ``Bash(cp *)``: the call replaces ``.claude/settings.json`` (no hook any more)
    or the plan (``Bash``: everything) under real bash; the printed hook allows it."""
    command = HERE_STRING_GATE_FILES[case]
    project = hooked_project(tmp_path / "run", ["Bash(cp *)"])
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", command], cwd=scratch, check=False, timeout=60)
    written = (scratch / (".claude/settings.json" if case == "settings" else "plan.json"))
    assert written.read_text() in ("{}", '{"allowed-tools": ["Bash"]}'), "bash wrote nothing"
    assert not hook_allows(project, command), "the hook allows a rewrite of the gate's file"


#: ``git config KEY VALUE`` writes git's configuration (guarded: denied); with a here-string
#: ``<<<--get`` (or ``<<<--list``) the gate reads ``--get`` as one of git config's words, a
#: read. ``core.fsmonitor`` names a program ``git status`` runs.
GIT_CONFIG_HERE = {
    "get": "git config core.fsmonitor 'touch zz; false'<<<--get",
    "list": "git config core.fsmonitor 'touch zz; false' <<< --list",
}


@pytest.mark.parametrize("case", list(GIT_CONFIG_HERE))
def test_g2_a_here_string_makes_a_git_config_write_a_read(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(git config *)`` (reads: writes of git's configuration are denied),
    ``Bash(git status)``: the call sets ``core.fsmonitor`` under real bash, and ``git
    status`` runs it (payload ran); the printed hook allows both."""
    needs("git")
    denied = _case(tmp_path, ["Bash(git config *)", "Bash(git status)"], {},
                   [GIT_CONFIG_HERE[case], "git status"])
    assert denied is not None, "the hook allows a write of git's configuration"


# --- python -m PKG: the package's `__init__` as an extension module ----------------------------


#: An extension module's init function for the package ``mytool`` that runs the payload
#: (C, no Python headers needed: the init is called before its result is looked at).
INIT_PAYLOAD = ('#include <stdlib.h>\n'
                'void *PyInit_mytool(void) { system("touch zz"); return 0; }\n')


@pytest.mark.parametrize("suffix", [".so", ".abi3.so"])
def test_m2_python_m_imports_the_packages_init_extension(tmp_path: Path, suffix: str) -> None:
    """``python3 -m mytool`` imports the package ``mytool`` first; CPython's finder takes an
    extension module before a source file (``mytool/__init__.so`` over ``__init__.py``).
    ``_module_files`` guards ``mytool/__init__.py``, ``__init__.pyc``, ``__main__.py`` and
    ``mytool.so`` (the extension suffixes of a one-name module), not ``__init__<suffix>``.
    Plan ``Bash(python3 -m mytool)``, ``Bash(cp *)``: ``cp src/m.so mytool/__init__.so``
    (built in the setup: the model's bytes) is allowed, the entry runs its init."""
    needs("python3", "cc")
    denied = _case(tmp_path, ["Bash(python3 -m mytool)", "Bash(cp *)"],
                   {"mytool/__init__.py": "", "mytool/__main__.py": "print('tool')\n",
                    "src/m.c": INIT_PAYLOAD},
                   [f"cp src/m.so mytool/__init__{suffix}", "python3 -m mytool"],
                   setup="cc -shared -fPIC -o src/m.so src/m.c")
    assert denied is not None, "the hook allows an extension the plan's module imports first"


# --- an interpreter's script fed on its standard input (`bash < tools/build.sh`) --------------


#: (the plan's entry, the script it reads from standard input, the payload):
#: planprograms._entry_words drops each redirection with its target, the input's too, so
#: the script an interpreter reads from ``<`` is no script of the plan's: not guarded.
STDIN_SCRIPTS = {
    "bash": ("bash < tools/build.sh", "tools/build.sh", "touch zz\n"),
    "sh-s": ("sh -s < tools/build.sh", "tools/build.sh", "touch zz\n"),
    "python3-dash": ("python3 - < tools/gen.py", "tools/gen.py", "open('zz', 'w').close()\n"),
    "node": ("node < tools/gen.js", "tools/gen.js", JS_PAYLOAD),
    "perl": ("perl < tools/x.pl", "tools/x.pl", "system('touch zz');\n"),
}


@pytest.mark.parametrize("case", list(STDIN_SCRIPTS))
def test_s3_the_plans_script_fed_on_standard_input(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/p <the script>`` is allowed and the
    plan's entry runs it (``bash tools/build.sh`` denies the same cp)."""
    entry, target, text = STDIN_SCRIPTS[case]
    needs(entry.split()[0])
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {target: "\n", "src/p": text}, [f"cp src/p {target}", entry])
    assert denied is not None, "the hook allows a write to the script the entry feeds"


#: Exact plan entries running ``cd sub && make`` through a shell's ``-c`` text: the entry's
#: ``cd`` is read as a folder move only as a part of its own (``cd sub && make``, ``(cd sub
#: && make)``: the cp is denied); inside ``-c`` the ``cd`` is read as a command whose
#: program is ``cd``, and make's makefiles are guarded in the call's folder, not ``sub``.
SHELL_C_CD = {
    "sh-c-and": "sh -c 'cd sub && make'",
    "bash-c-semicolon": 'bash -c "cd sub; make"',
}


@pytest.mark.parametrize("case", list(SHELL_C_CD))
def test_s4_a_cd_inside_a_shells_c_text(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/mk sub/Makefile`` is allowed and the
    entry's make reads it in ``sub``."""
    needs("make")
    entry = SHELL_C_CD[case]
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {"sub/Makefile": "all:\n\t@echo hi\n", "src/mk": MAKE_PAYLOAD},
                   ["cp src/mk sub/Makefile", entry])
    assert denied is not None, "the hook allows a write to the makefile the entry's make reads"



# --- a test named by its id: the file of `test_x.TestA` or `test_x.py::TestA` ----------------


#: A test module whose import runs the payload, and the project's own.
TEST_PAYLOAD = ("import os, unittest\nopen('zz', 'w').close()\n"
                "class TestA(unittest.TestCase):\n    def test_a(self):\n        pass\n")
TEST_MODULE = ("import unittest\nclass TestA(unittest.TestCase):\n"
               "    def test_a(self):\n        pass\n")
#: Plan entries running one test by its id. unittest's ``test_x.TestA`` is the module
#: ``test_x`` (``test_x.py``), its class and method; ``_module_files`` reads a dotted name as
#: a package (``test_x/``, guarded whole) and guards no ``test_x.py``. pytest's node id
#: ``test_x.py::TestA`` is guarded as that literal path (no such file) and its folder (the
#: call's: never guarded whole); ``python3 -m unittest test_x`` and ``pytest tests/test_x.py``
#: deny the cp.
TEST_IDS = {
    "unittest-class": "python3 -m unittest test_x.TestA",
    "unittest-method": "python3 -m unittest test_x.TestA.test_a",
    "pytest-node-id": "pytest test_x.py::TestA::test_a",
    "python-m-pytest-node-id": "python3 -m pytest -q test_x.py::TestA",
}


@pytest.mark.parametrize("case", list(TEST_IDS))
def test_s5_a_test_named_by_its_id(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/p test_x.py`` is allowed and the
    plan's entry imports it (payload ran)."""
    entry = TEST_IDS[case]
    needs(entry.split()[0])
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {"test_x.py": TEST_MODULE, "src/p": TEST_PAYLOAD},
                   ["cp src/p test_x.py", entry])
    assert denied is not None, "the hook allows a write to the test file the entry runs"




# --- a test runner the gate does not know runs the test files its operands name ---------------


#: perl's ``prove`` runs each test file its operands name (a folder: every ``*.t`` in it), as
#: ``pytest tests`` does; planprograms reads operands as scripts only after ``_INTERPRETERS``
#: and ``pytest``/``python…`` (``pytest tests`` guards ``tests/``).
PROVE_ENTRIES = {"file": "prove t/x.t", "folder": "prove -l t"}


@pytest.mark.parametrize("case", list(PROVE_ENTRIES))
def test_s6_a_test_runner_the_gate_does_not_know(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/p t/x.t`` is allowed and the plan's
    entry runs it (payload ran)."""
    needs("prove")
    entry = PROVE_ENTRIES[case]
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {"t/x.t": "use Test::More; ok(1); done_testing;\n",
                    "src/p": "system('touch zz'); use Test::More; ok(1); done_testing;\n"},
                   ["cp src/p t/x.t", entry])
    assert denied is not None, "the hook allows a write to the test file the entry names"




# --- a script run by its path: its folder is not guarded as an interpreter's script's is ------


@pytest.mark.parametrize("entry", ["./scripts/test.sh", "scripts/test.sh"])
def test_s7_a_script_run_by_its_path_sources_a_file_beside_it(tmp_path: Path,
                                                               entry: str) -> None:
    """``bash scripts/test.sh`` guards ``scripts/`` whole (the script's folder: what it
    sources or imports beside it); the same script run by its path (a ``#!/bin/sh`` file,
    the kernel starts the shell) guards ``scripts/test.sh`` alone. Plan ``Bash(<entry>)``,
    ``Bash(cp *)``, the script sourcing ``scripts/lib.sh``: ``cp src/p scripts/lib.sh`` is
    allowed and the entry runs it (payload ran)."""
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {"scripts/test.sh": "#!/bin/sh\n. scripts/lib.sh\n",
                    "scripts/lib.sh": "true\n", "src/p": "touch zz\n"},
                   ["cp src/p scripts/lib.sh", entry], setup="chmod +x scripts/test.sh")
    assert denied is not None, "the hook allows a write beside the script the entry runs"


