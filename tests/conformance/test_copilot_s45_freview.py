"""Session 45's review (s45-freview) through Copilot CLI 1.0.102 (run with ``--conformance
--copilot``): skills ``apply`` writes (or keeps) that Copilot CLI reads with more grants than
the plan.

Each row runs ``apply --plan`` on the project, then one interactive session (where Copilot CLI
honours ``allowed-tools``) with the file as ``apply`` left it: the stand-in invokes the skill,
then runs ``touch zz``. Under the plan's own file (P) that call is put to the person; under the
applied file (A) it must be too. Each failed before the fix (da72091: such a value is refused).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from cp_fixture import copilot
from cp_probe import CopilotJudge
from cp_runtime import PINNED_VERSION, package_cache, run_interactive, write_project

from skillgrant import SkillFileError
from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_text

__all__ = ["copilot"]

HOLES: dict[str, str] = {}  # (F8: closed by s45-ffix, check DIR walks skillDirectories)

#: Each row: the submitted allowed-tools value and the plan.
ROWS = {
    "F1-read-then-bash": ("Read(x, Bash(touch:*)", "Read"),
    "F1-read-path-then-shell": ("Read(//usr/**, shell(touch)", "Read(//usr/**)"),
    # as written Copilot reads Bash(echo:*) only; apply's rewrite leaves Read(x, Bash(touch:*)
    "F1-rewrite-makes-it": ("Bash(echo:*), Read(x, Bash(touch:*)", "Read"),
}


def _apply(work: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "skillgrant", "apply", "--plan",
                           str(work / "plan.yaml"), "."], cwd=work / "project",
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"})


@pytest.mark.parametrize("row", sorted(ROWS))
def test_f1_an_applied_skill_copilot_splits_otherwise(copilot: CopilotJudge, row: str) -> None:
    value, plan = ROWS[row]
    work = Path(tempfile.mkdtemp(prefix="sg-cps45-", dir="/var/tmp"))
    try:
        write_project(work, f"---\nname: probe\ndescription: probe skill\nallowed-tools: "
                            f"{value}\n---\nRun it.\n")
        (work / "plan.yaml").write_text(f"allowed-tools: {plan}\n")
        done = _apply(work)
        if done.returncode != 0:
            return  # refused: sound
        applied = (work / "project" / ".github" / "skills" / "probe" / "SKILL.md").read_text()
        calls = [("skill", {"skill": "probe"}),
                 ("bash", {"command": "touch zz", "description": "probe", "initial_wait": 5})]
        url, played = copilot.standin.session(calls)
        shown = run_interactive(copilot.binary, url, played, work)
        loaded = played.results.get(played.call_id(0), (True, ""))[1]
        assert "probe" in loaded, (loaded, shown.screen[-600:])
        ran = 1 not in shown.asked and (work / "project" / "zz").exists()
        assert not ran, (f"apply --plan {plan!r} left allowed-tools as {applied!r}, and Copilot "
                         "CLI ran `touch zz` with no question (the plan's file asks)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


#: Copilot CLI's own skill reader, in process: the native addon its binary unpacks
#: (``skillsParseSkillFile`` gives a skill's ``allowedTools`` as the session takes them,
#: ``configLoaderParseAllowedToolsItems`` the rules they approve). Milliseconds a file.
_READER = """
const S = require(process.argv[1]);
const fs = require("fs"), path = require("path"), os = require("os");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-cpr-"));
(async () => {
  const out = [];
  for (const [i, text] of JSON.parse(fs.readFileSync(0, "utf8")).entries()) {
    const file = path.join(dir, String(i), "probe", "SKILL.md");
    fs.mkdirSync(path.dirname(file), {recursive: true});
    fs.writeFileSync(file, text);
    const got = await S.skillsParseSkillFile(file, "project");
    const items = got.kind === "success" ? (got.value.allowedTools || []) : [];
    out.push(items.length ? JSON.parse(S.configLoaderParseAllowedToolsItems(items)).rules : []);
  }
  fs.rmSync(dir, {recursive: true, force: true});
  process.stdout.write(JSON.stringify(out));
})();
"""


def copilot_rules(texts: list[str]) -> list[set[str]]:
    """The rules Copilot CLI 1.0.102 approves for each SKILL.md text, read by its own parser."""
    addon = (package_cache() / "pkg" / "linux-x64" / PINNED_VERSION / "prebuilds" / "linux-x64"
             / "runtime.node")
    if shutil.which("node") is None or not addon.is_file():
        pytest.fail(f"Copilot CLI's reader needs node and {addon} (cp_runtime.py install)")
    done = subprocess.run(["node", "-e", _READER, str(addon)], input=json.dumps(texts),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return [{json.dumps(rule, sort_keys=True) for rule in rules}
            for rules in json.loads(done.stdout)]


def _skill(value: str) -> str:
    return f"---\nname: probe\ndescription: d\nallowed-tools: {value}\n---\nbody\n"


#: F1's values and plans (tests/test_s45_freview.py's, with list, quoted and block forms).
F1_READER = {
    "read-then-bash": ("Read(x, Bash(rm:*)", ["Read"]),
    "read-path-then-bash": ("Read(//usr/**, Bash(rm:*)", ["Read(//usr/**)"]),
    "read-then-shell": ("Read(docs/**, shell(touch)", ["Read"]),
    "write-then-bash": ("Write(a, Bash(echo:*)", ["Edit"]),
    "webfetch-then-bash": ("WebFetch(domain:a.com, Bash(rm:*)", ["WebFetch"]),
    "grep-then-bash": ("Grep(x, Bash(rm:*)", ["Grep"]),
    "list-item": ("\n  - Read(x, Bash(touch:*)", ["Read"]),
    # As written, Copilot reads Bash(echo:*) only (a comma outside parentheses: no fallback);
    # apply drops Bash(echo:*) and leaves the one unbalanced entry, which it cuts at the comma.
    "rewrite-makes-it": ("Bash(echo:*), Read(x, Bash(rm:*)", ["Read"]),
    "single-quoted": ("'Read(x, Bash(touch:*)'", ["Read"]),
    "folded-block": (">-\n  Read(x, Bash(touch:*)", ["Read"]),
}


def test_f1_copilots_own_reader_of_the_applied_file_finds_no_rule_the_plan_lacks() -> None:
    """A against P under Copilot CLI's own parser (no session): every rule it approves for the
    file ``apply`` wrote must be one it approves for the plan's own file."""
    rows, applied, plans = sorted(F1_READER), [], []
    for row in rows:
        value, plan = F1_READER[row]
        try:
            applied.append(apply_to_text(_skill(value), Plan.from_entries(plan))[0])
        except SkillFileError:
            applied.append(_skill("Read"))  # refused: nothing is written
        plans.append(_skill("[" + ", ".join(json.dumps(e) for e in plan) + "]"))
    ruled = copilot_rules(applied + plans)
    wider = {row: sorted(a - p) for row, a, p in zip(rows, ruled[:len(rows)],
                                                      ruled[len(rows):], strict=True) if a - p}
    assert not wider, f"Copilot CLI approves rules the plan's file does not: {wider}"



