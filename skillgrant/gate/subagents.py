"""The ceiling reaches subagents: the settings-level hook that follows a skill into its
subagents, and where it must be installed for a plan that grants ``Agent``.

Measured on Claude Code 2.1.332 (tests/conformance/test_subagents_e2e.py): a skill-scoped hook
(what ``apply --enforce`` writes) sees the main agent's calls and never a subagent's, while the
skill's ``allowed-tools`` pre-approvals do reach its subagents; a hook in a settings file sees
every call, a subagent's payload carrying the parent's ``session_id`` with ``agent_id`` and
``agent_type``. So a plan that grants ``Agent``/``Task`` is a ceiling only with a settings-level
hook that judges the subagents' calls:

* ``skillgrant hook --plan P --for-skill NAME`` (printed by ``hook --print-config claude-code
  --plan P --for-skill NAME``) judges every call a subagent makes (its payload names the agent)
  against P, and gives no decision on the main agent's calls, which the skill's own hook judges
  while the skill is active. It keeps no state: a record of which skill is active in which
  session could be deleted by a command the plan allows (``rm``), and the subagents would run
  unjudged. So the project's subagents are held to P in every session, the skill's or not: the
  price of a ceiling nothing in the session can switch off.

``apply --enforce`` refuses a plan that grants ``Agent`` or ``Task`` unless a settings file
Claude Code reads for the skill (its project's ``.claude/settings.json`` or
``.claude/settings.local.json``, for a skill at ``<project>/.claude/skills/NAME/SKILL.md``, or
``~/.claude/settings.json``) runs ``skillgrant hook --plan <the same plan> --for-skill NAME``,
denying what is outside it (``enforce_command``): a ``command`` hook on every tool, with
``"onFailure": "block"`` and a timeout of at least ``MIN_TIMEOUT``, whose program is named by
an absolute path to an executable file, as ``--print-config`` prints it, in a file that holds
nothing but hooks (``_only_hooks``: Claude Code drops a file with a key of a wrong type).
Each file is read as Claude Code reads it, or refuses the plan (``read_settings``: review
R-1..R-3). A forked skill needs the user's settings (review R-4); for any other, the skill's own
hook checks the settings of the session's folder at run time (``gate.following``: R-4, R-5).
"""

from __future__ import annotations

import json
import os
import shlex
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Final

from ..errors import SkillgrantError
from .config import HOOK_CODE
from .options import AGENT_TOOLS
from .worktree import main_checkout

MIN_TIMEOUT = 10  #: the least timeout (s) of the following hook: one that times out lets go
#: The keys a settings hook that follows a skill may have (what ``--print-config`` prints, and
#: a status message): any other key of Claude Code 2.1.332's hook schema can keep it from
#: running or blocking (``async``, ``asyncRewake``, ``if``, ``once``, ``shell``; review S2).
_HOOK_KEYS = frozenset({"type", "command", "timeout", "onFailure", "statusMessage"})


def grants_agent(entries: tuple[str, ...] | list[str]) -> list[str]:
    """The entries of an allowed-tools list that start a subagent (``Agent``, ``Agent(x)``,
    ``Task(…)``, ``Skill(…)``: a skill may run forked)."""
    return [e for e in entries if e.split("(", 1)[0].strip() in AGENT_TOOLS]


def _settings_files(skill_path: str) -> Iterator[Path]:
    """The settings files Claude Code reads for a skill at ``skill_path``: those of a session
    started in its project's folder, for ``<project>/.claude/skills/NAME/SKILL.md``."""
    path = Path(os.path.abspath(skill_path))
    yield from session_files(str(path.parents[3]) if len(path.parts) >= 5 and path.parts[-4:-2]
                             == (".claude", "skills") and path.parents[3] != Path(
                                 os.path.expanduser("~")) else None)  # a user skill (S2c)


