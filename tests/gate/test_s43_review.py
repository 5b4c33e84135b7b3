"""Review s43 of the call gate: calls the hook allows that make bash run something outside the
plan, now or at a later call, or write a file the gate guards. Each case proves the hole with
real bash in a scratch copy of the project, then asks the printed hook; the hook allowing the
call is the finding: these tests fail while the hole is open."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
from pathlib import Path

import pytest
from bash_review import (
    PAYLOAD,
    first_denied,
    hook_allows,
    hooked_project,
    needs,
    proved,
    rewrites_hook,
)
from files_fixture import gated_project
from test_gate_files import _settings_hook, payload, run_hook

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh), as
#: `pytest --slow -m slow` does here.
pytestmark = pytest.mark.slow


#: S1: bash ends a comment at the newline, a backslash in it is text; readers._commands
#: (shlex, commenters="") reads ``\`` + newline as an escaped newline inside a word, so the
#: next line's words join the reader's command before the comment (``true``, ``cat``).
COMMENT_ESCAPES = [
    "true # \\\ngcc -E -P -x c src/x.sh -o .claude/hooks/x.sh",
    "cat notes.txt # \\\ngcc -E -P -x c src/x.sh -o .claude/hooks/x.sh",
]


@pytest.mark.parametrize("command", COMMENT_ESCAPES)
def test_s1_a_backslash_ending_a_comment_joins_the_next_line_to_a_reader(
        tmp_path: Path, command: str) -> None:
    """S1: the readers rule's own lexer disagrees with bash on a comment ending in ``\\``;
    the writer on the next line is read as words of the reader before the comment."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash(gcc *)", "Bash(true)", "Bash(cat *)"])
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


#: A shared object whose constructor runs the payload when it is loaded.
PLUGIN_C = ('#include <stdlib.h>\n'
            '__attribute__((constructor)) static void f(void) { system("touch zz"); }\n')


@pytest.mark.parametrize("link", [
    "gcc -Wl,-plugin,./p.so a.c -o a.out",
    "gcc -Wl,--plugin=./p.so a.c -o a.out",
    "gcc -fuse-ld=bfd -Wl,-plugin=./p.so a.c",
])
def test_r3_the_linkers_plugin_given_through_wl(tmp_path: Path, link: str) -> None:
    """R3 (review s42 R2's kin): ``-Wl,-plugin,X`` hands the linker ``-plugin X``, and ld
    loads X (its constructor runs, before ld finds no ``onload``); ``words._COMPILER_RUNS``
    reads ``-plugin`` only at a word's start (``-Xlinker -plugin`` is denied)."""
    needs("gcc")
    project = tmp_path / "project"
    gated_project(project, ["Bash(gcc *)"])
    (project / "p.c").write_text(PLUGIN_C)
    (project / "a.c").write_text("int main(void) { return 0; }\n")
    calls = ["gcc -shared -fPIC -o p.so p.c", link]
    assert proved(project, tmp_path, calls), "bash ran no payload: the case proves nothing"
    assert first_denied(project, calls) is not None, \
        "the hook allows building a linker plugin and loading it"


@pytest.mark.parametrize("command", [
    "gcc -E -P -x c src/x.sh -Wp,-DA=1,-o,.claude/hooks/x.sh",
    "gcc -E -P -x c src/x.sh -Wp,-DA" + "a" * 300 + ",-o,.claude/hooks/x.sh",
])
def test_n1_an_options_value_past_an_equals_sign_or_256_characters(
        tmp_path: Path, command: str) -> None:
    """N1: ``named._found`` reads a short option's attached tails (``-Wp,-o,PATH``) only for
    a word starting with ``-`` and only from its first 256 characters; guards' ``_TOKEN``
    splits a word at ``=``, so ``-Wp,-DA=1,-o,PATH`` leaves ``1,-o,PATH``, read whole as a
    relative path. gcc hands cc1 ``-o .claude/hooks/x.sh``, and cc1 writes it."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash(gcc *)"])
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


#: (the plan's entry for a program in the tree, the file a covered ``cp`` replaces, the
#: payload in that program's language, the covered call that then runs it)
NAMED_PROGRAMS = [
    ("Bash(perl build.pl)", "build.pl", 'system("touch zz");\n', "perl build.pl"),
    ("Bash(node x.mjs)", "x.mjs", 'import { writeFileSync } from "fs"; writeFileSync("zz", "");\n',
     "node x.mjs"),
    # (`Bash(env FOO=1 ./tools/run.sh)` was a case here: since main 378e1bc the covered run is
    # itself denied, COST C7)
    ("Bash(timeout 60 ./tools/run.sh)", "tools/run.sh", PAYLOAD, "timeout 60 ./tools/run.sh"),
    ("Bash(nice ./tools/run.sh)", "tools/run.sh", PAYLOAD, "nice ./tools/run.sh"),
    ("Bash(pushd tools && ./run.sh)", "tools/run.sh", "touch ../zz\n", "pushd tools && ./run.sh"),
    ('Bash(bash -c "./tools/run.sh")', "tools/run.sh", PAYLOAD, 'bash -c "./tools/run.sh"'),
]


@pytest.mark.parametrize(("entry", "program", "payload", "run"), NAMED_PROGRAMS,
                         ids=[n[0] for n in NAMED_PROGRAMS])
def test_p2_a_program_the_plan_names_is_left_open_to_a_covered_copy(
        tmp_path: Path, entry: str, program: str, payload: str, run: str) -> None:
    """P2 (review s42 P1's kin, against ``planprograms.plan_programs``): an interpreter's script
    whose name ends in none of ``.py``/``.sh``/``.js`` (``build.pl``, ``x.mjs``), a program
    after a wrapper (``env``, ``timeout``, ``nice``), after ``pushd`` or inside ``bash -c
    "…"`` (its quotes kept in the path guarded) is not guarded: the covered ``cp`` replaces
    it, and the covered run runs the copy."""
    if not program.endswith(".sh"):
        needs(run.split()[0])
    project = tmp_path / "project"
    gated_project(project, [entry, "Bash(cp *)"])
    (project / "tools").mkdir()
    target = project / program
    target.write_text("#!/bin/sh\necho ok\n" if program.endswith(".sh") else "1;\n")
    target.chmod(0o755)
    (project / "payload").write_text(payload)
    calls = [f"cp payload {program}", run]
    assert proved(project, tmp_path, calls), "bash ran no payload: the case proves nothing"
    assert hook_allows(project, run), "the run itself is not covered: the case proves nothing"
    assert first_denied(project, calls) is not None, \
        f"the hook allows replacing {program} and the covered run of it"


def test_v1_printf_v_hands_a_guarded_path_to_a_later_program(tmp_path: Path) -> None:
    """V1 (under a tool-wide ``Bash`` grant, where the guard still denies ``gcc … -o
    .claude/hooks/x.sh``): ``printf`` is a reader (``readers.READERS``), but ``printf -v``
    stores the path it is given in a variable; exported, gcc's ``DEPENDENCIES_OUTPUT`` names
    the file gcc appends its make rule to, whose target the format chose (``touch zz``)."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    (project / "src" / "a.c").write_text("int x;\n")
    command = ('printf -v DEPENDENCIES_OUTPUT "%s touch\\tzz\\n" .claude/hooks/x.sh; '
               "export DEPENDENCIES_OUTPUT; gcc -E -P src/a.c -o /dev/null")
    assert not hook_allows(project, "gcc -E -P -x c src/x.sh -o .claude/hooks/x.sh"), \
        "the guard does not hold under Bash: the case proves nothing"
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60,
                   check=False)
    subprocess.run(["sh", ".claude/hooks/x.sh"], cwd=scratch, capture_output=True,
                   timeout=60, check=False)
    assert (scratch / "zz").exists(), "bash wrote no payload to the hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("command", [
    "gcc -E -P -x c src/x.sh -o .cla[[:alpha:]]de/hooks/x.sh",
    "gcc -E -P -x c src/x.sh -o .cl[^x]ude/hooks/x.sh",
])
def test_g1_a_bracket_class_python_does_not_read(tmp_path: Path, command: str) -> None:
    """G1: bash reads ``[[:alpha:]]`` (a POSIX class) and ``[^x]`` (a negation) in a
    pattern; Python's ``glob``/``fnmatch``, which ``named._glob_found`` asks, read the first
    as ``[[:alph]`` then ``]`` and the second as ``^`` or ``x``: the pattern matches nothing
    there, and no guarded item's name fits it. Bash expands it to the hook script."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash(gcc *)"])
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize(("write", "guarded", "content"), [
    ("gcc -E -P -x c x.json -o pl[[:alpha:]]n.json", "plan.json", '{"allowed-tools": ["Bash"]}\n'),
    ("gcc -E -P -x c s.txt -o .cl[^x]ude/s[^x]ttings.json", ".claude/settings.json", "{}\n"),
])
def test_g1b_a_bracket_class_replaces_the_plan_or_the_settings(
        tmp_path: Path, write: str, guarded: str, content: str) -> None:
    """G1b: the same patterns name the plan file or the settings holding the gate's hook
    (``{}``: the next session runs no hook at all). (A changed plan denies every later call:
    the hook pins its digest; the settings are what the runtime reads.)"""
    needs("gcc")
    project = tmp_path / "project"
    gated_project(project, ["Bash(gcc *)"])
    (project / "x.json").write_text('{"allowed-tools": ["Bash"]}\n')
    (project / "s.txt").write_text("{}\n")
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", write], cwd=scratch, capture_output=True, timeout=60,
                   check=False)
    assert (scratch / guarded).read_text() == content, \
        f"bash did not replace {guarded}: the case proves nothing"
    assert not hook_allows(project, write), f"the hook allows replacing {guarded}"


@pytest.mark.parametrize("command", [
    "cd -Pe .claude/hooks && gcc -E -P -x c ../../src/x.sh -o x.sh",
    "cd -LP .claude/hooks && gcc -E -P -x c ../../src/x.sh -o x.sh",
    "true # \\\ncd .claude/hooks\ngcc -E -P -x c ../../src/x.sh -o x.sh",
])
def test_m1_a_move_the_gate_reads_to_another_folder(tmp_path: Path, command: str) -> None:
    """M1 (``moves._moves``): bash's ``cd`` takes its options clustered (``-Pe``, ``-LP``),
    where ``_moves`` skips only ``-L -P -e -@`` written apart and reads ``-Pe`` as the
    folder; and ``moves._command_words`` (shlex, as ``readers``: S1) reads a comment's
    trailing backslash as joining ``cd`` to the comment. Either way the relative ``x.sh``
    is read from the call's folder, where bash writes ``.claude/hooks/x.sh``."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash(gcc *)", "Bash(cd *)", "Bash(true)"])
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("load", [
    "nm --plugin ./p.so a.o",
    "nm --plugin=./p.so a.o",
    "ranlib --plugin ./p.so b.a",
])
def test_r4_binutils_load_the_plugin_their_option_names(tmp_path: Path, load: str) -> None:
    """R4 (R3's kin): binutils' ``nm``, ``ranlib`` (and ``ar``) take ``--plugin NAME`` and
    dlopen it to read LTO objects; its constructor runs. No list of the gate holds ``nm`` or
    ``ranlib``, and the option is read as no run."""
    needs("gcc", load.split()[0], "ar")
    project = tmp_path / "project"
    gated_project(project, ["Bash(gcc *)", "Bash(nm *)", "Bash(ranlib *)"])
    (project / "p.c").write_text(PLUGIN_C)
    (project / "a.c").write_text("int main(void) { return 0; }\n")
    subprocess.run(["gcc", "-c", "a.c", "-o", "a.o"], cwd=project, check=True, timeout=60)
    subprocess.run(["ar", "rc", "b.a", "a.o"], cwd=project, check=True, timeout=60)
    calls = ["gcc -shared -fPIC -o p.so p.c", load]
    assert proved(project, tmp_path, calls), "bash ran no payload: the case proves nothing"
    assert first_denied(project, calls) is not None, \
        "the hook allows building a plugin and loading it into a binutils program"


