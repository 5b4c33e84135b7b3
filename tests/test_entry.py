"""The console script's own reading of ``check``/``apply`` (``cli.entry``) against typer's: the
table of command lines is read by both readers, every command line it accepts is read as typer
reads it, runs to the same output, stderr, exit status and files, and everything else is left to
typer. Start-up without typer is issue 7's; the
behaviour must be the CLI's (semantics §8)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant.cli import app as cli
from skillgrant.cli import entry as _entry
from skillgrant.cli.console import Colour, Format, PlanKind
from skillgrant.cli.entry import read_fast
from skillgrant.cli.run import Invocation

NARROW = "---\nname: t\ndescription: d\nallowed-tools: Bash(gh pr list), Read\n---\nbody\n"
WIDE = ("---\nname: t\ndescription: d\n# keep me\nallowed-tools:\n  - Bash(gh pr list)\n"
        "  - Bash(rm -rf /)\n---\nbody\n")
EMPTY = "---\nname: t\ndescription: d\nallowed-tools: Bash(rm -rf /)\n---\nbody\n"
BROKEN = "no frontmatter here\n"
FILES = {"skills/narrow/SKILL.md": NARROW, "skills/wide/SKILL.md": WIDE,
         "skills/empty/SKILL.md": EMPTY, "broken/SKILL.md": BROKEN,
         "plan.yaml": "allowed-tools:\n  - Bash(gh *)\n  - Read\n",
         "plan.json": '{"allowedTools": "Bash(gh *)"}',
         "bad-plan.yaml": "allowed-tools:\n  - Bash(gh *\n"}


def _tree(root: Path) -> None:
    if root.exists():
        shutil.rmtree(root)
    (root / ".git").mkdir(parents=True)
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def _snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


# --- reading --------------------------------------------------------------------------------

def _read_by_typer(argv: list[str]) -> Invocation | None:
    """What typer's command hands to ``run_check`` for ``argv``; None when typer refuses it."""
    seen: list[Invocation] = []

    def record(invocation: Invocation) -> int:
        seen.append(invocation)
        return 0

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cli, "run_check", record)
        try:
            cli.app(args=argv, prog_name="skillgrant", standalone_mode=False)
        except Exception:  # a usage error: typer refuses the command line
            return None
    return seen[0] if seen else None


#: The two readers of a command line; cli.entry.main chooses between them.
READERS = {"fast": lambda argv: read_fast(argv, {}), "typer": _read_by_typer}


@pytest.mark.parametrize("reader", sorted(READERS))
@pytest.mark.parametrize(("argv", "expected"), [
    (["check", "skills", "--plan", "plan.yaml"], Invocation("check", ["skills"], "plan.yaml")),
    (["check", "skills"], Invocation("check", ["skills"], None)),  # each file's plan is found
    (["apply", "s", "-q", "-o", "r.txt", "-p", "p"],
     Invocation("apply", ["s"], "p", output="r.txt", quiet=True)),
    (["check", "-p", "-", "a", "b", "-f", "json", "--color", "never", "-j", "0", "--debug",
      "--plan-kind", "skill"],
     Invocation("check", ["a", "b"], "-", PlanKind.skill, Format.json, Colour.never, 0, True)),
    (["apply", "--dry-run", "--format=sarif", "--plan=p.yaml", "s", "--jobs=02"],
     Invocation("apply", ["s"], "p.yaml", PlanKind.auto, Format.sarif, Colour.auto, 2, False,
                True)),
])
def test_plain_command_lines_are_read(reader: str, argv: list[str], expected: Invocation
                                      ) -> None:
    assert READERS[reader](argv) == expected


@pytest.mark.parametrize("argv", [
    [], ["--version"], ["--debug", "check", "s", "-p", "p"], ["explain", "Read"],
    ["lint", "s"], ["check", "-p", "p"], ["check", "s", "-p"],
    ["check", "s", "-p", "p", "-p", "q"], ["check", "s", "-p", "p", "--help"],
    ["check", "s", "-p", "p", "-h"], ["check", "--", "s", "-p", "p"],
    ["check", "s", "-pp"], ["check", "s", "-p=p"], ["check", "s", "-p", "p", "-fjson"],
    ["check", "s", "-p", "p", "--format", "xml"], ["check", "s", "-p", "p", "--jobs", "+2"],
    ["check", "s", "-p", "p", "--jobs", "-1"], ["check", "s", "-p", "p", "--jobs", "٣"],
    ["check", "s", "-p", "p", "--dry-run"], ["check", "s", "-p", "p", "--debug", "--debug"],
    ["check", "s", "--plan", "--format"], ["check", "s", "--plan="], ["check", "-", "-p", "p"],
    ["check", "s", "-p", "p", "--colour", "never"], ["check", "s", "-p", "p", "--pla", "q"],
    ["apply", "s", "-p", "p", "--dry-run=1"], ["Check", "s", "-p", "p"],
    ["check", "s", "-p", "p", "--jobs", "1" * 10],  # typer reads what int() may refuse
])
def test_everything_else_is_left_to_typer(argv: list[str]) -> None:
    assert read_fast(argv, {}) is None


def test_the_environment_can_hand_a_command_line_to_typer() -> None:
    argv = ["check", "s", "-p", "p"]
    assert read_fast(argv, {"SKILLGRANT_DEBUG": "1"}) is None  # typer reads the variable
    assert read_fast(argv, {"_SKILLGRANT_COMPLETE": "bash_source"}) is None  # completion
    assert read_fast(argv, {"NO_COLOR": "1"}) is not None


