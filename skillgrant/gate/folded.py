"""A command's text as the guard's word readers (``readers``, ``moves``) read it: its comments
and the bodies of its literal here-documents folded into the line that holds them.

Those readers split a command's words with ``shlex``, which knows neither comments nor
here-documents: a quote in either (``git commit -m "$(cat <<'EOF'`` ⏎ ``Fix the parser's
case`` ⏎ ``EOF`` ⏎ ``)"``, Claude Code's own commit idiom; ``cat x # it's here``) left a quote
open, and the call was denied; a guarded path a commit message names was read as a command of
its own. Here each such piece is rewritten as words of the command it belongs to: a
here-document's body, with its delimiter line, joins its command's words after a marker
(``BODY``), as the data that command reads; a comment stays on its line as words of the command
before it. Quotes, backslashes and the shell's operators in them become nothing or blanks:
they are data, and their words stay whole (the guard's words are split at the same
characters, ``guards._TOKEN``).

The places come from tree-sitter's parse, and only where the gate's analysis reads the whole
command and bash prints the same reading (``crosscheck.disagreement``): there, the comments
and here-documents are bash's. Elsewhere, and for a here-document whose body bash expands (an
unquoted delimiter, a body holding ``$``, a backtick or a backslash), the text stays as it is.
"""

from __future__ import annotations

import functools
import itertools

from ..lazy import compile_on_use

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

    from tree_sitter import Node

    from .reading import Analysis

class _NotRead(Exception):
    """A form the guard's readers do not take from the parse (the text is read otherwise)."""


#: The word a here-document's body follows in its command: no program, option or script name.
BODY: Final = "\x01"
#: What a piece of data must not hold for ``shlex``: quotes and backslashes (dropped, as bash
#: joins a word), operators, a backtick and line breaks (blanks).
_DROPPED: Final = compile_on_use(r"['\"\\]")
_BLANKED: Final = compile_on_use(r"[;&|<>()`\n\r\t]")
#: Put before a word that reads as an assignment once its quotes are gone, but is none to
#: bash (a program or an argument: review s43 V5); ``_ASSIGNMENT_LIKE``, such a word.
NOT_ASSIGNED: Final = "\x02"
_ASSIGNMENT_LIKE: Final = compile_on_use(r"[A-Za-z_][A-Za-z0-9_]*(?:\[[^]]*\])?\+?=")
#: Bodies bash expands: not data.
_EXPANDED: Final = compile_on_use(r"[$`\\]")
#: The children a here-document's node may have here.
_HEREDOC_PARTS: Final = frozenset({"<<", "<<-", "heredoc_start", "file_redirect",
                                   "heredoc_body", "heredoc_end"})


@functools.lru_cache(maxsize=64)
def agreed(text: str) -> Analysis | None:
    """The gate's analysis of the shell command ``text`` (``shell.analyse``) where it reads
    the whole command and bash prints the same reading; None elsewhere. (The parse and bash
    are asked only here, for the few commands the guard reads this way.)"""
    from .crosscheck import disagreement
    from .shell import analyse

    analysis = analyse(text)
    if analysis.doubt is not None or (analysis.reprinted is not None and disagreement(
            text, analysis.reprinted) is not None):
        return None
    return analysis


@functools.lru_cache(maxsize=64)
def folded(text: str) -> str:
    """``text`` with its comments and literal here-documents folded (the module's text), or
    ``text`` itself where bash's reading of them is not shown to be the gate's."""
    if ("<<" not in text and "#" not in text) or agreed(text) is None:
        return text
    from .bashparser import parser  # the parse: most commands hold neither
    from .words import Doubt

    source = text.encode("utf-8")
    pieces: list[tuple[int, int, str]] = []
    try:
        _fold(source, parser().parse(source).root_node, pieces)
    except (Doubt, _NotRead):
        return text
    out = bytearray(source)
    for start, end, replaced in sorted(pieces, reverse=True):
        out[start:end] = replaced.encode("utf-8")
    return out.decode("utf-8")


