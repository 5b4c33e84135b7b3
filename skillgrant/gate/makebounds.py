"""Where a doubt of make's reading may read from (issue 29; session 55, the write guard): a
makefile's text the gate cannot compute exactly (``makereads``' doubts) still reads only below
the folder make runs in when every name it is made of stays there: each variable it refers to
is one the makefiles assign themselves (``=``, ``:=``, ``define``: the environment's value is
not taken; ``?=``, ``+=`` alone or ``!=`` may take it or a command's output), a function but
``shell``, an automatic variable, a ``for`` loop's shell variable over such words; and no text
of it climbs (``..``), starts at the root (but ``/dev/null``) or at a home (``~``). Such a
doubt write-guards make's folder; any other, every folder (``EVERYWHERE``)."""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The bound of a doubt whose text may name any folder.
EVERYWHERE: Final = "/"
#: make's functions whose value is words of their arguments' text as written (GNU make 4.3;
#: ``call`` expands a variable the makefile assigns, read as a reference of it). Not those
#: composing new text from pieces (``subst``, ``dir``, ``join``, ``addprefix``…: `..` of `.`
#: and `.`; review s55-greview B1), nor ``shell``'s or ``file``'s (a command's output, a
#: file's text).
_FUNCTIONS: Final = frozenset((
    "strip", "findstring", "filter", "filter-out", "sort", "word", "wordlist", "words",
    "firstword", "lastword", "wildcard", "if", "or", "and", "foreach", "call", "value", "eval",
    "origin", "flavor", "error", "warning", "info", "let", "intcmp"))
#: make's own variables whose value names no folder but make's (or none); and ``PATH``, the
#: session's, whose folders the gate guards whole (``guards``: where a program is found).
_OWN: Final = frozenset(("PATH", "MAKE", "CURDIR", "MAKECMDGOALS", "MAKELEVEL",
                         "MAKE_VERSION", ".DEFAULT_GOAL", "MAKE_COMMAND"))
#: A reference's opening and the name or function word after it.
_REFERENCE: Final = re.compile(r"\$(?:\$|[({]([^\s(){},:=$]*)|([^({$]))")
#: A whole reference to a variable (``$(E)``, ``${E}``, ``$@``), replaced by its text.
_WHOLE_REFERENCE: Final = re.compile(r"\$(?:[({]([^\s(){},:=$]+)[)}]|([^({$]))")
#: A shell ``for`` loop's variable and its words (``for d in $(SUBDIRS); do``).
_LOOP: Final = re.compile(r"\bfor\s+(\w+)\s+in\s+([^;\n]*)")
#: The variables a function binds for its text (``$(foreach f,…``, ``$(let a b,…``), and
#: those ``call``, ``value`` name (their values are the text they expand).
_BINDS: Final = re.compile(r"\$[({](?:foreach|let)\s+([^,]+),")
_NAMES: Final = re.compile(r"\$[({](?:call|value)\s+([^,()${}\s]+)")
#: A shell variable a recipe refers to (``$$d``, ``$${d}``).
_SHELL_VARIABLE: Final = re.compile(r"\$\$\{?(\w+)")
#: Text naming a folder outside make's: a ``..``, a word from the root or a home.
_LEAVES: Final = re.compile(r"\.\.|(?:^|[\s=,:;'\"()|&<>])[/~]|\.[?*\[]|\[|\bcd\s*(?:$|[;&|)])|"
                            r"\bpopd\b|\\|\{[^{}]*,")  # (dash's `.?` matches `..`: B4; a bare
# cd: B2; bash's brace list, `.{.,.}/` is `../`, where a makefile sets SHELL: s55-greview B6)
_MAX_EXPANDED: Final = 256


