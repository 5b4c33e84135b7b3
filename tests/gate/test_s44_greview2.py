"""Review s44-greview2 of the call gate (the readers rule's commands: ``gate/folded.py``,
``gate/readers.py``, ``gate/named.py``, ``gate/moves.py``): calls the hook allows that make
bash run something outside the plan, now or at a later call, or write a file the gate guards.
Each case proves the hole with real bash in a scratch copy of the project, then asks the
printed hook; the hook allowing the call is the finding: these tests fail while the hole is
open."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from bash_review import PAYLOAD, hook_allows, hooked_project, needs, rewrites_hook

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh), as
#: `pytest --slow -m slow` does here.
pytestmark = pytest.mark.slow

#: Python code that copies the payload over the hook script, as ``printf`` prints it
#: (``\x28``, ``\x29``: parentheses a reader's words may hold without an operator).
_PY = "printf \"import shutil\\nshutil.copy\\x28'src/x.sh','.claude/hooks/x.sh'\\x29\\n\""
_GCC = "gcc -E -P -x c src/x.sh -o .claude/hooks/x.sh"


@pytest.mark.parametrize(("entries", "command"), [
    (["Bash"], f"echo {_GCC} | sh"),
    (["Bash"], f"echo {_GCC} | nice bash"),
    (["Bash"], f"echo {_GCC} | bash -s"),
    (["Bash"], f"{_PY} | python3"),
    (["Bash(printf *)", "Bash(python3)"], f"{_PY} | python3"),
    (["Bash(printf *)", "Bash(python3 *)"], f"{_PY} | python3 -"),
])
def test_k1_a_readers_output_is_a_shells_program(
        tmp_path: Path, entries: list[str], command: str) -> None:
    """K1 (against the V6 fix, which treats ``xargs``/``parallel`` anywhere in the text as
    feeding a reader's output to a writer): a shell or an interpreter reading its program
    from standard input does the same. The guarded path is held only by ``echo``/``printf``
    (readers), so ``readers.writer_of`` lets it through; ``sh``/``python3`` then run the
    printed program, which writes the hook script. Under a plan naming ``python3`` (no
    tool-wide grant) too."""
    needs("gcc")
    project = hooked_project(tmp_path, entries)
    direct = _GCC if entries == ["Bash"] else \
        "python3 -c \"import shutil; shutil.copy('src/x.sh', '.claude/hooks/x.sh')\""
    assert not hook_allows(project, direct), "the guard does not hold: the case proves nothing"
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("command", [
    "shopt -s extglob\ngcc -E -P -x c src/x.sh -o .c+(l)aude/hooks/x.sh",
    "shopt -s dotglob; gcc -E -P -x c src/x.sh -o ?claude/hooks/x.sh",
    "shopt -s nocaseglob; gcc -E -P -x c src/x.sh -o .CLAUD[E]/hooks/x.sh",
    "GLOBIGNORE=x; gcc -E -P -x c src/x.sh -o ?claude/hooks/x.sh",
    "GLOBIGNORE=x; gcc -E -P -x c src/x.sh -o [.]claude/hooks/x.sh",
])
def test_k2_a_glob_option_the_same_command_sets(tmp_path: Path, command: str) -> None:
    """K2 (tool-wide ``Bash``): ``named._glob_found`` matches a pattern as bash matches it
    with its default options (no ``extglob``: Claude Code runs ``shopt -u extglob`` before
    each command; a leading dot matched only by a dot; case kept). The command's own earlier
    part may change them: ``shopt -s extglob`` (bash reads the next line after running it),
    ``dotglob``, ``nocaseglob``, or an assignment of ``GLOBIGNORE`` (which sets
    ``dotglob``). ``?claude`` then matches ``.claude``; ``_TOKEN`` cuts ``.c+(l)aude`` into
    pieces naming nothing. Sound repair: a word with a pattern character in a text that may
    set a shell option or ``GLOBIGNORE`` names a path the gate cannot name."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    assert not hook_allows(project, _GCC), \
        "the guard does not hold under Bash: the case proves nothing"
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


def _rewrites_named_project(project: Path, tmp_path: Path, command: str) -> bool:
    """``rewrites_hook``, with the scratch copy's folder named ``project`` as the project's
    is (a command naming ``project/…`` from the folder above reaches the copy's files)."""
    scratch = tmp_path / "copy" / "project"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60,
                   check=False)
    script = scratch / ".claude" / "hooks" / "x.sh"
    return script.exists() and script.read_text() == PAYLOAD


_UP = "gcc -E -P -x c project/src/x.sh -o project/.claude/hooks/x.sh"


