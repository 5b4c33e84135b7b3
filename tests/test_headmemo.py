"""A batch's outcomes kept by the files' heads (skillfile/headmemo.py, issue 27, session 59):
a file whose head was checked before in the batch gets the outcome it gets alone, whatever its
body; the head is where the reader's reading ends; what is kept is bounded."""

from __future__ import annotations

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
from skillgrant.skillfile.headmemo import HeadMemo, Recalled, frontmatter_head
from skillgrant.skillfile.spans import read_skill
from tests.oracle.frontmatter_gen import texts

PLANS = [Plan.from_entries(["Read", "Grep", "Glob", "Bash(git *)", "Bash(gh *)"]),
         Plan.from_entries([])]
FIXTURES = sorted(Path(__file__).parent.glob("**/*.md"))
#: Bodies a head is given: what follows the closing fence is never read, whatever it holds
#: (fences, a '...' line, the keys SG011 reads, characters the reader refuses in a head).
BODIES = ["", "Body\n", "---\nallowed-tools: Bash\n---\n", "...\n---\n", "\r\n---\r\n",
          "disallowed-tools: Bash\nisallowed\n", "\u00e9\u2028\u0085\ufeff \U0001f600\n",
          "---", "-----\n", "x" * 5000]


def _sources() -> list[str]:
    found = [path.read_bytes().decode("utf-8", "surrogatepass") for path in FIXTURES]
    found += [path.read_text("utf-8") for path in sorted(REAL_SKILLS.glob("*.md"))]
    return found + list(texts(5959, 400))


def _tree(root: Path, together: bool) -> list[Path]:
    """Each source as written, then with each of BODIES after its head: ``together``, one
    after the other (a chunk holds a head's files: the later ones take the first one's
    outcome once it is done, or are done as it was where it failed), else a round of the
    sources a body (a head is kept from an earlier chunk)."""
    sources = _sources()
    files: list[tuple[int, int, str]] = []
    for j in range(len(BODIES) + 1):
        for i, text in enumerate(sources):
            end = frontmatter_head(text)
            if not j or end > 0:
                files.append((i, j, text[:end] + BODIES[j - 1] if j else text))
    if together:
        files.sort(key=lambda file: file[:2])
    paths = []
    for i, j, variant in files:
        path = root / f"d{i:04d}-{j}" / "SKILL.md"
        path.parent.mkdir()
        path.write_bytes(variant.encode("utf-8", "surrogatepass"))
        paths.append(path)
    return paths


RENDERINGS = [Rendering(json_dry_run=False), Rendering(json_dry_run=True),
              Rendering(text=TextStyle("check", dry_run=False, colour=False, quiet=False)),
              Rendering(text=TextStyle("apply", dry_run=True, colour=False, quiet=False))]


@pytest.mark.parametrize(("plan", "together"), [(PLANS[0], False), (PLANS[0], True),
                                               (PLANS[1], True)],
                         ids=["plan-rounds", "plan-together", "empty-together"])
def test_a_kept_head_gives_the_files_own_outcome(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch,
                                                 plan: Plan, together: bool) -> None:
    monkeypatch.setattr(batch, "heard", lambda: False)  # check_files goes by chunks
    recalled = 0
    outcome = batch._recalled

    def counted(*args: object) -> object:
        nonlocal recalled
        recalled += 1
        return outcome(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(batch, "_recalled", counted)
    again = 0  # files of a chunk done after an earlier one of their head failed
    apply_chunk = builder.apply_chunk

    def alone(values: list[Any], *args: Any, **kwargs: Any) -> None:
        nonlocal again
        again += kwargs.get("recall") is None
        apply_chunk(values, *args, **kwargs)

    monkeypatch.setattr(builder, "apply_chunk", alone)
    paths = _tree(tmp_path, together)
    for rendering in RENDERINGS:
        plugins: dict[str, object] = {}
        alone = [file_done(check_file(path, plan, tmp_path, write=False,
                                      dry_run=bool(rendering.json_dry_run or (
                                          rendering.text and rendering.text.dry_run)),
                                      plugins=plugins),
                           json_dry_run=rendering.json_dry_run, text=rendering.text)
                 for path in paths]
        dry_run = bool(rendering.json_dry_run or (rendering.text and rendering.text.dry_run))
        got: list[FileDone] = list(check_files(
            paths, plan, tmp_path, write=False, dry_run=dry_run, enforce=None, plugins={},
            rendering=rendering))
        assert got == alone
        assert sum(done.error for done in got) > 100
    assert recalled > len(paths)  # a third of the files are recalled, in each rendering
    assert (again > 100) == together


def test_the_head_is_where_the_reading_ends() -> None:
    compared = 0
    for text in _sources():
        end = frontmatter_head(text)
        try:
            doc = read_skill(text)
        except SkillFileError:
            continue
        if end > 0:
            compared += 1
            assert doc.body_start == end
            assert text[end - 1] == "\n" and text[doc.yaml_end:doc.yaml_end + 3] == "---"
        else:  # no head: a '...' close, or a text that ends on its closing line
            assert text[doc.yaml_end:doc.yaml_end + 3] == "..." or doc.body_start == len(text)
    assert compared > 100


def test_what_is_kept_is_bounded() -> None:
    def text(i: int, size: int = 0) -> str:
        return f"---\nname: n{i}\ndescription: {'x' * size}\n---\nbody\n"

    memo: HeadMemo[int] = HeadMemo(entries=3, chars=10_000)
    for i in range(3):
        memo.keep(text(i), frontmatter_head(text(i)), i)
    assert isinstance(memo.recall(("p", text(1))), Recalled)  # asked again: kept when full
    memo.keep(text(3), frontmatter_head(text(3)), 3)  # full: the others let go
    assert [isinstance(memo.recall(("p", text(i))), Recalled) for i in range(4)] == [
        False, True, False, True]
    recalled = memo.recall(("p", text(3) + "more"))
    assert isinstance(recalled, Recalled) and recalled.answer == 3
    assert recalled.body_start == frontmatter_head(text(3))
    memo.keep(text(4), frontmatter_head(text(4)), 4)  # room again: kept
    assert isinstance(memo.recall(("p", text(4))), Recalled)
    memo.keep(text(5), frontmatter_head(text(5)), 5)  # full, and every head asked again
    assert not isinstance(memo.recall(("p", text(5))), Recalled)
    assert all(isinstance(memo.recall(("p", text(i))), Recalled) for i in (1, 3, 4))
    by_size: HeadMemo[int] = HeadMemo(entries=100, chars=300)
    by_size.keep(text(0, 200), frontmatter_head(text(0, 200)), 0)
    by_size.keep(text(1, 200), frontmatter_head(text(1, 200)), 1)  # over the characters
    assert [isinstance(by_size.recall(("p", text(i, 200))), Recalled) for i in range(2)] == [
        False, True]
    by_size.keep(text(2, 400), frontmatter_head(text(2, 400)), 2)  # larger than all the room
    assert not isinstance(by_size.recall(("p", text(2, 400))), Recalled)
    by_size.keep(text(3), frontmatter_head(text(3)), 3)  # (not full for it)
    assert isinstance(by_size.recall(("p", text(3))), Recalled)
    # a text that is not its head's reading (a '...' close) is never kept
    dotted = "---\nname: x\n...\nbody\n"
    by_size.keep(dotted, read_skill(dotted).body_start, 9)
    assert not isinstance(by_size.recall(("p", dotted)), Recalled)