def test_f8_copilot_loads_a_skill_from_settings_skill_directories(copilot: CopilotJudge) -> None:
    work = Path(tempfile.mkdtemp(prefix="sg-cps45-", dir="/var/tmp"))
    try:
        write_project(work, None)
        project = work / "project"
        hidden = project / "node_modules" / "pkg" / "skills" / "probe"
        hidden.mkdir(parents=True)
        (hidden / "SKILL.md").write_text("---\nname: probe\ndescription: probe skill\n"
                                         "allowed-tools: shell(touch)\n---\nRun it.\n")
        good = project / ".github" / "skills" / "good"
        good.mkdir(parents=True)
        (good / "SKILL.md").write_text("---\nname: good\ndescription: d\nallowed-tools: Read\n"
                                       "---\nbody\n")
        (project / ".github" / "copilot").mkdir()
        (project / ".github" / "copilot" / "settings.json").write_text(
            json.dumps({"skillDirectories": ["node_modules/pkg/skills"]}))
        calls = [("skill", {"skill": "probe"}),
                 ("bash", {"command": "touch zz", "description": "probe", "initial_wait": 5})]
        url, played = copilot.standin.session(calls)
        shown = run_interactive(copilot.binary, url, played, work)
        loaded = played.results.get(played.call_id(0), (True, ""))[1]
        # The runtime's side: the skill loads from node_modules and touch zz runs unasked.
        assert "loaded" in loaded, (loaded, shown.screen[-600:])
        assert 1 not in shown.asked and (project / "zz").exists(), shown.asked
        (work / "plan.yaml").write_text("allowed-tools: Read\n")
        done = subprocess.run([sys.executable, "-m", "skillgrant", "check", "--plan",
                               str(work / "plan.yaml"), "."], cwd=project,
                              capture_output=True, text=True, timeout=120,
                              env={**os.environ, "NO_COLOR": "1"}, stdin=subprocess.DEVNULL)
        assert done.returncode != 0, (
            "check . passed; Copilot CLI loaded node_modules/pkg/skills/probe/SKILL.md from "
            f"skillDirectories and ran touch zz:\n{done.stdout}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