@pytest.mark.parametrize("command", [
    f"unshare --wd=.. {_UP}",
    f"unshare -w.. {_UP}",
    f"unshare -w .. {_UP}",
    f"nsenter --wd=.. {_UP}",
    f'gdb --cd=.. -batch -ex "shell {_UP}"',
    f'gdb -cd=.. -batch -ex "shell {_UP}"',
])
def test_m3_a_runners_working_directory_option(tmp_path: Path, command: str) -> None:
    """M3 (tool-wide ``Bash``; M2's kin, against its fix): ``moves._MOVES`` knows ``cd``,
    ``pushd``, ``-C``, ``--chdir``, ``--directory``; other programs move their folder by
    other names: util-linux's ``unshare``/``nsenter`` ``-w``/``--wd`` (no namespace asked:
    no privilege needed), gdb's ``--cd``/``-cd``. The relative ``project/.claude/…`` then
    names the project's guarded folder from its parent, and the guard reads it from the
    call's folder only (a path in no guarded folder there). The project's folder is named
    ``project`` in the scratch copy too."""
    needs("gcc", "unshare", "nsenter", "gdb")
    project = hooked_project(tmp_path, ["Bash"])
    assert not hook_allows(project, f"cd .. && {_UP}"), \
        "the guard does not hold under Bash: the case proves nothing"
    assert _rewrites_named_project(project, tmp_path, command), \
        "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("body", [
    "cat() ( gcc -E -P -x c src/x.sh -o \"$1\" )",
    "PATH={bin}:$PATH",
])
def test_v2c_a_shell_library_renames_a_reader(tmp_path: Path, body: str) -> None:
    """V2c (tool-wide ``Bash``; V2 and V4's kin): ``readers.writer_of`` reads ``cat`` as the
    reader ``cat`` unless the text itself holds an alias, a function (``_RENAMES``) or an
    assignment (``_SETS``). A file ``source`` runs in the same shell may define a function
    ``cat``, or set ``PATH``; the file is written by an earlier call whose ``printf`` holds
    the definition as data (a subshell body: a lone ``{`` is a pattern to the guard). Named
    by an absolute path outside the project, the sourced file is no doubtful word. The
    second call's ``cat .claude/hooks/x.sh`` then writes the hook script. (The library's
    path must not hold the words ``source`` or ``cat``: the guard matches words by
    substring, and the test's folder is named after it.)"""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    library = tmp_path / "lib.sh"
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    (bin_folder / "cat").write_text(
        f"#!/bin/sh\nexec gcc -E -P -x c {project}/src/x.sh -o \"$1\"\n")
    (bin_folder / "cat").chmod(0o755)
    calls = [f"printf '%s\\n' '{body.format(bin=bin_folder)}' > {library}",
             f"source {library}; cat .claude/hooks/x.sh"]
    assert not hook_allows(project, _GCC), \
        "the guard does not hold under Bash: the case proves nothing"
    script = project / ".claude" / "hooks" / "x.sh"
    allowed = []
    for call in calls:
        allowed.append(hook_allows(project, call))
        subprocess.run(["bash", "-c", call], cwd=project, capture_output=True, timeout=60,
                       check=False)
    assert script.read_text() == PAYLOAD, "bash wrote no hook: proves nothing"
    assert allowed != [True, True], "the hook allows both calls, which write .claude/hooks/x.sh"


@pytest.mark.parametrize(("entries", "command"), [
    (["Bash(cat *)", "Bash(tee *)"], "cat src/x.sh | tee .c{l,\\}}aude/hooks/x.sh"),
    (["Bash(cat *)", "Bash(tee *)"], "cat src/x.sh | tee .c{l,'}'}aude/hooks/x.sh"),
    (["Bash(cat *)", "Bash(tee *)"], 'cat src/x.sh | tee .c{l,"}"}aude/hooks/x.sh'),
    (["Bash(gcc *)"], 'gcc -E -P -x c -o .c{l,"}"}aude/hooks/x.sh'),
])
def test_w17c_a_quoted_brace_in_a_brace_list(
        tmp_path: Path, entries: list[str], command: str) -> None:
    """W17c (narrow plans; W17's kin): ``guards._words`` removes quotes and backslashes
    before it expands braces, so an escaped or quoted ``}`` inside a list closes it early:
    bash reads ``.c{l,\\}}aude`` as ``.claude`` and ``.c}aude``; the guard, once ``\\`` is
    gone, as ``.cl}aude`` and ``.c}aude``, neither in a guarded folder. ``tee`` (a listed
    writer) writes the first and fails on the second; ``gcc`` takes the second as its input
    (``.c}aude/hooks/x.sh``, which an earlier call may have made: here the fixture does) and
    writes the first."""
    needs("gcc")
    project = hooked_project(tmp_path, entries)
    (project / ".c}aude" / "hooks").mkdir(parents=True)
    (project / ".c}aude" / "hooks" / "x.sh").write_text(PAYLOAD)
    plain = command.replace("\\}", "}").replace("'}'", "}").replace('"}"', "}")
    assert not hook_allows(project, plain.replace(".c{l,}}aude", ".claude")), \
        "the guard does not hold: the case proves nothing"
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("command", [
    "sed -n w.claude/hooks/x.sh src/x.sh",
    "sed -n 1w.claude/hooks/x.sh src/x.sh",
    "sed -n 's/^//w.claude/hooks/x.sh' src/x.sh",
])
def test_w18_seds_w_with_its_file_attached(tmp_path: Path, command: str) -> None:
    """W18 (tool-wide ``Bash``: under ``Bash(sed *)`` ``sedscript`` refuses a ``w``): GNU
    sed's ``w`` command and ``s``'s ``w`` flag take the file name with no blank before it;
    the guard's word is ``w.claude/hooks/x.sh`` (or ``1w.claude/…``), which names no guarded
    path from any folder, and a short option's tails are read only for a word led by ``-``.
    sed writes the hook script."""
    project = hooked_project(tmp_path, ["Bash"])
    assert not hook_allows(project, "sed -n 'w .claude/hooks/x.sh' src/x.sh"), \
        "the guard does not hold under Bash: the case proves nothing"
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


def _calls_rewrite(project: Path, calls: list[str]) -> tuple[list[bool], bool]:
    """The hook's answer to each call in turn, each run under bash in ``project`` (the next
    one is asked of the state the last one left), and whether the hook script then holds the
    payload."""
    allowed = []
    for call in calls:
        allowed.append(hook_allows(project, call))
        subprocess.run(["bash", "-c", call], cwd=project, capture_output=True, timeout=60,
                       check=False)
    return allowed, (project / ".claude" / "hooks" / "x.sh").read_text() == PAYLOAD


