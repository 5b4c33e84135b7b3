"""Review s43, round 2, of the call gate: calls the hook allows that make bash run something
outside the plan, now or at a later call, or write a file the gate guards. Each case proves
the hole with real bash in a scratch copy of the project, then asks the printed hook; the hook
allowing the call is the finding: these tests fail while the hole is open."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from bash_review import PAYLOAD, first_denied, hook_allows, hooked_project, needs, rewrites_hook
from files_fixture import gated_project

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh), as
#: `pytest --slow -m slow` does here.
pytestmark = pytest.mark.slow


@pytest.mark.parametrize("command", [
    "'A=./e' cat .claude/hooks/x.sh",
    "\\A=./e cat .claude/hooks/x.sh",
])
def test_v5_a_quoted_assignment_is_a_program(tmp_path: Path, command: str) -> None:
    """V5 (tool-wide ``Bash``, as s43 V1-V4): ``readers._reads`` skips a leading word that
    looks like an assignment once its quotes are removed (``folded._data_word``, shlex); to
    bash a quoted or escaped ``NAME=…`` is no assignment but the program, here the path
    ``A=./e`` (``A=.`` a link to the project's folder, ``e`` a script an earlier call wrote).
    So ``cat`` is judged as the reader, and ``e`` writes its operand."""
    project = hooked_project(tmp_path, ["Bash"])
    (project / "e").write_text('#!/bin/sh\ncp src/x.sh "$2"\n')
    (project / "e").chmod(0o755)
    (project / "A=.").symlink_to(".")
    assert not hook_allows(project, "./e cat .claude/hooks/x.sh"), \
        "the guard does not hold under Bash: the case proves nothing"
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("command", [
    "cat src/x.sh > .cla\\\nude/hooks/x.sh",
    "gcc -E -P -x c src/x.sh -o .cla\\\nude/hooks/x.sh",
    'cp src/x.sh ".cla\\\nude/hooks/x.sh"',
])
def test_w16_a_line_continuation_inside_a_word(tmp_path: Path, command: str) -> None:
    """W16 (tool-wide ``Bash``, where the guard still denies ``cat src/x.sh >
    .claude/hooks/x.sh``): bash removes a backslash-newline anywhere outside single quotes,
    inside a word too; ``guards._QUOTING`` removes the backslash only, and ``_TOKEN`` splits
    the word at the newline, into ``.cla`` and ``ude/hooks/x.sh``, neither of them guarded."""
    project = hooked_project(tmp_path, ["Bash"])
    assert not hook_allows(project, "cat src/x.sh > .claude/hooks/x.sh"), \
        "the guard does not hold under Bash: the case proves nothing"
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


def test_w16b_a_line_continuation_replaces_the_settings(tmp_path: Path) -> None:
    """W16: the same through a guarded file's name: ``.cla\\⏎ude/sett\\⏎ings.json`` holds no
    guarded name as the guard splits it; bash replaces the settings holding the gate's
    hook."""
    project = hooked_project(tmp_path, ["Bash"])
    (project / "s.txt").write_text("{}\n")
    command = "cat s.txt > .cla\\\nude/sett\\\nings.json"
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60,
                   check=False)
    assert "PreToolUse" not in (scratch / ".claude" / "settings.json").read_text(), \
        "bash left the settings: the case proves nothing"
    assert not hook_allows(project, "cat s.txt > .claude/settings.json")
    assert not hook_allows(project, command), "the hook allows replacing the settings"


@pytest.mark.parametrize("command", [
    "gcc -E -P -x c src/x.sh {-DA=,-o}.claude/hooks/x.sh",
    "gcc -E -P -x c src/x.sh {-o,-DA=}.claude/hooks/x.sh",
])
def test_w17_a_brace_expression_cut_at_its_equals_sign(tmp_path: Path, command: str) -> None:
    """W17 (tool-wide ``Bash``, as W16): ``guards._TOKEN`` cuts words at ``=`` before
    ``writers.braced`` reads their braces, so ``{-DA=,-o}.claude/hooks/x.sh`` becomes ``{-DA``
    and ``,-o}.claude/hooks/x.sh``, unbalanced: each is read as it is, and neither (nor a
    tail after its comma, ``-o}.claude/…``) names a guarded path. Bash expands it to
    ``-DA=.claude/hooks/x.sh -o.claude/hooks/x.sh``."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    assert not hook_allows(project, "gcc -E -P -x c src/x.sh -o.claude/hooks/x.sh"), \
        "the guard does not hold under Bash: the case proves nothing"
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


