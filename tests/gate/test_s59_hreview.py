"""Review s59 (s59-hreview) of s59-hfix (the hook's speed, issue 29: modules loaded per plan,
the kept bundle of code objects, lazy imports, cheaper classes; and the long calls T3/T4 made
linear in ``readers.writer_of`` and ``moves._operand``), judged by the real programs:

1. what the hook's own process reads at its start that an allowed call can write (the
   interpreter's own start-up files: H);
2. how long the hook takes on a call's own text (T: a call of at most 64 KB decided past the
   runtime's hook timeout is, in Copilot CLI, which runs a call whose hook timed out, a call
   allowed; Claude Code 2.1.332 with ``onFailure: block`` blocks it, a cost). Each time row
   gives the hook 8 s; the figures measured on this machine are in the row's comment;
3. decisions that must stay main's (the differential's counts: /work/wt/reports/s59-hreview.md).

Each hole is proved with real programs in a scratch project (bash runs the calls, the payload
runs), then the printed hook is asked for each call in turn, the allowed ones run; the hook
allowing them all is the finding. A hole left open is a strict xfail (``OPEN``); a case the
change holds is a plain test pinning it. Every payload only touches a file (``zz``)."""

from __future__ import annotations

import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import tree_sitter
from bash_review import LeftOpen, home_env, hooked_project
from test_gate_files import _settings_hook, payload

import skillgrant

#: Real bash and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()


def _open(test: str, reason: str, *cases: str) -> None:
    """``OPEN.add`` of the cases still open (none: the whole test is no longer open)."""
    if cases:
        OPEN.add(test, reason, *cases)


#: The folder holding the package, the one holding the hook's parser (tree_sitter), and the
#: interpreter's standard library.
_SOURCE = Path(skillgrant.__file__).resolve().parent.parent
_DEPS = Path(tree_sitter.__file__).resolve().parent.parent
_STDLIB = Path(os.__file__).resolve().parent
_VERSION = f"python{sys.version_info[0]}.{sys.version_info[1]}"


