"""s53-gfix3: the two root rules for review s53-greview's S1 and G1, by real bash and the printed
hook (``test_s53_greview._session``: the payload proved to run, then each call asked of the hook).

- S1: a file a program outside the gate's tables is given as code (an input redirection's
  file, a script option's value: ``sqlite3 db < x.sql``, ``sqlite3 -init x.sql``, ``vim -S``,
  ``sed -f``, ``ed < x.ed``) is guarded as a script entry's script, and the entry reads project
  code (every start name guarded at any depth). Not for a program known to read only data
  (``wc -l < notes.txt``), nor a folder writer's option (``rm -f x``).
- G1: git writing a pathspec from a revision or the index (``git checkout REV -- sub``, ``git
  restore --source=REV sub``, ``git checkout -- sub``) lists what it writes there (``git
  ls-tree``/``ls-files``) and judges each path as a write; what cannot be listed is denied.

Every payload only touches a file (``touch zz``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, home_env, hooked_project, needs
from test_gate_files import _settings_hook, payload
from test_s53_greview import EVIL_BRANCH, MAKE_PAYLOAD, _session

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open, by test name (and case): strict xfails (tests/conftest.py reads it).
OPEN = LeftOpen()

RECURSIVE = {"Makefile": "test:\n\t-$(MAKE) -C sub test\n", "sub/.keep": ""}


def _denied(tmp_path: Path, entries: list[str], files: dict[str, str], calls: list[str],
            setup: str = "") -> str | None:
    """The first of ``calls`` the printed hook denies in a hooked project with plan
    ``entries``, ``files`` and what ``setup`` made (each allowed one run by bash), or None."""
    project = hooked_project(tmp_path / "p", entries)
    for name, text in files.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    env = home_env(tmp_path / "home")
    env["CLAUDE_PROJECT_DIR"] = str(project)
    if setup:
        subprocess.run(["bash", "-c", setup], cwd=project, env=env, check=True,
                       capture_output=True, timeout=60)
    hook = _settings_hook(project)
    for call in calls:
        if subprocess.run(["/bin/sh", "-c", hook], input=payload(call, project.resolve()),
                          cwd=project, env=env, capture_output=True, timeout=60,
                          check=False).returncode == 2:
            return call
        subprocess.run(["timeout", "60", "bash", "-c", call], cwd=project, env=env,
                       capture_output=True, timeout=90, check=False)
    return None


# --- G1: more spellings, each denied at the git call ---------------------------------------------

#: The index route: ``sub/Makefile`` staged from ``evil``, then removed from the working tree
#: (what a ``git reset evil -- sub`` leaves); ``git checkout -- sub`` writes it back.
STAGED = EVIL_BRANCH + " && git checkout evil -- sub/Makefile && rm sub/Makefile"
SPELLINGS = {
    "checkout-dot-slash": ("git checkout evil -- ./sub", EVIL_BRANCH),
    "restore-s-W": ("git restore -s evil -W sub", EVIL_BRANCH),
    "restore-s-attached": ("git restore -sevil sub", EVIL_BRANCH),
    "restore-source-apart": ("git restore --source evil -- sub", EVIL_BRANCH),
    "restore-source-prefix": ("git restore --sou=evil sub", EVIL_BRANCH),
    "restore-cluster": ("git restore -Ws evil sub", EVIL_BRANCH),
    "checkout-pattern": ("git checkout evil -- 's*'", EVIL_BRANCH),
    "checkout-from-index": ("git checkout -- sub", STAGED),
    "restore-from-index": ("git restore sub", STAGED),
}


@pytest.mark.parametrize("case", SPELLINGS)
def test_g1_a_folder_git_writes_from_a_revision_is_listed(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(make test)`` (recursive into ``sub``), ``Bash(git checkout *)``, ``Bash(git
    restore *)``: the git call bringing ``sub/Makefile`` is denied (bash proves it runs)."""
    needs("make", "git")
    call, setup = SPELLINGS[case]
    assert _session(tmp_path, ["Bash(make test)", "Bash(git checkout *)", "Bash(git restore *)"],
                    RECURSIVE, [call, "make test"], setup=setup) == call


#: A branch changing only ``docs/a.md``.
DOCS_BRANCH = ("git -c user.email=a@b -c user.name=a checkout -qb docs && "
               "echo new > docs/a.md && git -c user.email=a@b -c user.name=a commit -qam d && "
               "git checkout -q -")
GIT_ALLOWED = {
    "checkout-docs-folder": "git checkout docs -- docs",
    "restore-docs-folder": "git restore --source=docs docs",
    "restore-a-change": "git restore docs",
    "checkout-a-file": "git checkout docs -- docs/a.md",
}


@pytest.mark.parametrize("case", GIT_ALLOWED)
def test_g1_no_cost_for_a_folder_without_a_start_name(case: str, tmp_path: Path) -> None:
    """The same plan: a folder whose revision holds no start name is written as before."""
    needs("make", "git")
    files = {**RECURSIVE, "docs/a.md": "old\n"}
    setup = "git add -A && git -c user.email=a@b -c user.name=a commit -qm base && " + DOCS_BRANCH
    assert _denied(tmp_path, ["Bash(make test)", "Bash(git checkout *)", "Bash(git restore *)"],
                   files, [GIT_ALLOWED[case]], setup=setup) is None


