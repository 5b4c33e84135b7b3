"""Benchmark runner: prints ratios against baselines measured in the same run.

    python benchmarks/run.py            # all sections
    python benchmarks/run.py prover     # one section

Timings are medians of repeated runs on this machine; only the ratios travel between machines.
Nothing here is asserted: tests never time anything.
"""

from __future__ import annotations

import multiprocessing
import re
import statistics
import sys
import time
from collections.abc import Callable

import skillgrant
from skillgrant.limits import MAX_ENTRY_LENGTH, MAX_WILDCARDS_PER_PATTERN

REALISTIC = [
    ("Bash(gh pr list)", ["Bash(gh *)", "Read"]),
    ("Bash(git commit -m wip)", ["Bash(git add *)", "Bash(git commit *)"]),
    ("Bash(npm run test:*)", ["Bash(npm run *)"]),
    ("Bash(rm -rf /)", ["Bash(gh *)", "Bash(git *)"]),
    ("Bash(docker compose up -d)", ["Bash(docker compose *)", "Bash(docker ps)"]),
    ("Bash(pytest -q tests/test_x.py)", ["Bash(pytest *)", "Bash(python -m pytest *)"]),
    ("WebSearch", ["WebSearch", "Read"]),
    ("Bash(curl https://x.sh)", ["Bash(curl https://api.github.com/*)"]),
]


def _naive_covered(entry: str, approved: list[str]) -> bool:
    """The original approach, ported naively: `*` → `.*`, one compiled regex per approved
    pattern, matched against the submitted pattern's text. (Unsound, and exponential on
    hostile patterns: the baseline this project replaces.)"""
    name, _, rest = entry.partition("(")
    content = rest[:-1] if rest else ""
    for pattern in approved:
        a_name, _, a_rest = pattern.partition("(")
        if a_name.lower() != name.lower():
            continue
        if not a_rest:
            return True
        regex = re.compile("^" + ".*".join(map(re.escape, a_rest[:-1].split("*"))) + "$", re.S)
        if regex.match(content):
            return True
    return False


def _time(fn: Callable[[], object], repeat: int = 5, number: int = 1) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    return statistics.median(samples)


def _naive_in_child(entry: str, approved: list[str], conn: object) -> None:
    start = time.perf_counter()
    _naive_covered(entry, approved)
    conn.send(time.perf_counter() - start)  # type: ignore[attr-defined]


def _naive_capped(entry: str, approved: list[str], cap: float) -> tuple[float, bool]:
    """Run the naive port in a child process; kill it at ``cap`` seconds."""
    parent, child = multiprocessing.Pipe()
    process = multiprocessing.Process(target=_naive_in_child, args=(entry, approved, child))
    process.start()
    process.join(cap)
    if process.is_alive():
        process.kill()
        process.join()
        return cap, True
    return float(parent.recv()), False


def section_prover() -> None:
    print("## 1. prover vs naive regex port, realistic pairs")
    number = 200

    def ours() -> None:
        for entry, approved in REALISTIC:
            skillgrant.prove(entry, approved)

    def naive() -> None:
        for entry, approved in REALISTIC:
            _naive_covered(entry, approved)

    t_ours = _time(ours, number=number) / len(REALISTIC)
    t_naive = _time(naive, number=number) / len(REALISTIC)
    print(f"skillgrant.prove   {1 / t_ours:12,.0f} decisions/s")
    print(f"naive regex port   {1 / t_naive:12,.0f} decisions/s")
    print(f"ratio (naive time / ours): {t_naive / t_ours:.2f}x")


def _hostile_compound(n_approved: int) -> tuple[str, list[str]]:
    """~1,600 `&&`-joined parts, each covered only by `Bash(a*)`, against maximal-length
    approved patterns that every part is tried against (hits MAX_WORK_PER_DECISION)."""
    long_ones = [f"Bash(a{'x' * (MAX_ENTRY_LENGTH - 30)}*{i})" for i in range(n_approved - 1)]
    parts = " && ".join(f"a{i}" for i in range(2000))[: MAX_ENTRY_LENGTH - 10]
    return f"Bash({parts[: parts.rindex(' &&')]})", [*long_ones, "Bash(a*)"]


def section_adversarial(cap: float = 5.0) -> None:
    print(f"\n## 2. adversarial patterns (naive port capped at {cap:.0f} s)")
    n = 30
    hostile_approved = ["Bash(" + "a*" * n + "b)"]
    hostile_entry = "Bash(" + "a" * (n * 3) + ")"
    rows = [
        ("many wildcards vs long literal", hostile_entry, hostile_approved),
        ("1 MB entry", "Bash(" + "a" * 1_000_000 + ")", ["Bash(a*b)"]),
        (f"{MAX_WILDCARDS_PER_PATTERN} wildcards (at the limit)",
         "Bash(" + "x*" * MAX_WILDCARDS_PER_PATTERN + ")", ["Bash(" + "x*y" * 100 + ")"]),
        ("2,000 wildcards", "Bash(" + "a*" * 2000 + "b)", ["Bash(" + "a*" * 100 + "c)"]),
        ("compound of ~1,600 parts vs 256 long", *_hostile_compound(256)),
    ]
    for label, entry, approved in rows:
        t_ours = _time(lambda e=entry, a=approved: skillgrant.prove(e, a), repeat=3)  # type: ignore[misc]
        verdict = skillgrant.prove(entry, approved)
        t_naive, capped = _naive_capped(entry, approved, cap)
        naive = f">{cap:.0f} s (capped)" if capped else f"{t_naive * 1000:.2f} ms"
        print(f"{label:34} ours {t_ours * 1000:8.2f} ms ({verdict.status:11}) "
              f"naive {naive:>16}  ratio {'≥' if capped else ''}{t_naive / t_ours:,.0f}x")
    print(f"(limits: MAX_ENTRY_LENGTH={MAX_ENTRY_LENGTH}, "
          f"MAX_WILDCARDS_PER_PATTERN={MAX_WILDCARDS_PER_PATTERN})")


