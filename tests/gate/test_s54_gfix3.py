"""Session 54 (s54-gfix3): a toolchain value read one way wherever it is set (the session's
environment, an entry's own assignment, make's definition, MAKEFLAGS, a compiler's own options:
``flagpaths.flag_words``), and a shell word's quoted braces read as bash reads them (data, no
pattern: ``textwords``). Each hole is proved by real bash and the real program (GNU make 4.3,
gcc 12) in a scratch copy first (``bash_review.proved_case``), then the printed hook is asked
call by call: a call denied is the fix; each cost by the hook allowing the everyday call."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from bash_review import (
    LeftOpen,
    first_denied,
    home_env,
    hooked_project,
    needs,
    proved_case,
    rewrites_hook,
)
from test_gate_files import _settings_hook, payload

from skillgrant.gate.flagpaths import flag_words
from skillgrant.gate.textwords import text_words

#: Real bash, make and gcc, and fresh hook processes: CI's slow step runs them.
pytestmark = pytest.mark.slow

#: The holes left open here, by test name (and case): each a strict xfail.
OPEN = LeftOpen()

#: An executable running the payload, as gcc runs its assembler and make its compiler.
SH_PAYLOAD = "#!/bin/sh\ntouch zz\n"
#: A shared library whose constructor runs the payload (loaded as libm by the built program).
LIBRARY_PAYLOAD = ('__attribute__((constructor)) static void zz(void) { int system(const char *);'
                   ' system("touch zz"); }\ndouble cos(double x) { return x; }\n')
SOURCE = "#include <stdio.h>\nint main(void) { return 0; }\n"
COMPILES = "test: t.c\n\t$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -c t.c -o t.o\n"


def _reason(project: Path, call: str, env: dict[str, str]) -> str:
    """The printed hook's answer to ``call`` in ``project`` (its text: the reason when denied)."""
    said = subprocess.run(["/bin/sh", "-c", _settings_hook(project)], input=payload(
        call, project), cwd=project, env=env, capture_output=True, timeout=60, check=False)
    return (said.stdout + said.stderr).decode() if said.returncode == 2 else ""


# --- an entry's own toolchain values, beside the reviewer's rows (s53-greview2 V6-V8) ---------


#: Each case: the plan's entry (beside ``Bash(cp *)``), the Makefile, the file the payload goes
#: to and the payload. make runs ``$(CROSS_COMPILE)gcc``; the built program loads libm from
#: the run path ``-rpath`` names; ``cc`` takes gcc's ``-B`` (the proof runs each).
ENTRIES = {
    "make-definition-cross-compile-folder": (
        "make test CROSS_COMPILE=tc/", "test: t.c\n\t$(CROSS_COMPILE)gcc -c t.c -o t.o\n",
        "tc/gcc", SH_PAYLOAD),
    "make-definition-libs-run-path": (
        "make test LIBS=-Wl,-rpath,v", "test: t.c\n\t$(CC) t.c -o t -lm $(LIBS)\n\t./t\n",
        "v/libm.so.6", None),
    "cc-prefix-folder-apart": ("cc -B v/ -c t.c", COMPILES, "v/as", SH_PAYLOAD),
}


