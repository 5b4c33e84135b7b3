"""Review s48 (s48-greview2) of the call gate, s48-gfix's changes first (``git merge REF`` /
``git rebase REF`` judged by the paths ``HEAD..REF`` changes, the new start-path guards):
sequences of calls the printed hook allows under a narrow plan, after which real bash runs a
payload (``touch zz``). Each case proves the hole with real bash in a scratch copy first (a
scratch home), then asks the printed hook for each call in turn, running the allowed ones;
the hook allowing them all is the finding: these tests fail while the hole is open (``OPEN``
marks them strict xfails)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from bash_review import LeftOpen, needs, proved_case

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add

#: A makefile whose ``test`` target runs the payload.
MAKE_PAYLOAD = "test:\n\ttouch zz\n"
#: The project's own makefile.
MAKEFILE = "test:\n\techo ok\n"
#: A repository's first commit, by bash in the project.
GIT_BASE = ("git config user.email a@b && git config user.name a && "
            "git add -A && git commit -qm base")


def _case(tmp_path: Path, entries: list[str], files: dict[str, str], calls: list[str],
          setup: str = "", extra: dict[str, str] | None = None,
          in_place: bool = False) -> str | None:
    """``bash_review.proved_case``."""
    return proved_case(tmp_path, entries, files, calls, extra, setup, in_place)


# --- G1: a merge or rebase moves a file into a folder the other side renamed -------------


#: The git workflow calls that make two branches off the base commit without checking one
#: out again (``git checkout -b`` makes a branch where HEAD is; ``--amend`` re-parents the
#: rename onto the base): ``add`` adds ``d/GNUmakefile`` (no guarded path), ``ren`` moves
#: ``d``'s only file ``d/a`` to the top folder (d renamed to the top). (Names in lower case:
#: the gate reads a ref in capitals as a pseudo-ref, a whole-tree writer.)
RENAMED = ["git checkout -b add", "cp src/mk d/GNUmakefile", "git add d",
           "git commit -qm add", "git checkout -b ren", "git rm -q d/GNUmakefile",
           "git mv d/a a", "git commit -q --amend -m ren"]
#: The plan: a git workflow beside the project's test runner.
GIT_PLAN = ["Bash(cp *)", "Bash(git add *)", "Bash(git commit *)", "Bash(git checkout -b *)",
            "Bash(git mv *)", "Bash(git rm *)", "Bash(git merge *)", "Bash(git rebase *)",
            "Bash(make test)"]
#: The calls after ``RENAMED``: [reverted] ``ren`` then moves ``a`` back (``d/a``): its tree
#: is the base's again, so neither side removed a path since the merge base (s48-gfix's G1
#: rule), but a rebase replays each of ``ren``'s commits: the first one moves
#: ``d/GNUmakefile`` to the top and stops there on that conflict.
RENAME_ENDS = {"merge": ["git merge add"], "rebase": ["git rebase add"],
               "rebase-reverted": ["git mv a d/a", "git commit -qm back", "git rebase add"]}


@pytest.mark.parametrize("case", list(RENAME_ENDS))
def test_g1_a_directory_rename_moves_a_file_to_a_guarded_path(tmp_path: Path,
                                                              case: str) -> None:
    """s48-gfix's C-git cost fix judged ``git merge add`` / ``git rebase add`` by ``git diff
    --name-only HEAD add`` (``d/a``, ``a``, ``d/GNUmakefile``: none guarded), but git's merge
    (ort) detects that ``ren`` renamed the folder ``d`` to the top folder and moves the file
    ``add`` added there, ``d/GNUmakefile``, to ``GNUmakefile`` ("CONFLICT (file location)":
    the file is written there all the same); ``make test`` reads it before the Makefile.
    (``cp src/mk GNUmakefile`` is denied; the rename's target may be any folder: ``build/``
    under ``make -C build``.)"""
    needs("git", "make")
    denied = _case(tmp_path, GIT_PLAN,
                   {"Makefile": MAKEFILE, "d/a": "a\n", "src/mk": MAKE_PAYLOAD},
                   [*RENAMED, *RENAME_ENDS[case], "make test"], GIT_BASE)
    assert denied is not None, "the hook allows a merge that writes the plan's Makefile"


#: The calls of G1c: ``add`` as in ``RENAMED``; ``work`` back at the base (an empty commit:
#: ``--amend --allow-empty``), then the rename ``d/a`` → ``a`` left uncommitted (staged).
STASHED = ["git checkout -b add", "cp src/mk d/GNUmakefile", "git add d", "git commit -qm add",
           "git checkout -b work", "git rm -q d/GNUmakefile",
           "git commit -q --amend --allow-empty -m w", "git mv d/a a"]


@pytest.mark.parametrize("program", ["merge", "rebase"])
def test_g1c_an_autostash_applies_an_uncommitted_rename(tmp_path: Path, program: str) -> None:
    """The user's ``merge.autoStash`` / ``rebase.autoStash`` (a common setting): git stashes
    the working tree's changes, merges (here a fast-forward to ``add``) and applies the stash
    again, itself a merge: the stash's uncommitted rename of ``d`` to the top moves
    ``add``'s ``d/GNUmakefile`` to ``GNUmakefile`` ("Applying autostash resulted in
    conflicts": the file is written). s48-gfix's rule reads the commits only (no removal
    between the base, HEAD and ``add``): ``git merge add`` is allowed, ``make test`` runs the
    payload. (Without autostash git refuses: "local changes would be overwritten".)"""
    needs("git", "make")
    setup = (f"{GIT_BASE} && git config --global merge.autoStash true && "
             "git config --global rebase.autoStash true")
    denied = _case(tmp_path, GIT_PLAN,
                   {"Makefile": MAKEFILE, "d/a": "a\n", "src/mk": MAKE_PAYLOAD},
                   [*STASHED, f"git {program} add", "make test"], setup)
    assert denied is not None, "the hook allows a merge whose autostash writes the Makefile"


# --- G2: `git merge FETCH_HEAD` merges every head the fetch marked for merging -------------


def test_g2_merge_fetch_head_is_an_octopus_of_every_fetched_head(tmp_path: Path) -> None:
    """``git fetch origin safe evil`` writes both heads to FETCH_HEAD, marked for merging;
    ``git merge FETCH_HEAD`` merges them all (git reads FETCH_HEAD itself: an octopus), while
    the gate's ``git diff HEAD FETCH_HEAD`` reads its first line only (``safe``: no guarded
    path). ``evil`` changes the Makefile ``make test`` runs (``git merge origin/evil`` is
    denied). Plan ``Bash(git fetch *)``, ``Bash(git merge *)``, ``Bash(make test)``."""
    needs("git", "make")
    setup = (f"{GIT_BASE} && git clone -q --bare . \"$T/remote.git\" && "
             "git remote add origin \"$T/remote.git\" && cd \"$T/remote.git\" && "
             "git worktree add -q ../w && cd ../w && git config user.email a@b && "
             "git config user.name a && git checkout -qb evil && "
             f"printf '{MAKE_PAYLOAD}' >Makefile && git commit -qam e && "
             "git checkout -qb safe HEAD~ && echo 2 >src/a && git add src && git commit -qm s")
    denied = _case(tmp_path, ["Bash(git fetch *)", "Bash(git merge *)", "Bash(make test)"],
                   {"Makefile": MAKEFILE}, ["git fetch origin safe evil",
                                            "git merge FETCH_HEAD", "make test"], setup)
    assert denied is not None, "the hook allows a merge of FETCH_HEAD's other heads"


# --- N1: npm's folder specs beyond `./x` (s48-gfix's N4 rule) ----------------------------


#: npm without the registry (no audit, no update check).
NPM_OFFLINE = {"npm_config_offline": "true", "npm_config_audit": "false",
               "npm_config_fund": "false", "npm_config_update_notifier": "false"}
#: A package manifest whose ``postinstall`` runs the payload.
PKG_PAYLOAD = ('{"name": "cli", "version": "1.0.0", '
               '"scripts": {"postinstall": "touch zz"}}\n')


@pytest.mark.parametrize("spec", ["tools/cli/", "packages/tools/cli", "./packages/@org/cli",
                                  "packages/@org/cli"])
def test_n1_npm_installs_a_folder_its_spec_names_without_a_dot(tmp_path: Path,
                                                               spec: str) -> None:
    """npm-package-arg reads a spec with a slash that is no ``user/repo`` shorthand as a
    folder: one ending in ``/`` (``tools/cli/``) or with two slashes (``packages/tools/cli``);
    npm installs it and runs its ``postinstall``. s48-gfix's N4 rule (planprograms
    ``_local_package``) guards a spec starting ``.``/``/``/``~``, ``file:`` or a tarball's
    name only, so ``cp src/pkg.json <spec>/package.json`` is allowed beside ``Bash(npm install
    <spec>)`` (real npm 11, no registry). [@org]: a monorepo's scoped package folder; npa
    reads a word whose part before its ``@`` holds a slash as a spec whole (no
    ``name@range``), while s48-gfix's rule takes what follows the ``@`` (``org/cli``)."""
    needs("npm")
    folder = spec.rstrip("/")
    files = {"package.json": '{"name": "p", "version": "1.0.0"}\n',
             f"{folder}/package.json": '{"name": "cli", "version": "1.0.0"}\n',
             "src/pkg.json": PKG_PAYLOAD}
    denied = _case(tmp_path, [f"Bash(npm install {spec})", "Bash(cp *)"], files,
                   [f"cp src/pkg.json {folder}/package.json", f"npm install {spec}"],
                   extra=NPM_OFFLINE)
    assert denied is not None, "the hook allows a folder npm installs to be rewritten"


