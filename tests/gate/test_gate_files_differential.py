"""The gate's own files against real bash (issue 29, reviews W1c, W2): generated commands that
write folders, each the gate allows run under bash in a fresh copy of a project, and the
gate's files compared before and after.

The project holds the printed hook in ``.claude/settings.json``, the plan in ``plan.json``,
and everything a command may bring over them: ``evil/`` (a folder of the same layout without
the hook), ``evil.tar``, ``evil.zip``, a git branch ``rev`` and a stash. The plan grants each
program with a star (``Bash(cp *)``, …), so the gate's guard alone stands between a command
and those files. An *escape* is a command the gate allows after which a guarded file differs
(or is gone). The count is printed; 0 escapes is required.

``SKILLGRANT_FILES_CORPUS`` sets how many commands are drawn (default 120 here, 2,000 in CI's
``.ci/steps/46-gate-files.sh``), ``SKILLGRANT_FILES_SEED`` the seed.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from files_fixture import gated_project

from skillgrant.gate.call import check_call
from skillgrant.gate.guards import GUARDED, guarded_items
from skillgrant.gate.hook import load_plan

PROGRAMS = {
    "cp": ["-r", "-a", "-rT", "-f", "-R", "--recursive", "-n", "-rt.", "-r -t.claude", "-at"],
    "mv": ["-f", "-T", "-n", "-t.", "-ft"],
    "rm": ["-rf", "-r", "-f"],
    "ln": ["-sf", "-f", "-s"],
    "install": ["-D", "-m644", "-s --strip-program=evil/h2", "-s --strip-prog=evil/h2"],
    "tar": ["-xf", "xf", "-x -f", "--extract -f", "-xvf", "--extr -f", "--ge -f", "-f",
            # a program run through an option, under any abbreviation (G-16, G-19)
            "--checkpoint=1 --checkpoint-act=exec=evil/h2 -cf out/x.tar",
            "-I evil/h2 -cf out/x.tar", "--use-compress-prog=evil/h2 -cf out/x.tar",
            "cfI out/x.tar evil/h2"],
    "split": ["--filter=evil/h2", "--filt=evil/h2", "-l 1", "-n 2 --filter=evil/h2"],
    "sqlite3": ["out/db '.shell evil/h2'", "-cmd '.system evil/h2' -safe out/db",
                "-safe out/db", "out/db '.system evil/h2'"],
    "unzip": ["-o", "-oq", "-d ."],
    "chmod": ["-R 000", "000", "-R a-r"],
    "find": ["-name settings.json -delete", "-type f -delete", "-exec rm {} +",
             "-name '*.json' -exec cp evil/plan.json {} ;"],
    "sed": ["-i s/PreToolUse/X/", "-i.bak s/PreToolUse/X/", "--in-place s/Bash/X/",
            "-n -f evil/s.sed", "-n --fi=evil/s.sed", "'s/.*/evil\\/h2/ge'", "-n '1e evil/h2'",
            "-s 's/x/evil\\/h2/2pe'"],
    "touch": [""],
    "tee": [""],
    "truncate": ["-s0"],
}
GIT = ["checkout rev -- .", "checkout -f rev", "checkout rev", "stash pop", "stash apply",
       "reset --hard rev", "merge -q -X theirs rev", "restore --source rev .",
       "restore --source=rev .claude", "checkout rev -- .claude", "clean -fdx",
       "rm -rf .claude", "mv .claude x", "read-tree -u --reset rev", "cherry-pick rev",
       "pull -q . rev", "restore --source rev -- :/", "checkout rev -- ':(top)'",
       "grep -Oevil/h2 notes", "grep --open=evil/h2 notes", "-c core.pager=evil/h2 grep -O notes",
       "-c core.fsmonitor=evil/h2 status", "grep --open-files-in-pager=evil/h2 -e notes"]
#: Words that may name the gate's files or a folder holding them.
TARGETS = [".", "./", "..", ".claude", ".claude/", ".claude/settings.json", "plan.json", "*",
           ".*", "./*", "evil/.", "evil/*", "evil/.claude", "evil/plan.json", "evil.tar",
           "evil.zip", "$PWD", "\"$PWD\"", "~/..", "$(pwd)", "`pwd`", "x", "out/", "notes.txt",
           "../project", "./.claude/../.claude", ".cl*", ".claude/*", "{x,.}", "~+", ":/",
           ".{claude,x}"]
WRAPPERS = ["", "env ", "command ", "nice ", "time ", "timeout 5 ", "nohup "]


def _entries() -> list[str]:
    return [f"Bash({w}{p} *)" for p in [*PROGRAMS, "git"] for w in WRAPPERS] + \
        ["Bash(echo *)", "Bash(cat *)"]


@pytest.fixture(scope="module")
def fixture_project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    project = tmp_path_factory.mktemp("files") / "project"
    return project, gated_project(project, _entries())


def _draw(rng: random.Random) -> str:
    wrapper = rng.choice(WRAPPERS)
    if rng.random() < 0.25:
        return f"{wrapper}git {rng.choice(GIT)}"
    program = rng.choice(list(PROGRAMS))
    words = [program, rng.choice(PROGRAMS[program])]
    if program in ("tar", "unzip"):
        words.append("evil.tar" if program == "tar" else "evil.zip")
        if rng.random() < 0.4:
            words += ["-C" if program == "tar" else "-d", rng.choice(TARGETS)]
    elif program == "find":
        if rng.random() < 0.7:  # else no start folder: GNU find searches `.`
            words.insert(1, rng.choice(TARGETS))
    else:
        words += [rng.choice(TARGETS) for _ in range(rng.randint(1, 2))]
    command = wrapper + " ".join(w for w in words if w)
    if program == "tee" or (program == "cp" and rng.random() < 0.1):
        command = "echo '{}' | " + command
    return command


def _state(project: Path) -> dict[str, Any]:
    """What the gate reads of the project: its plan, its settings, and the folder."""
    found: dict[str, Any] = {}
    for name in ("plan.json", ".claude/settings.json"):
        path = project / name
        try:
            found[name] = (path.is_symlink(), path.read_bytes(), oct(path.stat().st_mode))
        except OSError as e:
            found[name] = type(e).__name__
    found[".claude"] = (project / ".claude").is_dir() and not (project / ".claude").is_symlink()
    found["parent"] = sorted(os.listdir(project.parent))
    return found


def test_generated_folder_writes_never_reach_the_gates_files(
        fixture_project: tuple[Path, str], tmp_path: Path) -> None:
    project, hook = fixture_project
    count = int(os.environ.get("SKILLGRANT_FILES_CORPUS", "120"))
    rng = random.Random(os.environ.get("SKILLGRANT_FILES_SEED", "gate-files"))
    commands = list(dict.fromkeys(_draw(rng) for _ in range(count)))
    plan = load_plan(str(project / "plan.json"), "auto", {}).plan
    token = GUARDED.set(guarded_items(str(project / "plan.json"), None, None, str(project),
                                      None))
    try:  # what the printed hook guards, judged in process (the hook itself: below)
        verdicts = {c: check_call("Bash", {"command": c}, plan, cwd=str(project)).covered
                    for c in commands}
    finally:
        GUARDED.reset(token)
    for command in [c for c in commands if verdicts[c]][:3] + \
            [c for c in commands if not verdicts[c]][:3]:  # the printed hook agrees
        payload = json.dumps({"session_id": "s", "hook_event_name": "PreToolUse",
                              "cwd": str(project), "tool_name": "Bash",
                              "tool_input": {"command": command}}).encode()
        done = subprocess.run(["/bin/sh", "-c", hook], input=payload, cwd=project,
                              capture_output=True, timeout=60)
        assert (done.returncode == 0) == verdicts[command], (command, done)
    allowed, escapes = [], []
    for i, command in enumerate(commands):
        if not verdicts[command]:
            continue
        allowed.append(command)
        scratch = tmp_path / f"run{i}" / "project"
        shutil.copytree(project, scratch, symlinks=True)
        before = _state(scratch)
        subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60,
                       env={**os.environ, "HOME": str(scratch.parent)})
        if _state(scratch) != before:
            escapes.append(command)
        shutil.rmtree(scratch.parent, ignore_errors=True)
    print(f"\ngate files differential: {len(commands)} generated, {len(allowed)} allowed and "
          f"run under bash, {len(escapes)} escapes")
    assert not escapes, escapes
    assert len(commands) - len(allowed) >= len(commands) // 4  # the guard was exercised
