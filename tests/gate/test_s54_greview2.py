"""Review s54 (s54-greview2) of s54-gfix2 (issue 29: a write through a link counts as a write
to the guarded name the link holds; the folders a runner really collects; the modules python and
pytest import first; git directories without ``.git``; jest's ``__mocks__``). Each case proves
with real bash and the real programs (GNU make 4.3, python3 3.11/pytest 9, node 20, bun 1.4.5,
jest 29.7, git 2.39, GNU tar) in a scratch project that the calls run the payload (``touch zz``,
``open('zz', 'w')``), then asks the printed hook for each call in turn as Claude Code 2.1.332's
Bash tool runs them (``test_s53_greview._session``: the folder a call leaves kept for the next,
``CLAUDE_PROJECT_DIR`` the project): the hook allowing them all is the finding, a strict xfail
row of ``OPEN`` while it is open. A case the change holds is a plain test pinning it.

Every payload only touches a file."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, hooked_project, needs
from test_s53_greview import MAKE_PAYLOAD, PY_PAYLOAD, _session

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail.
OPEN = LeftOpen()
_open = OPEN.add

#: A makefile recursing into ``sub`` (whose Makefile the cases reach through links).
RECURSIVE = "test:\n\t-$(MAKE) -C sub test\n"
#: A harmless makefile.
QUIET = "test:\n\t@echo ok\n"
#: bun 1.4.5 as the runtime's installer keeps it.
BUN = Path.home() / ".cache/skillgrant-runtime/bun-1.4.5/package/bin"


# --- L: a start file reached through a link the session re-aims or fills -----------------------

#: Each case: the plan's entries, the project's files, its links (name: target), the calls.
#: ``sub/Makefile`` is a link (git keeps links) to a file of no guarded name; the calls put
#: the payload where make then reads it through the link.
LINKS = {
    # the link's chain passes through a folder link `cur` the session re-aims (`ln -sfn`): the
    # payload was written where no guarded link led at the time
    "re-aimed-middle-link": (
        ["Bash(make test)", "Bash(cp *)", "Bash(ln *)"],
        {"Makefile": RECURSIVE, "v1/rules": QUIET, "v2/.keep": ""},
        {"cur": "v1", "sub/Makefile": "../cur/rules"},
        ["cp src/p v2/rules", "ln -sfn v2 cur", "make test"]),
    # the folder the chain leads to is swapped by two moves
    "folder-swapped-by-moves": (
        ["Bash(make test)", "Bash(cp *)", "Bash(mv *)"],
        {"Makefile": RECURSIVE, "v1/rules": QUIET, "v2/.keep": ""},
        {"sub/Makefile": "../v1/rules"},
        ["cp src/p v2/rules", "mv v1 old", "mv v2 v1", "make test"]),
    # a link to a file in a folder not there yet, the folder copied in whole
    "dangling-folder-copied-in": (
        ["Bash(make test)", "Bash(cp *)"],
        {"Makefile": RECURSIVE, "pay/rules": MAKE_PAYLOAD},
        {"sub/Makefile": "../later/rules"},
        ["cp -r pay later", "make test"]),
    "dangling-folder-moved-in": (
        ["Bash(make test)", "Bash(mv *)"],
        {"Makefile": RECURSIVE, "pay/rules": MAKE_PAYLOAD},
        {"sub/Makefile": "../later/rules"},
        ["mv pay later", "make test"]),
    "dangling-file-copied": (
        ["Bash(make test)", "Bash(cp *)", "Bash(mkdir *)"],
        {"Makefile": RECURSIVE, "shared/.keep": ""},
        {"sub/Makefile": "../later/rules"},
        ["mkdir later", "cp src/p later/rules", "make test"]),
    # a link to a file outside the project, written there
    "file-link-out-of-the-project": (
        ["Bash(make test)", "Bash(cp *)"],
        {"Makefile": RECURSIVE, "../ext/rules": QUIET},
        {"sub/Makefile": "../../ext/rules"},
        ["cp src/p ../ext/rules", "make test"]),
    # a folder link out of the project, its Makefile written there
    "folder-link-out-of-the-project": (
        ["Bash(make test)", "Bash(cp *)"],
        {"Makefile": RECURSIVE, "../ext/sub/Makefile": QUIET},
        {"sub": "../ext/sub"},
        ["cp src/away ../ext/sub/Makefile", "make test"]),
    # a chain through `..` after a folder link: the real path is not the lexical one
    "dot-dot-after-a-folder-link": (
        ["Bash(make test)", "Bash(cp *)"],
        {"Makefile": RECURSIVE, "deep/er/.keep": "", "deep/rules": QUIET},
        {"x": "deep/er", "sub/Makefile": "../x/../rules"},
        ["cp src/p deep/rules", "make test"]),
    # perl's start folder a link to a vendored folder: the module written in its target
    "start-folder-linked-to-a-vendored-folder": (
        ["Bash(make test)", "Bash(cp *)"],
        {"Makefile": "test:\n\tcd sub && prove -l t\n",
         "sub/t/a.t": "use Test::More;\nok(1);\ndone_testing;\n", "perl/Test/.keep": ""},
        {"sub/lib": "../perl"},
        ["cp src/perl perl/Test/More.pm", "make test"]),
    # a hard link to the start file, brought by a tar member of a name no guard holds
    "hard-link-from-a-tar-member": (
        ["Bash(make test)", "Bash(cp *)", "Bash(tar *)"],
        {"Makefile": RECURSIVE, "sub/Makefile": QUIET, "shared/.keep": ""},
        {},
        ["tar -xf src/t.tar", "cp src/p shared/rules", "make test"]),
    "hard-link-by-ln": (
        ["Bash(make test)", "Bash(cp *)", "Bash(ln *)"],
        {"Makefile": RECURSIVE, "sub/Makefile": QUIET, "shared/.keep": ""},
        {},
        ["ln sub/Makefile shared/rules", "cp src/p shared/rules", "make test"]),
    "hard-link-by-cp-l": (
        ["Bash(make test)", "Bash(cp *)"],
        {"Makefile": RECURSIVE, "sub/Makefile": QUIET, "shared/.keep": ""},
        {},
        ["cp -l sub/Makefile shared/rules", "cp src/p shared/rules", "make test"]),
    "symbolic-link-by-cp-s": (
        ["Bash(make test)", "Bash(cp *)"],
        {"Makefile": RECURSIVE, "sub/Makefile": QUIET, "shared/.keep": ""},
        {},
        ["cp -s {P}/sub/Makefile shared/rules", "cp src/p shared/rules", "make test"]),
    # the middle link re-aimed by a move of another link over it
    "re-aimed-by-a-move": (
        ["Bash(make test)", "Bash(cp *)", "Bash(ln *)", "Bash(mv *)"],
        {"Makefile": RECURSIVE, "v1/rules": QUIET, "v2/.keep": ""},
        {"cur": "v1", "sub/Makefile": "../cur/rules"},
        ["cp src/p v2/rules", "ln -s v2 next", "mv -T next cur", "make test"]),
    # the folder holding the chain's middle link swapped in one call (each move judged on the
    # state before the call: the folder moved is above no link's real target)
    "middle-links-folder-swapped-in-one-call": (
        ["Bash(make test)", "Bash(cp *)", "Bash(ln *)", "Bash(mv *)", "Bash(mkdir *)"],
        {"Makefile": RECURSIVE, "v1/rules": QUIET, "v2/.keep": "", "a/.keep": ""},
        {"a/b": "../v1", "sub/Makefile": "../a/b/rules"},
        ["cp src/p v2/rules", "mkdir a2", "ln -s ../v2 a2/b", "mv a a_old && mv a2 a",
         "make test"]),
    # a link two steps up the chain re-aimed: its own target (r1) is above no link's real
    # target (v1/rules), the chain a/b/rules passes through it
    "upper-link-re-aimed": (
        ["Bash(make test)", "Bash(cp *)", "Bash(ln *)"],
        {"Makefile": RECURSIVE, "v1/rules": QUIET, "v2/.keep": "", "r2/.keep": ""},
        {"r1/b": "../v1", "a": "r1", "sub/Makefile": "../a/b/rules"},
        ["cp src/p v2/rules", "ln -s ../v2 r2/b", "ln -sfn r2 a", "make test"]),
    # a hard link made before the session (a tarball's, `cp -al`'s): no name tells it
    "hard-link-before-the-session": (
        ["Bash(make test)", "Bash(cp *)"],
        {"Makefile": RECURSIVE, "sub/Makefile": QUIET, "shared/.keep": ""},
        {},
        ["cp src/p shared/rules", "make test"]),
    # a recipe's make beside the project, its Makefile a link into the project
    "makefile-beside-linked-in": (
        ["Bash(make test)", "Bash(cp *)"],
        {"Makefile": "test:\n\t-$(MAKE) -C ../ext test\n", "shared/rules": QUIET},
        {"../ext/Makefile": "../project/shared/rules"},
        ["cp src/beside shared/rules", "make test"]),
    "link-beside-the-project-pointing-in": (
        ["Bash(make test)", "Bash(cp *)", "Bash(ln *)"],
        {"Makefile": RECURSIVE, "sub/Makefile": QUIET, "../ext/.keep": ""},
        {},
        ["ln -s {P}/sub/Makefile ../ext/m", "cp src/p ../ext/m", "make test"]),
}
#: A tar holding one member, ``shared/rules``, a hard link to ``sub/Makefile`` (GNU tar links
#: the member to the file the project holds).
TAR_SETUP = ("python3 -c \"import tarfile; t = tarfile.open('src/t.tar', 'w'); "
             "i = tarfile.TarInfo('shared/rules'); i.type = tarfile.LNKTYPE; "
             "i.linkname = 'sub/Makefile'; t.addfile(i); t.close()\"")
#: The payload of a makefile make reads in ``../ext/sub``: it touches the project's ``zz``.
AWAY = "test:\n\ttouch ../../project/zz\n"
# (makefile-beside-linked-in: held on merged main since s54-gfix, makereads: the makefile a
# recipe's `$(MAKE) -C ../ext` reads is guarded as its real path)
PERL_PAYLOAD = ("package Test::More; system('touch zz'); sub ok {} sub done_testing {} "
                "sub import {} 1;\n")


@pytest.mark.parametrize("case", LINKS)
def test_l_a_start_file_reached_through_a_link(case: str, tmp_path: Path) -> None:
    """The calls put the payload where make (or prove) then reads a start file through a
    link; the hook allowing them all is the hole."""
    needs("make", "prove", "tar")
    entries, files, links, calls = LINKS[case]
    files = {**files, "src/p": MAKE_PAYLOAD, "src/perl": PERL_PAYLOAD, "src/away": AWAY,
             "src/beside": "test:\n\ttouch ../project/zz\n"}
    setup = TAR_SETUP if "tar" in case else "ln -f sub/Makefile shared/rules" if (
        case == "hard-link-before-the-session") else ""
    assert _session(tmp_path, entries, files, calls, links=links, setup=setup) is not None


# --- P: a module python or pytest imports first ---------------------------------------------

#: A test importing a standard module pytest itself does not import.
IMPORTS = "import colorsys\n\ndef test_a():\n    pass\n"
#: Each case: the plan's entries, the files, the links, the calls.
MODULES = {
    # a package's __init__.py removed after the module's copy: pytest's basedir moves up to pkg/
    "init-removed-after-the-copy": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)", "Bash(rm *)"],
        {"pkg/__init__.py": "", "pkg/tests/__init__.py": "", "pkg/tests/test_a.py": IMPORTS},
        {}, ["cp src/p pkg/colorsys.py", "rm pkg/__init__.py", "python3 -m pytest -q"]),
    # the same with the package's __init__.py renamed away
    "init-renamed-after-the-copy": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)", "Bash(mv *)"],
        {"pkg/__init__.py": "", "pkg/tests/__init__.py": "", "pkg/tests/test_a.py": IMPORTS},
        {}, ["cp src/p pkg/colorsys.py", "mv pkg/__init__.py pkg/init.txt",
             "python3 -m pytest -q"]),
    # a package's folder (with __init__.py) put on sys.path by the ini's pythonpath
    "ini-pythonpath-a-package": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"pytest.ini": "[pytest]\npythonpath = mypkg\n", "mypkg/__init__.py": "",
         "tests/test_a.py": IMPORTS},
        {}, ["cp src/p mypkg/colorsys.py", "python3 -m pytest -q"]),
    # a recipe's python run in a package's folder: its folder is sys.path[0]
    "recipe-in-a-package": (
        ["Bash(make test)", "Bash(cp *)"],
        {"Makefile": "test:\n\tcd mypkg && python3 -m pytest -q\n", "mypkg/__init__.py": "",
         "mypkg/test_a.py": IMPORTS},
        {}, ["cp src/p mypkg/colorsys.py", "make test"]),
    # pytest's `pythonpath` setting puts helpers/ first
    "ini-pythonpath": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"pytest.ini": "[pytest]\npythonpath = helpers\n", "helpers/.keep": "",
         "tests/test_a.py": IMPORTS},
        {}, ["cp src/p helpers/colorsys.py", "python3 -m pytest -q"]),
    # a conftest.py in a folder with no test: pytest inserts its folder
    "conftest-folder": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"docs/conftest.py": "", "tests/test_a.py": IMPORTS},
        {}, ["cp src/p docs/colorsys.py", "python3 -m pytest -q"]),
    # pytest's ini above the project: its folder is the rootdir and conftest's cut
    "ini-and-conftest-above": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"tests/test_a.py": "def test_a():\n    pass\n"},
        {}, ["cp src/ini ../pytest.ini", "cp src/p ../conftest.py", "python3 -m pytest -q"]),
    # a script run through a link: python puts its real folder first
    "script-through-a-link": (
        ["Bash(python3 tools/run.py)", "Bash(cp *)"],
        {"scripts/real.py": "import colorsys\n"},
        {"tools/run.py": "../scripts/real.py"},
        ["cp src/p scripts/colorsys.py", "python3 tools/run.py"]),
    # a recipe's `python3 -m pytest` in sub: the runner's package (not a module file) there
    "recipe-runner-package": (
        ["Bash(make test)", "Bash(cp *)", "Bash(mkdir *)"],
        {"Makefile": "test:\n\tcd sub && python3 -m pytest -q\n",
         "sub/test_a.py": "def test_a():\n    pass\n"},
        {}, ["mkdir sub/pytest", "cp src/p sub/pytest/__init__.py", "make test"]),
    # a plugin pytest loads by its entry point at every start (hypothesis's, installed beside
    # pytest here), imported from sys.path[0]: the recipe's folder
    "recipe-entry-point-plugin": (
        ["Bash(make test)", "Bash(cp *)"],
        {"Makefile": "test:\n\tcd sub && python3 -m pytest -q\n",
         "sub/test_a.py": "def test_a():\n    pass\n"},
        {}, ["cp src/p sub/_hypothesis_pytestplugin.py", "make test"]),
    # a package of a standard module's name made in pytest's test folder from a folder of
    # another name: the copy's, the move's, the link's own path is a folder `colorsys`
    "package-copied-in-under-the-name": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"tests/test_a.py": IMPORTS, "pay/__init__.py": PY_PAYLOAD},
        {}, ["cp -r pay tests/colorsys", "python3 -m pytest -q"]),
    "package-moved-in-under-the-name": (
        ["Bash(python3 -m pytest -q)", "Bash(mv *)"],
        {"tests/test_a.py": IMPORTS, "pay/__init__.py": PY_PAYLOAD},
        {}, ["mv pay tests/colorsys", "python3 -m pytest -q"]),
    "package-linked-in-under-the-name": (
        ["Bash(python3 -m pytest -q)", "Bash(ln *)"],
        {"tests/test_a.py": IMPORTS, "pay/__init__.py": PY_PAYLOAD},
        {}, ["ln -s ../pay tests/colorsys", "python3 -m pytest -q"]),
    "entry-point-plugin-in-the-calls-folder": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"tests/test_a.py": "def test_a():\n    pass\n"},
        {}, ["cp src/p _hypothesis_pytestplugin.py", "python3 -m pytest -q"]),
    # a module a plugin imports at its load (pytest-benchmark's pygments here): no entry
    # point names it
    "plugin-dependency-in-the-calls-folder": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"tests/test_a.py": "def test_a():\n    pass\n"},
        {}, ["cp src/p pygments.py", "python3 -m pytest -q"]),
}



@pytest.mark.parametrize("case", MODULES)
def test_p_a_module_python_imports_first(case: str, tmp_path: Path) -> None:
    """The calls put ``colorsys.py`` (or a conftest) where python or pytest imports it."""
    needs("python3", "pytest", "make")
    if "plugin" in case and subprocess.run(
            ["python3", "-c", "import _hypothesis_pytestplugin, pytest_benchmark"],
            capture_output=True,
            check=False).returncode:
        pytest.skip("hypothesis's pytest plugin is not installed beside python3's pytest")
    entries, files, links, calls = MODULES[case]
    files = {**files, "src/p": PY_PAYLOAD, "src/ini": "[pytest]\n"}
    assert _session(tmp_path, entries, files, calls, links=links) is not None


# --- G: a folder git takes as its git directory ---------------------------------------------

#: The settings that make git run a command at ``git status`` (core.fsmonitor), with the
#: working tree at the folder above.
GIT_CONFIG = ("[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n"
              "\tfsmonitor = touch zz; false\n")
GITS = {
    # git run in sub/deep: discovery goes up and takes sub (HEAD, objects/, refs/) as one
    "discovered-above-the-run-folder": (
        {"Makefile": "test:\n\tcd sub/deep && git status --porcelain\n", "sub/deep/.keep": ""},
        ["cp -r out sub/objects", "cp -r out sub/refs", "cp src/head sub/HEAD",
         "cp src/cfg sub/config", "make test"]),
    # the whole layout written in one call: each write is judged on the state before it,
    # where no HEAD, objects or refs is beside it yet
    "layout-in-one-call": (
        {"Makefile": "test:\n\tcd sub && git status --porcelain\n", "sub/.keep": ""},
        ["cp -r out sub/objects && cp -r out sub/refs && cp src/head sub/HEAD && "
         "cp src/cfg sub/config", "make test"]),
    # the layout brought by one archive's members
    "layout-from-a-tar": (
        {"Makefile": "test:\n\tcd sub && git status --porcelain\n", "sub/.keep": ""},
        ["tar -xf src/g.tar", "make test"]),
    # two copies of two entries each: each written entry is judged with the folder's others
    # as they are before the call (objects/ is written beside no refs/, and refs/ beside no
    # objects/)
    "layout-by-two-copies": (
        {"Makefile": "test:\n\tcd sub && git status --porcelain\n", "sub/.keep": "",
         "a/HEAD": "ref: refs/heads/main\n", "a/config": GIT_CONFIG, "b/objects/.keep": "",
         "b/refs/.keep": ""},
        ["cp a/HEAD a/config sub/", "cp -r b/objects b/refs sub/", "make test"]),
    # HEAD and config first, then both folders by one mkdir
    "layout-completed-by-one-mkdir": (
        {"Makefile": "test:\n\tcd sub && git status --porcelain\n", "sub/.keep": "",
         "a/HEAD": "ref: refs/heads/main\n", "a/config": GIT_CONFIG},
        ["cp a/HEAD a/config sub/", "mkdir sub/objects sub/refs", "make test"]),
    # objects/ and refs/ made as parents of what mkdir -p makes (each call its own)
    "layout-completed-by-mkdir-parents": (
        {"Makefile": "test:\n\tcd sub && git status --porcelain\n", "sub/.keep": "",
         "a/HEAD": "ref: refs/heads/main\n", "a/config": GIT_CONFIG},
        ["cp a/HEAD a/config sub/", "mkdir -p sub/objects/info", "mkdir -p sub/refs/heads",
         "make test"]),
    # a `.git` file naming a git folder elsewhere
    "git-file-in-a-folder": (
        {"Makefile": "test:\n\tcd sub && git status --porcelain\n", "sub/.keep": "",
         "store/.keep": ""},
        ["cp -r out store/objects", "cp -r out store/refs", "cp src/cfg store/config",
         "cp src/head store/HEAD", "cp src/gitfile sub/.git", "make test"]),
}

@pytest.mark.parametrize("case", GITS)
def test_g_a_folder_git_takes_as_its_git_directory(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(make test)`` (a recipe running git), ``Bash(cp *)``: git runs fsmonitor."""
    needs("make", "git")
    files, calls = GITS[case]
    files = {**files, "out/.keep": "", "src/head": "ref: refs/heads/main\n",
             "src/cfg": GIT_CONFIG,
             "src/gitfile": "gitdir: ../store\n"}
    setup = ("mkdir -p /tmp/$$/sub/objects /tmp/$$/sub/refs && cp src/head /tmp/$$/sub/HEAD && "
             "cp src/cfg /tmp/$$/sub/config && tar -C /tmp/$$ -cf src/g.tar sub/HEAD "
             "sub/objects sub/refs sub/config && rm -r /tmp/$$")
    assert _session(tmp_path, ["Bash(make test)", "Bash(cp *)", "Bash(tar *)",
                                    "Bash(mkdir *)"], files, calls,
                    setup=setup) is not None


