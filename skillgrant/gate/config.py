"""``skillgrant hook --print-config RUNTIME``: the settings that run the gate in each runtime.

The snippet goes to standard output (JSON, ready to merge into the file named on standard
error); where the runtime lets a call through when its hook fails, a warning says so. It is for
a person configuring the hook, so what is wrong with the request (no plan, a plan that does not
load, a runtime the gate does not know) is a usage error: exit 2, ``skillgrant: error: …`` on
standard error, nothing on standard output. The fail-closed denial is for hook payloads.

Every command printed or written (here, and by ``apply --enforce``) names this installation of
skillgrant by absolute path: this interpreter with ``-I -c HOOK_CODE`` (``executable``). A
runtime runs a hook with its own ``PATH`` from its own directory, where the ``skillgrant`` of a
virtual environment that was never activated is not found, and every call is blocked. The
words are quoted for a POSIX shell (``/bin/sh``, bash), which is what each runtime runs a
hook's command with on Linux and macOS.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from collections.abc import Mapping

#: Seconds a hook may run before the runtime gives up on it.
TIMEOUT_SECONDS = 30
#: What the printed hook runs (``python -I -c HOOK_CODE hook …``): the console script's own
#: entry. ``python -I -m skillgrant`` (printed before session 48, and still recognised:
#: ``earlier``) runs the same entry through ``runpy``, whose imports (``importlib.util``,
#: ``contextlib``, ``warnings``) cost a hook 7 M of its 157 M instructions (docs/decisions.md).
HOOK_CODE = "from skillgrant.cli.entry import main; main()"

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
_CARRIED = ("--plan-kind", "--outside", "--inside", "--audit-log", "--skill-dir",
            "--for-skill",  # issue 33: a settings-level hook that follows a skill
            "--state-dir")  # s53-sreview R3: the service's state folder (``snippet``)


#: The pin of a plan file that could not be read when the command was made (no SHA-256 of a
#: text is all zeros, as far as anyone can find).
UNREADABLE_PIN = "0" * 64


def executable() -> list[str]:
    """The words that start this installation of skillgrant from any shell, directory and
    ``PATH``: this interpreter (by absolute path, not resolved through a symbolic link: a
    virtual environment's ``python`` is one, and only through it does the interpreter find the
    environment's packages) isolated, running ``HOOK_CODE`` (``-c``).

    ``-I`` keeps the runtime's working directory, the project, off ``sys.path`` (it implies
    ``-P``; plain ``python -c`` or ``-m`` there would import a ``skillgrant`` package of the
    project's: review R3), ignores ``PYTHONPATH`` and leaves out the user's site-packages,
    whose ``.pth`` files Python runs at start: outside a virtual environment a console script
    starts with the user site on, and a ``.pth`` a call drops there would run inside the gate
    (review G-18).
    An installation that only the user site or ``PYTHONPATH`` holds (``pip install --user``)
    is not found so (review ST-1), and starting it any other way keeps that hole open (review
    ST-4): ConfigError, no hook is printed, and the person is told to install skillgrant into a
    virtual environment. Whether ``-I`` finds skillgrant is asked of a child interpreter,
    once. What it finds may be another copy than the one printing (tests run from a checkout
    beside a non-editable install): any copy ``-I`` reaches lives in the interpreter's own
    site-packages, where the isolation holds."""
    python = os.path.abspath(sys.executable)
    if _finds_skillgrant(python, "-I"):
        return [python, "-I", "-c", HOOK_CODE]
    raise ConfigError(f"{python} -I does not start this installation of "
                      f"skillgrant ({os.path.dirname(_PACKAGE)}): it lives where only the user "
                      "site-packages or PYTHONPATH lead, and a hook that reads those runs any "
                      ".pth file a call drops there. Install skillgrant into a virtual "
                      "environment (or with pipx) and print the hook from there")


#: This copy's package folder, named when ``-I`` finds no skillgrant.
_PACKAGE = os.path.realpath(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_FOUND: dict[tuple[str, str], bool] = {}


def _finds_skillgrant(python: str, flag: str) -> bool:
    """Whether ``python flag -c 'import skillgrant'``, run from the root folder (no project
    on its path), imports a skillgrant package (asked once per process)."""
    key = (python, flag)
    if key not in _FOUND:
        import subprocess

        try:
            done = subprocess.run([python, flag, "-c", "import skillgrant"], cwd="/",
                                  capture_output=True, timeout=60, check=False)
            _FOUND[key] = done.returncode == 0
        except (OSError, subprocess.SubprocessError):
            _FOUND[key] = False
    return _FOUND[key]


def command(dialect: str, plan: str, kind: str = "auto",
            options: Mapping[str, str] | None = None) -> str:
    """The hook's command line for ``dialect`` and the plan file ``plan`` (made absolute: a
    hook runs from whatever directory the runtime is in), with ``options`` carried over; the
    program is ``executable()``, and every word is quoted for a POSIX shell. The plan's
    digest is pinned (``--plan-sha256``): the hook denies every call once the file holds
    another plan, so a plan replaced in the session stops it instead of widening it (issue
    29, reviews W1c, W2). A plan file that cannot be read now pins ``UNREADABLE_PIN``, which
    no text has: that hook denies every call until it is printed again."""
    from ..errors import PlanError
    from .planfile import pinned_digest

    given = {"--plan-kind": kind, **(options or {})}
    try:
        pin = pinned_digest(plan, given.get("--plan-kind") or "auto")
    except PlanError:
        pin = UNREADABLE_PIN  # --print-config and apply --enforce load the plan first
    words = [*executable(), "hook", "--plan", os.path.abspath(plan), "--plan-sha256", pin]
    for name in _CARRIED:
        value = given.get(name)
        if value is not None and value not in ("auto", "deny", "none"):
            if name == "--audit-log":  # its folder as the real path: the hook follows no
                folder, file = os.path.split(os.path.abspath(value))  # link on the way (A1b)
                value = os.path.join(os.path.realpath(folder), file)
            elif name in ("--skill-dir", "--state-dir"):
                value = os.path.abspath(value)
            words += [name, value]
    if given.get("--observe") is not None:  # issue 32: logged, never denied
        words.append("--observe")
    if dialect != "claude-code":
        words += ["--dialect", dialect]
    return shlex.join(words)


def earlier(run: str) -> str:
    """``run``, a command ``command`` prints, as sessions before 48 printed it: its
    interpreter on ``-I -m skillgrant`` rather than ``-I -c HOOK_CODE`` (the same hook: a SKILL.md
    or settings file holding either is skillgrant's own)."""
    return run.replace(" " + shlex.join(["-I", "-c", HOOK_CODE]) + " ", " -I -m skillgrant ", 1)


def claude_hooks(run: str) -> dict[str, object]:
    """Claude Code's ``hooks`` mapping that runs the command ``run`` on every PreToolUse, with
    ``onFailure: block`` (a settings file's, and the one ``apply --enforce`` writes into a
    skill)."""
    return {"PreToolUse": [{"matcher": "*", "hooks": [
        {"type": "command", "command": run, "timeout": TIMEOUT_SECONDS,
         "onFailure": "block"}]}]}


class ConfigError(ValueError):
    """What is wrong with a ``--print-config`` request (a usage error)."""


def print_config(dialect: str, options: Mapping[str, str]) -> tuple[str, str]:
    """``snippet`` for a request read from the command line, checked first: the plan is given
    and loads as the hook will load it, and ``--dialect``, when given, names the same runtime.
    Raises ConfigError saying what is wrong."""
    from ..errors import SkillgrantError
    from ..plan.light import load_plan  # what the hook accepts (gate/planfile.py), warnings too

    named = options.get("--dialect")
    if named is not None and named != dialect:
        raise ConfigError(f"--print-config {dialect} prints the hook for {dialect}; leave out "
                          f"--dialect {named}")
    plan = options.get("--plan")
    if plan is None:
        raise ConfigError(f"--print-config needs --plan PLAN: the hook it prints judges every "
                          f"call against that plan (skillgrant hook --print-config {dialect} "
                          "--plan plan.yaml)")
    try:
        loaded = load_plan(plan, options.get("--plan-kind") or "auto")
    except SkillgrantError as e:
        raise ConfigError(f"the plan does not load, so the hook would deny every call: {e}"
                          ) from e
    text, note = snippet(dialect, options)
    warned = "".join(f"skillgrant: warning: {plan}: {warning}\n"
                     for warning in getattr(loaded, "warnings", ()))
    return text, warned + note


def snippet(dialect: str, options: Mapping[str, str]) -> tuple[str, str]:
    """The settings JSON for ``dialect`` running the hook with ``options`` (the hook's own,
    ``--plan`` among them), and what standard error should say about it. Printed where
    ``SKILLGRANT_STATE_DIR`` is set (a service's state folder moved there), the command
    carries it as ``--state-dir``: that hook guards the folder even when the runtime it is
    merged into lacks the variable (s53-sreview R3; docs/service.md)."""
    from .homefiles import STATE_VARIABLE

    moved = os.environ.get(STATE_VARIABLE)
    if moved and options.get("--state-dir") is None:
        options = {**options, "--state-dir": moved}
    run = command(dialect, options["--plan"], options=options)
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
    if options.get("--observe") is not None:
        from .observe import CONFIG_NOTE

        note = f"{CONFIG_NOTE}\n{note}"
    warning = _FAILS_OPEN.get(dialect)
    if warning is not None:
        note += f"\nWarning: {warning}"
    return json.dumps(body, indent=2) + "\n", note + "\n"