#: Entries whose program ``planprograms.plan_programs`` does not find (the run, the file it runs).
ENTRY_FORMS = [
    ("> out.log ./tools/run.sh", "tools/run.sh"),
    ("2> err.log ./tools/run.sh", "tools/run.sh"),
    ("! ./tools/run.sh", "tools/run.sh"),
    ("if true; then ./tools/run.sh; fi", "tools/run.sh"),
    ("python3 -mtools.run", "tools/run.py"),
    ("while true; do ./tools/run.sh; break; done", "tools/run.sh"),
    ("for f in a; do ./tools/run.sh; done", "tools/run.sh"),
    ("make -f tools/Makefile", "tools/Makefile"),
    ("make -C tools", "tools/Makefile"),
    ("make --file=tools/Makefile", "tools/Makefile"),
    ("2>&1 ./tools/run.sh", "tools/run.sh"),
]


@pytest.mark.parametrize(("run", "program"), ENTRY_FORMS, ids=[f[0] for f in ENTRY_FORMS])
def test_p2f_an_entrys_program_plan_programs_misreads(
        tmp_path: Path, run: str, program: str) -> None:
    """P2f (against the P2/P2c fixes): ``plan_programs`` drops a redirection's operator but
    keeps its target (``> out.log ./tools/run.sh``: the program read is ``out.log``),
    reads a part led by ``!``, ``then`` or ``do`` as that word's program (a loop's body), reads
    only a separate ``-m`` (``-mtools.run``), and guards the top folder's Makefile for ``make
    -f tools/Makefile``. The program the exact entry runs is left unguarded: the
    covered ``cp`` replaces it, and the covered run runs the copy."""
    project = tmp_path / "project"
    gated_project(project, [f"Bash({run})", "Bash(cp *)"])
    (project / "tools").mkdir()
    target = project / program
    marker = tmp_path / "zz"
    if program.endswith("Makefile"):
        target.write_text("all:\n\ttrue\n")
        (project / "payload").write_text(f"all:\n\ttouch {marker}\n")
    else:
        target.write_text("#!/bin/sh\necho ok\n" if program.endswith(".sh") else "pass\n")
        (project / "payload").write_text(
            f"#!/bin/sh\ntouch {marker}\n" if program.endswith(".sh") else
            f"open({str(marker)!r}, 'w')\n")
    target.chmod(0o755)
    calls = [f"cp payload {program}", run]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    for call in calls:
        subprocess.run(["bash", "-c", call], cwd=scratch, capture_output=True, timeout=60,
                       check=False)
    assert marker.exists(), "bash ran no payload: the case proves nothing"
    marker.unlink()
    assert hook_allows(project, run), "the run itself is not covered: the case proves nothing"
    assert first_denied(project, calls) is not None, \
        f"the hook allows replacing {program} and the covered run of it"
    assert not marker.exists()