@pytest.mark.parametrize(("config", "run"), [
    ("url = \"file://%s/src/x.sh\"\\noutput = \".claude/hooks/x.sh\"\\n", "curl -s -K cfg"),
])
def test_w5b_a_programs_own_config_file_names_the_output(
        tmp_path: Path, config: str, run: str) -> None:
    """W5b (tool-wide ``Bash``; W5's kin, ``@FILE``): a file a program reads its options or
    commands from names the file it writes: curl's ``-K``/``--config`` (``output = PATH``).
    The first call writes it as ``printf``'s data (a reader), the second names only the
    config file; together they rewrite the hook script. (sqlite3's ``-init`` is refused.)"""
    needs("curl")
    project = hooked_project(tmp_path, ["Bash"])
    assert not hook_allows(project, "curl -s -o .claude/hooks/x.sh file:///dev/null"), \
        "the guard does not hold under Bash: the case proves nothing"
    allowed, rewritten = _calls_rewrite(
        project, [f"printf '{config}' {project} > cfg", run])
    assert rewritten, "bash wrote no hook: proves nothing"
    assert allowed != [True, True], "the hook allows both calls, which write the hook script"


@pytest.mark.parametrize("folder", ["/pro?/self/cwd", "/[p]roc/self/cwd", "/p*c/self/cwd"])
def test_gf1c_a_pattern_spelling_the_callers_own_folder(tmp_path: Path, folder: str) -> None:
    """GF1c (``Bash(gcc *)``, under ``skillgrant serve``; GF1b's kin): ``named._UNNAMEABLE``
    reads ``/proc/`` as a folder of the process asking (bash's own folder through
    ``/proc/self/cwd``), but a pattern spelling it (``/pro?/self/cwd``) is matched by
    ``glob.glob`` in the gate's process: the service's folder, not bash's. Where no
    ``.claude/hooks/x.sh`` lies there, the pattern matches nothing and names no guarded
    folder; bash expands it in the project and gcc rewrites the hook script. (The hook
    process, started in the project, happens to match it; a service started elsewhere does
    not.)"""
    from serving import start

    needs("gcc")
    project = hooked_project(tmp_path, ["Bash(gcc *)"])
    command = f"gcc -E -P -x c src/x.sh -o {folder}/.claude/hooks/x.sh"
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def asked(text: str) -> bytes:
        return json.dumps({"session_id": "s", "cwd": str(project),
                           "hook_event_name": "PreToolUse", "tool_name": "Bash",
                           "tool_input": {"command": text}}).encode()

    with start([f"main={project / 'plan.json'}"], cwd=elsewhere) as served:
        assert b'"deny"' in served.post("/v1/hook/main", asked(_GCC)).body, \
            "the guard does not hold in the service: the case proves nothing"
        assert b'"deny"' in served.post("/v1/hook/main", asked(command)).body, \
            "the service allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize(("entries", "command"), [
    (["Bash(node *)"],
     "node -e 'require(\"fs\").copyFileSync(\"src/x.sh\", \".claude/hooks/x.sh\")'"),
    (["Bash"], "node -e 'require(\"fs\").copyFileSync(\"src/x.sh\", \".claude/hooks/x.sh\")'"),
    (["Bash(perl *)", "Bash(gcc *)"], f"perl -e 'system q({_GCC})'"),
])
def test_k3_an_interpreters_inline_code_read_as_its_script(
        tmp_path: Path, entries: list[str], command: str) -> None:
    """K3 (narrow plans ``Bash(node *)``, ``Bash(perl *)``; tool-wide ``Bash``):
    ``readers._BEFORE_SCRIPT`` lets ``-e`` stand before an interpreter's script (``sh -e
    x.sh``: errexit), so for node, perl (and ruby, deno, bun) ``-e CODE`` is read as the
    script the interpreter runs, and a guarded path in the code as the script's own, which
    the plan grants. To node and perl ``-e`` is the code itself: it writes the hook script.
    (``python3 -c "…'.claude/hooks/x.sh'…"`` is denied.)"""
    needs("gcc", "node", "perl")
    project = hooked_project(tmp_path, entries)
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("command", [
    f"{{cd,}} .. && {_UP}",
    f"{{pushd,}} ..; {_UP}",
    f"trap '{{cd,}} ..' DEBUG; {_UP}",
])
def test_m4_a_brace_spells_the_move(tmp_path: Path, command: str) -> None:
    """M4 (tool-wide ``Bash``; M1/M2's kin): ``moves`` reads a move from a word equal to
    ``cd`` or ``pushd`` (quotes removed, as ``shlex`` splits); bash expands a brace in
    command position first, so ``{cd,} ..`` is ``cd ..`` (the empty alternative vanishes),
    in a ``DEBUG`` trap's text too. ``readers.programs_named`` reads ``{cd,}`` as a program
    named by a literal word. The relative ``project/.claude/…`` is then read from the call's
    folder only, and gcc rewrites the hook script from the folder above. (``trap 'cd ..'
    DEBUG; …`` is denied.)"""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    assert not hook_allows(project, f"cd .. && {_UP}"), \
        "the guard does not hold under Bash: the case proves nothing"
    assert _rewrites_named_project(project, tmp_path, command), \
        "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("command", [
    f"HOME=.. cd; {_UP}",
    f"HOME=.. cd && {_UP}",
    f"HOME=..; cd; {_UP}",
    f"shopt -s cdable_vars; up=..; cd up && {_UP}",
])
def test_m5_cd_without_operand_goes_to_the_home_the_command_sets(
        tmp_path: Path, command: str) -> None:
    """M5 (tool-wide ``Bash``): ``moves._moves`` reads ``cd`` without an operand as a move to
    the home folder of the gate's own process (``os.path.expanduser("~")``); bash's ``cd``
    goes to ``$HOME``, which the command sets first (a prefix assignment, or a standalone
    one). So with ``cdable_vars`` on, ``cd up`` goes to ``$up`` when no folder ``up`` is
    there. gcc then runs in the folder above and rewrites the hook script."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    assert not hook_allows(project, f"cd .. && {_UP}"), \
        "the guard does not hold under Bash: the case proves nothing"
    assert _rewrites_named_project(project, tmp_path, command), \
        "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


def test_w17c_a_quoted_brace_replaces_the_settings(tmp_path: Path) -> None:
    """W17c (``Bash(cat *)``, ``Bash(tee *)``): the same early-closed brace list hides the
    guarded file's *name* too (``_names`` finds no ``settings.json`` in ``sett}ngs.json`` or
    ``setti}ngs.json``): ``cat notes.txt | tee .c{l,\\}}aude/sett{i,\\}}ngs.json`` replaces
    the settings that hold the gate's hook (tee writes the one name that exists, and fails
    on the three others)."""
    project = hooked_project(tmp_path, ["Bash(cat *)", "Bash(tee *)"])
    command = "cat notes.txt | tee .c{l,\\}}aude/sett{i,\\}}ngs.json"
    assert not hook_allows(project, "cat notes.txt | tee .claude/settings.json"), \
        "the guard does not hold: the case proves nothing"
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60,
                   check=False)
    assert "PreToolUse" not in (scratch / ".claude" / "settings.json").read_text(), \
        "bash left the settings: the case proves nothing"
    assert not hook_allows(project, command), "the hook allows replacing the settings"


@pytest.mark.parametrize("unsetting", ["unset PATH", "unset -v PATH", "wait -n -p PATH"])
def test_v4c_path_unset_runs_the_projects_cat(tmp_path: Path, unsetting: str) -> None:
    """V4c (tool-wide ``Bash``; V4's kin, against its fix): ``readers._SETS`` knows an
    assignment, the declarations, ``hash``, ``enable``, ``read``, ``printf -v``, ``for`` and
    ``select``, but not ``unset`` nor ``wait -p`` (which unsets its variable first). With
    ``PATH`` unset bash looks a name up in the current folder: ``cat`` runs ``./cat``, a
    script two earlier calls made (``printf … > cat``, ``chmod +x cat``), and it writes the
    path the reader ``cat`` was judged to read."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    gcc = shutil.which("gcc")
    assert not hook_allows(project, "PATH=; cat .claude/hooks/x.sh"), \
        "the guard does not hold under Bash: the case proves nothing"
    allowed, rewritten = _calls_rewrite(project, [
        f"printf '#!/bin/sh\\n{gcc} -E -P -x c src/x.sh -o \"$1\"\\n' > cat", "chmod +x cat",
        f"{unsetting}; cat .claude/hooks/x.sh"])
    assert rewritten, "bash wrote no hook: proves nothing"
    assert allowed != [True, True, True], "the hook allows the calls, which write the hook"


@pytest.mark.parametrize("command", [
    "cat .claude/hooks/x.sh; gcc -E -P -x c src/x.sh -o {.c,-DX}laude/hooks/x.sh",
    "ls .claude/hooks/x.sh && gcc -E -P -x c src/x.sh -o {.c,-DX=}laude/hooks/x.sh",
])
def test_w19_a_reader_holds_the_word_a_brace_gives_a_writer(
        tmp_path: Path, command: str) -> None:
    """W19 (tool-wide ``Bash``; under ``Bash(gcc *)`` runsby refuses gcc's pattern words):
    the guard's words are brace-expanded (``guards._words``), the readers rule's commands
    are not (``folded.tree_commands`` keeps ``{.c,-DX}laude/hooks/x.sh`` whole), and
    ``readers.writer_of`` asks which commands hold the expanded ``.claude/hooks/x.sh`` by
    substring: only the reader ``cat``/``ls`` naming it as well. bash gives gcc ``-o
    .claude/hooks/x.sh -DXlaude/hooks/x.sh``. (Without the reader the word is held by no
    command and denied.)"""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    assert not hook_allows(project, command.split("; ")[-1].split(" && ")[-1]), \
        "the guard does not hold under Bash: the case proves nothing"
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


_PROMPTED = "'\\044\\050gcc -E -P -x c src/x.sh -o \\056claude/hooks/x.sh\\051'"


@pytest.mark.parametrize("command", [
    f'set -- {_PROMPTED}; echo "${{1@P}}"',
    f'set -- {_PROMPTED}; true "${{1@P}}"',
])
def test_k4_prompt_expansion_of_a_positional_parameter(tmp_path: Path, command: str) -> None:
    """K4 (tool-wide ``Bash``; the analysis refuses ``${x@P}``, so the readers rule's
    ``shlex`` fallback reads it): ``${1@P}`` expands ``$1`` as a prompt string: its octal
    escapes are decoded (``\\044\\050`` is ``$(``, ``\\056`` is ``.``) and the command
    substitution they spell runs. ``set --`` sets ``$1`` (``readers._SETS`` knows no ``set``);
    no word names a guarded path, the one doubtful word (``${1@P}``, an expansion) is held
    by the reader ``echo``/``true``. bash runs gcc, which rewrites the hook script."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    assert not hook_allows(project, _GCC), \
        "the guard does not hold under Bash: the case proves nothing"
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("setting", [": {PATH}>/dev/null", "true {PATH}</dev/null",
                                     "trap 'PATH=10' DEBUG", "(( PATH = 10 ))",
                                     'let "PATH = 10"', "let PATH\\ =\\ 10"])
def test_v4d_a_descriptor_variable_named_path(tmp_path: Path, setting: str) -> None:
    """V4d (tool-wide ``Bash``; the issue's class D, ``{VAR}>``, in the readers rule's
    fallback): ``{PATH}>/dev/null`` assigns ``PATH`` the descriptor bash opens (``10``, the
    first past 9), and ``readers._SETS`` sees no assignment in it. ``cat`` then runs
    ``10/cat``, a script three earlier calls made, which writes the path the reader ``cat``
    was judged to read. So does a ``DEBUG`` trap's quoted ``'PATH=10'`` (``_SETS`` wants a
    blank or an operator before the name), which bash runs before ``cat``, and an arithmetic
    assignment with blanks around its ``=`` (``(( PATH = 10 ))``, ``let "PATH = 10"``)."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    gcc = shutil.which("gcc")
    assert not hook_allows(project, "PATH=10; cat .claude/hooks/x.sh"), \
        "the guard does not hold under Bash: the case proves nothing"
    allowed, rewritten = _calls_rewrite(project, [
        "mkdir 10", f"printf '#!/bin/sh\\n{gcc} -E -P -x c src/x.sh -o \"$1\"\\n' > 10/cat",
        "chmod +x 10/cat", f"{setting}; cat .claude/hooks/x.sh"])
    assert rewritten, "bash wrote no hook: proves nothing"
    assert allowed != [True] * 4, "the hook allows the calls, which write the hook"


