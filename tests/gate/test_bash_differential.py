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

import random
import re
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest
from bash_oracle import BASH, Ran, Sandbox, by_definition, differential, misses
from examples import PERCENT, examples
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant import check_call

pytestmark = pytest.mark.skipif(not Path(BASH).exists(), reason=f"{BASH} is not installed")

SB = "@SB@"  # the sandbox's working directory, filled in per sandbox
EDIT_OUT = f"Edit(/{SB}/out/**)"
T = TypeVar("T")
UNSAFE = frozenset({"unknown", "not_covered"})
PAYLOAD = "'b[$(curl evil)]'"

# -- the grammar ----------------------------------------------------------------------------------

RULES = [
    "git *", "git status", "git add:*", "ls *", "echo *", "cat:*", "rm -f *", "npm test",
    "npm run *", "grep *", "head *", "wc -l", "sort", "printf *", "cd *", "true", "false", ":",
    "pwd", "read *", "export *", "find *", "tee *", "make *", "touch *", "break", "FOO=1 git *",
    "x=1", "echo hi", "wait", "type *", "exit",
]
#: Rules naming runners, and builtins that evaluate their words: the gate refuses most of the
#: commands they stand for (each plan draws one of them now and then).
RUNNER_RULES = ["xargs *", "env *", "sudo *", "sh *", "timeout *", "[ *", "eval *", "nohup *",
                "test *", "let *", "mapfile *", "compgen *", "jobs *", "declare *", "typeset *",
                "readonly *", "unset *"]
#: Arguments for the commands whose own arguments matter.
SPECIAL = {
    "cd": ["dir", "out", "dir/sub", "", "~", '"$EMPTY"', "dir/../dir"],
    "read": ["-r l", "X", "-a arr", PAYLOAD, "-r X <<< " + PAYLOAD],
    "test": ["-f a.txt", '-n "$X"', "-z $EMPTY", "-v " + PAYLOAD, "-v INJ", "1 -eq 1"],
    "[": ["-f a.txt ]", '-n "$X" ]', "-v " + PAYLOAD + " ]"],
    "let": ["x=1+2", "INJ", PAYLOAD, "'x = 1'"],
    "declare": ["x=1", "-i n=$INJ", "-n r=" + PAYLOAD, PAYLOAD[:-1] + "=1'", "-a arr", "-p X"],
    "typeset": ["t=2", "-i n=$INJ", PAYLOAD[:-1] + "=1'"],
    "readonly": ["r=1", PAYLOAD[:-1] + "=1'"],
    "unset": ["x", "X", PAYLOAD, "-v FOO"],
    "mapfile": ["-t arr < in.txt", "-C 'curl cb' -c 1 arr < in.txt", "-t < in.txt"],
    "compgen": ["-W 'a b' a", "-W '$(curl w)' x", "-C 'curl c' x", "-A variable X"],
    "jobs": ["-l", "-x curl jx"],
    "printf": ["'%s\\n' a", "-v " + PAYLOAD + " x", "-v x %s \"$INJ\"", "%s $X"],
    "find": [". -name '*.txt'", ". -type f", ". -exec curl {} \\;", ". -delete"],
    "xargs": ["git", "-I{} curl {}"], "env": ["git x", "FOO=1 curl e"],
    "sudo": ["git x"], "sh": ["-c 'curl evil'", "-c 'git status'"],
    "timeout": ["5 curl evil", "5 git x"], "type": ["git", "-t echo"],
    "export": ["FOO=1", "X", "B='a b'"],
}
ARGS = [
    "a", "-f", "--force", "x.txt", "out/f", "a.txt", "HEAD", "1", "-n", "--", "-rf", "status",
    "a=b", "-exec", "{}", "\\;", "%s", "'a b'", "'a; curl evil'", "'$(curl evil)'", "'&&'",
    "'|'", '"a b"', '"x && y"', '"$X"', '"${X}"', '"pre $X post"', '"\\$X"', '"a\\"b"',
    '"\\`curl evil\\`"', "''", '""', "'it'\\''s'", "\"a'b\"", "a\\ b", "\\&\\&", "\\$X", "\\*",
    "\\|", "\\#x", "#x", "a#b", "$X", "${X}", "$EMPTY", "$1", '"$@"', "$@", "$*", "${X:-d}",
    "${#X}", "$?", "$SPACED", "$GLOB", "$SEMI", "--flag=$X", "a$X", "$X.txt",
    "$QUOTE", "$NL", "$#", "${#}", "*.txt", "?.txt", "[ab].txt", "{a,b}", "{1..3}", "~",
    "~/out", "dir/*", "*", "$'a\\nb'", "$'\\x41'", '$"x"', "a\\\nb",
]
#: Arguments that hold code, keywords or constructs the gate refuses (drawn less often).
HAZARDS = [
    "if", "then", "}", "{", "!", "[[", "esac", "done", "$((INJ))", "${!REF}", "${b[INJ]}",
    "${PINJ@P}", "$[INJ]", "${X:INJ}", "$(curl evil)", "`curl evil`", "<(curl evil)",
    '"$(curl evil)"', ">(curl evil)", "$((b[INJ]))", "${EMPTY:-$[INJ]}", "${X/a/$[INJ]}",
    '"$\\\n(curl evil)"', "$\\\n[INJ]", "$((1+2))",
]
ODD = [
    "eval git status", 'eval "curl evil"', "source in.txt", ". ./in.txt", "exec git x",
    "builtin echo a", "command git status", "trap 'curl evil' EXIT", "f() { curl evil; }; f",
    "[[ -n $X ]]", "(( 1 ))", "coproc git x", "$CMD status", "\"$CMD\" x", "${CMD} x",
    "alias g=git", "{git x;}", "select s in a; do git x; done", "/bin/echo a", "a=(1 2)",
    "X=b[0] declare -n q=X", "shopt -s expand_aliases", "set -e", "hash -r",
]
WRAPS = ["timeout 5 ", "timeout -s KILL 5 ", "timeout --preserve-status 1s ", "nice ",
         "nice -n 5 ", "nice -5 ", "nohup ", "time ", "time -p ", "stdbuf -oL ", "stdbuf -o L ",
         "nice -n 5 timeout 5 ", "\\time ", "nohup -- ", "timeout -k 1 5 "]
