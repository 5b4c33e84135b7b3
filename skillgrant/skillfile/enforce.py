"""``apply --enforce``: a skill-scoped PreToolUse hook that runs the call gate.

The one exception to "rewrite only allowed-tools" (issue 14), and opt-in: a ``hooks:`` key is
added at the end of the frontmatter, holding one PreToolUse hook that runs ``skillgrant hook``
with the plan the file was constrained to. Claude Code 2.1.332 installs a skill's hooks when the
skill loads and runs them on every later tool call (measured: tests/conformance/
test_gate_e2e.py), so the plan becomes a ceiling for the skill, not only a pre-approval. The
command names the installed skillgrant by absolute path (``gate.config.executable``): Claude
Code runs it with ``/bin/sh`` and its own ``PATH``, where a bare ``skillgrant`` from a virtual
environment is not found.

A file that already has a ``hooks`` key keeps it: the same hook is left as it is (applying twice
equals applying once); any other hooks are refused, never merged, since a splice cannot edit a
mapping it did not write.
"""

from __future__ import annotations

import json
import os
import shlex

from ..errors import SkillFileError
from ..gate.config import TIMEOUT_SECONDS, earlier
from ..gate.config import claude_hooks as hooks_value
from .doc import SkillDoc
from .fmread import same
from .hookdrop import declares_hooks_outside
from .runtime import Divergence, predict, runtime_frontmatter
from .spans import read_skill
from .yamlspan import line_column

KEY = "hooks"


def adds_hook(doc: SkillDoc) -> bool:
    """Whether ``enforce_text`` adds the ``hooks:`` key to the file read as ``doc`` (it has none
    yet); otherwise it leaves the file's own alone, or refuses it."""
    return KEY not in doc.metadata


def skill_command(command: str, path: str | None) -> str:
    """The command as written into the SKILL.md at ``path``: with ``--skill-dir``, so the hook
    knows the skill's folder for ``${CLAUDE_SKILL_DIR}``."""
    if path is None:
        return command
    return command + " " + shlex.join(["--skill-dir", os.path.dirname(os.path.abspath(path))])


def enforce_text(text: str, command: str, *, path: str | None = None) -> str:
    """``text`` with the gate's hook in its frontmatter (unchanged when it is there already).
    Raises SkillFileError when the file has other hooks or the result does not read back."""
    doc = read_skill(text, path)
    if path is not None and _plugin_command(path):
        raise _never_runs(doc, doc.yaml_start, "Claude Code loads a plugin's command file (not "
                          "a skill) that declares hooks with no hooks (kZ)", path)
    command = skill_command(_follow_subagents(doc, command, path), path)
    wanted = hooks_value(command)
    if KEY in doc.metadata:  # (the same hook as printed before session 48: kept as it is)
        if same(doc.metadata[KEY], wanted) or same(doc.metadata[KEY],
                                                   hooks_value(earlier(command))):
            _runtime_reads_hook(doc, path)
            return text
        raise SkillFileError(f"the frontmatter already has a {KEY!r} key; --enforce adds its own "
                             "PreToolUse hook and never merges into other hooks (a hook an "
                             "earlier --enforce wrote with another plan, or from another "
                             "installation of skillgrant, is another hook: remove the key to "
                             f"write this one: {command})", path=path)
    nl = doc.newline or "\n"
    block = hook_block(command, nl)
    at = doc.yaml_end
    lead = "" if at == 0 or text[at - 1] == "\n" else nl
    new_text = text[:at] + lead + block + text[at:]
    _runtime_reads_hook(_verify(doc, new_text, wanted, path), path)
    return new_text


def hook_block(command: str, nl: str) -> str:
    """The ``hooks:`` key's lines ``enforce_text`` writes for ``command``, ending in ``nl``:
    the only spelling ``check`` takes for skillgrant's own (``keys.judge_keys``: another
    spelling PyYAML reads the same may be read otherwise by the runtime, review s43-freview
    F9)."""
    quoted = json.dumps(command)  # a JSON string is a YAML double-quoted scalar
    return nl.join([
        f"{KEY}:", "  PreToolUse:", '    - matcher: "*"', "      hooks:",
        "        - type: command", f"          command: {quoted}",
        f"          timeout: {TIMEOUT_SECONDS}", "          onFailure: block", ""])


