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

import re
from collections.abc import Mapping

from ..grants import JS_WHITESPACE
from .judge import Judged, Part, all_covered, outside
from .tools import Spec
from .verdict import CallPlan

#: The runtime's command markers (``Lxr``, ``Nxr``) and the inline code spans it blanks first
#: (``Bit``).
#: Python's white space and JavaScript's (``\s`` differs: U+FEFF is JavaScript's, U+0085 and
#: U+001C-U+001F Python's): a marker after either is one to the gate (review s46-freview2 G3).
_SPACE = "[\\s" + re.escape(JS_WHITESPACE) + "]"
_BLOCK = re.compile(r"```!" + _SPACE + r"*\n?([\s\S]*?)\n?```")
_INLINE = re.compile(r"(?:(?<=^)|(?<=" + _SPACE + r"))!`([^`]+)`", re.MULTILINE)
#: The runtime's white space (JavaScript's ``\s``), before a ``!`` its ``uG`` breaks.
_JS_SPACE = "[" + re.escape(JS_WHITESPACE) + "]"
#: A named argument the gate fills as the runtime does (G4: `$+x`, `$(w)`, `$ who`, a digit of
#: another script are refused).
_NAME = re.compile(r"[A-Za-z0-9_.-]+")
_CODE_SPAN = re.compile(r"`[^`\n]+`")
#: Args the gate splits into words as the runtime does: no quote, escape or operator.
_PLAIN_ARGS = re.compile(r"[A-Za-z0-9_./:,=@%+^ \t\n\r-]*")  # (white space both split at)
#: Line breaks to PyYAML (YAML 1.1), other characters to Bun (YAML 1.2).
_YAML11_BREAKS = ("\x85", "\u2028", "\u2029")
#: First words the runtime's bash parser reads as other than a command's name.
_RESERVED = frozenset((
    "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do",
    "done", "function", "time", "coproc", "in", "export", "declare", "typeset", "readonly",
    "local", "unset", "unsetenv"))
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
_ONLY_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=(?!=)")
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
    from .skillfiles import skill_files

    found = skill_files(name, cwd)
    if not found or isinstance(found, str):
        return covered if not args else outside("unknown", found if isinstance(found, str) else (
            f"the skill {name!r} is called with args, and the gate finds no file of it to "
            "read the commands they fill"), name)
    parts = list(covered.parts)
    from ..limits import MAX_FILE_BYTES
    from ..skillfile.bounded import read_bounded

    for path in found:
        try:
            data: bytes | None = read_bounded(path)  # (a FIFO is never opened, never waited on)
        except OSError:
            data = None
        if data is None or len(data) > MAX_FILE_BYTES:
            return outside("unknown", f"the skill file {path!r} cannot be read whole, so the "
                           "commands the call's args fill cannot be judged", path)
        text = data.decode("utf-8", "replace")
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
    if (names is None and any("$" in c for c in before)) or (
            ("`" in args or "!" in args) and any(c in body for c in "$!`")):
        return [_UNSPLIT]  # (a name not read may be any `$…`: review s46-freview2 G4; a
        # backtick or `!` of the args, filled after a body's `!`, makes or re-pairs a marker:
        # G7, and the lead's Bun oracle's 4 cases)
    after = _commands(_fill(body, args, names))
    for command in before:
        if command in after:
            after.remove(command)
    return list(dict.fromkeys(after))


def _frontmatter(text: str) -> tuple[str, list[str] | None]:
    """The body after the frontmatter and the named arguments it declares, as the runtime
    reads them (reviews s46 K2, s46-freview G1/G2): the project's one reader of a skill file
    (``skillfile.runtime``: the runtime's span, then Bun's reading predicted from PyYAML's
    nodes, the last ``arguments`` key kept). None for the arguments where that reader cannot
    say what the runtime reads, or they are no list or string of names: every ``$word`` may
    then be one (refused with args)."""
    from ..skillfile.runtime import Divergence, predict, runtime_frontmatter

    span = runtime_frontmatter(text)
    if span is None:
        return text.removeprefix("\ufeff"), []
    body = text[span.end + 3:].lstrip(JS_WHITESPACE)  # (K0's closing `---\s*\n?`)
    try:
        read = predict(text[span.start:span.end])
    except (Divergence, RecursionError):
        return body, None
    if read.how == "nothing":
        return body, None  # (a predicted rejection, both ways, is no proof of no names: S5)
    return body, _names(read.root, read.text)


