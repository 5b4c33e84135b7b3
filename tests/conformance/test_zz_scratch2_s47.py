import json, os
from pathlib import Path
from cc_probe import Judge
from cc_runtime import run_session
from file_review import work_folder

FOLDER = os.environ.get("S47_FOLDER", "p) Bash (q")
ALLOWED = os.environ.get("S47_ALLOWED", "Bash(${CLAUDE_SKILL_DIR}/run.sh)")
SKILL = os.environ.get("S47_SKILL", "probe")

def test_scratch(judge: Judge) -> None:
    with work_folder("sg-s47y-") as work:
        project = work / "project"
        f = project / ".claude" / "skills" / FOLDER / "SKILL.md"
        f.parent.mkdir(parents=True)
        f.write_text(f"---\nname: probe\ndescription: d\nallowed-tools: {ALLOWED}\n---\nRun it.\n")
        url, session = judge.standin.session([("Skill", {"skill": SKILL}),
            ("Bash", {"command": "touch zz", "description": "p", "timeout": 5000})])
        done, rep = run_session(judge.binary, url, work, None, timeout=180, prompt="hello",
                              extra_args=["--allowedTools", "Skill"])
        res = [session.results.get(session.call_id(i)) for i in range(2)]
        Path("/tmp/s47/scratch2.out").write_text(json.dumps({"res": res, "zz": (project / "zz").exists(), "denials": rep.get("permission_denials")}, default=str))