@pytest.mark.parametrize("case", list(ENTRIES))
def test_an_entrys_own_toolchain_value_is_read(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp src/x <file>`` is denied."""
    needs("bash", "make", "gcc")
    entry, makefile, target, text = ENTRIES[case]
    files = {"Makefile": makefile, "t.c": SOURCE if text else "#include <math.h>\nint main("
             "int c, char **v) { return (int)cos(c) - 1; }\n", "v/keep": "", "tc/keep": "",
             "pl.c": LIBRARY_PAYLOAD, "src/x": text or ""}
    denied = proved_case(tmp_path, [f"Bash({entry})", "Bash(cp *)"], files,
                         [f"cp src/x {target}", entry], executable=("src/x",),
                         setup="" if text else "gcc -shared -fPIC -o src/x pl.c "
                         "-Wl,-soname,libm.so.6")
    assert denied is not None, "the hook allows every call, and the payload runs"


#: Each case (held: a cost the fix must not bring): the session's variables, the plan's
#: entries, the everyday calls, each allowed.
EVERYDAY = {
    "cross-compile-on-path": ({"CROSS_COMPILE": "aarch64-linux-gnu-"}, ["Bash(make test)"],
                              ["cp notes.txt notes2.txt", "make test"]),
    "libs-library": ({"LIBS": "-lm -lpthread"}, ["Bash(make test)"],
                     ["cp notes.txt notes2.txt", "make test"]),
    "entry-optimising": ({}, ["Bash(make test CFLAGS=-O2)"],
                         ["cp notes.txt notes2.txt", "make test CFLAGS=-O2"]),
    "entry-prefix-folder": ({}, ["Bash(gcc -Bv/ -c t.c)"],
                            ["cp notes.txt notes2.txt", "gcc -Bv/ -c t.c"]),
    "entry-include-folder": ({}, ["Bash(CPATH=inc make test)"],
                             ["cp notes.txt notes2.txt", "CPATH=inc make test"]),
}


#: (held) The session's command lines and makefile lists read word by word (s47-greview2 E1)
#: keep writes their words do not name: an editor's option, ssh's identity, a folder ``code``.
EVERYDAY.update({
    "editor-option": ({"EDITOR": "code --wait"}, ["Bash(make test)"],
                      ["cp notes.txt code/notes.txt", "make test"]),
    "git-ssh-identity": ({"GIT_SSH_COMMAND": "ssh -i ~/.ssh/id -o IdentitiesOnly=yes"},
                         ["Bash(make test)"], ["cp notes.txt code/notes.txt", "make test"]),
})


@pytest.mark.parametrize("case", list(EVERYDAY))
def test_an_everyday_toolchain_value_keeps_calls(tmp_path: Path, case: str) -> None:
    """The session's ``<NAME>=<value>``, plan ``<entries>``, ``Bash(cp *)``: each call is
    allowed (the values name a program on PATH, a library, no path, or a folder guarded that
    no call writes)."""
    needs("bash", "make", "gcc")
    extra, entries, calls = EVERYDAY[case]
    project = hooked_project(tmp_path, [*entries, "Bash(cp *)"])
    (project / "Makefile").write_text("test:\n\t@echo ok\n")
    (project / "t.c").write_text(SOURCE)
    (project / "v").mkdir()
    (project / "code").mkdir()
    env = {**home_env(tmp_path / "home"), **extra}
    assert first_denied(project, calls, env) is None, "the hook denies an everyday call"


#: Each case: the session's variables, the plan's entry, the variable the refusal names. A
#: prefix of names the gate cannot guard refuses every call, saying which variable holds it.
REFUSED = {
    "session-cross-compile-name-prefix": ({"CROSS_COMPILE": "./x-"}, "make test",
                                          "CROSS_COMPILE"),
    "session-makeflags-long-prefix": ({"MAKEFLAGS": "CFLAGS=--prefix=pre"}, "make test",
                                      "MAKEFLAGS"),
    "entry-prefix-assignment": ({}, "CFLAGS=-Bpre make test", "CFLAGS"),
    "entry-compiler-prefix": ({}, "gcc --prefix=pre -c t.c", "CFLAGS"),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_a_name_prefix_refuses_naming_its_variable(tmp_path: Path, case: str) -> None:
    """Plan ``Bash(<entry>)``, ``Bash(cp *)``: ``cp notes.txt notes2.txt`` is denied, and the
    reason names the variable (or the entry's option, read as ``CFLAGS``)."""
    extra, entry, name = REFUSED[case]
    project = hooked_project(tmp_path, [f"Bash({entry})", "Bash(cp *)"])
    env = {**home_env(tmp_path / "home"), **extra}
    reason = _reason(project, "cp notes.txt notes2.txt", env)
    assert name in reason and "prefix" in reason, reason or "allowed"


# --- a quoted brace is data (bash expands only unquoted braces) --------------------------------


#: Each case: the plan's entries, the call (a quoted brace list, data to bash), allowed.
QUOTED = {
    "json-in-single-quotes": (["Bash(printf *)", "Edit(notes.json)"],
                              """printf '%s\\n' '{"a": 1, "b": 2}' >> notes.json"""),
    "list-in-double-quotes": (["Bash(printf *)", "Edit(notes.json)"],
                              'printf "%s\\n" "{a,b}" >> notes.json'),
    "escaped-braces": (["Bash(echo *)", "Edit(notes.json)"], "echo \\{x,y\\} >> notes.json"),
}


@pytest.mark.parametrize("case", list(QUOTED))
def test_a_quoted_brace_is_data(tmp_path: Path, case: str) -> None:
    """The call writes the quoted text into notes.json (real bash: no expansion); the hook
    allows it (it read the list's words as a pattern, ``*``, which may name the plan)."""
    entries, call = QUOTED[case]
    project = hooked_project(tmp_path, entries)
    (project / "notes.json").write_text("")
    env = home_env(tmp_path / "home")
    subprocess.run(["bash", "-c", call], cwd=tmp_path, check=True, timeout=60, env=env)
    assert first_denied(project, [call], env) is None, "the hook denies a quoted brace"


@pytest.mark.parametrize("call", ["tee '.cla'{ude/hooks/x.sh,} < src/x.sh",
                                  "tee .c{l,'}'}aude/hooks/x.sh < src/x.sh",
                                  'tee ".c"{l,\\"}aude/hooks/x.sh < src/x.sh'])
def test_an_unquoted_list_beside_quotes_still_expands(tmp_path: Path, call: str) -> None:
    """(held) Plan ``Bash(tee *)``: a brace list beside quoted parts expands (bash writes the
    hook script through it: the proof); the hook denies the call."""
    project = hooked_project(tmp_path, ["Bash(tee *)"])
    assert rewrites_hook(project, tmp_path, call), "bash wrote no hook: proves nothing"
    assert first_denied(project, [call], home_env(tmp_path / "home")) == call


def test_the_words_read_as_bash_expands_them() -> None:
    """``text_words``: quoted braces and commas literal, unquoted ones expanded (an escaped
    close inside a list too: `.c{l,\\}}aude` is `.claude` and `.c}aude`), a loop's name out."""
    assert text_words("printf '{\"a\": 1, \"b\": 2}'") == ["printf", "{a:", "1,", "b:", "2}"]
    assert text_words("cp x .c{l,\\}}aude") == ["cp", "x", ".claude", ".c}aude"]
    assert text_words("cp x '.cla'{ude,}/s") == ["cp", "x", ".claude/s", ".cla/s"]
    assert text_words("for t in a b; do make -C sub $t; done") == [
        "for", "in", "a", "b", "do", "make", "-C", "sub", "a", "b", "done"]
    assert "$t" in text_words("for t in a $x; do make -C sub $t; done")  # (not plain)
    assert "$t" in text_words("for t in a b; do t=x; make $t; done")  # (set again)
    assert text_words("cp for t") == ["cp", "for", "t"]  # (an argument: cp writes `t`)
    # (a word `do`/`else`/`{` before `for` is an argument: tee writes Makefile; s54-greview3 Q1)
    for text in ("tee do for Makefile;", "tee else for Makefile do", "tee { for Makefile; do",
                 "tee \\; for Makefile in x \\; do"):  # (escaped: no operator, Q1b)
        assert "Makefile" in text_words(text)
    for body in ("unset t", "unset -v t", "IFS=x"):  # (the list's word is not $t there: Q2)
        assert "a$t" in text_words(f"for t in x; do {body}; cp /dev/null a$t; done")


def test_a_toolchain_value_read_as_each_shell_and_gcc_read_it() -> None:
    """``flag_words``: a `~` inside a word, or in gcc's own variable, is a folder named `~`
    too (no shell expands it there: s54-greview3 T1); a recipe bash runs expands braces
    (S1b); sh drops quotes (S1)."""
    assert "./~/inc" in flag_words("CFLAGS", "-I~/inc", ["-I~/inc"])
    assert "./~/v" in flag_words("COMPILER_PATH", "~/v", ["~/v"])
    assert {"inc", "x"} <= set(flag_words("CPPFLAGS", "-I{inc,x}", ["-I{inc,x}"]))
    assert "inc" in flag_words("CPPFLAGS", '-I"inc"', ['-I"inc"'])
    # (a substitution in double quotes: the list read as written, and as a star)
    assert "*" in text_words('echo "$(cp x {a,b})"')
