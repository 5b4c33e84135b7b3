"""The hook's fixed denial, and the writing of a hook's answer.

``gate/hook.py`` answers with ``DENIAL`` when no other answer can be composed, and
``cli/entry.py`` when the gate itself cannot be imported (a module of an installation moved
away or broken): a runtime reads exit status 1 as a non-blocking error and runs the call
(Claude Code without ``onFailure: "block"``, VS Code, Gemini CLI), exit status 2 with this
text as a denial. The module imports only ``os``, which every Python has loaded before it, so
a broken installation that still starts ``cli/entry.py`` still denies.
"""

from __future__ import annotations

import os

_REASON = "skillgrant hook failed closed, so the call is denied: its answer could not be composed"

#: (standard output, standard error, exit status) of the fixed denial.
DENIAL = (
    '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", '
    f'"permissionDecisionReason": "{_REASON}"}}}}\n',
    f"{_REASON}\n",
    2)


def write_answer(stdout: str, stderr: str, status: int) -> int:
    """Write a hook's answer whole to standard output and standard error; its exit status."""
    for fd, text in ((1, stdout), (2, stderr)):
        data = text.encode("utf-8", "backslashreplace")
        while data:
            try:
                written = os.write(fd, data)
            except OSError:
                break  # a closed stream: the exit status still denies
            data = data[written:]
    return status