@pytest.mark.parametrize(("entry", "run"), [
    ("Bash(diff3 *)", "diff3 --diff-program=./e.sh a b c"),
    ("Bash(sdiff *)", "sdiff --diff-program=./e.sh a b"),
])
def test_r5_diffutils_run_the_diff_program_their_option_names(
        tmp_path: Path, entry: str, run: str) -> None:
    """R5 (R1's class): GNU diffutils' ``diff3`` and ``sdiff`` run ``--diff-program=PROG``
    (the project's ``e.sh``, which a covered write put there) in place of ``diff``; no list
    holds them, and their options are not read."""
    needs(run.split()[0])
    project = tmp_path / "project"
    gated_project(project, [entry])
    (project / "e.sh").write_text("#!/bin/sh\ntouch zz\n")
    (project / "e.sh").chmod(0o755)
    for name in "abc":
        (project / name).write_text(f"{name}\n")
    assert proved(project, tmp_path, [run]), "bash ran no payload: the case proves nothing"
    assert not hook_allows(project, run), "the hook allows a run of a program the plan names not"


def _as_the_runtime_runs(command: str, cwd: Path) -> None:
    """``command`` run as Claude Code 2.1.332 runs a Bash call: its shell snapshot sourced
    (which holds ``shopt -s expand_aliases``, the binary's own line), then ``eval`` of the
    command's text, then ``pwd -P >| FILE``."""
    snapshot = cwd.parent / "snapshot.sh"
    snapshot.write_text("unalias -a 2>/dev/null || true\nshopt -s expand_aliases\n")
    script = f"source {shlex.quote(str(snapshot))} && eval {shlex.quote(command)} && " \
        "pwd -P >| /dev/null"
    subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, timeout=60,
                   check=False)


