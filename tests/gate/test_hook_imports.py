"""The hook starts on every tool call: deciding a payload against a JSON plan imports none of
the heavy modules the rest of the CLI may use (STYLE habit 10). Not a timing test: the modules
are named, and benchmarks/run.py measures the time."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

#: Modules the hook never needs for a JSON plan: each costs about as much as Python's start-up
#: or more (typer, pydantic, PyYAML, Lark), or pulls in inspect, ast and dis (dataclasses).
HEAVY = ("dataclasses", "inspect", "yaml", "pydantic", "typer", "lark", "frontmatter",
         "pathlib", "importlib.resources", "hashlib", "urllib.parse")

PROBE = """
import json, sys
import skillgrant.cli.entry  # what the console script imports before it sees `hook`
from skillgrant.gate.hook import Options, decide
answer = decide(Options({"--plan": sys.argv[1]}), sys.argv[2].encode())
heavy = sorted(m for m in json.loads(sys.argv[3]) if m in sys.modules)
print(json.dumps({"status": answer.status, "heavy": heavy}))
"""


def _probe(plan: Path, payload: Mapping[str, object]) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", PROBE, str(plan), json.dumps(payload),
                           json.dumps(HEAVY)], capture_output=True, text=True, check=True)
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_a_shell_call_against_a_json_plan_imports_nothing_heavy(tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(git *)", "Edit(//repo/**)"]}))
    for command, status in (("git status > /repo/out.txt", 0), ("git push && rm -rf /", 2),
                            ("git commit -m \"$MSG\"", 0)):
        payload = {"tool_name": "Bash", "tool_input": {"command": command}, "cwd": "/repo"}
        assert _probe(plan, payload) == {"status": status, "heavy": []}, command


def test_a_path_call_imports_nothing_heavy_either(tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Read(//etc/**)"]}))
    payload = {"tool_name": "Read", "tool_input": {"file_path": "/etc/hosts"}, "cwd": "/repo"}
    assert _probe(plan, payload) == {"status": 0, "heavy": []}


#: What deciding a plain shell call needs none of: the prover (a path, host or name call asks
#: it), the parse and its tree-sitter grammar (a command the fast path does not read), the audit
#: writer (an --audit-log), the cross-check's subprocess.
NOT_FOR_A_PLAIN_CALL = ("skillgrant.prover", "skillgrant.gate.shell", "tree_sitter",
                        "skillgrant.gate.audit", "skillgrant.gate.crosscheck", "subprocess")


def test_a_plain_shell_call_loads_only_what_deciding_it_needs(tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(git *)", "Read(//repo/**)"]}))
    for command, status in (("git add -A && git commit -m 'fix' && git push", 0),
                            ("git status && rm -rf /", 2)):
        payload = {"tool_name": "Bash", "tool_input": {"command": command}, "cwd": "/repo"}
        done = subprocess.run([sys.executable, "-c", PROBE, str(plan), json.dumps(payload),
                               json.dumps(NOT_FOR_A_PLAIN_CALL)], capture_output=True,
                              text=True, check=True)
        assert json.loads(done.stdout) == {"status": status, "heavy": []}, command


def test_an_allowed_path_call_never_loads_the_prover(tmp_path: Path) -> None:
    """A concrete path is one lookup in its domain's member (issue 29 item 5); only a denial
    proves its singleton entry, to word it."""
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Read(//repo/**)", "WebFetch(domain:*.x.org)",
                                                  "mcp__gh"]}))
    for tool, tool_input, status in (
            ("Read", {"file_path": "/repo/src/a.ts"}, 0),
            ("WebFetch", {"url": "https://a.x.org/p"}, 0),
            ("mcp__gh__get_issue", {}, 0)):
        payload = {"tool_name": tool, "tool_input": tool_input, "cwd": "/repo"}
        done = subprocess.run([sys.executable, "-c", PROBE, str(plan), json.dumps(payload),
                               json.dumps(["skillgrant.prover", "lark"])], capture_output=True,
                              text=True, check=True)
        assert json.loads(done.stdout) == {"status": status, "heavy": []}, tool


def _printed_hook_modules(plan: Path, payload: Mapping[str, object]) -> tuple[int, set[str]]:
    """The exit status of the hook run as --print-config prints it (``python -I -c
    HOOK_CODE hook``, the plan pinned), and every module it imported, at any depth (-X
    importtime)."""
    from skillgrant.gate.config import command

    argv = shlex.split(command("claude-code", str(plan)))
    argv[1:1] = ["-X", "importtime"]
    done = subprocess.run(argv, input=json.dumps(payload).encode(), capture_output=True,
                          check=False, timeout=60)
    lines = done.stderr.decode("utf-8", "replace").splitlines()
    modules = {line.rsplit("|", 1)[1].strip() for line in lines
               if line.startswith("import time:") and "imported package" not in line}
    assert modules, done.stderr[-500:]
    return done.returncode, modules


#: The domains each call needs, of a plan naming tools of five domains; the others stay unloaded.
DOMAIN_MODULES = {f"skillgrant.domains.{name}"
                  for name in ("command", "path", "pathpattern", "web", "mcp", "agent", "generic",
                               "skill")}


def test_the_printed_hook_loads_only_the_domains_its_call_needs(tmp_path: Path) -> None:
    """The lazy domain registry (issue 29): a shell call against a plan of shell, path, web and
    MCP entries loads the command domain (and the generic one the plan's plain entries use, and
    the MCP one screening its MCP entry), not the path, web, agent or skill domains; a path
    call loads the path patterns (its membership), not the web domain. Nothing heavy, at any
    depth."""
    plan = tmp_path / "plan.yaml"
    plan.write_text("allowed-tools:\n  - Bash(git *)\n  - Bash(npm *)\n  - Read(//repo/**)\n"
                    "  - Edit(//repo/out/**)\n  - WebFetch(domain:*.github.com)\n"
                    "  - mcp__github\n")
    heavy = {"yaml", "pydantic", "dataclasses", "lark", "typer", "inspect"}
    for tool, tool_input, status, loaded, absent in (
            ("Bash", {"command": "git add -A && git commit -m 'fix' && git push"}, 0,
             {"command"}, {"path", "pathpattern", "web", "agent", "skill"}),
            ("Bash", {"command": "git status && rm -rf /"}, 2,
             {"command"}, {"path", "pathpattern", "web", "agent", "skill"}),
            ("Read", {"file_path": "/repo/src/a.ts"}, 0, {"pathpattern"},
             {"web", "agent", "skill"})):
        payload = {"session_id": "s", "cwd": "/repo", "hook_event_name": "PreToolUse",
                   "tool_name": tool, "tool_input": tool_input}
        returncode, modules = _printed_hook_modules(plan, payload)
        assert returncode == status, (tool_input, returncode)
        assert not heavy & {m.split(".")[0] for m in modules} | (heavy & modules), tool_input
        domains = modules & DOMAIN_MODULES
        assert {f"skillgrant.domains.{d}" for d in loaded} <= domains, (tool_input, domains)
        assert not {f"skillgrant.domains.{d}" for d in absent} & domains, (tool_input, domains)


def test_the_printed_hook_allows_without_loading_typing(tmp_path: Path) -> None:
    """``typing``'s import is about a sixteenth of a hook's start (records.py): a call the
    fast path reads and the plan allows (a plain command, a path, a host, an MCP tool) is
    decided by modules that leave it unloaded. A command for the parse loads it with
    tree-sitter, and a denial with the prover that words it."""
    plan = tmp_path / "plan.yaml"
    plan.write_text("allowed-tools:\n  - Bash(git *)\n  - Read(//repo/**)\n"
                    "  - Edit(//repo/out/**)\n  - WebFetch(domain:*.github.com)\n"
                    "  - mcp__github\n")
    for tool, tool_input in (
            ("Bash", {"command": "git add -A && git commit -m 'fix: x' && git push"}),
            ("Read", {"file_path": "/repo/src/a.ts"}),
            ("Write", {"file_path": "/repo/out/a.json", "content": "{}"}),
            ("WebFetch", {"url": "https://docs.github.com/en/rest", "prompt": "p"}),
            ("mcp__github__get_issue", {"issue_number": 1})):
        payload = {"session_id": "s", "cwd": "/repo", "hook_event_name": "PreToolUse",
                   "tool_name": tool, "tool_input": tool_input}
        returncode, modules = _printed_hook_modules(plan, payload)
        assert returncode == 0 and "typing" not in modules, (tool, returncode)


def test_the_printed_hook_starts_without_runpy(tmp_path: Path) -> None:
    """s48-hookspeed: the printed hook runs ``-c HOOK_CODE``, not ``-m skillgrant``, whose
    ``runpy`` loads ``importlib.util``, ``contextlib`` and ``warnings`` (7 M instructions of a
    hook's start)."""
    plan = tmp_path / "plan.yaml"
    plan.write_text("allowed-tools:\n  - Bash(git *)\n")
    payload = {"session_id": "s", "cwd": "/repo", "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": "git status"}}
    returncode, modules = _printed_hook_modules(plan, payload)
    assert returncode == 0
    assert not {"runpy", "importlib.util"} & modules