# --- W1: mypy imports a package where its settings name a plugin file --------------------


def _mypy_path(folder: Path) -> dict[str, str]:
    """``PATH`` with a ``mypy`` program (this interpreter's mypy module, the call's folder not
    on ``sys.path``: ``-P``) in ``folder`` first."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "mypy").write_text(f'#!/bin/sh\nexec "{sys.executable}" -P -m mypy "$@"\n')
    (folder / "mypy").chmod(0o755)
    return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}


#: A mypy plugin module (its entry point); the payload's first.
MYPY_PLUGIN = "from mypy.plugin import Plugin\n\n\ndef plugin(version):\n    return Plugin\n"


def test_w1_mypy_imports_a_package_of_its_plugin_files_name(tmp_path: Path) -> None:
    """``plugins = tools/p.py`` in mypy.ini: mypy puts ``tools`` first on ``sys.path`` and
    imports the module ``p``, and a package ``tools/p/`` wins over ``tools/p.py`` (Python's
    path finder tries a folder first). s48-gfix's pluginpaths guards ``tools/p.py`` only:
    ``mkdir tools/p``, ``cp e/plug.py tools/p/__init__.py`` are allowed beside ``Bash(mypy
    src)`` and mypy runs the payload (real mypy 1.x)."""
    pytest.importorskip("mypy")
    files = {"src/a.py": "x = 1\n", "tools/p.py": MYPY_PLUGIN, "mypy.ini":
             "[mypy]\nplugins = tools/p.py\n",
             "e/plug.py": "import os\nos.system('touch zz')\n" + MYPY_PLUGIN}
    denied = _case(tmp_path, ["Bash(mypy src)", "Bash(cp *)", "Bash(mkdir *)"], files,
                   ["mkdir tools/p", "cp e/plug.py tools/p/__init__.py", "mypy src"],
                   extra=_mypy_path(tmp_path / "bin"))
    assert denied is not None, "the hook allows a package shadowing mypy's plugin file"


# --- T1: terraform installs providers from its working folder's implicit mirror -----------


#: A configuration needing one provider (no lock file yet: ``terraform init`` writes it).
MAIN_TF = ('terraform {\n  required_providers {\n    null = {\n      source = "hashicorp/null"\n'
           '      version = "3.2.0"\n    }\n  }\n}\nresource "null_resource" "a" {}\n')
#: Where terraform looks for that provider first, below the working folder.
MIRROR = "terraform.d/plugins/registry.terraform.io/hashicorp/null/3.2.0/linux_amd64"


#: Where terraform finds it: the working folder's ``terraform.d``, and the user's data folder
#: (``~/.local/share/terraform``; the home is ``../home`` from the project here).
MIRRORS = {"folder": "", "home-xdg": "../home/.local/share/terraform/"}


@pytest.mark.parametrize("where", list(MIRRORS))
def test_t1_terraform_installs_a_provider_from_an_implicit_mirror(tmp_path: Path,
                                                                  where: str) -> None:
    """terraform's implicit local mirrors include ``terraform.d/plugins`` in the working
    folder and ``$XDG_DATA_HOME/terraform/plugins`` (``~/.local/share``), beside
    ``~/.terraform.d/plugins``, which is guarded: ``terraform init`` installs a provider found
    there (no lock file to check it against) into ``.terraform/providers`` and ``terraform
    plan`` starts it. Plan ``Bash(terraform init)``, ``Bash(terraform plan)``, ``Bash(cp *)``,
    ``Bash(mkdir *)``: ``mkdir -p …``, ``cp src/p …/terraform-provider-null_v3.2.0`` (an
    executable script) allowed; the payload runs (real terraform 1.11, no network)."""
    needs("terraform")
    mirror = MIRRORS[where] + (MIRROR if not MIRRORS[where] else MIRROR[len("terraform.d/"):])
    files = {"main.tf": MAIN_TF, "src/p": "#!/bin/sh\ntouch zz\n"}
    denied = _case(tmp_path, ["Bash(terraform init)", "Bash(terraform plan)", "Bash(cp *)",
                              "Bash(mkdir *)"], files,
                   [f"mkdir -p {mirror}", f"cp src/p {mirror}/terraform-provider-null_v3.2.0",
                    "terraform init", "terraform plan"], "chmod +x src/p")
    assert denied is not None, "the hook allows a provider in an implicit mirror"


# --- M1: make remakes the makefile `-f` names from a file beside it -------------------------


def test_m1_make_remakes_the_makefile_its_f_option_names(tmp_path: Path) -> None:
    """s48-gfix guards the sources make's built-in rules remake ``Makefile``, ``makefile``,
    ``GNUmakefile`` from (``Makefile.sh``, RCS, SCCS: s48-greview M1), not those of the
    makefile the entry names itself: under ``Bash(make -f build.mk test)``, ``cp src/mk
    build.mk.sh`` is allowed; make remakes ``build.mk`` by its ``%: %.sh`` rule (``cat
    build.mk.sh >build.mk``) and reads it again: the payload runs (GNU make 4.3)."""
    needs("make")
    denied = _case(tmp_path, ["Bash(make -f build.mk test)", "Bash(cp *)"],
                   {"build.mk": MAKEFILE, "src/mk": MAKE_PAYLOAD},
                   ["cp src/mk build.mk.sh", "make -f build.mk test"])
    assert denied is not None, "the hook allows the source of the entry's makefile"


# --- C1: cmake --build runs the generated makefiles of each subfolder -------------------------


def test_c1_cmake_build_runs_a_subfolders_generated_makefile(tmp_path: Path) -> None:
    """d88238e guards ``CMakeFiles/`` (and the top ``Makefile``) in the folder ``cmake --build
    build`` names (s48-greview C1); with ``add_subdirectory(sub)``, the Makefile generator's
    ``CMakeFiles/Makefile2`` runs ``$(MAKE) -f sub/CMakeFiles/foo.dir/build.make``: ``cp src/mk
    build/sub/CMakeFiles/foo.dir/build.make`` is allowed, ``cmake --build build`` reads it
    (payload ran; cmake 3.25, GNU make; a custom target: no compiler). Plan ``Bash(cmake
    --build build)``, ``Bash(cp *)``."""
    needs("cmake", "make")
    files = {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\nproject(p NONE)\n"
                               "add_subdirectory(sub)\n",
             "sub/CMakeLists.txt": "add_custom_target(foo ALL COMMAND echo hi)\n",
             "src/mk": "X := $(shell touch zz)\n"}
    denied = _case(tmp_path, ["Bash(cmake --build build)", "Bash(cp *)"], files,
                   ["cp src/mk build/sub/CMakeFiles/foo.dir/build.make", "cmake --build build"],
                   "cmake -S . -B build -G 'Unix Makefiles' && cmake --build build",
                   in_place=True)
    assert denied is not None, "the hook allows a subfolder's generated makefile"


# --- H1: the user's own settings of a runner s48-gfix added, which are code --------------------


def _tool_path(name: str, version: str = "") -> dict[str, str]:
    """``PATH`` with the folder holding the review tool ``name`` (whose ``--version`` starts
    with ``version``) first: ``SKILLGRANT_REVIEW_TOOLS`` (folders of review tools,
    ``:``-separated: s48-greview's ``/tmp/s48gr/tv/bin`` has invoke; ``pip install scons`` in
    a venv for scons) or ``PATH``'s; the test skips without it."""
    tools = os.environ.get("SKILLGRANT_REVIEW_TOOLS", "").split(os.pathsep)
    found = [t for t in tools if t and (Path(t) / name).exists()] + [
        os.path.dirname(shutil.which(name) or "")]
    for folder in [f for f in found if f]:
        said = subprocess.run([str(Path(folder) / name), "--version"], capture_output=True,
                              text=True, timeout=60, check=False) if version else None
        if said is None or said.stdout.strip().startswith(version):
            return {"PATH": f"{folder}{os.pathsep}{os.environ['PATH']}"}
    pytest.skip(f"not installed: {name} {version} (SKILLGRANT_REVIEW_TOOLS)")


