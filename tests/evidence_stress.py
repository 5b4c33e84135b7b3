"""1,000 decisions written to one audit log by ``skillgrant hook`` processes, 8 at a time (the
CI step .ci/steps/60-evidence.sh): the chain must hold (``skillgrant audit verify``), with one
record per decision. The calls are drawn with a fixed seed (tests/evidence_calls.py); every
third hook observes. Prints its counts; exit 1 when the chain breaks or a record is missing.

    python tests/evidence_stress.py [DECISIONS] [PROCESSES]
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evidence_calls import CWD, make_calls


def main(decisions: int = 1000, processes: int = 8) -> int:
    calls = make_calls(decisions, seed=32)
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        plan = Path(tmp) / "plan.json"
        plan.write_text(json.dumps({"allowed-tools": ["Bash(git *)", "Bash(ls *)",
                                                      f"Read(/{CWD}/**)"]}))
        log = Path(tmp) / "audit.jsonl"

        def one(i: int) -> int:
            tool, tool_input = calls[i]
            payload = {"session_id": f"stress-{i}", "cwd": CWD, "hook_event_name": "PreToolUse",
                       "tool_name": tool, "tool_input": tool_input}
            observe = ["--observe"] if i % 3 == 0 else []
            return subprocess.run([sys.executable, "-P", "-m", "skillgrant", "hook", "--plan",
                                   str(plan), "--audit-log", str(log), *observe],
                                  input=json.dumps(payload), capture_output=True, text=True,
                                  timeout=120).returncode

        with ThreadPoolExecutor(processes) as pool:
            statuses = list(pool.map(one, range(decisions)))
        verified = subprocess.run([sys.executable, "-m", "skillgrant", "audit", "verify",
                                   str(log), "--format", "json"], capture_output=True,
                                  text=True, timeout=300)
        report = json.loads(verified.stdout)["logs"][0]
        sessions = {json.loads(line)["session_id"] for line in log.read_bytes().splitlines()}
    denied = sum(s == 2 for s in statuses)
    ok = (verified.returncode == 0 and report["valid"] and report["records"] == decisions
          and len(sessions) == decisions and set(statuses) <= {0, 2})
    print(f"audit chain stress: {decisions} decisions by skillgrant hook processes, "
          f"{processes} at a time ({denied} denied, {decisions // 3 + 1} observed); "
          f"{report['records']} records, {len(report['cut_lines'])} cut lines, chain "
          f"{'holds' if report['valid'] else 'BREAKS'}; {time.monotonic() - started:.0f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:3])))