def _fold(source: bytes, root: Node, pieces: list[tuple[int, int, str]]) -> None:
    """Adds to ``pieces`` each comment and literal here-document below ``root``, with the
    text it is read as."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "comment":
            pieces.append((node.start_byte, node.end_byte, _data(_text(source, node))))
        elif node.type == "heredoc_redirect":
            found = _heredoc(source, node)
            if found is not None:
                pieces.append((node.start_byte, node.end_byte, found))
                continue
        stack.extend(node.children)


def _heredoc(source: bytes, node: Node) -> str | None:
    """A here-document's redirections (``<<-E >out``), then ``BODY`` and its body's words, on
    one line; None when bash expands its body, or it has a form not read here."""
    from .reprint import heredoc_body, heredoc_delimiter

    kinds = [child.type for child in node.children]
    if not set(kinds) <= _HEREDOC_PARTS or kinds.count("heredoc_start") != 1 or \
            kinds.count("heredoc_end") != 1 or any(
                source[a.end_byte:b.start_byte].strip(b" \t\n")
                for a, b in itertools.pairwise(node.children)):
        return None  # (nothing between its parts but blanks)
    start = node.children[kinds.index("heredoc_start")]
    end = node.children[kinds.index("heredoc_end")]
    delimiter, literal = heredoc_delimiter(_text(source, start))
    body = heredoc_body(source, start, end, delimiter, "<<-" in kinds)
    if not literal and _EXPANDED.search(body):
        return None
    redirects = [_text(source, c) for c in node.children if c.type == "file_redirect"]
    return " ".join([*redirects, BODY, _data(body), _data(delimiter)])


def _data(text: str) -> str:
    """``text`` as words of data: its quotes and backslashes dropped, operators blanked."""
    return _BLANKED.sub(" ", _DROPPED.sub("", text))


def _text(source: bytes, node: Node) -> str:
    return source[node.start_byte:node.end_byte].decode("utf-8")


@functools.lru_cache(maxsize=64)
def tree_commands(text: str) -> tuple[tuple[str, ...], ...] | None:
    """The simple commands of the shell command ``text`` as bash reads them, for the readers
    rule (``readers``): each one's words, quotes and backslashes removed (as the guard's words
    are), a here-document's body after ``BODY`` and a here-string's word among them; each
    redirection's target apart, led by ``>``; the commands of its substitutions, and a loop's
    or a ``case``'s words led by their keyword, on their own. None where the gate's analysis
    is not bash's (``agreed``), or the command defines a function (its name would run
    another program). Comments are left out."""
    if agreed(text) is None:
        return None
    from .bashparser import parser
    from .words import Doubt

    source = text.encode("utf-8")
    found: list[tuple[str, ...]] = []
    stack = [parser().parse(source).root_node]
    try:
        while stack:
            node = stack.pop()
            stack.extend(_commands_of(source, node, found))
    except (Doubt, _NotRead):
        return None
    return tuple(found)


#: Nodes whose words are one command's, led by their keyword (``[[``, ``export``, ``for``).
_COMMANDS: Final = frozenset({"command", "declaration_command", "unset_command",
                              "test_command", "for_statement", "case_statement"})
#: Words of those that are syntax, not words (``in`` of a ``for``, its body).
_SYNTAX: Final = frozenset({"in", "do_group", "case_item", ";", "esac", "do", "done"})


def _commands_of(source: bytes, node: Node, found: list[tuple[str, ...]]) -> list[Node]:
    """Adds the commands ``node`` itself makes to ``found``; the nodes to read next."""
    kind = node.type
    if kind in ("function_definition", "ERROR"):
        raise _NotRead(f"a {kind}")
    if kind == "comment":
        return []
    if kind in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
        data = [BODY]  # of a statement that is no simple command: its data is held by the
        found.extend(_redirected(source, node, data))  # marker, no program's
        found.append(tuple(data))  # (`while read x; do …; done <<EOF`)
        return list(node.children)
    if kind == "redirected_statement":  # `cat <<'EOF'` ⏎ …: the command's own redirections
        body = node.child_by_field_name("body")
        if body is not None and body.type == "command":
            return _command(source, body, [*body.children, *node.children[1:]], found)
    if kind not in _COMMANDS:
        return list(node.children)
    return _command(source, node, list(node.children), found)


def _command(source: bytes, node: Node, children: list[Node],
             found: list[tuple[str, ...]]) -> list[Node]:
    """Adds the command ``node`` (of ``children``, its redirections among them) to
    ``found``; the nodes to read next."""
    kind = node.type
    words: list[str] = []
    data: list[str] = []  # (its standard input's: no word of the command, s48-greview G1)
    after: list[Node] = []
    for child in children:
        if child.type in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
            found.extend(_redirected(source, child, data))
            after.extend(n for c in child.children for n in c.children)  # a target's
            # substitutions (`> "$(gcc …)"`), not the redirections read here
        elif child.type not in _SYNTAX and (child.is_named or kind != "command"):
            word = unquoted(_text(source, child))  # a quoted `'A=./e'` is no assignment:
            words.append(NOT_ASSIGNED + word if child.type != "variable_assignment" and  # V5
                         _ASSIGNMENT_LIKE.match(word) else word)
            after.append(child)
        else:
            after.append(child)
    found.append(tuple(words))
    if data:  # a here-string's word, a here-document's body: the data the program reads,
        # as a command of its own led by the program and BODY (`cp a b<<<x` copies a to b)
        found.append((*words[:1], BODY, *(w for w in data if w != BODY)))
    return after


#: What an input redirection's target (``< FILE``: opened to read, never made) is read as: a
#: command reading it (``readers.READERS``), so that ``bash < tools/x.sh`` under its own entry
#: (the script guarded) is no write of it (s48-greview2's COST on S3).
READ: Final = "cat"


def _redirected(source: bytes, node: Node, words: list[str]) -> list[tuple[str, ...]]:
    """A redirection of a command: a file's target as a command ``(">", target)`` (``(READ,
    target)`` for ``<`` alone); a here-document's body and a here-string's word added to
    ``words``, its data's."""
    if node.type == "file_redirect":
        targets = [c for c in node.children if c.is_named and c.type != "file_descriptor"]
        lead = READ if [c.type for c in node.children if not c.is_named] == ["<"] else ">"
        return [(lead, unquoted(_text(source, t))) for t in targets]  # (`<`: a read, C-S3)
    if node.type == "herestring_redirect":
        words += [unquoted(_text(source, c)) for c in node.named_children]
        return []
    body = _heredoc(source, node)
    if body is None:
        raise _NotRead("a here-document whose body bash expands")
    words += [w for w in body[body.index(BODY):].split(" ") if w]
    return [(">", unquoted(_text(source, t)))
            for c in node.children if c.type == "file_redirect"
            for t in c.children if t.is_named and t.type != "file_descriptor"]


def unquoted(text: str) -> str:
    """A word's text as the guard's words are read: quotes and backslashes removed (bash
    joins `pla''n.json`, unescapes `pla\\n.json`)."""
    return _DROPPED.sub("", text)
