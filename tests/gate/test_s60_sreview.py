"""Review s60 (s60-sreview) of session 60's speed work, which must change no decision and no
output byte: s60-hfix (the printed hook's process: ``modulecache`` keeps the modules' code in
groups, one ``marshal.loads`` a group, a group used in part written again as two;
``patterncache`` compiles a kept pattern as ``re`` first asks for it) and s60-bfix (batch
``check``/``apply``: the read-back's readings of a key's new lines remembered by their text).

Each row holds on main too; after the merge it pins the change:

* H: a hook whose kept files (modules, patterns) went through what a user's machine does to
  them (plans of every kind in turn, so groups are split; hooks writing at once; a module
  edited to the same size; a kept file truncated, garbled, replaced by a link or emptied)
  answers every call as a hook process that keeps nothing and so reads nothing kept (its
  bytecode under a prefix of its own: ``-X pycache_prefix``), byte for byte; a module changed
  after its group was split is imported anew.
* B: a batch answers each file as that file checked alone (a memo keyed by less than its
  answer depends on shows here: files one byte apart, one value under two plans, CRLF and BOM
  copies), and ``apply`` over a batch writes each file as ``apply`` of that file alone.

Each hook process runs a copy of the package (``python -I``, the copy first on ``sys.path``,
as the printed hook runs the installed one), so its kept files are the test's own."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from bash_review import LeftOpen

#: Fresh hook processes and ``check`` processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()

SOURCE = Path(__file__).resolve().parents[2] / "skillgrant"
#: The hook as ``--print-config`` prints it, on a copy of the package: ``{0}`` its folder.
START = "import sys; sys.path.insert(0, {0!r}); from skillgrant.cli.entry import main; main()"


def _copy(folder: Path) -> Path:
    """A copy of the package, without bytecode or kept files, in ``folder``."""
    shutil.copytree(SOURCE, folder / "skillgrant", ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def _kept(root: Path) -> list[Path]:
    """The kept files (modules, patterns) of the copy at ``root``."""
    cache = root / "skillgrant" / "__pycache__"
    return sorted(cache.glob("*.marshal")) if cache.is_dir() else []


def _hook(root: Path, plan: Path, call: str, cwd: Path, *flags: str) -> tuple[int, str, str]:
    """The copy's hook on a Bash ``call`` from ``cwd``: status, stdout, stderr (the copy's
    folder written ``<R>``)."""
    payload = json.dumps({"session_id": "s", "hook_event_name": "PreToolUse", "cwd": str(cwd),
                          "tool_name": "Bash", "tool_input": {"command": call}})
    done = subprocess.run([sys.executable, "-I", *flags, "-c", START.format(str(root)), "hook",
                           "--plan", str(plan)], input=payload.encode(), cwd=cwd,
                          capture_output=True, timeout=120, check=False)
    return (done.returncode, done.stdout.decode().replace(str(root), "<R>"),
            done.stderr.decode().replace(str(root), "<R>"))


#: A project whose files make, pytest, npm and cmake read.
PROJECT = {
    "Makefile": "include rules.mk\ntest:\n\t@echo ok\n",
    "rules.mk": "X = 1\n",
    "tests/conftest.py": "import os\n",
    "tests/test_a.py": "def test_a():\n    assert 1\n",
    "package.json": json.dumps({"name": "p", "scripts": {"test": "jest"}}),
    "CMakeLists.txt": "cmake_minimum_required(VERSION 3.10)\nproject(p C)\n",
    "notes.txt": "notes\n",
    "out/.keep": "",
}
#: Plans of each kind the hook loads different modules for, and calls each decides (allowed
#: and denied).
PLANS: dict[str, tuple[list[str], list[str]]] = {
    "git": (["Bash(git *)", "Bash(cp *)"],
            ["git status", "git log --oneline", "git -c core.pager=./x log", "cp notes.txt out/n"]),
    "make": (["Bash(make test)", "Bash(cp *)"],
             ["make test", "cp notes.txt out/n", "cp notes.txt rules.mk", "make -f x test"]),
    "pytest": (["Bash(pytest *)", "Bash(sed *)"],
               ["pytest tests", "sed -i s/a/b/ tests/conftest.py", "sed -n p notes.txt",
                "pytest -p x"]),
    "npm": (["Bash(npm test)", "Bash(cp *)"],
            ["npm test", "cp notes.txt package.json", "cp notes.txt out/n", "npm test -- -x"]),
    "cmake": (["Bash(cmake *)", "Bash(ctest)", "Bash(cp *)"],
              ["cmake -S . -B build", "ctest", "cp notes.txt CMakeLists.txt", "cmake -P x"]),
    "edits": (["Bash(cp *)", "Bash(echo *)", "Edit(out/**)"],
              ["echo hi > out/x", "cp notes.txt out/", "echo hi > .claude/settings.json",
               "cp -r out/. ."]),
}


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, Path]]:
    """The reference copy (it keeps nothing, so reads nothing kept), the project, and a plan file
    for each of ``PLANS``: one for the module, so each reference answer is asked once."""
    top = tmp_path_factory.mktemp("s60sr")
    project = top / "project"
    for name, text in PROJECT.items():
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text(text)
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text("{}")
    plans = {}
    for kind, (entries, _) in PLANS.items():
        plans[kind] = top / "plans" / f"{kind}.json"
        plans[kind].parent.mkdir(exist_ok=True)
        plans[kind].write_text(json.dumps({"allowed-tools": entries}))
    return _copy(top / "fresh"), project, plans


#: The reference answers, by plan kind and call (``shared``'s project).
_FRESH: dict[tuple[str, str], tuple[int, str, str]] = {}


@pytest.fixture
def setting(tmp_path: Path, shared: tuple[Path, Path, dict[str, Path]]
            ) -> tuple[Path, Path, Path, dict[str, Path]]:
    """A copy under test of its own, and ``shared``."""
    return (_copy(tmp_path / "kept"), *shared)


def _differing(kept: Path, fresh: Path, project: Path, plans: dict[str, Path],
               kinds: list[str], most: int = 2) -> list[tuple[str, str]]:
    """The calls (the first ``most``) of ``kinds``' plans the copy under test answers
    otherwise than a hook that keeps nothing (its bytecode under a prefix of its own: no kept
    file is ever written in its copy, so none is read)."""
    return [(kind, call) for kind in kinds for call in PLANS[kind][1][:most]
            if _hook(kept, plans[kind], call, project) != _fresh(fresh, project, plans, kind,
                                                                  call)]


def _fresh(fresh: Path, project: Path, plans: dict[str, Path], kind: str,
           call: str) -> tuple[int, str, str]:
    if (kind, call) not in _FRESH:
        _FRESH[kind, call] = _hook(fresh, plans[kind], call, project, "-X",
                                   f"pycache_prefix={fresh / 'bytecode'}")
    return _FRESH[kind, call]


#: What a kept file goes through between two hooks.
DAMAGE = {
    "truncated": lambda data, path: path.write_bytes(data[:len(data) // 2]),
    "emptied": lambda data, path: path.write_bytes(b""),
    "head-only": lambda data, path: path.write_bytes(data[:65536]),
    "tail-dropped": lambda data, path: path.write_bytes(data[:-1]),
    "a-byte-appended": lambda data, path: path.write_bytes(data + b"\0"),
    "a-link-to-it": lambda data, path: (path.with_suffix(".real").write_bytes(data),
                                        path.symlink_to(path.with_suffix(".real"))),
    "a-folder": lambda data, path: path.mkdir(),
    "group-writable": lambda data, path: (path.write_bytes(data), path.chmod(0o664)),
}


def test_kept_code_through_every_plan_kind_answers_as_a_hook_that_keeps_nothing(
        setting: tuple[Path, Path, Path, dict[str, Path]]) -> None:
    """Plans of each kind in turn, twice: the groups of modules the first hooks kept are
    split by the next kinds (a group used in part), and every answer stays the fresh one's."""
    kept, fresh, project, plans = setting
    kinds = list(PLANS)
    assert _differing(kept, fresh, project, plans, kinds, 4) == []
    assert _differing(kept, fresh, project, plans, kinds[::-1]) == []
    assert len(_kept(kept)) == 2


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_kept_file_answers_as_a_hook_that_keeps_nothing(
        setting: tuple[Path, Path, Path, dict[str, Path]], damage: str) -> None:
    kept, fresh, project, plans = setting
    for kind in ("git", "make"):
        _hook(kept, plans[kind], PLANS[kind][1][0], project)
    files = _kept(kept)
    assert files
    for path in files:
        data = path.read_bytes()
        path.unlink()
        DAMAGE[damage](data, path)
    assert _differing(kept, fresh, project, plans, ["make", "npm"]) == []


