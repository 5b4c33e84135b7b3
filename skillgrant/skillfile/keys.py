"""Frontmatter keys other than ``allowed-tools`` that let a skill run or pre-approve anything
(issue 27; docs/runtime-conformance.md has the table of every key Claude Code 2.1.332 honours).

* ``hooks``: the skill's own hooks run shell commands on the events they name, and a
  ``PreToolUse`` hook that answers ``allow`` pre-approves a call ``allowed-tools`` does not.
* ``agent``: the sub-agent type that runs the skill (with ``context: fork``); an agent's own
  definition carries its tools and permission mode.

Such a key is refused with a located error unless skillgrant wrote it: the ``hooks`` that
``apply --enforce`` writes (``skillfile.enforce``), one ``PreToolUse`` hook running
``skillgrant hook`` with quoted arguments and nothing else. ``disallowed-tools`` only removes
tools and is kept. A top-level ``PreToolUse`` or ``PermissionRequest`` key makes the runtime
load the skill with no hooks and no ``allowed-tools``: it grants less, and is left alone.
"""

from __future__ import annotations

import shlex
from typing import Final

from ..errors import SkillFileError
from ..gate.config import claude_hooks
from .doc import SkillDoc
from .fmread import same
from .yamlspan import line_column

#: Each judged key, and what it can do (said in the refusal).
JUDGED: Final[dict[str, str]] = {
    "hooks": "its hooks run shell commands, and a PreToolUse hook answering 'allow' "
             "pre-approves calls outside allowed-tools",
    "agent": "the agent type it names runs the skill with that agent's own tools and "
             "permission mode, outside allowed-tools",
}


def judge_keys(doc: SkillDoc) -> None:
    """Refuse ``doc`` when it has a key of ``JUDGED`` that skillgrant did not write. Raises
    SkillFileError located at the key."""
    for key, can in JUDGED.items():
        if key not in doc.metadata or (key == "hooks" and ours(doc.metadata[key])):
            continue
        line, column = _where(doc, key)
        raise SkillFileError(f"the frontmatter's {key!r} lets the skill go beyond its plan "
                             f"({can}); skillgrant refuses a skill with {key!r} it did not "
                             "write (apply --enforce writes its own hooks)", path=doc.path,
                             line=line, column=column)


def ours(value: object) -> bool:
    """Whether ``value`` is the ``hooks`` mapping ``apply --enforce`` writes: one PreToolUse
    hook running ``skillgrant hook`` with every argument quoted (so nothing else runs)."""
    try:
        command = value["PreToolUse"][0]["hooks"][0]["command"]  # type: ignore[index]
        words = shlex.split(command)
    except (TypeError, KeyError, IndexError, ValueError):
        return False
    return (isinstance(command, str) and same(value, claude_hooks(command))
            and shlex.join(words) == command and words[:2] == ["skillgrant", "hook"])


def _where(doc: SkillDoc, key: str) -> tuple[int, int]:
    text = doc.text
    at = text.find(f"\n{key}:", doc.yaml_start - 1, doc.yaml_end)
    return line_column(text, at + 1 if at >= 0 else doc.yaml_start)