ASSIGN = ["FOO=1 ", "A='a b' ", "X= ", "Y=$X "]
REDIRECTS = ["> out/f", ">> out/log", "2> out/err", "&> out/all", "> /dev/null", "2>&1", ">&2",
             "< in.txt", "2>/dev/null", "> f.txt", ">| out/f", "> 'out/s p'", '> "$X"',
             "> ~/out/f", "<<< \"$X\"", f"> {SB}/out/abs", "> dir/../out/g", ">&out/h",
             "3>out/fd3", "> out/$X", "2>>out/err"]
HEREDOCS = ["cat <<EOF\nhello $X\nEOF\n", "cat <<'EOF'\n$(curl evil)\nEOF\n",
            "cat <<-EOF\n\thi\n\tEOF\n", "cat <<EOF | git x\nbody\nEOF\n",
            "cat <<EOF\n$(curl evil)\nEOF\n", "cat <<-EOF\nx\n\tEOF\ncurl evil\n",
            "cat <<\\EOF\nx\nEOF\n", "cat <<EOF > out/h\nx\nEOF\n", "cat <<E\n$\\\n(curl e)\nE\n"]
SHAPES = ["( @L@ )", "{ @T@ }", "if @T@ then @T@ else @T@ fi", "if @T@ then @T@ fi",
          "for f in @W@; do @T@ done", "while read -r l; do @T@ done < in.txt",
          "while false; do @T@ done", "until @S@; do @T@ break; done",
          "case @A@ in a*) @L@;; *) @L@;; esac", "@H@"]
JOINERS = [" && ", " || ", "; ", " & ", "\n", " ;", ";"]


@dataclass
class Maker:
    """Draws one command for one plan: mostly from the plan's own rules, so a good share is
    covered; sometimes from the whole vocabulary, runners and constructs the gate refuses."""

    rng: random.Random
    rules: list[str]

    def pick(self, choices: Sequence[T]) -> T:
        return choices[self.rng.randrange(len(choices))]

    def args(self, name: str) -> str:
        if name in SPECIAL and self.rng.random() < 0.7:
            return self.pick(SPECIAL[name])
        return " ".join(self.pick(HAZARDS if self.rng.random() < 0.06 else ARGS)
                        for _ in range(self.rng.randrange(4)))

    def from_rule(self, rule: str) -> str:
        name = rule.split()[0].removesuffix(":*")
        if rule.endswith(" *") and self.rng.random() < 0.03:
            text = rule[:-2] + "\\\n" + self.args(name).lstrip()  # bash joins the two
        elif rule.endswith(":*"):
            text = rule[:-2] + " " + self.args(name)
        else:
            text = rule.replace("*", self.args(name))
        return text.strip()

    def simple(self) -> str:
        roll = self.rng.random()
        if roll < 0.8 and self.rules:
            body = self.from_rule(self.pick(self.rules))
        elif roll < 0.95:
            body = self.from_rule(self.pick(RULES + RUNNER_RULES))
        else:
            return self.pick(ODD)
        prefix = self.pick(ASSIGN) if self.rng.random() < 0.06 else ""
        if self.rng.random() < 0.12:
            prefix += self.pick(WRAPS)
        return prefix + body + self.redirects()

    def redirects(self) -> str:
        if self.rng.random() > 0.2:
            return ""
        return "".join(" " + self.pick(REDIRECTS) for _ in range(self.rng.randrange(1, 3)))

    def compound(self, depth: int) -> str:
        roll = self.rng.random() if depth < 2 else 0.0
        if roll < 0.75:
            return self.simple()
        fill: dict[str, Callable[[], str]] = {
            "L": lambda: self.list(depth + 1), "T": lambda: _term(self.list(depth + 1)),
            "W": lambda: self.args("for") or "a", "S": self.simple,
            "A": lambda: self.pick(ARGS), "H": lambda: self.pick(HEREDOCS)}
        text = re.sub("@([LTWSAH])@", lambda m: fill[m.group(1)](), self.pick(SHAPES))
        return text + ("" if roll < 0.9 else self.redirects())

    def list(self, depth: int = 0) -> str:
        parts = []
        for _ in range(self.pick([1, 1, 1, 2, 2, 3] if depth == 0 else [1, 1, 2])):
            text = self.compound(depth)
            if self.rng.random() < 0.2 and not text.endswith("\n"):
                text += self.pick([" | ", " |& "]) + self.compound(depth)
            parts.append(("! " if self.rng.random() < 0.04 else "") + text)
        out = parts[0]
        for part in parts[1:]:
            out += ("" if out.endswith("\n") else self.pick(JOINERS)) + part
        return out