def _ask(hook: str, call: str, folder: Path, env: dict[str, str] | None = None,
         timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """The printed hook's answer to ``call`` from ``folder``, run as the runtime runs it."""
    return subprocess.run(["/bin/sh", "-c", hook], input=payload(call, folder), cwd=folder,
                          env=env, capture_output=True, timeout=timeout, check=False)


def _bash(call: str, folder: Path, env: dict[str, str] | None = None) -> None:
    subprocess.run(["bash", "-c", call], cwd=folder, env=env, capture_output=True, timeout=60,
                   check=False)


# --- H: what the hook's own interpreter reads at its start -----------------------------------

def _install(at: Path, copied: tuple[str, ...] = ()) -> Path:
    """A Python installation of its own, no venv (as a conda environment, a uv-managed or a
    self-built Python not on PATH): this interpreter's binary and its standard library, linked
    entry by entry (``copied``'s entries copied), an empty site folder. Its python."""
    (at / "bin").mkdir(parents=True)
    shutil.copy2(os.path.realpath(sys.executable), at / "bin" / _VERSION)
    lib = at / "lib" / _VERSION
    lib.mkdir(parents=True)
    for entry in _STDLIB.iterdir():
        if entry.name in copied:
            shutil.copytree(entry, lib / entry.name, ignore=shutil.ignore_patterns("__pycache__"))
        elif entry.name != "site-packages":
            os.symlink(entry, lib / entry.name)
    (lib / "site-packages").mkdir()
    return at / "bin" / _VERSION


#: H2: a hook whose interpreter is no venv (sys.prefix is its base prefix) reads
#: ``<prefix>/pyvenv.cfg`` at its start (CPython's getpath looks beside the executable and in
#: the folder above it); its ``home`` names the installation whose standard library the
#: process imports. The guards hold the real executable's folder, ``<base prefix>/lib``, the
#: folders of sys.path and of the loaded modules (s58-hfix), not ``<prefix>/pyvenv.cfg``: the
#: calls point the next hook at another installation (a conda environment's base, a second
#: Python on the machine) whose ``json/decoder.py`` they replaced (a submodule of another
#: installation's library: no name of this one's).
PYVENV = ["printf 'import os\\nopen(\"zz\", \"w\").close()\\n' > out/p.py",
          f"cp {_STDLIB}/json/decoder.py out/d.py",
          "cat out/d.py >> out/p.py",
          "printf 'home = {other}/bin\\n' > out/cfg",
          f"cp out/p.py {{other}}/lib/{_VERSION}/json/decoder.py",
          "cp out/cfg {prefix}/pyvenv.cfg"]


def test_the_start_up_files_of_a_hooks_own_interpreter_are_guarded(tmp_path: Path) -> None:
    """H2 (closed in s59-hfix 403c0aab: ``loadedlibs.start_files``). Proved: the payload in the
    other installation's ``json/decoder.py`` runs in the next hook's process (any call: its
    ``hook.py`` reads the payload with json)."""
    found = []
    for side in ("proof", "run"):
        prefix, other = tmp_path / side / "hookpy", tmp_path / side / "other"
        python = _install(prefix)
        (prefix / "lib" / _VERSION / "site-packages" / "00.pth").write_text(
            f"{_SOURCE}\n{_DEPS}\n")
        _install(other, copied=("json",))
        project = hooked_project(tmp_path / side, ["Bash(cp *)", "Bash(printf *)",
                                                   "Bash(cat *)", "Edit(out/**)"])
        env = home_env(tmp_path / side / "home")
        env["CLAUDE_PROJECT_DIR"] = str(project)
        hook = _settings_hook(project).replace(sys.executable, str(python), 1)
        assert str(python) in hook
        allowed = True
        for call in (c.format(other=other, prefix=prefix) for c in PYVENV):
            if side == "run" and _ask(hook, call, project, env).returncode == 2:
                allowed = False
                break
            _bash(call, project, env)
        _ask(hook, "printf x > out/next.txt", project, env)  # (the next call)
        if side == "proof":
            assert (project / "zz").exists(), "the hook's process ran no payload"
        else:
            found.append(allowed and (project / "zz").exists())
    assert not found[0], "the hook allowed the calls repointing its own interpreter"


# --- T: how long the hook takes on the call's own text ----------------------------------------

#: Calls of at most 64 KB (MAX_SHELL_COMMAND_CHARS) and 20,000 syntax nodes whose reading is
#: superlinear, or linear at a cost of milliseconds a word, each denied in the end (each
#: writes the project's own `.claude/settings.json`, the hook's settings), that the hook must
#: decide in 8 s of CPU (the printed timeout is 30 s; Copilot CLI runs a call whose hook timed
#: out); the figures below are CPU in process and the printed hook's wall time at the load.
#: T3, T4 (s58-hreview): closed in s59-hfix 39e97d3; the rows here are their variants.
#: T5: `readers.writer_of` asks each distinct doubtful word of a command `_reads`, which walks
#: the whole command for each (`planpaths.option_values` by `planprograms.runs_named_file`,
#: `testfiles.pytest_reads`, `own_dropped`, `run_words`): 5,005 words in a guarded folder,
#: 64 KB: 10.7 s CPU in process, the printed hook 30-34 s at load 8 (s59-hfix 39e97d3;
#: closed in 54db453a, 0.8 s CPU: a bound on the words read, past which it denies: K1).
#: T6 (no row: the node limit bounds it to ~5 s CPU): each distinct doubtful word against
#: each distinct command (`holding`): 3,310 `cd dN; ` then `cp notes.txt .claude/settings.json`
#: (32 KB; bash's `cd`s fail, the copy lands in the project) 4.3 s CPU in process, the printed
#: hook 26-30 s at load 10 (closed in s59-hfix 54db453a: 0.6 s CPU).
#: T7: `writers.tree_word` asks `copied.touches` (every guarded item, ~0.4 ms) of each suffix
#: of a short option's word (`_forms`: `-t.claude`), up to 256 a word: 250 `-rrr…` words (GNU
#: cp takes a repeated `-r`), 64 KB: the printed hook 84-100 s at load 10 (closed in s59-hfix
#: 0eb25d3d: each distinct form asked once, 0.4 s CPU).
#: T8: `named._glob_found` globs each distinct pattern word of a quoted here-document, each
#: listing its folder: after an allowed `mkdir d0 … d5999` (35 KB), 9,000 lines `*xN` (62 KB)
#: took 43.4 s CPU, the printed hook 148 s at load 14 (each glob lists 6,009 entries).
#: T7b: 0eb25d3d asks each distinct form once; distinct clusters (random letters GNU cp
#: takes) make as many forms: 40.1 s CPU, the printed hook 150 s at load 14 (closed in
#: b574d496: MAX_TREE_FORMS, 4.1 s CPU; its cost: K2).
_LETTERS = random.Random(7)
BOMBS = {
    "T5-distinct-doubtful-words-of-one-command": "pytest " + " ".join(
        f".claude/{i}" for i in range(5005)) + "; cp a.txt .claude/settings.json",
    "T7-suffixes-of-short-option-words": "cp " + ("-" + "r" * 255 + " ") * 250 +
                                         "out/x/.claude .",
    "T7b-suffixes-of-distinct-short-option-words": "cp " + " ".join(
        "-" + "".join(_LETTERS.choice("rRfp") for _ in range(255)) for _ in range(250)) +
        " out/x/.claude .",
    "T8-a-pattern-each-listing-a-large-folder": 'cat <<"E"\n' + "".join(
        f"*x{i}\n" for i in range(9000)) + "E\ncp notes.txt .claude/settings.json",
}
#: The calls before a case's, each run when the hook allows it: T8's large folder (in calls
#: of 1,500 folders: s59-hfix b574d496 denies a call of more than 2,000 words, K2).
SETUP = {"T8-a-pattern-each-listing-a-large-folder": [
    "mkdir " + " ".join(f"d{i}" for i in range(k, k + 1500)) for k in range(0, 6000, 1500)]}


def _cpu_limited() -> None:
    """The hook's process may use 8 s of CPU (a time row's limit, the machine's load aside)."""
    resource.setrlimit(resource.RLIMIT_CPU, (8, 9))


@pytest.mark.parametrize("case", BOMBS)
def test_a_long_call_is_decided_well_inside_the_hooks_timeout(tmp_path: Path, case: str) -> None:
    """A call near the command limit is decided in 8 s of CPU."""
    call = BOMBS[case]
    assert len(call) <= 65_536
    project = hooked_project(tmp_path, ["Bash(cat *)", "Bash(cp *)", "Bash(cd *)",
                                        "Bash(echo *)", "Bash(pytest *)", "Bash(mkdir *)"])
    for setup in SETUP.get(case, []):
        assert _ask(_settings_hook(project), setup, project).returncode == 0, setup[:40]
        _bash(setup, project)
    started = time.monotonic()
    hook = subprocess.Popen(["/bin/sh", "-c", _settings_hook(project)], cwd=project,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=_cpu_limited)  # (8 s of CPU, whatever the load)
    try:
        _, stderr = hook.communicate(payload(call, project), timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(hook.pid, 9)  # (the hook's python too, not only its shell)
        hook.communicate()
        pytest.fail(f"the hook took over 120 s ({time.monotonic() - started:.1f} s)")
    if {-hook.returncode, hook.returncode - 128} & {signal.SIGXCPU, signal.SIGKILL}:
        pytest.fail(f"the hook took over 8 s of CPU ({time.monotonic() - started:.1f} s)")
    assert hook.returncode == 2, stderr  # (denied: each writes what the hook reads)


def test_a_repeated_cluster_is_read_by_gnu_cp(tmp_path: Path) -> None:
    """T7b's premise: GNU cp takes the option words of T7b's call (clusters of ``-r``, ``-R``,
    ``-f``, ``-p``) and copies ``out/x/.claude`` over the project's ``.claude`` (the hook's
    settings)."""
    (tmp_path / "out" / "x" / ".claude").mkdir(parents=True)
    (tmp_path / "out" / "x" / ".claude" / "settings.json").write_text("{}")
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude" / "settings.json").write_text('{"hooks": 1}')
    _bash(BOMBS["T7b-suffixes-of-distinct-short-option-words"], tmp_path)
    assert (tmp_path / ".claude" / "settings.json").read_text() == "{}"


# --- K: a careful user's everyday call the change denies --------------------------------------

def test_cost_an_explicit_list_of_test_files(tmp_path: Path) -> None:
    """K1: under a pytest plan, a run of 600 test files named one by one, each a file pytest
    reads (a doubtful word of ``readers.writer_of``): main allows it; s59-hfix 54db453a denied
    it (``MAX_WORDS_READ`` 250,000: 416 distinct words x 601 words read), closed in 1f7c5489
    (1,000,000: about 1,000 such words in one command, a boundary in docs/decisions.md)."""
    project = hooked_project(tmp_path, ["Bash(pytest *)"])
    (project / "tests").mkdir()
    (project / "tests" / "conftest.py").write_text("import pytest\n")
    for i in range(600):
        (project / "tests" / f"test_{i}.py").write_text("def test_a():\n    pass\n")
    names = " ".join(f"tests/test_{i}.py" for i in range(600))
    assert _ask(_settings_hook(project), f"pytest {names}", project).returncode == 0


def test_cost_a_folder_made_of_many_names(tmp_path: Path) -> None:
    """K2: ``mkdir -p`` of 2,500 folders in the project's ``out`` (24 KB): main allows it;
    s59-hfix b574d496 denies it (``writers.MAX_TREE_FORMS``: 2,000 distinct forms a call,
    each plain word one form); closed by the lead: the bound holds for a word's tails only."""
    project = hooked_project(tmp_path, ["Bash(mkdir *)"])
    call = "mkdir -p " + " ".join(f"out/d{i}" for i in range(2500))
    assert _ask(_settings_hook(project), call, project).returncode == 0

