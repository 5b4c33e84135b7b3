"""Session 47 (s47-gfix): the call gate's open costs and residuals of issue 29. The walks for a
walked-up settings name share one budget a call (review s46-greview2's COST W1-walk). Each
slow case asks the printed hook (and runs under real bash what it allows, where that proves
something)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bash_review import LeftOpen, bash, first_denied, hook_allows, needs
from files_fixture import gated_project
from test_gate_files import _settings_hook, run_hook

from skillgrant.gate import composed, copied, guards
from skillgrant.gate.named import GUARDED
from skillgrant.gate.nested import Guarded

#: Rows left open (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
OPEN.add("test_w1_each_spelling_of_a_big_folder_is_not_walked_again",
         "cost (session 53): `cp -r` of one 20,000-file folder spelled 600 ways into `out/` is "
         "denied ('the command names out/': the copied trees' entries past the budget are "
         "taken to hold a guarded name), fail-closed; the call with one spelling is allowed")

# --- W1-walk: one budget of entries a call, one walk a real folder --------------------------


def _many(folder: Path, count: int, width: int = 100) -> None:
    for sub in range(count // width):
        (folder / f"d{sub}").mkdir(parents=True)
        for name in range(width):
            (folder / f"d{sub}" / f"f{name}.js").write_text("")


def _walked_project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(cargo build)"])  # (`.cargo` walked up)
    (project / ".claude" / "hooks").mkdir()
    (project / ".claude" / "hooks" / "x.sh").write_text("#!/bin/sh\necho ok\n")
    return project


@pytest.mark.slow
def test_w1_each_spelling_of_a_big_folder_is_not_walked_again(tmp_path: Path) -> None:
    """Review s46-greview2 COST W1-walk: ``cp -r .claude/hooks/x.sh big out/`` (a copy out
    of a guarded folder: each source looked at for a walked-up name) with 600 spellings of a
    20,000-file ``big`` walked it 600 times (about 10 s on main; 60,000 files and 400
    spellings: 45 s, past the hook's 30 s timeout). Now each real folder is walked once a
    call: the long call takes about as long as the short one, and both are allowed."""
    project = _walked_project(tmp_path)
    _many(project / "big", 20000)
    forms = ["big", "big/", "./big", "big/.", "./big/."]
    spellings = " ".join(forms[i % 5] + "/" * (i // 5) for i in range(600))
    hook = _settings_hook(project)
    took = []
    for command in ("cp -r .claude/hooks/x.sh big out/",
                    f"cp -r .claude/hooks/x.sh {spellings} out/"):
        start = time.perf_counter()
        said = run_hook(hook, command, project)
        took.append(time.perf_counter() - start)
        assert said.returncode == 0, (command[:80], said.stderr[-400:])
    assert took[1] < 3 * took[0] + 2.0, took


@pytest.mark.slow
def test_w1_a_walk_past_the_calls_entries_is_denied_saying_why(tmp_path: Path) -> None:
    """A folder whose walk does not end (a link to itself, 4,000 entries a level) is walked
    to the call's budget and denied, the reason naming the budget and the folder."""
    project = _walked_project(tmp_path)
    loop = project / "loop"
    loop.mkdir()
    for name in range(4000):
        (loop / f"f{name}").write_text("")
    (loop / "self").symlink_to(".")
    said = run_hook(_settings_hook(project), "cp -r loop out/", project)
    assert said.returncode == 2
    assert b"entries one call looks at" in said.stderr and b"loop" in said.stderr, said.stderr
    assert hook_allows(project, "cp -r .claude/hooks/x.sh notes.txt out/")


@pytest.fixture
def walked_up(tmp_path: Path) -> object:
    """A guarded set walking up for ``.cargo``, a guarded ``.claude/hooks``."""
    (tmp_path / ".claude" / "hooks").mkdir(parents=True)
    token = GUARDED.set(Guarded([(str(tmp_path / ".claude" / "hooks"), True)], always=[],
                                tops=frozenset(), walked=frozenset({".cargo"})))
    yield
    GUARDED.reset(token)


def test_w1_the_walks_of_one_call_share_its_entries(tmp_path: Path, walked_up: object,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Two folders each under the budget, together past it: the second is denied, saying
    why; each alone passes."""
    monkeypatch.setattr(composed, "CALL_ENTRIES", 1000)
    _many(tmp_path / "a", 600)
    _many(tmp_path / "b", 600)
    directory = str(tmp_path)
    assert guards.guarded_word("cp -r a out/", directory) is None
    assert guards.guarded_word("cp -r b out/", directory) is None
    found = guards.guarded_word("cp -r a b out/", directory)
    assert found is not None and found.startswith("b (") and "1,000 entries" in found, found


def test_w1_a_real_folder_is_walked_once_a_call(tmp_path: Path, walked_up: object,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Spellings of one folder (through a link too) are walked once: ``os.scandir`` is
    called once per folder of ``a``."""
    _many(tmp_path / "a", 600)
    (tmp_path / "ln").symlink_to("a")
    opened: list[str] = []
    real = os.scandir

    def counted(path: str) -> object:
        opened.append(path)
        return real(path)

    monkeypatch.setattr(os, "scandir", counted)  # the os composed lists through
    command = "cp -r .claude/hooks/x.sh a a/. ./a// a/d2/.. ln/. ln/d1/.. out/"
    assert guards.guarded_word(command, str(tmp_path)) is None  # (a copy out of .claude)
    assert len(opened) == 7, opened  # a and its six folders
    assert copied.WALKS.get() is None


# --- `python -m mypy`: mypy's rule, as for `mypy` (review s46 M1) --------------------------


def _python_with_mypy() -> dict[str, str]:
    """The session's environment with this interpreter's folder (where mypy is) first on
    PATH, as ``python``."""
    folder = str(Path(sys.executable).parent)
    done = subprocess.run([sys.executable, "-m", "mypy", "--version"], capture_output=True,
                          check=False)
    if done.returncode != 0:
        pytest.skip("no mypy beside this interpreter")
    return {**os.environ, "PATH": f"{folder}:{os.environ.get('PATH', '')}"}


@pytest.mark.slow
@pytest.mark.parametrize(("entry", "command"), [
    ("Bash(python -m mypy *)", "python -m mypy --python-executable ./e.sh src"),
    ("Bash(python -m mypy *)", "python -m mypy --python-exec=./e.sh src"),
    ("Bash(python -W ignore -m mypy *)", "python -W ignore -m mypy --python-e=./e.sh src"),
    ("Bash(python -I -m mypy *)", "python -I -m mypy --python-executable ./e.sh src"),
])
def test_python_m_mypy_runs_the_python_executable_it_is_given(tmp_path: Path, entry: str,
                                                             command: str) -> None:
    """s46-gfix OPEN (a hole, not a cost): mypy run as ``python -m mypy`` runs the program
    its ``--python-executable`` (any prefix) names, as ``mypy`` does, and ``runsby``'s mypy
    rule read only the program ``mypy``. Now an interpreter's ``-m MODULE`` (as CPython reads
    its options) is judged by the module's rule; ``python -m mypy src`` stays allowed."""
    env = _python_with_mypy()
    project = tmp_path / "project"
    gated_project(project, [entry])
    (project / "src").mkdir()
    (project / "src" / "a.py").write_text("x = 1\n")
    (project / "e.sh").write_text('#!/bin/sh\ntouch zz\necho "[[], []]"\n')
    (project / "e.sh").chmod(0o755)
    scratch = tmp_path / "scratch"
    subprocess.run(["cp", "-a", str(project), str(scratch)], check=True)
    bash(command, scratch, env)
    assert (scratch / "zz").exists(), "mypy ran no payload: the case proves nothing"
    assert first_denied(project, [command], env) == command
    plain = command.split(" --py", 1)[0] + " src"
    assert first_denied(project, [plain], env) is None, plain


@pytest.mark.parametrize(("words", "found"), [
    ("-m mypy src", ("mypy", 2)), ("-I -m mypy src", ("mypy", 3)), ("-Im mypy", ("mypy", 2)),
    ("-Immypy x", ("mypy", 1)), ("-W ignore -m mypy", ("mypy", 4)),
    ("-Wignore -X dev -m pylint", ("pylint", 5)), ("--check-hash-based-pycs never -m m", ("m", 4)),
    ("-c 'import x' -m mypy", None), ("script.py -m mypy", None), ("- -m mypy", None),
    ("-m", None), ("-I", None), ("-Wm -m mypy", ("mypy", 3)),
])
def test_the_module_python_runs_is_read_as_cpython_reads_its_options(
        words: str, found: tuple[str, int] | None) -> None:
    from skillgrant.gate.interpreters import module_run

    assert module_run(list(words.split())) == found


# --- costs: a command denied under its own exact entry (review s46's C-pip, C-self) --------


@pytest.mark.slow
@pytest.mark.parametrize("entry", ["pip install -r requirements.txt",
                                   "pip3 install -r requirements.txt",
                                   "pip install -q --no-deps -r requirements.txt"])
def test_pip_install_r_runs_under_its_own_entry(tmp_path: Path, entry: str) -> None:
    """``pip install -r requirements.txt`` was denied under ``Bash(<itself>)``: the file is
    guarded (the plan's pip reads it: review s45 P4) and the guard read pip's subcommand
    ``install`` as coreutils' ``install``, a folder writer. Now an ``install`` that is only
    pip's subcommand, with options naming no folder, is none; pip reads its ``-r`` file."""
    project = tmp_path / "project"
    gated_project(project, [f"Bash({entry})"])
    (project / "requirements.txt").write_text("# nothing\n")
    assert first_denied(project, [entry]) is None


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    "pip install -t.claude six", "pip install --target .claude six", "pip install -e .",
    "pip install six; install -t .claude src/settings.json",
    "pip install six && install -D src/x.sh .claude/hooks/x.sh",
    "pip install --prefix . six", "pip install -r requirements.txt -t.",
    "pip install -r requirements.txt; cp src/x.sh requirements.txt",
])
def test_pip_install_still_judged_where_it_writes_a_folder(tmp_path: Path,
                                                           command: str) -> None:
    """What stays denied under ``Bash(pip install *)``, ``Bash(install *)``, ``Bash(cp *)``:
    pip given a folder (``-t``, attached too, ``--prefix``, ``-e .``), coreutils'
    ``install`` beside it, a write of the requirements file."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(pip install *)", "Bash(install *)", "Bash(cp *)",
                            "Bash(pip install -r requirements.txt)"])
    (project / "requirements.txt").write_text("# nothing\n")
    (project / "src").mkdir()
    (project / "src" / "x.sh").write_text("touch zz\n")
    (project / "src" / "settings.json").write_text("{}\n")
    assert not hook_allows(project, command)


@pytest.mark.slow
@pytest.mark.parametrize("entry", ["cargo build --manifest-path sub/Cargo.toml",
                                   "cargo check --manifest-path=sub/Cargo.toml"])
def test_cargo_manifest_path_runs_under_its_own_entry(tmp_path: Path, entry: str) -> None:
    """``cargo build --manifest-path sub/Cargo.toml`` was denied under its own entry: the
    plan's cargo reads ``sub/Cargo.toml`` (guarded) and cargo was no reader of it. Now a
    word that is only the ``--manifest-path`` of a subcommand that writes no manifest is
    read; ``cargo add --manifest-path …`` (it writes the manifest) stays denied. Real cargo
    builds the crate."""
    needs("cargo")
    project = tmp_path / "project"
    gated_project(project, [f"Bash({entry})", "Bash(cargo add *)"])
    (project / "sub" / "src").mkdir(parents=True)
    (project / "sub" / "Cargo.toml").write_text(
        '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n')
    (project / "sub" / "src" / "main.rs").write_text("fn main() {}\n")
    assert first_denied(project, [entry]) is None
    assert (project / "sub" / "target").is_dir(), "cargo built nothing"
    assert not hook_allows(project, "cargo add --manifest-path sub/Cargo.toml serde")


def _crate(project: Path, entries: list[str]) -> None:
    gated_project(project, entries)
    (project / "src").mkdir()
    (project / "src" / "main.rs").write_text("fn main() {}\n")
    (project / "Cargo.toml").write_text(
        '[package]\nname = "y"\nversion = "0.1.0"\nedition = "2021"\n')
    (project / "sub").mkdir()


@pytest.mark.slow
def test_cargo_target_dir_inside_its_guarded_target_folder(tmp_path: Path) -> None:
    """Review s46's COST: ``cargo build --target-dir x`` was ``unknown`` under any cargo
    grant (review s46 C3: a folder the guard does not look in, where an earlier call may
    have put a compiled build script). It cannot be sound for an ``x`` no call is kept from
    writing (the hook keeps nothing between calls; a job of the same call may write it while
    cargo runs), but ``target/…`` from the folder cargo runs in lies in ``target/``, guarded
    whole under a plan running cargo: allowed, and real cargo builds there."""
    needs("cargo")
    project = tmp_path / "project"
    _crate(project, ["Bash(cargo build *)", "Bash(cd *)"])
    for command in ("cargo build --target-dir target/alt", "cargo build --target-dir=target/b"):
        assert first_denied(project, [command]) is None, command
    assert (project / "target" / "alt" / "debug").is_dir()
    assert (project / "target" / "b" / "debug").is_dir()


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    "cargo build --target-dir x", "cargo build --target-dir target/../x",
    "cd sub && cargo build --target-dir target/x", "cargo build --target-dir=sub/target",
    "cargo build --target-dir target/a --target-dir x", "cargo build --target-dir ./target/a",
])
def test_cargo_target_dir_elsewhere_stays_denied(tmp_path: Path, command: str) -> None:
    """A ``--target-dir`` outside the guarded ``target/`` of the folder cargo runs in
    (after a ``cd`` too), or not written as ``target/…``, stays denied."""
    project = tmp_path / "project"
    _crate(project, ["Bash(cargo build *)", "Bash(cd *)"])
    assert not hook_allows(project, command)


# --- C4: a crate below the call's folder builds into its own target/ ------------------------


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    "cp -r eb/. sub/target/debug/build/x-1/", "cp -r crate sub/",
    "mkdir -p sub/Target/debug && cp eb/build-script-build sub/Target/debug/",
    "cp -r eb sub/target"])
def test_c4_a_target_folder_at_any_depth_is_guarded(tmp_path: Path, command: str) -> None:
    """Review s46-greview2 C4 (its test now passes): under a plan running cargo, ``target``
    joins the names guarded at any depth (as ``.cargo``: a crate below the call's folder,
    or one a later ``cd`` reaches, builds into its own ``target/``, whose compiled build
    scripts cargo runs). A copy bringing a ``target`` folder along is judged too."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(mkdir *)", "Bash(cargo build)"])
    (project / "sub").mkdir()
    (project / "eb").mkdir()
    (project / "eb" / "build-script-build").write_text("#!/bin/sh\ntouch zz\n")
    (project / "crate" / "target" / "debug").mkdir(parents=True)
    assert not hook_allows(project, command)