@pytest.mark.parametrize("command", [
    f"! eval c\\\\d ..; {_UP}",
    f"if eval c\\\\d ..; then {_UP}; fi",
    f"while eval c\\\\d ..; do {_UP}; break; done",
])
def test_m6_eval_after_a_reserved_word(tmp_path: Path, command: str) -> None:
    """M6 (tool-wide ``Bash``; review s42 GF5's kin): ``readers.programs_named`` (the
    ``shlex`` fallback: the analysis refuses ``eval``) looks for ``eval``/``source``/
    ``builtin``/``command`` only at each simple command's first word, which here is ``!``,
    ``if`` or ``while``; so the relative words are read from the folders ``moves`` finds,
    and moves reads ``eval``'s word as ``c\\d`` (one quoting removed), no ``cd``. bash's
    ``eval`` removes the second and moves to the folder above; gcc rewrites the hook
    script. (``eval c\\\\d ..; …`` alone is denied.)"""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    assert not hook_allows(project, f"eval c\\\\d ..; {_UP}"), \
        "the guard does not hold under Bash: the case proves nothing"
    assert _rewrites_named_project(project, tmp_path, command), \
        "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("dot", [".\t", ".\t\t"])
def test_m7_dot_and_a_tab_runs_a_library(tmp_path: Path, dot: str) -> None:
    """M7 (tool-wide ``Bash``): ``named._INDIRECT_SIGNS`` looks for ``". "`` (a dot and a
    space) to ask ``readers.programs_named``; a dot and a tab is the same ``source`` to
    bash. The sourced file (an earlier call wrote it) runs ``cd ..`` in the same shell, so
    the relative ``project/.claude/…`` is read by gcc from the folder above, while the gate
    reads it from the call's folder only. (``. FILE; …`` is denied. The library's path must
    not hold ``source``, ``eval``, ``exec``, ``command``, ``builtin`` or ``$``, which the
    signs are matched against anywhere in the text: the test's folder is named after it.)"""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    library = tmp_path / "up.sh"
    library.write_text("cd ..\n")
    command = f"{dot}{library}; {_UP}"
    assert not hook_allows(project, f". {library}; {_UP}"), \
        "the guard does not hold under Bash: the case proves nothing"
    assert _rewrites_named_project(project, tmp_path, command), \
        "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize(("entries", "command", "piped"), [
    (["Bash"], f"sh <(echo {_GCC})", f"echo {_GCC} | sh"),
    (["Bash"], f"echo {_GCC} > >(sh)", f"echo {_GCC} | sh"),
    (["Bash"], f"sh < <(echo {_GCC})", f"echo {_GCC} | sh"),
    (["Bash"], f"echo {_GCC} > out/s.sh; sh out/s.sh", f"echo {_GCC} | sh"),
    (["Bash"], f"echo {_GCC} >out/s.sh; sh <out/s.sh", f"echo {_GCC} | sh"),
    (["Bash(printf *)", "Bash(python3 *)", "Edit(./out/**)"],
     f"{_PY} > out/p.py && python3 out/p.py", f"{_PY} | python3"),
])
def test_k1b_a_readers_output_run_without_a_pipe(
        tmp_path: Path, entries: list[str], command: str, piped: str) -> None:
    """K1b (against the K1 fix, ``readers.writer_of``: a text holding ``|`` and a program
    that is no reader): a reader's output reaches a shell or an interpreter without a pipe,
    through a process substitution (``sh <(echo …)``) or a file the same call writes and
    then runs or feeds (``> out/s.sh; sh out/s.sh``, ``sh <out/s.sh``). The guarded path is
    still held by ``echo``/``printf`` only."""
    needs("gcc")
    project = hooked_project(tmp_path, entries)
    assert not hook_allows(project, piped), "the K1 fix does not hold: the case proves nothing"
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("run", ['"source"', "sour''ce", "\\source", '"."', "\\."])
def test_v2d_a_quoted_library_runner(tmp_path: Path, run: str) -> None:
    """V2d (against the V2c fix, ``readers._SETS``' ``source|.|eval`` after a blank or an
    operator): ``_SETS`` reads the raw text, where ``"source"``, ``sour''ce``, ``\\source``
    or ``"."`` has a quote or a backslash before or inside the name; bash removes them and
    runs the file in this shell, whose function ``cat`` writes its operand."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    library = tmp_path / "lib"
    allowed, rewritten = _calls_rewrite(project, [
        f"printf '%s\\n' 'cat() ( gcc -E -P -x c src/x.sh -o \"$1\" )' > {library}",
        f"{run} {library}; cat .claude/hooks/x.sh"])
    assert rewritten, "bash wrote no hook: proves nothing"
    assert allowed != [True, True], "the hook allows both calls, which write the hook script"


@pytest.mark.parametrize("command", [
    f"sho''pt -s dotglob; {_GCC.replace('.claude', '?claude')}",
    f"bash -O dotglob -c '{_GCC.replace('.claude', '?claude')}'",
    f"bash -O extglob -c '{_GCC.replace('.claude', '.c+(l)aude')}'",
    f"env BASHOPTS=dotglob bash -c '{_GCC.replace('.claude', '?claude')}'",
    f"declare -n r=GLOB''IGNORE; r=x; {_GCC.replace('.claude', '?claude')}",
])
def test_k2b_a_glob_option_the_fix_does_not_spell(tmp_path: Path, command: str) -> None:
    """K2b (against the K2 fix, ``guards.guarded_word``: ``shopt`` or ``GLOBIGNORE`` in the
    raw text, with a pattern character): bash removes the quotes of ``sho''pt``; a child
    bash takes its options from ``-O`` or from ``BASHOPTS`` in its environment; a nameref
    assigns ``GLOBIGNORE`` by another name. ``?claude``/``.c+(l)aude`` then match
    ``.claude``, and gcc rewrites the hook script."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    assert not hook_allows(project, f"shopt -s dotglob; {_GCC.replace('.claude', '?claude')}"), \
        "the K2 fix does not hold: the case proves nothing"
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("command", ["s''ed -n w.claude/hooks/x.sh src/x.sh",
                                     '"s"ed -n 1w.claude/hooks/x.sh src/x.sh'])