def _names(root: object, text: str) -> list[str] | None:
    """The named arguments of the frontmatter's nodes ``root``, composed from ``text`` (None:
    not read)."""
    from yaml.nodes import MappingNode, ScalarNode, SequenceNode

    from ..skillfile.yamlspan import is_str_scalar

    if not isinstance(root, MappingNode):
        return []
    found = [v for k, v in root.value if isinstance(k, ScalarNode) and k.value == "arguments"]
    if not found:
        return []
    node = found[-1]
    nodes = [node, *(node.value if isinstance(node, SequenceNode) else ())]
    if any(text[n.start_mark.index:n.start_mark.index + 1] in ("!", "&") for n in nodes):
        return None  # (a tag or an anchor: Bun ignores the tag, PyYAML builds it: s47 S3)
    if any(c in text[node.start_mark.index:node.end_mark.index] for c in _YAML11_BREAKS):
        return None  # (a line break to PyYAML, a character to Bun, which a name may hold: S2)
    if isinstance(node, ScalarNode) and node.tag.endswith(":null"):
        return []
    if isinstance(node, ScalarNode) and is_str_scalar(node):
        items = [n for n in re.split(_JS_SPACE + "+", node.value) if n]  # (PIe: JS's \s, S2)
    elif isinstance(node, SequenceNode) and all(is_str_scalar(n) for n in node.value):
        items = [n.value for n in node.value]
    else:
        return None
    if not all(_NAME.fullmatch(n) for n in items):
        return None  # (a name of other characters: review s46-freview2 G4)
    return [n for n in items if not n.isdigit()]  # (ASCII digits only, as JavaScript's \d)


def _escaped(value: str) -> str:
    """The runtime's ``uG``: a value's ``!`` markers broken."""
    value = value.replace("`!", "` !").replace("!`", "! `")
    return re.sub(r"(^|" + _JS_SPACE + r")!", lambda m: m.group(1) + "\\!", value,
                  flags=re.MULTILINE)


def _fill(body: str, args: str, names: list[str] | None) -> str:
    """``body`` filled from ``args`` as the runtime's ``_vt`` fills it."""
    kept = [(i, n) for i, n in enumerate(names or ()) if len(n) <= 64][:_MAX_NAMES]  # (the
    # long ones dropped, then the first 64, each at its place in the list: G4)
    first: dict[str, int] = {}
    for i, n in kept:
        first.setdefault(n, i)  # (_vt's first entry of a repeated name fills it: s47 S1)
    named = dict(sorted(first.items(), key=lambda item: -len(item[0])))
    alternatives = ([r"(?<!\\)\\\$(?=\d|ARGUMENTS"
                     + "".join(f"|{re.escape(n)}(?![\\[\\w])" for n in named) + ")"]
                    + [rf"\${re.escape(n)}(?![\[\w])" for n in named]
                    + [r"\$ARGUMENTS\[(\d+)\]", r"\$(\d+)(?!\w)", r"\$ARGUMENTS"])
    if names is None:  # any $word may be a named argument
        alternatives.insert(1, r"\$[\w.-]+")
    pattern = re.compile("|".join(f"(?:{a})" for a in alternatives), re.ASCII)  # (JS's \w, \d)
    words = _words(args)
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


def _words(args: str) -> list[str] | None:
    """The words of ``args`` as the runtime's ``tTi`` takes them (its bash parser's first
    command, ``mP``; a plain split where that finds none), where the gate can show they are the
    plain split; None otherwise (review s47-freview S4: an assignment before the command is
    dropped, a reserved word starts a compound, a line break ends the command, ``export a``
    is ``[export]``)."""
    if _PLAIN_ARGS.fullmatch(args) is None:
        return None
    words = args.split()
    if not words:
        return words
    if re.search(r"[\n\r]", args.strip()) or words[0] in _RESERVED or "=" in words or (
            _ASSIGNMENT.match(words[0]) and not all(_ONLY_ASSIGNMENT.match(w) for w in words)):
        return None  # (all assignments: the parser finds no command, the plain split is kept)
    return words


def _value(text: str, args: str, words: list[str] | None,
           named: dict[str, int]) -> str | None:
    """What the runtime puts for the placeholder ``text`` (None: it stays as written)."""
    if text.startswith("\\"):
        return "$"
    if text == "$ARGUMENTS" and "ARGUMENTS" not in named:  # (a name of it first: G5)
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
