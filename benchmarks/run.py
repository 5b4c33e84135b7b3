"""Benchmark runner: prints ratios against baselines measured in the same run.

    python benchmarks/run.py                     # all sections
    python benchmarks/run.py prover startup      # some sections
    python benchmarks/run.py batch --sizes 1000,10000

Sections: ``prover`` (decisions per second against a naive regex port), ``adversarial`` (hostile
patterns against the same port, capped), ``startup`` (a cold ``skillgrant check`` against
``python -c pass`` and the Agent Skills reference validator), ``batch`` (``check`` over 1,000 /
10,000 / 100,000 generated skills: files per second and peak memory, with ``--jobs``), ``json``
(each JSON writer of ``reports.escape.JSON_WRITERS`` on the file objects of a generated batch),
``gate`` (``check_call`` per call, and the ``skillgrant hook`` process against ``python -c
pass``), ``serve`` (10,000 hook requests to ``skillgrant serve`` at 1, 8 and 64 clients, beside
the ``skillgrant hook`` process on the same payloads), ``evidence`` (``suggest`` and ``replay``
over generated audit logs of 10,000 and 100,000 calls: time, calls per second, linearity).

Timings are medians of repeated runs on this machine; only the ratios travel between machines.
Nothing here is asserted: tests never time anything. Child processes run without
PYTHONDONTWRITEBYTECODE, so their first (warm-up) run leaves the bytecode an installed package
has. Set AGENTSKILLS=/path/to/agentskills when the validator (PyPI ``skills-ref``) is not on PATH.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import skillgrant
from skillgrant.limits import MAX_ENTRY_LENGTH, MAX_WILDCARDS_PER_PATTERN
from skillgrant.prepared import clear_caches

ROOT = Path(__file__).resolve().parent.parent

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


def _distinct(count: int) -> list[tuple[str, list[str]]]:
    """``count`` realistic pairs whose submitted entries all differ (the same plans as
    REALISTIC): nothing is decided twice, so no cache of ours helps."""
    pairs = []
    for i in range(count):
        entry, approved = REALISTIC[i % len(REALISTIC)]
        name, _, rest = entry.partition("(")
        varied = f"{name}({rest[:-1]} {i})" if rest else f"{name}(q{i})"
        pairs.append((varied, approved))
    return pairs


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


def _median_time(fn: Callable[[], object], repeat: int = 5,
                 setup: Callable[[], object] | None = None) -> float:
    samples = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def _paired_medians(ours: Callable[[], object], theirs: Callable[[], object], repeat: int = 9,
                    setup: Callable[[], object] | None = None) -> tuple[float, float]:
    """The median times of ``ours`` and ``theirs``, run in turns (ours, theirs, ours, ...), so
    that a slower spell of a shared machine weighs on both alike; ``setup`` runs before each
    of ours, untimed."""
    mine: list[float] = []
    other: list[float] = []
    for _ in range(repeat):
        if setup is not None:
            setup()
        start = time.perf_counter()
        ours()
        mine.append(time.perf_counter() - start)
        start = time.perf_counter()
        theirs()
        other.append(time.perf_counter() - start)
    return statistics.median(mine), statistics.median(other)


def _rate_row(label: str, ours: float, naive: float, target: str) -> None:
    ratio = naive / ours
    print(f"| {label} | {1 / ours:,.0f} | {1 / naive:,.0f} | {ratio:.2f}x | {target} |")


def section_prover() -> None:
    print("## 1. prover vs naive regex port, realistic pairs (decisions/s)\n")
    print("| pairs | skillgrant.prove | naive port | ratio (naive time / ours) | target |")
    print("|---|---:|---:|---:|---|")
    rounds = 500
    repeated = REALISTIC * rounds

    def run(pairs: Sequence[tuple[str, list[str]]], decide: Callable[..., object]) -> None:
        for entry, approved in pairs:
            decide(entry, approved)

    t_ours, t_naive = _paired_medians(lambda: run(repeated, skillgrant.prove),
                                      lambda: run(repeated, _naive_covered))
    _rate_row(f"8 pairs × {rounds}, repeated", t_ours / len(repeated), t_naive / len(repeated),
              "≥ 3.00x")
    distinct = _distinct(4000)
    t_ours, t_naive = _paired_medians(lambda: run(distinct, skillgrant.prove),
                                      lambda: run(distinct, _naive_covered), setup=clear_caches)
    _rate_row(f"{len(distinct):,} distinct, cold caches", t_ours / len(distinct),
              t_naive / len(distinct), "≥ 1.00x")
    print("\nEach row's two columns are timed in turns, nine times each, and the medians "
          "compared. Repeated pairs are answered from the plan's remembered verdicts (replaying "
          "their work units). Distinct ones are decided from scratch against the plan compiled "
          "once (each run starts with every cache cleared, so the compiling is timed too): a "
          "plain entry by one match against its tool's alternation, the rest by the general "
          "path.")


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


def _hostile_compound(n_approved: int) -> tuple[str, list[str]]:
    """~1,600 `&&`-joined parts, each covered only by `Bash(a*)`, against maximal-length
    approved patterns that every part is tried against (hits MAX_WORK_PER_DECISION)."""
    long_ones = [f"Bash(a{'x' * (MAX_ENTRY_LENGTH - 30)}*{i})" for i in range(n_approved - 1)]
    parts = " && ".join(f"a{i}" for i in range(2000))[: MAX_ENTRY_LENGTH - 10]
    return f"Bash({parts[: parts.rindex(' &&')]})", [*long_ones, "Bash(a*)"]


def section_adversarial(cap: float = 5.0) -> None:
    print(f"\n## 2. adversarial patterns vs the naive port (capped at {cap:.0f} s)\n")
    print("Ours is timed cold (every cache cleared first). Backtracking rows are the ones the "
          "target (≥ 1000x) is about; limit rows show the limits answering fast.\n")
    print("| kind | input | ours | verdict | naive port | ratio |")
    print("|---|---|---:|---|---:|---:|")
    literal = MAX_ENTRY_LENGTH - 10
    rows = [
        ("backtracking", "30 wildcards vs a 90-char literal",
         "Bash(" + "a" * 90 + ")", ["Bash(" + "a*" * 30 + "b)"]),
        ("backtracking", "10 wildcards vs an 8 KB command",
         "Bash(" + "a" * literal + ")", ["Bash(" + "a*" * 10 + "b)"]),
        ("backtracking", "3 wildcards vs an 8 KB command",
         "Bash(" + "a" * literal + ")", ["Bash(a*a*a*b)"]),
        ("backtracking", f"{MAX_WILDCARDS_PER_PATTERN} approved wildcards (the limit) vs 8 KB",
         "Bash(" + "a" * literal + ")", ["Bash(" + "a*" * MAX_WILDCARDS_PER_PATTERN + "b)"]),
        ("limit", f"submitted {MAX_WILDCARDS_PER_PATTERN} wildcards (at the limit) vs 100",
         "Bash(" + "x*" * MAX_WILDCARDS_PER_PATTERN + ")", ["Bash(" + "x*y" * 100 + ")"]),
        ("limit", "2,000 wildcards", "Bash(" + "a*" * 2000 + "b)",
         ["Bash(" + "a*" * 100 + "c)"]),
        ("limit", "1 MB entry", "Bash(" + "a" * 1_000_000 + ")", ["Bash(a*b)"]),
        ("limit", "compound of ~1,600 parts vs 256 long", *_hostile_compound(256)),
    ]
    for kind, label, entry, approved in rows:
        t_ours = _median_time(lambda e=entry, a=approved: skillgrant.prove(e, a),  # type: ignore[misc]
                              repeat=3, setup=clear_caches)
        verdict = skillgrant.prove(entry, approved)
        t_naive, capped = _naive_capped(entry, approved, cap)
        naive = f"> {cap:.0f} s (capped)" if capped else f"{t_naive * 1000:.2f} ms"
        print(f"| {kind} | {label} | {t_ours * 1000:.2f} ms | {verdict.status} | {naive} | "
              f"{'≥ ' if capped else ''}{t_naive / t_ours:,.0f}x |")
    print(f"\n(limits: MAX_ENTRY_LENGTH={MAX_ENTRY_LENGTH}, "
          f"MAX_WILDCARDS_PER_PATTERN={MAX_WILDCARDS_PER_PATTERN})")


def _child_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra)
    return env


def _walls(commands: dict[str, tuple[list[str], dict[str, str] | None]],
           rounds: int = 31, stdin: dict[str, bytes] | None = None,
           cpu: dict[str, float] | None = None) -> dict[str, float]:
    """Median wall time of each command (``stdin`` gives some of them their input), and into
    ``cpu`` its median CPU time (user and system: steadier than the wall on a loaded machine).
    The commands take turns, round after round (after two warm-up rounds), so a drift in the
    machine's speed touches them all alike."""
    import resource

    samples: dict[str, list[float]] = {label: [] for label in commands}
    used: dict[str, list[float]] = {label: [] for label in commands}
    for round_ in range(rounds + 2):
        for label, (argv, env) in commands.items():
            given = (stdin or {}).get(label, b"")
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(argv, capture_output=True, env=env or _child_env(), check=False,
                           input=given)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if round_ >= 2:
                samples[label].append(time.perf_counter() - start)
                used[label].append(after.ru_utime + after.ru_stime - before.ru_utime
                                   - before.ru_stime)
    if cpu is not None:
        cpu.update({label: statistics.median(times) for label, times in used.items()})
    return {label: statistics.median(times) for label, times in samples.items()}


