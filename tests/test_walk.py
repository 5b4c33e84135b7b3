"""The walk ``check`` and ``apply`` make of a directory (cli/files.walk, one ``os.scandir`` a
folder) against the plain walk it replaced (``os.walk`` and ``os.path.islink``), on generated
trees: folders, SKILL.md files, a folder called SKILL.md, symbolic links to files, to folders
and to nothing, skipped folders, commands folders of ``.claude/`` and of plugins, and folders
that cannot be listed."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant.cli import files
from skillgrant.cli.files import SKIPPED_DIRS, Unreadable, walk


def _plain_walk(directory: Path) -> Iterator[tuple[Path | Unreadable, str]]:
    """The walk as it was written before: os.walk, and islink for every file found."""
    top = os.fspath(directory)
    real_top = os.path.realpath(top)
    prefix = top if top.endswith(os.sep) else top + os.sep
    errors: list[OSError] = []
    for root, dirs, names in os.walk(top, onerror=errors.append):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        chosen = [os.path.join(root, "SKILL.md")] if "SKILL.md" in names else []
        if files._in_commands(root):
            chosen += [os.path.join(root, name) for name in sorted(names)
                       if name.endswith(".md") and name != "SKILL.md"
                       and files._has_frontmatter(os.path.join(root, name))]
        for name in chosen:
            if os.path.islink(name) or not name.startswith(prefix):
                yield Path(name), os.path.realpath(name)
            else:
                yield Path(name), os.path.join(real_top, name[len(prefix):])
    for error in errors:
        name = os.fspath(error.filename)
        yield Unreadable(Path(name), str(error.strerror or error)), "dir:" + os.path.realpath(name)


FOLDERS = ["a", "b", "commands", ".claude", ".claude/commands", "node_modules", ".git",
           "SKILL.md", "A", "a-b"]
FILES = ["SKILL.md", "x.md", "y.md", "notes.txt"]
TEXTS = ["---\nname: x\n---\n", "plain Markdown\n", "\ufeff---\n", ""]


@st.composite
def trees(draw: st.DrawFn) -> list[tuple[str, str, str]]:
    """Steps that build a tree: ("dir", path, ""), ("file", path, text), ("link", path,
    target), ("plugin", path, "") for a plugin's marker folder."""
    steps: list[tuple[str, str, str]] = []
    folders = [""]
    for _ in range(draw(st.integers(1, 14))):
        parent = draw(st.sampled_from(folders))
        kind = draw(st.sampled_from(["dir", "dir", "file", "file", "link", "plugin"]))
        if kind == "dir":
            path = os.path.join(parent, draw(st.sampled_from(FOLDERS)))
            if path not in folders:
                folders.append(path)
                steps.append(("dir", path, ""))
        elif kind == "file":
            steps.append(("file", os.path.join(parent, draw(st.sampled_from(FILES))),
                          draw(st.sampled_from(TEXTS))))
        elif kind == "link":
            name = draw(st.sampled_from(["SKILL.md", "x.md", "l", ".claude/commands/y.md"]))
            target = draw(st.sampled_from([*folders, "missing", "a/SKILL.md"]))
            steps.append(("link", os.path.join(parent, name), target))
        else:
            steps.append(("plugin", os.path.join(parent, ".claude-plugin"), ""))
    return steps


def _build(top: Path, steps: list[tuple[str, str, str]]) -> None:
    for kind, path, extra in steps:
        where = top / path
        if where.exists() or where.is_symlink():
            continue
        folder, exist_ok = (where, False) if kind in ("dir", "plugin") else (where.parent, True)
        try:
            folder.mkdir(parents=True, exist_ok=exist_ok)
        except OSError:  # a parent is a file or a broken link
            continue
        if kind == "file":
            where.write_text(extra, encoding="utf-8")
        elif kind == "link":
            where.symlink_to(top / extra)


def _denying(monkeypatch: pytest.MonkeyPatch, denied: set[str]) -> None:
    """os.scandir refuses the folders named in ``denied`` (root can list every folder)."""
    real = os.scandir

    def scandir(path: str) -> object:
        if os.path.basename(os.fspath(path)) in denied:
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


@settings(max_examples=examples(150), deadline=None)
@given(steps=trees(), denied=st.sets(st.sampled_from(["b", "A", "commands"]), max_size=1),
       given_as=st.sampled_from(["top", "top/", "rel"]))
def test_the_walk_gives_what_the_plain_walk_gave(steps: list[tuple[str, str, str]],
                                                  denied: set[str], given_as: str) -> None:
    top = Path(tempfile.mkdtemp(prefix="skillgrant-walk-"))
    here = os.getcwd()
    with pytest.MonkeyPatch.context() as monkeypatch:
        try:
            (top / "t").mkdir()
            _build(top / "t", steps)
            os.chdir(top)
            directory = {"top": str(top / "t"), "top/": str(top / "t") + "/", "rel": "t"}
            _denying(monkeypatch, denied)
            start = Path(directory[given_as])
            assert sorted(walk(start), key=str) == sorted(_plain_walk(start), key=str)
        finally:
            os.chdir(here)
            monkeypatch.undo()
            shutil.rmtree(top)


def test_the_walk_enters_no_symlinked_folder_and_keeps_a_linked_file(tmp_path: Path) -> None:
    (tmp_path / "real" / "s").mkdir(parents=True)
    (tmp_path / "real" / "s" / "SKILL.md").write_text("---\n---\n", encoding="utf-8")
    (tmp_path / "t" / "k").mkdir(parents=True)
    (tmp_path / "t" / "linked").symlink_to(tmp_path / "real", target_is_directory=True)
    (tmp_path / "t" / "k" / "SKILL.md").symlink_to(tmp_path / "real" / "s" / "SKILL.md")
    (tmp_path / "t" / "SKILL.md").mkdir()  # a folder called SKILL.md is entered, not read
    (tmp_path / "t" / "SKILL.md" / "SKILL.md").write_text("---\n---\n", encoding="utf-8")
    found = sorted((str(path), real) for path, real in walk(tmp_path / "t"))
    real_top = os.path.realpath(tmp_path)
    assert found == [
        (str(tmp_path / "t" / "SKILL.md" / "SKILL.md"),
         os.path.join(real_top, "t", "SKILL.md", "SKILL.md")),
        (str(tmp_path / "t" / "k" / "SKILL.md"), os.path.join(real_top, "real", "s", "SKILL.md"))]