def session_files(folder: str | None) -> Iterator[Path]:
    """The settings files Claude Code 2.1.332 reads in a session started in ``folder``: its
    ``.claude/settings.json`` and ``settings.local.json`` (not its parents': review R-4), a
    linked worktree's main checkout's ``settings.local.json`` (S-1), the user's, the managed
    ``/etc/claude-code/managed-settings.json`` and ``managed-settings.d/*`` (the binary's)."""
    if folder is not None:
        yield Path(folder) / ".claude" / "settings.json"
        yield Path(folder) / ".claude" / "settings.local.json"
        main = main_checkout(folder)  # a linked worktree's (S-1); ValueError: refused
        yield from [main / ".claude" / "settings.local.json"] if main else []
    user = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    yield Path(user) / ("cowork_settings.json" if os.environ.get(  # as the binary's bs()
        "CLAUDE_CODE_USE_COWORK_PLUGINS") else "settings.json")
    yield MANAGED / "managed-settings.json"
    try:
        dropped = sorted(os.listdir(MANAGED / "managed-settings.d"))
    except OSError as e:  # a folder that is there and cannot be listed: refused below
        dropped = [] if isinstance(e, (FileNotFoundError, NotADirectoryError)) else ["?"]
    yield from (MANAGED / "managed-settings.d" / name for name in dropped)


MANAGED = Path("/etc/claude-code")  #: where Claude Code 2.1.332 reads managed settings (Linux)


def settings_hook_for(skill: str, skill_path: str, plan: str | None = None,
                      kind: str = "auto", pin: str | None = None) -> Path | None:
    """The settings file that runs ``skillgrant hook … --for-skill skill`` (with ``--plan
    plan``, when given, read as ``kind``, pinned to the digest ``pin`` as the skill's own hook
    is) on every PreToolUse, or None (``follow_hook``)."""
    return follow_hook(skill, skill_path, plan, kind, _settings_files(skill_path), pin)[0]


def follow_hook(skill: str, skill_path: str, plan: str | None, kind: str,
                files: Iterable[Path], pin: str | None = None) -> tuple[Path | None, str | None]:
    """The file of ``files`` that runs the hook that follows ``skill`` (``_follows``, pinned
    to ``pin``), and None; or None and why none does (a file naming itself and where it
    failed). The file must hold nothing but hooks of the shape checked here (``_only_hooks``).
    Any file that switches hooks off, or that exists and is not read exactly as Claude Code
    reads it (``read_settings``), makes it None (review R-1..R-3): its ``disableAllHooks``
    may count."""
    found = None
    try:
        files = list(files)
    except ValueError as e:  # a linked worktree whose main checkout is not found
        return None, str(e)
    for path in files:
        settings, problem = read_settings(path)
        if problem is not None:
            return None, problem
        if isinstance(settings, dict) and any(
                settings.get(key, False) is not False for key in _SWITCHES):
            return None, f"{path}: it sets {next(k for k in _SWITCHES if k in settings)!r}, " \
                "so Claude Code may run no hook from the other settings files"
        if not _only_hooks(settings):
            continue  # Claude Code drops a settings file it cannot validate, hooks and all
        if found is None and any(_follows(command, skill, plan, skill_path, kind, pin)
                                 for command in _pre_tool_commands(settings)) and \
                _only_follows(settings, skill, plan, skill_path, kind, pin):
            found = path
    return found, None if found else "no settings file Claude Code reads runs it"


def _only_follows(settings: object, skill: str, plan: str | None, skill_path: str,
                  kind: str, pin: str | None) -> bool:
    """Whether every hook of the file's ``PreToolUse`` and ``PermissionRequest`` groups is the
    hook that follows the skill: another may rewrite the call after the gate judged it
    (``updatedInput``; review R-11). Hooks of other files are not seen (docs/call-gate.md)."""
    hooks = settings.get("hooks") if isinstance(settings, dict) else None
    groups = [group for event in ("PreToolUse", "PermissionRequest")
              for group in (hooks.get(event) or [] if isinstance(hooks, dict) else [])]
    return all(isinstance(group, dict) and all(
        isinstance(hook, dict) and isinstance(hook.get("command"), str)
        and _follows(hook["command"], skill, plan, skill_path, kind, pin)
        for hook in group.get("hooks") or []) for group in groups)