def test_h1_invoke_runs_the_users_python_settings(tmp_path: Path) -> None:
    """invoke loads its user settings from ``~/.invoke.yaml``/``.yml``/``.json``/``.py`` at
    every start, the ``.py`` one by running it (``Config._load_py``: ``exec``); d88238e
    guards the project's ``tasks.py``, ``invoke.*`` (s48-greview H2), not the user's. Plan
    ``Bash(invoke test)``, ``Bash(cp *)``: ``cp src/p.py ~/.invoke.py`` (the scratch home,
    ``../home`` from the project) is allowed; ``invoke test`` runs it (invoke 2.x; it then
    stops on the module the file holds: the payload ran first)."""
    extra = _tool_path("invoke")
    files = {"tasks.py": "from invoke import task\n\n\n@task\ndef test(c):\n    pass\n",
             "src/p.py": "import os\nos.system('touch zz')\n"}
    denied = _case(tmp_path, ["Bash(invoke test)", "Bash(cp *)"], files,
                   ["cp src/p.py ../home/.invoke.py", "invoke test"], extra=extra)
    assert denied is not None, "the hook allows invoke's user settings to be written"


#: Where SCons imports ``site_scons/site_init.py`` from at every start: the SConstruct's
#: folder, and the user's ``~/.scons`` (``../home`` from the project here).
SITE_SCONS = {"project": "site_scons", "home": "../home/.scons/site_scons"}


