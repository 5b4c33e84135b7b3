"""A batch checked step by step over chunks of files (skillfile/staged.py, cli.batch.check_files;
issue 27, session 47): each file's outcome, rendering and stderr message the same as
``check_file`` one file after the other, an exception raised in its file's place, and the one
file after the other way kept whenever a file is written or a log record is heard; ``--jobs``
workers do the chunks they are handed the same way (session 48).

pytest's own log handlers make every record heard, so ``check_files`` under pytest takes the
one-after-the-other way unless a test says otherwise (``quiet_log``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REAL_SKILLS

import skillgrant.cli.batch as batch
import skillgrant.skillfile.builder as builder
from skillgrant.cli.batch import FileDone, Rendering, check_file, check_files, file_done
from skillgrant.errors import SkillFileError
from skillgrant.plan.model import Plan
from skillgrant.reports.check import TextStyle
from skillgrant.skillfile.staged import each

sys.path.insert(0, str(Path(__file__).parent / "oracle"))  # as tests/test_reread.py does
from frontmatter_gen import texts

PLAN = Plan.from_entries(["Read", "Grep", "Glob", "Bash(git *)", "Bash(gh *)"])
FIXTURES = sorted(Path(__file__).parent.glob("**/*.md"))
RENDERINGS = [Rendering(json_dry_run=False), Rendering(json_dry_run=True),
              Rendering(text=TextStyle("check", dry_run=False, colour=False, quiet=False)),
              Rendering(text=TextStyle("apply", dry_run=True, colour=True, quiet=True)),
              Rendering()]


@pytest.fixture
def quiet_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """No log record heard (as in the CLI without --debug): check_files goes by chunks."""
    monkeypatch.setattr(batch, "heard", lambda: False)


def _tree(root: Path, count: int = 300) -> list[Path]:
    """The fixtures, the real skills and generated frontmatters, one file a folder, with files
    that cannot be read (not UTF-8, too large, a folder) among them."""
    cases = [path.read_bytes() for path in FIXTURES]
    cases += [path.read_bytes() for path in sorted(REAL_SKILLS.glob("*.md"))]
    cases += [text.encode("utf-8", "surrogatepass") for text in texts(4747, count)]
    cases[5:5] = [b"\xff not UTF-8\n", b"x" * 1_000_001]
    paths = []
    for i, data in enumerate(cases):
        path = root / f"d{i:04d}" / "SKILL.md"
        path.parent.mkdir()
        path.write_bytes(data)
        paths.append(path)
    (root / "folder" / "SKILL.md").mkdir(parents=True)
    paths.insert(40, root / "folder" / "SKILL.md")
    paths.insert(41, root / "missing" / "SKILL.md")
    return paths


def _one_by_one(paths: list[Path], root: Path, rendering: Rendering) -> list[FileDone]:
    plugins: dict[str, object] = {}
    return [file_done(check_file(path, PLAN, root, write=False, dry_run=bool(
        rendering.json_dry_run), plugins=plugins), json_dry_run=rendering.json_dry_run,
        text=rendering.text) for path in paths]


def _chunked(paths: list[Path], root: Path, rendering: Rendering) -> list[FileDone]:
    return list(check_files(paths, PLAN, root, write=False,
                            dry_run=bool(rendering.json_dry_run), enforce=None, plugins={},
                            rendering=rendering))


@pytest.mark.parametrize("rendering", RENDERINGS)
def test_chunks_give_each_file_its_own_outcome(tmp_path: Path, quiet_log: None,
                                               rendering: Rendering) -> None:
    paths = _tree(tmp_path)
    expected = _one_by_one(paths, tmp_path, rendering)
    assert sum(done.error for done in expected) > 10  # errors among the chunks' files
    assert _chunked(paths, tmp_path, rendering) == expected


def test_small_chunks_and_chunks_ended_by_their_bytes(tmp_path: Path, quiet_log: None,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _tree(tmp_path, 60)
    expected = _one_by_one(paths, tmp_path, Rendering(json_dry_run=False))
    taken: list[int] = []
    read_chunk = builder.read_chunk

    def counted(pending: Any) -> Any:
        result = read_chunk(pending)
        taken.append(len(result[0]))
        return result

    monkeypatch.setattr(builder, "read_chunk", counted)
    monkeypatch.setattr(builder, "CHUNK_FILES", 7)
    assert _chunked(paths, tmp_path, Rendering(json_dry_run=False)) == expected
    assert set(taken[:-2]) == {7} and 0 < taken[-2] <= 7 and taken[-1] == 0
    taken.clear()
    monkeypatch.setattr(builder, "CHUNK_BYTES", 1)  # a chunk ends at its first text
    assert _chunked(paths, tmp_path, Rendering(json_dry_run=False)) == expected
    assert sum(taken) == len(paths) and taken.count(1) > len(paths) / 2


def _named(args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[str]:
    """The file a step is called for, as its arguments name it."""
    values = [*args, *kwargs.values()]
    return [str(value) for value in values if isinstance(value, (str, Path))] + [
        str(value.path) for value in values if hasattr(value, "path")]


@pytest.mark.parametrize("step", ["read_limited", "judge_plugin", "read_skill", "constrain",
                                  "splice"])
def test_an_exception_is_raised_in_its_files_place(tmp_path: Path, quiet_log: None,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   step: str) -> None:
    paths = _tree(tmp_path, 60)
    original = getattr(builder, step)
    started: list[str] = []
    failing: list[str] = []

    def broken(*args: Any, **kwargs: Any) -> Any:
        named = _named(args, kwargs)
        started.extend(named)
        if set(failing) & set(named):
            raise RuntimeError("boom")
        return original(*args, **kwargs)

    monkeypatch.setattr(builder, step, broken)
    _one_by_one(paths, tmp_path, Rendering())
    # A file of the first chunk, not its last, that the step is run for.
    index = next(i for i in range(45, 60) if str(paths[i]) in started)
    failing.append(str(paths[index]))
    started.clear()
    got: list[FileDone] = []
    with pytest.raises(RuntimeError, match="boom"):
        for item in check_files(paths, PLAN, tmp_path, write=False, dry_run=False,
                                enforce=None, plugins={}, rendering=Rendering(json_dry_run=False)):
            got.append(item)
    monkeypatch.setattr(builder, step, original)
    assert got == _one_by_one(paths[:index], tmp_path, Rendering(json_dry_run=False))
    # The step that failed was never run for a later file.
    later = {str(path) for path in paths[index + 1:]}
    assert not later & set(started[started.index(failing[0]):])


def test_written_or_heard_files_go_one_after_the_other(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    paths = _tree(tmp_path, 20)

    def refused(*args: Any) -> Any:
        raise AssertionError("read_chunk used")

    monkeypatch.setattr(builder, "read_chunk", refused)
    # pytest's handlers hear the records: one after the other.
    assert _chunked(paths, tmp_path, Rendering()) == _one_by_one(paths, tmp_path, Rendering())
    monkeypatch.setattr(batch, "heard", lambda: False)
    written = list(check_files(paths, PLAN, tmp_path, write=True, dry_run=False, enforce=None,
                               plugins={}, rendering=Rendering()))
    assert any(done.applied for done in written)


def test_each() -> None:
    values: list[Any] = [1, 2, SkillFileError("old"), 3, 4, 5]

    def step(value: int) -> int:
        if value == 2:
            raise SkillFileError("two")
        if value == 4:
            raise KeyboardInterrupt
        return value * 10

    assert each(values, step)
    assert [v if isinstance(v, int) else type(v).__name__ for v in values] == [
        10, "SkillFileError", "SkillFileError", 30, "KeyboardInterrupt"]
    assert values[1].message == "two"
    values = [1, 3]
    assert not each(values, step, 1) and values == [1, 30]


def _pooled(paths: list[Path], root: Path, rendering: Rendering, workers: int = 2) -> Any:
    from skillgrant.cli.pool import WorkerSetup, run_pool

    setup = WorkerSetup(PLAN, root, False, bool(rendering.json_dry_run), rendering)
    return run_pool(paths, setup, workers)


@pytest.mark.parametrize("heard", [False, True])
def test_jobs_workers_do_their_chunks_as_one_process_does(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          heard: bool) -> None:
    """``--jobs`` workers (forked: they see this test's patches) run ``check_files`` over the
    files they are handed: by chunks when nothing is heard, else one file after the other."""
    import skillgrant.cli.pool as pool

    paths = _tree(tmp_path, 100)
    rendering = Rendering(json_dry_run=False)
    expected = _one_by_one(paths, tmp_path, rendering)
    marks = tmp_path / "chunks"
    read_chunk = builder.read_chunk

    def marked(pending: Any) -> Any:
        with marks.open("a") as out:
            out.write("chunk\n")
        return read_chunk(pending)

    monkeypatch.setattr(builder, "read_chunk", marked)
    if not heard:
        monkeypatch.setattr(batch, "heard", lambda: False)
        monkeypatch.setattr(pool, "heard", lambda: False)
    assert list(_pooled(paths, tmp_path, rendering)) == expected
    assert marks.exists() != heard


def test_an_exception_in_a_worker_is_raised_in_its_files_place(
        tmp_path: Path, quiet_log: None, monkeypatch: pytest.MonkeyPatch) -> None:
    import skillgrant.cli.pool as pool

    paths = _tree(tmp_path, 60)
    failing = str(paths[50])
    original = builder.read_skill

    def broken(*args: Any, **kwargs: Any) -> Any:
        if failing in _named(args, kwargs):
            raise RuntimeError("boom")
        return original(*args, **kwargs)

    monkeypatch.setattr(pool, "heard", lambda: False)
    monkeypatch.setattr(builder, "read_skill", broken)
    got: list[FileDone] = []
    with pytest.raises(Exception, match="boom") as raised:
        for item in _pooled(paths, tmp_path, Rendering(json_dry_run=False)):
            got.append(item)
    assert type(raised.value).__name__ == "RuntimeError"
    monkeypatch.setattr(builder, "read_skill", original)
    assert got == _one_by_one(paths[:50], tmp_path, Rendering(json_dry_run=False))
