"""Random trees of folders, files and links; random changes; the view's answers (asked twice)
against the system's after each change and refresh.

CONFINED: run as an unprivileged user under BASE, whose ancestors that user cannot write;
each change's real parent must be inside the fuzzer's own folder (README.md)."""

from __future__ import annotations

import os
import random
import shutil
import sys
import tempfile

sys.path.insert(0, os.environ.get("SG_CODE", "/work/wt/s40-review"))
from skillgrant.gate.files import System, View
from skillgrant.service.watched import watched

BASE = os.environ.get("S40_FUZZ_BASE", "/work/wt/s40-review/.fuzz/area")
NAMES = ["a", "b", "c", "l", "m"]


def targets(root: str) -> list[str]:
    name = os.path.basename(root)
    return ["a", "b", "./a", "../a", "a/b", "l/b", "l/../a", "..", ".", "../..", "m",
            root + "/a", root + "/l/a", root + "//b", "a/", f"../{name}/b", "nowhere", "l",
            "m/c", f"c/../../{name}/a"]


def rpath(rng: random.Random, root: str, depth: int = 4, dots: bool = True) -> str:
    pool = [*NAMES, "..", "."] if dots else NAMES
    parts = [rng.choice(pool if rng.random() < 0.15 else NAMES)
             for _ in range(rng.randint(1, depth))]
    return root + "/" + "/".join(parts)


def inside(root: str, path: str) -> bool:
    parent = os.path.realpath(os.path.dirname(path))
    return (parent == root or parent.startswith(root + "/")) and \
        os.path.basename(path) not in ("", ".", "..")


def _remove(root: str, path: str) -> None:
    if not os.path.isdir(path) or os.path.islink(path):
        os.unlink(path)
    elif os.path.realpath(path).startswith(root + "/"):
        shutil.rmtree(path)


def _write(root: str, path: str, text: str, mode: str) -> None:
    if os.path.realpath(path).startswith(root + "/"):  # through no link out of root
        with open(path, mode) as f:
            f.write(text)


def mutate(rng: random.Random, root: str) -> tuple[str, str] | None:
    path = rpath(rng, root, 3, dots=False)
    op = rng.choice(["mkdir", "file", "link", "link", "rm", "rename", "append"])
    if not inside(root, path):
        return None
    other = rpath(rng, root, 3, dots=False)
    changes = {
        "mkdir": lambda: os.mkdir(path),
        "file": lambda: _write(root, path, rng.choice(["x", "gitdir: /y\n"]), "w"),
        "link": lambda: os.symlink(rng.choice(targets(root)), path),
        "rm": lambda: _remove(root, path),
        "rename": lambda: os.rename(path, other) if inside(root, other) else None,
        "append": lambda: _write(root, path, "more", "a"),
    }
    try:
        changes[op]()
    except OSError:
        return None
    return op, path


def answers(view: View, path: str) -> list[object]:
    out: list[object] = []
    for question in ("realpath", "entry", "islink", "identity"):
        try:
            out.append(getattr(view, question)(path))
        except Exception as e:  # compared, not handled
            out.append(type(e).__name__)
    if os.path.isdir(path) and not os.environ.get("S40_READ_FOLDERS"):
        return out  # a folder's read: review R3 (fixed on main 6adeb20)
    try:
        out.append(view.read(path, 50))
    except OSError as e:
        out.append(f"{type(e).__name__}:{e.errno}:{e.filename}")
    except Exception as e:
        out.append(type(e).__name__)
    return out


def run(seed: int, steps: int = 40, asks: int = 50) -> tuple[object, ...] | None:
    rng = random.Random(seed)
    root = os.path.realpath(tempfile.mkdtemp(prefix="t", dir=BASE))
    view, system = watched(), System()
    assert view is not None
    log: list[tuple[str, str]] = []
    try:
        for _ in range(10):
            mutate(rng, root)
        for step in range(steps):
            view.refresh()
            for path in [rpath(rng, root) for _ in range(asks)]:
                for _ in range(2):
                    got, want = answers(view, path), answers(system, path)
                    if got != want:
                        return seed, step, path, got, want, log[-5:]
            done = mutate(rng, root)
            if done:
                log.append(done)
    finally:
        view.close()
        shutil.rmtree(root, ignore_errors=True)
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