@pytest.mark.parametrize("command", [
    "env --chd=.. gcc -E -P -x c project/src/x.sh -o project/.claude/hooks/x.sh",
    "env --ch .. gcc -E -P -x c project/src/x.sh -o project/.claude/hooks/x.sh",
    "env -vC.. gcc -E -P -x c project/src/x.sh -o project/.claude/hooks/x.sh",
])
def test_m2_envs_chdir_abbreviated(tmp_path: Path, command: str) -> None:
    """M2 (tool-wide ``Bash``: ``env`` with an option is a runner): GNU ``env`` reads its long
    options by ``getopt_long``, which takes any unique prefix: ``--chd=..`` and ``--ch ..``
    are ``--chdir``; ``-vC..`` is ``-v -C ..`` (a cluster). ``moves`` reads only ``-C``,
    ``--chdir`` (and ``named._MOVING`` looks for no other sign), so
    ``project/.claude/hooks/x.sh`` is read from the call's folder, where it is no guarded
    path; env runs gcc in the folder above, where it is the hook script.
    (``env -C .. gcc …`` and ``cd .. && gcc …`` are denied.)"""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    assert not hook_allows(project, command.replace("--chd=..", "--chdir=..").replace(
        "--ch ..", "--chdir ..").replace("-vC..", "-C.."))
    scratch = tmp_path / "scratch" / "project"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60,
                   check=False)
    assert (scratch / ".claude" / "hooks" / "x.sh").read_text() == PAYLOAD, \
        "bash wrote no hook: the case proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("command", [
    "gcc -E -P -x c src/x.sh -I \"\n\" -o.claude/hooks/x.sh <<E\n$HOME\nE",
    "cat <<E\n$HOME\nE\ngcc -E -P -x c src/x.sh -I '\n' -o.claude/hooks/x.sh",
])
def test_s4_a_quoted_newline_in_the_readers_fallback(tmp_path: Path, command: str) -> None:
    """S4 (narrow plan; s43 S3's kin, against its fix): a here-document whose body bash
    expands (``$HOME``) makes ``folded.tree_commands`` give up, and the readers rule falls back
    to ``shlex``. There a quoted newline (``-I "⏎"``) comes back as the token ``"\\n"``, which
    ``readers._split`` takes for an operator; ``_QUOTED_OPERATOR`` (S3's repair) lists
    ``;&|<>()``` but not the newline. ``-o.claude/hooks/x.sh`` becomes a command of its own,
    whose program it is ("the path is the program run"); bash runs one gcc, which rewrites
    the hook script."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash(gcc *)", "Bash(cat *)"])
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("command", [
    "ls -d .claude/hooks/x.sh | nice xargs gcc -E -P -x c src/x.sh -o",
    "ls -d .claude/hooks/x.sh | timeout 9 xargs gcc -E -P -x c src/x.sh -o",
    "ls -d .claude/hooks/x.sh | env xargs gcc -E -P -x c src/x.sh -o",
])
def test_v6_xargs_after_a_wrapper(tmp_path: Path, command: str) -> None:
    """V6 (tool-wide ``Bash``, as V5): ``readers.writer_of`` refuses a command whose first
    word is ``xargs`` or ``parallel`` (a reader's output becomes a writer's words: s42 GF4),
    but looks at the first word only: after ``nice``, ``timeout 9`` or ``env`` (which
    ``programs.run_words`` strips elsewhere) xargs hands ``ls``'s output, the hook script's
    path, to gcc's ``-o``. (``| xargs gcc …`` and ``| X=1 xargs gcc …`` are denied.)"""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    assert not hook_allows(project, command.replace(command.split("| ")[1].split(" xargs")[0] +
                                                 " xargs", "xargs"))
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


def test_m2b_envs_shortest_chdir_prefix(tmp_path: Path) -> None:
    """M2b (against the M2 fix, ``moves._long_move``: prefixes of four characters or more):
    ``--c`` is already a unique prefix of env's ``--chdir`` (no other long option of GNU env
    starts with ``c``)."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    command = "env --c=.. gcc -E -P -x c project/src/x.sh -o project/.claude/hooks/x.sh"
    scratch = tmp_path / "scratch" / "project"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60,
                   check=False)
    assert (scratch / ".claude" / "hooks" / "x.sh").read_text() == PAYLOAD, \
        "bash wrote no hook: the case proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("command", [
    'gcc -E -P -x c src/x.sh {"-DA= x",-o}.claude/hooks/x.sh',
    "gcc -E -P -x c src/x.sh {-DA=\x1f,-o}.claude/hooks/x.sh",
])
def test_w17b_a_brace_list_with_a_quoted_blank(tmp_path: Path, command: str) -> None:
    """W17b (against the W17 fix, ``guards._words``: the text is cut at blanks before braces
    are expanded): ``{"-DA= x",-o}.claude/hooks/x.sh`` is one word to bash (the blank is
    quoted), expanded to ``-DA= x.claude/hooks/x.sh`` and ``-o.claude/hooks/x.sh``; the guard
    cuts it into ``{-DA=`` and ``x,-o}.claude/hooks/x.sh``, neither a brace list. So for an
    unquoted ``\x1f`` (``str.split`` cuts at it; bash does not)."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("runner", ["setsid", "taskset -c 0", "ionice -c3", "flock lk"])
def test_v6b_xargs_after_a_runner(tmp_path: Path, runner: str) -> None:
    """V6b (against the V6 fix: ``run_words`` strips ``env`` and the wrappers only): after a
    runner that only runs its operand (setsid, taskset, ionice, flock) xargs still hands
    ``ls``'s output to gcc's ``-o``."""
    needs("gcc", runner.split()[0])
    project = hooked_project(tmp_path, ["Bash"])
    command = f"ls -d .claude/hooks/x.sh | {runner} xargs gcc -E -P -x c src/x.sh -o"
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"
