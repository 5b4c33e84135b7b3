"""The command line of ``skillgrant hook``, read without typer (a hook starts on every tool
call): its options by long name (``read_options``), for the hook and for what checks a hook's
command (``gate.subagents``)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from .dialects import DIALECTS

USAGE = """\
Usage: skillgrant hook --plan PLAN [--dialect auto|claude-code|copilot-cli|codex|vscode|gemini-cli]
                       [--outside deny|ask] [--inside none|allow] [--audit-log FILE]
                       [--skill-dir DIR] [--plan-kind auto|plan|skill|settings] [--observe]
                       [--for-skill NAME] [--plan-sha256 HEX] [--state-dir DIR]
       skillgrant hook --print-config claude-code|copilot-cli|codex|vscode|gemini-cli --plan PLAN
                       [--for-skill NAME]

Read one PreToolUse hook payload on standard input and decide the tool call against the approved
plan (a plan file, an approved SKILL.md or a settings.json). A call outside the plan is denied
with the reason on standard error and exit status 2; a call inside gets no decision. Any failure
denies the call. With --observe, every call is decided and logged ("observed": true) and none
is denied. With --plan-sha256 (as --print-config and apply --enforce write it), every call is
denied once the plan file holds another plan than the one of that digest. With --state-dir
(as --print-config writes it where SKILLGRANT_STATE_DIR is set), that folder is guarded too.
"""
#: Each option with the values it takes (None: any value).
OPTION_CHOICES = {"--plan": None, "--dialect": ("auto", *DIALECTS), "--outside": ("deny", "ask"),
           "--inside": ("none", "allow"), "--audit-log": None, "--print-config": DIALECTS,
           "--plan-kind": ("auto", "plan", "skill", "settings"), "--skill-dir": None,
           "--for-skill": None, "--plan-sha256": None, "--state-dir": None}
#: Tools that start or continue a subagent, as Claude Code 2.1.332 names them: ``Agent`` (and its
#: former name ``Task``), ``Workflow`` (and its alias ``RunWorkflow``: a script's ``agent()``
#: starts subagents; review R-10), ``SendMessage`` (continues one; read from the binary). The
#: one list, for ``check``/``lint``'s SGL117 too.
SUBAGENT_TOOLS = frozenset({"Agent", "Task", "Workflow", "RunWorkflow", "SendMessage"})
#: Those and ``Skill``: a skill it names may run forked (``context: fork``), now or after an
#: edit (review S3b). Here, with the options, so the hook reads it without importing
#: ``gate.subagents`` on every call.
AGENT_TOOLS = SUBAGENT_TOOLS | {"Skill"}
#: Options that take no value (issue 32: ``--observe``, gate/observe.py).
FLAGS = ("--observe",)


#: Set by the service only, never read from a command line: the session's project folder it
#: found for the request (gate/environment.py).
PROJECT_OPTION = "--project-folder"


def project_folder(option: Callable[[str], str | None]) -> str | None:
    """The session's project folder: the one the service found for the request (review M-1),
    else ``$CLAUDE_PROJECT_DIR``, which Claude Code gives its command hooks."""
    return option(PROJECT_OPTION) or os.environ.get("CLAUDE_PROJECT_DIR")


class UsageError(ValueError):
    pass


class Options:
    """The hook's options, by long name."""

    def __init__(self, values: dict[str, str] | None = None) -> None:
        self.values: dict[str, str] = dict(values or {})
        self.help = False

    def get(self, name: str) -> str | None:
        return self.values.get(name)


def read_options(args: Sequence[str]) -> Options:
    options = Options()
    rest = iter(args)
    for token in rest:
        if token in ("-h", "--help"):
            options.help = True
            continue
        if token in FLAGS:
            if token in options.values:
                raise UsageError(f"{token} is given twice")
            options.values[token] = "on"
            continue
        name, eq, value = token.partition("=")
        if name not in OPTION_CHOICES:
            raise UsageError(f"unknown option {token!r}")
        if name in options.values:
            raise UsageError(f"{name} is given twice")
        if not eq:
            following = next(rest, None)
            if following is None:
                raise UsageError(f"{name} needs a value")
            value = following
        choices = OPTION_CHOICES[name]
        if choices is not None and value not in choices:
            raise UsageError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
        options.values[name] = value
    return options