def test_w18b_sed_spelled_with_quotes(tmp_path: Path, command: str) -> None:
    """W18b (against the W18 fix: ``w``'s attached tails are read where ``"sed" in text``):
    bash removes the quotes of ``s''ed``; the raw text holds no ``sed``."""
    project = hooked_project(tmp_path, ["Bash"])
    assert not hook_allows(project, "sed -n w.claude/hooks/x.sh src/x.sh"), \
        "the W18 fix does not hold: the case proves nothing"
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


def test_w5c_curl_spelled_with_quotes(tmp_path: Path) -> None:
    """W5c (against the W5b fix: ``_OPTION_FILE`` wants ``curl`` in the raw text): ``c''url
    -s -K cfg`` is curl to bash; the config file an earlier call wrote names the output."""
    needs("curl")
    project = hooked_project(tmp_path, ["Bash"])
    config = "url = \"file://%s/src/x.sh\"\\noutput = \".claude/hooks/x.sh\"\\n"
    allowed, rewritten = _calls_rewrite(
        project, [f"printf '{config}' {project} > cfg", "c''url -s -K cfg"])
    assert rewritten, "bash wrote no hook: proves nothing"
    assert allowed != [True, True], "the hook allows both calls, which write the hook script"


def test_m3b_unshare_w_in_a_cluster(tmp_path: Path) -> None:
    """M3b (against the M3 fix: ``-w`` read as a move only at a word's start): ``unshare
    -fw..`` (fork, then the folder) moves gcc to the folder above."""
    needs("gcc", "unshare")
    project = hooked_project(tmp_path, ["Bash"])
    command = f"unshare -fw.. {_UP}"
    assert not hook_allows(project, f"unshare -f -w.. {_UP}"), \
        "the M3 fix does not hold: the case proves nothing"
    assert _rewrites_named_project(project, tmp_path, command), \
        "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize(("entries", "command"), [
    (["Bash(node *)"],
     "node --eval='require(\"fs\").copyFileSync(\"src/x.sh\", \".claude/hooks/x.sh\")'"),
    (["Bash(perl *)", "Bash(gcc *)"], f"perl -e'system q({_GCC})'"),
    (["Bash(python3 *)"],
     "python3 -c\"import shutil; shutil.copy('src/x.sh', '.claude/hooks/x.sh')\""),
])
def test_k3b_inline_code_attached_to_its_option(
        tmp_path: Path, entries: list[str], command: str) -> None:
    """K3b (against the K3 fix 7237a0c, where only ``--`` may stand before node's or perl's
    script): the code attached to its option, ``--eval=CODE`` or ``-eCODE``, is one word,
    the first that is not ``--``, so it is read as the script the interpreter runs and the
    guarded path in it as the script's own."""
    needs("gcc", "node", "perl")
    project = hooked_project(tmp_path, entries)
    assert not hook_allows(project, command.replace("--eval=", "-e ").replace("-e'", "-e '")
                        .replace('-c"', '-c "')), \
        "the K3 fix does not hold: the case proves nothing"
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


