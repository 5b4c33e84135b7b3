"""The kept guarded set against the system's after random changes to repositories, `.git`
files, git configuration (hooksPath, include), links and renames.

CONFINED: run as an unprivileged user under BASE (README.md); changes stay in its folder."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.environ.get("SG_CODE", "/work/wt/s40-review"))
from skillgrant.gate import files, guards
from skillgrant.service.watched import Watched, watched

BASE = os.environ.get("S40_FUZZ_BASE", "/work/wt/s40-review/.fuzz/area")
SPOTS = ["home", "home/.config", "home/.config/git", "home/dots", "home/dots/git", "r", "r/s",
         "r/s/t", "r/.git", "o", "o/.git", "r/s/.git", "x", "x/git", "r/.claude", "bin", "b1",
         "b2"]
LINKS = ["../o", "o", "dots", "dots/git", "../x", "b2", "b1", "../o/.git", "x", ".git", "t"]
TEXTS = ["[user]\n\tname = x\n", "[core]\n\thooksPath = {root}/hk\n",
         "[include]\n\tpath = {root}/inc\n", "[core]\n\tbare = false\n"]


def _real_in(root: str, path: str) -> bool:
    real = os.path.realpath(path)
    return real == root or real.startswith(root + "/")


def _git(*args: str) -> None:
    subprocess.run(["git", *args], check=True, capture_output=True)


def setup(root: str) -> None:
    for folder in ("home", "r/s/t", "o", "b1", "b2", "x"):
        os.makedirs(os.path.join(root, folder), exist_ok=True)
    for repo in ("r", "o"):
        _git("init", "-q", os.path.join(root, repo))
    os.symlink("b1", os.path.join(root, "bin"))


def _remove(root: str, path: str) -> None:
    if os.path.islink(path) or os.path.isfile(path):
        os.unlink(path)
    elif os.path.isdir(path) and _real_in(root, path) and os.path.realpath(path) != root:
        shutil.rmtree(path)


def _link(root: str, path: str, rng: random.Random) -> None:
    if not os.path.lexists(path):
        os.symlink(rng.choice([*LINKS, root + "/o/.git", root + "/x"]), path)


def _git_file(root: str, path: str, rng: random.Random) -> None:
    target = os.path.join(path, ".git") if os.path.isdir(path) else path
    if _real_in(root, os.path.dirname(target)) and not os.path.isdir(target):
        with open(target, "w") as f:
            where = rng.choice([root + "/o/.git", "../o/.git", root + "/r/.git", root + "/no"])
            f.write(f"gitdir: {where}\n")


def _config(root: str, spot: str, path: str, rng: random.Random, mode: str) -> None:
    name = os.path.join(path, ".gitconfig" if spot == "home" else "config")
    if os.path.isdir(os.path.dirname(name)) and _real_in(root, name):
        with open(name, mode) as f:
            f.write(rng.choice(TEXTS).format(root=root))


def _rename(root: str, path: str, rng: random.Random) -> None:
    other = os.path.join(root, rng.choice(SPOTS))
    if _real_in(root, os.path.dirname(other)):
        os.rename(path, other)


def _init(root: str, path: str) -> None:
    if os.path.isdir(path) and _real_in(root, path):
        _git("init", "-q", path)


def mutate(rng: random.Random, root: str) -> tuple[str, str] | None:
    spot = rng.choice(SPOTS)
    path = os.path.join(root, spot)
    if not _real_in(root, os.path.dirname(path)):
        return None
    op = rng.choice(["mkdir", "rmtree", "link", "gitfile", "config", "config", "append",
                     "rename", "gitinit"])
    changes = {
        "mkdir": lambda: os.makedirs(path, exist_ok=True),
        "rmtree": lambda: _remove(root, path),
        "link": lambda: _link(root, path, rng),
        "gitfile": lambda: _git_file(root, path, rng),
        "config": lambda: _config(root, spot, path, rng, "w"),
        "append": lambda: _config(root, spot, path, rng, "a"),
        "rename": lambda: _rename(root, path, rng),
        "gitinit": lambda: _init(root, path),
    }
    try:
        changes[op]()
    except (OSError, subprocess.CalledProcessError):
        return None
    return op, spot


def answer(view: Watched | None, root: str, cwd: str) -> object:
    files.use(view)
    try:
        return guards.guarded_items(root + "/plan.json", None, None, cwd, root + "/r")
    except ValueError as e:
        return ("ValueError", str(e))
    finally:
        files.use(None)


def run(seed: int, steps: int = 40) -> tuple[object, ...] | None:
    rng = random.Random(seed)
    root = os.path.realpath(tempfile.mkdtemp(prefix="g", dir=BASE))
    os.environ["HOME"] = root + "/home"
    os.environ.pop("XDG_CONFIG_HOME", None)
    if rng.random() < 0.3:
        os.environ["XDG_CONFIG_HOME"] = root + "/x"
    os.environ["PATH"] = root + "/bin:/usr/bin:/bin"
    view = watched()
    assert view is not None
    log: list[tuple[str, str]] = []
    kept = 0
    try:
        setup(root)
        for _ in range(4):
            mutate(rng, root)
        for step in range(steps):
            view.refresh()
            for cwd in (root + "/r/s/t", root + "/r", root + "/o"):
                for _ in range(2):
                    got, want = answer(view, root, cwd), answer(None, root, cwd)
                    if got != want:
                        return seed, step, cwd, got, want, log[-5:]
            kept += len(view._composites)
            done = mutate(rng, root)
            if done:
                log.append(done)
    finally:
        view.close()
        shutil.rmtree(root, ignore_errors=True)
    print("seed", seed, "kept sets seen", kept, flush=True)
    return None


def main() -> None:
    assert os.geteuid() != 0, "run as an unprivileged user (README.md)"
    start, count = int(sys.argv[1]), int(sys.argv[2])
    bad = 0
    for seed in range(start, start + count):
        found = run(seed)
        if found:
            bad += 1
            print("MISMATCH", *found, flush=True)
    print("seeds", count, "mismatches", bad, flush=True)


if __name__ == "__main__":
    main()
