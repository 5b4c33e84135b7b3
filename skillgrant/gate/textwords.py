"""The words of a command's text as far as they may name a file (``guards``' reading, before
``named.named_word`` asks each): a line continuation removed (bash joins `.cla\\⏎ude` anywhere
outside single quotes: review s43 W16), quotes and backslashes removed (bash joins
`pla''n.json`, unescapes `pla\\n.json`), braces expanded as bash expands them before a word is
cut at its operators and `=` (`{-DA=,-o}PATH`: W17). A brace or comma in quotes or escaped is
literal to bash (`'{"a": 1, "b": 2}'` is one word of data, `.c{l,\\}}aude` is `.claude` and
`.c}aude`: W17c), and so here; a loop's variable (`for t in lint test`) names no file.
"""

from __future__ import annotations

import re

from ..lazy import compile_on_use
from .folded import unquoted
from .writers import braced

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final


def text_words(text: str) -> list[str]:
    """The words of ``text`` as far as they may name a file (see the module's text). Where the
    quoting is not read exactly here (``$'…'``, a substitution in double quotes: ``_marked``),
    a brace list in a text holding quotes is also read as a star (`.c*aude`)."""
    given = text.replace("\\\n", "")
    text = _LOOP_NAME.sub(r"\1\2", given) if "<<" not in given and "\\" not in given else \
        given  # (a here-doc's lines are data a program may take as operands: `xargs tee <<E⏎
    # for Makefile; do⏎E`; `tee \; for Makefile in x \; do`: escaped, no operators, Q1b)
    marked = _marked(text)
    bare = unquoted(text if marked is None else marked)
    chunks: list[str] = []
    for chunk in re.split(r"[ \t\n]+", bare):  # (bash's blanks: not `\x1f`)
        if chunks and chunks[-1].count("{") > chunks[-1].count("}"):
            chunks[-1] += " " + chunk  # `{"-DA= x",-o}PATH`: a quoted blank in a list (W17b)
        else:
            chunks.append(chunk)
    starred = marked is None and bare != text
    words = [token.translate(_UNMARKED) for chunk in chunks for form in _forms(chunk, starred)
             for token in _TOKEN.findall(form)]
    return _looped(words, given) if "$" in given and not any(
        q in given for q in ("'", '"', "\\", "`", "<<")) and _LOOP.search(given) else words


def _looped(words: list[str], text: str) -> list[str]:
    """``words`` with a loop's variable (``$t``, ``${t}``) read as each word of its list, where
    every list the text gives that name is of plain words (no expansion or pattern; the text
    holds no quote, so no loop is a quoted string's) and nothing else in the text sets it
    (``t=…``, ``read``, ``printf -v``, ``unset``, ``${t:=…}``; nor splits it: ``IFS``); kept
    as it is (a word the gate cannot name)
    otherwise."""
    lists: dict[str, list[str]] = {}
    unknown: set[str] = set()
    for name, listed in _LOOP.findall(text):
        lists.setdefault(name, []).extend(listed.split())
        if not all(_PLAIN.fullmatch(w) for w in listed.split()):
            unknown.add(name)
    for name, values in lists.items():
        if name in unknown or re.search(rf"(?<![\w$]){name}\+?=|\$\{{{name}[^}}]|\b(?:read|"
                                        r"mapfile|readarray|getopts|printf|declare|typeset|"
                                        r"local|unset|IFS)\b", text):  # (unset, IFS: Q2)
            continue
        used = re.compile(rf"\$(?:\{{{name}\}}|{name}(?!\w))")
        words = [form for word in words for form in (
            [used.sub(value, word) for value in values] if used.search(word) else [word])]
    return words


def _forms(chunk: str, starred: bool) -> list[str]:
    """What bash's brace expansion may make of a word the guard reads with its quotes gone;
    with ``starred``, the list also read as a star."""
    if not _EXPANDED_BRACE.search(chunk):
        return [chunk]
    return [*braced(chunk), _WHOLE_BRACE.sub("*", chunk)] if starred else braced(chunk)


def _marked(text: str) -> str | None:
    """``text`` with each brace and comma bash reads literally (in single or double quotes, or
    after a backslash) replaced by a mark (``_MARKS``), so that brace expansion passes it by;
    None where the quoting is not read here exactly (ANSI-C ``$'…'``, a locale's ``$"…"``, a
    substitution or a backquote in double quotes, whose words are another command's)."""
    out: list[str] = []
    quote = ""
    at = 0
    while at < len(text):
        char = text[at]
        if quote == "'":
            quote = "" if char == "'" else quote
        elif char == "\\":
            out.append(char + text[at + 1:at + 2].translate(_MARKS))
            at += 2
            continue
        elif quote == '"':
            if char == "`" or text.startswith("$(", at):
                return None
            quote = "" if char == '"' else quote
        elif char in "'\"":
            if text[at - 1:at] == "$":
                return None
            quote = char
            out.append(char)
            at += 1
            continue
        out.append(char.translate(_MARKS) if quote else char)
        at += 1
    return "".join(out)


#: The marks of a literal brace and comma (characters no command's text holds), and back.
_MARKS: Final = str.maketrans({"{": "\x0e", "}": "\x0f", ",": "\x10"})
_UNMARKED: Final = str.maketrans({"\x0e": "{", "\x0f": "}", "\x10": ","})
#: A ``for``/``select`` loop's variable where a command starts (after an operator or a line's
#: start; not after a word: `tee do for Makefile;` writes Makefile, s54-greview3 Q1) and its
#: ``do`` follows (`for t in a b; do …`): a name bash assigns, no word a program reads
#: (s51-greview3 K1); the groups kept around it.
_LOOP_NAME: Final = compile_on_use(
    r"((?:^|[;&|(\n])\s*)((?:for|select)\s+)[A-Za-z_][A-Za-z0-9_]*"
    r"(?=(?:\s+in\b[^;\n]*)?\s*[;\n]\s*do(?:\s|$))")
#: A loop over a list of words: its variable's name, its list (to the ``;`` or line before
#: ``do``); a plain word of such a list.
_LOOP: Final = compile_on_use(r"(?:^|[;&|(\n])\s*(?:for|select)\s+([A-Za-z_]\w*)\s+in\s+"
                               r"([^;\n]*?)\s*[;\n]\s*do(?:\s|$)")
_PLAIN: Final = compile_on_use(r"[A-Za-z0-9_./+@%:,-]+")
#: The words of a command's text, as far as they may name a file (quotes and operators split).
_TOKEN: Final = re.compile(r"[^\s;&|<>()'\"`=]+")
#: A brace bash expands: a list (``{a,b}``) not after a ``$``; and a word's braces, from its
#: first ``{`` to its last ``}``.
_EXPANDED_BRACE: Final = re.compile(r"(?<!\$)\{[^{}$]*,[^{}]*\}")
_WHOLE_BRACE: Final = compile_on_use(r"\{.*\}")
