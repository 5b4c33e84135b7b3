"""The frontmatter keys other than ``allowed-tools`` that let a skill run or pre-approve
anything (``keys`` judges them; ``yamlapart`` refuses a runtime's reading that may hold one
where skillgrant's does not)."""

from __future__ import annotations

from typing import Final

#: Each judged key, and what it can do (said in the refusal).
JUDGED: Final[dict[str, str]] = {
    "hooks": "its hooks run shell commands, and a PreToolUse hook answering 'allow' "
             "pre-approves calls outside allowed-tools",
    "agent": "the agent type it names runs the skill with that agent's own tools and "
             "permission mode, outside allowed-tools",
}