def _skillgrant_command() -> list[str]:
    script = Path(sys.executable).parent / "skillgrant"
    return [str(script)] if script.exists() else [sys.executable, "-m", "skillgrant"]


def section_startup() -> None:
    print("\n## 3. cold start: `skillgrant check` on one skill\n")
    sample = ROOT / "samples" / "gh-triage"
    validator = (os.environ.get("AGENTSKILLS")
                 or shutil.which("agentskills", path=str(Path(sys.executable).parent))
                 or shutil.which("agentskills"))
    with tempfile.TemporaryDirectory() as tmp:
        skill = Path(tmp) / "gh-triage"
        skill.mkdir()
        shutil.copy(sample / "SKILL.md", skill / "SKILL.md")
        check = [*_skillgrant_command(), "check", str(skill / "SKILL.md"),
                 "--plan", str(sample / "plan.yaml")]
        commands: dict[str, tuple[list[str], dict[str, str] | None]] = {
            "python -c pass": ([sys.executable, "-c", "pass"], None),
            "python -c 'import typer'": ([sys.executable, "-c", "import typer"], None),
            "import typer, yaml, frontmatter, lark":
                ([sys.executable, "-c", "import typer, yaml, frontmatter, lark"], None),
            "skillgrant --version": ([*_skillgrant_command(), "--version"], None),
            "skillgrant check": (check, None),
            # SKILLGRANT_DEBUG in the environment hands every command line to typer (cli/entry.py).
            "skillgrant check through typer": (check, _child_env(SKILLGRANT_DEBUG="0")),
        }
        if validator:
            commands["agentskills validate"] = ([validator, "validate", str(skill)], None)
        cpu: dict[str, float] = {}
        times = _walls(commands, cpu=cpu)
    reference = times.pop("agentskills validate", None)
    print("| command | median | ratio to `python -c pass` | ratio to `agentskills validate` "
          "| CPU time, ratio to `agentskills validate` |")
    print("|---|---:|---:|---:|---:|")
    base = times["python -c pass"]
    for label, elapsed in times.items():
        versus = f"{elapsed / reference:.2f}x" if reference else "n/a"
        used = (f"{cpu[label] * 1000:.1f} ms, {cpu[label] / cpu['agentskills validate']:.2f}x"
                if reference else f"{cpu[label] * 1000:.1f} ms")
        print(f"| {label} | {elapsed * 1000:.1f} ms | {elapsed / base:.2f}x | {versus} "
              f"| {used} |")
    if reference is None:
        print("\nagentskills validate: not installed (pip install skills-ref, or set "
              "AGENTSKILLS=/path/to/agentskills)")
        return
    print(f"| agentskills validate | {reference * 1000:.1f} ms | {reference / base:.2f}x | "
          f"1.00x | {cpu['agentskills validate'] * 1000:.1f} ms, 1.00x |")
    print(f"\ntarget: skillgrant check ≤ 1.00x agentskills validate; measured "
          f"{times['skillgrant check'] / reference:.2f}x (CPU time "
          f"{cpu['skillgrant check'] / cpu['agentskills validate']:.2f}x)")