def test_v2_an_alias_makes_a_reader_a_writer(tmp_path: Path) -> None:
    """V2 (under a tool-wide ``Bash`` grant, where the guard still denies ``gcc … -o
    .claude/hooks/x.sh``): Claude Code's snapshot turns ``expand_aliases`` on, and ``eval``
    reads the command line by line, so an ``alias`` on one line renames the program of the
    next; ``readers._reads`` judges ``cat`` by its name, and the alias' value (no operator in
    it) is not read again as a command."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    command = "alias cat='gcc -E -P -x c src/x.sh -o'\ncat .claude/hooks/x.sh"
    assert not hook_allows(project, "gcc -E -P -x c src/x.sh -o .claude/hooks/x.sh"), \
        "the guard does not hold under Bash: the case proves nothing"
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    _as_the_runtime_runs(command, scratch)
    assert (scratch / ".claude" / "hooks" / "x.sh").read_text() == PAYLOAD, \
        "bash wrote no hook: the case proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("command", [
    "gcc -E -P -x c src/x.sh -o \\\n .claude/hooks/x.sh",
    "gcc -E -P -x c src/x.sh -o \\\n\t.claude/hooks/x.sh",
])
def test_s2_a_line_continuation_splits_a_writer_in_the_readers_lexer(
        tmp_path: Path, command: str) -> None:
    """S2: bash removes a backslash-newline (a line continuation, after a blank: the
    lexical check lets it pass) and the command goes on; ``readers._simple`` (shlex) makes
    the escaped newline a word of its own, ``\\n``, which it then takes for an operator: the
    path after it is read as a command of its own, whose program it is ("the path is the
    program run")."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash(gcc *)"])
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("command", [
    "gcc -E -P -x c src/x.sh -I ';' -o.claude/hooks/x.sh",
    "gcc -E -P -x c src/x.sh -I \\; -o.claude/hooks/x.sh",
])
def test_s3_a_quoted_operator_is_a_word_to_bash(tmp_path: Path, command: str) -> None:
    """S3: a quoted or escaped ``;`` is a word to bash (``find … -exec … \\;`` is the common
    one); ``readers._simple`` gets the token ``;`` from shlex with its quotes removed and
    takes it for an operator, so the words after it are a command of their own: here
    ``-o.claude/hooks/x.sh`` alone, its own program ("the path is the program run")."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash(gcc *)"])
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


def _run_calls(project: Path, calls: list[str], env: dict[str, str]) -> str | None:
    """Asks the hook (in the session's environment ``env``) for each call in turn, running
    each allowed one under bash in the project; the first denied, or None."""
    hook = _settings_hook(project)
    for call in calls:
        said = subprocess.run(["/bin/sh", "-c", hook], input=payload(call, project),
                              cwd=project, env=env, capture_output=True, timeout=60,
                              check=False)
        if said.returncode == 2:
            return call
        subprocess.run(["bash", "-c", call], cwd=project, env=env, capture_output=True,
                       timeout=60, check=False)
    return None


def test_h11_lesspipes_user_filter_in_the_config_folder(tmp_path: Path) -> None:
    """H11 (review s42 H2's kin): Debian's and Ubuntu's ``.bashrc`` export
    ``LESSOPEN="| /usr/bin/lesspipe %s"``, and lesspipe runs ``$XDG_CONFIG_HOME/lessfilter``
    (``~/.config/lessfilter``) on every file ``less`` opens, its output not a terminal too.
    ``~/.config/lessfilter`` is in no list of ``HOME_CODE`` (``.config/lesskey`` is): the
    covered ``cp`` writes it, and the covered ``less notes.txt`` runs it."""
    needs("less", "lesspipe")
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(less *)"])
    home = tmp_path / "home"
    (home / ".config").mkdir(parents=True)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("LESS", "XDG_"))},
           "HOME": str(home), "LESSOPEN": "| /usr/bin/lesspipe %s"}
    marker = tmp_path / "zz"
    (project / "lf").write_text(f"#!/bin/sh\ntouch {marker}\n")
    (project / "lf").chmod(0o755)
    calls = [f"cp lf {home}/.config/lessfilter", "less notes.txt"]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    for call in calls:
        subprocess.run(["bash", "-c", call], cwd=scratch, env=env, capture_output=True,
                       timeout=60, check=False)
    assert marker.exists(), "bash ran no program: the case proves nothing"
    marker.unlink()
    (home / ".config" / "lessfilter").unlink()
    assert _run_calls(project, calls, env) is not None, \
        "the hook allows writing lesspipe's user filter and the less that runs it"


#: A plain PPM image whose header comment ImageMagick keeps; written out as MIFF (a text
#: header holding ``comment={ … }``), the comment's line is a shell command substitution.
PPM = "P3\n# $(touch zz)\n1 1\n255\n0 0 0\n"


@pytest.mark.parametrize(("entry", "command"), [
    ("Bash(convert *)", "convert w.ppm miff:.claude/hooks/x.sh"),
    ("Bash(composite *)", "composite w.ppm w.ppm miff:.claude/hooks/x.sh"),
    ("Bash(compare *)", "compare w.ppm w.ppm miff:.claude/hooks/x.sh"),
])
def test_w14_imagemagicks_format_prefix_hides_the_path(
        tmp_path: Path, entry: str, command: str) -> None:
    """W14: ImageMagick reads ``FORMAT:PATH`` as a path written in that format; the gate
    reads the word ``miff:.claude/hooks/x.sh`` as a relative path in a folder ``miff:.claude``
    (guards._TOKEN splits at no ``:``). The MIFF header is text, and the image's comment
    (the PPM's ``# …``) is a line of it: running the hook script runs ``touch zz``. (The
    same word reaches the gate's own installation: ``convert w.ppm
    miff:/…/skillgrant/__main__.py`` is allowed, and a ``python -m skillgrant`` that fails
    is a hook that fails open in Claude Code; not run here.)"""
    project = hooked_project(tmp_path, [entry])
    (project / "w.ppm").write_text(PPM)
    program = shutil.which(command.split()[0])
    version = program and subprocess.run([program, "-version"], capture_output=True,
                                         timeout=60, check=False).stdout
    if version and b"ImageMagick" in version:  # not a stand-in of the same name
        assert _rewrites_hook_any(project, tmp_path, command), \
            "bash ran no payload: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


def test_w14b_the_format_prefix_reaches_the_gates_installation(tmp_path: Path) -> None:
    """W14b: the hook's own package (guarded: its folder) named through ``miff:``; decided
    only (the write would break this checkout's package)."""
    project = hooked_project(tmp_path, ["Bash(convert *)"])
    python = shlex.split(_settings_hook(project))[0]  # the package the hook runs: with --slow,
    found = subprocess.run([python, "-I", "-c", "import skillgrant; print(skillgrant.__file__)"],
                           capture_output=True, text=True, timeout=60, check=True)  # a fresh
    main = Path(found.stdout.strip()).parent / "__main__.py"  # installation's, not this one
    assert not hook_allows(project, f"convert w.ppm {main}"), "the premise: the package is guarded"
    assert not hook_allows(project, f"convert w.ppm miff:{main}"), \
        "the hook allows a write of the gate's own package"


def _rewrites_hook_any(project: Path, tmp_path: Path, command: str) -> bool:
    """Whether real bash, running ``command`` in a copy of ``project``, leaves a hook script
    that, run, runs the payload (whatever else it holds)."""
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60,
                   check=False)
    subprocess.run(["sh", ".claude/hooks/x.sh"], cwd=scratch, capture_output=True, timeout=60,
                   check=False, stdin=subprocess.DEVNULL)
    return (scratch / "zz").exists()


def test_v3_an_env_assignment_is_skipped_as_a_wrapper(tmp_path: Path) -> None:
    """V3 (against the P2 fix, on main 3352fb3; tool-wide ``Bash``, as V1): ``readers._reads``
    now takes the program past ``env`` and its assignments (``words.run_words``); a path only
    in such an assignment is then in none of the program's words, and is read as "the
    program run". ``env DEPENDENCIES_OUTPUT=.claude/hooks/x.sh gcc …`` is allowed (the same
    assignment without ``env`` is denied: review s42 GF8); gcc appends its make rule, whose
    target the ``-MT`` words chose (``bash -c echo>zz``), to the hook script."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    (project / "src" / "a.c").write_text("int x;\n")
    command = ("env DEPENDENCIES_OUTPUT=.claude/hooks/x.sh gcc -E -P -MT bash -MT -c "
               "-MT 'echo>zz' src/a.c -o /dev/null")
    assert not hook_allows(project, command.removeprefix("env ")), \
        "the premise: the assignment without env is denied"
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60,
                   check=False)
    subprocess.run(["sh", ".claude/hooks/x.sh"], cwd=scratch, capture_output=True,
                   timeout=60, check=False)
    assert (scratch / "zz:").exists(), "bash wrote no payload to the hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


#: Against the P2 fix (``words.run_words`` steps over ``env`` and the stripped wrappers
#: only): a program an exact entry runs through a runner that runs its operand as it is.
RUNNER_NAMED = [
    ("Bash(setsid ./tools/run.sh)", "setsid ./tools/run.sh"),
    ("Bash(ionice -c3 ./tools/run.sh)", "ionice -c3 ./tools/run.sh"),
    ("Bash(taskset -c 0 ./tools/run.sh)", "taskset -c 0 ./tools/run.sh"),
]


@pytest.mark.parametrize(("entry", "run"), RUNNER_NAMED, ids=[r[1] for r in RUNNER_NAMED])
def test_p2b_a_program_an_exact_entry_runs_through_a_runner(
        tmp_path: Path, entry: str, run: str) -> None:
    """P2b: ``setsid``, ``ionice``, ``taskset`` are runners, so only an entry naming the
    whole command covers ``setsid ./tools/run.sh`` — and that entry is the plan's approval of
    ``tools/run.sh``; ``plan_programs`` takes ``setsid`` for the program and guards nothing.
    The covered ``cp`` replaces the script, and the covered run runs the copy."""
    needs(run.split()[0])
    project = tmp_path / "project"
    gated_project(project, [entry, "Bash(cp *)"])
    (project / "tools").mkdir()
    (project / "tools" / "run.sh").write_text("#!/bin/sh\necho ok\n")
    (project / "tools" / "run.sh").chmod(0o755)
    (project / "payload").write_text(PAYLOAD)
    calls = ["cp payload tools/run.sh", run]
    assert proved(project, tmp_path, calls), "bash ran no payload: the case proves nothing"
    assert hook_allows(project, run), "the run itself is not covered: the case proves nothing"
    assert first_denied(project, calls) is not None, \
        "the hook allows replacing tools/run.sh and the covered run of it"


@pytest.mark.parametrize("command", [
    "al''ias cat='gcc -E -P -x c src/x.sh -o'\ncat .claude/hooks/x.sh",
    "al\\ias cat='gcc -E -P -x c src/x.sh -o'\ncat .claude/hooks/x.sh",
])
def test_v2b_an_alias_spelled_with_quotes(tmp_path: Path, command: str) -> None:
    """V2b (against the V2 fix, ``readers._RENAMES``: ``\\balias\\b`` in the text): bash
    joins ``al''ias`` and ``al\\ias`` into the builtin ``alias`` (quoting a name stops only
    its own alias expansion), and the regular expression sees no word ``alias``."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    _as_the_runtime_runs(command, scratch)
    assert (scratch / ".claude" / "hooks" / "x.sh").read_text() == PAYLOAD, \
        "bash wrote no hook: the case proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("command", [
    "PATH=bin cat .claude/hooks/x.sh",
    "hash -p ./bin/cat cat; cat .claude/hooks/x.sh",
    "hash -p bin/cat cat; cat .claude/hooks/x.sh",
])
def test_v4_a_readers_name_found_elsewhere(tmp_path: Path, command: str) -> None:
    """V4 (tool-wide ``Bash``, as V1): ``readers._reads`` trusts a reader's name, but the
    command picks which file that name runs: a ``PATH=`` assignment before it, or ``hash -p
    FILE NAME``. The project's ``bin/cat`` (written by an earlier call: no guarded folder)
    copies the payload over its operand."""
    project = hooked_project(tmp_path, ["Bash"])
    (project / "bin").mkdir()
    (project / "bin" / "cat").write_text('#!/bin/sh\n/bin/cp src/x.sh "$1"\n')
    (project / "bin" / "cat").chmod(0o755)
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("command", [
    "gcc -E -P -x c src/x.sh -o .cla[x[:alpha:]]de/hooks/x.sh",
    "gcc -E -P -x c src/x.sh -o .cla[!x[:digit:]]de/hooks/x.sh",
    "gcc -E -P -x c src/x.sh -o .cla[x[=u=]]de/hooks/x.sh",
])
def test_g1c_a_bracket_class_after_another_member(tmp_path: Path, command: str) -> None:
    """G1c (against the G1 fix, ``named._BASH_CLASS``: ``[^`` or ``[[:``/``[[=``/``[[.``):
    a class need not open its bracket expression; ``[x[:alpha:]]``, ``[!x[:digit:]]``,
    ``[x[=u=]]`` hold one after another member, and Python's fnmatch still reads them as a
    set then a literal ``]``."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash(gcc *)"])
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


def test_g1d_a_bracket_class_names_the_settings(tmp_path: Path) -> None:
    """G1d: the same form names the settings holding the gate's hook."""
    needs("gcc")
    write = "gcc -E -P -x c s.txt -o .cl[x[:alpha:]]ude/s[x[:alpha:]]ttings.json"
    project = tmp_path / "project"
    gated_project(project, ["Bash(gcc *)"])
    (project / "s.txt").write_text("{}\n")
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", write], cwd=scratch, capture_output=True, timeout=60,
                   check=False)
    assert (scratch / ".claude" / "settings.json").read_text() == "{}\n", \
        "bash did not replace the settings: the case proves nothing"
    assert not hook_allows(project, write), "the hook allows replacing .claude/settings.json"


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("write", [
    "git checkout evil -- out/l && gcc -E -P -x c src/x.sh -o out/l/x.sh",
    "git restore --source evil out/l && gcc -E -P -x c src/x.sh -o out/l/x.sh",
])
def test_l1_a_link_checked_out_in_the_same_call(tmp_path: Path, write: str) -> None:
    """L1: a branch fetched from a remote (served here by ``git daemon`` on 127.0.0.1; a
    local source is denied) holds ``out/l -> ../.claude/hooks``. ``git checkout evil --
    out/l`` (a ``GIT_NAMED`` write of the path it names, none guarded) makes the link, and
    the writer after it in the same call writes through it: when the hook decides, ``out/l``
    does not exist, so ``out/l/x.sh`` is no guarded path, by its normal form or its real one.
    (In a later call the real path finds it.)"""
    needs("gcc")
    if not os.path.exists("/usr/lib/git-core/git-daemon"):
        pytest.skip("git daemon is not installed")
    project = hooked_project(
        tmp_path, ["Bash(git fetch *)", "Bash(git checkout *)", "Bash(git restore *)",
                   "Bash(gcc *)"])
    served = tmp_path / "srv" / "up"
    (served / "out").mkdir(parents=True)
    (served / "out" / "l").symlink_to("../.claude/hooks")
    for args in (["init", "-q"], ["add", "out"],
                 ["-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "l"]):
        subprocess.run(["git", *args], cwd=served, check=True, timeout=60,
                       capture_output=True)
    port = _free_port()
    daemon = subprocess.Popen(["git", "daemon", "--export-all", "--reuseaddr",
                               f"--base-path={tmp_path / 'srv'}", "--listen=127.0.0.1",
                               f"--port={port}", str(tmp_path / "srv")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import time

        fetch = f"git fetch -q git://127.0.0.1:{port}/up HEAD:evil"
        for _ in range(50):  # the daemon is listening once a fetch from it works
            done = subprocess.run(["bash", "-c", fetch], cwd=project, capture_output=True,
                                  timeout=60, check=False)
            if done.returncode == 0:
                break
            time.sleep(0.2)
        assert hook_allows(project, fetch), "the fetch is not covered: the case proves nothing"
        assert rewrites_hook(project, tmp_path, write), "bash wrote no hook: proves nothing"
        assert not hook_allows(project, write), "the hook allows a write of .claude/hooks/x.sh"
    finally:
        daemon.terminate()
        daemon.wait(timeout=30)


#: Against the P2 fix: entries whose move ``plan_programs`` does not read (it reads only a
#: part of exactly ``cd DIR`` or ``pushd DIR``).
MOVED_NAMED = [
    "cd -P tools && ./run.sh",
    "(cd tools && ./run.sh)",
    "env -C tools ./run.sh",
    "pushd tools >/dev/null && ./run.sh",
    "cd tools >/dev/null && ./run.sh",
    "cd tools 2>/dev/null && ./run.sh",
]


@pytest.mark.parametrize("run", MOVED_NAMED)
def test_p2c_a_program_named_after_a_move_plan_programs_misreads(
        tmp_path: Path, run: str) -> None:
    """P2c: ``plan_programs`` takes a move from an entry's part only when it is the two words
    ``cd DIR``/``pushd DIR``: an option (``cd -P``), a subshell's parenthesis, a
    redirection after the folder, ``env -C`` leave ``./run.sh`` read from the project's top
    folder, and ``tools/run.sh`` unguarded; the covered ``cp`` replaces it, and the covered
    run runs the copy."""
    project = tmp_path / "project"
    gated_project(project, [f"Bash({run})", "Bash(cp *)"])
    (project / "tools").mkdir()
    (project / "tools" / "run.sh").write_text("#!/bin/sh\necho ok\n")
    (project / "tools" / "run.sh").chmod(0o755)
    marker = tmp_path / "zz"
    (project / "payload").write_text(f"#!/bin/sh\ntouch {marker}\n")
    calls = ["cp payload tools/run.sh", run]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    for call in calls:
        subprocess.run(["bash", "-c", call], cwd=scratch, capture_output=True, timeout=60,
                       check=False)
    assert marker.exists(), "bash ran no payload: the case proves nothing"
    marker.unlink()
    assert hook_allows(project, run), "the run itself is not covered: the case proves nothing"
    assert first_denied(project, calls) is not None, \
        "the hook allows replacing tools/run.sh and the covered run of it"


@pytest.mark.parametrize("run", ["~/bin/x.sh", "$HOME/bin/x.sh", "${HOME}/bin/x.sh"])
def test_p2d_a_program_the_plan_names_in_the_home(tmp_path: Path, run: str) -> None:
    """P2d: ``plan_programs`` skips an entry holding ``$`` (meant for
    ``${CLAUDE_SKILL_DIR}``, whose folder is guarded otherwise) and reads ``~/bin/x.sh`` as a
    path under the call's folder: a program the plan names in the home is not guarded. The
    covered ``cp`` (to its absolute path) replaces it, and the covered run runs the copy."""
    project = tmp_path / "project"
    gated_project(project, [f"Bash({run})", "Bash(cp *)"])
    home = tmp_path / "home"
    (home / "bin").mkdir(parents=True)
    env = {**os.environ, "HOME": str(home)}
    marker = tmp_path / "zz"
    (project / "payload").write_text(f"#!/bin/sh\ntouch {marker}\n")
    (project / "payload").chmod(0o755)
    script = home / "bin" / "x.sh"
    calls = [f"cp payload {script}", run]
    script.write_text("#!/bin/sh\necho ok\n")
    script.chmod(0o755)
    for call in calls:
        subprocess.run(["bash", "-c", call], cwd=project, env=env, capture_output=True,
                       timeout=60, check=False)
    assert marker.exists(), "bash ran no payload: the case proves nothing"
    marker.unlink()
    script.write_text("#!/bin/sh\necho ok\n")
    assert _run_calls(project, [run], env) is None, "the run is not covered: proves nothing"
    assert _run_calls(project, calls, env) is not None, \
        "the hook allows replacing the plan's program in the home and the covered run of it"


@pytest.mark.parametrize("load", [
    "nm --plu ./p.so a.o",
    "nm --pl=./p.so a.o",
    "gcc-nm-12 --plugin ./p.so a.o",
    "x86_64-linux-gnu-gcc-nm-12 --plugin ./p.so a.o",
    "gcc-ranlib-12 --plugin ./p.so b.a",
])
def test_r4b_a_plugin_option_abbreviated_or_a_versioned_name(
        tmp_path: Path, load: str) -> None:
    """R4b (against the R4 fix: ``--plugin`` as written, for the names ``nm``, ``ranlib``,
    ``ar``, ``gcc-nm``, ``gcc-ranlib``, ``gcc-ar``): binutils read long options with
    getopt_long, so ``--plu`` and ``--pl=`` are ``--plugin``; and GCC installs its wrappers
    under versioned and target names (``gcc-nm-12``, ``x86_64-linux-gnu-gcc-nm-12``)."""
    program = load.split()[0]
    needs("gcc", program, "ar")
    project = tmp_path / "project"
    gated_project(project, ["Bash(gcc *)", f"Bash({program} *)"])
    (project / "p.c").write_text(PLUGIN_C)
    (project / "a.c").write_text("int main(void) { return 0; }\n")
    subprocess.run(["gcc", "-c", "a.c", "-o", "a.o"], cwd=project, check=True, timeout=60)
    subprocess.run(["ar", "rc", "b.a", "a.o"], cwd=project, check=True, timeout=60)
    calls = ["gcc -shared -fPIC -o p.so p.c", load]
    assert proved(project, tmp_path, calls), "bash ran no payload: the case proves nothing"
    assert first_denied(project, calls) is not None, \
        "the hook allows building a plugin and loading it into a binutils program"


@pytest.mark.parametrize(("entry", "run"), [
    ("Bash(diff3 *)", "diff3 --diff-prog=./e.sh a b c"),
    ("Bash(diff3 *)", "diff3 --d=./e.sh a b c"),
    ("Bash(sdiff *)", "sdiff --diff=./e.sh a b"),
])
def test_r5b_diff_program_abbreviated(tmp_path: Path, entry: str, run: str) -> None:
    """R5b (against the R5 fix: ``--diff-program`` as written): GNU diffutils take any
    unambiguous prefix of a long option (``--diff-prog``, ``--diff``, ``--d``)."""
    needs(run.split()[0])
    project = tmp_path / "project"
    gated_project(project, [entry])
    (project / "e.sh").write_text("#!/bin/sh\ntouch zz\n")
    (project / "e.sh").chmod(0o755)
    for name in "abc":
        (project / name).write_text(f"{name}\n")
    assert proved(project, tmp_path, [run]), "bash ran no payload: the case proves nothing"
    assert not hook_allows(project, run), "the hook allows a run of a program the plan names not"


@pytest.mark.parametrize("run", [
    "x86_64-linux-gnu-gcc-12 -wrapper ./e.sh -c a.c",
    "x86_64-linux-gnu-gcc -wrapper ./e.sh -c a.c",
    "c99 -wrapper ./e.sh -c a.c",
    "c89 -wrapper ./e.sh -c a.c",
])
def test_r2b_a_compiler_driver_under_another_name(tmp_path: Path, run: str) -> None:
    """R2b (review s42 R2 under other names): ``words._COMPILERS`` is matched on the name's
    part before its first ``-`` (``gcc-12``), so GCC's target-named drivers
    (``x86_64-linux-gnu-gcc-12``) and POSIX's ``c99``/``c89`` (``exec gcc -std=… "$@"``) run
    ``-wrapper``'s program unread."""
    program = run.split()[0]
    needs(program)
    project = tmp_path / "project"
    gated_project(project, [f"Bash({program} *)"])
    (project / "a.c").write_text("int main(void) { return 0; }\n")
    (project / "e.sh").write_text('#!/bin/sh\ntouch zz\nexec "$@"\n')
    (project / "e.sh").chmod(0o755)
    assert proved(project, tmp_path, [run]), "bash ran no payload: the case proves nothing"
    assert not hook_allows(project, run), "the hook allows a run of a program the plan names not"


def test_p1k_a_workspaces_node_modules_bin(tmp_path: Path) -> None:
    """P1k (review s42 P1c's kin): ``plan_programs`` guards the top ``node_modules/`` (and
    every ``package.json`` by name) for a node runner; ``npm run build --workspace=pkg`` runs
    ``pkg``'s script with ``pkg/node_modules/.bin`` first on its PATH, which is not guarded:
    the covered ``cp`` replaces the script's program, and the covered run runs the copy."""
    needs("npm")
    run = "npm run build --workspace=pkg"
    project = tmp_path / "project"
    gated_project(project, [f"Bash({run})", "Bash(cp *)"])
    bin_dir = project / "pkg" / "node_modules" / ".bin"
    bin_dir.mkdir(parents=True)
    (project / "package.json").write_text(
        '{"name": "root", "version": "1.0.0", "private": true, "workspaces": ["pkg"]}\n')
    (project / "pkg" / "package.json").write_text(
        '{"name": "pkg", "version": "1.0.0", "scripts": {"build": "tsc-x"}}\n')
    (bin_dir / "tsc-x").write_text("#!/bin/sh\necho built\n")
    (bin_dir / "tsc-x").chmod(0o755)
    marker = tmp_path / "zz"
    (project / "payload").write_text(f"#!/bin/sh\ntouch {marker}\n")
    (project / "payload").chmod(0o755)
    calls = ["cp payload pkg/node_modules/.bin/tsc-x", run]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    for call in calls:
        subprocess.run(["bash", "-c", call], cwd=scratch, capture_output=True, timeout=120,
                       check=False)
    assert marker.exists(), "bash ran no payload: the case proves nothing"
    marker.unlink()
    assert hook_allows(project, run), "the run itself is not covered: the case proves nothing"
    assert first_denied(project, calls) is not None, \
        "the hook allows replacing the workspace's program and the covered run of it"


#: A Java annotation processor whose class initializer runs the payload.
PROCESSOR = (
    "public class P extends javax.annotation.processing.AbstractProcessor {\n"
    "  static { try { new java.io.File(\"zz\").createNewFile(); } catch (Exception e) {} }\n"
    "  public boolean process(java.util.Set<? extends javax.lang.model.element.TypeElement>"
    " a, javax.annotation.processing.RoundEnvironment r) { return false; }\n}\n")


@pytest.mark.parametrize(("entry", "calls"), [
    ("Bash(groff *)", ["groff -U -Tascii d.ms"]),
    ("Bash(perf *)", ["perf stat -e task-clock touch zz"]),
    ("Bash(javac *)", ["javac P.java", "javac -processorpath . -processor P A.java"]),
], ids=["groff -U", "perf stat", "javac -processor"])
def test_r6_programs_that_run_code_their_words_name(
        tmp_path: Path, entry: str, calls: list[str]) -> None:
    """R6 (R1's class: lists trail): ``groff -U`` (unsafe mode) runs a document's ``.sy``
    request; ``perf stat`` runs its operand command (``strace``, ``valgrind`` are runners;
    ``perf`` is not); ``javac -processor`` runs an annotation processor's code (its class
    compiled by the covered ``javac`` before). None is in a list."""
    needs(calls[-1].split()[0])
    project = tmp_path / "project"
    gated_project(project, [entry])
    (project / "d.ms").write_text(".sy touch zz\nhello\n")
    (project / "P.java").write_text(PROCESSOR)
    (project / "A.java").write_text("class A {}\n")
    assert proved(project, tmp_path, calls), "bash ran no payload: the case proves nothing"
    assert first_denied(project, calls) is not None, \
        "the hook allows a run of code the plan names not"


KUBECONFIG = """apiVersion: v1
kind: Config
clusters:
- cluster: {server: "https://127.0.0.1:1"}
  name: c
contexts:
- context: {cluster: c, user: u}
  name: x
current-context: x
users:
- name: u
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1beta1
      command: ./e.sh
      interactiveMode: Never
"""


@pytest.mark.parametrize("run", ["kubectl get pods --kubeconfig=./k.yaml --request-timeout=2s",
                                 "kubectl get pods --kubeconfig k.yaml --request-timeout=2s"])
def test_r7_kubectl_runs_a_kubeconfigs_exec_credential(tmp_path: Path, run: str) -> None:
    """R7 (review s41 K1's kin: ``~/.kube`` is guarded): ``--kubeconfig`` names a project
    file whose user's ``exec`` plugin kubectl runs before it asks the server, under
    ``Bash(kubectl get *)``."""
    needs("kubectl")
    project = tmp_path / "project"
    gated_project(project, ["Bash(kubectl get *)"])
    (project / "k.yaml").write_text(KUBECONFIG)
    (project / "e.sh").write_text("#!/bin/sh\ntouch zz\n")
    (project / "e.sh").chmod(0o755)
    assert proved(project, tmp_path, [run]), "bash ran no payload: the case proves nothing"
    assert not hook_allows(project, run), "the hook allows a run of a program the plan names not"


@pytest.mark.parametrize("run", ["rustc -C linker=./e.sh m.rs", "rustc -Clinker=./e.sh m.rs"])
def test_r6b_rustc_runs_the_linker_its_option_names(tmp_path: Path, run: str) -> None:
    """R6b (gcc's ``-B``/``-fuse-ld=PATH`` in rustc): ``-C linker=PATH`` runs PATH as the
    linker, under ``Bash(rustc *)``; rustc is in no list."""
    needs("rustc")
    project = tmp_path / "project"
    gated_project(project, ["Bash(rustc *)"])
    (project / "m.rs").write_text("fn main() {}\n")
    (project / "e.sh").write_text("#!/bin/sh\ntouch zz\n")
    (project / "e.sh").chmod(0o755)
    assert proved(project, tmp_path, [run]), "bash ran no payload: the case proves nothing"
    assert not hook_allows(project, run), "the hook allows a run of a program the plan names not"


def test_g1e_a_bracket_class_reaches_git_config(tmp_path: Path) -> None:
    """G1e (G1c through ``.git``): ``writers._reaches_git`` and ``named`` ask fnmatch, which
    reads ``.gi[x[:alpha:]]`` as no ``.git``; bash expands it to ``.git``. gcc writes
    ``.git/config`` with a ``core.fsmonitor``, and the covered ``git status`` runs it."""
    needs("gcc")
    project = tmp_path / "project"
    gated_project(project, ["Bash(gcc *)", "Bash(git status)"])
    (project / "cfg").write_text(
        '[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch zz; false"\n')
    calls = ["gcc -E -P -x c cfg -o .gi[x[:alpha:]]/config", "git status"]
    assert proved(project, tmp_path, calls), "bash ran no payload: the case proves nothing"
    assert first_denied(project, calls) is not None, \
        "the hook allows the write of .git/config and the git status that runs its fsmonitor"


def test_h12_a_shared_library_the_hook_loads(tmp_path: Path) -> None:
    """H12 (review s42 H6's premise: sessions run as root in containers, and on this
    machine): the hook's Python loads ``libm.so.6`` from the system's library folder at
    every start, and nothing there is guarded but git's and Python's own folders: ``cp
    payload /lib/x86_64-linux-gnu/libm.so.6`` is allowed under ``Bash(cp *)``. A hook whose
    interpreter cannot start exits 127, which Claude Code reads as a non-blocking error: the
    call runs. Proved without touching the system: in a private mount namespace, the file
    bind-mounted over ``libm.so.6``, the printed hook asked about a call it denies."""
    libm = Path("/lib/x86_64-linux-gnu/libm.so.6")
    if os.geteuid() != 0 or not libm.exists() or shutil.which("unshare") is None:
        pytest.skip("needs root, unshare and the Debian library layout")
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)"])
    hook = _settings_hook(project)
    (project / "payload").write_text("not a library\n")
    assert run_hook(hook, "touch zz", project).returncode == 2, "the premise: touch is denied"
    script = (f"mount --bind {shlex.quote(str(project / 'payload'))} {libm} && "
              f"/bin/sh -c {shlex.quote(hook)}")
    done = subprocess.run(["unshare", "-m", "bash", "-c", script],
                          input=payload("touch zz", project), cwd=project,
                          capture_output=True, timeout=60, check=False)
    if b"mount" in done.stderr and done.returncode != 127:
        pytest.skip(f"no private mount namespace here: {done.stderr[:200]!r}")
    assert done.returncode not in (0, 2), "the hook still starts: the case proves nothing"
    assert not hook_allows(project, f"cp payload {libm}"), \
        "the hook allows replacing a library its own interpreter loads"


#: A stand-in for ``libm.so.6``: the version nodes the interpreter asks for, and a
#: constructor that ends the process at once, exit status 0, before Python runs.
FAKE_LIBM_C = ("#include <unistd.h>\nvoid fake_a(void) {}\nvoid fake_b(void) {}\n"
               "void fake_c(void) {}\n"
               "__attribute__((constructor)) static void f(void) { _exit(0); }\n")
FAKE_LIBM_MAP = ("GLIBC_2.2.5 { global: fake_a; local: *; };\n"
                 "GLIBC_2.29 { global: fake_b; } GLIBC_2.2.5;\n"
                 "GLIBC_2.35 { global: fake_c; } GLIBC_2.29;\n")


def test_h12b_a_library_folder_the_sessions_environment_names(tmp_path: Path) -> None:
    """H12b (H12 without root): a session whose ``LD_LIBRARY_PATH`` names a folder the user
    writes (conda's ``$CONDA_PREFIX/lib``, a CUDA or a local build's ``lib``) starts the
    hook's Python with libraries from there first; the folder is not guarded: ``cp lib.so
    $DIR/libm.so.6`` is allowed. The library (built by a covered gcc) ends the process with
    status 0 before Python starts: the hook prints nothing, which is no decision, and the
    next call, outside the plan, runs."""
    needs("gcc")
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(gcc *)"])
    libs = tmp_path / "lib"
    libs.mkdir()
    env = {**os.environ, "LD_LIBRARY_PATH": str(libs)}
    (project / "m.c").write_text(FAKE_LIBM_C)
    (project / "v.map").write_text(FAKE_LIBM_MAP)
    hook = _settings_hook(project)
    said = subprocess.run(["/bin/sh", "-c", hook], input=payload("touch zz", project),
                          cwd=project, env=env, capture_output=True, timeout=60, check=False)
    assert said.returncode == 2, "the premise: touch is denied"
    calls = ["gcc -shared -fPIC -Wl,--version-script=v.map -Wl,-soname,libm.so.6 -o lib.so m.c",
             f"cp lib.so {libs}/libm.so.6", "touch zz"]
    subprocess.run(["bash", "-c", calls[0]], cwd=project, env=env, capture_output=True,
                   timeout=60, check=True)  # the premise built by hand: the gate now denies
    shutil.copy(project / "lib.so", libs / "libm.so.6")  # the build (a loaded library's name)
    said = subprocess.run(["/bin/sh", "-c", hook], input=payload("touch zz", project),
                          cwd=project, env=env, capture_output=True, timeout=60, check=False)
    assert said.returncode == 0 and not said.stdout, \
        "the hook still decides: the case proves nothing"
    (libs / "libm.so.6").unlink()
    assert _run_calls(project, calls, env) is not None, \
        "the hook allows replacing a library its interpreter loads, then says nothing"


@pytest.mark.parametrize("place", ["{home}/.node_modules/opt", "{home}/.node_libraries/opt",
                                   "{parent}/node_modules/opt"])
def test_h13_node_resolves_a_module_outside_the_projects_node_modules(
        tmp_path: Path, place: str) -> None:
    """H13 (review s42 P1c/P1f's kin): node looks a module up in each ``node_modules`` from
    the script's folder to the root (the project's own is guarded: ``plan_programs``; its
    parent's is not), then in ``~/.node_modules`` and ``~/.node_libraries`` (in no list of
    ``HOME_CODE``). A script that loads an optional module (``try { require('opt') }
    catch {}``, as for ``fsevents``) under ``Bash(node tools/run.js)`` runs what a covered
    ``cp`` put there."""
    needs("node")
    project = tmp_path / "work" / "project"
    project.parent.mkdir()
    gated_project(project, ["Bash(node tools/run.js)", "Bash(cp *)", "Bash(mkdir *)"])
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home)}
    (project / "tools").mkdir()
    (project / "tools" / "run.js").write_text(
        "try { require('opt'); } catch (e) {}\nconsole.log('ok');\n")
    marker = tmp_path / "zz"
    (project / "payload.js").write_text(
        f"require('fs').writeFileSync({str(marker)!r}, '');\n")
    folder = place.format(home=home, parent=project.parent)
    calls = [f"mkdir -p {folder}", f"cp payload.js {folder}/index.js", "node tools/run.js"]
    for call in calls:
        subprocess.run(["bash", "-c", call], cwd=project, env=env, capture_output=True,
                       timeout=60, check=False)
    assert marker.exists(), "node ran no payload: the case proves nothing"
    marker.unlink()
    shutil.rmtree(Path(folder).parent)
    assert _run_calls(project, calls, env) is not None, \
        "the hook allows planting a module the covered node run loads"


#: A program with no C library: its entry point creates ``zz`` and exits (x86-64 Linux).
START_C = """const char zzname[] = "zz";
void _start(void) {
  __asm__ volatile("mov $85, %%rax\\n lea zzname(%%rip), %%rdi\\n mov $420, %%rsi\\n"
                   "syscall\\n mov $60, %%rax\\n xor %%rdi, %%rdi\\n syscall\\n"
                   ::: "rax", "rdi", "rsi", "rcx", "r11", "memory");
}
"""


def test_w15_a_linker_script_names_the_output(tmp_path: Path) -> None:
    """W15 (review s42 W5's class: a file holds the words): a linker script's
    ``OUTPUT(.claude/hooks/x.sh)`` names the file ``ld -T o.ld e.o`` writes (no ``-o``); no
    word of the command names it. The hook script becomes an executable ELF, run as the
    command hook it is."""
    import platform

    if platform.machine() != "x86_64":
        pytest.skip("the payload is x86-64 code")
    needs("gcc", "ld")
    project = hooked_project(tmp_path, ["Bash(gcc *)", "Bash(ld *)"])
    (project / "e.c").write_text(START_C)
    (project / "o.ld").write_text("OUTPUT(.claude/hooks/x.sh)\n")
    calls = ["gcc -c -fno-pie -O1 e.c", "ld -T o.ld e.o"]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    for call in calls:
        subprocess.run(["bash", "-c", call], cwd=scratch, capture_output=True, timeout=60,
                       check=False)
    subprocess.run([str(scratch / ".claude" / "hooks" / "x.sh")], cwd=scratch,
                   capture_output=True, timeout=60, check=False)
    assert (scratch / "zz").exists(), "the hook script runs no payload: proves nothing"
    assert first_denied(project, calls) is not None, \
        "the hook allows a linker script to name the hook script as ld's output"


def test_t1_a_pattern_the_guard_expands_outlasts_copilots_hook_timeout(
        tmp_path: Path) -> None:
    """T1 (Copilot CLI): ``named._glob_found`` asks ``glob.glob`` for every match of a word's
    pattern before it counts them (``_MAX_MATCHES``), with no bound on the walk; a quoted
    pattern (bash never expands it) over a folder of links to itself (``loop/a -> .``, six of
    them: a repository may hold them) costs 6^depth folder reads. Copilot CLI 1.0.102 lets
    the call of a hook that times out proceed ("timed out; allowing the tool call to
    proceed": reference/copilot-cli-offline.md), and the printed Copilot hook's
    ``timeoutSec`` is 30: the guarded write before the pattern runs."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash(gcc *)", "Bash(ls *)"])
    (project / "loop").mkdir()
    for name in "abcdef":
        (project / "loop" / name).symlink_to(".")
    command = ("gcc -E -P -x c src/x.sh -o .claude/hooks/x.sh; "
               "ls 'loop/*/*/*/*/*/*/*/*/*/*/x' 2>/dev/null")
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    hook = _settings_hook(project) + " --dialect copilot-cli"
    running = subprocess.Popen(["/bin/sh", "-c", hook], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=project,
                               start_new_session=True)  # its own group: killed whole below
    try:
        running.communicate(payload(command, project), timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(running.pid, signal.SIGKILL)
        running.communicate()
        pytest.fail("the hook outlasts Copilot CLI's 30 s timeout, and the call then runs")


@pytest.mark.parametrize("command", [
    "gcc -E -P -x c src/x.sh -o .cla[]x[:alpha:]]de/hooks/x.sh",
    "gcc -E -P -x c src/x.sh -o .cla[!]x[:digit:]]de/hooks/x.sh",
])
def test_g1f_a_class_after_a_leading_bracket_member(tmp_path: Path, command: str) -> None:
    """G1f (against the G1c fix, ``writers.BASH_CLASS``: ``[`` then no ``]`` then ``[:``): a
    ``]`` right after ``[`` or ``[!`` is a member, not the end, so ``[]x[:alpha:]]`` is one
    expression holding a class; the pattern stops at that first ``]``, and the brackets
    balance (3 ``]`` for 2 ``[``)."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash(gcc *)"])
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("command", [
    "for PATH in bin; do cat .claude/hooks/x.sh; done",
    "read PATH <<< bin; cat .claude/hooks/x.sh",
])
def test_v4b_a_variable_set_without_an_equals_sign(tmp_path: Path, command: str) -> None:
    """V4b (against the V4 fix, ``readers._SETS``: ``NAME=``, a declaration, ``hash``,
    ``enable``; tool-wide ``Bash``): a ``for`` loop's variable and ``read``'s are set with no
    ``=``; ``PATH`` set so, the reader's name ``cat`` runs the project's ``bin/cat``."""
    project = hooked_project(tmp_path, ["Bash"])
    (project / "bin").mkdir()
    (project / "bin" / "cat").write_text('#!/bin/sh\n/bin/cp src/x.sh "$1"\n')
    (project / "bin" / "cat").chmod(0o755)
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


