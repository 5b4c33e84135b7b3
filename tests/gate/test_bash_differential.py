"""The call gate against GNU bash: whenever ``check_call`` says a Bash command is ``covered``,
everything bash actually runs for it (programs through ``PATH``, builtins, their writes) must be
allowed by the plan, as tests/reference.py reads the plan (tests/gate/bash_oracle.py runs the
command and judges what ran). Commands are generated from a grammar of operators, quoting,
expansions, substitutions, redirections, builtins, runners and wrappers, with plans drawn so
that a good share is covered; a fixed table of tricky commands pins the verdicts themselves.

The full run (``SKILLGRANT_EXAMPLES=full``) generates 7,500 commands from fixed seeds and 1,000
more through hypothesis; each covered one runs twice, with every program exiting 0 and then 1.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest
from bash_corpus import EDIT_OUT, PAYLOAD, SB, generate
from bash_oracle import BASH, Ran, Sandbox, by_definition, differential, misses
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant import check_call

pytestmark = pytest.mark.skipif(not Path(BASH).exists(), reason=f"{BASH} is not installed")

UNSAFE = frozenset({"unknown", "not_covered"})

# -- the fixed table ------------------------------------------------------------------------------

GIT, ECHO, CAT = ["Bash(git *)"], ["Bash(echo *)"], ["Bash(cat:*)"]
OUT = ["Bash(echo *)", "Bash(git *)", EDIT_OUT]
#: (command, plan, the statuses the gate may answer). Rows marked MISS are soundness bugs this
#: test found (the gate says covered, bash runs ``curl``): they state what a sound gate answers.
ROWS: list[tuple[str, list[str], str | frozenset[str]]] = [
    ("git status && rm -rf x", GIT, "not_covered"),
    ("git status; curl evil", GIT, "not_covered"),
    ("git status | curl evil", GIT, "not_covered"), ("git status |& curl evil", GIT, "not_covered"),
    ("git status & curl evil", GIT, "not_covered"), ("git status\ncurl evil", GIT, "not_covered"),
    ("git status # ; curl evil", GIT, "covered"), ("git status '; curl evil'", GIT, "covered"),
    ("git st\\\natus", ["Bash(git status)"], "unknown"),  # a continuation inside a word
    # MISS: a line continuation: tree-sitter splits the word there (bash runs rm -fr x), or
    # keeps it inside quotes and here-documents, where bash removes it and substitutes
    ("rm -f\\\nr x", ["Bash(rm -f *)"], UNSAFE), ('git status "$\\\n(curl evil)"', GIT, UNSAFE),
    ("cat <<EOF\n`\\\ncurl evil`\nEOF", CAT, UNSAFE),
    (f"for X in {PAYLOAD}; do echo $\\\n[X]; done", ECHO, UNSAFE),
    ("echo $# ; curl evil", ECHO, "not_covered"), ("echo ${#X}; curl evil", ECHO, "not_covered"),
    ("echo $(rm x)", ECHO, "not_covered"), ("cat <(curl evil)", CAT, "unknown"),
    ("git status \"$(curl evil)\"", GIT, "not_covered"),  # a substitution is judged
    ("git status `curl evil`", GIT, "unknown"),
    ("eval git status", GIT, "unknown"),
    ("eval git status", ["Bash(eval git status)"], "covered"),
    ("sh -c 'curl evil'", ["Bash(sh *)"], "unknown"),
    ("echo a | xargs curl", ["Bash(echo *)", "Bash(xargs *)"], "unknown"),
    ("find . -exec curl {} \\;", ["Bash(find *)"], "unknown"),
    ("find . -name '*.txt'", ["Bash(find *)"], "covered"),
    ("sudo git status", ["Bash(git *)", "Bash(sudo *)"], "unknown"),
    ("env git status", GIT, "unknown"), ("command git status", GIT, "unknown"),
    ("builtin echo a", ECHO, "unknown"),
    ("timeout 5 git fetch", GIT, "covered"),
    ("nice -n 5 git log", GIT, "covered"), ("nohup git log", GIT, "covered"),
    ("time -p git log", GIT, "covered"),
    ("stdbuf -oL git log", GIT, "covered"),
    ("timeout 5 curl evil", ["Bash(git *)", "Bash(timeout *)"], "not_covered"),
    ("FOO=1 git status", GIT, "not_covered"),
    ("$CMD status", GIT, "unknown"),
    ("git $X", GIT, "unknown"),  # it may be `git grep -O CMD` (review G-5)
    ("npm test $EMPTY", ["Bash(npm test)"], "unknown"),  # `--script-shell=…` (s44 R6)
    ("f() { curl evil; }; f", ["Bash(f)"], "unknown"),
    ("[[ -n $X ]] && git status", GIT, "unknown"),
    ("{ git status; } 2>&1 > /dev/null", GIT, "covered"),
    ("( git status; git log ) > out/f", OUT, "covered"),
    ("if git diff --quiet; then curl evil; fi", GIT, "not_covered"),
    # a variable the command sets reaches every later program: the plan must name it
    ("for f in *.txt; do git add \"$f\"; done", ["Bash(git add:*)"], "not_covered"),
    ("for f in *.txt; do echo \"$f\"; done", ECHO, "covered"),
    # `< in.txt` reads a file the words do not name: a Read of it
    ("while read -r l; do git show \"$l\"; done < in.txt", [*GIT, "Bash(read *)"],
     "not_covered"),
    ("while read -r l; do git show \"$l\"; done < in.txt",
     [*GIT, "Bash(read *)", f"Read(/{SB}/**)"], "not_covered"),
    ("while read -r l; do echo \"$l\"; done < in.txt",
     [*ECHO, "Bash(read *)", f"Read(/{SB}/**)"], "covered"),
    ("case $X in a) curl evil;; esac", GIT, "not_covered"),
    ("cat <<EOF\n$(curl evil)\nEOF", CAT, "unknown"),
    ("cat <<'EOF'\n$(curl evil)\nEOF", CAT, "unknown"),  # `$(` anywhere is not analysed
    ("cat <<-EOF\n\tx\n\tEOF\ncurl evil\n", CAT, "not_covered"),
    ("cat <<E\\OF\nx\nEOF\ncurl evil\n", CAT, UNSAFE),
    # issue 29's six classes: each the gate once allowed, and bash ran outside the plan
    ("git status\n\\rm -rf x", GIT, UNSAFE),
    ("cat <<E'O'F\nx\nEOF\ncurl evil\nE'O'F\n", CAT, UNSAFE),
    ("cat <<EO\"F\"\nx\nEOF\ncurl evil\nEO\"F\"\n", CAT, UNSAFE),
    ("cat <<$'EOF'\nx\nEOF\ncurl evil\n$'EOF'\n", CAT, UNSAFE),
    ("cat <<-'EOF'\nx\n\tEOF\ncurl evil\nEOF\n", CAT, UNSAFE),
    ("git push origin <<< $ --force", ["Bash(git push origin)"], UNSAFE),
    ("git push origin <<< { --force", ["Bash(git push origin)"], UNSAFE),
    ("echo hi {PATH}>/dev/null; git status", [*ECHO, "Bash(git status)"], UNSAFE),
    ('time $"bash" -c "curl evil" --help', ["Bash(* --help)"], UNSAFE),
    ('nohup $"bash" -c "curl evil" --help', ["Bash(* --help)"], UNSAFE),
    ("export npm_config_x=1; npm test", ["Bash(export *)", "Bash(npm test)"], "not_covered"),
    ("read -r http_proxy < in.txt; git status", [*GIT, "Bash(read *)", f"Read(/{SB}/**)"],
     "not_covered"),
    ("printf -v x %s 1; git status", [*GIT, "Bash(printf *)"], "not_covered"),
    ("x=1; git status", [*GIT, "Bash(x=1)"], "not_covered"),
    ("x=1; git status", ["Bash(x=1)", "Bash(x=1 git *)"], "not_covered"),
    ("x=1; git status", ["Bash(x=1)", "Bash(x=1 git *)", *GIT], "covered"),
    # substitutions judged; the over-strict rows of issue 29
    ("git commit -m \"$(cat <<'EOF'\nfix: a\n\nbody\nEOF\n)\"",
     ["Bash(git commit *)", "Bash(cat *)"], "covered"),
    ("git commit -m \"$(cat <<'EOF'\nfix\nEOF\n)\"", ["Bash(git commit *)"], "not_covered"),
    ('git status --short "$(cat in.txt)"', [*GIT, "Bash(cat *)"], "covered"),
    ("echo $(cat in.txt; curl evil)", [*ECHO, "Bash(cat *)"], "not_covered"),
    ("echo ${X:-$(curl evil)}", ECHO, UNSAFE),
    ("echo '$(curl evil)'", ECHO, UNSAFE),
    ("echo hi >&-", ECHO, "covered"), ("echo hi 2>&1-", ECHO, "covered"),
    # the adversarial review of issue 29 (reports/i29-breaks.md): each was covered once
    ("echo ${X:=b} ${FOO=c}; git x", [*ECHO, *GIT], UNSAFE),  # G1: they assign
    ('test ""{-v,' + PAYLOAD + "}", ["Bash(test *)"], UNSAFE),  # H1: the brace splits
    ('[ ""* ]', ["Bash([ *)"], UNSAFE),
    ('printf ""{-v,PATH} ./evil; git status', ["Bash(printf *)", "Bash(git status)"], UNSAFE),
    ('for y in a; do test ""$y; done', ["Bash(test *)"], UNSAFE),  # H1b: $y splits
    ("[ a > out/victim ]", ["Bash([ *)"], UNSAFE),  # I1: `>` redirects `[`
    ("git x$$", GIT, UNSAFE),  # L1: $$ is the process id
    ("git status 99999999999>/dev/null", ["Bash(git status)"], UNSAFE),  # J1: a word
    ("git push origin <&- --force", ["Bash(git push origin)"], UNSAFE),  # K1
    ("git push origin >&- --force", ["Bash(git push origin)"], UNSAFE),
    ("echo a >&99999999999", ECHO, UNSAFE),  # over an int: a file bash writes
    ("! ! sh -c 'curl evil' --help", ["Bash(* --help)"], UNSAFE),  # M1: `!` is no program
    ("time ! sh -c 'curl evil' --help", ["Bash(* --help)"], UNSAFE),
    ("time FOO=1 sh -c 'curl evil'", ["Bash(FOO=1 *)"], UNSAFE),  # M2: an assignment
    ("time if true; then git x; fi", [*GIT, "Bash(true)", "Bash(if *)", "Bash(then *)",
                                      "Bash(fi)"], UNSAFE),
    ("FOO+=1 git x", ["Bash(FOO=1 git *)"], UNSAFE),  # L2: += appends
    # Q1: a program that runs first may put a link where a redirection then writes
    ("git x && echo a > out/f", OUT, "unknown"), ("git x | echo a > out/f", OUT, "unknown"),
    ("echo $(git x) > out/f", OUT, "unknown"), ("git x; { echo a; } > out/f", OUT, "unknown"),
    ("for i in 1 2; do git x > out/f; done", [*OUT, "Bash(* git x)"], UNSAFE),
    ("git x > out/f && git y", OUT, "covered"), ("{ git x; } > out/f", OUT, "covered"),
    ("git x > out/f &", OUT, "covered"), ("echo a > out/f; echo b >> out/f", OUT, "covered"),
    ("nice -n 5 timeout 5 sh -c 'curl evil' --help", ["Bash(* --help)"], UNSAFE),
    # N1: a grant whose program is a star covers only programs that run none in their words
    ("faketime x sh -c 'curl evil' --help", ["Bash(* --help)"], UNSAFE),
    ("chronic sh -c 'curl evil' --help", ["Bash(* --help)"], UNSAFE),
    ("i686 sh -c 'curl evil' --help", ["Bash(* --help)"], UNSAFE),
    ("faketime x $X --help", ["Bash(* --help)"], UNSAFE),
    ("time faketime x sh -c 'curl evil' --help", ["Bash(* --help)"], UNSAFE),
    ("python3 -c x --help", ["Bash(* --help)"], "unknown"),
    ("FOO=/a/x faketime 0 sh -c 'curl evil'", ["Bash(FOO=/a/*)"], UNSAFE),  # N1b
    ("PATH=./dir ls --help", ["Bash(* --help)"], UNSAFE),  # N1c: a prefix picks the program
    ("LD_PRELOAD=./e.so cat a.txt --help", ["Bash(* --help)"], UNSAFE),
    ("FOO=1 PATH=./dir ls", ["Bash(FOO=1 *)"], UNSAFE),
    ("FOO=1 CDPATH=/tmp cd dir && git x", ["Bash(FOO=1 *)", *GIT], UNSAFE),
    ("FOO=a/b faketime 0 sh -c 'curl evil'", ["Bash(FOO=a/b*)"], UNSAFE),
    ("FOO=1 chronic curl evil", ["Bash(FOO=1 *)"], UNSAFE),
    ("ls --help", ["Bash(* --help)"], "covered"),
    ("cat a.txt --help && wc -l a.txt --help", ["Bash(* --help)"], "covered"),
    ("git x --help", [*GIT, "Bash(* --help)"], "covered"),
    ("cat \"$X\" --help", ["Bash(* --help)"], "covered"),
    # T1b: a cd moves the folder a relative program path is found in
    ("cd dir && ./bin/x a", ["Bash(cd *)", "Bash(./bin/*)"], "unknown"),
    ("pushd dir; ./bin/x a", ["Bash(pushd *)", "Bash(./bin/*)"], "unknown"),
    ("./bin/x a && cd dir", ["Bash(cd *)", "Bash(./bin/*)"], "unknown"),
    ("cd dir && git x", ["Bash(cd *)", *GIT], "covered"),
    # T2: a word climbing out of the folder a grant's star follows
    ("rm -rf ./dir/../../x", ["Bash(rm -rf ./dir/*)"], "unknown"),
    ("cat dir/../../etc/passwd", ["Bash(cat dir/*)"], "unknown"),
    ("cat \"$X\" dir/../../x", ["Bash(cat *)"], "unknown"),
    ("rm -rf ./dir/sub", ["Bash(rm -rf ./dir/*)"], "covered"),
    ("cat ../x", ["Bash(cat *)"], "covered"),
    ("wc -l <>out/rw", ["Bash(wc -l)", EDIT_OUT], "covered"),
    ("wc -l <>out/rw", ["Bash(wc -l)"], "not_covered"),
    ("[ -f a.txt ] && echo y", ["Bash([ *)", *ECHO], "covered"),
    ("test -f a.txt || echo n", ["Bash(test *)", *ECHO], "covered"),
    ('[ "$X" = a ]', ["Bash([ *)"], "covered"), ("[ ! -d dir ]", ["Bash([ *)"], "covered"),
    ("[ -n $X ]", ["Bash([ *)"], "unknown"), ("[ INJ -eq 1 ]", ["Bash([ *)"], "unknown"),
    ("test -v INJ", ["Bash(test *)"], "unknown"), ("[ -f a.txt ]", ["Bash(test *)"], "not_covered"),
    ("echo a > out/f", ECHO, "not_covered"),
    ("echo a > out/f", OUT, "covered"),
    ("echo a > f.txt", OUT, "not_covered"),
    ("echo a > out/f b", OUT, "unknown"),
    ("echo a >> out/log 2>&1", OUT, "covered"),
    ("echo a &> /dev/null; echo b >&2", ECHO, "covered"),
    ("echo a > ~/out/f", OUT, "unknown"), ("echo a > \"$X\"", OUT, "unknown"),
    ("cd dir && echo a > out/f", [*OUT, "Bash(cd *)"], "unknown"),
    (f"cd dir && echo a > {SB}/out/f", [*OUT, "Bash(cd *)"], "covered"),
    ("! git status", GIT, "covered"),
    ("wc -l <> out/rw", ["Bash(wc -l)"], UNSAFE),
    # MISS: builtins that evaluate an array subscript, or a callback, given in their words
    (f"test -v {PAYLOAD}", ["Bash(test *)"], UNSAFE),
    (f"printf -v {PAYLOAD} x", ["Bash(printf *)"], UNSAFE),
    (f"read {PAYLOAD} < in.txt", ["Bash(read *)"], UNSAFE),
    (f"declare {PAYLOAD[:-1]}=1'", ["Bash(declare *)"], UNSAFE),
    (f"typeset -i n={PAYLOAD}", ["Bash(typeset *)"], UNSAFE),
    (f"let {PAYLOAD}", ["Bash(let *)"], UNSAFE),
    (f"unset {PAYLOAD}", ["Bash(unset *)"], UNSAFE),
    ("mapfile -C 'curl evil' -c 1 arr < in.txt", ["Bash(mapfile *)"], UNSAFE),
    ("compgen -W '$(curl evil)' x", ["Bash(compgen *)"], UNSAFE),
    ("jobs -x curl evil", ["Bash(jobs *)"], UNSAFE),
    ("compgen -C 'curl evil' x", ["Bash(compgen *)"], UNSAFE),
    (f"declare -n r={PAYLOAD}; echo $r", [*ECHO, "Bash(declare *)"], UNSAFE),
    # MISS: expansions that evaluate a variable's value as code (set here in the command, or
    # by the environment: INJ, PINJ and REF, see bash_oracle.VARIABLES)
    (f"for X in {PAYLOAD}; do echo $((X)); done", ECHO, UNSAFE),
    (f"read X <<< {PAYLOAD}; echo ${{b[X]}}", [*ECHO, "Bash(read *)"], UNSAFE),
    ("echo ${!REF}", ECHO, UNSAFE), ("echo $[INJ]", ECHO, UNSAFE),
    ("echo ${PINJ@P}", ECHO, UNSAFE), ("echo ${X:INJ}", ECHO, UNSAFE),
    # MISS: $[…], bash's old arithmetic expansion, in the word of a ${…} operator
    (f"for X in {PAYLOAD}; do echo ${{EMPTY:-$[X]}}; done", ECHO, UNSAFE),
    ("echo ${X/a/$[INJ]}", ECHO, UNSAFE),
]
TABLE = [(cmd, plan, frozenset({want}) if isinstance(want, str) else want)
         for cmd, plan, want in ROWS]


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox() as box:
        yield box


def bound(command: str, plan: list[str], box: Sandbox) -> tuple[str, list[str], str]:
    """The command and plan naming ``box``'s directory, and the gate's verdict on them."""
    command, entries = command.replace(SB, str(box.work)), [e.replace(SB, str(box.work))
                                                             for e in plan]
    status = check_call("Bash", {"command": command}, entries, cwd=str(box.work)).status
    return command, entries, status


def report(command: str, entries: list[str], found: list[str]) -> str:
    return f"command {command!r}\n  plan {entries}\n  ran, not allowed: {'; '.join(found)}"


def test_oracle_sees_what_runs(sandbox: Sandbox) -> None:
    """The harness itself: programs with their assignments, builtins, unwrapped builtins,
    wrappers and writes are all seen, and judged against the plan."""
    run = sandbox.run("FOO=1 git status; echo hi > out/f; timeout 5 curl evil | break")
    assert set(run.ran) == {Ran("program", ("git", "status"), ("FOO=1",)),
                            Ran("builtin", ("echo", "hi")), Ran("text", ("break",)),
                            Ran("wrapper", ("timeout", "5", "curl", "evil")),
                            Ran("program", ("curl", "evil"))}
    assert run.written == (f"{sandbox.work}/out/f",)
    plan = ["Bash(FOO=1 git *)", "Bash(echo *)", "Bash(break)"]
    assert misses(run, plan, sandbox.bases) == ["program 'curl evil'", f"write '{run.written[0]}'"]
    assert misses(run, [*plan, "Bash(curl evil)", EDIT_OUT.replace(SB, str(sandbox.work))],
                  sandbox.bases) == []


def test_table_verdicts(sandbox: Sandbox) -> None:
    assert len(TABLE) >= 40
    wrong = []
    for command, plan, expected in TABLE:
        command, entries, got = bound(command, plan, sandbox)
        if got not in expected:
            wrong.append(f"{command!r} under {entries}: {got}, expected {sorted(expected)}")
    assert not wrong, "\n".join(wrong)


def test_table_against_bash(sandbox: Sandbox) -> None:
    found = []
    for command, plan, _ in TABLE:
        command, entries, status = bound(command, plan, sandbox)
        if status == "covered" and not by_definition(command, entries):
            missed, _ = differential(sandbox, command, entries)
            found += [report(command, entries, missed)] if missed else []
    assert not found, f"{len(found)} covered rows ran more than allowed:\n" + "\n".join(found)


def test_table_against_bash_in_the_fallback(sandbox: Sandbox) -> None:
    """Without bash 5.2 (the cross-check's stricter fallback), what the gate covers is still
    all that bash runs."""
    from skillgrant.gate.crosscheck import bash_path, use_bash

    before = bash_path()
    use_bash(None)
    try:
        test_table_against_bash(sandbox)
    finally:
        use_bash(before)


# -- generated commands ---------------------------------------------------------------------------

#: The corpus's size and seed: .ci/steps/45-bash-differential.sh runs 20,000 more commands
#: from another seed (``SKILLGRANT_BASH_CORPUS``, ``SKILLGRANT_BASH_SEED``).
CORPUS = int(os.environ.get("SKILLGRANT_BASH_CORPUS") or examples(7500))
SEED = os.environ.get("SKILLGRANT_BASH_SEED") or "skg-bash"
#: What the executed commands hold, counted and printed: issue 29's places where a second
#: parser and bash part ways.
FEATURES = {"here-doc": "<<", "here-doc quoted": "<<'", "<<-": "<<-", "here-string": "<<<",
            "continuation": "\\\n", "$(…)": "$(", "ANSI-C": "$'", "locale": '$"',
            "comment": "#", "fd variable": "}>", "unicode space": "\u00a0", "[ / test": "[ ",
            "time": "time ", "!": "! ", "assignment": "=", "wrapper": "timeout "}


def test_generated_corpus() -> None:
    """Commands from fixed seeds; each covered one runs under bash, in one of two sandboxes (one
    worker thread each) while the gate judges the next."""
    tally = dict.fromkeys(["generated", "covered", "by definition", "executed", "timed out"], 0)
    held = dict.fromkeys(FEATURES, 0)
    found: dict[str, str] = {}  # one command for each distinct miss
    with Sandbox() as one, Sandbox() as two, ThreadPoolExecutor(1) as first, \
            ThreadPoolExecutor(1) as second:
        lanes = [(one, first), (two, second)]
        pending: list[tuple[str, list[str], Future[tuple[list[str], int]]]] = []
        for i in range(CORPUS):
            box, lane = lanes[i % 2]
            command, entries, status = bound(*generate(random.Random(f"{SEED}-{i}")), box)
            tally["generated"] += 1
            if status != "covered":
                continue
            tally["covered"] += 1
            if by_definition(command, entries):
                tally["by definition"] += 1
                continue
            tally["executed"] += 1
            for name, mark in FEATURES.items():
                held[name] += mark in command
            pending.append((command, entries, lane.submit(differential, box, command, entries)))
        for command, entries, future in pending:
            missed, timeouts = future.result()
            tally["timed out"] += timeouts
            for miss in missed:  # computed command names are one kind of miss
                found.setdefault(miss.split()[0] if miss.startswith("computed") else miss,
                                 report(command, entries, missed))
    summary = ", ".join(f"{n} {what}" for what, n in tally.items()) + f", {len(found)} misses"
    print(f"\nbash differential: {summary}\n  executed commands holding: " +
          ", ".join(f"{name} {n}" for name, n in held.items()))
    assert not found, f"{summary}; a command for each:\n" + "\n".join(dict.fromkeys(found.values()))
    assert tally["covered"] >= tally["generated"] * 0.2, summary
    # the generator must keep reaching bash: an eighth of what it generates runs (16 % measured)
    assert tally["executed"] >= tally["generated"] // 8, summary


@settings(max_examples=examples(1000), deadline=None, database=None)
@given(st.randoms(use_true_random=False))
def test_generated_hypothesis(sandbox: Sandbox, rng: random.Random) -> None:
    command, entries, status = bound(*generate(rng), sandbox)
    if status == "covered" and not by_definition(command, entries):
        missed, _ = differential(sandbox, command, entries)
        assert not missed, report(command, entries, missed)
