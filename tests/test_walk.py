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
from skillgrant.cli.files import Unreadable, walk


def _plain_walk(directory: Path) -> Iterator[tuple[Path | Unreadable, str]]:
    """The walk written plainly: a recursive visit in name order with ``os.path``'s own
    answers (``isdir``, ``islink``, ``realpath``) for every entry: outside a runtime's folders
    (``.claude``, ``.github``, a plugin's root) the links are not entered, and below
    ``node_modules``, ``.git``, ``.hg`` and ``.svn`` only runtime folders yield files; inside
    them, everything is entered, each real folder once."""
    top = os.fspath(directory)
    real_top = os.path.realpath(top)
    prefix = top if top.endswith(os.sep) else top + os.sep
    entered = {real_top}
    found: list[tuple[Path | Unreadable, str]] = []

    def visit(root: str, zone: str, linked: bool) -> None:
        try:
            with os.scandir(root) as listing:
                names = sorted(entry.name for entry in listing)
        except OSError as error:
            found.append((Unreadable(Path(os.fspath(error.filename)),
                                     str(error.strerror or error)),
                          "dir:" + os.path.realpath(os.fspath(error.filename))))
            return
        folders = [n for n in names if os.path.isdir(os.path.join(root, n))]
        children = _children(root, zone, folders, entered)
        if zone != "deps":
            for name in _files(root, top, names, folders):
                if linked or os.path.islink(name) or not name.startswith(prefix):
                    found.append((Path(name), os.path.realpath(name)))
                else:
                    found.append((Path(name), os.path.join(real_top, name[len(prefix):])))
        for path, inner, link in children:
            visit(path, inner, linked or link)

    parts = set(Path(real_top).parts)
    visit(top, "runtime" if parts & {".claude", ".github", ".agents"} else "plain", False)
    return iter(found)


def _children(root: str, zone: str, folders: list[str],
              entered: set[str]) -> list[tuple[str, str, bool]]:
    """The folders of ``root`` the plain walk enters, with their zones and whether each is a
    link."""
    plugin = zone != "runtime" and (".claude-plugin" in folders or ".plugin" in folders or any(
        os.path.isfile(os.path.join(root, *place)) for place in (
            ("plugin.json",), (".github", "plugin", "plugin.json"))))
    children = []
    for name in folders:
        path = os.path.join(root, name)
        inner = "runtime" if zone == "runtime" or plugin or name in (
            ".claude", ".github", ".agents") else "deps" if zone == "deps" or \
            name in ("node_modules", ".git", ".hg", ".svn") else "plain"
        link = os.path.islink(path)
        if link and (inner == "plain" or os.path.realpath(path) in entered):
            continue
        if link:
            entered.add(os.path.realpath(path))
        children.append((path, inner, link))
    return children


def _files(root: str, top: str, names: list[str], folders: list[str]) -> list[str]:
    """The files of ``root`` the plain walk reads."""
    chosen = [os.path.join(root, "SKILL.md")] if "SKILL.md" in names and \
        "SKILL.md" not in folders else []
    if files._in_commands(root, top):
        chosen += [os.path.join(root, name) for name in names
                   if name.lower().endswith(".md") and name != "SKILL.md" and name not in folders
                   and files._has_frontmatter(os.path.join(root, name))]
    return chosen


FOLDERS = ["a", "b", "commands", ".claude", ".claude/commands", "node_modules", ".git",
           "SKILL.md", "A", "a-b", ".github", "skills", ".hg", ".agents", ".github/plugin"]
FILES = ["SKILL.md", "x.md", "y.MD", "notes.txt", "plugin.json"]
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
            steps.append(("plugin", os.path.join(parent, draw(st.sampled_from(
                [".claude-plugin", ".plugin"]))), ""))
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
