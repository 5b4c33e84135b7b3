"""Session 54's fix (s54-gfix2) of files a plan's runner loads that the gate did not guard (issue
29; reviews s53-greview L2, G2, J1, P1; s53-greview2 T6, T7, T11, T12). Each hole is proved
by real bash and the real program (GNU make, npm, git, node, pytest) in a scratch copy first
(``bash_review.proved_case``), then the printed hook is asked call by call: a call denied is
the fix; the writes the rule keeps allowed are pinned as plain tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs, proved_case

#: Real bash and the real programs, and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open here, by test name (and case): each a strict xfail.
OPEN = LeftOpen()

MAKE_PAYLOAD = "test:\n\ttouch zz\n"
#: A recursive make: the root's Makefile runs make in ``sub``, whose Makefile is a link.
RECURSIVE = {"Makefile": "test:\n\t-$(MAKE) -C sub test\n", "sub/README": "",
             "shared/rules": "test:\n\t@echo ok\n", "pay/rules": MAKE_PAYLOAD}


# --- L: a start file that is a link: the write lands on its target -----------------------------

#: Each case: the calls writing the link's target (``sub/Makefile -> ../shared/rules``), then
#: the plan's make, which reads the payload through the link.
THROUGH_A_LINK = {
    "tree-copy-into-the-targets-folder": ["cp -r pay/. shared/", "make test"],
    "copy-to-the-target": ["cp pay/rules shared/rules", "make test"],
    "copy-through-a-second-link": ["cp pay/rules alias", "make test"],
}


@pytest.mark.parametrize("case", list(THROUGH_A_LINK))
def test_a_write_lands_on_a_start_files_link_target(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(make test)``, ``Bash(cp *)``; ``sub/Makefile -> ../shared/rules`` (and
    ``alias -> shared/rules``): the write of the target, by a folder's copy, by its name or by
    another link's, is denied (the tree copy was allowed before s54-gfix2)."""
    needs("bash", "make")
    denied = proved_case(tmp_path, ["Bash(make test)", "Bash(cp *)"], RECURSIVE,
                         THROUGH_A_LINK[case], {"CLAUDE_PROJECT_DIR": "{P}"},
                         links={"sub/Makefile": "../shared/rules", "alias": "shared/rules"})
    assert denied == THROUGH_A_LINK[case][0]


def test_a_link_the_start_files_link_crosses_is_not_re_aimed(tmp_path: Path) -> None:
    """``sub/Makefile -> ../a/b/rules``, ``a -> r1``, ``r1/b -> ../v1`` (s54-greview2 B1):
    re-aiming ``a`` (crossed resolving the start file's link, two steps above its target) is
    denied; plan ``Bash(make test)``, ``Bash(cp *)``, ``Bash(ln *)``."""
    needs("bash", "make")
    calls = ["cp pay/rules v2/rules", "ln -s ../v2 r2/b", "ln -sfn r2 a", "make test"]
    denied = proved_case(tmp_path, ["Bash(make test)", "Bash(cp *)", "Bash(ln *)"],
                         {**RECURSIVE, "v1/rules": "test:\n\t@echo ok\n", "v2/.keep": "",
                          "r2/.keep": "", "r1/.keep": ""}, calls, {"CLAUDE_PROJECT_DIR": "{P}"},
                         links={"r1/b": "../v1", "a": "r1", "sub/Makefile": "../a/b/rules"})
    assert denied == "ln -sfn r2 a"


@pytest.mark.parametrize("call", ["cp pay/rules shared/notes", "cp -r pay/. other/",
                                  "cp pay/rules sub/README"])
def test_a_write_beside_a_links_target_is_allowed(tmp_path: Path, call: str) -> None:
    """The same plan and links: a write no link with a guarded name leads to is allowed."""
    needs("bash")
    project = hooked_project(tmp_path, ["Bash(make test)", "Bash(cp *)"])
    for name, text in {**RECURSIVE, "other/x": ""}.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    (project / "sub/Makefile").symlink_to("../shared/rules")
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    assert first_denied(project, [call], env) is None


#: A cost (s54-gfix2): the plan names a folder (``test/``, ``tests``), whose name is guarded at
#: any depth (s53-gfix's rule: a build may run the runner in any folder), and a link in it
#: makes the folder it leads to part of it: a write there is denied as the same write by the
#: link's path is (s53-gfix2 had allowed these two). Each case: the plan's entry, the link,
#: the write through it, the same write by the link's path.
INTO_A_NAMED_FOLDER = {
    "data-in-a-linked-test-folder": ("node --test test/", ("test/shared", "../shared"),
                                     "cp src/x.sh shared/d.json", "cp src/x.sh test/shared/d.json"),
    "pytest-helper-behind-a-folder-link": ("python3 -m pytest -q tests", ("tests/ext", "../ext"),
                                           "cp src/x.sh ext/helper.py",
                                           "cp src/x.sh tests/ext/helper.py"),
}


