"""``skillgrant hook --print-config RUNTIME``: the settings that run the gate in each runtime.

The snippet goes to standard output (JSON, ready to merge into the file named on standard
error); where the runtime lets a call through when its hook fails, a warning says so.
"""

from __future__ import annotations

import json
import os
import shlex
from collections.abc import Mapping

#: Seconds a hook may run before the runtime gives up on it.
TIMEOUT_SECONDS = 30

_WHERE = {
    "claude-code": ".claude/settings.json (or ~/.claude/settings.json)",
    "copilot-cli": ".github/hooks/skillgrant.json (or ~/.copilot/hooks/skillgrant.json)",
    "codex": ".codex/hooks.json (or ~/.codex/hooks.json)",
    "vscode": ".github/hooks/skillgrant.json",
    "gemini-cli": ".gemini/settings.json (or ~/.gemini/settings.json)",
}
_FAILS_OPEN = {
    "copilot-cli": "Copilot CLI (1.0.102, measured) denies the call when the hook exits non-zero "
                   "or crashes, but lets it run when the hook times out (timeoutSec), prints "
                   "anything but one JSON object on stdout, or when this config file is not "
                   "valid JSON (the file is skipped). Keep the file valid and the hook fast: "
                   "run `skillgrant serve` and point the hook at it, so no call waits for a "
                   "cold start.",
    "codex": "Codex lets the call through when the hook fails, times out or prints invalid "
             "output, and runs a project hook only once it is trusted: the gate is a ceiling "
             "only while it runs.",
    "vscode": "VS Code lets the call through when the hook fails with a status other than 2 or "
              "times out, and ignores matchers (the gate sees every tool).",
    "gemini-cli": "Gemini CLI lets the call through when the hook times out or exits 1.",
}


#: The hook options ``--print-config`` carries into the command it prints (the plan apart).
_CARRIED = ("--plan-kind", "--outside", "--inside", "--audit-log", "--skill-dir")


def command(dialect: str, plan: str | None, kind: str = "auto",
            options: Mapping[str, str] | None = None) -> str:
    """The hook's command line for ``dialect`` and the plan file ``plan`` (made absolute: a
    hook runs from whatever directory the runtime is in), with ``options`` carried over."""
    words = ["skillgrant", "hook", "--plan", os.path.abspath(plan) if plan else "PLAN"]
    given = {"--plan-kind": kind, **(options or {})}
    for name in _CARRIED:
        value = given.get(name)
        if value is not None and value not in ("auto", "deny", "none"):
            absolute = name in ("--audit-log", "--skill-dir")
            words += [name, os.path.abspath(value) if absolute else value]
    if dialect != "claude-code":
        words += ["--dialect", dialect]
    return shlex.join(words)


def claude_hooks(run: str) -> dict[str, object]:
    """Claude Code's ``hooks`` mapping that runs the command ``run`` on every PreToolUse, with
    ``onFailure: block`` (a settings file's, and the one ``apply --enforce`` writes into a
    skill)."""
    return {"PreToolUse": [{"matcher": "*", "hooks": [
        {"type": "command", "command": run, "timeout": TIMEOUT_SECONDS,
         "onFailure": "block"}]}]}


def snippet(dialect: str, options: Mapping[str, str]) -> tuple[str, str]:
    """The settings JSON for ``dialect`` running the hook with ``options`` (the hook's own,
    ``--plan`` among them), and what standard error should say about it."""
    run = command(dialect, options.get("--plan"), options=options)
    body: dict[str, object]
    if dialect == "claude-code":
        body = {"hooks": claude_hooks(run)}
    elif dialect == "copilot-cli":
        body = {"version": 1, "hooks": {"preToolUse": [
            {"type": "command", "bash": run, "timeoutSec": TIMEOUT_SECONDS}]}}
    elif dialect == "codex":
        body = {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [
            {"type": "command", "command": run, "timeout": TIMEOUT_SECONDS}]}]}}
    elif dialect == "vscode":
        body = {"hooks": {"PreToolUse": [
            {"type": "command", "command": run, "timeout": TIMEOUT_SECONDS}]}}
    else:  # gemini-cli: its timeout is in milliseconds
        body = {"hooks": {"BeforeTool": [{"matcher": "*", "hooks": [
            {"name": "skillgrant", "type": "command", "command": run,
             "timeout": TIMEOUT_SECONDS * 1000}]}]}}
    note = f"Merge into {_WHERE[dialect]}."
    warning = _FAILS_OPEN.get(dialect)
    if warning is not None:
        note += f"\nWarning: {warning}"
    return json.dumps(body, indent=2) + "\n", note + "\n"
