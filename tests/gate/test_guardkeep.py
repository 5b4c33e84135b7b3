"""The write guard's set kept across hook processes (gate/guardkeep.py, gate/readlog.py; issue
29): the kept set is the computed one; a change of anything its computation read (a file's
bytes, a folder's entries, a link, a path coming or going, a variable) makes it not used;
and nothing the computation asks of the system escapes the record (every call of the
system's file functions during a recorded computation comes from the recorder)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from skillgrant.gate import files, guardkeep, guards, linked, readlog, walkcache
from skillgrant.gate.nested import planned_of
from skillgrant.gate.planprograms import plan_programs

PLANS = {
    "npm": ("Bash(npm test)", "Bash(cp *)"),
    "make": ("Bash(make test)", "Bash(cp *)"),
    "pytest": ("Bash(python3 -m pytest *)", "Bash(sed -i *)"),
    "bench": ("Bash(git *)", "Bash(npm *)", "Bash(npx prettier *)", "Bash(gh pr view *)",
              "Bash(tail *)", "Read(//repo/**)", "Edit(//repo/out/**)"),
}


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "p"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.json").write_text("{}")
    (project / "Makefile").write_text("test:\n\t@echo ok\n")
    (project / "package.json").write_text('{"scripts": {"test": "jest"}}')
    (project / "tests").mkdir()
    (project / "tests" / "test_a.py").write_text("def test_a(): pass\n")
    (project / "a.txt").write_text("a")
    (project / ".github" / "hooks").mkdir(parents=True)
    (project / ".github" / "hooks" / "x.json").symlink_to(project / "a.txt")
    return project


def _arguments(tmp_path: Path, project: Path, plan: str) -> tuple[object, ...]:
    return (str(tmp_path / "plan.yaml"), None, None, str(project), str(project),
            plan_programs(PLANS[plan]))


class _Counted:
    def __init__(self) -> None:
        self.computed = 0

    def __call__(self, *arguments: object) -> tuple[tuple[str, bool], ...]:
        self.computed += 1
        return guards._guarded_items(*arguments)  # type: ignore[arg-type]


def _same_set(a: Any, b: Any) -> None:
    assert tuple(a) == tuple(b)
    assert {k: v for k, v in vars(a).items() if k != "planning"} == \
        {k: v for k, v in vars(b).items() if k != "planning"}
    assert planned_of(a) == planned_of(b)


@pytest.fixture
def state(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory,
          monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.mktemp("state")  # (not in a folder the set's walk lists)
    monkeypatch.setattr(guardkeep, "state_folder", lambda: str(folder))
    monkeypatch.setattr(walkcache, "state_folder", lambda: str(folder))  # (its walks' too)
    # the folders above the project (/tmp's churn) asked name by name, not listed (the same
    # real paths: linked.real_paths), so that another process's files there are no change
    monkeypatch.setattr(linked, "_LISTED", 1 << 30)
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))  # (not the machine's)
    monkeypatch.chdir(tmp_path)
    return folder


def _kept(arguments: tuple[object, ...], counted: _Counted) -> object:
    return guardkeep.kept(arguments, counted, guards.__file__)


@pytest.mark.parametrize("plan", sorted(PLANS))
def test_the_kept_set_is_the_computed_one(plan: str, tmp_path: Path, state: Path) -> None:
    project = _project(tmp_path)
    arguments = _arguments(tmp_path, project, plan)
    counted = _Counted()
    first = _kept(arguments, counted)  # (a first walk writes its listings: nothing kept)
    for _ in range(6):  # (another process's file made in /tmp, which make's and pytest's
        kept = counted.computed  # checkers' settings are looked for in, is a change too)
        again = _kept(arguments, counted)
        if counted.computed == kept:
            break
    assert counted.computed == kept  # (from the kept file)
    _same_set(first, again)
    _same_set(again, guards._guarded_items(*arguments))  # type: ignore[arg-type]


def _record(state: Path) -> readlog.Record:
    import marshal

    [kept] = (state / "guards").glob("*.kept")
    record: readlog.Record = marshal.loads(kept.read_bytes()[8:])[2]  # (after its checksum)
    return record


def _append(path: Path) -> None:
    path.write_text(path.read_text() + " ")


def _relink(path: Path, to: Path) -> None:
    path.unlink()
    path.symlink_to(to)


#: One change of each kind to something the set's computation read (the plan, the path in
#: the project its record must hold, the change).
CHANGES: dict[str, tuple[str, str, Callable[[Path], object]]] = {
    "a file's bytes": ("make", "Makefile", lambda p: _append(p / "Makefile")),
    "a file's bytes, its size kept": ("bench", "package.json", lambda p: (
        p / "package.json").write_text((p / "package.json").read_text().replace("j", "k"))),
    "an entry made in a folder listed": ("npm", ".github/hooks", lambda p: (
        p / ".github" / "hooks" / "y.json").write_text("{}")),
    "an entry made in the project": ("npm", "", lambda p: (p / "b.txt").write_text("b")),
    "a link led elsewhere": ("npm", ".github/hooks/x.json", lambda p: _relink(
        p / ".github" / "hooks" / "x.json", p / "Makefile")),
    "a file made where none was": ("npm", ".mcp.json", lambda p: (
        p / ".mcp.json").write_text("{}")),
    "a folder made where none was": ("npm", ".codex", lambda p: (p / ".codex").mkdir()),
    "a file made a link": ("npm", "a.txt", lambda p: _relink(p / "a.txt", Path("/etc/hosts"))),
    "a second name of a file": ("npm", ".claude/settings.json", lambda p: os.link(
        p / ".claude" / "settings.json", p / "second.json")),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_change_of_anything_read_makes_the_kept_set_unused(change: str, tmp_path: Path,
                                                            state: Path) -> None:
    plan, read, make = CHANGES[change]
    project = _project(tmp_path)
    arguments = _arguments(tmp_path, project, plan)
    counted = _Counted()
    _kept(arguments, counted)
    _kept(arguments, counted)
    assert counted.computed <= 2
    kept = counted.computed
    asked = {str(q[1]) for q in _record(state) if len(q) > 1}
    assert str(project / read).rstrip("/") in {p.rstrip("/").replace("/./", "/")
                                              for p in asked}, read
    make(project)
    try:
        found: object = _kept(arguments, counted)
    except ValueError as e:  # (a file of two names: the set is not made, the hook denies)
        found = e
    assert counted.computed == kept + 1, change
    try:
        computed: object = guards._guarded_items(*arguments)  # type: ignore[arg-type]
    except ValueError as e:
        computed = e
    if isinstance(computed, ValueError):
        assert str(found) == str(computed)
    else:
        _same_set(found, computed)


def test_each_question_recorded_is_asked_again(tmp_path: Path, state: Path) -> None:
    """Each recorded answer changed alone (as a change on the system would change it) makes
    the record not the same: no question is left out of ``same``."""
    project = _project(tmp_path)
    for _ in range(2):  # (the first may write its walk's listings: nothing kept)
        _kept(_arguments(tmp_path, project, "npm"), _Counted())
    record = _record(state)
    kinds = set()
    for question in record:
        kinds.add(question[0])
        assert not readlog.same({question: ("changed",)}, _values()), question
    assert {"stat", "file", "scandir", "readlink", "value"} <= kinds


def _values() -> dict[str, tuple[object, str]]:
    return {name: (sys.modules[guards.__name__], name)
            for name in ("loaded_libraries", "imported_from")}


def test_a_variable_changed_makes_another_key(tmp_path: Path, state: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    project = _project(tmp_path)
    arguments = _arguments(tmp_path, project, "npm")
    counted = _Counted()
    _kept(arguments, counted)
    _kept(arguments, counted)
    kept = counted.computed
    for name, value in (("PATH", os.environ.get("PATH", "") + ":/x"), ("HOME", str(project)),
                        ("ANYTHING_ELSE", "1")):
        monkeypatch.setenv(name, value)
        _kept(arguments, counted)
    assert counted.computed == kept + 3


_WATCHED = frozenset(("stat", "lstat", "scandir", "listdir", "readlink", "access", "open",
                      "getcwd", "getpwuid", "is_dir", "is_file", "is_symlink", "inode",
                      "fork_exec", "posix_spawn", "system"))
_RECORDER = (readlog.__file__, sys.modules["skillgrant.gate.readentries"].__file__)


@pytest.mark.parametrize("plan", sorted(PLANS))
def test_nothing_read_escapes_the_record(plan: str, tmp_path: Path, state: Path) -> None:
    """Every call of the system's file functions (``posix``, ``io.open``, ``pwd``, a folder
    entry's) while the set is computed under a record comes from the recorder, or from a
    question recorded by its whole answer (``readlog._valued``)."""
    project = _project(tmp_path)
    arguments = _arguments(tmp_path, project, plan)
    escaped: list[str] = []

    def watch(frame: Any, event: str, arg: Any) -> None:
        if event != "c_call" or getattr(arg, "__name__", "") not in _WATCHED:
            return
        module = getattr(arg, "__module__", None) or type(getattr(arg, "__self__", None)
                                                         ).__name__
        if module not in ("posix", "io", "_io", "pwd", "DirEntry", "_posixsubprocess",
                          "nt"):
            return
        at = frame
        while at is not None:
            if at.f_code.co_filename in _RECORDER:
                return
            at = at.f_back
        code = frame.f_code
        escaped.append(f"{module}.{arg.__name__} from {code.co_filename}:{code.co_name}")

    def computing(*arguments: object) -> tuple[tuple[str, bool], ...]:
        sys.setprofile(watch)
        try:
            return guards._guarded_items(*arguments)  # type: ignore[arg-type]
        finally:
            sys.setprofile(None)

    guardkeep.kept(arguments, computing, guards.__file__)
    assert list((state / "guards").glob("*.kept")), "nothing was kept"
    assert escaped == []


def test_the_hook_keeps_the_set_of_its_plans_programs(tmp_path: Path, state: Path) -> None:
    """``guards.planned_items`` (the hook's): in a hook's process of its own the set is kept
    under the plan's entries, and is the set of their programs either way."""
    project = _project(tmp_path)
    entries = PLANS["npm"]
    arguments = (str(tmp_path / "plan.yaml"), None, None, str(project), str(project))
    files.keep_across(True)
    try:
        found = [guards.planned_items(*arguments, entries) for _ in range(3)]
    finally:
        files.keep_across(False)
    assert list((state / "guards").glob("*.kept"))
    computed = guards.guarded_items(*arguments, plan_programs(entries))
    for each in [*found, guards.planned_items(*arguments, entries)]:
        _same_set(each, computed)


def _one_kept(tmp_path: Path, state: Path) -> tuple[tuple[object, ...], _Counted, Path]:
    """An npm plan's arguments, their counter after two hooks' calls, and the file kept."""
    project = _project(tmp_path)
    arguments = _arguments(tmp_path, project, "npm")
    counted = _Counted()
    for _ in range(2):
        _kept(arguments, counted)
    [path] = (state / "guards").glob("*.kept")
    return arguments, counted, path


@pytest.mark.parametrize("where", ["file", "folder", "link"])
def test_a_kept_file_others_may_write_is_not_read(where: str, tmp_path: Path,
                                                   state: Path) -> None:
    """As ``patterncache``'s: a kept file or its folder another user may write, or a link in
    its place, keeps nothing."""
    arguments, counted, path = _one_kept(tmp_path, state)
    kept = counted.computed
    if where == "file":
        path.chmod(0o666)
    elif where == "folder":
        path.parent.chmod(0o777)
    else:
        moved = path.with_suffix(".real")
        path.rename(moved)
        path.symlink_to(moved)
    try:
        _kept(arguments, counted)
    finally:
        path.parent.chmod(0o700)
    assert counted.computed == kept + 1


def test_a_kept_set_remembers_the_real_spellings_as_computing_does(
        tmp_path: Path, state: Path) -> None:
    """Review s62-sreview H-folded-walk: computing the set remembers each folded collecting
    folder's real spelling (``testlinks.remember``), which the walk reads later; a set taken
    kept remembers the same."""
    from skillgrant.gate import testlinks

    project = _project(tmp_path / "MyProj")
    arguments = _arguments(tmp_path, project, "pytest")
    counted = _Counted()
    testlinks._REAL.clear()
    computed = guards._guarded_items(*arguments)  # type: ignore[arg-type]
    expected = dict(testlinks._REAL)
    assert any(real != key for key, real in expected.items())  # (a capital: folded)
    for _ in range(6):
        kept = counted.computed
        testlinks._REAL.clear()
        found = _kept(arguments, counted)
        if counted.computed == kept:
            break
    assert counted.computed == kept  # (taken kept)
    assert expected == testlinks._REAL
    _same_set(found, computed)


def test_a_damaged_kept_file_is_not_read(tmp_path: Path, state: Path) -> None:
    """Review s62-sreview H-corrupt-kept: a kept file whose bytes are not those written (its
    checksum) keeps nothing, and is not unmarshalled."""
    arguments, counted, path = _one_kept(tmp_path, state)
    kept = counted.computed
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    _same_set(_kept(arguments, counted), guards._guarded_items(*arguments))  # type: ignore[arg-type]
    assert counted.computed == kept + 1
