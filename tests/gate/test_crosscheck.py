"""The cross-check with bash (``gate.crosscheck``, ``gate.reprint``): ordinary commands are
read by bash as the gate reads them; a reading that differs is caught by bash's print alone;
the fallback without bash 5.2 is stricter. Against bash's own runs: test_bash_differential.py."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from skillgrant import check_call
from skillgrant.gate.crosscheck import bash_path, disagreement, rediscover, use_bash
from skillgrant.gate.shell import analyse

BASH = "/usr/bin/bash"
pytestmark = pytest.mark.skipif(not Path(BASH).exists(), reason=f"{BASH} is not installed")

AGREED = [
    "git status 2>&1 | tail -n 5", "git commit -m \"$(cat <<'EOF'\nfix: a\n\nbody\nEOF\n)\"",
    "for f in *.txt; do echo \"$f\"; done", "if [ -f a ]; then echo y; else echo n; fi",
    "case $x in a|b) echo 1;; *) echo 2;; esac", "cat <<-EOF\n\tx\n\tEOF\necho y",
    "echo a;\necho b", "{ git x; git y; } > out/f 2>&1", "( cd dir && make ) &",
    "git status \\\n  --short", "echo $'a b' \"c $d\" 'e'", "while read -r l; do echo \"$l\"; "
    "done < in.txt", "echo hi >&- 2>&1-", "git status <>out/a", "! git diff --quiet",
    "echo \"$(git rev-parse HEAD)\" | tee out/h", "x=1 y=2; echo $x$y", "a |& b",
    "if a\nthen\n  b\nelif c; then d\nelse e\nfi", "until a; do b; done",
]


@pytest.fixture(autouse=True)
def real_bash() -> Iterator[None]:
    before = bash_path()
    use_bash(BASH)
    yield
    use_bash(before)


@pytest.mark.parametrize("command", AGREED)
def test_ordinary_commands_agree(command: str) -> None:
    analysis = analyse(command)
    assert analysis.doubt is None and analysis.reprinted is not None, analysis.doubt
    assert disagreement(command, analysis.reprinted) is None, analysis.reprinted


@pytest.mark.parametrize(("command", "ours"), [
    ("gh pr list\n\\rm -rf x", "gh pr list \\rm -rf x"),  # a word the grammar extends
    ("cat <<E'O'F\nx\nEOF\ntouch p\nE'O'F\n", "cat <<'EOF'\nx\nEOF\ntouch p\nEOF\n"),
    ("git push origin <<< $ --force", "git push origin <<< '$ --force'"),
    ("echo hi {PATH}>/dev/null", "echo hi {PATH} > /dev/null"),
    ('time $"bash" -c x', 'time $ "bash" -c x'),
    # the grammar hangs a word on a redirection, or takes a word for a descriptor: written with
    # its redirections first, the gate's reading moves the word, and bash prints it elsewhere
    ("git push origin <&- --force", "<&- --force git push origin"),
    ("git status 99999999999>/dev/null", "99999999999> /dev/null git status"),
])
def test_a_different_reading_is_caught_by_bash(command: str, ours: str) -> None:
    """Each of issue 29's first classes, read as the grammar read it: bash prints the two
    differently (the gate also refuses each before asking, tests/gate/test_call.py)."""
    assert disagreement(command, ours) is not None


def test_bash_refusing_the_command_is_a_doubt() -> None:
    assert "does not parse" in (disagreement("echo (", "echo (") or "")


def test_the_fallback_is_stricter() -> None:
    use_bash(None)
    plan = ["Bash(git *)", "Bash(cat *)", "Bash(echo *)"]
    idiom = "git commit -m \"$(cat <<'EOF'\nmsg\nEOF\n)\""
    assert check_call("Bash", {"command": idiom}, plan, cwd="/tmp").status == "unknown"
    assert check_call("Bash", {"command": "git status 2>&1 | cat"}, plan,
                      cwd="/tmp").status == "covered"
    assert check_call("Bash", {"command": "git status\ngit log"}, plan,
                      cwd="/tmp").status == "unknown"
    # tree-sitter drops the `-` of `- $` (the review, F1): a lone `$` needs bash
    assert check_call("Bash", {"command": "git push - $ x 2>&1"}, plan,
                      cwd="/tmp").status == "unknown"
    use_bash("/nonexistent/bash")
    assert check_call("Bash", {"command": "git status 2>&1 | cat"}, plan,
                      cwd="/tmp").status == "unknown"  # a bash that cannot run: a doubt


def test_a_bash_older_than_5_2_means_the_fallback(tmp_path: Path) -> None:
    old = tmp_path / "bash"
    old.write_text("#!/bin/sh\necho \"bash: --pretty-print: invalid option\" >&2\nexit 2\n")
    old.chmod(0o755)
    use_bash(str(old))
    plan = ["Bash(git *)"]
    assert check_call("Bash", {"command": "git status 2>&1"}, plan, cwd="/tmp").covered
    assert check_call("Bash", {"command": "git a\ngit b"}, plan,
                      cwd="/tmp").status == "unknown"
    assert bash_path() is None


def test_a_command_bash_refuses_never_switches_the_check_off() -> None:
    """bash repeats the offending line in its error: a command holding `pretty-print` or
    `invalid option` must not make the gate think bash is older than 5.2 (review P1)."""
    plan = ["Bash(git status)", "Bash(git push origin 0)"]
    poison = "if git status; then fi # pretty-print invalid option"
    assert "does not parse" in (disagreement(poison, poison) or "")
    assert check_call("Bash", {"command": poison}, plan, cwd="/tmp").status == "unknown"
    assert bash_path() == BASH
    assert check_call("Bash", {"command": "git push origin 0<&- --force"}, plan,
                      cwd="/tmp").status == "unknown"


def test_only_an_absolute_bash_is_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A relative PATH entry is the project's: its `bash` is never run (review R1)."""
    fake = tmp_path / "bin" / "bash"
    fake.parent.mkdir()
    fake.write_text(f"#!/bin/sh\ntouch {tmp_path}/ran\n")
    fake.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "bin:" + str(Path(BASH).parent))
    monkeypatch.delenv("SKILLGRANT_BASH", raising=False)
    rediscover()
    assert bash_path() == BASH
    monkeypatch.setenv("SKILLGRANT_BASH", "bin/bash")
    rediscover()
    assert bash_path() is None
    assert not (tmp_path / "ran").exists()


def test_no_bash_on_path_is_asked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An absolute PATH entry into the project (`$PWD/node_modules/.bin`, an activated
    `.venv/bin`) holds the project's `bash`: it never runs in the hook, and bash's reading is
    the system's (review R1's residue)."""
    fake = tmp_path / "node_modules" / ".bin" / "bash"
    fake.parent.mkdir(parents=True)
    fake.write_text(f"#!/bin/sh\ntouch {tmp_path}/ran\nexit 0\n")
    fake.chmod(0o755)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", f"{fake.parent}:{fake.parent}:/usr/bin:/bin")
    monkeypatch.delenv("SKILLGRANT_BASH", raising=False)
    rediscover()
    assert bash_path() in ("/usr/bin/bash", "/bin/bash")
    # a command the cross-check reads (not plain): the system's bash says how it reads
    verdict = check_call("Bash", {"command": 'echo "$HOME"'}, ["Bash(echo *)"],
                         cwd=str(tmp_path))
    assert verdict.covered
    assert check_call("Bash", {"command": "git push origin 0<&- --force"},
                      ["Bash(git push origin 0)"], cwd=str(tmp_path)).status == "unknown"
    assert not (tmp_path / "ran").exists()