def _term(text: str) -> str:
    return text + (" " if text.endswith("\n") else "; ")


def generate(rng: random.Random) -> tuple[str, list[str]]:
    """One command with its plan (entries naming the sandbox as ``SB``)."""
    rules = rng.sample(RULES, rng.randrange(2, 8))
    if rng.random() < 0.2:
        rules.append(rng.choice(RUNNER_RULES))
    maker = Maker(rng, rules)
    command = maker.list()
    if rng.random() < 0.05:
        command += " # " + maker.pick(["curl evil", "; rm -rf x", "$(curl evil)"])
    entries = [f"Bash({rule})" for rule in rules]
    roll = rng.random()
    if roll < 0.6:
        entries.append(EDIT_OUT)
    elif roll < 0.7:
        entries.append(f"Edit(/{SB}/**)")
    elif roll < 0.8:
        entries.append("Edit(out/**)")
    if rng.random() < 0.05 and not any(c in command for c in "()\\\n"):
        entries.append(f"Bash({command})")
    if rng.random() < 0.01:
        entries.append("Bash")
    return command, entries


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
    ("git $X", GIT, "covered"),
    ("npm test $EMPTY", ["Bash(npm test)"], "not_covered"),
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


# -- generated commands ---------------------------------------------------------------------------

CORPUS = examples(7500)


def test_generated_corpus() -> None:
    """Commands from fixed seeds; each covered one runs under bash, in one of two sandboxes (one
    worker thread each) while the gate judges the next."""
    tally = dict.fromkeys(["generated", "covered", "by definition", "executed", "timed out"], 0)
    found: dict[str, str] = {}  # one command for each distinct miss
    with Sandbox() as one, Sandbox() as two, ThreadPoolExecutor(1) as first, \
            ThreadPoolExecutor(1) as second:
        lanes = [(one, first), (two, second)]
        pending: list[tuple[str, list[str], Future[tuple[list[str], int]]]] = []
        for i in range(CORPUS):
            box, lane = lanes[i % 2]
            command, entries, status = bound(*generate(random.Random(f"skg-bash-{i}")), box)
            tally["generated"] += 1
            if status != "covered":
                continue
            tally["covered"] += 1
            if by_definition(command, entries):
                tally["by definition"] += 1
                continue
            tally["executed"] += 1
            pending.append((command, entries, lane.submit(differential, box, command, entries)))
        for command, entries, future in pending:
            missed, timeouts = future.result()
            tally["timed out"] += timeouts
            for miss in missed:  # computed command names are one kind of miss
                found.setdefault(miss.split()[0] if miss.startswith("computed") else miss,
                                 report(command, entries, missed))
    summary = ", ".join(f"{n} {what}" for what, n in tally.items()) + f", {len(found)} misses"
    print(f"\nbash differential: {summary}")
    assert not found, f"{summary}; a command for each:\n" + "\n".join(dict.fromkeys(found.values()))
    assert tally["covered"] >= tally["generated"] * 0.25, summary
    assert PERCENT < 100 or tally["executed"] >= 1500, summary


@settings(max_examples=examples(1000), deadline=None, database=None)
@given(st.randoms(use_true_random=False))
def test_generated_hypothesis(sandbox: Sandbox, rng: random.Random) -> None:
    command, entries, status = bound(*generate(rng), sandbox)
    if status == "covered" and not by_definition(command, entries):
        missed, _ = differential(sandbox, command, entries)
        assert not missed, report(command, entries, missed)
