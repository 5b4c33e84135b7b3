"""Frontmatter keys other than ``allowed-tools`` that let a skill run or pre-approve anything
(issue 27; docs/runtime-conformance.md has the table of every key Claude Code 2.1.332 honours).

* ``hooks``: the skill's own hooks run shell commands on the events they name, and a
  ``PreToolUse`` hook that answers ``allow`` pre-approves a call ``allowed-tools`` does not.
* ``agent``: the sub-agent type that runs the skill (with ``context: fork``); an agent's own
  definition carries its tools and permission mode.

Such a key is refused with a located error unless skillgrant wrote it: the very ``hooks`` that
``apply --enforce`` writes for this file and the plan it is judged against
(``skillfile.enforce``): one ``PreToolUse`` hook running ``skillgrant hook --plan PLAN``
(with ``--plan-kind`` and the file's ``--skill-dir``, nothing else), so that the hook can allow
nothing the plan does not. ``disallowed-tools`` only removes
tools and is kept. A top-level ``PreToolUse`` or ``PermissionRequest`` key makes the runtime
load the skill with no hooks and no ``allowed-tools``: it grants less, and is left alone
(but ``apply --enforce`` refuses it: its hook would never run, ``enforce``/``hookdrop``).
"""

from __future__ import annotations

import os
import shlex
from typing import get_args

from ..errors import SkillFileError
from .doc import SkillDoc
from .fmread import same
from .judged import JUDGED
from .yamlspan import line_column


def judge_keys(doc: SkillDoc, plan_source: str | None, enforce: str | None = None) -> None:
    """Refuse ``doc`` when it has a key of ``JUDGED`` that skillgrant did not write for the
    plan file ``plan_source`` (or that ``apply --enforce`` running ``enforce`` would not
    write). Raises SkillFileError located at the key."""
    for key, can in JUDGED.items():
        if key not in doc.metadata or not runtime_reads(key, doc.metadata[key]):
            continue
        if key == "hooks" and _written(doc, plan_source, enforce):
            continue
        line, column = _where(doc, key)
        raise SkillFileError(f"the frontmatter's {key!r} lets the skill go beyond its plan "
                             f"({can}); skillgrant refuses a skill with {key!r} it did not "
                             "write (apply --enforce writes its own hooks)", path=doc.path,
                             line=line, column=column)


#: ``hooks`` values Claude Code 2.1.332 reads as no hooks: ``if(!e.hooks)`` (JavaScript's
#: false values), and ``{}``, which its hooks schema parses to no hooks (``w3i``).
_NO_HOOKS = (None, False, "", 0)


def runtime_reads(key: str, value: object) -> bool:
    """Whether the runtime reads ``value`` (as the runtime reads the frontmatter) of the key
    ``key`` of ``JUDGED`` as hooks or an agent (review s45-freview COST): an ``agent`` that is
    not null (``e.agent!=null``), ``hooks`` that are not ``_NO_HOOKS`` nor ``{}``. (A value
    PyYAML reads as false that Bun reads otherwise, ``no``, is a string: hooks that do not
    load, and the skill then loads with no hooks.)"""
    if key == "agent":
        return value is not None
    return not (value in _NO_HOOKS or value == {})


def _written(doc: SkillDoc, plan_source: str | None, enforce: str | None) -> bool:
    """Whether ``doc``'s ``hooks`` is what ``apply --enforce`` writes (``ours``, or for the
    command ``enforce``), spelled as it writes it, once (``enforce.hook_block``: review
    s43-freview F9, a matcher spelled across CRLF lines that Bun reads otherwise)."""
    from ..gate.config import claude_hooks, earlier
    from .enforce import hook_block

    commands = ours(doc.metadata["hooks"], plan_source, doc.path)
    for run in ([enforce, earlier(enforce)] if enforce is not None else []):
        if same(doc.metadata["hooks"], claude_hooks(run + _folder(doc.path))):
            commands.append(run + _folder(doc.path))
    nl = doc.newline or "\n"
    frontmatter = nl + doc.text[doc.yaml_start:doc.yaml_end]
    return frontmatter.count(nl + "hooks:") == 1 and any(
        nl + hook_block(command, nl) in frontmatter for command in commands)


def ours(value: object, plan_source: str | None, path: str | None) -> list[str]:
    """The commands, one for each plan kind, for which ``value`` is the ``hooks`` mapping
    ``apply --enforce`` writes into the file at ``path`` for the plan file ``plan_source``."""
    if plan_source is None:
        return []
    from ..gate.config import claude_hooks, command, earlier
    from ..plan.model import PlanKind  # here: pydantic is not loaded to check a file
    found = (run + _folder(path) for kind in get_args(PlanKind)
             for made in [command("claude-code", plan_source, kind)]
             for run in (made, earlier(made)))  # (the form printed before session 48 too)
    return [c for c in found if same(value, claude_hooks(c))]


def _folder(path: str | None) -> str:
    """The ``--skill-dir`` option ``apply --enforce`` adds for the file at ``path``."""
    return "" if path is None else " " + shlex.join(
        ["--skill-dir", os.path.dirname(os.path.abspath(path))])


def _where(doc: SkillDoc, key: str) -> tuple[int, int]:
    text = doc.text
    at = text.find(f"\n{key}:", doc.yaml_start - 1, doc.yaml_end)
    return line_column(text, at + 1 if at >= 0 else doc.yaml_start)