def test_a_gate_that_cannot_be_imported_answers_with_the_fixed_denial(tmp_path: Path) -> None:
    """s60-sreview/s60-hfix: with a module of the gate moved away, ``skillgrant hook`` ended
    with status 1, which Claude Code without ``onFailure: "block"``, VS Code and Gemini CLI
    read as a non-blocking error (the call runs). It answers with the fixed denial, exit 2."""
    import shutil

    import skillgrant
    from skillgrant.gate.config import HOOK_CODE

    copy = tmp_path / "site" / "skillgrant"
    shutil.copytree(Path(skillgrant.__file__).parent, copy,
                    ignore=shutil.ignore_patterns("__pycache__"))
    plan = tmp_path / "plan.json"
    plan.write_text('{"allowed-tools": ["Bash(git *)"]}')
    payload = json.dumps({"session_id": "s", "cwd": str(tmp_path), "tool_name": "Bash",
                          "hook_event_name": "PreToolUse",
                          "tool_input": {"command": "git status"}})
    code = f"import sys; sys.path.insert(0, sys.argv.pop(1)); {HOOK_CODE}"

    def hook() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-P", "-c", code, str(copy.parent), "hook",
                               "--plan", str(plan)], input=payload, capture_output=True,
                              text=True, cwd=tmp_path, timeout=60)

    whole = hook()
    assert (whole.returncode, whole.stdout) == (0, ""), whole.stderr  # the copy decides
    (copy / "gate" / "dialects.py").unlink()
    broken = hook()
    assert broken.returncode == 2, broken.stderr
    decision = json.loads(broken.stdout)["hookSpecificOutput"]
    assert decision["permissionDecision"] == "deny"
    assert "failed closed" in broken.stderr