def bound(text: str, folder: str, definitions: dict[str, list[str]],
          assigned: frozenset[str] | set[str]) -> str:
    """``folder`` when the makefile text ``text`` (of a doubt of make in ``folder``) reads
    only below it, by the variables' ``definitions`` (of them ``assigned``: those the makefiles
    assign themselves); else ``EVERYWHERE`` (see the module's text)."""
    pending, seen, bound_names = [text], set[str](), set[str]()
    while pending:
        piece = pending.pop()
        if len(seen) > _MAX_EXPANDED:
            return EVERYWHERE
        bound_names |= {name for name, _ in _LOOP.findall(piece)}
        bound_names |= {n for names in _BINDS.findall(piece) for n in names.split()}
        named = _references(piece, definitions)
        if named is None or any(v not in bound_names for v in _SHELL_VARIABLE.findall(piece)):
            return EVERYWHERE  # (`$(shell …)`; a recipe's environment's `$$HOME`)
        for name in named - seen:
            if name not in assigned | bound_names and name not in _OWN and not _automatic(name):
                return EVERYWHERE  # (a computed name, the environment's value)
            seen.add(name)
            pending += definitions.get(name, [])
    return folder


def _references(piece: str, definitions: dict[str, list[str]]) -> set[str] | None:
    """The variables the text ``piece`` refers to (and ``call``'s, ``value``'s); None where
    its text leaves make's folder (each reference read as its one literal value, or as a
    word where none of its values is empty or starts or ends with a `.` or `/`), or it holds
    a function but ``_FUNCTIONS``', a substitution reference or a computed name."""
    plain = _WHOLE_REFERENCE.sub(lambda m: _as_text(m, definitions), piece.replace("$$", ""))
    plain = _REFERENCE.sub("R", plain)  # (a function's: its arguments read as they are)
    plain = plain.replace("/dev/null", "")
    if _LEAVES.search(plain) or "$$(" in piece or "`" in piece:
        return None  # (a shell's command substitution: its output)
    found = set(_NAMES.findall(piece))
    for match in _REFERENCE.finditer(piece):
        name = match.group(1) if match.group(1) is not None else match.group(2)
        if name is None:
            continue  # (`$$`: the shell's)
        after = piece[match.end():match.end() + 1]
        if match.group(1) is not None and after in (" ", "\t", ","):
            if name not in _FUNCTIONS:
                return None
        elif match.group(1) is not None and after == ":":
            return None  # (`$(CURDIR:project=shared)`: a substitution reference)
        elif name == "":
            return None  # (`$($(X))`)
        else:
            found.add(name)
    return found


def _as_text(match: re.Match[str], definitions: dict[str, list[str]]) -> str:
    """The text a reference stands for in a doubt's text: its one literal value, ``R``
    (a word) where no value is empty or starts or ends with `.` or `/`, else `..` (climbs)."""
    name = match.group(1) if match.group(1) is not None else match.group(2)
    values = [v.strip() for v in definitions.get(name or "", [])]
    if len(values) == 1 and "$" not in values[0]:
        return values[0]
    if any(not v or v[:1] in "./" or v[-1:] in "./" for v in values):
        return ".."
    return "R"


def _automatic(name: str) -> bool:
    """Whether ``name`` is an automatic variable's (``$@``, ``$(<D)``) or a ``call``'s
    argument's (``$(1)``)."""
    return (len(name) <= 2 and name[:1] in "@<^+?*%|") or name.isdigit()


def literal(rules: list[tuple[list[str], list[str], list[str], str]],
            definitions: dict[str, list[str]], assigned: frozenset[str] | set[str]
            ) -> list[tuple[list[str], list[str], list[str], str]]:
    """``rules`` with each target's references to a variable the makefiles assign once, to
    a literal text (or to such variables' references), read (``MAIN := app`` + ``$(MAIN):
    $(OBJS)`` makes ``app``, no makefile read: what make expands a rule's targets to)."""
    known = {n: v[0].strip() for n, v in definitions.items() if n in assigned and len(v) == 1}
    for _ in range(8):  # (a value of references to such variables, read as make expands it)
        known = {n: _expanded(v, known) for n, v in known.items()}
    known = {n: v for n, v in known.items() if "$" not in v}
    if not known:
        return rules
    return [([w for t in targets for w in _expanded(t, known).split()], prerequisites, recipe,
             where) for targets, prerequisites, recipe, where in rules]


def _expanded(text: str, known: dict[str, str]) -> str:
    """``text`` with each reference to a ``known`` variable replaced by its value."""
    return _REFERENCED.sub(lambda m: known.get(m.group(1) or m.group(2), m.group(0)), text)


_REFERENCED: Final = re.compile(r"\$(?:\(([\w.-]+)\)|\{([\w.-]+)\})")
