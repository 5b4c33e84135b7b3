"""What the reviews of the SKILL.md reader (tests/test_s4*_freview*.py) share: the probe skill's
text, ``apply --enforce``'s refusal, and the runtimes' own readers run on a batch of texts (Bun
1.4.5's ``Bun.YAML.parse``; Copilot CLI 1.0.102's native skill parser, in process under node).
A runtime's reading written in a review was measured with these; its pin test is skipped where
the runtime is not installed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from skillgrant.errors import SkillFileError
from skillgrant.gate.call import check_call
from skillgrant.gate.verdict import CallVerdict
from skillgrant.plan import Plan
from skillgrant.skillfile import apply_to_text

#: The hook command ``apply --enforce`` writes, and the skill's path it is told.
ENFORCE = "/usr/bin/skillgrant hook --plan /p/plan.json"
SKILL_PATH = "/nonexistent/.claude/skills/probe/SKILL.md"
ECHO = "Bash(echo *)"

BUN = Path.home() / ".cache" / "skillgrant-runtime" / "bun-1.4.5" / "package" / "bin" / "bun"
needs_bun = pytest.mark.skipif(not BUN.exists(), reason="Bun 1.4.5 is not installed (tests/oracle)")

ADDON = (Path.home() / ".cache" / "skillgrant-runtime" / "copilot-1.0.102" / "pkg-cache" / "pkg"
         / "linux-x64" / "1.0.102" / "prebuilds" / "linux-x64" / "runtime.node")
needs_copilot = pytest.mark.skipif(shutil.which("node") is None or not ADDON.is_file(),
                                   reason="Copilot CLI 1.0.102's runtime.node is not installed")


def skill(value: str, extra: str = "") -> str:
    """The probe skill whose ``allowed-tools`` is ``value``, ``extra`` lines after it."""
    extra = f"{extra}\n" if extra else ""
    return f"---\nname: probe\ndescription: d\nallowed-tools: {value}\n{extra}---\nbody\n"


def lay_out(root: Path, files: Mapping[str, str | tuple[str, str]]) -> None:
    """Write ``files`` (path under ``root``: text, or ("link", target) for a symbolic link)."""
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, tuple):
            path.symlink_to(data[1])
        else:
            path.write_text(data)


def past_claude_code(lines: str) -> str:
    """The probe skill with ``lines`` past Claude Code's frontmatter, which ends inside
    ``a---b`` (Copilot CLI reads on to the closing ``---`` line)."""
    return f"---\nname: probe\ndescription: a---b\n{lines}\n---\nbody\n"


def enforce_refuses(lines: str, errors: tuple[type[Exception], ...] = (
        SkillFileError, ValueError)) -> None:
    """``apply --enforce`` (plan ``Bash(echo *)``) must refuse the probe skill holding
    ``lines``: the ceiling it promises would never run."""
    with pytest.raises(errors):
        apply_to_text(skill(ECHO, lines), Plan.from_entries([ECHO]), enforce=ENFORCE,
                      path=SKILL_PATH)


def skill_call(root: Path, text: str, args: str) -> CallVerdict:
    """The gate's answer (``check_call`` from ``root``) to ``Skill(other, args=ARGS)`` under the
    plan ``Skill(other)``, ``Bash(echo *)``, ``text`` being the project's skill ``other``."""
    where = root / ".claude" / "skills" / "other" / "SKILL.md"
    where.parent.mkdir(parents=True, exist_ok=True)
    where.write_text(text, encoding="utf-8")
    return check_call("Skill", {"skill": "other", "args": args}, ["Skill(other)", ECHO],
                      cwd=str(root))


def check(project: Path, plan: Path | str, *paths: str) -> subprocess.CompletedProcess[str]:
    """``skillgrant check --plan PLAN PATHS`` run in ``project``."""
    return run("check", project, plan, *paths)


def run(command: str, project: Path, plan: Path | str,
        *paths: str) -> subprocess.CompletedProcess[str]:
    """``skillgrant COMMAND --plan PLAN PATHS`` run in ``project``, no input, no colour."""
    return subprocess.run([sys.executable, "-m", "skillgrant", command, "--plan", str(plan),
                           *paths], cwd=project, capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL, env={**os.environ, "NO_COLOR": "1"})


def bun_parse(texts: list[str]) -> list[object]:
    """``Bun.YAML.parse`` of each text, by the pinned Bun."""
    script = ('const t=JSON.parse(require("fs").readFileSync(0,"utf8"));'
              'console.log(JSON.stringify(t.map((s)=>Bun.YAML.parse(s))))')
    done = subprocess.run([str(BUN), "-e", script], input=json.dumps(texts),
                          capture_output=True, text=True, timeout=60, check=True)
    out: list[object] = json.loads(done.stdout)
    return out


#: Copilot CLI's own skill reader: each text written as a project skill, then
#: ``skillsParseSkillFile`` (the ``allowedTools`` a session takes, null where the file is not
#: loaded) or, with ``rules``, ``configLoaderParseAllowedToolsItems`` (the rules they approve).
_COPILOT = """
const S = require(process.argv[1]);
const rules = process.argv[2] === "rules";
const fs = require("fs"), path = require("path"), os = require("os");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-review-"));
(async () => {
  const out = [];
  for (const [i, text] of JSON.parse(fs.readFileSync(0, "utf8")).entries()) {
    const file = path.join(dir, String(i), "probe", "SKILL.md");
    fs.mkdirSync(path.dirname(file), {recursive: true});
    fs.writeFileSync(file, text);
    const got = await S.skillsParseSkillFile(file, "project");
    if (!rules) {
      out.push(got.kind === "success" ? (got.value.allowedTools || []) : null);
      continue;
    }
    const items = got.kind === "success" ? (got.value.allowedTools || []) : [];
    out.push(items.length ? JSON.parse(S.configLoaderParseAllowedToolsItems(items)).rules : []);
  }
  fs.rmSync(dir, {recursive: true, force: true});
  process.stdout.write(JSON.stringify(out));
})();
"""


def _copilot(texts: list[str], mode: str, addon: Path, timeout: float) -> Any:
    done = subprocess.run(["node", "-e", _COPILOT, str(addon), mode], input=json.dumps(texts),
                          capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def copilot_allowed(texts: list[str], addon: Path = ADDON) -> list[list[str] | None]:
    """The ``allowedTools`` Copilot CLI 1.0.102 takes from each SKILL.md text (None: the file
    is not loaded)."""
    out: list[list[str] | None] = _copilot(texts, "allowed", addon, 300)
    return out


def copilot_rules(texts: list[str], addon: Path = ADDON,
                  timeout: float = 300) -> list[list[dict[str, object]]]:
    """The rules Copilot CLI 1.0.102 approves for each SKILL.md text, read by its own parser."""
    out: list[list[dict[str, object]]] = _copilot(texts, "rules", addon, timeout)
    return out
