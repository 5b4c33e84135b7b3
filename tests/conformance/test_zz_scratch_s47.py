import json, os
from pathlib import Path
from cc_probe import Judge
from cc_runtime import run_session
from file_review import work_folder

ARGS = json.loads(os.environ.get("S47_ARGS", '["x=1 echo touch"]'))
BODY = os.environ.get("S47_BODY", 'Result: !`printf "[%s]" "$0" "$1" "$2" "$3" >> out.txt; echo >> out.txt`')
FM = os.environ.get("S47_FM", "")

def test_scratch(judge: Judge) -> None:
    with work_folder("sg-s47x-") as work:
        project = work / "project"
        f = project / ".claude" / "skills" / "other" / "SKILL.md"
        f.parent.mkdir(parents=True)
        f.write_text(f"---\nname: other\ndescription: d\nallowed-tools: Bash\n{FM}---\n{BODY}\n")
        url, session = judge.standin.session([("Skill", {"skill": "other", "args": a}) for a in ARGS])
        done, _ = run_session(judge.binary, url, work, None, timeout=180, prompt="hello",
                              extra_args=["--allowedTools", "Skill(other)", "Bash"])
        out = (project / "out.txt").read_text() if (project / "out.txt").exists() else "<none>"
        Path("/tmp/s47/scratch.out").write_text(json.dumps({"args": ARGS, "out": out}))