def _follow_subagents(doc: SkillDoc, command: str, path: str | None) -> str:
    """Issue 33: a plan granting ``Agent`` needs the settings-level hook that follows the skill
    into its subagents (``gate.subagents.enforce_command``); refused, at the entry, without."""
    from ..gate.subagents import enforce_command, grants_agent

    allowed = doc.allowed_tools
    entries = allowed.entries if allowed is not None else ()
    name = doc.metadata.get("name")
    if not isinstance(name, str) or not name:
        name = os.path.basename(os.path.dirname(os.path.abspath(path))) if path else ""
    try:
        return enforce_command(command, name, entries, path,
                               forked=doc.metadata.get("context") == "fork")
    except ValueError as e:
        line = column = None
        if allowed is not None and allowed.entry_starts:
            at = allowed.entry_starts[entries.index(grants_agent(entries)[0])]
            line = doc.text.count("\n", 0, at) + 1
            column = at - doc.text.rfind("\n", 0, at)
        raise SkillFileError(str(e), path=path, line=line, column=column) from e


def _runtime_reads_hook(doc: SkillDoc, path: str | None) -> None:
    """Refuse, located, a file whose hooks Claude Code 2.1.332 would not load, so that the
    gate's hook in it would never run (review s45-freview F5): its frontmatter ends at a
    '---' before ours does, Bun rejects it and its re-quoted form, or a key declares
    PreToolUse/PermissionRequest outside ``hooks`` (``hookdrop``)."""
    text = doc.text
    span = runtime_frontmatter(text)
    if span is None or not doc.runtime_span_same:
        at = doc.yaml_start if span is None else span.end
        raise _never_runs(doc, at, f"Claude Code ends the frontmatter at the first '---' (line "
                          f"{line_column(text, at)[0]}), before the gate's hook", path)
    try:
        how = predict(text[span.start:span.end]).how
    except Divergence as e:
        raise _never_runs(doc, span.start + e.offset, e.message, path) from e
    if how == "nothing":
        raise _never_runs(doc, span.start, "Claude Code's YAML parser rejects this frontmatter "
                          "and its re-quoted form, so it reads no hooks", path)
    key = declares_hooks_outside(doc.metadata)
    if key is not None:
        at = text.find(f"\n{key}", doc.yaml_start - 1, doc.yaml_end) + 1
        raise _never_runs(doc, at or doc.yaml_start, f"the frontmatter's {key!r} declares "
                          "PreToolUse/PermissionRequest outside 'hooks', and Claude Code then "
                          "loads the skill with no hooks", path)


def _plugin_command(path: str) -> bool:
    """Whether the file at ``path`` may be a plugin's command (review s45-freview F5): any
    but a ``SKILL.md`` and a command file of a ``.claude/commands`` folder."""
    parts = os.path.abspath(path).split(os.sep)
    if parts[-1] == "SKILL.md":
        return False
    at = max((i for i, part in enumerate(parts[:-1]) if part == "commands"), default=0)
    return not (at > 0 and parts[at - 1] == ".claude")


def _never_runs(doc: SkillDoc, at: int, why: str, path: str | None) -> SkillFileError:
    line, column = line_column(doc.text, at)
    return SkillFileError(f"{why}: the gate's hook --enforce writes would never run; nothing "
                          "was written", path=path, line=line, column=column)


def _verify(before: SkillDoc, new: str, wanted: dict[str, object],
            path: str | None) -> SkillDoc:
    """Read the text with the hook back (``before``: the text without it, as read)."""
    old = before.text
    try:
        after = read_skill(new, path)
    except SkillFileError as e:
        raise SkillFileError(f"the frontmatter with the gate's hook does not read back "
                             f"({e.message}); nothing was written", path=path) from e
    others = {k: v for k, v in after.metadata.items() if k != KEY}
    if (not same(after.metadata.get(KEY), wanted) or not same(others, dict(before.metadata))
            or new[after.body_start:] != old[before.body_start:]):
        raise SkillFileError("cannot add the gate's hook safely; nothing was written", path=path)
    return after
