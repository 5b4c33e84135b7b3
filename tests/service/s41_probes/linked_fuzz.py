"""Session-41 review 2 probe (not collected: no `test_` name): the kept guarded set against
the system's after random changes in the places gate/linked.py and gate/nested.py read —
links and hard links at any depth of `.claude`'s folders, `.github/hooks`, `.codex`, a
repository's hooks and git files, linked worktrees — with ValueError (a second name) as an
outcome. Every change is made under ROOT (a fresh `mktemp -d`): links point to absolute paths
under ROOT, removals take entries (a link itself, never its target) or real folders under
ROOT. Run: `python tests/service/s41_probes/linked_fuzz.py ROUNDS SEED`."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile

from skillgrant.gate import files, guards
from skillgrant.service.watched import watched

SPOTS = [".claude", ".claude/hooks", ".claude/hooks/a", ".claude/hooks/a/b", ".claude/skills",
         ".claude/skills/s", ".claude/skills/s/bin", ".claude/agents", ".claude/plugins/p",
         ".claude/other", ".github/hooks", ".github/hooks/x", ".codex", ".codex/d",
         ".git/hooks", ".git/info", ".git/worktrees/w", "src", "src/.claude/hooks"]
NAMES = ["pre-commit", "run.sh", "x.md", "config", "attributes", "commondir", "gitdir",
         "config.worktree", "settings.json", "f"]
OUT = ["out/a", "out/b", "out/c.sh", "out/d"]


def under(root: str, path: str) -> bool:
    real = os.path.realpath(path)
    return real == root or real.startswith(root + "/")


def change(root: str, repo: str, rng: random.Random) -> str:  # noqa: C901
    spot = os.path.join(repo, rng.choice(SPOTS))
    name = os.path.join(spot, rng.choice(NAMES))
    kind = rng.choice([0, 1, 1, 2, 2, 3, 4, 4, 4, 5, 5, 6])
    if not under(root, spot):
        return "skip"
    if kind == 0:
        os.makedirs(spot, exist_ok=True)
        return f"mkdir {spot}"
    if kind == 1 and os.path.isdir(spot) and not os.path.lexists(name):
        target = os.path.join(root, rng.choice(OUT))
        os.symlink(target, name)
        return f"link {name} -> {target}"
    if kind == 2 and os.path.isdir(spot) and not os.path.lexists(name):
        with open(name, "w") as f:
            f.write("x\n")
        return f"file {name}"
    if kind == 3 and os.path.isfile(name) and not os.path.islink(name) and under(root, name):
        other = os.path.join(root, "out", f"hl{rng.randrange(1000)}")
        if not os.path.lexists(other):
            os.link(name, other)
            return f"hard link {name} = {other}"
    if kind == 4:
        hls = [e for e in os.listdir(os.path.join(root, "out")) if e.startswith("hl")]
        for hl in hls:
            os.unlink(os.path.join(root, "out", hl))
        if hls:
            return "hard links removed"
    if kind == 5 and os.path.lexists(name) and (os.path.islink(name)
                                                 or not os.path.isdir(name)):
        os.unlink(name)
        return f"unlink {name}"
    if kind == 6 and os.path.isdir(spot) and not os.path.islink(spot) and under(root, spot) \
            and spot != repo and not spot.endswith("/.git"):
        moved = os.path.join(root, "out", f"moved{rng.randrange(1000)}")
        if not os.path.lexists(moved):
            os.rename(spot, moved)
            if rng.random() < 0.5:
                os.symlink(moved, spot)
                return f"{spot} moved, linked"
            return f"{spot} moved away"
    return "nothing"


def outcome(view: object, plan: str, cwd: str) -> object:
    files.use(view)  # type: ignore[arg-type]
    try:
        return guards.guarded_items(plan, None, None, cwd, cwd)
    except ValueError as e:
        return ("ValueError", str(e)[:80])
    finally:
        files.use(None)


def main(rounds: int, seed: int) -> int:
    root = os.path.realpath(tempfile.mkdtemp(prefix="s41r2-fuzz-"))
    os.environ["HOME"] = os.path.join(root, "home")
    os.makedirs(os.environ["HOME"])
    for name in ("XDG_CONFIG_HOME", "GIT_CONFIG_GLOBAL", "GIT_DIR", "GIT_CONFIG_SYSTEM",
                 "CLAUDE_CONFIG_DIR"):
        os.environ.pop(name, None)
    repo = os.path.join(root, "repo")
    os.makedirs(os.path.join(root, "out", "a"))
    os.makedirs(os.path.join(root, "out", "b"))
    for f in ("c.sh", "d"):
        with open(os.path.join(root, "out", f), "w") as handle:
            handle.write("x")
    subprocess.run(["git", "init", "-q", repo], check=True)
    view = watched()
    assert view is not None
    rng = random.Random(seed)
    plan = os.path.join(root, "plan.json")
    kept = mismatches = 0
    try:
        for i in range(rounds):
            cwd = os.path.join(repo, rng.choice(["", "src"]))
            os.makedirs(cwd, exist_ok=True)
            view.refresh()
            outcome(view, plan, cwd)  # asked once: kept if it can be
            kept += bool(view._composites)
            done = [change(root, repo, rng) for _ in range(rng.randint(1, 3))]
            view.refresh()
            fresh, got = outcome(None, plan, cwd), outcome(view, plan, cwd)
            if got != fresh:
                mismatches += 1
                print("MISMATCH round", i, done, "\n kept:", str(got)[:300],
                      "\n fresh:", str(fresh)[:300])
    finally:
        view.close()
        shutil.rmtree(root, ignore_errors=True)
    print(f"rounds {rounds}, kept before the change {kept}, mismatches {mismatches}")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), int(sys.argv[2])))