#: The most bytes a settings file may hold: Claude Code 2.1.332 drops one of 2 MiB (``2097152``
#: in the binary; bisected between 2,090,000 and 2,100,000 characters: review R-12), a margin.
MAX_SETTINGS_BYTES = 2_000_000
#: Settings that keep hooks from running (``allowManagedHooksOnly``: only managed hooks run).
_SWITCHES = ("disableAllHooks", "allowManagedHooksOnly")
_ABSENT: Final = object()


def read_settings(path: Path) -> tuple[object, str | None]:
    """The JSON value of the settings file at ``path`` as Claude Code 2.1.332 reads it (one
    leading byte-order mark stripped, then ``JSON.parse``), and None; ``_ABSENT`` when there
    is no such file; or None and a located problem when it exists and cannot be read exactly
    so: unreadable, not a regular file, over ``MAX_SETTINGS_BYTES`` (R-12), not UTF-8 (the
    runtime decodes with replacement characters: R-2), not JSON (``JSON.parse``'s grammar, no
    ``NaN``/``Infinity``), nested too deeply for Python's parser (R-3)."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):  # a FIFO would block the read
            raise OSError("not a regular file")
        with path.open("rb") as handle:
            data = handle.read(MAX_SETTINGS_BYTES + 1)
    except (FileNotFoundError, NotADirectoryError):
        return _ABSENT, None
    except OSError as e:
        return None, f"{path}: the settings file cannot be read ({e.strerror or e})"
    if len(data) > MAX_SETTINGS_BYTES:
        return None, f"{path}: the settings file holds more than {MAX_SETTINGS_BYTES} bytes " \
            "(Claude Code drops one of 2 MiB)"
    bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0  # stripped, as Claude Code does
    try:
        text = data[bom:].decode("utf-8")
    except UnicodeDecodeError as e:
        return None, f"{path}: byte {e.start + 1 + bom}: " \
            "the settings file is not UTF-8 (Claude Code reads it with replacement characters)"
    try:
        return json.loads(text, parse_constant=_no_constant), None
    except RecursionError:
        return None, f"{path}: the settings file nests too deeply to read"
    except json.JSONDecodeError as e:
        return None, f"{path}:{e.lineno}:{e.colno}: the settings file is not JSON ({e.msg})"
    except ValueError as e:
        return None, f"{path}: the settings file is not read as Claude Code reads it ({e})"


def _no_constant(name: str) -> object:
    """JavaScript's ``JSON.parse`` reads no ``NaN``, ``Infinity`` or ``-Infinity``: a file
    holding one is not read by Claude Code at all (review S2b)."""
    raise ValueError(f"{name} is not JSON")


#: The types of a hook's keys as Claude Code 2.1.332 validates them.
_HOOK_TYPES: Final[dict[str, type | tuple[type, ...]]] = {
    "type": str, "command": str, "timeout": (int, float), "onFailure": str,
    "statusMessage": str}


def _only_hooks(settings: object) -> bool:
    """Whether a settings file holds nothing but ``hooks`` (and a ``$schema`` string), each
    event a list of groups ``{matcher, hooks}`` whose hooks have only the keys and types of
    ``_HOOK_TYPES``. Claude Code validates the whole file against its schema and drops it, its
    hooks with it, on any error; a list of the other keys' types would always trail that
    schema (review S2d: `"cleanupPeriodDays": "x"`, `"permissions": {"allow": "Bash"}`, a
    second group `5`), so a file that holds anything else does not count as running the hook
    that follows a skill."""
    if not isinstance(settings, dict) or not {"hooks", "$schema"}.issuperset(settings) or \
            not isinstance(settings.get("$schema", ""), str):
        return False
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return False
    groups = [group for event in hooks.values() for group in
              (event if isinstance(event, list) else [None])]
    return all(isinstance(group, dict) and {"matcher", "hooks"}.issuperset(group)
               and isinstance(group.get("matcher", ""), str)
               and isinstance(group.get("hooks"), list)
               and all(_typed_hook(hook) for hook in group["hooks"]) for group in groups)


def _typed_hook(hook: object) -> bool:
    return isinstance(hook, dict) and _HOOK_KEYS.issuperset(hook) and all(
        isinstance(value, _HOOK_TYPES[key]) and not isinstance(value, bool)
        for key, value in hook.items())


def _pre_tool_commands(settings: object) -> Iterator[str]:
    hooks = settings.get("hooks") if isinstance(settings, dict) else None
    groups = hooks.get("PreToolUse") if isinstance(hooks, dict) else None
    for group in groups if isinstance(groups, list) else []:
        if not isinstance(group, dict) or group.get("matcher", "*") not in ("*", ""):
            continue
        for hook in group.get("hooks") or []:
            if not isinstance(hook, dict) or hook.get("type") != "command" or \
                    not isinstance(hook.get("command"), str):
                continue
            if not _HOOK_KEYS.issuperset(hook):
                continue  # `async`, `if`, `once`, `shell`, …: it may not run, or not block
            timeout = hook.get("timeout", MIN_TIMEOUT)
            message = hook.get("statusMessage", "")
            # A hook that times out, or fails (a missing interpreter: exit 127), lets the call
            # go on unless it is marked `"onFailure": "block"` (Claude Code 2.1.332); a key of
            # the wrong type drops the file (S2b).
            if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and \
                    MIN_TIMEOUT <= timeout < 1e9 and hook.get("onFailure") == "block" and \
                    isinstance(message, str):
                yield hook["command"]


def _option(words: list[str], name: str) -> str | None:
    for i, word in enumerate(words):
        if word.startswith(name + "="):
            return word.partition("=")[2]
        if word == name and i + 1 < len(words):
            return words[i + 1]
    return None


def _program(word: str) -> bool:
    """Whether ``word`` names, by absolute path, an executable file that exists: the runtime
    looks a bare name up on its own ``PATH``, where a project's ``node_modules/.bin`` or an
    activated ``.venv/bin`` can hold a ``skillgrant`` of its own, and a hook whose program is
    missing fails (exit 127), which lets the call go on unless the hook blocks on failure."""
    return os.path.isabs(word) and os.path.isfile(word) and os.access(word, os.X_OK)


def _this_installation(word: str) -> bool:
    """Whether ``word`` is this installation's interpreter: the path ``sys.executable`` has,
    not resolved, as ``config.executable`` prints it. A stub that is merely named ``python3``
    and exits 0 decides nothing (review S2e); nor does the console script, whose interpreter
    reads ``PYTHONPATH`` ahead of its own packages (review s49-greview G1)."""
    import sys

    return word == os.path.abspath(sys.executable)


def _follows(command: str, skill: str, plan: str | None, skill_path: str,
             kind: str = "auto", pin: str | None = None) -> bool:
    """Whether ``command`` runs ``python -I -c HOOK_CODE hook``, as ``config.command`` prints
    it (or ``python -I -m skillgrant hook``, as it did), of this
    installation (``_this_installation``), named by an absolute path to an executable file
    (``_program``), as the hook that follows ``skill``: ``--for-skill skill``, the plan
    ``plan`` (when given), a denial for a call outside it, in Claude Code's dialect, and
    nothing else that changes what it judges; pinned to the plan's digest ``pin`` when the
    skill's hook is (a hook that reads whatever the file holds would follow a replaced plan;
    issue 29, W1c)."""
    from .options import UsageError, read_options

    try:
        words = shlex.split(command)
    except ValueError:
        return False
    if not words or not _program(words[0]):
        return False
    if len(words) > 4 and words[1] == "-I" and _this_installation(words[0]) \
            and words[2:5] in (["-m", "skillgrant", "hook"], ["-c", HOOK_CODE, "hook"]):
        rest = words[5:]  # -I: the project's folder is not on sys.path (review R3), nor
    else:  # PYTHONPATH's (``-P`` and the console script read it: review s49-greview G1)
        return False
    try:
        options = read_options(rest)
    except UsageError:
        return False
    given = options.get
    return (not options.help and given("--for-skill") == skill
            and given("--observe") is None  # observing denies nothing (review S2)
            and (given("--plan-kind") or "auto") == kind  # one file, two plans (S2f)
            and pin in (None, given("--plan-sha256"))
            and given("--print-config") is None and given("--outside") in (None, "deny")
            and given("--dialect") in (None, "auto", "claude-code")
            and given("--plan") is not None
            and (plan is None or os.path.abspath(given("--plan") or "") == os.path.abspath(plan))
            and given("--skill-dir") in (None, os.path.dirname(os.path.abspath(skill_path))))


class ForkedSkillError(SkillgrantError):
    """``apply --enforce`` on a skill that runs in a forked subagent (``context: fork``)
    without the settings hook that follows it there (review S3)."""


def forks(skill_path: str | None) -> bool:
    """Whether the SKILL.md at ``skill_path`` runs its body in a forked subagent: its
    frontmatter's ``context`` is ``fork``, as Claude Code 2.1.332 reads it (a file that is not
    there, or not read, does not fork here)."""
    if skill_path is None:
        return False
    from ..skillfile.spans import read_skill

    try:
        with open(skill_path, encoding="utf-8") as handle:
            doc = read_skill(handle.read(), skill_path)
    except (OSError, ValueError):
        return False
    return doc.metadata.get("context") == "fork"


def enforce_command(command: str, skill: str, entries: tuple[str, ...] | list[str],
                    skill_path: str | None, forked: bool | None = None) -> str:
    """The command ``apply --enforce`` writes for a skill whose allowed-tools are ``entries``
    (unchanged), once a settings file runs the hook that follows the skill into its subagents
    when one of them starts a subagent, or the skill runs forked (``forks``). Raises
    ValueError, naming the entry and what to install, when none does (ForkedSkillError for a
    forked skill without an Agent entry). ``forked``, when given, says whether the text being
    written forks (review S3r: the file on disk may not be what is applied); else the file at
    ``skill_path`` is read."""
    agents = grants_agent(entries)
    forked = forks(skill_path) if forked is None else forked
    if not agents and not forked:
        return command
    try:
        words = shlex.split(command)
    except ValueError:
        words = []
    plan, kind = _option(words, "--plan"), _option(words, "--plan-kind") or "auto"
    # A forked skill's hook, if it is not in the user's settings, may never run: Claude Code
    # reads a project's settings only in a session started in its folder, and no hook
    # of the skill's own sees the Skill call that forks it (gate.following cannot either).
    files = session_files(None) if forked else _settings_files(skill_path or "")
    found, why = follow_hook(skill, skill_path, plan, kind, files,
                             _option(words, "--plan-sha256")) \
        if skill_path is not None else (None, "the skill's file is not known")
    where = ("the user's ~/.claude/settings.json, or $CLAUDE_CONFIG_DIR/settings.json: Claude "
             "Code reads a project's settings only in a session started in its folder, and "
             "nothing sees the call that forks the skill" if forked else
             "the project's .claude/settings.json or .claude/settings.local.json, or the "
             "user's ~/.claude/settings.json; the skill's own hook lets a subagent start only "
             "in a session that reads it")
    followed = found is not None
    install = ("Install the hook that follows the skill into its subagents first: merge the "
               "output of `skillgrant hook --print-config claude-code --plan "
               f"{plan or 'PLAN'} --for-skill {skill}` into a settings file that holds only "
               f"hooks ({where}; a file with other keys does not count, as skillgrant cannot "
               "check them and a file Claude Code drops runs no hook), then apply again")
    if not agents and not followed:
        raise ForkedSkillError(
            f"{skill_path}: the skill runs in a forked subagent (`context: fork`), whose calls "
            "a skill's own hook never sees (Claude Code 2.1.332), while its allowed-tools "
            f"reach them. {install} (or remove `context: fork`). Found: {why}")
    if not followed:
        raise ValueError(
            f"the plan grants {agents[0]!r}, and a skill's own hook does not see its subagents' "
            "calls (Claude Code 2.1.332), while its allowed-tools reach them: a subagent would "
            f"run outside the plan. {install} (or remove the Agent entries from the plan). "
            f"Found: {why}")
    return command