# --- R: what a runner's settings name ---------------------------------------------------------

JS_PAYLOAD = "require('fs').writeFileSync(process.cwd() + '/zz', '');\nmodule.exports = {};\n"
RUNNERS = {
    "bunfig-test-preload": (
        ["Bash(bun test)", "Bash(cp *)"],
        {"bunfig.toml": '[test]\npreload = ["./setup/s.js"]\n', "setup/s.js": "\n",
         "a.test.js": "import { test } from 'bun:test';\ntest('a', () => {});\n"},
        ["cp src/js setup/s.js", "bun test"]),
}


@pytest.mark.parametrize("case", RUNNERS)
def test_r_a_file_a_runners_settings_name(case: str, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The calls put the payload in a file the runner's settings name as code."""
    if not (BUN / "bun").exists():
        pytest.skip("bun 1.4.5 is not installed")
    monkeypatch.setenv("PATH", f"{BUN}:{os.environ['PATH']}")
    entries, files, calls = RUNNERS[case]
    assert _session(tmp_path, entries, {**files, "src/js": JS_PAYLOAD}, calls) is not None


# --- batch 2: a venv of another name, pytest's collection settings, jest's roots, git's includes

#: A ``.pth`` line python runs at its start.
PTH_PAYLOAD = "import os; open('zz', 'w').close()\n"
#: Each case: the plan's entries, the files, the setup (bash), the calls.
COLLECTED = {
    # the plan's python is a venv's not named .venv: its site-packages' .pth runs at start
    "venv-of-another-name-pth": (
        ["Bash(venv/bin/python -m pytest -q)", "Bash(cp *)"],
        {"tests/test_a.py": "def test_a():\n    pass\n"},
        "python3 -m venv --without-pip --system-site-packages venv",
        ["cp src/pth venv/lib/python3.11/site-packages/zz.pth",
         "venv/bin/python -m pytest -q"]),
    # every module of the tree is collected under --doctest-modules
    "doctest-modules-entry": (
        ["Bash(python3 -m pytest -q --doctest-modules)", "Bash(cp *)"],
        {"pkg/__init__.py": "", "tests/test_a.py": "def test_a():\n    pass\n"},
        "", ["cp src/p pkg/util.py", "python3 -m pytest -q --doctest-modules"]),
    "doctest-modules-ini": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"pytest.ini": "[pytest]\naddopts = --doctest-modules\n", "pkg/__init__.py": "",
         "tests/test_a.py": "def test_a():\n    pass\n"},
        "", ["cp src/p pkg/util.py", "python3 -m pytest -q"]),
    # the ini names the test files by another pattern
    "ini-python-files": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)"],
        {"pytest.ini": "[pytest]\npython_files = check_*.py\n", "tests/check_b.py": ""},
        "", ["cp src/p tests/check_a.py", "python3 -m pytest -q"]),
}