@pytest.mark.parametrize("where", list(SITE_SCONS))
def test_h2_scons_imports_a_site_init_the_gate_leaves_writable(tmp_path: Path,
                                                              where: str) -> None:
    """SCons runs ``site_scons/site_init.py`` (and puts ``site_scons`` first on ``sys.path``)
    from the top folder and the user's ``~/.scons`` before it reads ``SConstruct``; d88238e
    guards ``SConstruct`` only (s48-greview H2). Plan ``Bash(scons)``, ``Bash(cp *)``,
    ``Bash(mkdir *)``: ``mkdir -p <folder>``, ``cp src/p.py <folder>/site_init.py`` allowed,
    ``scons`` runs the payload (SCons 4.x from PyPI)."""
    extra = _tool_path("scons")
    folder = SITE_SCONS[where]
    files = {"SConstruct": "print(1)\n", "src/p.py": "import os\nos.system('touch zz')\n"}
    denied = _case(tmp_path, ["Bash(scons)", "Bash(cp *)", "Bash(mkdir *)"], files,
                   [f"mkdir -p {folder}", f"cp src/p.py {folder}/site_init.py", "scons"],
                   extra=extra)
    assert denied is not None, "the hook allows scons's site_init.py to be written"


# --- U1: `uv run` syncs the project (builds it) and runs in its `.venv` -----------------------


#: A packaged project (setuptools from the index: network on the first run, a cache of the
#: test's own) whose ``uv run`` builds it into ``.venv`` before it runs the command.
UV_PROJECT = {"pyproject.toml": '[project]\nname = "p"\nversion = "0"\n[build-system]\n'
                                'requires = ["setuptools"]\n'
                                'build-backend = "setuptools.build_meta"\n',
              "setup.py": "from setuptools import setup\nsetup()\n", "tools/x.py": "print(1)\n",
              "src/setup.py": "import os\nos.system('touch zz')\nfrom setuptools import setup\n"
                              "setup()\n",
              "src/p.pth": "import os; os.system('touch zz')\n"}
#: The copy each case makes: the project's setup.py (run by the build ``uv run`` makes), a
#: ``.pth`` file in the project's ``.venv`` (``uv sync`` made it first; its Python runs it).
UV_WRITES = {"setup-py": "cp src/setup.py setup.py",
             "venv-pth": "cp src/p.pth .venv/lib/python{v}/site-packages/x.pth"}


@pytest.mark.parametrize("case", list(UV_WRITES))
def test_u1_uv_run_builds_the_project_and_runs_its_venv(tmp_path: Path, case: str) -> None:
    """``uv run python tools/x.py`` first syncs the project: it builds and installs it (its
    ``setup.py`` runs) into ``.venv``, whose Python then runs the script (its site-packages'
    ``.pth`` lines run at start). The gate reads ``uv`` as a package runner of ``python
    tools/x.py`` only: ``setup.py``, ``.venv/`` (and ``pyproject.toml``, ``uv.toml``,
    ``uv.lock`` under ``Bash(uv sync)``) stay writable. Plan ``Bash(uv run python
    tools/x.py)``, ``Bash(cp *)`` (uv 0.13 from PyPI; this test's Python as ``UV_PYTHON``)."""
    extra = _tool_path("uv")
    extra.update({"UV_CACHE_DIR": str(tmp_path / "uvcache"), "UV_PYTHON": sys.executable,
                  "UV_PYTHON_DOWNLOADS": "never"})
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    denied = _case(tmp_path, ["Bash(uv run python tools/x.py)", "Bash(cp *)"], UV_PROJECT,
                   [UV_WRITES[case].format(v=version), "uv run python tools/x.py"],
                   "uv sync -q" if case == "venv-pth" else "", extra=extra)
    assert denied is not None, "the hook allows a file uv run builds or its venv runs"




# --- Y1: yarn runs the file its settings' yarn-path names (s48-gfix's C5b reads .npmrc only) --


def test_y1_yarn_runs_the_release_its_yarnrc_names(tmp_path: Path) -> None:
    """Yarn 1 reads ``.yarnrc`` (guarded) and, where it holds ``yarn-path "./tools/y.js"``,
    runs that file with node in its own stead for every command (Yarn 2+: ``.yarnrc.yml``'s
    ``yarnPath``). s48-gfix guards the paths an ``.npmrc`` names (C5b), not a ``.yarnrc``'s:
    under ``Bash(yarn test)``, ``Bash(cp *)``, ``cp src/y.js tools/y.js`` is allowed and
    ``yarn test`` runs the payload (yarn 1.22 from the npm registry:
    ``npm install --prefix DIR yarn@1``, ``DIR/node_modules/.bin`` in
    ``SKILLGRANT_REVIEW_TOOLS``)."""
    extra = _tool_path("yarn")
    needs("node")
    files = {"package.json": '{"name": "a", "version": "1.0.0", "scripts": {"test": "echo ok"}}\n',
             ".yarnrc": 'yarn-path "./tools/y.js"\n', "tools/y.js": "console.log(1)\n",
             "src/y.js": "require('fs').writeFileSync('zz', '')\n"}
    denied = _case(tmp_path, ["Bash(yarn test)", "Bash(cp *)"], files,
                   ["cp src/y.js tools/y.js", "yarn test"], extra=extra)
    assert denied is not None, "the hook allows the file yarn-path names to be rewritten"


# --- R1: a runner's option moving the folder its program runs in ----------------------------


#: (a runner's entry moving make into ``sub``): env's ``--chdir`` (a getopt prefix, ``-C``
#: attached), unshare's ``--wd``/``-w`` (no namespace flag: it only moves), gdb's ``--cd``.
MOVED_RUNS = {"env-chdir": "env --chdir=sub make", "env-chdir-prefix": "env --ch=sub make",
              "env-C-attached": "env -Csub make", "unshare-wd": "unshare --wd=sub make",
              "unshare-w": "unshare -w sub make",
              "gdb-cd": "gdb -batch -ex run --cd=sub --args make"}


@pytest.mark.parametrize("case", list(MOVED_RUNS))
def test_r1_a_runner_moves_its_program_into_a_folder(tmp_path: Path, case: str) -> None:
    """s48-gfix reads a runner's entry for the program it starts (s48-greview R1) and
    ``env -C sub make`` for ``sub``'s Makefile; other spellings of that option, and other
    runners' working-folder options, leave the Makefile guarded in the call's folder and
    ``sub/Makefile`` writable: ``cp src/mk sub/Makefile`` is allowed, the entry's make reads
    it (payload ran). Plan ``Bash(<entry>)``, ``Bash(cp *)``."""
    entry = MOVED_RUNS[case]
    needs(entry.split()[0], "make")
    files = {"Makefile": "all:\n\t@echo ok\n", "sub/Makefile": "all:\n\t@echo ok\n",
             "src/mk": "X := $(shell touch zz)\nall:\n\t@echo hi\n"}
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                   ["cp src/mk sub/Makefile", entry])
    assert denied is not None, "the hook allows the makefile the runner's program reads"