def test_m5b_home_set_through_a_nameref(tmp_path: Path) -> None:
    """M5b (against the M5 fix 91e042b: ``moves._home`` looks for a word ``HOME=…`` or
    ``HOME``): ``declare -n h=HOME; h=..`` sets ``HOME`` by another name, and ``cd`` goes
    there."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    command = f"declare -n h=HOME; h=..; cd; {_UP}"
    assert not hook_allows(project, f"HOME=..; cd; {_UP}"), \
        "the M5 fix does not hold: the case proves nothing"
    assert _rewrites_named_project(project, tmp_path, command), \
        "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("program", ["c?", "[c]d"])
def test_m4b_a_pattern_in_command_position_matches_cd(tmp_path: Path, program: str) -> None:
    """M4b (against the M4 fix 91e042b, which reads a brace's forms): a pattern in command
    position is expanded by bash against the folder's names; an earlier call made a file
    ``cd`` (``cp notes.txt ./cd``: ``./cd`` is no move), so ``c? ..`` is ``cd ..``. No sign
    makes ``programs_named`` read the program (no ``$``, ``eval``, …) and ``moves`` sees no
    ``cd``."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    command = f"{program} .. && {_UP}"
    calls = ["cp notes.txt ./cd", command]
    copy = tmp_path / "copy" / "project"
    shutil.copytree(project, copy, symlinks=True)
    for call in calls:
        subprocess.run(["bash", "-c", call], cwd=copy, capture_output=True, timeout=60,
                       check=False)
    assert (copy / ".claude" / "hooks" / "x.sh").read_text() == PAYLOAD, \
        "bash wrote no hook: proves nothing"
    allowed, _ = _calls_rewrite(project, calls)
    assert allowed != [True, True], "the hook allows both calls, which write the hook script"


@pytest.mark.parametrize("command", [
    "ls .c*aude/hooks/x.sh; gcc -E -P -x c -o .c{l,\\}}aude/hooks/x.sh",
    "ls .c*aude/hooks/x.sh; gcc -E -P -x c -o .c{l,'}'}aude/hooks/x.sh",
])
def test_w19b_a_reader_holds_the_star_the_guard_reads_a_quoted_list_as(
        tmp_path: Path, command: str) -> None:
    """W19b (against the W17c fix 85fca3f and the W19 fix 91e042b; tool-wide ``Bash``): for
    a list holding quoting the guard adds a star form (``.c*aude/hooks/x.sh``), which
    matches the hook script; the readers rule gives the commands' words their brace forms
    (``.cl}aude/…``, ``.c}aude/…``), none holding the star form, so the only command
    holding it is a reader naming the same pattern. bash gives gcc ``-o .claude/hooks/x.sh
    .c}aude/hooks/x.sh`` (the second, an earlier call's file, its input)."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    (project / ".c}aude" / "hooks").mkdir(parents=True)
    (project / ".c}aude" / "hooks" / "x.sh").write_text(PAYLOAD)
    assert not hook_allows(project, command.split("; ", 1)[1]), \
        "the W17c fix does not hold: the case proves nothing"
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("prefix", ["BASH_ENV={up} bash -c", "env BASH_ENV={up} bash -c"])
def test_m8_bash_env_moves_the_child(tmp_path: Path, prefix: str) -> None:
    """M8 (tool-wide ``Bash``; the issue's class F, a variable a program reads): a child
    bash runs the file ``BASH_ENV`` names before its ``-c`` script; the file (an earlier
    call's) runs ``cd ..``, so gcc runs in the folder above. ``moves`` reads the ``-c``
    script's words, not the file, and ``readers.programs_named`` is not asked (no sign).
    (``bash -c '. FILE; …'`` is denied.)"""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    library = tmp_path / "up.sh"
    library.write_text("cd ..\n")
    command = f"{prefix.format(up=library)} '{_UP}'"
    assert not hook_allows(project, f"bash -c '. {library}; {_UP}'"), \
        "the guard does not hold under Bash: the case proves nothing"
    assert _rewrites_named_project(project, tmp_path, command), \
        "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("command", [
    "npm run build -- node .claude/hooks/x.sh < src/x.sh",
    "npm run build node .claude/hooks/x.sh < src/x.sh",
])
def test_k5_npm_runs_a_script_not_the_interpreter_its_words_name(
        tmp_path: Path, command: str) -> None:
    """K5 (narrow plan ``Bash(npm run *)`` + ``Read(./src/**)``): ``readers._reads_as`` reads
    the first interpreter name among a package runner's words as the program it runs
    (``npx node tools/run.js``, review s43 P2e), and the path after it as that program's
    script. ``npm run build`` runs the package's script ``build`` and hands it the words
    after it (``node .claude/hooks/x.sh``) as arguments; here the script is ``tee`` (any
    script writing to its arguments: ``cp``, a generator's ``--out``). ``npm run build --
    .claude/hooks/x.sh`` is denied."""
    needs("npm")
    project = hooked_project(tmp_path, ["Bash(npm run *)", "Read(./src/**)"])
    (project / "package.json").write_text(
        '{"name": "x", "version": "1.0.0", "scripts": {"build": "tee"}}\n')
    assert not hook_allows(project, "npm run build -- .claude/hooks/x.sh < src/x.sh"), \
        "the guard does not hold: the case proves nothing"
    assert rewrites_hook(project, tmp_path, command), "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


@pytest.mark.parametrize("setting", ["ev''al P\"\"ATH=10", "tr''ap 'eval P\"\"ATH=10' DEBUG"])
def test_v4f_path_set_by_quoted_names(tmp_path: Path, setting: str) -> None:
    """V4f (against the V4d fix 6301c73: ``_SETS`` matches ``PATH``, ``let``, ``trap``,
    ``eval`` … in the raw text): ``ev''al P""ATH=10`` holds none of them as written; bash
    removes the quotes, and ``eval`` reads ``PATH=10`` as an assignment (in a ``DEBUG``
    trap's text too). ``cat`` then runs ``10/cat``."""
    needs("gcc")
    project = hooked_project(tmp_path, ["Bash"])
    gcc = shutil.which("gcc")
    assert not hook_allows(project, "eval PATH=10; cat .claude/hooks/x.sh"), \
        "the V4d fix does not hold: the case proves nothing"
    allowed, rewritten = _calls_rewrite(project, [
        "mkdir 10", f"printf '#!/bin/sh\\n{gcc} -E -P -x c src/x.sh -o \"$1\"\\n' > 10/cat",
        "chmod +x 10/cat", f"{setting}; cat .claude/hooks/x.sh"])
    assert rewritten, "bash wrote no hook: proves nothing"
    assert allowed != [True] * 4, "the hook allows the calls, which write the hook"


def test_w20_a_git_option_whose_value_reads_as_the_subcommand(tmp_path: Path) -> None:
    """W20 (tool-wide ``Bash``; under ``Bash(git *)`` the options table refuses it):
    ``writers.git_subcommand`` skips the values of ``-C``, ``-c``, ``--git-dir``, … only;
    git 2.39 takes ``--super-prefix`` with its value as the next word too, so ``git
    --super-prefix status read-tree -u -m rev`` is read as ``git status`` (a subcommand
    that writes nothing: ``GIT_KEEPS`` for the folder writers, ``GIT_READS`` for the readers
    rule), and git runs ``read-tree -u``, which supports the option: the branch ``rev``'s
    settings replace the ones holding the gate's hook. (``git read-tree -u -m rev`` is
    denied.)"""
    project = hooked_project(tmp_path, ["Bash"])
    command = "git --super-prefix status read-tree -u -m rev"
    assert not hook_allows(project, "git read-tree -u -m rev"), \
        "the guard does not hold under Bash: the case proves nothing"
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    subprocess.run(["git", "update-index", "-q", "--refresh"], cwd=scratch, timeout=60,
                   check=False, capture_output=True)  # (the copy's index stats are stale)
    subprocess.run(["bash", "-c", command], cwd=scratch, capture_output=True, timeout=60,
                   check=False)
    assert "PreToolUse" not in (scratch / ".claude" / "settings.json").read_text(), \
        "bash left the settings: the case proves nothing"
    assert not hook_allows(project, command), "the hook allows replacing the settings"


@pytest.mark.parametrize("command", [
    "npm run build -- project/.claude/hooks/x.sh < src/x.sh",
    "npm run --prefix .. build -- project/.claude/hooks/x.sh < src/x.sh",
    "npm test -- project/.claude/hooks/x.sh < src/x.sh",
    "npm run-script build -- project/.claude/hooks/x.sh < src/x.sh",
])
def test_m9_npm_run_runs_its_script_in_the_package_root(tmp_path: Path, command: str) -> None:
    """M9 (narrow plan ``Bash(npm run *)`` + ``Read(./src/**)``): npm runs a package script
    in the package's root folder, the nearest one above holding ``package.json`` (or the
    ``--prefix`` folder), and hands it the words after ``--``; relative words are the
    script's, read from there. The project here has no ``package.json`` and its parent
    (a workspace root) has one whose ``build`` is ``tee`` (any script writing to its
    arguments). The guard reads ``project/.claude/hooks/x.sh`` from the call's folder, where
    it names nothing guarded; the script writes the project's hook script. (``npm run build
    -- .claude/hooks/x.sh …`` is denied.)"""
    needs("npm")
    project = hooked_project(tmp_path, ["Bash(npm run *)", "Bash(npm test *)",
                                         "Bash(npm run-script *)", "Read(./src/**)"])
    (tmp_path / "package.json").write_text(
        '{"name": "root", "version": "1.0.0", "scripts": {"build": "tee", "test": "tee"}}\n')
    assert not hook_allows(project, "npm run build -- .claude/hooks/x.sh < src/x.sh"), \
        "the guard does not hold: the case proves nothing"
    copy = tmp_path / "copy"
    copy.mkdir()
    shutil.copy(tmp_path / "package.json", copy / "package.json")
    assert _rewrites_named_project(project, tmp_path, command), \
        "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"


def test_m2c_makes_directory_by_its_shortest_prefix(tmp_path: Path) -> None:
    """M2c (narrow plan ``Bash(make *)``; M2/M2b's kin): getopt_long takes ``--di`` for
    make's ``--directory`` (unique among make's options); ``moves._long_move`` maps it, but
    ``named._MOVING`` (the text's cheap pre-test) holds ``--dir`` and ``--c``, not ``--di``,
    so ``moves`` never runs and ``project/.claude/hooks/x.sh`` is read from the call's folder
    only. make runs in the folder above, whose Makefile (a workspace's, with a rule for
    ``%.sh`` targets) writes the target. (``make --dir=.. …`` is denied.)"""
    project = hooked_project(tmp_path, ["Bash(make *)"])
    makefile = "%.sh:\n\tcp project/src/x.sh $@\n"
    (tmp_path / "Makefile").write_text(makefile)
    command = "make --di=.. -rB project/.claude/hooks/x.sh"
    assert not hook_allows(project, command.replace("--di=", "--dir=")), \
        "the guard does not hold: the case proves nothing"
    (tmp_path / "copy").mkdir()
    (tmp_path / "copy" / "Makefile").write_text(makefile)
    assert _rewrites_named_project(project, tmp_path, command), \
        "bash wrote no hook: proves nothing"
    assert not hook_allows(project, command), "the hook allows a write of .claude/hooks/x.sh"