@pytest.mark.parametrize("case", COLLECTED)
def test_p_a_file_pytest_collects_or_python_runs_at_start(case: str, tmp_path: Path) -> None:
    """The calls put the payload where the plan's python runs it at start or pytest
    collects it."""
    needs("python3", "pytest")
    entries, files, setup, calls = COLLECTED[case]
    files = {**files, "src/p": PY_PAYLOAD, "src/pth": PTH_PAYLOAD}
    assert _session(tmp_path, entries, files, calls, setup=setup) is not None


#: fsmonitor's command in a file git's own config includes.
INCLUDED = "[core]\n\tfsmonitor = touch zz; false\n"
GIT_INCLUDES = {
    "include-if-on-branch": "git init -q && git config 'includeIf.onbranch:*.path' "
                            "../tools/git.cfg",
    "include-if-git-dir": "git init -q && git config 'includeIf.gitdir:/.path' "
                          "../tools/git.cfg",
    "include-path": "git init -q && git config include.path ../tools/git.cfg",
}


@pytest.mark.parametrize("case", GIT_INCLUDES)
def test_g_a_file_git_config_includes(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(git status)``, ``Bash(cp *)``; the repository's config includes
    ``tools/git.cfg`` (a team's shared settings) under a condition: ``cp src/g tools/git.cfg``,
    ``git status`` runs fsmonitor."""
    needs("git")
    assert _session(tmp_path, ["Bash(git status)", "Bash(cp *)"],
                    {"tools/.keep": "", "src/g": INCLUDED},
                    ["cp src/g tools/git.cfg", "git status"], setup=GIT_INCLUDES[case]) \
        is not None


JEST_PAYLOAD = "require('fs').writeFileSync(process.cwd() + '/zz', '');\nmodule.exports = {};\n"
#: Each case: package.json's jest settings, the files, the file the payload is copied to.
JEST = {
    # roots elsewhere than the project's folder: a package's mock is in the root's __mocks__
    "roots-mocks-of-a-package": ('{"roots": ["<rootDir>/lib"]}',
                                 {"lib/a.test.js": "require('chalk');\ntest('a', () => {});\n",
                                  "lib/__mocks__/.keep": ""}, "lib/__mocks__/chalk.js"),
    "test-match": ('{"testMatch": ["**/*.check.js"]}',
                   {"lib/b.check.js": "test('b', () => {});\n"}, "lib/a.check.js"),
    "setup-files": ('{"setupFiles": ["<rootDir>/tools/setup.js"]}',
                    {"tools/setup.js": "\n", "a.test.js": "test('a', () => {});\n"},
                    "tools/setup.js"),
}



@pytest.mark.parametrize("case", JEST)
def test_j_a_file_jests_settings_name(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(npm test)`` (``"test": "jest"``), ``Bash(cp *)``: the copy, then jest
    runs the payload."""
    from test_s53_greview import _jest

    modules = _jest()
    settings, files, target = JEST[case]
    files = {**files, "package.json": '{"name":"jt","scripts":{"test":"jest"},"jest":'
                                      f'{settings}}}', "src/js": JEST_PAYLOAD}
    assert _session(tmp_path, ["Bash(npm test)", "Bash(cp *)"], files,
                    [f"cp src/js {target}", "npm test"],
                    links={"node_modules": str(modules)}) is not None


#: node_modules, guarded whole under a plan running node, a link to a folder (a monorepo's
#: shared install, or one kept in the project under another name).
NODE_MODULES = {
    "in-the-project": ("vendor/nm", "vendor/nm/dep/index.js"),
    "beside-the-project": ("../shared/nm", "../shared/nm/dep/index.js"),
}


@pytest.mark.parametrize("case", NODE_MODULES)
def test_l_node_modules_a_link(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(npm test)`` (``"test": "node t.js"``, t.js requiring ``dep``),
    ``Bash(cp *)``, node_modules a link: ``cp src/js <its target>/dep/index.js``, ``npm test``
    runs the payload."""
    needs("node", "npm")
    target, written = NODE_MODULES[case]
    files = {"package.json": '{"name":"nl","scripts":{"test":"node t.js"}}',
             "t.js": "require('dep');\n", written: "module.exports = {};\n",
             "src/js": JEST_PAYLOAD}
    assert _session(tmp_path, ["Bash(npm test)", "Bash(cp *)"], files,
                    [f"cp src/js {written}", "npm test"],
                    links={"node_modules": target}) is not None


#: Writers other than cp, each writing ``shared/rules``, the target of the link
#: ``sub/Makefile`` (root Makefile recursing into sub): the plan's entry for the writer, the
#: call. ``src/t.tar``, ``src/z.zip`` hold ``shared/rules`` with the payload; ``src/x.patch``
#: turns QUIET into the payload; branch ``evil`` holds it.
WRITERS = {
    "tar-member": ("Bash(tar *)", "tar -xf src/t2.tar"),
    "unzip": ("Bash(unzip *)", "unzip -o src/z.zip"),
    "python-zipfile": ("Bash(python3 -m zipfile *)", "python3 -m zipfile -e src/z.zip ."),
    "git-checkout-folder": ("Bash(git checkout *)", "git checkout evil -- shared"),
    "git-restore-file": ("Bash(git restore *)", "git restore --source=evil shared/rules"),
    "patch": ("Bash(patch *)", "patch -p1 -i src/x.patch"),
    "git-apply": ("Bash(git apply *)", "git apply src/x.patch"),
    "sed-in-place": ("Bash(sed *)", "sed -i 's/@echo ok/touch zz/' shared/rules"),
    "redirection": ("Bash(cat *)", "cat src/p > shared/rules"),
    "tee": ("Bash(tee *)", "tee shared/rules < src/p"),
    "dd": ("Bash(dd *)", "dd if=src/p of=shared/rules"),
    "move-over": ("Bash(mv *)", "mv src/p shared/rules"),
    "hard-link-over": ("Bash(ln *)", "ln -f src/p shared/rules"),
    "install": ("Bash(install *)", "install -m 644 src/p shared/rules"),
    "copy-tree-into": ("Bash(cp *)", "cp -r pay/. shared"),
}
#: Makes the archives, the patch and the branch the writers bring the payload from.
WRITERS_SETUP = (
    "mkdir -p /tmp/$$/shared && cp src/p /tmp/$$/shared/rules && "
    "tar -C /tmp/$$ -cf src/t2.tar shared/rules && (cd /tmp/$$ && zip -q z.zip shared/rules) && "
    "mv /tmp/$$/z.zip src/z.zip && rm -r /tmp/$$ && mkdir -p pay && cp src/p pay/rules && "
    "git init -q && git add -A && git -c user.email=a@b -c user.name=a commit -qm base && "
    "cp src/p shared/rules && git diff > src/x.patch && git checkout -qb evil && "
    "git -c user.email=a@b -c user.name=a commit -qam e && git checkout -q - && "
    "git status --porcelain >/dev/null")


@pytest.mark.parametrize("case", WRITERS)
def test_l_a_writer_writes_a_links_target(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(make test)`` and the writer's entry; ``sub/Makefile -> ../shared/rules``:
    the writer's call, then ``make test`` runs the payload."""
    needs("make", "git", "zip", "unzip", "patch")
    entry, call = WRITERS[case]
    files = {"Makefile": RECURSIVE, "shared/rules": QUIET, "src/p": MAKE_PAYLOAD,
             ".gitignore": "zz\n"}
    assert _session(tmp_path, ["Bash(make test)", entry], files, [call, "make test"],
                    links={"sub/Makefile": "../shared/rules"}, setup=WRITERS_SETUP) is not None

def test_t_a_test_folders_link_re_aimed_two_steps_up(tmp_path: Path) -> None:
    """Plan ``Bash(node --test)``, ``Bash(cp *)``, ``Bash(ln *)``; ``test/ext -> ../a/x``,
    ``a -> r1``: ``cp src/js r2/x/y.js`` (no link leads there), ``ln -sfn r2 a`` (``a``
    resolves to r1, above no link's real target), ``node --test`` runs test/ext/y.js."""
    needs("node")
    files = {"r1/x/.keep": "", "r2/x/.keep": "", "test/a.test.js": "\n", "src/js": JEST_PAYLOAD}
    assert _session(tmp_path, ["Bash(node --test)", "Bash(cp *)", "Bash(ln *)"], files,
                    ["cp src/js r2/x/y.js", "ln -sfn r2 a", "node --test"],
                    links={"a": "r1", "test/ext": "../a/x"}) is not None


#: A rename of one test name to another in one folder is "kept" (keptests: the runner runs
#: the same code), and deep names and links are then not read for the call; but the name
#: renamed over is the target of the guarded link ``tests/conftest.py`` (a shared fixtures
#: file named ``test_fixtures.py`` outside the collected ``tests``).
RENAMED = {
    "mv": "mv shared/test_y.py shared/test_fixtures.py",
    "git-mv": "git mv -f shared/test_y.py shared/test_fixtures.py",
}


@pytest.mark.parametrize("case", RENAMED)
def test_l_a_rename_of_tests_over_a_guarded_links_target(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``, ``Bash(mv *)``/``Bash(git mv *)``;
    pytest.ini ``testpaths = tests``; ``tests/conftest.py -> ../shared/test_fixtures.py``:
    ``cp src/p shared/test_y.py``, the rename, then pytest loads the conftest: payload."""
    needs("python3", "pytest", "git")
    files = {"pytest.ini": "[pytest]\ntestpaths = tests\n",
             "tests/test_a.py": "def test_a():\n    pass\n", "shared/test_fixtures.py": "\n",
             "src/p": PY_PAYLOAD, ".gitignore": "zz\n"}
    setup = ("git init -q && git add -A && git -c user.email=a@b -c user.name=a commit -qm b"
             if case == "git-mv" else "")
    assert _session(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(cp *)", "Bash(mv *)",
                               "Bash(git add *)", "Bash(git mv *)"], files,
                    ["cp src/p shared/test_y.py", *(["git add shared/test_y.py"] if
                                                    case == "git-mv" else []),
                     RENAMED[case], "python3 -m pytest -q"],
                    links={"tests/conftest.py": "../shared/test_fixtures.py"},
                    setup=setup) is not None


#: Everyday edits of a package's own module named like a standard one (``types.py``,
#: ``logging.py``, ``profile.py``: Django apps, typed packages), inside a package (its folder
#: holds ``__init__.py``: pytest's prepend mode inserts no package folder, and no script
#: runs there), under a plan running pytest.
PACKAGE_MODULES = {
    "sed-types": "sed -i s/A/B/ mypkg/types.py",
    "cp-logging": "cp notes.py mypkg/logging.py",
    "cp-profile": "cp notes.py mypkg/profile.py",
}

@pytest.mark.parametrize("case", PACKAGE_MODULES)
def test_c_a_packages_module_named_like_a_standard_one_is_written(case: str,
                                                                 tmp_path: Path) -> None:
    """Plan ``Bash(python3 -m pytest -q)``, ``Bash(cp *)``, ``Bash(sed *)``: the call is
    allowed (a cost row while it is denied)."""
    files = {"mypkg/__init__.py": "", "mypkg/types.py": "A = 1\n", "notes.py": "\n",
             "tests/test_a.py": "def test_a():\n    pass\n"}
    project = hooked_project(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(cp *)",
                                        "Bash(sed *)"])
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    assert first_denied(project, [PACKAGE_MODULES[case]],
                        {**os.environ, "CLAUDE_PROJECT_DIR": str(project)}) is None