# --- F1: a runner's option naming its build file elsewhere (nox -f, tox -c, pre-commit -c) ---


#: (the entry, the build file it names, its harmless text, the model's text): each runs
#: what that file says (nox imports its noxfile; tox runs an env's commands; pre-commit a
#: local hook's entry).
NAMED_FILES = {
    "nox-f": ("nox -f sub/noxfile.py", "sub/noxfile.py",
              "import nox\n\n\n@nox.session(python=False)\ndef a(s):\n    pass\n",
              "import os\nos.system('touch zz')\n"),
    "tox-c": ("tox -c sub/tox.ini", "sub/tox.ini",
              "[tox]\nenv_list = a\nskipsdist = true\n[testenv:a]\nskip_install = true\n"
              "commands = python -c pass\n",
              "[tox]\nenv_list = a\nskipsdist = true\n[testenv:a]\nskip_install = true\n"
              "allowlist_externals = touch\ncommands = touch zz\n"),
    "pre-commit-c": ("pre-commit run -c sub/cfg.yaml --all-files", "sub/cfg.yaml",
                     "repos:\n- repo: local\n  hooks:\n  - id: a\n    name: a\n"
                     "    entry: 'true'\n    language: system\n",
                     "repos:\n- repo: local\n  hooks:\n  - id: a\n    name: a\n"
                     "    entry: touch zz\n    language: system\n    pass_filenames: false\n")}


@pytest.mark.parametrize("case", list(NAMED_FILES))
def test_f1_a_runners_option_names_its_build_file_elsewhere(tmp_path: Path,
                                                           case: str) -> None:
    """s48-gfix's new runners (nox, tox's envs, pre-commit: s48-greview H2, T1) guard their
    build file in the call's folder (``noxfile.py``, ``tox.ini``,
    ``.pre-commit-config.yaml``), not the one the entry's option names: under ``Bash(nox -f
    sub/noxfile.py)`` (``tox -c sub/tox.ini``, ``pre-commit run -c sub/cfg.yaml
    --all-files``), ``cp src/f sub/…`` is allowed and the entry runs it (nox 2024+, tox 4,
    pre-commit 4 from s48-greview's tools venv: ``SKILLGRANT_REVIEW_TOOLS``). (``make -f``,
    ``pytest -c``, ``mypy --config-file`` are in ``_FILE_OPTIONS``; just's ``-f``/``-d``,
    task's ``-t``/``-d``, mkdocs' ``-f`` are allowed alike: not installed here.)"""
    entry, path, harmless, text = NAMED_FILES[case]
    extra = _tool_path(entry.split()[0])
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {path: harmless, "src/f": text}, [f"cp src/f {path}", entry], extra=extra)
    assert denied is not None, "the hook allows the build file the entry names"




# --- F2: a runner's own build file under a name its STARTS lacks -----------------------------


#: (the entry, the project's build file under that name, its harmless text, the model's): tox
#: 4.21+ reads a native ``tox.toml``; SCons reads ``SConstruct.py`` (and ``Sconstruct.py``,
#: ``sconstruct.py``) where no ``SConstruct`` is; mkdocs reads ``mkdocs.yaml`` (gate-only:
#: not installed here).
START_NAMES = {
    "tox-toml": ("tox", "tox.toml",
                 'env_list = ["a"]\n[env.a]\nskip_install = true\n'
                 'commands = [["python", "-c", "pass"]]\n',
                 'env_list = ["a"]\n[env.a]\nskip_install = true\n'
                 'allowlist_externals = ["touch"]\ncommands = [["touch", "zz"]]\n'),
    "scons-py": ("scons", "SConstruct.py", "print(1)\n", "import os\nos.system('touch zz')\n")}


@pytest.mark.parametrize("case", list(START_NAMES))
def test_f2_a_runners_build_file_under_another_name(tmp_path: Path, case: str) -> None:
    """The project's build file is ``tox.toml`` (``SConstruct.py``); d88238e's STARTS for
    tox names ``tox.ini``, ``pyproject.toml``, ``setup.cfg`` (for scons ``SConstruct``,
    ``Sconstruct``, ``sconstruct``): under ``Bash(tox)`` (``Bash(scons)``), ``Bash(cp *)``,
    ``cp src/f tox.toml`` is allowed and the entry runs it (tox 4.67, SCons 4;
    ``SKILLGRANT_REVIEW_TOOLS``)."""
    entry, path, harmless, text = START_NAMES[case]
    extra = _tool_path(entry)
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {path: harmless, "src/f": text}, [f"cp src/f {path}", entry], extra=extra)
    assert denied is not None, "the hook allows the runner's build file"




# --- E1: a session value's word the shell joins from quoted parts ----------------------------


#: ``GIT_SSH_COMMAND`` values naming ``tools/ssh.sh`` (git runs the value through ``sh -c``)
#: where a quote or a backslash sits inside the word: the shell joins the parts into one path.
#: s48-gfix reads ``$(git rev-parse --show-toplevel)``, ``$(pwd)`` and ``$PWD`` exactly
#: (bb736d8), but ``envpaths._SEPARATORS`` splits a word at a quote: ``"$PWD"/tools/ssh.sh`` is
#: the words ``.`` and ``/tools/ssh.sh`` (absolute, no such file).
QUOTED_VALUES = {"toplevel-quoted": 'sh "$(git rev-parse --show-toplevel)"/tools/ssh.sh',
                 "pwd-quoted": 'sh "$PWD"/tools/ssh.sh',
                 "pwd-subst-quoted": 'sh "$(pwd)"/tools/ssh.sh',
                 "part-quoted": "sh 'tools'/ssh.sh", "backslash": "sh tools\\/ssh.sh"}