def test_h14_rustups_toolchains_in_the_home(tmp_path: Path) -> None:
    """H14 (HOME_CODE's kin: ``~/.cargo`` is guarded, ``~/.rustup`` is not): the ``rustc``
    and ``cargo`` on PATH are rustup's proxies, which run ``~/.rustup/toolchains/<default>/
    bin/rustc``; a covered ``cp`` replaces it (or ``~/.rustup/settings.toml``'s default
    toolchain), and the covered ``rustc --version`` runs the payload."""
    proxy = shutil.which("rustc")
    if proxy is None or os.path.basename(os.path.realpath(proxy)) != "rustup":
        pytest.skip("rustc is not rustup's proxy here")
    project = tmp_path / "project"
    gated_project(project, ["Bash(rustc *)", "Bash(cp *)"])
    home = tmp_path / "home"
    tool = home / ".rustup" / "toolchains" / "tc" / "bin" / "rustc"
    tool.parent.mkdir(parents=True)
    (home / ".rustup" / "settings.toml").write_text(
        'version = "12"\ndefault_toolchain = "tc"\nprofile = "default"\n')
    tool.write_text("#!/bin/sh\necho rustc 1.0.0\n")
    tool.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUSTUP_")}
    env["HOME"] = str(home)
    marker = tmp_path / "zz"
    (project / "payload").write_text(f"#!/bin/sh\ntouch {marker}\necho rustc 1.0.0\n")
    (project / "payload").chmod(0o755)
    calls = [f"cp payload {tool}", "rustc --version"]
    for call in calls:
        subprocess.run(["bash", "-c", call], cwd=project, env=env, capture_output=True,
                       timeout=60, check=False)
    assert marker.exists(), "rustup ran no payload: the case proves nothing"
    marker.unlink()
    tool.write_text("#!/bin/sh\necho rustc 1.0.0\n")
    assert _run_calls(project, calls, env) is not None, \
        "the hook allows replacing the toolchain rustup's proxy runs"


