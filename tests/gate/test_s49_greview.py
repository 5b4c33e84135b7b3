"""Review s49 (s49-greview) of the call gate, session 48's new code first (envpaths' reading of
a session value, startpaths' plugins and ``.npmrc`` values, the here-string reading, the new
hook form): sequences of calls the printed hook allows under a narrow plan, after which real
bash (or the real program) runs a payload (``touch zz``). Each case proves the hole with real
bash in a scratch copy first (a scratch home), then asks the printed hook for each call in
turn, running the allowed ones; the hook allowing them all is the finding: these tests fail
while the hole is open (``OPEN`` marks them strict xfails)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs, proved

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add


def _case(tmp_path: Path, entries: list[str], files: dict[str, str], calls: list[str],
          extra: dict[str, str] | None = None, setup: str = "") -> str | None:
    """Proves ``calls`` run the payload under real bash (scratch home) in a hooked project
    holding ``files`` (and what the bash text ``setup`` made there), the session's environment
    with ``extra``; the first call the printed hook denies, or None."""
    found: list[str | None] = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, entries)
        for name, text in files.items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            (project / name).write_text(text)
        env = {**home_env(tmp_path / side / "home"), **(extra or {})}
        if setup:
            subprocess.run(["bash", "-c", setup], cwd=project, check=True, timeout=120, env=env,
                           capture_output=True)
        if side == "proof":
            assert proved(project, tmp_path / side, calls, env), "bash ran no payload"
        else:
            found.append(first_denied(project, calls, env))
    return found[0]


# --- E: a session value whose shell reading differs from envpaths' ---------------------------


#: An ssh remote: git runs ``GIT_SSH_COMMAND`` through ``sh -c`` (dash here) for a fetch.
SSH_REMOTE = "git remote add origin ssh://h.invalid/r"

#: (the session's ``GIT_SSH_COMMAND``, its other variables, the file the shell runs): values
#: naming ``tools/…`` through a form ``envpaths._expanded`` reads as a guess rather than as the
#: shell reads it. ``${NAME:-WORD}`` (and ``:+``, ``:=``) is read as "VALUE WORD", a space
#: between them, so a path the expansion sits inside of is cut in two (``tools/ssh-`` and
#: ``dev.sh``, neither the file); quotes and backslashes inside a word are read as separators
#: (``_SEPARATORS``) or kept (``\``), while the shell removes them; a glob is read literally.
SPLIT = {
    "control-plain": ("sh tools/ssh.sh", {}, "tools/ssh.sh"),
    "default-inside-a-word": ("sh tools/ssh-${MODE:-dev}.sh", {}, "tools/ssh-dev.sh"),
    "default-set-inside-a-word": ("sh tools/${WRAP:-ssh}.sh", {"WRAP": "my"},
                                  "tools/my.sh"),
    "alternative-inside-a-word": ("sh tools/ssh${CI:+-ci}.sh", {"CI": "1"}, "tools/ssh-ci.sh"),
    "quotes-inside-a-word": ('sh tools/"ssh".sh', {}, "tools/ssh.sh"),
    "quoted-space": ("sh 'tools/my ssh.sh'", {}, "tools/my ssh.sh"),
    "backslash": ("sh tools/s\\sh.sh", {}, "tools/ssh.sh"),
    "glob": ("sh tools/ss?.sh", {}, "tools/ssh.sh"),
}


@pytest.mark.parametrize("case", list(SPLIT))
def test_e1_a_session_value_the_shell_reads_otherwise(tmp_path: Path, case: str) -> None:
    """Session env ``GIT_SSH_COMMAND`` (see ``SPLIT``), an ssh remote, plan ``Bash(git
    fetch)``, ``Bash(cp *)``: ``cp src/x.sh <the file>`` is allowed (envpaths guards other
    paths) and ``git fetch`` runs it through the shell git starts."""
    value, more, target = SPLIT[case]
    needs("git")
    denied = _case(tmp_path, ["Bash(git fetch)", "Bash(cp *)"], {"tools/.keep": ""},
                   [f"cp src/x.sh '{target}'", "git fetch"],
                   {"GIT_SSH_COMMAND": value, **more}, SSH_REMOTE)
    assert denied is not None, "the hook allows a write to the program the value runs"


_open("test_e1_a_session_value_the_shell_reads_otherwise",
      "envpaths._expanded reads ${NAME:-WORD}/${NAME:+WORD} inside a word as 'VALUE WORD' "
      "(the path cut in two), keeps a backslash and reads a glob literally",
      "default-inside-a-word", "default-set-inside-a-word", "alternative-inside-a-word",
      "backslash", "glob")