def _wall(argv: list[str], repeat: int = 7, env: dict[str, str] | None = None) -> float:
    """Median wall time of a command run ``repeat`` times (after one warm-up run)."""
    import subprocess

    subprocess.run(argv, capture_output=True, env=env, check=False)
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(argv, capture_output=True, env=env, check=False)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def _find_agentskills() -> str | None:
    import os
    import shutil

    return os.environ.get("AGENTSKILLS") or shutil.which("agentskills")


def section_startup() -> None:
    import os
    import shutil
    import tempfile
    from pathlib import Path

    print("\n## 3. cold start: `skillgrant check` on one skill")
    root = Path(__file__).resolve().parent.parent
    sample = root / "samples" / "gh-triage"
    with tempfile.TemporaryDirectory() as tmp:
        skill = Path(tmp) / "gh-triage"
        skill.mkdir()
        shutil.copy(sample / "SKILL.md", skill / "SKILL.md")
        ours = [sys.executable, "-m", "skillgrant", "check", str(skill / "SKILL.md"),
                "--plan", str(sample / "plan.yaml")]
        script = shutil.which("skillgrant")
        if script:
            ours = [script, *ours[3:]]
        t_ours = _wall(ours)
        t_pass = _wall([sys.executable, "-c", "pass"])
        print(f"skillgrant check            {t_ours * 1000:8.1f} ms")
        print(f"python -c pass              {t_pass * 1000:8.1f} ms   "
              f"ratio {t_ours / t_pass:.2f}x")
        validator = _find_agentskills()
        if validator is None:
            print("agentskills validate            (not installed: pip install skills-ref, "
                  "or set AGENTSKILLS=/path/to/agentskills)")
            return
        t_ref = _wall([validator, "validate", str(skill)])
        print(f"agentskills validate        {t_ref * 1000:8.1f} ms   "
              f"ratio ours/theirs {t_ours / t_ref:.2f}x (target ≤ 1.00x)")
        del os


_SKILL_TEMPLATE = """---
name: skill-{i}
description: Generated skill number {i} for the batch benchmark.
allowed-tools: Bash(gh pr view {i}), Bash(gh issue list --label l{m} *), Read, Bash(rm -rf /tmp/{i})
---

# Skill {i}

Run `gh pr view {i}` and summarise it.
"""


def _generate(root: object, count: int) -> None:
    from pathlib import Path

    base = Path(str(root))
    for i in range(count):
        folder = base / f"s{i // 1000:03d}" / f"skill-{i}"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(_SKILL_TEMPLATE.format(i=i, m=i % 7), encoding="utf-8")


def _batch_run(argv: list[str]) -> tuple[float, int]:
    """Wall time and peak RSS (KiB) of one child process."""
    import os
    import subprocess

    start = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(process.pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss


def section_batch(sizes: tuple[int, ...] = (1_000, 10_000, 100_000)) -> None:
    import tempfile
    from pathlib import Path

    print("\n## 4. batch `check` over generated skills (files/s, peak memory)")
    with tempfile.TemporaryDirectory() as tmp:
        plan = Path(tmp) / "plan.yaml"
        plan.write_text("allowed-tools:\n  - Bash(gh *)\n  - Read\n", encoding="utf-8")
        base_rate = None
        for count in sizes:
            root = Path(tmp) / f"n{count}"
            _generate(root, count)
            for jobs in (1, 2):
                argv = [sys.executable, "-m", "skillgrant", "check", str(root), "--plan",
                        str(plan), "--format", "json"]
                if jobs > 1:
                    argv += ["--jobs", str(jobs)]
                elapsed, peak = _batch_run(argv)
                rate = count / elapsed
                if jobs == 1 and base_rate is None:
                    base_rate = rate
                print(f"{count:>7} files  jobs={jobs}  {elapsed:7.2f} s  {rate:9,.0f} files/s  "
                      f"peak {peak / 1024:7.1f} MiB")


SECTIONS = {
    "prover": section_prover,
    "adversarial": section_adversarial,
    "startup": section_startup,
    "batch": section_batch,
}


def main(argv: list[str]) -> None:
    import platform

    print(f"# skillgrant {skillgrant.__version__} benchmarks on {platform.machine()}, "
          f"Python {platform.python_version()}, {multiprocessing.cpu_count()} cores\n")
    for name in argv or list(SECTIONS):
        SECTIONS[name]()


if __name__ == "__main__":
    main(sys.argv[1:])
