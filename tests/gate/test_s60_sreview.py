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
from collections.abc import Callable
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
def _linked(data: bytes, path: Path) -> None:
    path.with_suffix(".real").write_bytes(data)
    path.symlink_to(path.with_suffix(".real"))


def _group_writable(data: bytes, path: Path) -> None:
    path.write_bytes(data)
    path.chmod(0o664)


DAMAGE: dict[str, Callable[[bytes, Path], object]] = {
    "truncated": lambda data, path: path.write_bytes(data[:len(data) // 2]),
    "tail-dropped": lambda data, path: path.write_bytes(data[:-1]),
    "a-byte-appended": lambda data, path: path.write_bytes(data + b"\0"),
    "a-link-to-it": lambda data, path: _linked(data, path),
    "group-writable": lambda data, path: _group_writable(data, path),
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


# --- B: a batch answers each file as that file alone ---------------------------------------

REAL = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "real-skills"
#: The real skills the batch rows take (spread over the corpus: strings, lists, commands).
TAKEN = (1, 9, 18, 33)
PLAN_TOP = "allowed-tools:\n  - Bash(git *)\n  - Read\n  - Grep\n"
PLAN_ONE = "allowed-tools:\n  - Bash\n  - Read\n"
PLAN_TWO = "allowed-tools:\n  - Bash(npm run *)\n  - Edit(src/**)\n"


def _one_byte_apart(text: bytes, seed: int) -> bytes:
    """``text`` with one byte of its ``allowed-tools`` lines changed (a space dropped or
    doubled, a letter's case turned): a key that compares a prefix, or a value's shape,
    reads the two alike."""
    at = text.find(b"allowed-tools:")
    end = text.find(b"\n---", at)
    spots = [i for i in range(at + 14, end) if text[i:i + 1].isalpha() or text[i] == 32]
    if at < 0 or not spots:
        return text + b"\n"
    i = spots[(seed * 7919) % len(spots)]
    byte = text[i:i + 1]
    return text[:i] + (b"  " if byte == b" " else byte.swapcase()) + text[i + 1:]


def _batch_tree(top: Path) -> list[Path]:
    """A tree of real skills and their near copies: each file's own, its copy one byte apart,
    its CRLF and BOM copies, and two copies under two other plans (``plan.yaml`` beside
    them, in a repository: a plan is looked for up to its root); the files, in the batch's
    order."""
    reals = sorted(REAL.glob("*.md"))
    (top / ".git").mkdir(parents=True)
    for name, plan in (("a", PLAN_TOP), ("p1", PLAN_ONE), ("p2", PLAN_TWO)):
        (top / name).mkdir(parents=True)
        (top / name / "plan.yaml").write_text(plan)
    for n in TAKEN:
        text = reals[n].read_bytes()
        for folder, data in ((f"a/{n}", text), (f"a/{n}b", _one_byte_apart(text, n)),
                             (f"a/{n}c", text.replace(b"\n", b"\r\n")),
                             (f"a/{n}d", b"\xef\xbb\xbf" + text), (f"p1/{n}", text),
                             (f"p2/{n}", text)):
            (top / folder).mkdir(parents=True)
            (top / folder / "SKILL.md").write_bytes(data)
    return sorted(top.rglob("SKILL.md"))


def _skillgrant(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-P", "-m", "skillgrant", *args], cwd="/",
                          capture_output=True, text=True, timeout=300, check=False)


def _by_file(output: str) -> dict[str, dict[str, object]]:
    """A JSON report's file objects by path (the artifact, named from the batch's root,
    left out)."""
    files: dict[str, dict[str, object]] = {}
    for found in json.loads(output)["files"]:
        found.pop("artifact", None)
        files[str(found.pop("path"))] = found
    return files


@pytest.mark.skipif(not REAL.is_dir(), reason="the real-skills corpus is not beside the project")
def test_a_batch_answers_each_file_as_that_file_alone(tmp_path: Path) -> None:
    """``apply --dry-run`` (the decisions, and the rewrite read back: what ``check`` says and
    more) of the tree at once and of each file alone."""
    command = ["apply", "--dry-run"]
    files = _batch_tree(tmp_path / "tree")
    batch = _by_file(_skillgrant(*command, "-f", "json", str(tmp_path / "tree")).stdout)
    assert sorted(batch) == [str(path) for path in files]
    assert sum(bool(found.get("error")) for found in batch.values()) < len(files) // 4
    alone = {}
    for path in files:
        alone.update(_by_file(_skillgrant(*command, "-f", "json", str(path)).stdout))
    assert [path for path in batch if batch[path] != alone[path]] == []


@pytest.mark.skipif(not REAL.is_dir(), reason="the real-skills corpus is not beside the project")
def test_apply_over_a_batch_writes_each_file_as_apply_of_that_file_alone(tmp_path: Path) -> None:
    files = _batch_tree(tmp_path / "batch")
    shutil.copytree(tmp_path / "batch", tmp_path / "alone")
    was = {path: path.read_bytes() for path in files}
    batch = _skillgrant("apply", str(tmp_path / "batch"))
    assert batch.stderr.count("error:") < len(files) // 4, batch.stderr
    for path in files:
        _skillgrant("apply", str(tmp_path / "alone" / path.relative_to(tmp_path / "batch")))
    assert [path for path in files if path.read_bytes() != (
        tmp_path / "alone" / path.relative_to(tmp_path / "batch")).read_bytes()] == []
    assert sum(path.read_bytes() != was[path] for path in files) > len(files) // 2


# --- H: the payload read as ``json.loads`` reads it -------------------------------------------

#: A payload (``{C}``: where the command's JSON string goes) the hook denies for a call.
_CALL = ('{"session_id": "s", "hook_event_name": "PreToolUse", "cwd": "/", "tool_name": "Bash", '
         '"tool_input": {"command": {C}}}')
#: Payloads a reader of its own (without ``json``) may read otherwise: those ``json.loads``
#: refuses, and those it reads in a way of its own (the last of a repeated key, NaN, numbers
#: past the digits limit, escaped surrogates, a BOM, bytes that are no UTF-8).
ODD_PAYLOADS = [
    _CALL.replace("{C}", '"rm -rf /"').encode() + b" x",
    b"\xef\xbb\xbf" + _CALL.replace("{C}", '"echo hi"').encode(),
    _CALL.replace("{C}", '"echo \xff"').encode("latin-1"),
    _CALL.replace("{C}", '"echo \\ud800"').encode(),
    _CALL.replace("{C}", '"rm -rf /", "command": "echo hi"').encode(),
    _CALL.replace("{C}", '"echo hi", "command": "rm -rf /"').encode(),
    _CALL.replace("{C}", "NaN").encode(),
    _CALL.replace("{C}", "1" * 4400).encode(),
    _CALL.replace("{C}", '"echo hi"').replace(", ", ",\f").encode(),
    _CALL.replace("{C}", '"echo hi"').encode("utf-16"),
    _CALL.replace("{C}", '"echo \x01"').encode(),
    b"[" * 5000 + b"]" * 5000,
]


def test_a_payload_is_read_as_json_loads_reads_it(tmp_path: Path) -> None:
    """The printed hook on payloads ``json`` refuses: denied with ``json``'s own words; on
    the others: the answer to the payload ``json`` reads them as, written plainly."""
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(echo *)", "Bash(rm -rf /)"]}))
    hook = [sys.executable, "-I", "-c", "from skillgrant.cli.entry import main; main()", "hook",
            "--plan", str(plan)]
    wrong = []
    for raw in ODD_PAYLOADS:
        try:
            plainly: bytes | None = json.dumps(json.loads(raw.decode("utf-8"))).encode()
            reason = ""
        except (ValueError, RecursionError) as e:
            plainly = None
            reason = f"the payload is not JSON: {e}" if isinstance(e, ValueError) else \
                "the payload is nested too deeply"
        got = subprocess.run(hook, input=raw, cwd="/", capture_output=True, timeout=60)
        if plainly is None:
            if got.returncode != 2 or not got.stderr.decode().rstrip("\n").endswith(reason):
                wrong.append((raw[:80], got.returncode, got.stderr[-200:]))
            continue
        want = subprocess.run(hook, input=plainly, cwd="/", capture_output=True, timeout=60)
        if (got.returncode, got.stdout, got.stderr) != (want.returncode, want.stdout,
                                                        want.stderr):
            wrong.append((raw[:80], got.returncode, got.stderr[-200:]))
    assert wrong == []
