"""Review s50 (s50-greview3) of s50-gfix2: the start variables a plan's entry sets itself
(``entryvars``), the variables no rule reads, and the tests a runner collects
(``testfiles``). Each case proves the hole with real bash in a scratch copy first (a scratch
home), then asks the printed hook for each call in turn, running the allowed ones; the hook
allowing them all is the finding: these tests fail while the hole is open (``OPEN`` marks them
strict xfails)."""

from __future__ import annotations

from pathlib import Path

import pytest
from bash_review import LeftOpen, first_denied, home_env, hooked_project, needs, proved

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh).
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add

#: A shell script running the payload (``touch zz``).
SCRIPT = "touch zz\n"


def _case(tmp_path: Path, entry: str, target: str, payload: str = SCRIPT,
          more: dict[str, str] | None = None, extra: dict[str, str] | None = None) -> str | None:
    """Proves that ``cp src/mk <target>`` then ``entry`` run the payload under real bash
    (scratch home, the session's ``extra`` values) in a hooked project holding ``more`` and
    ``src/mk`` (``payload``), plan ``Bash(<entry>)``, ``Bash(cp *)``; the first call the
    printed hook denies, or None."""
    calls = [f"cp src/mk {target}", entry]
    found: list[str | None] = []
    for side in ("proof", "run"):
        project = hooked_project(tmp_path / side, [f"Bash({entry})", "Bash(cp *)"])
        for name, text in {**(more or {}), "src/mk": payload}.items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            (project / name).write_text(text)
        env = {**home_env(tmp_path / side / "home"), **(extra or {})}
        if side == "proof":
            assert proved(project, tmp_path / side, calls, env), "bash ran no payload"
        else:
            found.append(first_denied(project, calls, env))
    return found[0]


# --- S1: an entry's own assignment the scan does not read ------------------------------------


#: Entries exporting ``BASH_ENV=e.sh`` (bash runs the file at a non-interactive start) in a
#: form ``entryvars`` does not read: a compound command's or a function's body, a builtin run
#: through ``command``/``builtin``/``eval``/``time``/``!``, a value set by ``read``, ``printf
#: -v``, ``for`` or a nameref, an assignment word after the program's name under ``set -k``,
#: allexport set by ``shopt -so``.
MISSED = {"brace-group": "{ export BASH_ENV=e.sh; bash -c true; }",
          "if-then": "if true; then export BASH_ENV=e.sh; fi; bash -c true",
          "function": "f() { export BASH_ENV=e.sh; }; f; bash -c true",
          "command": "command export BASH_ENV=e.sh; bash -c true",
          "builtin": "builtin export BASH_ENV=e.sh; bash -c true",
          "eval": "eval export BASH_ENV=e.sh; bash -c true",
          "time": "time export BASH_ENV=e.sh; bash -c true",
          "bang": "! export BASH_ENV=e.sh; bash -c true",
          "read": "read -r BASH_ENV <<< e.sh; export BASH_ENV; bash -c true",
          "printf-v": "printf -v BASH_ENV e.sh; export BASH_ENV; bash -c true",
          "for": "for BASH_ENV in e.sh; do export BASH_ENV; bash -c true; done",
          "nameref": "declare -n r=BASH_ENV; export r=e.sh; bash -c true",
          "set-k": "set -k; bash -c true BASH_ENV=e.sh",
          "shopt-so-allexport": "shopt -so allexport; BASH_ENV=e.sh; bash -c true",
          "allexport-brace": "set -a; { BASH_ENV=e.sh; }; bash -c true"}


@pytest.mark.parametrize("case", list(MISSED))
def test_s1_an_entrys_own_assignment_the_scan_misses(tmp_path: Path, case: str) -> None:
    """``export BASH_ENV=e.sh; bash -c true`` guards ``e.sh`` (``entryvars``: ``WHOLE``); the
    same assignment inside ``{ …; }``, ``if``, a function, after ``command``/``builtin``/
    ``eval``/``time``/``!``, by ``read``/``printf -v``/``for``/a nameref, under ``set -k``
    or ``shopt -so allexport`` is not read: plan ``Bash(<entry>)``,
    ``Bash(cp *)``, ``cp src/mk e.sh`` is allowed and the entry's bash runs it."""
    needs("bash")
    denied = _case(tmp_path, MISSED[case], "e.sh")
    assert denied is not None, "the hook allows the file the entry's BASH_ENV names"


_open("test_s1_an_entrys_own_assignment_the_scan_misses",
      "entryvars reads no assignment after a keyword (then, time, !), none made by read, "
      "printf -v or for, none after the program's name under set -k, and not shopt -so "
      "allexport", "if-then", "time", "bang", "read", "printf-v", "for", "set-k",
      "shopt-so-allexport")
