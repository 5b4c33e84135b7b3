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

The second corpus (``test_generated_folder_file_writes_never_reach_a_guarded_folder``) aims
at the readers rule (review s41 W2): programs in no list of ``gate.writers`` writing a file of
a guarded *folder* (``.claude/hooks/x.sh``, a skill's ``run.sh``), the path reached the ways
bash reaches it; ``SKILLGRANT_READERS_CORPUS`` sets its size (default 150, 1,000 in CI).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest
from files_fixture import gated_project

from skillgrant.gate.call import check_call
from skillgrant.gate.guardedset import GUARDED
from skillgrant.gate.guards import guarded_items
from skillgrant.gate.hook import load_plan
from skillgrant.gate.verdict import CallPlan

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


# --- The readers rule against bash (review s41 W2) -------------------------------------------
# Programs in no list of ``gate.writers`` (or listed by another name) that write a path their
# words name, and the words bash may make such a path of: a guarded *folder*'s files
# (`.claude/hooks/x.sh`, `.claude/skills/s/run.sh`) through moves, links, `..`, patterns,
# braces, expansions and attached option values, in the shapes bash runs commands in, beside
# readers. Drawn from bash's grammar, not from the gate's model of it.

#: Programs writing the file ``{T}`` (or files under the folder ``{D}``), their inputs in the
#: folder ``{S}`` (the fixture's ``src``, by its absolute path: found after any move); drawn
#: only when installed (``_installed``).
READER_WRITERS: dict[str, list[str]] = {
    "gcc": ["DEPENDENCIES_OUTPUT={T} gcc -E -P -x c {S}/x.sh -o out.i",
            "gcc -E -P -x c {S}/x.sh -o {T}", "gcc -E -P -x c {S}/x.sh -o{T}",
            "gcc -E -P -x c {S}/x.sh --output={T}", "gcc -E -P -x c -o {T} {S}/x.sh",
            "gcc -E -P -x c {S}/x.sh -o > out.log {T}", "gcc -E -P -MD -MF {T} -x c {S}/x.sh",
            "gcc -E -P -x c {S}/x.sh -Wp,-MD,{T}", "gcc -E -P -x c {S}/x.sh --output {T}"],
    "cpp": ["cpp -P {S}/x.sh {T}", "cpp -P {S}/x.sh -o {T}", "cpp -P -o{T} {S}/x.sh"],
    "python3": ["python3 -m zipfile -e {S}/a.zip {D}", "python3 -mzipfile -e {S}/a.zip {D}",
                "PYTHONPYCACHEPREFIX={D} python3 -m py_compile {S}/y.py"],
    "llvm-objcopy": ["llvm-objcopy {S}/x.o {T}", "llvm-objcopy -O binary {S}/x.o {T}"],
    "llvm-objcopy-14": ["llvm-objcopy-14 {S}/x.o {T}"],
    "objcopy": ["objcopy {S}/x.o {T}"],
    "split-file": ["split-file {S}/split.txt {D}"],
    "split-file-14": ["split-file-14 {S}/split.txt {D}"],
    "find": ["find {S} -name x.sh -fprint {T}", "find {S} -fls {T}"],
    # a shell given its script on stdin: the path is a positional parameter it writes
    "sh": ["sh -s {T} < {S}/w.sh", "cat {S}/w.sh | sh -s -- {T}", "bash -e -s {T} < {S}/w.sh"],
    "git": ["git -c diff.external={S}/w.sh diff --no-index {S}/x.sh {T}",
            "git diff --no-index --output={T} {S}/x.sh {S}/w.sh"],
}
#: Commands that only read ``{T}`` (``{D}``: its folder): the rule means to let them through.
READER_ONLY = ["cat {T}", "grep -n echo {T}", "ls -l {T}", "wc -l {T}", "head -1 {T}",
               "grep -c x {T} {S}/x.sh", "cat {T} | wc -c", "sha256sum {T}", "ls {D}",
               "diff {T} {S}/x.sh", "stat -c %s {T}", "find {D} -name x.sh", "ls -la {D}",
               "git diff --no-index --stat {S}/x.sh {T}", "test -f {T}", "tail -n 2 {T}"]
#: (a move before the command, the file's path from there, its folder's).
READER_PLACES = [
    ("", ".claude/hooks/x.sh", ".claude"), ("", ".claude/skills/s/run.sh", ".claude/skills"),
    ("", "./.claude/hooks/x.sh", "./.claude"), ("", ".claude//hooks/x.sh", ".claude/"),
    ("", "lnk/x.sh", "lnk"), ("", "lnk/../skills/s/run.sh", "lnk/.."), ("", "./lnk/./x.sh", "cl"),
    ("", "cl/hooks/x.sh", "cl/skills/s"), ("", "c*/hooks/x.sh", "c?/skills"),
    ("", "src/../.claude/hooks/x.sh", "src/../.claude"), ("", ".cl*/hooks/x.sh", ".cl*"),
    ("", ".claude/h?oks/x.sh", ".claude/h?oks/.."), ("", "s*/../.claude/hooks/x.sh", "s*/.."),
    ("", "l*/x.sh", "l*/.."), ("", "l?k/x.sh", "l?k"), ("", "[l]nk/x.sh", "[l]nk/.."),
    ("", "*/x.sh", "*/.."), ("", ".claude/*/x.sh", ".claude/*/.."), ("", ".c*/*/x.sh", ".c*/*"),
    ("", ".claude/hooks/*", ".claude/hooks/."), ("", ".claude/skills/*/run.sh", ".claude/s*"),
    ("", "[.]claude/hooks/x.sh", "[.]claude"), ("", ".claude/hook[s]/x.sh", ".claude/hook[s]"),
    ("", ".claude/{hooks,x}/x.sh", "{.claude,x}"), ("", ".cla{ude,x}/hooks/x.sh", ".cla{ude,}"),
    ("", ".claud{e..e}/hooks/x.sh", ".claud{e..e}"), ("", "{.,x}claude/hooks/x.sh", "{.,x}claude"),
    ("", "{a,{.claude,b}}/hooks/x.sh", "{a,{.claude,b}}"),
    ("", ".claude/hooks/x.{sh,}", ".c{l,}aude"),
    ("", "$PWD/.claude/hooks/x.sh", "$PWD/.claude"),
    ("", "\"$PWD\"/.claude/hooks/x.sh", "\"${PWD}/.claude\""),
    ("", "$(pwd)/.claude/hooks/x.sh", "`pwd`/.claude"), ("", "~/.claude/hooks/x.sh", "~/.claude"),
    ("", "~+/.claude/hooks/x.sh", "~+/.claude"), ("", ".cl\\aude/hooks/x.sh", ".cl\\aude"),
    ("", "'.claude'/hooks/x.sh", "\".claude\""), ("", ".clau\"\"de/hooks/x.sh", ".clau''de"),
    ("", "$'.claude/hooks/x.sh'", "$'.claude'"),
    ("", "${HOME}/.claude/skills/s/run.sh", "$HOME/.claude"),
    ("", "/proc/self/cwd/.claude/hooks/x.sh", "/proc/self/cwd/.claude"),
    ("", "/proc/self/cwd/l*/x.sh", "/proc/self/cwd/lnk"),
    ("", "/dev/fd/3/hooks/x.sh 3<c?", "''"), ("", "/dev/fd/3/x.sh 3<l*", "\"\""),
    ("cd src; ", "/proc/self/cwd/../.claude/hooks/x.sh", "/proc/self/cwd/../.claude"),
    ("cd .claude; ", "hooks/x.sh", "."), ("cd .claude && ", "hooks/x.sh", "hooks"),
    ("cd .claude/skills; ", "s/run.sh", "s"), ("cd lnk; ", "x.sh", "."),
    ("cd .claude/skills/s; ", "run.sh", "."), ("cd cl; ", "skills/s/run.sh", "./"),
    ("cd src; ", "../.claude/hooks/x.sh", "../.claude"),
    ("pushd .claude >/dev/null; ", "hooks/x.sh", "."),
    ("cd -P lnk/..; ", "hooks/x.sh", "."), ("cd .cl*; ", "hooks/x.sh", "."),
    ("cd l*; ", "x.sh", "."), ("cd \"$PWD/.claude\"; ", "hooks/x.sh", "."),
    ("cd ~/.claude; ", "hooks/x.sh", "."), ("cd -- .claude; ", "hooks/x.sh", "."),
    ("CDPATH=.claude cd hooks >/dev/null; ", "x.sh", "."),
    ("cd .claude; cd -; cd - >/dev/null; ", "hooks/x.sh", "."),
    ("OLDPWD=.claude cd - >/dev/null; ", "hooks/x.sh", "."),
    ("c=cd; $c .claude; ", "hooks/x.sh", "."), ("eval c\\d .claude; ", "hooks/x.sh", "."),
    ("\"c\"d .claude; ", "hooks/x.sh", "."), ("c\\d .claude && ", "hooks/x.sh", "hooks"),
    ("c''d .claude/skills; ", "s/run.sh", "s"),
    ("pu\"sh\"d .claude >/dev/null; ", "hooks/x.sh", "."),
    ("pushd -n .claude >/dev/null; pushd +1 >/dev/null; ", "hooks/x.sh", "."),
    ("pushd -n .claude/skills >/dev/null && pushd >/dev/null; ", "s/run.sh", "s"),
    ("$(echo cd) .claude; ", "hooks/x.sh", "."), ("builtin cd .claude; ", "hooks/x.sh", "."),
    ("f() { cd .claude; }; f; ", "hooks/x.sh", "."), ("cd .claude\n", "hooks/x.sh", "."),
    ("HOME=$PWD/.claude; cd; ", "hooks/x.sh", "."), ("cd .{claude,}; ", "hooks/x.sh", "."),
    ("cd .claud{e..e}; ", "hooks/x.sh", "."), ("cd .claude/h?oks; ", "x.sh", "."),
    ("set -- .claude; cd \"$1\"; ", "hooks/x.sh", "."), ("cd $(echo .claude); ", "hooks/x.sh", "."),
    ("cd /proc/self/cwd/.claude; ", "hooks/x.sh", "."), ("cd \\.claude; ", "hooks/x.sh", "."),
    ("t=.claude/hooks/x.sh; ", "$t", "${t%/*}"),
    ("read t <<< .claude/hooks/x.sh; ", "\"$t\"", "$(dirname $t)"),
]
#: Shapes around the command ``{W}`` (``{T}``: its file, for readers in the same text;
#: ``{X}``/``{Y}``: the writer given its file through xargs' input).
READER_SHAPES = [
    "{W}", "cat notes.txt; {W}", "{W} && cat {T}", "false || {W}", "{W} | cat", "{W} & wait",
    "cat notes.txt\n{W}", "( {W} )", "{ {W}; }", "echo $({W})", "echo `{W}`", "cat <({W})",
    "# it's\n{W}", "cat notes.txt # it's\n{W}\n# it's", "cat <<'E'\nit's\nE\n{W}",
    "cat <<E\n\"\nE\n{W}\ncat <<E\n\"\nE", "cat <<'E'\nit's\nE\n{W}\ncat <<'F'\nit's\nF",
    "sh -c '{W}'", "bash -c \"{W}\"", "env {W}", "timeout 5 {W}", "nice {W}", "command {W}",
    "cat {T}; {W}", "grep -c x {T} && {W}", "ls {T} | wc -l; {W}", "wc -c {T}; {W}; cat {T}",
    "if true; then {W}; fi", "for i in 1; do {W}; done", "true && {W} || true",
    "echo {T} | xargs {X}", "ls -d {T} | xargs {X}", "find {T} | xargs {X}",
    "printf '%s\\n' {T} | xargs -I@ {Y}",
    "eval '{W}'", "exec {W}", "{W} 2>/dev/null", "time {W}", "! {W}",
    "while false; do :; done; {W}",
    "{W} # it's", "cat notes.txt | {W}", "x=1 {W}", "{W}\n", "cat <<E; {W}\n'\nE",
]
#: Shapes and places holding no wrapper, no code run from words and no expansion: a reader
#: there is the plain case the rule means to allow.
_PLAIN = re.compile(r"sh -c|bash -c|env |timeout |nice |command |eval|exec |xargs|\$|`|~\+|"
                    r"builtin|CDPATH|OLDPWD|f\(\)|cd -|\{e\.\.e\}")


#: Of the plain ones, those holding a comment, a here-document, a compound command or a
#: pattern; the others (`cat`, `grep`, `ls` of the path, after `;`, `&&`, `|`, a `cd`) are
#: *simple*.
_COMPOUND = re.compile(r"#|<<|\{ |\bif\b|\bfor\b|\bwhile\b|[*?\[]")


def _installed() -> list[str]:
    return [p for p in READER_WRITERS if shutil.which(p)]


def _reader_entries() -> list[str]:
    programs = [*READER_WRITERS, "cat", "grep", "ls", "wc", "head", "tail", "sha256sum", "diff",
                "stat", "test", "sh", "bash", "env", "timeout", "nice", "command", "xargs",
                "eval", "exec", "printf", "echo", "true", "false", "cd", "pushd", "read", "set",
                "builtin", "time", "pwd", "dirname", "wait"]
    return [f"Bash({p} *)" for p in programs] + [f"Bash({p})" for p in programs]


@pytest.fixture(scope="module")
def readers_project(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """``gated_project`` with a hook script, a skill, links ``lnk -> .claude/hooks`` and
    ``cl -> .claude``, and the inputs the writers copy from (``src/``)."""
    project = tmp_path_factory.mktemp("readers") / "project"
    hook = gated_project(project, _reader_entries())
    for path, text in ((".claude/hooks/x.sh", "#!/bin/sh\necho hook\n"),
                       (".claude/skills/s/run.sh", "#!/bin/sh\necho skill\n"),
                       (".claude/skills/s/SKILL.md", "---\nname: s\n---\n"),
                       ("src/x.sh", "echo pwned\n"), ("src/y.py", "x = 1\n"),
                       ("src/w.sh", "#!/bin/sh\necho pwned > \"$1\"\n"),
                       ("src/split.txt", "".join(f"#--- {n}\necho pwned\n" for n in (
                           "x.sh", "run.sh", "hooks/x.sh", ".claude/hooks/x.sh", "s/run.sh",
                           "skills/s/run.sh")))):
        (project / path).parent.mkdir(parents=True, exist_ok=True)
        (project / path).write_text(text)
    (project / "src/w.sh").chmod(0o755)
    (project / "lnk").symlink_to(".claude/hooks")
    (project / "cl").symlink_to(".claude")
    with zipfile.ZipFile(project / "src/a.zip", "w") as archive:
        for name in ("x.sh", "run.sh", "hooks/x.sh", "s/run.sh", "skills/s/run.sh",
                     ".claude/hooks/x.sh", ".claude/skills/s/run.sh"):
            archive.writestr(name, "echo pwned\n")
    if shutil.which("gcc"):
        (project / "src/x.c").write_text("int x;\n")
        subprocess.run(["gcc", "-c", "src/x.c", "-o", "src/x.o"], cwd=project, check=True)
    return project, hook


def _draw_reader(rng: random.Random, installed: list[str], src: str) -> tuple[str, str]:
    """A command, and its kind: ``writer``, ``reader`` (only readers), ``plain reader`` (no
    wrapper, no expansion: ``_PLAIN``) or ``simple reader`` (nor ``_COMPOUND``)."""
    move, target, folder = rng.choice(READER_PLACES)
    reader_only = rng.random() < 0.25
    templates = READER_ONLY if reader_only else READER_WRITERS[rng.choice(installed)]
    command = rng.choice(templates).replace("{T}", target).replace("{D}", folder)
    shape = rng.choice([s for s in READER_SHAPES if not reader_only
                        or ("{X}" not in s and "{Y}" not in s)])
    if "{X}" in shape or "{Y}" in shape:  # the target comes through xargs' input
        shape = shape.replace("{X}", command.split(target, 1)[0].rstrip()).replace(
            "{Y}", command.replace(target, "@", 1))
    text = move + shape.replace("{W}", command).replace("{T}", target)
    kind = "writer" if not reader_only else "reader" if _PLAIN.search(text) else \
        "plain reader" if _COMPOUND.search(text) else "simple reader"
    return text.replace("{S}", src), kind


def _readers_state(project: Path) -> dict[str, Any]:
    """``_state``, and every entry under ``.claude`` and ``.git/hooks`` (whether a link, its
    bytes, its mode), git's configuration, and the links."""
    found = _state(project)
    for top in (".claude", ".git/hooks"):
        for root, dirs, files in os.walk(project / top):
            for name in sorted(files + dirs):
                path = Path(root) / name
                found[str(path.relative_to(project))] = (
                    path.is_symlink(), path.is_file() and not path.is_symlink()
                    and path.read_bytes(), oct(path.lstat().st_mode))
    found[".git/config"] = (project / ".git/config").read_bytes()
    found["links"] = [os.readlink(project / n) if (project / n).is_symlink() else None
                      for n in ("lnk", "cl")]
    return found


def test_generated_folder_file_writes_never_reach_a_guarded_folder(
        readers_project: tuple[Path, str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The readers rule (review s41 W2) against bash: commands writing a guarded folder's
    file (``READER_WRITERS``, in no list of the gate), each the gate allows run under bash in
    a fresh copy of the project (HOME is the project, in the gate and in bash; the gate
    judges from the project's folder, as the hook runs). Judged under two plans: each program
    with a star, as above, and all of Bash (a tool-wide grant: the guard alone decides). Of
    the reader-only commands, how many each plan denies is printed.
    ``SKILLGRANT_READERS_CORPUS`` sets how many are drawn (default 150)."""
    project, _hook = readers_project
    installed = _installed()
    print(f"\nreaders differential: writers installed: {', '.join(installed)}; not: "
          f"{', '.join(sorted(set(READER_WRITERS) - set(installed))) or 'none'}")
    count = int(os.environ.get("SKILLGRANT_READERS_CORPUS", "150"))
    rng = random.Random(os.environ.get("SKILLGRANT_FILES_SEED", "gate-files") + "/readers")
    drawn = dict(_draw_reader(rng, installed, str(project / "src")) for _ in range(count))
    monkeypatch.setenv("HOME", str(project))
    monkeypatch.chdir(project)
    plans: dict[str, CallPlan | list[str]] = {
        "star": load_plan(str(project / "plan.json"), "auto", {}).plan, "tool-wide": ["Bash"]}
    token = GUARDED.set(guarded_items(str(project / "plan.json"), None, None, str(project),
                                      None))
    try:
        verdicts = {name: {c: check_call("Bash", {"command": c}, plan, cwd=str(project)).covered
                           for c in drawn} for name, plan in plans.items()}
    finally:
        GUARDED.reset(token)
    monkeypatch.chdir(tmp_path)
    allowed = [c for c in drawn if any(v[c] for v in verdicts.values())]
    escapes = []
    for i, command in enumerate(allowed):
        scratch = tmp_path / f"run{i}" / "project"
        shutil.copytree(project, scratch, symlinks=True)
        before = _readers_state(scratch)
        subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60,
                       env={**os.environ, "HOME": str(scratch)})
        if _readers_state(scratch) != before:
            escapes.append(command)
        shutil.rmtree(scratch.parent, ignore_errors=True)
    kinds = {k: [c for c, kind in drawn.items() if kind == k]
             for k in ("writer", "reader", "plain reader", "simple reader")}
    readers = kinds["reader"] + kinds["plain reader"] + kinds["simple reader"]
    plain = kinds["plain reader"] + kinds["simple reader"]
    print(f"readers differential: {len(drawn)} generated ({len(kinds['writer'])} with a writer, "
          f"{len(readers)} reader-only, {len(plain)} of them plain, "
          f"{len(kinds['simple reader'])} simple), {len(allowed)} allowed and run under bash, "
          f"{len(escapes)} escapes")
    for name, verdict in verdicts.items():
        denied = {k: sum(not verdict[c] for c in v) for k, v in (
            ("all", readers), ("plain", plain), ("simple", kinds["simple reader"]))}
        print(f"  plan {name}: {sum(verdict.values())} allowed, "
              f"{sum(verdict[c] for c in escapes)} escapes; reader-only denied "
              f"{denied['all']}/{len(readers)}, plain {denied['plain']}/{len(plain)}, "
              f"simple {denied['simple']}/{len(kinds['simple reader'])}")
    for command in escapes:
        print(f"ESCAPE: {command!r}")
    for command in [c for c in plain if not verdicts["tool-wide"][c]]:
        print(f"PLAIN READER DENIED (tool-wide): {command!r}")
    assert not escapes, escapes
    # the guard was exercised: it denied writers the tool-wide grant alone would allow
    assert sum(not verdicts["tool-wide"][c] for c in kinds["writer"]) >= len(kinds["writer"]) // 4
