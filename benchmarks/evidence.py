"""The ``evidence`` section of benchmarks/run.py: ``suggest`` and ``replay`` over generated audit
logs of two sizes (10,000 and 100,000 calls by default), each with its time and calls per
second, and the ratio of the per-call times (1.0: linear in the log's size). Baselines measured
in the same run: reading the log's lines as JSON, and ``check_call`` on every call against a
plan compiled once (what replay must do at least).
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from evidence_calls import audit_lines, make_calls  # noqa: E402

from skillgrant.evidence.read import read_evidence  # noqa: E402
from skillgrant.evidence.replay import replay  # noqa: E402
from skillgrant.evidence.suggest import suggest  # noqa: E402
from skillgrant.gate.call import check_call  # noqa: E402
from skillgrant.gate.verdict import call_plan  # noqa: E402
from skillgrant.reports.suggest import plan_text  # noqa: E402


def _median(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _measure(size: int, tmp: Path) -> tuple[str, float, float, float]:
    """One size: its table row, and suggest's, replay's and the baseline's time per call."""
    calls = make_calls(size, 0)
    log = tmp / f"audit-{size}.jsonl"
    log.write_text(audit_lines(calls))
    repeat = 3 if size <= 10_000 else 1
    t_read = _median(lambda: [json.loads(x) for x in log.read_bytes().splitlines()], repeat)
    found = suggest(read_evidence([str(log)]), "command")
    t_suggest = _median(lambda: suggest(read_evidence([str(log)]), "command"), repeat)
    plan = tmp / f"plan-{size}.yaml"
    plan.write_text(plan_text(found, [str(log)]))
    t_replay = _median(lambda: replay(read_evidence([str(log)]), str(plan)), repeat)
    compiled = call_plan(found.entries)

    def every_call() -> None:
        for tool, tool_input in calls:
            check_call(tool, tool_input, compiled, cwd="/w/project")

    t_check = _median(every_call, repeat)
    row = (f"| {size:,} | {found.distinct:,} | {len(found.entries)} | {t_read:.2f} s | "
           f"{t_suggest:.2f} s | {size / t_suggest:,.0f} | {t_replay:.2f} s | "
           f"{size / t_replay:,.0f} | {t_check:.2f} s | {t_suggest / t_check:.2f}x | "
           f"{t_replay / t_check:.2f}x |")
    return row, t_suggest / size, t_replay / size, t_check / size


def section_evidence(sizes: Sequence[int] = (10_000, 100_000)) -> None:
    print("\n## 8. plans from evidence (suggest, replay)\n")
    print("Generated audit logs (tests/evidence_calls.py, seed 0): shell commands with "
          "subcommands, redirections, reads, writes, searches, fetches, an MCP tool, and "
          "calls the gate does not understand. `suggest` at `--generalize command` reads the "
          "log and suggests; `replay` reads it and decides every call under the suggested plan "
          "against the logged decisions.\n")
    print("| calls | distinct | entries | read (JSON lines) | suggest | calls/s | replay | "
          "calls/s | baseline: `check_call` each, plan compiled once | suggest / baseline | "
          "replay / baseline |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    per_call: dict[str, list[float]] = {"suggest": [], "replay": [], "baseline": []}
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            row, t_suggest, t_replay, t_check = _measure(size, Path(tmp))
            per_call["suggest"].append(t_suggest)
            per_call["replay"].append(t_replay)
            per_call["baseline"].append(t_check)
            print(row)
    if len(sizes) >= 2:
        def growth(name: str) -> float:
            return per_call[name][-1] / per_call[name][0]

        print(f"\nper-call time at {sizes[-1]:,} calls over {sizes[0]:,} (1.0 is linear; "
              f"target ≤ 1.5): suggest {growth('suggest'):.2f}, replay {growth('replay'):.2f}, "
              f"the baseline {growth('baseline'):.2f}")