_SKILL_TEMPLATE = """---
name: skill-{i}
description: Generated skill number {i} for the batch benchmark.
allowed-tools: Bash(gh pr view {i}), Bash(gh issue list --label l{m} *), Read, Bash(rm -rf /tmp/{i})
---

# Skill {i}

Run `gh pr view {i}` and summarise it.
"""


def _generate(root: Path, count: int) -> None:
    for i in range(count):
        folder = root / f"s{i // 1000:03d}" / f"skill-{i}"
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(_SKILL_TEMPLATE.format(i=i, m=i % 7), encoding="utf-8")


# Runs a command and reports its wall time and the peak RSS of the largest process in its tree
# (the CLI or one of its --jobs workers: they are all waited for, so RUSAGE_CHILDREN sees them).
_MEASURE = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
elapsed = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"seconds": elapsed, "peak_kib": peak, "code": code}))
"""


def _batch_run(argv: list[str]) -> tuple[float, int, int]:
    out = subprocess.run([sys.executable, "-c", _MEASURE, *argv], capture_output=True,
                         text=True, env=_child_env(), check=True)
    result = json.loads(out.stdout)
    return result["seconds"], result["peak_kib"], result["code"]


def section_batch(sizes: Sequence[int] = (1_000, 10_000, 100_000)) -> None:
    print("\n## 4. batch `check` over generated skills, text and JSON, `--jobs 1` and `2`\n")
    jobs_list = sorted({1, 2})
    formats = ("text", "json")
    print("| files | format | --jobs | wall | files/s | µs/file | speed-up | peak RSS |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|")
    per_file: dict[tuple[str, int], float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        plan = Path(tmp) / "plan.yaml"
        plan.write_text("allowed-tools:\n  - Bash(gh *)\n  - Read\n", encoding="utf-8")
        subprocess.run([*_skillgrant_command(), "--version"], capture_output=True,
                       env=_child_env(), check=False)  # warm-up: bytecode
        for count in sizes:
            root = Path(tmp) / f"n{count}"
            _generate(root, count)
            for fmt in formats:
                single = None
                for jobs in jobs_list:
                    argv = [*_skillgrant_command(), "check", str(root), "--plan", str(plan),
                            "--format", fmt, "--jobs", str(jobs)]
                    elapsed, peak = _batch_median(argv, 3 if count <= 10_000 else 1)
                    single = single or elapsed
                    per_file[fmt, count] = per_file.get((fmt, count)) or elapsed / count
                    print(f"| {count:,} | {fmt} | {jobs} | {elapsed:.2f} s | "
                          f"{count / elapsed:,.0f} | {elapsed / count * 1e6:.0f} | "
                          f"{single / elapsed:.2f}x | {peak / 1024:.0f} MiB |")
            shutil.rmtree(root)
    for fmt in formats:
        counts = sorted(c for f, c in per_file if f == fmt)
        if len(counts) > 1:
            first, last = counts[0], counts[-1]
            print(f"\ngrowth ({fmt}, --jobs 1): time per file at {last:,} files is "
                  f"{per_file[fmt, last] / per_file[fmt, first]:.2f}x that at {first:,} "
                  "(1.00x = linear; start-up is spread over more files as the batch grows)")


def _batch_median(argv: list[str], runs: int) -> tuple[float, int]:
    """The median wall time of ``runs`` runs (one at 100,000 files, which takes a minute)
    and its peak RSS in KiB."""
    results = sorted(_batch_run(argv) for _ in range(runs))
    elapsed, peak, code = results[len(results) // 2]
    assert code == 1, f"check exited {code}"  # every generated skill changes
    return elapsed, peak


def section_json(count: int = 1_000, rounds: int = 40) -> None:
    print("\n## 5. JSON writers on a batch's file objects\n")
    from skillgrant.cli.batch import check_file
    from skillgrant.plan.light import load_plan
    from skillgrant.reports import escape, jsondoc

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "skills"
        _generate(root, count)
        plan_file = Path(tmp) / "plan.yaml"
        plan_file.write_text("allowed-tools:\n  - Bash(gh *)\n  - Read\n", encoding="utf-8")
        plan = load_plan(str(plan_file))
        objects = [jsondoc.file_json(check_file(path, plan, root, write=False,
                                                dry_run=False)[0], False)
                   for path in sorted(root.rglob("SKILL.md"))]
    best = dict.fromkeys(escape.JSON_WRITERS, float("inf"))
    for _ in range(rounds):  # the writers take turns; the best round of each is kept
        for name, write in escape.JSON_WRITERS.items():
            start = time.perf_counter()
            for item in objects:
                write(item, 2)
            best[name] = min(best[name], time.perf_counter() - start)
    print(f"| writer | µs per file object ({count:,} files) | speed-up over stdlib |")
    print("|---|---:|---:|")
    for name, elapsed in best.items():
        chosen = " (used)" if name == escape.JSON_WRITER else ""
        print(f"| {name}{chosen} | {elapsed / count * 1e6:.1f} | "
              f"{best['stdlib'] / elapsed:.2f}x |")


#: Realistic calls for the gate: (tool, input) as Claude Code sends them.
GATE_CALLS = [
    ("Bash", {"command": "git status"}),
    ("Bash", {"command": "git add -A && git commit -m \"fix: the parser\" && git push"}),
    ("Bash", {"command": "npm test 2>&1 | tail -n 40"}),
    ("Bash", {"command": "rm -rf build && npm run build"}),
    ("Bash", {"command": "gh pr view 12 --json title,body > /repo/out/pr.json"}),
    ("Bash", {"command": "for f in src/*.ts; do npx prettier --check \"$f\"; done"}),
    ("Read", {"file_path": "/repo/src/index.ts"}),
    ("Edit", {"file_path": "/etc/hosts", "old_string": "a", "new_string": "b"}),
    ("WebFetch", {"url": "https://docs.github.com/en/rest", "prompt": "x"}),
    ("mcp__github__get_issue", {"owner": "o", "repo": "r", "issue_number": 1}),
]
GATE_PLAN = ["Bash(git *)", "Bash(npm *)", "Bash(npx prettier *)", "Bash(gh pr view *)",
             "Bash(tail *)", "Read(//repo/**)", "Edit(//repo/out/**)",
             "WebFetch(domain:*.github.com)", "mcp__github"]
#: A 20-entry plan for the compound command row (its git grant comes after eleven others).
COMPOUND_PLAN = ["Bash(npm *)", "Bash(npx prettier *)", "Bash(gh pr view *)", "Bash(tail *)",
                 "Bash(make *)", "Bash(cargo build *)", "Bash(cargo test *)", "Bash(pytest *)",
                 "Bash(ls *)", "Bash(cat *)", "Bash(grep *)", "Bash(git *)",
                 "Bash(docker compose *)", "Bash(python -m pytest *)", "Bash(echo *)",
                 "Read(//repo/**)", "Edit(//repo/out/**)", "WebFetch(domain:*.github.com)",
                 "mcp__github", "Glob"]


#: Other installations' interpreters (``--beside``): the gate section times the hook as
#: printed by each of them too, in the same rounds (say, main's checkout beside a branch's).
BESIDE: list[str] = []


def section_gate() -> None:
    """The call gate: ``check_call`` per call in-process, beside the shell parse it starts
    with; the ``skillgrant hook`` process on one payload against ``python -c pass`` (and the
    same hook of each ``--beside`` installation, in the same rounds)."""
    from skillgrant.gate.bashparser import parser
    from skillgrant.gate.verdict import call_plan

    print("\n## 6. the call gate\n")
    print(f"{len(GATE_CALLS)} realistic calls (6 shell commands, a read, an edit, a fetch, an MCP "
          f"tool) against a {len(GATE_PLAN)}-entry plan. A plan compiled once is "
          "`call_plan(entries)`, as the hook and the service keep it.\n")
    rounds = 200
    calls = GATE_CALLS * rounds
    commands = [c[1]["command"].encode() for c in GATE_CALLS if c[0] == "Bash"] * rounds
    bash = parser()
    compiled = call_plan(GATE_PLAN)

    def gate(plan: object) -> None:
        for tool, tool_input in calls:
            skillgrant.check_call(tool, tool_input, plan, cwd="/repo")  # type: ignore[arg-type]

    # A three-part compound, different in every call, against a 20-entry plan compiled once.
    compound = call_plan(COMPOUND_PLAN)
    compounds = [{"command": f'git add -A && git commit -m "fix {i}" && git push origin b{i}'}
                 for i in range(2000)]

    def gate_compound() -> None:
        for tool_input in compounds:
            skillgrant.check_call("Bash", tool_input, compound, cwd="/repo")

    t_gate = _median_time(lambda: gate(GATE_PLAN)) / len(calls)
    t_compiled = _median_time(lambda: gate(compiled)) / len(calls)
    t_compound = _median_time(gate_compound) / len(compounds)
    source = [f["command"].encode() for f in compounds]
    t_compound_parse = _median_time(lambda: [bash.parse(c) for c in source]) / len(source)
    t_parse = _median_time(lambda: [bash.parse(c) for c in commands]) / len(commands)
    t_split = _median_time(lambda: [shlex.split(c.decode()) for c in commands]) / len(commands)
    print("| in process | per call | calls/s | target |")
    print("|---|---:|---:|---|")
    print(f"| `check_call`, a 3-part compound (distinct) vs a {len(COMPOUND_PLAN)}-entry plan "
          f"compiled once | {t_compound * 1e6:.1f} µs | {1 / t_compound:,.0f} | ≤ 20 µs |")
    print(f"| tree-sitter parse of those compounds alone | {t_compound_parse * 1e6:.1f} µs | "
          f"{1 / t_compound_parse:,.0f} | |")
    print(f"| `check_call`, realistic calls, the plan compiled once | {t_compiled * 1e6:.1f} µs "
          f"| {1 / t_compiled:,.0f} | |")
    print(f"| `check_call`, realistic calls, the plan given as a list | {t_gate * 1e6:.1f} µs | "
          f"{1 / t_gate:,.0f} | |")
    print(f"| tree-sitter parse of the realistic shell commands alone | {t_parse * 1e6:.1f} µs "
          f"| {1 / t_parse:,.0f} | |")
    print(f"| `shlex.split` of the same commands (no analysis) | {t_split * 1e6:.1f} µs | "
          f"{1 / t_split:,.0f} | |")
    payload = json.dumps({"session_id": "s", "cwd": "/repo", "hook_event_name": "PreToolUse",
                          "tool_name": "Bash", "tool_input": GATE_CALLS[1][1]}).encode()
    with tempfile.TemporaryDirectory() as tmp:
        plan_json = Path(tmp) / "plan.json"
        plan_json.write_text(json.dumps({"allowed-tools": GATE_PLAN}))
        plan_yaml = Path(tmp) / "plan.yaml"
        plan_yaml.write_text("allowed-tools:\n" + "".join(f"  - {e}\n" for e in GATE_PLAN))
        hook = [*_skillgrant_command(), "hook", "--plan"]
        printed = _printed_hook(plan_yaml)
        runs: dict[str, tuple[list[str], dict[str, str] | None]] = {
            "python -c pass": ([sys.executable, "-c", "pass"], None),
            "python -c 'import skillgrant'": ([sys.executable, "-c", "import skillgrant"], None),
            # what --print-config prints and apply --enforce writes: python -I -c '…main()'
            # hook, the YAML plan pinned (issue 29; -I for review G-18, -c: session 48)
            "skillgrant hook as printed (-I -c, YAML plan, pinned)": (printed, None),
            "skillgrant hook, the same by the console script (no -I)": (
                [*_skillgrant_command(), *printed[printed.index("hook"):]], None),
            "skillgrant hook, JSON plan": ([*hook, str(plan_json)], None),
            "skillgrant hook, YAML plan": ([*hook, str(plan_yaml)], None),
            "skillgrant hook, JSON plan, audit log":
                ([*hook, str(plan_json), "--audit-log", str(Path(tmp) / "audit.jsonl")], None),
            "skillgrant hook, JSON plan, pinned": ([*hook, str(plan_json), "--plan-sha256",
                                                    _pin(plan_json)], None),
        }
        for other in BESIDE:  # the same printed command, another installation's interpreter
            runs[f"the hook as printed, by {other}"] = ([other, *printed[1:]], None)
        cpu: dict[str, float] = {}
        times = _walls(runs, stdin={label: payload for label in runs if "hook" in label},
                       cpu=cpu)
    print("\n| process, one payload | median | ratio to `python -c pass` | CPU time, ratio |")
    print("|---|---:|---:|---:|")
    base, base_cpu = times["python -c pass"], cpu["python -c pass"]
    for label, elapsed in times.items():
        print(f"| {label} | {elapsed * 1000:.1f} ms | {elapsed / base:.2f}x | "
              f"{cpu[label] * 1000:.1f} ms, {cpu[label] / base_cpu:.2f}x |")
    headline = "skillgrant hook as printed (-I -c, YAML plan, pinned)"
    print(f"\nthis installation: {_install_mode()}")
    print(f"\ntarget: the hook ≤ 3.50x `python -c pass`; measured {times[headline] / base:.2f}x "
          f"as printed (YAML plan, pinned; CPU time {cpu[headline] / base_cpu:.2f}x), "
          f"{times['skillgrant hook, JSON plan'] / base:.2f}x (JSON plan)")


def _install_mode() -> str:
    """How skillgrant is installed here: editable (the checkout's files, found through a path
    hook) or not (a wheel's copy in site-packages); the hook's start-up differs between them."""
    from importlib.metadata import distribution

    direct = distribution("skillgrant").read_text("direct_url.json")
    editable = bool(direct and json.loads(direct).get("dir_info", {}).get("editable"))
    where = Path(skillgrant.__file__).parent
    return f"{'editable' if editable else 'not editable (a wheel)'}, from {where}"


def _printed_hook(plan: Path) -> list[str]:
    """The hook's command as ``--print-config claude-code`` prints it for ``plan``."""
    from skillgrant.gate.config import command

    return shlex.split(command("claude-code", str(plan)))


def _pin(plan: Path) -> str:
    from skillgrant.gate.planfile import pinned_digest

    return pinned_digest(str(plan))


#: Calls whose commands the plain fast path does not read, so the gate asks bash (issue 29).
BASH_CALLS = [
    ("Bash", {"command": "npm test 2>&1 | tail -n 40"}),
    ("Bash", {"command": "gh pr view 12 --json title,body > /repo/out/pr.json"}),
    ("Bash", {"command": "git commit -m \"$(cat <<'EOF'\nfix: the parser\n\nbody\nEOF\n)\""}),
    ("Bash", {"command": "git status\ngit log --oneline -n 5 | tail -n 2"}),
]
BASH_PLAN = [*GATE_PLAN, "Bash(cat *)"]


def section_gate_bash() -> None:
    """The call gate with and without its cross-check with bash (issue 29): ``check_call`` on
    a plain three-part command (read by the fast path: bash is never asked), on the realistic
    calls, and on compound commands bash is asked about. Each a first decision (the answers and
    analyses kept by command text dropped before every call), and again as a service meets the
    same command twice (kept). The targets (≤ 20 µs, ≤ 50 µs) are for the decision made in
    process, without the cross-check: asking bash is a process start (about a millisecond),
    which no in-process target can hold; it is the column beside them."""
    from skillgrant.gate import commands
    from skillgrant.gate.crosscheck import bash_path, use_bash
    from skillgrant.gate.verdict import call_plan

    print("\n## 6b. the call gate and bash (issue 29)\n")
    found = bash_path()
    if found is None:
        print("no bash 5.2 found: the cross-check's cost is not measured\n")
        return
    compiled, with_cat = call_plan(COMPOUND_PLAN), call_plan(BASH_PLAN)
    plain = [{"command": f'git add -A && git commit -m "fix {i}" && git push origin b{i}'}
             for i in range(2000)]

    def each(calls: Sequence[tuple[str, Any]], plan: object, bash: str | None,
             fresh: bool) -> None:
        for tool, tool_input in calls:
            if fresh:
                use_bash(bash)  # drops the answers kept: each call is a first decision
                commands.forget_analyses()  # and the analyses kept, likewise
            skillgrant.check_call(tool, tool_input, plan, cwd="/repo")  # type: ignore[arg-type]

    rows: list[tuple[str, float, float, float]] = []
    for label, calls, plan in (
            ("a plain 3-part compound (distinct)", [("Bash", p) for p in plain], compiled),
            ("the realistic calls", GATE_CALLS * 50, with_cat),
            ("compound commands bash is asked about", BASH_CALLS * 10, with_cat)):
        times: list[float] = []
        for bash, fresh in ((found, True), (None, True), (found, False)):
            use_bash(bash)

            def timed(c: Sequence[tuple[str, Any]] = calls, p: object = plan,
                      b: str | None = bash, f: bool = fresh) -> None:
                each(c, p, b, f)

            times.append(_median_time(timed, repeat=3) / len(calls))
        rows.append((label, times[0], times[1], times[2]))
    use_bash(found)
    print("| `check_call`, plan compiled once | first decision, with the cross-check | first "
          "decision, without (in process) | the same command again (kept) |")
    print("|---|---:|---:|---:|")
    for label, t_with, t_without, t_kept in rows:
        print(f"| {label} | {t_with * 1e6:.1f} µs | {t_without * 1e6:.1f} µs | "
              f"{t_kept * 1e6:.1f} µs |")
    print(f"\ntargets (in process, without the cross-check): a plain 3-part command ≤ 20 µs "
          f"({rows[0][2] * 1e6:.1f} µs), a realistic call ≤ 50 µs ({rows[1][2] * 1e6:.1f} µs "
          f"first, {rows[1][3] * 1e6:.1f} µs kept); with the cross-check "
          f"{rows[1][1] * 1e6:.1f} µs first")


def section_serve() -> None:
    """Hook requests against ``skillgrant serve`` at 1, 8 and 64 clients (benchmarks/load.py)."""
    from load import section_serve as serve

    serve(_skillgrant_command(), GATE_CALLS, GATE_PLAN, _child_env())


#: The shared corpus of 40 real skills beside the checkout (``../shared``), or the one the
#: environment names.
REAL_SKILLS = Path(os.environ.get("SKILLGRANT_REAL_SKILLS",
                                  ROOT.parent / "shared" / "corpus" / "real-skills"))


#: A ``name:`` line of one plain word, which a copy number can follow unchanged in meaning.
_NAME_LINE = re.compile(rb"^(name: [A-Za-z0-9][A-Za-z0-9_.-]*)(\r?)$", re.MULTILINE)


def _copy_of(text: bytes, copy: int) -> bytes:
    """Copy ``copy`` of a real skill, no two texts alike (issue 27: no memo of a whole file or
    text can help): the body ends with a line naming the copy, and a plain one-word ``name:``
    in the frontmatter (21 of the 40) carries its number."""
    fence = text.find(b"\n---", 3)  # the frontmatter's end (the 40 all have one)
    if fence > 0:
        text = _NAME_LINE.sub(rb"\1-c%d\2" % copy, text[:fence], count=1) + text[fence:]
    return text + (b"" if text.endswith(b"\n") else b"\n") + b"<!-- copy %d -->\n" % copy


def section_real(copies: int = 50) -> None:
    """Batch ``check`` over 2,000 files built from the 40 real skills, in this process: files/s
    against python-frontmatter's ``frontmatter.load`` of the same files (issue 27: >= 0.5)."""
    import frontmatter

    from skillgrant.cli.batch import Rendering, check_files
    from skillgrant.cli.run import run_files
    from skillgrant.plan import Plan

    print("\n## 8. `check` of real skills in one process, against `frontmatter.load`\n")
    sources = sorted(REAL_SKILLS.glob("*.md"))
    if not sources:
        print(f"the shared corpus is not at {REAL_SKILLS}: section left out")
        return
    plan = Plan.from_entries(["Read", "Grep", "Glob", "Bash(git *)", "Bash(gh *)"])
    texts = [source.read_bytes() for source in sources]
    with tempfile.TemporaryDirectory() as tmp:
        paths: list[Path] = []
        for i in range(copies):
            for source, text in zip(sources, texts, strict=True):
                folder = Path(tmp) / f"c{i}" / source.stem
                folder.mkdir(parents=True)
                paths.append(folder / "SKILL.md")
                paths[-1].write_bytes(_copy_of(text, i))
        refused = 0

        def ours() -> None:
            # What `check --jobs 1` does with the files (cli/run.py's run_files), short of
            # rendering the report.
            nonlocal refused
            refused = 0
            plugins: dict[str, object] = {}  # as cli/run.py keeps it over one batch
            for done in check_files(paths, plan, Path(tmp), write=False, dry_run=False,
                                    enforce=None, plugins=plugins, rendering=Rendering()):
                refused += done.error

        def theirs() -> None:
            for path in paths:  # a file it cannot load still took its time
                with contextlib.suppress(Exception):
                    frontmatter.load(path)

        def pooled() -> None:
            # `check DIR --jobs 2` (cli/run.py's run_files: two worker processes, forked for
            # the run); not the target's figure, which is one process against one.
            for _ in run_files(paths, plan, Path(tmp), write=False, dry_run=False,
                               rendering=Rendering(), jobs=2):
                pass

        mine, base = _paired_medians(ours, theirs, repeat=5)
        jobs = _paired_medians(pooled, theirs, repeat=5) if _cpus() >= 2 else None
    _real_rows(len(paths), (mine, base), jobs)
    print(f"\n{refused:,} of {len(paths):,} refused ({refused // copies} of the 40 sources)")


def _real_rows(count: int, one: tuple[float, float], jobs: tuple[float, float] | None) -> None:
    """section_real's table: ``one`` process's time and ``frontmatter.load``'s, and with
    ``--jobs 2`` (None: not measured)."""
    mine, base = one
    print("| files | skillgrant check (in process) | frontmatter.load | ratio | target |")
    print("|---:|---:|---:|---:|---|")
    print(f"| {count:,} | {count / mine:,.0f} files/s | {count / base:,.0f} files/s | "
          f"{base / mine:.2f} | >= 0.5 |")
    if jobs is not None:
        print(f"| {count:,} | `--jobs 2`: {count / jobs[0]:,.0f} files/s | "
              f"{count / jobs[1]:,.0f} files/s | {jobs[1] / jobs[0]:.2f} | (two processes) |")


def _cpus() -> int:
    """The CPUs this process may use."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


def section_evidence() -> None:
    """``suggest`` and ``replay`` over generated audit logs of two sizes (benchmarks/
    evidence.py)."""
    from evidence import section_evidence as evidence

    evidence()


SECTIONS = {
    "prover": section_prover,
    "adversarial": section_adversarial,
    "startup": section_startup,
    "batch": section_batch,
    "json": section_json,
    "gate": section_gate,
    "gate-bash": section_gate_bash,
    "serve": section_serve,
    "real": section_real,
    "evidence": section_evidence,
}


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("sections", nargs="*", metavar="SECTION",
                        help=f"any of {', '.join(SECTIONS)} (default: all)")
    parser.add_argument("--beside", action="append", default=[], metavar="PYTHON",
                        help="gate: also time the printed hook run by this interpreter (another "
                             "installation of skillgrant), in the same rounds; repeatable")
    parser.add_argument("--sizes", default="1000,10000,100000",
                        help="batch sizes, comma-separated (default: 1000,10000,100000)")
    args = parser.parse_args(argv)
    args.sections = [name.replace("_", "-") for name in args.sections]  # gate_bash: gate-bash
    BESIDE.extend(args.beside)
    unknown = [name for name in args.sections if name not in SECTIONS]
    if unknown:
        parser.error(f"unknown section {unknown[0]!r}; choose from {', '.join(SECTIONS)}")
    import typer
    import yaml
    from lark import __version__ as lark_version

    print(f"# skillgrant {skillgrant.__version__} benchmarks\n")
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()} "
          f"{platform.release()}; Python {platform.python_version()}; typer "
          f"{typer.__version__ if hasattr(typer, '__version__') else '?'}, lark {lark_version}, "
          f"PyYAML {yaml.__version__} (C loader: {hasattr(yaml, 'CSafeLoader')})\n")
    for name in args.sections or list(SECTIONS):
        if name == "batch":
            section_batch(tuple(int(s) for s in args.sizes.split(",")))
        else:
            SECTIONS[name]()


if __name__ == "__main__":
    main(sys.argv[1:])
