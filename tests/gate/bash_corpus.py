"""The bash differential's generator: commands drawn from a grammar of operators, quoting,
expansions, substitutions, redirections, here-documents and here-strings, builtins that set
variables, runners and wrappers, each with a plan drawn so that a good share is covered
(tests/gate/test_bash_differential.py runs each covered one under bash).

Issue 29 grew it with the places bash and a second parser part: here-document delimiters in
every quoting and ``<<-``, here-strings whose word is a lone ``$`` or ``{``, line continuations
and backslashes at line starts, ``{VAR}>`` redirections, ANSI-C and locale quoting, ``$`` at
word ends, comments, carriage returns, Unicode spaces, ``time``/``!``/``coproc``, command
substitutions (Claude Code's commit idiom among them), ``test``/``[``, and variables set for
later programs.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

SB = "@SB@"  # the sandbox's working directory, filled in per sandbox
EDIT_OUT = f"Edit(/{SB}/out/**)"
T = TypeVar("T")
PAYLOAD = "'b[$(curl evil)]'"

# -- the grammar ----------------------------------------------------------------------------------

RULES = [
    "git *", "git status", "git add:*", "ls *", "echo *", "cat:*", "rm -f *", "npm test",
    "npm run *", "grep *", "head *", "wc -l", "sort", "printf *", "cd *", "true", "false", ":",
    "pwd", "read *", "export *", "find *", "tee *", "make *", "touch *", "break", "FOO=1 git *",
    "x=1", "echo hi", "wait", "type *", "exit", "[ *", "test *", "cat *", "git commit *",
    "git push origin", "wc -l",
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
    "export": ["FOO=1", "X", "B='a b'", "npm_config_x=1", "x=1"],
    "[": ["-f a.txt ]", '"$X" = a ]', "! -d dir ]", "-n $X ]", "INJ -eq 1 ]", "a.txt ]",
          '-n "$X" ]', "-v " + PAYLOAD + " ]"],
    "git commit": ["-m \"$(cat <<'EOF'\nfix: a\n\nbody $X\nEOF\n)\"",
                   '-m "$(cat in.txt)"', "-m \"$(cat <<EOF\n$(curl evil)\nEOF\n)\""],
    "git push origin": ["<<< $ --force", "<<< { --force", "<<< \"$X\"", "<<<$X"],
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
    # issue 29: where a second parser and bash part ways
    "$(git status)", '"$(cat in.txt)"', "$(curl evil)", "$(echo $(curl evil))", '"$(git x)"y',
    "$'\\x63url'", '$"curl"', "$'a b'", '$"a b"', "a$", "$", '"$"', "x$'\\n'",
    "\u00a0curl", "a\u2028b", "a\u3000b", "a\u00a0#b", "{a}", "{X}", "\\", "a\\",
]
ODD = [
    "eval git status", 'eval "curl evil"', "source in.txt", ". ./in.txt", "exec git x",
    "builtin echo a", "command git status", "trap 'curl evil' EXIT", "f() { curl evil; }; f",
    "[[ -n $X ]]", "(( 1 ))", "coproc git x", "$CMD status", "\"$CMD\" x", "${CMD} x",
    "alias g=git", "{git x;}", "select s in a; do git x; done", "/bin/echo a", "a=(1 2)",
    "X=b[0] declare -n q=X", "shopt -s expand_aliases", "set -e", "hash -r",
    # issue 29
    "time git x", "time ! git x", "! git x", "coproc c { git x; }", "time $\"curl\" evil",
    "nohup $\"curl\" evil", "git status\n\\curl evil", "git status\n  \\curl evil",
    "echo hi {PATH}>/dev/null; git status", "echo hi {fd}>out/f", "git x {HOME}<in.txt",
    "export npm_config_x=1; npm test", "read -r http_proxy < in.txt; git x",
    "printf -v x %s 1; git x", "x=1; git x", "for v in a; do git x; done",
    "declare q=1; git x", "readonly r=1; git x", "unset x; git x", "git x\rcurl evil",
    "git x \\\n  status", "git x\\\n status", "echo $(git x; curl evil)",
    "git status # $(curl evil)", "git status\u00a0# x", "[ -f a.txt ] && git x",
    "test -f a.txt || git x", "echo hi >&-", "echo hi 2>&1-", "wc -l <>out/rw",
    "git commit -m \"$(cat <<'EOF'\nmsg\nEOF\n)\"",
]
WRAPS = ["timeout 5 ", "timeout -s KILL 5 ", "timeout --preserve-status 1s ", "nice ",
         "nice -n 5 ", "nice -5 ", "nohup ", "time ", "time -p ", "stdbuf -oL ", "stdbuf -o L ",
         "nice -n 5 timeout 5 ", "\\time ", "nohup -- ", "timeout -k 1 5 "]
ASSIGN = ["FOO=1 ", "A='a b' ", "X= ", "Y=$X "]
REDIRECTS = ["> out/f", ">> out/log", "2> out/err", "&> out/all", "> /dev/null", "2>&1", ">&2",
             "< in.txt", "2>/dev/null", "> f.txt", ">| out/f", "> 'out/s p'", '> "$X"',
             "> ~/out/f", "<<< \"$X\"", f"> {SB}/out/abs", "> dir/../out/g", ">&out/h",
             "3>out/fd3", "> out/$X", "2>>out/err", ">&-", "2>&1-", "<>out/rw", "{fd}>out/f",
             "{PATH}>/dev/null", "<<< $", "<<< {", "<<<$X", "1>&2-", "0<&-"]
HEREDOCS = ["cat <<EOF\nhello $X\nEOF\n", "cat <<'EOF'\n$(curl evil)\nEOF\n",
            "cat <<-EOF\n\thi\n\tEOF\n", "cat <<EOF | git x\nbody\nEOF\n",
            "cat <<EOF\n$(curl evil)\nEOF\n", "cat <<-EOF\nx\n\tEOF\ncurl evil\n",
            "cat <<\\EOF\nx\nEOF\n", "cat <<EOF > out/h\nx\nEOF\n", "cat <<E\n$\\\n(curl e)\nE\n",
            # issue 29: every quoting of the delimiter; a body line bash ends at first
            "cat <<E'O'F\nx\nEOF\ncurl evil\nE'O'F\n", "cat <<EO\"F\"\nx\nEOF\ncurl e\nEO\"F\"\n",
            "cat <<$'EOF'\nx\nEOF\ncurl e\n$'EOF'\n", "cat <<'EOF'\nx $(curl e)\nEOF\n",
            "cat <<\"EOF\"\nx\nEOF\n", "cat <<-'EOF'\n\tx\n\tEOF\n", "cat <<-EOF\nx\n\t\tEOF\n",
            "cat <<-'E'\nx\n\tE\ncurl e\nE\n", "cat <<EOF\n\\\nEOF\ncurl e\nEOF\n",
            "cat <<EOF\nEOF \nEOF\n", "cat <<EOF\n${X:-$(curl e)}\nEOF\n",
            "cat << 'EOF' | git x\nb\nEOF\n", "cat <<EOF\r\nx\r\nEOF\r\n"]
SHAPES = ["( @L@ )", "{ @T@ }", "if @T@ then @T@ else @T@ fi", "if @T@ then @T@ fi",
          "for f in @W@; do @T@ done", "while read -r l; do @T@ done < in.txt",
          "while false; do @T@ done", "until @S@; do @T@ break; done",
          "case @A@ in a*) @L@;; *) @L@;; esac", "@H@"]
JOINERS = [" && ", " || ", "; ", " & ", "\n", " ;", ";", "\n\\", " \\\n", "\n\n", " #c\n",
           "\u00a0&&\u00a0", ";\r\n"]


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
        whole = rule.removesuffix(" *").removesuffix(":*")
        if whole in SPECIAL and whole != name:  # arguments for the rule's words as a whole
            name = whole
            if "*" not in rule and self.rng.random() < 0.5:
                return rule + " " + self.args(name)
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
    if rng.random() < 0.05 and not any(c in command for c in "()\\\n\r"):
        entries.append(f"Bash({command})")
    if rng.random() < 0.01:
        entries.append("Bash")
    return command, entries