@pytest.mark.parametrize("case", list(QUOTED_VALUES))
def test_e1_a_session_value_quotes_part_of_a_path(tmp_path: Path, case: str) -> None:
    """The session's ``GIT_SSH_COMMAND`` holds a path the shell builds from quoted parts
    (``"$PWD"/tools/ssh.sh``: quoting only the variable is the usual idiom); plan ``Bash(git
    fetch)``, ``Bash(cp *)``, an ssh remote: ``cp src/x.sh tools/ssh.sh`` is allowed and ``git
    fetch`` runs it (payload ran)."""
    needs("git")
    denied = _case(tmp_path, ["Bash(git fetch)", "Bash(cp *)"], {"tools/.keep": ""},
                   ["cp src/x.sh tools/ssh.sh", "git fetch"],
                   "git remote add origin ssh://h.invalid/r",
                   extra={"GIT_SSH_COMMAND": QUOTED_VALUES[case]})
    assert denied is not None, "the hook allows the file a session value names"



# --- C5: an npmrc file the entry names (s48-gfix's C5b reads the folders' and the user's) ----


@pytest.mark.parametrize("option", ["--userconfig", "--globalconfig"])
def test_c5_npm_preloads_what_the_npmrc_its_entry_names_says(tmp_path: Path,
                                                            option: str) -> None:
    """``npm test --userconfig=ci.npmrc`` reads its settings from ``ci.npmrc``
    (``node-options=--require ./tools/pre.js``: every node of the scripts preloads it).
    s48-gfix reads the paths the ``.npmrc`` files of the folders, the user's and the global
    one name (C5b), not a file the entry's option names: ``cp src/p.js tools/pre.js`` is
    allowed and the entry runs it (real npm 11). (``--userconfig ./ci.npmrc`` apart denies
    its own entry: a cost.)"""
    needs("npm")
    entry = f"npm test {option}=ci.npmrc"
    files = {"package.json": '{"name": "a", "version": "1.0.0", '
                             '"scripts": {"test": "node -e 0"}}\n',
             "ci.npmrc": "node-options=--require ./tools/pre.js\n", "tools/pre.js": "\n",
             "src/p.js": "require('fs').writeFileSync('zz', '')\n"}
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                   ["cp src/p.js tools/pre.js", entry], extra=NPM_OFFLINE)
    assert denied is not None, "the hook allows the preload the entry's npmrc names"



# --- I1: an interpreter s48-gfix lets run under its own entry reads start files -------------


#: (the file a cp writes, its source): R reads ``.Renviron`` (its variables:
#: ``R_PROFILE_USER`` names the profile it runs) and ``.Rprofile`` (R code) from the folder it
#: starts in, else the home's; the home's ``.Rprofile`` is guarded, its ``.Renviron`` not.
R_STARTS = {"folder-rprofile": (".Rprofile", "src/rp"),
            "folder-renviron": (".Renviron", "src/renv"),
            "home-renviron": ("../home/.Renviron", "src/renv")}


@pytest.mark.parametrize("case", list(R_STARTS))
def test_i1_rscript_runs_the_profile_of_the_folder_it_starts_in(tmp_path: Path,
                                                                case: str) -> None:
    """s48-gfix lets ``Bash(Rscript tools/x.R)`` run under its own entry (the script
    guarded); R runs ``.Rprofile`` of the call's folder at start (``R_PROFILE_USER``, set in a
    ``.Renviron`` there or in the home, names another). ``cp src/… .Rprofile`` is allowed
    beside the entry and ``Rscript tools/x.R`` runs the payload (R 4.2, Debian's
    r-base-core)."""
    needs("Rscript")
    target, source = R_STARTS[case]
    files = {"tools/x.R": "cat(1)\n", "src/rp": 'system("touch zz")\n',
             "src/renv": "R_PROFILE_USER=src/rp\n"}
    denied = _case(tmp_path, ["Bash(Rscript tools/x.R)", "Bash(cp *)"], files,
                   [f"cp {source} {target}", "Rscript tools/x.R"])
    assert denied is not None, "the hook allows a start file of R"




# --- C1c: cmake --build re-reads the sources FetchContent put below the build folder ---------


def test_c1c_cmake_build_reconfigures_from_a_fetched_dependency(tmp_path: Path) -> None:
    """``FetchContent`` extracts a dependency into ``build/_deps/dep-src`` at configure time
    and adds its ``CMakeLists.txt`` (cmake code: ``execute_process`` runs a program); each is
    an input of the configuration, so ``cmake --build build`` re-runs cmake when it is newer
    than the build files. s48-gfix guards cmake's generated files in each folder of the build
    tree (``CMakeFiles/``, ``cmake_install.cmake``: C1b), not the fetched sources: ``cp
    src/dcm build/_deps/dep-src/CMakeLists.txt`` is allowed and ``cmake --build build`` runs
    it (cmake 3.25; the dependency a tar in the project, no network). Plan ``Bash(cmake
    --build build)``, ``Bash(cp *)``."""
    needs("cmake", "make", "tar")
    files = {"CMakeLists.txt": "cmake_minimum_required(VERSION 3.14)\nproject(p NONE)\n"
                               "include(FetchContent)\n"
                               "FetchContent_Declare(dep URL ${CMAKE_SOURCE_DIR}/dep.tar)\n"
                               "FetchContent_MakeAvailable(dep)\n",
             "dep/CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\nproject(dep NONE)\n",
             "src/dcm": "cmake_minimum_required(VERSION 3.10)\nproject(dep NONE)\n"
                        "execute_process(COMMAND touch zz)\n"}
    setup = ("tar -cf dep.tar dep && rm -r dep && cmake -S . -B build -G 'Unix Makefiles' && "
             "cmake --build build")
    denied = _case(tmp_path, ["Bash(cmake --build build)", "Bash(cp *)"], files,
                   ["cp src/dcm build/_deps/dep-src/CMakeLists.txt", "cmake --build build"],
                   setup, in_place=True)
    assert denied is not None, "the hook allows a fetched dependency's CMakeLists.txt"




# --- Y2: yarn 2+ preloads the project's Plug'n'Play loader into every script's node ---------


