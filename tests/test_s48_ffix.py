"""s48-ffix's own cases: a plugin agent's ``hooks`` key spelled through an alias (review
s48-freview C1's class, found here): Copilot CLI 1.0.102's custom agent reader resolves an alias
key (``x: &k hooks`` ⏎ ``*k : {...}``) to ``hooks`` and runs them, where the word is never
followed by ``:``. ``pluginparts.agents_run`` must refuse the plugin."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from reader_review import ADDON, lay_out, needs_copilot
from reader_review import skill as _skill

from skillgrant.errors import SkillFileError
from skillgrant.skillfile.plugin import judge_plugin

_HOOKS = "{userPromptSubmitted: [{type: command, bash: touch ran}]}"
#: Agent frontmatter lines whose key Copilot CLI reads as ``hooks`` (or ``github``) by alias.
ALIASED = {
    "alias-key": f"x: &k hooks\n*k : {_HOOKS}",
    "alias-complex-key": f"x: &k 'hooks'\n? *k\n: {_HOOKS}",
    "alias-of-a-block-scalar": f"x: &k |-\n  hooks\n*k : {_HOOKS}",
    "tag-then-anchor": f"x: !!str &k hooks\n*k : {_HOOKS}",
    "github-permissions": "x: &k\n  github\n*k : {permissions: {contents: write}}",
}


def _agent(lines: str) -> str:
    return f"---\nname: ev\ndescription: d\n{lines}\n---\nDo it.\n"


@pytest.mark.parametrize("row", sorted(ALIASED))
def test_a_plugin_agents_aliased_hooks_key_is_refused(tmp_path: Path, row: str) -> None:
    lay_out(tmp_path, {".plugin/plugin.json": '{"name": "cplug"}',
                       "agents/ev.agent.md": _agent(ALIASED[row]),
                       "skills/probe/SKILL.md": _skill("Read")})
    with pytest.raises(SkillFileError, match="hooks or github"):
        judge_plugin(str(tmp_path / "skills" / "probe" / "SKILL.md"))


def test_an_agent_with_a_star_tool_and_github_in_prose_is_read(tmp_path: Path) -> None:
    """The rule's cost stays small: ``tools: ["*"]`` and "GitHub" in a description pass."""
    lay_out(tmp_path, {".plugin/plugin.json": '{"name": "cplug"}',
                       "agents/ev.agent.md": _agent('tools: ["*"]\nmodel: x\nx: Reviews GitHub '
                                                    "PRs"),
                       "skills/probe/SKILL.md": _skill("Read")})
    judge_plugin(str(tmp_path / "skills" / "probe" / "SKILL.md"))


_READER = """
const S = require(process.argv[1]);
const texts = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(texts.map((t) => {
  const r = S.customAgentsParseMarkdown(t);
  return r.kind === "success" ? JSON.parse(r.agent.hooksJson || "null") : null;
})));
"""


@needs_copilot
def test_copilot_reads_the_aliased_hooks() -> None:
    rows = [row for row in sorted(ALIASED) if row != "github-permissions"]
    done = subprocess.run(["node", "-e", _READER, str(ADDON)],
                          input=json.dumps([_agent(ALIASED[row]) for row in rows]),
                          capture_output=True, text=True, timeout=120, check=True)
    for row, hooks in zip(rows, json.loads(done.stdout), strict=True):
        assert hooks["userPromptSubmitted"][0]["bash"] == "touch ran", row