def test_h15_pyenvs_version_file_and_versions_folder(tmp_path: Path) -> None:
    """H15 (this machine's ``python3`` is pyenv's shim, which runs
    ``$PYENV_ROOT/versions/<name>/bin/python3`` for the name a ``.python-version`` in the
    folder or above it gives): neither the project's ``.python-version`` nor a new folder
    in ``$PYENV_ROOT/versions`` is guarded (only the hook's own version is). Decided on the
    real paths; proved in a private mount namespace, a temporary ``versions`` bind-mounted
    over the real one (the home untouched)."""
    root = Path(os.environ.get("PYENV_ROOT", "/nonexistent"))
    shim = shutil.which("python3") or ""
    if not shim.startswith(str(root / "shims")) or shutil.which("unshare") is None or \
            os.geteuid() != 0:
        pytest.skip("python3 is not pyenv's shim here, or no private mount namespace")
    project = tmp_path / "project"
    gated_project(project, ["Bash(python3 tools/run.py)", "Bash(cp *)", "Bash(mkdir *)"])
    (project / "tools").mkdir()
    (project / "tools" / "run.py").write_text("print('ok')\n")
    (project / "version.txt").write_text("s43evil\n")
    (project / "payload").write_text("#!/bin/sh\ntouch zz\n")
    (project / "payload").chmod(0o755)
    evil = root / "versions" / "s43evil" / "bin"
    writes = ["cp version.txt .python-version", f"mkdir -p {evil}",
              f"cp payload {evil}/python3"]
    versions = tmp_path / "versions"
    (versions / "s43evil" / "bin").mkdir(parents=True)
    shutil.copy(project / "payload", versions / "s43evil" / "bin" / "python3")
    shutil.copy(project / "version.txt", project / ".python-version")
    script = (f"mount --bind {shlex.quote(str(versions))} {shlex.quote(str(root / 'versions'))}"
              " && python3 tools/run.py")
    subprocess.run(["unshare", "-m", "bash", "-c", script], cwd=project, capture_output=True,
                   timeout=60, check=False)
    (project / ".python-version").unlink()
    assert (project / "zz").exists(), "pyenv ran no payload: the case proves nothing"
    assert not all(hook_allows(project, call) for call in writes), \
        "the hook allows choosing the interpreter the covered python3 run starts"