def test_y2_yarn_preloads_its_pnp_loader(tmp_path: Path) -> None:
    """Yarn 2+ (Plug'n'Play, its default) writes ``.pnp.cjs`` (and ``.pnp.loader.mjs``) at
    ``yarn install`` and runs each script with ``NODE_OPTIONS=--require <project>/.pnp.cjs``.
    The node runners' STARTS guard ``.yarnrc.yml``, ``.yarn/``, ``yarn.lock``, not these:
    under ``Bash(yarn test)``, ``Bash(cp *)``, ``cp src/p.cjs .pnp.cjs`` is allowed and ``yarn
    test`` preloads it (yarn 4.18 from the npm registry: ``npm install --prefix DIR
    @yarnpkg/cli-dist@4``, a ``yarn`` script running its ``bin/yarn.js`` in
    ``SKILLGRANT_REVIEW_TOOLS``)."""
    extra = _tool_path("yarn", "4.")
    extra.update({"YARN_ENABLE_TELEMETRY": "0", "YARN_ENABLE_GLOBAL_CACHE": "0"})
    files = {"package.json": '{"name": "a", "version": "1.0.0", '
                             '"scripts": {"test": "node -e 0"}}\n', "yarn.lock": "",
             "src/p.cjs": "require('fs').writeFileSync('zz', '')\n"}
    denied = _case(tmp_path, ["Bash(yarn test)", "Bash(cp *)"], files,
                   ["cp src/p.cjs .pnp.cjs", "yarn test"], "yarn install", extra=extra)
    assert denied is not None, "the hook allows yarn's Plug'n'Play loader to be rewritten"




# --- P1: pnpm 10 reads its settings from pnpm-workspace.yaml ---------------------------------


#: pnpm-workspace.yaml settings (pnpm 10 reads the `.npmrc` settings there, camel-cased) that
#: run code: node's options for each script, the pnpmfile it loads, the shell running scripts.
PNPM_SETTINGS = {"node-options": 'nodeOptions: "--require ./src/p.js"\n',
                 "pnpmfile": "pnpmfile: src/p.js\n", "script-shell": "scriptShell: src/sh\n"}


@pytest.mark.parametrize("case", list(PNPM_SETTINGS))
def test_p1_pnpm_runs_what_its_workspace_settings_name(tmp_path: Path, case: str) -> None:
    """pnpm 10 reads its settings from ``pnpm-workspace.yaml`` (``nodeOptions``,
    ``pnpmfile``, ``scriptShell``, …: what ``.npmrc`` held, which is guarded with the paths
    its values name: s47 C5b). Under ``Bash(pnpm test)``, ``Bash(cp *)``, ``cp src/ws.yaml
    pnpm-workspace.yaml`` is allowed and ``pnpm test`` runs the payload (pnpm 10.34 from the
    npm registry: ``npm install --prefix DIR pnpm@10``, ``DIR/node_modules/.bin`` in
    ``SKILLGRANT_REVIEW_TOOLS``)."""
    extra = _tool_path("pnpm", "10.")
    files = {"package.json": '{"name": "a", "version": "1.0.0", '
                             '"scripts": {"test": "node -e 0"}}\n',
             "src/p.js": "require('fs').writeFileSync('zz', '')\n",
             "src/sh": "#!/bin/sh\ntouch zz\n", "src/ws.yaml": PNPM_SETTINGS[case]}
    denied = _case(tmp_path, ["Bash(pnpm test)", "Bash(cp *)"], files,
                   ["cp src/ws.yaml pnpm-workspace.yaml", "pnpm test"], "chmod +x src/sh",
                   extra=extra)
    assert denied is not None, "the hook allows pnpm's settings file to be written"




# --- S3b: an interpreter fed its script through a pipe (a9cd516 reads a `<` redirection) -----


#: (the plan's entry, the script it feeds, the payload): ``cat FILE | INTERPRETER`` feeds the
#: interpreter's standard input as ``INTERPRETER < FILE`` does.
PIPED_SCRIPTS = {"bash": ("cat tools/x.sh | bash", "tools/x.sh", "touch zz\n"),
                 "sh-s": ("cat tools/x.sh | sh -s", "tools/x.sh", "touch zz\n"),
                 "python3": ("cat tools/gen.py | python3 -", "tools/gen.py",
                             "open('zz', 'w').close()\n")}


@pytest.mark.parametrize("case", list(PIPED_SCRIPTS))
def test_s3b_the_plans_script_piped_into_an_interpreter(tmp_path: Path, case: str) -> None:
    """a9cd516 guards an interpreter's input redirection target as its script (s48-greview
    S3: ``bash < tools/x.sh``); the same script fed through a pipe from ``cat`` is not:
    under ``Bash(cat tools/x.sh | bash)``, ``Bash(cp *)``, ``cp src/p tools/x.sh`` is allowed
    and the entry runs it (payload ran)."""
    entry, target, text = PIPED_SCRIPTS[case]
    needs(entry.split("| ")[1].split()[0])
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], {target: "\n", "src/p": text},
                   [f"cp src/p {target}", entry])
    assert denied is not None, "the hook allows a write to the script the entry pipes"




# --- S4b: a shell's `-c` text moving into a folder, the shell given options first ----------


#: Entries running ``cd sub && make`` through a shell with options before its code (a login
#: shell, ``-e``, ``-o pipefail``): a9cd516 reads the ``cd`` of ``sh -c 'cd sub && make'``
#: (s48-greview S4) only where ``-c`` is the shell's first word.
OPTIONED_SHELLS = {"lc": "bash -lc 'cd sub && make'", "ec": "bash -ec 'cd sub && make'",
                   "e-c": "sh -e -c 'cd sub && make'",
                   "o-pipefail": "bash -o pipefail -c 'cd sub && make'",
                   "norc": "bash --norc -c 'cd sub && make'",
                   "c-dashdash": "bash -c -- 'cd sub && make'"}


