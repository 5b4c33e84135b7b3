"""The gate's reading of a Skill call's args (gate/skillargs.py) against Claude Code 2.1.332's
own filling, run by the pinned Bun (run with ``--bun``; a tenth of ``--bun-cases`` cases).

tests/oracle/skillargs_fill.js holds the runtime's functions (``_vt`` fills the args into the body,
``PIe`` reads the named ``arguments``, ``SFn`` finds the ``!`` commands, ``Bit``/``uG`` pair code
spans, ``tTi`` splits the args into words with the runtime's own bash parser, cut out of the pinned
binary by tests/oracle/runtime_bash_parser.py), read from the pinned binary. For each generated
skill and args it prints the commands the runtime runs after filling that the unfilled body does
not hold. The plan is ``Skill(other)`` alone, so each such command is outside it: a case fails when
the runtime runs one and ``check_call`` says ``covered`` (review s46-freview2's G3–G7 were such
cases). The generators are the reviewer's: named arguments spelled every way the runtime and the
gate might read apart, placeholders beside Unicode spaces, and args and bodies full of backticks.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bun_fixture import bun
from runtime_bash_parser import parser_module

from skillgrant.gate.call import check_call
from skillgrant.gate.skillargs import _words

FILL = Path(__file__).resolve().parent / "skillargs_fill.js"
NAMES = ["who", "a", "x.y", "a-b", "ARGUMENTS", "1", "0", "w1", "who2", "wh", " who", "who ",
         "+x", "(w)", "a b", "\u0663", "\u00b2", "x" * 65, "é", "ǅ", "$", "w\u200b", "\ufeffwho",
         "who\ufeff", "", "ARGUMENTSx", "ARGS", "_", "-", "."]
BODIES = ["!`echo $who`", "!`echo $ARGUMENTS`", "!`echo $0`", "!`echo $1`",
          "!`echo $ARGUMENTS[0]`", "!`echo \\$who`", "!`echo $who[0]`", "!`echo $wh`",
          "```!\necho $who\n```", "!`echo ${who}`", "!`echo $who.x`", "!`echo $x.y`",
          "!`echo $a-b`", "!`echo $ARGUMENTS[1]`", "!`echo $who2`", "!`echo $ who`",
          "!`echo $+x`", "!`echo $(w)`", "!`echo $é`", "!`echo $ǅ`", "!`echo $$`",
          "!`echo $\u0663`", "!`echo $1x`", "!`echo $a`", "!`echo $ARGUMENTSx`", "!`echo $_`",
          "!`echo \\\\$who`", "!`echo $who\\`", "!`echo $ARGUMENTS[01]`", "!`echo $01`"]
SEPS = [" ", "\n", ":", ":\ufeff", "\u00a0", "\t", "\u2028", "\r\n", "`x` ", " `", "!", "\\",
        "\u3000", "\x85"]
ARGS = ["hi", "a b c", "x y z w", "'x; touch zz'", "hi; touch zz", "$who", "a\u00a0b",
        "a\ufeffb", "", " ", "1 2", "\\!`x`"]
PIECES = ["`", "!", "!`", "`!`", "```", "```!", "\n", " ", "$ARGUMENTS", "$ARGUMENTS[0]", "$0",
          "$1", "$who", "touch zz", "echo ", "x", "\\$who", "\\", ":", "``"]
TICKS = ["`", "!`x`", "\\!`x`", "a`b", "``", "a b`", "`touch zz`", "!", "x\n!`touch zz`",
         "a`b c`d", "'`'", "\"`\"", "```!\ntouch zz\n```", "hi"]

#: Args of plain characters, aimed at where the runtime's bash parse and a plain split differ
#: (review s47-freview S4): assignments, reserved words, declarations, line breaks, a lone `=`.
WORDS = ["echo", "touch", "zz", "x=1", "x+=1", "a=b=c", "x==1", "_=", "=", "=x", "if", "then",
         "for", "done", "do", "select", "function", "export", "local", "unset", "time", "coproc",
         "case", "in", "-n", "--a=b", "a:b", "1", "%1", "^x", "@x", ".", "/tmp/x", "a,b", "+x"]
WORD_SEPS = [" ", " ", " ", "  ", "\t", "\n", "\r\n", "\r", " \n"]
#: Named arguments the review read apart (s47-freview S1-S3): repeated, JS white space.
WORD_NAMES = ["[a, who]", "[who, who]", "who who", "[who, a, who]", '"a\\x1cb who"',
              '"a\\u0085b who"', "\"a\\u00a0b who\"", "&n [who]", "who\n  a"]
WORD_BODIES = ["!`$0 zz`", "!`$1 zz`", "!`$2 zz`", "!`$ARGUMENTS[1] zz`", "!`$who zz`",
               "!`$0 $1 $2`", "```!\n$1 $2\n```"]

__all__ = ["bun"]  # (the pinned Bun, a fixture: tests/oracle/bun_fixture.py)


@pytest.fixture
def parser(tmp_path: Path) -> str:
    """The runtime's bash parser module (tests/oracle/runtime_bash_parser.py), or a failure
    saying how to install the pinned runtime, never a silent skip."""
    try:
        return str(parser_module(tmp_path))
    except RuntimeError as e:
        pytest.fail(f"{e}: run python tests/conformance/cc_runtime.py install")


def _names_case(rng: random.Random) -> tuple[str, str]:
    kind = rng.random()
    if kind < 0.5:
        names = rng.sample(NAMES, rng.randint(1, 3))
        value = names if rng.random() < 0.7 else " ".join(names)
        line = "arguments: " + json.dumps(value, ensure_ascii=rng.random() < 0.5)
    elif kind < 0.7:
        line = "arguments: " + rng.choice(["who", "[who]", "who a", "[who, 3]", "null", "",
                                           "'who'", "[\"who\"]"])
    else:
        line = "x: y"
    body = "".join(rng.choice(SEPS) + rng.choice(BODIES) for _ in range(rng.randint(1, 2)))
    return f"---\nname: other\ndescription: d\n{line}\n---\nResult{body}\n", rng.choice(ARGS)


def _ticks_case(rng: random.Random) -> tuple[str, str]:
    line = rng.choice(["arguments: [who]", "arguments: [who, a]", "x: y"])
    body = "".join(rng.choice(PIECES) for _ in range(rng.randint(3, 14)))
    return f"---\nname: other\ndescription: d\n{line}\n---\nR {body}\n", rng.choice(TICKS)


def cases(seed: int, count: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    return [(_names_case if rng.random() < 0.6 else _ticks_case)(rng) for _ in range(count)]



def _plain_args(rng: random.Random) -> str:
    args = "".join(rng.choice(WORDS) + rng.choice(WORD_SEPS) for _ in range(rng.randint(1, 5)))
    return args if rng.random() < 0.3 else args.rstrip()


def test_the_gate_splits_the_args_as_the_runtime_does(
        bun: Path, parser: str, tmp_path: Path, request: pytest.FixtureRequest,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The args' words: the gate's (``_words``) are the runtime's ``tTi`` words or none (the
    call refused); and under ``Skill(other)``, ``Bash(echo *)`` no skill whose commands take
    the words is allowed when the runtime runs a command outside ``Bash(echo *)``."""
    rng = random.Random(47)
    count = max(1000, request.config.getoption("--bun-cases") // 10)
    args = list(dict.fromkeys(_plain_args(rng) for _ in range(count)))
    done = subprocess.run([str(bun), str(FILL), parser], input=json.dumps({"words": args}),
                          capture_output=True, text=True, timeout=900, check=True)
    runtime = json.loads(done.stdout)
    split = [(a, w) for a, w in zip(args, runtime, strict=True) if _words(a) is not None]
    wrong = [(a, _words(a), w) for a, w in split if _words(a) != w]
    cases = [(f"{_ARGS_HEAD}arguments: {rng.choice(WORD_NAMES)}\n---\nR "
              f"{rng.choice(WORD_BODIES)}\n", a) for a in args[:2000]]
    done = subprocess.run([str(bun), str(FILL), parser], input=json.dumps(cases),
                          capture_output=True, text=True, timeout=900, check=True)
    skill = tmp_path / ".claude" / "skills" / "other" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    plan = ["Skill(other)", "Bash(echo *)"]
    misses = []
    for (text, given), commands in zip(cases, json.loads(done.stdout), strict=True):
        if all(check_call("Bash", {"command": c}, plan).status == "covered" for c in commands):
            continue
        skill.write_text(text, encoding="utf-8")
        got = check_call("Skill", {"skill": "other", "args": given}, plan, cwd=str(tmp_path))
        misses += [(text, given, commands)] if got.status == "covered" else []
    with capsys.disabled():
        print(f"\nskill args' words: {len(args)} args, {len(split)} split by the gate, "
              f"{len(wrong)} otherwise than the runtime; {len(cases)} skills, {len(misses)} "
              "allowed where the runtime runs a command outside the plan")
    assert not wrong and not misses, "\n".join(repr(m) for m in (wrong + misses)[:10])


_ARGS_HEAD = "---\nname: other\ndescription: d\n"


def test_the_gate_judges_every_command_the_runtime_fills(
        bun: Path, parser: str, tmp_path: Path, request: pytest.FixtureRequest,
        capsys: pytest.CaptureFixture[str]) -> None:
    generated = cases(46, max(1000, request.config.getoption("--bun-cases") // 10))
    done = subprocess.run([str(bun), str(FILL), parser], input=json.dumps(generated),
                          capture_output=True, text=True, timeout=900, check=True)
    filled = json.loads(done.stdout)
    skill = tmp_path / ".claude" / "skills" / "other" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    misses, ran = [], 0
    for (text, args), commands in zip(generated, filled, strict=True):
        if not commands:
            continue
        ran += 1
        skill.write_text(text, encoding="utf-8")
        got = check_call("Skill", {"skill": "other", "args": args}, ["Skill(other)"],
                         cwd=str(tmp_path))
        if got.status == "covered":
            misses.append((text, args, commands))
    with capsys.disabled():
        print(f"\nskill args: {len(generated)} generated, {ran} where the runtime runs a "
              f"command the args filled, {len(misses)} the gate allowed")
    assert not misses, "\n".join(repr(m) for m in misses[:10])