def test_hooks_writing_the_kept_files_at_once_answer_as_one_that_keeps_nothing(
        setting: tuple[Path, Path, Path, dict[str, Path]]) -> None:
    """Six hooks at a time, each of another plan kind, all writing the kept files."""
    kept, fresh, project, plans = setting
    kinds = list(PLANS)
    answers: list[tuple[str, str, tuple[int, str, str]]] = []

    def run(turn: int) -> None:
        for kind in (kinds[turn:] + kinds[:turn])[:3]:
            call = PLANS[kind][1][turn % 2]
            answers.append((kind, call, _hook(kept, plans[kind], call, project)))

    threads = [threading.Thread(target=run, args=(turn,)) for turn in range(len(kinds))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [(kind, call) for kind, call, got in answers
            if got != _fresh(fresh, project, plans, kind, call)] == []
    assert _differing(kept, fresh, project, plans, kinds, 1) == []


def test_a_module_edited_to_the_same_size_after_its_group_was_split_is_imported_anew(
        setting: tuple[Path, Path, Path, dict[str, Path]]) -> None:
    """The hook's own module (its answer's text) edited in place to the same size, its time
    two seconds later (Python's own bytecode checks the second), after plans of two kinds
    split the groups: the next hook answers with the new text."""
    kept, _, project, plans = setting
    for kind in ("git", "make", "git"):
        _hook(kept, plans[kind], "echo hi", project)
    module = kept / "skillgrant" / "gate" / "hook.py"
    was = module.stat()
    text = module.read_bytes()
    assert text.count(b"Stay within it") == 1
    module.write_bytes(text.replace(b"Stay within it", b"Stay within IT"))
    os.utime(module, ns=(was.st_atime_ns, was.st_mtime_ns + 2_000_000_000))
    assert "Stay within IT" in _hook(kept, plans["make"], "echo hi", project)[2]
    assert "Stay within IT" in _hook(kept, plans["git"], "echo hi", project)[2]