@pytest.mark.parametrize("case", list(OPTIONED_SHELLS))
def test_s4b_a_shells_code_moves_into_a_folder_after_options(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(bash -lc 'cd sub && make')`` (…), ``Bash(cp *)``: the top Makefile is
    guarded, ``cp src/mk sub/Makefile`` is allowed, and the entry's make reads it (payload
    ran); ``sh -c 'cd sub && make'`` denies the cp."""
    entry = OPTIONED_SHELLS[case]
    needs(entry.split()[0], "make")
    files = {"Makefile": "all:\n\t@echo ok\n", "sub/Makefile": "all:\n\t@echo ok\n",
             "src/mk": "X := $(shell touch zz)\nall:\n\t@echo hi\n"}
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                   ["cp src/mk sub/Makefile", entry])
    assert denied is not None, "the hook allows the makefile the shell's make reads"



# --- E2: a session value trimming $PWD (read as `.`) -----------------------------------------


def test_e2_a_session_value_trims_the_folder_it_runs_in(tmp_path: Path) -> None:
    """bb736d8 reads ``${NAME%pattern}`` by trimming the value, and ``$PWD`` as ``.``; a
    trimmed ``${PWD%/*}`` (the folder above: ``sh ${PWD%/*}/shared/ssh.sh`` names a sibling
    of the project) becomes ``.`` again, and ``./shared/ssh.sh`` is guarded in the project in
    its stead. Session ``GIT_SSH_COMMAND='sh ${PWD%/*}/shared/ssh.sh'``, plan ``Bash(git
    fetch)``, ``Bash(cp *)``, ``Bash(mkdir *)``, an ssh remote: ``mkdir -p ../shared``, ``cp
    src/x.sh ../shared/ssh.sh`` are allowed, ``git fetch`` runs it (payload ran)."""
    needs("git")
    denied = _case(tmp_path, ["Bash(git fetch)", "Bash(cp *)", "Bash(mkdir *)"], {},
                   ["mkdir -p ../shared", "cp src/x.sh ../shared/ssh.sh", "git fetch"],
                   "git remote add origin ssh://h.invalid/r",
                   extra={"GIT_SSH_COMMAND": "sh ${PWD%/*}/shared/ssh.sh"})
    assert denied is not None, "the hook allows the file a trimmed $PWD names"


# --- B1: `pyproject-build`, the `build` front end's own program name --------------------------


@pytest.mark.parametrize("entry", ["pyproject-build -n", "pyproject-build -n sub"])
def test_b1_pyproject_build_runs_the_setup_py_it_builds(tmp_path: Path, entry: str) -> None:
    """d88238e guards ``python -m build``'s start files (``pyproject.toml``, ``setup.py``,
    ``setup.cfg``: s48-greview P3), not those of the same front end run by its program
    name ``pyproject-build`` (the build package's console script): under ``Bash(pyproject-build
    -n)``, ``Bash(cp *)``, ``cp src/setup.py setup.py`` is allowed and the entry runs it
    (``-n``: no isolated env, setuptools of the tools venv; build 1.x from s48-greview's tools
    venv: ``SKILLGRANT_REVIEW_TOOLS``)."""
    extra = _tool_path("pyproject-build")
    target = "sub/setup.py" if entry.endswith("sub") else "setup.py"
    files = {"setup.py": "from setuptools import setup\nsetup(name='p')\n",
             "sub/setup.py": "from setuptools import setup\nsetup(name='p')\n",
             "src/setup.py": "open('zz', 'w').close()\nfrom setuptools import setup\n"
                             "setup(name='p')\n"}
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                   [f"cp src/setup.py {target}", entry], extra=extra)
    assert denied is not None, "the hook allows the setup.py pyproject-build runs"


# --- H2b: SCons' top folder elsewhere than the call's (-C, -f, -u) ----------------------------


#: (the entry, the file a cp writes): SCons reads ``SConstruct`` and ``site_scons/`` in its
#: top folder: the folder ``-C`` names, the folder of the SConstruct ``-f`` names, or the
#: first folder up holding an ``SConstruct`` for ``-u`` (``-U``, ``-D``).
SCONS_TOPS = {"C-site": ("scons -C sub", "sub/site_scons/site_init.py"),
              "f-site": ("scons -f sub/SConstruct", "sub/site_scons/site_init.py"),
              "u-sconstruct": ("cd lib && scons -u", "SConstruct"),
              "u-site": ("cd lib && scons -u", "site_scons/site_init.py")}


@pytest.mark.parametrize("case", list(SCONS_TOPS))
def test_h2b_scons_reads_the_site_folder_of_its_top(tmp_path: Path, case: str) -> None:
    """1ab59b5 reads scons' build files in the call's folder only (no longer each folder up);
    SCons' top folder is another one under ``-C sub``, ``-f sub/SConstruct`` or ``cd lib &&
    scons -u`` (the folder up holding an ``SConstruct``): ``cp src/p.py <its site_init.py or
    SConstruct>`` is allowed and the entry runs it (SCons 4; ``SKILLGRANT_REVIEW_TOOLS``).
    Plan ``Bash(<entry>)``, ``Bash(cp *)``, ``Bash(mkdir *)``."""
    entry, target = SCONS_TOPS[case]
    extra = _tool_path("scons")
    files = {"SConstruct": "print(1)\n", "sub/SConstruct": "print(2)\n", "lib/.keep": "",
             "site_scons/.keep": "", "sub/site_scons/.keep": "",
             "src/p.py": "import os\nos.system('touch zz')\n"}
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)", "Bash(mkdir *)"], files,
                   [f"cp src/p.py {target}", entry], extra=extra)
    assert denied is not None, "the hook allows a file of SCons' top folder"




# --- M2: meson's source folder given as an operand ---------------------------------------------


def test_m2_meson_setup_reads_the_source_folder_it_names(tmp_path: Path) -> None:
    """``meson setup BUILD SOURCE`` reads ``SOURCE/meson.build`` (meson code:
    ``run_command`` runs a program); d88238e guards ``meson.build`` in the call's folder and
    ``-C``'s (s48-greview H2), not the source folder operand: under ``Bash(meson setup build
    proj)``, ``Bash(cp *)``, ``cp src/mb proj/meson.build`` is allowed and the entry runs it
    (meson 1.x from s48-greview's tools venv, ninja: ``SKILLGRANT_REVIEW_TOOLS``)."""
    extra = _tool_path("meson")
    needs("ninja")
    files = {"proj/meson.build": "project('p')\n",
             "src/mb": "project('p')\nrun_command('touch', 'zz', check: true)\n"}
    denied = _case(tmp_path, ["Bash(meson setup build proj)", "Bash(cp *)"], files,
                   ["cp src/mb proj/meson.build", "meson setup build proj"], extra=extra)
    assert denied is not None, "the hook allows the meson.build meson setup reads"




# --- R1c: env's --split-string long spelling ---------------------------------------------------


def test_r1c_env_split_string_runs_the_program_it_holds(tmp_path: Path) -> None:
    """``env -S "make test"`` is read for the program its string starts (the Makefile is
    guarded); its long spelling ``env --split-string="make test"`` is not: under that entry
    and ``Bash(cp *)``, ``cp src/mk Makefile`` is allowed and the entry's make reads it
    (payload ran)."""
    needs("env", "make")
    entry = 'env --split-string="make test"'
    denied = _case(tmp_path, [f"Bash({entry})", "Bash(cp *)"],
                   {"Makefile": MAKEFILE, "src/mk": "X := $(shell touch zz)\ntest:\n\t@echo hi\n"},
                   ["cp src/mk Makefile", entry])
    assert denied is not None, "the hook allows the Makefile env's string runs"