@pytest.mark.slow
@pytest.mark.parametrize("command", [
    "cp target/release/app out/", "cp -r target/release out/", "cp sub/target/x.txt out/",
    "cp notes.txt sub/targets.txt", "cp -r eb out/"])
def test_c4_copies_out_of_a_target_folder_stay_allowed(tmp_path: Path, command: str) -> None:
    """What the name costs nothing for: a copy out of a ``target`` folder (it makes the last
    part's name only), a name that only begins with ``target``."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(cargo build)"])
    (project / "target" / "release").mkdir(parents=True)
    (project / "target" / "release" / "app").write_text("app\n")
    (project / "sub" / "target").mkdir(parents=True)
    (project / "sub" / "target" / "x.txt").write_text("x\n")
    (project / "eb").mkdir()
    (project / "eb" / "a.txt").write_text("a\n")
    assert hook_allows(project, command)


# --- review s47's COST C-self2 / C-cross: a plan's own entry, a script word elsewhere --------


@pytest.mark.slow
@pytest.mark.parametrize("entry", ["python3 -m pytest tests", "python3 -m unittest discover tests",
                                   "bun run lint", "bun run build"])
def test_c_self2_a_plans_own_entry_runs(tmp_path: Path, entry: str) -> None:
    """Review s47-greview COST C-self2: each was denied under ``Bash(<itself>)``: the words
    after ``-m MODULE`` were guarded as scripts python runs (they are the module's), and
    ``bun run``'s script word was guarded while bun was not read as running it."""
    project = tmp_path / "project"
    gated_project(project, [f"Bash({entry})"])
    assert hook_allows(project, entry)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["cargo build", "docker build -t x .", "cargo +stable build"])
def test_c_cross_a_subcommand_is_no_path(tmp_path: Path, command: str) -> None:
    """Review s47-greview COST C-cross: beside ``Bash(bun run build)`` (``build`` guarded:
    bun runs a file of that name when the package has no such script), a program's first
    plain word is its subcommand, no path it writes (cargo, docker, podman)."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(bun run build)", "Bash(cargo *)", "Bash(docker build *)",
                            "Bash(mkdir *)", "Bash(cp *)", "Bash(python3 -m runpy *)"])
    assert hook_allows(project, command)
    for denied in ("mkdir -p build", "cp notes.txt build", "python3 -m runpy build"):
        assert not hook_allows(project, denied), denied