def test_g1_a_revision_git_cannot_list_is_denied(tmp_path: Path) -> None:
    """An unknown revision: nothing can be listed, the call is denied (git fails it too)."""
    needs("make", "git")
    call = "git checkout nosuch -- sub"
    assert _denied(tmp_path, ["Bash(make test)", "Bash(git checkout *)"], RECURSIVE, [call],
                   setup=EVIL_BRANCH) == call


# --- S1: more programs, and what stays free -----------------------------------------------------

FED = {
    "sqlite3-init-long": ("sqlite3 -init x.sql out/db .quit", "x.sql", ".system touch zz\n"),
    "timeout-sqlite3-stdin": ("timeout 30 sqlite3 out/db < x.sql", "x.sql",
                              ".system touch zz\n"),
    "sed-file-attached": ("sed -fx.sed notes.txt", "x.sed", "1e touch zz\n"),
    "sed-file-long": ("sed --file=x.sed notes.txt", "x.sed", "1e touch zz\n"),
}


@pytest.mark.parametrize("case", FED)
def test_s1_the_script_a_program_is_fed_is_guarded(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/p <script>`` is denied (bash proves the
    entry then runs it)."""
    entry, script, evil = FED[case]
    needs("sqlite3" if "sqlite3" in entry else "sed")
    files = {script: "select 1;\n" if script.endswith(".sql") else "p\n", "notes.txt": "a\n",
             "out/.keep": "", "src/p": evil}
    call = f"cp src/p {script}"
    assert _session(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files, [call, entry]) == call


def test_s1_the_entry_reads_code_so_a_start_name_below_is_guarded(tmp_path: Path) -> None:
    """Plan ``Bash(sqlite3 out/db < x.sql)`` (its script runs ``make -C sub test``),
    ``Bash(cp *)``: ``cp src/p sub/Makefile`` is denied."""
    needs("sqlite3", "make")
    files = {"x.sql": ".system make -C sub test\n", "sub/.keep": "", "out/.keep": "",
             "src/p": MAKE_PAYLOAD}
    call = "cp src/p sub/Makefile"
    assert _session(tmp_path, ["Bash(sqlite3 out/db < x.sql)", "Bash(cp *)"], files,
                    [call, "sqlite3 out/db < x.sql"]) == call


#: Plans whose files are data: a copy over them stays allowed (the cost the rule avoids).
DATA = {
    "wc-operand": ("wc -l notes.txt", "cp src/p notes.txt"),
    "wc-stdin": ("wc -l < notes.txt", "cp src/p notes.txt"),
    "grep-patterns": ("grep -f pats.txt notes.txt", "cp src/p pats.txt"),
    "rm-force": ("rm -f notes.txt", "cp src/p notes.txt"),
    "sqlite3-database-operand": ("sqlite3 out/db < x.sql", "cp src/p notes.txt"),
}


@pytest.mark.parametrize("case", DATA)
def test_s1_a_file_read_as_data_stays_writable(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: the copy is allowed."""
    entry, call = DATA[case]
    files = {"notes.txt": "a\n", "pats.txt": "a\n", "x.sql": "select 1;\n", "out/.keep": "",
             "src/p": "b\n"}
    assert _denied(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files, [call]) is None


def test_s1_cost_a_start_name_is_guarded_under_a_fed_script(tmp_path: Path) -> None:
    """The rule's cost: under ``Bash(sqlite3 out/db < x.sql)`` the entry reads project code,
    so every start name is guarded at any depth: ``cp src/p tools/Makefile`` is denied."""
    files = {"x.sql": "select 1;\n", "out/.keep": "", "tools/.keep": "", "src/p": "b\n"}
    call = "cp src/p tools/Makefile"
    assert _denied(tmp_path, ["Bash(sqlite3 out/db < x.sql)", "Bash(cp *)"], files,
                   [call]) == call


#: A script a program is given as an operand (not a redirection, not a script option): the
#: rule reads no operand (too dear: every data file would be a script), so it stays open.
OPERAND_FED = {
    "sqlite3-read-operand": ('sqlite3 out/db ".read x.sql"', "x.sql", ".system touch zz\n"),
}
OPEN.add("test_s1_a_script_given_as_an_operand",
         "an operand is read as data: only redirections and script options are guarded "
         "(every operand naming a file would deny `cp x notes.txt` beside `wc -l notes.txt`)",
         *OPERAND_FED)


@pytest.mark.parametrize("case", OPERAND_FED)
def test_s1_a_script_given_as_an_operand(case: str, tmp_path: Path) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/p <script>`` should be denied (bash
    proves the entry then runs it)."""
    entry, script, evil = OPERAND_FED[case]
    needs("sqlite3")
    files = {script: "select 1;\n", "out/.keep": "", "src/p": evil}
    call = f"cp src/p {script}"
    assert _session(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files, [call, entry]) == call