@pytest.mark.parametrize("case", list(INTO_A_NAMED_FOLDER))
def test_cost_a_write_through_a_link_into_a_folder_the_plan_names(tmp_path: Path,
                                                                  case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: both spellings of the write are denied."""
    needs("bash")
    entry, (link, target), through, direct = INTO_A_NAMED_FOLDER[case]
    for call in (through, direct):
        side = tmp_path / call.split()[-1].replace("/", "-")
        project = hooked_project(side, [f"Bash({entry})", "Bash(cp *)"])
        for folder in ("test", "tests", "shared", "ext"):
            (project / folder).mkdir(exist_ok=True)
        (project / link).symlink_to(target)
        assert first_denied(project, [call], home_env(side / "home")) == call


# --- P: a standard module's file at any depth -------------------------------------------------

#: Each case: the plan's entry, the project's files, the write (then the entry runs python
#: importing the standard module ``colorsys``/``json`` from the folder first on its path).
MODULES = {
    "a-folders-copy-holding-a-module": (
        "python3 -m pytest -q", {"tests/test_a.py": "import colorsys\n\ndef test_a():\n    pass\n",
                                 "pay/colorsys.py": "open('zz', 'w').close()\n"},
        "cp -r pay/. tests/"),
    "a-standard-package-in-pytests-folder": (
        "python3 -m pytest -q", {"tests/test_a.py": "import colorsys\n\ndef test_a():\n"
                                                    "    pass\n",
                                 "tests/colorsys/.keep": "",
                                 "pay/p.py": "open('zz', 'w').close()\n"},
        "cp pay/p.py tests/colorsys/__init__.py"),
}


@pytest.mark.parametrize("case", list(MODULES))
def test_a_standard_modules_file_where_python_looks_first(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: the write is denied (pytest's prepend mode puts
    ``tests/`` first on ``sys.path``; the proof runs the payload)."""
    needs("bash", "python3")
    entry, files, write = MODULES[case]
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files, [write, entry],
                         {"CLAUDE_PROJECT_DIR": "{P}"})
    assert denied == write


@pytest.mark.parametrize("call", ["cp pay/p.py tests/helper.py", "cp pay/p.py src/mytypes.py",
                                  "cp -r data/. docs/", "cp pay/p.py mypkg/types.py",
                                  "cp pay/p.py tests/pkg/logging.py"])
def test_a_file_of_no_standard_modules_name_is_writable(tmp_path: Path, call: str) -> None:
    """The same plan: a module of no standard name, a folder's copy holding none, a standard
    name in a package's folder (none pytest or Python puts on ``sys.path``: s54-greview2
    K1), allowed."""
    needs("bash")
    project = hooked_project(tmp_path, ["Bash(python3 -m pytest -q)", "Bash(cp *)"])
    for name in ("tests/test_a.py", "pay/p.py", "src/.keep", "docs/.keep", "data/a.txt",
                 "mypkg/__init__.py", "tests/pkg/__init__.py"):
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text("")
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    assert first_denied(project, [call], env) is None


# --- G: a folder a write makes a git directory ----------------------------------------------

#: A git directory's layout brought by one tree copy, then a recipe's git in it runs the
#: config's fsmonitor command (s53-greview G2's files in one folder).
GIT_LAYOUT = {"Makefile": "test:\n\tcd sub && git status --porcelain\n",
              "pay/HEAD": "ref: refs/heads/main\n", "pay/objects/.keep": "",
              "pay/refs/.keep": "",
              "pay/config": "[core]\n\trepositoryformatversion = 0\n\tbare = false\n"
                            "\tworktree = ..\n\tfsmonitor = touch zz; false\n"}


def test_a_tree_copy_making_a_git_directory_is_denied(tmp_path: Path) -> None:
    """Plan ``Bash(make test)``, ``Bash(cp *)``: ``cp -r pay sub`` (a tree holding ``HEAD``,
    ``objects``, ``refs``, ``config``) is denied; the proof's make runs the fsmonitor."""
    needs("bash", "make", "git")
    denied = proved_case(tmp_path, ["Bash(make test)", "Bash(cp *)"], GIT_LAYOUT,
                         ["cp -r pay sub", "make test"], {"CLAUDE_PROJECT_DIR": "{P}"})
    assert denied == "cp -r pay sub"


@pytest.mark.parametrize("call", ["cp -r pay/objects notes/objects", "cp pay/config notes/config"])
def test_a_git_named_file_in_no_git_directory_is_writable(tmp_path: Path, call: str) -> None:
    """The same plan: an ``objects`` folder, a ``config`` beside no ``HEAD`` (a ``HEAD`` is
    denied anywhere: one call may write the rest, s54-greview2 C1)."""
    needs("bash")
    project = hooked_project(tmp_path, ["Bash(make test)", "Bash(cp *)"])
    for name, text in {**GIT_LAYOUT, "notes/.keep": ""}.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    env = {**home_env(tmp_path / "home"), "CLAUDE_PROJECT_DIR": str(project)}
    assert first_denied(project, [call], env) is None
