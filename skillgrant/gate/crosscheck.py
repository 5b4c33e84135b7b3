"""The cross-check with bash: the gate's reading of a command must be bash's own.

bash 5.2 prints its parse of a script without running it (``bash --pretty-print FILE``). The
gate writes its reading back as bash text (``reprint``); bash parses that text and the
original command, and prints each. The two prints must be equal (blank lines aside): when they
are, bash reads the command into the very statements and words the gate judged; when they are
not, or bash refuses either, the command is ``unknown``. A command the plain fast path reads
(``plainshell``) is read the same by bash by construction and is not sent.

Where bash 5.2 is absent (no bash in the system's folders, ``SYSTEM_BASHES``, or one without
``--pretty-print``), the fallback is stricter: a command that is not plain is covered only when
it holds none of the text where bash and tree-sitter are known to part (``FALLBACK_REFUSED``).
``SKILLGRANT_BASH`` names the bash to ask (``none``: the fallback).
"""

from __future__ import annotations

import os
import re
import subprocess
from contextvars import ContextVar

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: Seconds bash may take to print a command's parse.
BASH_TIMEOUT: Final = 5.0
#: Answers kept, by command text (the hook decides one call; the service many).
_KEPT: Final = 256
_ANSWERS: dict[tuple[str, str], str | None] = {}
_BASH: list[str | None] = []
#: Without bash 5.2: text a command must not hold outside the fast path. A line break, a
#: backslash, a here-document or here-string, ANSI-C or locale quoting, a brace (``{VAR}>``),
#: a command substitution, a Unicode space, a lone ``$`` (tree-sitter drops the ``-`` of
#: ``- $``): where tree-sitter's reading is known to part from bash's.
FALLBACK_REFUSED: Final = re.compile(
    "[\n\\\\{\u0085\u00a0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]"
    "|<<|\\$'|\\$\"|\\$\\(|\\$(?=[ \t]|$)")
_BLANK_LINES: Final = re.compile(r"\n[ \t]*(?=\n)")
#: False where the caller must not wait for bash (``skillgrant serve``'s event loop, which
#: decides on the loop and asks again in a thread): an answer not kept raises ``BashNeeded``.
MAY_WAIT: ContextVar[bool] = ContextVar("may_wait_for_bash", default=True)


class BashNeeded(Exception):
    """The decision needs bash's reading, which is not kept, or git's answer
    (``worktree.run_git``: a git run may wait on what it reads, review s41 F6), and the
    caller may not wait for it (``MAY_WAIT``). Not a SkillgrantError: nothing on the way
    turns it into a verdict."""


#: Where the gate looks for the bash to ask, in order: the system's own folders, never the
#: hook's ``PATH`` (review R1: an absolute ``PATH`` entry into the project, ``$PWD/node_modules/
#: .bin``, an activated ``.venv/bin``, direnv's ``PATH_add``, would run the project's ``bash``
#: in the hook and take its word for bash's reading).
SYSTEM_BASHES: Final = ("/usr/bin/bash", "/bin/bash", "/usr/local/bin/bash",
                        "/opt/homebrew/bin/bash")


def bash_path() -> str | None:
    """The bash asked for its reading: ``SKILLGRANT_BASH`` when it is an absolute path (any
    other value: the fallback), else the first of ``SYSTEM_BASHES`` that is an executable
    file; None for the fallback. ``PATH`` is never searched: an entry of it may be the
    project's (``node_modules/.bin``, relative or absolute), whose ``bash`` would run in the
    hook and speak for bash."""
    if not _BASH:
        named = os.environ.get("SKILLGRANT_BASH")
        if named is not None:
            _BASH.append(named if os.path.isabs(named) else None)
        else:
            _BASH.append(next((b for b in SYSTEM_BASHES
                               if os.path.isfile(b) and os.access(b, os.X_OK)), None))
    return _BASH[0]


def use_bash(path: str | None) -> None:
    """Ask the bash at ``path`` from now on (None: the fallback); the answers kept are
    dropped."""
    _BASH[:] = [path]
    _ANSWERS.clear()


def rediscover() -> None:
    """Look for bash again at the next question (``SKILLGRANT_BASH``, ``PATH``)."""
    _BASH.clear()
    _ANSWERS.clear()


def disagreement(command: str, reprinted: str) -> str | None:
    """Why bash's reading of ``command`` is not shown to be the gate's (``reprinted``), or
    None when bash prints both the same. Raises BashNeeded when bash must be asked and the
    caller may not wait (``MAY_WAIT``)."""
    key = (command, reprinted)
    try:  # one lookup: another thread may clear the answers between two
        return _ANSWERS[key]
    except KeyError:
        pass
    if not MAY_WAIT.get() and bash_path() is not None:
        raise BashNeeded(command)
    answer = _disagreement(command, reprinted)
    if len(_ANSWERS) >= _KEPT:
        _ANSWERS.clear()
    _ANSWERS[key] = answer
    return answer


def _disagreement(command: str, reprinted: str) -> str | None:
    bash = bash_path()
    if bash is None:
        return _fallback(command, "no bash was found")
    try:
        texts = (command, reprinted)
        runs = [_start(bash) for _ in texts]  # both start at once; each then reads its text
        outputs = [run.communicate(text.encode("utf-8"), timeout=BASH_TIMEOUT)
                   for run, text in zip(runs, texts, strict=True)]
    except (OSError, subprocess.SubprocessError) as e:
        return f"bash did not print its reading of the command ({e})"
    (original, errors), (ours, _) = outputs
    if runs[0].returncode != 0:
        if not _prints(bash):  # asked on a fixed text: a command's own error never decides
            _BASH[0] = None
            return _fallback(command, "bash is older than 5.2")
        return "bash does not parse the command: " + errors.decode("utf-8", "replace").strip()
    if runs[1].returncode != 0 or _canonical(original) != _canonical(ours) or (
            not _canonical(original) and reprinted.strip()):
        return ("bash reads the command differently from the gate (the statements or words "
                "bash prints are not those the gate judged)")
    return None


def _prints(bash: str) -> bool:
    """Whether ``bash`` prints a parse (``--pretty-print``, bash 5.2), asked on a fixed text."""
    try:
        run = _start(bash)
        printed, _ = run.communicate(b"true\n", timeout=BASH_TIMEOUT)
    except (OSError, subprocess.SubprocessError):
        return False
    return run.returncode == 0 and printed.strip() == b"true"


def _start(bash: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([bash, "--norc", "--noprofile", "--pretty-print", "/dev/stdin"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={"PATH": os.defpath, "LC_ALL": "C"})


def _canonical(printed: bytes) -> bytes:
    text = printed.decode("utf-8", "surrogateescape").strip("\n")
    return _BLANK_LINES.sub("", text).encode("utf-8", "surrogateescape")


def _fallback(command: str, why: str) -> str | None:
    found = FALLBACK_REFUSED.search(command)
    if found is None:
        return None
    return (f"{why}, so the gate cannot ask bash how it reads the command, and without bash "
            f"it does not read {found.group()!r}")
