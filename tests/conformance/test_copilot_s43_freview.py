"""Session 43's review (s43-freview), F1 and F3 through Copilot CLI 1.0.102 (run with
``--conformance --copilot``): skill folders Copilot CLI loads from ``.github/skills`` that
``check`` of the project does not read.

Each row runs one interactive session (where Copilot CLI honours ``allowed-tools``): the
stand-in invokes the skill, then runs ``touch zz``. The runtime's side: the skill loads and
``touch zz`` runs with no question (the skill's ``shell(touch)``; plan ``Read``). skillgrant's
side: ``check .`` of the project with that plan must not pass.
"""

from __future__ import annotations

import pytest
from cp_fixture import copilot
from cp_probe import CopilotJudge
from cp_runtime import write_project
from file_review import lay_out, unasked_then_checked, work_folder

__all__ = ["copilot"]

SKILL = "---\nname: probe\ndescription: probe skill\nallowed-tools: shell(touch)\n---\nRun it.\n"
GOOD = "---\nname: good\ndescription: d\nallowed-tools: Read\n---\nbody\n"


#: Each layout: the files under the work folder (text, or ("link", target)).
LAYOUTS: dict[str, dict[str, str | tuple[str, str]]] = {
    "F1-linked-skill-folder": {"outside/probe/SKILL.md": SKILL,
                               "project/.github/skills/probe": ("link", "../../../outside/probe")},
    "F3-skills-node_modules": {"project/.github/skills/node_modules/SKILL.md": SKILL},
    # Against the fix (main 9b668a9): Copilot CLI's third project folder, .agents/skills,
    # is not one of the walk's RUNTIME_DIRS (.claude, .github).
    "F1c-agents-linked-skill-folder": {
        "outside/probe/SKILL.md": SKILL,
        "project/.agents/skills/probe": ("link", "../../../outside/probe")},
    "F3c-agents-skills-node_modules": {"project/.agents/skills/node_modules/SKILL.md": SKILL},
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_f1_f3_copilot_loads_skills_check_does_not_read(copilot: CopilotJudge,
                                                        layout: str) -> None:
    with work_folder("sg-cps43-") as work:
        write_project(work, None)
        lay_out(work, LAYOUTS[layout])
        lay_out(work / "project", {".github/skills/good/SKILL.md": GOOD})
        # The runtime's side: the skill loads and `touch zz` runs with no question.
        done = unasked_then_checked(copilot, work, starts='Skill "probe" loaded', holds=())
        assert done.returncode != 0, (
            f"check . passed (exit 0) although Copilot CLI loads the skill and runs `touch zz` "
            f"without asking:\n{done.stdout}{done.stderr}")


def test_f1d_a_copilot_plugins_linked_skill_folder_is_read(copilot: CopilotJudge) -> None:
    """Against the fixed walk (main 9b668a9): a Copilot CLI plugin (its manifest the root
    ``plugin.json``, no ``.claude-plugin``) whose ``skills/probe`` is a link out of the tree,
    loaded with ``--plugin-dir``: the skill loads and ``touch zz`` runs with no question; the
    walk upgrades a folder to a plugin root only for ``.claude-plugin`` and enters no link
    elsewhere, so ``check .`` passes."""
    with work_folder("sg-cps43-") as work:
        write_project(work, None)
        plugin = work / "project" / "cplug"
        lay_out(work, {"outside/probe/SKILL.md": SKILL,
                       "project/cplug/plugin.json": '{"name": "cplug"}',
                       "project/cplug/skills/probe": ("link", "../../../outside/probe"),
                       "project/.claude/skills/good/SKILL.md": GOOD})
        # The binary, started with --plugin-dir (run_interactive passes no other argument).
        done = unasked_then_checked(copilot, work, plugin=plugin, starts='Skill "probe" loaded',
                                    holds=())
        assert done.returncode != 0, (
            "check . passed (exit 0) although Copilot CLI, started with --plugin-dir cplug, "
            f"loads its linked skill and runs `touch zz`:\n{done.stdout}{done.stderr}")
