"""A Skill call's ``args``, filled into the skill's ``!`` commands (review s45 K1).

Claude Code fills a skill's (or slash command's) body from the call's ``args`` before it runs
the body's `` !`cmd` `` and ```` ```! ```` commands, and no PreToolUse hook sees those commands.
So the gate finds the file the runtime reads, fills it as the runtime does (2.1.332's
``_vt``: ``\\$`` escapes, named arguments from the frontmatter's ``arguments``,
``$ARGUMENTS[N]``, ``$N``, ``$ARGUMENTS``, the args appended when nothing is filled; each value
passed through ``uG``, which breaks ``!`` markers), and judges each command the filling changed
as a Bash call against the plan. A skill file it cannot find or read, while args are given, is
refused; so is a command filled from a word of the args the gate cannot split as the runtime
does (a quote, a backslash, a shell operator in the args). Only a Skill call loads this module.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Mapping

from ..grants import JS_WHITESPACE
from .judge import Judged, Part, all_covered, outside
from .tools import Spec
from .verdict import CallPlan

#: The runtime's command markers (``Lxr``, ``Nxr``) and the inline code spans it blanks first
#: (``Bit``).
_BLOCK = re.compile(r"```!\s*\n?([\s\S]*?)\n?```")
_INLINE = re.compile(r"(?:(?<=^)|(?<=\s))!`([^`]+)`", re.MULTILINE)
_CODE_SPAN = re.compile(r"`[^`\n]+`")
#: Args the gate splits into words as the runtime does: no quote, escape or operator.
_PLAIN_ARGS = re.compile(r"[A-Za-z0-9_./:,=@%+^\s-]*")
#: A word the gate could not split: its command is refused.
_UNSPLIT = "\x00unsplit\x00"
_MAX_NAMES = 64


def judge(tool_input: Mapping[str, object], name: str, plan: CallPlan, cwd: str | None,
          covered: Judged) -> Judged:
    """``covered`` (the Skill call judged by its name) unless the call's args, filled into the
    skill's commands, make a command no approved entry covers."""
    from .commands import shell

    args = tool_input.get("args")
    if args is None:
        return covered
    if not isinstance(args, str):
        return outside("invalid", "the skill call's args are not a string", None)
    found = _files(name, cwd)
    if not found:
        if not args:
            return covered
        return outside("unknown", f"the skill {name!r} is called with args, and the gate finds "
                       "no file of it to read the commands they fill", name)
    parts = list(covered.parts)
    for path in found:
        try:
            with open(path, encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            return outside("unknown", f"the skill file {path!r} cannot be read, so the commands "
                           "the call's args fill cannot be judged", path)
        for command in _filled_commands(text, args):
            if _UNSPLIT in command:
                return outside("unknown", f"a command of {path!r} takes a word of the args "
                               f"{args!r}, which the gate cannot split as the runtime does",
                               command.replace(_UNSPLIT, "?"))
            judged = shell(Spec("Bash", "shell", ("command",)), {"command": command}, plan, cwd)
            if judged.status != "covered":
                return outside(judged.status, f"the skill's command {command!r}, filled from "
                               f"the call's args, is not allowed: {judged.reason}",
                               judged.witness or command)
            parts.extend(judged.parts or (Part(command, None),))
    return all_covered([p for p in parts if p.covered_by is not None] or covered.parts, "part")


def _files(name: str, cwd: str | None) -> list[str]:
    """Every file the runtime may read for the skill or command ``name``: ``.claude/skills/
    NAME/SKILL.md`` and ``.claude/commands/NAME.md`` (``a:b`` is ``a/b``) in the working
    directory and each folder above it, and the user's; a plugin's skill (``plugin:skill``)
    under ``~/.claude/plugins``."""
    if not name or "\x00" in name or ".." in name.split(":"):
        return []
    relative = name.replace(":", "/")
    folders = []
    folder = cwd if cwd is not None and cwd.startswith("/") else None
    while folder is not None:
        folders.append(folder)
        parent = posixpath.dirname(folder)
        folder = None if parent == folder else parent
    home = os.environ.get("HOME")
    if home and home.startswith("/") and home not in folders:
        folders.append(home)
    candidates = []
    for base in folders:
        claude = posixpath.join(base, ".claude")
        candidates += [posixpath.join(claude, "skills", relative, "SKILL.md"),
                       posixpath.join(claude, "commands", relative + ".md")]
    if ":" in name and home:
        candidates += _plugin_files(posixpath.join(home, ".claude", "plugins"), name)
    return [c for c in candidates if os.path.isfile(c)]


def _plugin_files(root: str, name: str) -> list[str]:
    """A plugin's skill or command files named by the tail of ``name``, anywhere under the
    plugins folder (the gate does not read which plugin is installed where)."""
    tail = name.rsplit(":", 1)[1]
    found = []
    for folder, dirs, names in os.walk(root):
        if posixpath.basename(folder) == tail and "SKILL.md" in names:
            found.append(posixpath.join(folder, "SKILL.md"))
        if posixpath.basename(folder) == "commands" and tail + ".md" in names:
            found.append(posixpath.join(folder, tail + ".md"))
        dirs[:] = [d for d in dirs if d != ".git"]
    return found


def _commands(text: str) -> list[str]:
    """The runtime's ``SFn``: each ```` ```! ```` block and each inline `` !`cmd` ``, trimmed."""
    found = [m.group(1) for m in _BLOCK.finditer(text)]
    if "!`" in text:
        blanked = _CODE_SPAN.sub(lambda m: _span(text, m), text)
        found += [m.group(1) for m in _INLINE.finditer(blanked)]
    return [c for c in (f.strip().replace("\r\n", "\n") for f in found) if c]


def _span(text: str, match: re.Match[str]) -> str:
    before = text[match.start() - 1] if match.start() else ""
    span = match.group(0)
    return span if before in ("!", "`") else "`" + " " * (len(span) - 2) + "`"


def _filled_commands(text: str, args: str) -> list[str]:
    """The commands of ``text`` once filled from ``args`` that are not commands of it as
    written (each once)."""
    body, names = _frontmatter(text)
    before = _commands(body)
    after = _commands(_fill(body, args, names))
    for command in before:
        if command in after:
            after.remove(command)
    return list(dict.fromkeys(after))


def _frontmatter(text: str) -> tuple[str, list[str] | None]:
    """The body after the frontmatter and the named arguments it declares, as Claude Code
    2.1.332 reads them (review s46-freview G1, G2): a leading BOM dropped, the frontmatter
    taken by its own regex (``skillfile.runtime.runtime_frontmatter``: it ends at the first
    ``---`` anywhere), its YAML read as Bun reads it, its re-quote retry included
    (``runtime.predict``), the last ``arguments`` key winning. None for the names when that
    reading cannot be computed (every ``$word`` is then taken for a named argument)."""
    from ..skillfile.runtime import Divergence, predict, runtime_frontmatter

    text = text.removeprefix("\ufeff")
    span = runtime_frontmatter(text)
    if span is None:
        return text, []
    body = text[span.end + 3:].lstrip(JS_WHITESPACE)  # (its regex's ``---\s*\n?``)
    try:
        seen = predict(text[span.start:span.end])
    except Divergence:
        return body, None
    return body, _names(seen.root)


def _names(root: object) -> list[str] | None:
    """The named arguments of a frontmatter's nodes (Bun's reading): ``arguments`` a string
    of names or a list of them; None for any other value or name."""
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode

    from ..skillfile.yamlspan import is_str_scalar

    if not isinstance(root, MappingNode):
        return []
    found = [value for key, value in root.value
             if isinstance(key, ScalarNode) and key.value == "arguments"]
    if not found or (isinstance(found[-1], ScalarNode) and found[-1].tag.endswith(":null")):
        return []
    node = found[-1]
    if isinstance(node, SequenceNode) and all(is_str_scalar(item) for item in node.value):
        names = [item.value.strip() for item in node.value]
    elif is_str_scalar(node):
        names = node.value.split()
    else:
        return None
    if not all(re.fullmatch(r"[\w.-]+", n) for n in names if n):
        return None
    return [n for n in names if n and not n.isdigit()]


def _escaped(value: str) -> str:
    """The runtime's ``uG``: a value's ``!`` markers broken."""
    value = value.replace("`!", "` !").replace("!`", "! `")
    return re.sub(r"(^|\s)!", lambda m: m.group(1) + "\\!", value, flags=re.MULTILINE)


def _fill(body: str, args: str, names: list[str] | None) -> str:
    """``body`` filled from ``args`` as the runtime's ``_vt`` fills it."""
    named = {} if names is None else dict(sorted(
        {n: i for i, n in enumerate(names[:_MAX_NAMES]) if len(n) <= 64}.items(),
        key=lambda item: -len(item[0])))
    alternatives = ([r"(?<!\\)\\\$(?=\d|ARGUMENTS"
                     + "".join(f"|{re.escape(n)}(?![\\[\\w])" for n in named) + ")"]
                    + [rf"\${re.escape(n)}(?![\[\w])" for n in named]
                    + [r"\$ARGUMENTS\[(\d+)\]", r"\$(\d+)(?!\w)", r"\$ARGUMENTS"])
    if names is None:  # any $word may be a named argument
        alternatives.insert(1, r"\$[\w.-]+")
    pattern = re.compile("|".join(f"(?:{a})" for a in alternatives))
    words = args.split() if _PLAIN_ARGS.fullmatch(args) is not None else None
    filled: list[bool] = []

    def replace(match: re.Match[str]) -> str:
        value = _value(match.group(0), args, words, named)
        if value is None:
            return match.group(0)
        if not match.group(0).startswith("\\"):
            filled.append(True)
        return value

    body = pattern.sub(replace, body)
    if not filled and args:
        body += "\n\nARGUMENTS: " + _escaped(args)
    return body


def _value(text: str, args: str, words: list[str] | None,
           named: dict[str, int]) -> str | None:
    """What the runtime puts for the placeholder ``text`` (None: it stays as written)."""
    if text.startswith("\\"):
        return "$"
    if text == "$ARGUMENTS":
        return _escaped(args)
    index: int | None
    if text.startswith("$ARGUMENTS["):
        index = int(text[11:-1])
    elif text[1:].isdigit():
        index = int(text[1:])
    else:  # a named argument past the args' words is filled with nothing
        index = named.get(text[1:])
        if words is not None and (index is None or index >= len(words)):
            return "" if index is not None else _UNSPLIT
    if words is None:
        return _UNSPLIT
    return _escaped(words[index]) if index is not None and index < len(words) else None
