"""``gate.linked.real_paths`` against the system's ``os.path.realpath``: the guarded set's real
paths are asked a folder at a time, a folder's from its parent's, and a folder asked for many
items by one listing; each answer must be the system's (an independent reference)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from skillgrant.gate import linked


def _tree(root: Path, rng: random.Random) -> list[str]:
    """Folders, files and links of every kind under ``root``; paths to ask about."""
    folders = [root]
    for i in range(12):
        folder = rng.choice(folders) / f"d{i}"
        folder.mkdir()
        folders.append(folder)
        (folder / "f").write_text("x")
    for i in range(14):
        at = rng.choice(folders) / f"l{i}"
        target = rng.choice([*folders, *(f / "f" for f in folders[1:]), root / "missing"])
        if rng.random() < 0.5:
            os.symlink(target, at)
        else:
            os.symlink(os.path.relpath(target, at.parent), at)
    names = [p for p in root.rglob("*")] + [root / "missing" / "x"]
    paths = [str(p) for p in names]
    paths += [str(p / name) for p in names for name in ("f", "settings.json", "x")][:400]
    return paths


@pytest.mark.parametrize("seed", range(8))
def test_real_paths_are_the_systems(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    paths = _tree(tmp_path, rng)
    # a folder listed once (``_LISTED`` names asked in it), some of them there
    many = [str(tmp_path / "d0" / f"n{i}") for i in range(linked._LISTED + 2)]
    for name in many[:3]:
        Path(name).write_text("x")
    os.symlink(tmp_path / "d0", many[3])
    missing: set[str] = set()
    found = linked.real_paths([*paths, *many], missing)
    for path in [*paths, *many]:
        assert found[path] == os.path.realpath(os.path.abspath(path)), path
    # what is said to be missing names nothing (its second names are not asked: guards.py)
    assert missing and all(not os.path.lexists(real) for real in missing)
    assert {found[p] for p in many[4:]} <= missing and not {found[p] for p in many[:4]} & missing
    assert found[str(tmp_path / "missing" / "x")] in missing


@pytest.mark.parametrize("link", [".ssh/config.d/work", ".copilot/config.json",
                                  ".config/sqlite3/sqliterc", ".config/git/config"])
def test_a_link_in_the_users_program_folders_guards_its_target(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, link: str) -> None:
    """Review s41 S4, S4b: GNU stow links ssh's, Copilot CLI's, sqlite3's and git's settings
    from a dotfiles folder; writing the dotfiles file is writing the settings."""
    from skillgrant.gate import guards

    home = tmp_path / "home"
    target = tmp_path / "dotfiles" / "settings"
    target.parent.mkdir()
    target.write_text("x\n")
    (home / link).parent.mkdir(parents=True)
    (home / link).symlink_to(target)
    monkeypatch.setenv("HOME", str(home))
    for name in ("XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_DIR", "CLAUDE_CONFIG_DIR"):
        monkeypatch.delenv(name, raising=False)
    items = guards.guarded_items(str(tmp_path / "plan.json"), None, None, str(tmp_path),
                                 None)
    assert any(item == str(target) for item, _ in items), link


def test_a_leading_double_slash_is_the_root(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """s48-hookspeed: ``//home/me`` names ``/home/me`` (the system, ``os.path.realpath``); the
    guarded set's real paths kept it as ``//home/me``, so with ``HOME=//home/me`` a Write to
    ``/home/me/.claude/settings.json`` matched no guarded item and was allowed."""
    from skillgrant.gate import guards

    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "f").write_text("x")
    os.symlink(tmp_path / "d", tmp_path / "l")
    spelled = ["/" + str(tmp_path / name) for name in ("d", "d/f", "l", "l/f", "missing/x")]
    spelled += ["//", "//" + str(tmp_path).lstrip("/") + "/./d/../l"]
    found = linked.real_paths(spelled)
    for path in spelled:
        assert found[path] == os.path.realpath(path), path
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    monkeypatch.setenv("HOME", "/" + str(home))
    for name in ("XDG_CONFIG_HOME", "CLAUDE_CONFIG_DIR"):
        monkeypatch.delenv(name, raising=False)
    items = dict(guards.guarded_items(str(tmp_path / "plan.json"), None, None, str(tmp_path),
                                      None))
    assert str(home / ".claude") in items and str(home / ".bashrc") in items