TOKENS = ["check", "apply", "--plan", "-p", "plan.yaml", "-", "--format", "-f", "json", "text",
          "sarif", "github", "markdown", "--color", "always", "never", "auto", "--jobs", "-j",
          "0", "2", "+3", "007", "--plan-kind", "skill", "settings", "plan", "--debug",
          "--dry-run", "--", "-h", "--version", "skills", "a b", "--format=json",
          "--plan=p.yaml", "-pplan.yaml", "--jobs=1", "=", "--plan=", "-p=", "-fjson", "x=y"]


@settings(max_examples=examples(1500))
@given(st.sampled_from(["check", "apply"]), st.lists(st.sampled_from(TOKENS), max_size=9))
def test_what_is_read_is_what_typer_reads(command: str, rest: list[str]) -> None:
    argv = [command, *rest]
    fast = read_fast(argv, {})
    if fast is not None:
        assert fast == _read_by_typer(argv), argv


# --- running --------------------------------------------------------------------------------

RUNS = [
    ["check", "skills", "--plan", "plan.yaml"],
    ["check", "skills/narrow/SKILL.md", "-p", "plan.yaml"],
    ["check", "skills", "broken", "-p", "plan.yaml", "-f", "json"],
    ["check", "skills", "-p", "plan.yaml", "-f", "github"],
    ["check", "skills", "-p", "plan.yaml", "-f", "sarif"],
    ["check", "skills", "-p", "plan.yaml", "--color", "always"],
    ["check", "skills", "-p", "plan.json", "--plan-kind", "plan", "--jobs", "2"],
    ["check", "skills", "-p", "bad-plan.yaml"],
    ["check", "nowhere", "-p", "plan.yaml"],
    ["check", "skills", "-p", "missing.yaml"],
    ["check", "skills/wide/SKILL.md", "-p", "skills/narrow/SKILL.md", "--plan-kind", "skill"],
    ["check", "skills", "-p", "plan.yaml", "--debug"],
    ["apply", "skills", "-p", "plan.yaml"],
    ["apply", "skills", "broken", "-p", "plan.yaml", "--dry-run", "-f", "json"],
    ["apply", "skills", "-p", "plan.yaml", "--dry-run"],
    ["apply", "skills", "-p", "plan.yaml", "-f", "sarif", "-j", "2"],
]


def _run(main: object, argv: list[str], root: Path, capsys: pytest.CaptureFixture[str]
         ) -> tuple[object, str, str, dict[str, bytes]]:
    _tree(root)
    os.chdir(root)  # the tree was made again: the old working directory is gone
    with pytest.raises(SystemExit) as exit_info:
        main(argv)  # type: ignore[operator]
    out, err = capsys.readouterr()
    return exit_info.value.code, out, err, _snapshot(root)


@pytest.mark.parametrize("argv", RUNS, ids=[" ".join(a) for a in RUNS])
def test_both_ways_give_the_same_run(argv: list[str], tmp_path: Path,
                                     monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("SKILLGRANT_DEBUG", "NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    root = tmp_path / "repo"
    _tree(root)
    monkeypatch.chdir(root)
    assert read_fast(argv, {}) is not None
    fast = _run(_entry.main, argv, root, capsys)
    slow = _run(cli.main, argv, root, capsys)
    assert fast == slow
    assert fast[0] in (0, 1, 2)


def test_the_console_script_starts_without_typer(tmp_path: Path) -> None:
    _tree(tmp_path)
    code = ("import sys\nfrom skillgrant.cli.entry import main\n"
            "try:\n    main(['check', 'skills', '-p', 'plan.yaml'])\n"
            "except SystemExit as e:\n    code = e.code\n"
            "print(code, sorted(m for m in ('typer', 'click', 'lark', 'pydantic', 'logging', "
            "'skillgrant.cli.app') if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, check=True)
    assert done.stdout.splitlines()[-1] == "1 []"


# --- a reader that goes away ------------------------------------------------------------------

_MAIN = {"fast": "from skillgrant.cli.entry import main; main()",
         "typer": "from skillgrant.cli.app import main; main()"}


@pytest.mark.parametrize("way", sorted(_MAIN))
@pytest.mark.parametrize(("argv", "closed", "said"), [
    (["check", "skills", "-p", "plan.yaml"], "stdout", "broken pipe"),
    (["check", "nowhere", "-p", "plan.yaml"], "stderr", None),
    (["check", "skills", "-p", "plan.yaml"], "both", None),
])
def test_a_closed_pipe_is_an_error_not_a_finding(tmp_path: Path, way: str, argv: list[str],
                                                 closed: str, said: str | None) -> None:
    _tree(tmp_path)
    read_end, write_end = os.pipe()
    os.close(read_end)
    streams = {"stdout": write_end if closed in ("stdout", "both") else subprocess.DEVNULL,
               "stderr": write_end if closed in ("stderr", "both") else subprocess.PIPE}
    try:
        done = subprocess.run([sys.executable, "-c", _MAIN[way], *argv], cwd=tmp_path,
                              env={**os.environ, "SKILLGRANT_DEBUG": ""}
                              if way == "typer" else None, timeout=60, check=False,
                              **streams)  # type: ignore[call-overload]
    finally:
        os.close(write_end)
    assert done.returncode == 2
    if said is not None:
        assert said in done.stderr.decode()
        assert "Traceback" not in done.stderr.decode()