@pytest.mark.parametrize("run", ["npx node tools/run.js", "npm exec -- node tools/run.js",
                                 "npx --yes node tools/run.js"])
def test_p2e_a_script_run_through_a_package_runner(tmp_path: Path, run: str) -> None:
    """P2e (P2's kin): ``plan_programs`` guards ``node_modules/`` and ``package.json`` for
    a node runner, and an interpreter's script only when the entry's program is the
    interpreter; ``npx node tools/run.js`` (``npm exec -- node …``) names the interpreter
    second, so ``tools/run.js`` is not guarded: the covered ``cp`` replaces it, and the
    covered run runs the copy (``uv run``, ``poetry run``, ``pipenv run``, ``bundle exec``
    are the same shape)."""
    needs("npx", "node")
    project = tmp_path / "project"
    gated_project(project, [f"Bash({run})", "Bash(cp *)"])
    (project / "tools").mkdir()
    (project / "tools" / "run.js").write_text("console.log(1);\n")
    marker = tmp_path / "zz"
    (project / "payload.js").write_text(
        f"require('fs').writeFileSync({str(marker)!r}, '');\n")
    calls = ["cp payload.js tools/run.js", run]
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    for call in calls:
        subprocess.run(["bash", "-c", call], cwd=scratch, capture_output=True, timeout=120,
                       check=False)
    assert marker.exists(), "bash ran no payload: the case proves nothing"
    marker.unlink()
    assert hook_allows(project, run), "the run itself is not covered: the case proves nothing"
    assert first_denied(project, calls) is not None, \
        "the hook allows replacing tools/run.js and the covered run of it"
