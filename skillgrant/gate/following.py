"""At run time, the skill's own hook lets the main agent start a subagent only while the hook
that follows the skill into its subagents runs in this session (review R-4, R-5).

``apply --enforce`` checks, for a plan that grants ``Agent``/``Task``/``Skill``, that a settings
file runs the hook that follows the skill (``gate.subagents``). But it cannot know where the
session will start: Claude Code 2.1.332 finds skills in ``.claude/skills`` of the working
directory's parents and of nested folders it discovers, while it reads project settings only
from the folder it was started in (measured: tests/conformance/test_subagents_e2e.py). So the
skill's own hook (``--skill-dir``, what ``apply --enforce`` writes), which sees every call the
main agent makes while the skill is active, judges each ``Agent``, ``Task`` and ``Skill`` call
the plan covers once more: it is covered only when the settings Claude Code reads in this
session run the following hook, and nothing in them switches hooks off, by the same test as
``apply --enforce`` (``subagents.follow_hook``), keyed on the session's folder: the payload's
``cwd`` and, when the runtime gives it, ``CLAUDE_PROJECT_DIR`` (each must pass).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from .options import AGENT_TOOLS, project_folder
from .verdict import CallVerdict

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from .dialects import Call


def followed(verdict: CallVerdict, call: Call,
             option: Callable[[str], str | None]) -> CallVerdict:
    """``verdict`` for ``call`` as judged by the hook whose options ``option`` reads, or, for a
    covered ``Agent``/``Task``/``Skill`` call under a skill's own hook (``--skill-dir``, no
    ``--for-skill``) in Claude Code, ``unknown`` when the session does not run the hook that
    follows the skill into its subagents. A subagent's call is checked too (a subagent may
    load the skill)."""
    skill_dir = option("--skill-dir")
    if not verdict.covered or call.tool not in AGENT_TOOLS or \
            skill_dir is None or option("--for-skill") is not None or \
            call.dialect != "claude-code":
        return verdict
    from .subagents import follow_hook, session_files

    skill_path = os.path.join(os.path.abspath(skill_dir), "SKILL.md")
    folders = [f for f in (project_folder(option), call.cwd) if f]
    problem = "the session's folder is not known" if not folders else None
    name = _skill_name(skill_path)
    if name is None:
        problem, folders = f"{skill_path} cannot be read", []
    for folder in folders if problem is None else ():
        found, why = follow_hook(name or "", skill_path, option("--plan"),
                                 option("--plan-kind") or "auto", session_files(folder),
                                 option("--plan-sha256"))
        if found is None:
            problem = f"in a session started in {folder}: {why}"
            break
    if problem is None:
        return verdict
    return CallVerdict(
        "unknown", f"a subagent would run unjudged: the hook that follows the skill into its "
        f"subagents (`skillgrant hook --print-config claude-code --for-skill {name or 'NAME'}`)"
        f" does not run here ({problem})", verdict.runtime_tool, verdict.tool,
        witness=verdict.runtime_tool)


def _skill_name(skill_path: str) -> str | None:
    """The skill's name as ``apply --enforce`` reads it: its frontmatter's ``name``, else its
    folder's; None when the file cannot be read."""
    from ..errors import SkillgrantError
    from ..skillfile.spans import read_skill

    try:
        with open(skill_path, encoding="utf-8") as handle:
            doc = read_skill(handle.read(), skill_path)
    except (OSError, ValueError, SkillgrantError):
        return None
    name = doc.metadata.get("name")
    return name if isinstance(name, str) and name else os.path.basename(
        os.path.dirname(skill_path))
