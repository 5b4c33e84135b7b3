"""The gate's reading of a shell command, written back as bash text: the second half of the
cross-check with bash (``crosscheck``).

``reprint(source, root)`` writes the statements and words tree-sitter found as a bash script
that holds exactly that structure and nothing of the original's layout: words joined by one
space, statements by their own operators or a line break, here-documents with their delimiter
written plainly, comments left out. bash reads that script and the original command; when it
prints the two the same way (``bash --pretty-print``), bash's reading is the gate's.

Each word is written as its source text, so a word whose text holds a blank or a line break
outside quotes (tree-sitter's ``\\n\\\\rm``: bash reads a new command there) would carry the
original's layout into the script: such a word is a ``Doubt``. So is any node this module
does not write.
"""

from __future__ import annotations

import re

from .shellnodes import substitutions
from .words import Doubt

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

    from tree_sitter import Node

#: Nodes holding statements, written child by child.
_STATEMENTS: Final = frozenset({
    "program", "list", "pipeline", "subshell", "compound_statement", "negated_command",
    "do_group", "if_statement", "elif_clause", "else_clause", "while_statement",
    "for_statement", "case_statement", "case_item", "redirected_statement",
})
#: Nodes that run: a line break (or a separator) must stand between two of them.
_RUNS: Final = _STATEMENTS - {"case_item", "do_group", "elif_clause", "else_clause"} | {
    "command", "declaration_command", "unset_command", "variable_assignment",
    "variable_assignments", "test_command"}
#: Tokens that end a statement.
_SEPARATORS: Final = frozenset({";", "&", "&&", "||", "|", "|&", ";;", ";&", ";;&"})
#: Keywords a line break may always stand before (and must, after a statement).
_CLOSERS: Final = frozenset({"then", "do", "done", "fi", "elif", "else", "esac", "}"})
#: Nodes written as their source text (a word), with any command substitution inside written
#: from its own statements.
_WORDS: Final = frozenset({
    "word", "string", "raw_string", "concatenation", "number", "simple_expansion", "expansion",
    "ansi_c_string", "translated_string", "variable_name", "extglob_pattern",
    "brace_expression", "variable_assignment", "command_name", "file_descriptor",
    "special_variable_name", "test_operator",
})
#: A here-document delimiter the gate reads: a plain name, bare, in single or double quotes,
#: or after one backslash. Any other (``E'O'F``, ``$'EOF'``, ``"E"OF``) is a doubt.
HEREDOC_DELIMITER: Final = re.compile(r"(\\?)([A-Za-z0-9_]+)|'([A-Za-z0-9_]+)'|\"([A-Za-z0-9_]+)\"")


def heredoc_delimiter(text: str) -> tuple[str, bool]:
    """The delimiter bash matches the end line against, and whether the body is literal
    (any quoting in the delimiter), for a delimiter written as ``HEREDOC_DELIMITER`` reads."""
    match = HEREDOC_DELIMITER.fullmatch(text)
    if match is None:
        raise Doubt(f"the here-document delimiter {text!r} is not a plain name, bare or in one "
                    "pair of quotes")
    escaped, bare, single, double = match.groups()
    return bare or single or double, bool(single or double or escaped)


_REDIRECTS: Final = frozenset({"file_redirect", "heredoc_redirect", "herestring_redirect"})
#: The writer's method for each other node type it writes.
_WRITERS: Final = {
    "declaration_command": "joined", "unset_command": "joined", "variable_assignments": "joined",
    "test_command": "joined", "unary_expression": "joined", "binary_expression": "joined",
    "command_substitution": "substitution", "file_redirect": "file_redirect",
    "herestring_redirect": "herestring", "heredoc_redirect": "heredoc"}


def _simple(node: Node) -> bool:
    """Whether a redirected statement's body is a simple command."""
    body = node.child_by_field_name("body")
    return body is not None and body.type == "command"


def _flat(node: Node) -> list[Node]:
    """A node's children, each nested ``list`` (``a && b && c`` nests to the left) replaced by
    its own children: a long chain is written without recursion."""
    out: list[Node] = []
    stack = list(reversed(node.children))
    while stack:
        child = stack.pop()
        if child.type == "list":
            stack.extend(reversed(child.children))
        else:
            out.append(child)
    return out


def heredoc_body(source: bytes, start: Node, end: Node, delimiter: str, tabs: bool) -> str:
    """The body of a here-document, from the line after its opening line to its end line,
    which must be the delimiter alone (after leading tabs, with ``<<-``). A Doubt when a line
    before it is the delimiter already: bash ends the here-document there."""
    opening = source.find(b"\n", start.end_byte)
    line_start = source.rfind(b"\n", 0, end.start_byte) + 1
    after = source[end.end_byte:end.end_byte + 1]
    end_line = source[line_start:end.end_byte].decode("utf-8")
    if opening < 0 or line_start <= opening or after not in (b"", b"\n") or \
            (end_line.lstrip("\t") if tabs else end_line) != delimiter:
        raise Doubt(f"the here-document ending {delimiter!r} does not end on a line of its own")
    body = source[opening + 1:line_start].decode("utf-8")
    for line in body.split("\n"):
        if (line.lstrip("\t") if tabs else line) == delimiter:
            raise Doubt(f"a line of the here-document is its delimiter {delimiter!r}: bash "
                        "ends it there")
    return body


class _Writer:
    def __init__(self, source: bytes, readwrite: set[int]) -> None:
        self.source = source
        self.readwrite = readwrite
        self.pending: list[str] = []  # here-document bodies, written after the line

    def text(self, node: Node) -> str:
        return self.source[node.start_byte:node.end_byte].decode("utf-8")

    def statements(self, node: Node) -> str:
        pieces: list[str] = []
        ran = False  # the last piece was a statement, with no separator after it yet
        for child in _flat(node):
            if self.skipped(node, child):
                continue
            if not child.is_named:
                ran = self.token(node, child, ran, pieces)
            elif child.type in _RUNS:
                if ran:
                    pieces.append(self.newline())
                pieces.append(self.node(child))
                ran = True
            else:
                if child.type in ("do_group", "elif_clause", "else_clause", "case_item"):
                    pieces.append(self.newline())
                pieces.append(self.node(child))
                ran = False
        return " ".join(pieces)

    def skipped(self, node: Node, child: Node) -> bool:
        """A comment, a command substitution's own brackets, and `<>`'s `<` (written with its
        `>`) are not written as pieces."""
        kind = child.type
        return kind == "comment" or (kind in ("$(", ")") and node.type == "command_substitution"
                                     ) or (kind == "ERROR" and child.end_byte in self.readwrite)

    def token(self, node: Node, child: Node, ran: bool, pieces: list[str]) -> bool:
        """Write a separator or a keyword; whether a statement is still open after it."""
        kind = child.type
        if kind in _SEPARATORS:
            pieces.append(kind)
            if kind == ";" and b"\n" in self.gap_after(child):
                pieces.append(self.newline())  # `a;<newline>b`: bash prints a line break
            return False
        if ran or kind in _CLOSERS or (kind == ")" and node.type == "subshell"):
            pieces.append(self.newline())
        pieces.append(kind)
        return False

    def simple(self, node: Node) -> str:
        """A simple command with its redirections written first (``> f git x``, which bash
        reads as ``git x > f``): a word the grammar hangs on a redirection, or a redirection
        it takes for a word, then stands elsewhere in bash's reading of the text written, and
        bash prints it differently from the command."""
        redirects: list[str] = []
        rest: list[str] = []
        for child in node.children:
            if child.type == "comment" or (child.type == "ERROR" and
                                           child.end_byte in self.readwrite):
                continue
            if child.type in _REDIRECTS:
                redirects.append(self.node(child))
            elif child.type == "command":
                rest.append(self.simple(child))
            else:
                rest.append(self.node(child) if child.is_named else child.type)
        return " ".join(redirects + rest)

    def gap_after(self, node: Node) -> bytes:
        following = node.next_sibling
        end = following.start_byte if following is not None else len(self.source)
        return self.source[node.end_byte:end]

    def newline(self) -> str:
        bodies, self.pending = self.pending, []
        return "\n" + "".join(bodies)

    def node(self, node: Node) -> str:
        kind = node.type
        if kind == "command" or (kind == "redirected_statement" and _simple(node)):
            return self.simple(node)
        if kind in _STATEMENTS:
            return self.statements(node)
        if kind in _WORDS:
            return self.word(node)
        writer = _WRITERS.get(kind)
        if writer is None:
            raise Doubt(f"the command holds a {kind.replace('_', ' ')}, which is not compared "
                        "with bash's reading")
        return str(getattr(self, writer)(node))

    def joined(self, node: Node) -> str:
        """A declaration, a test and its expressions: each child, one space apart."""
        return " ".join(self.node(c) if c.is_named else c.type for c in node.children
                        if c.type != "comment")

    def herestring(self, node: Node) -> str:
        words = [self.node(c) for c in node.named_children]
        if len(words) != 1:
            raise Doubt("a here-string is not one word")
        return "<<< " + words[0]

    def file_redirect(self, node: Node) -> str:
        head = ""
        target: list[str] = []
        for i, child in enumerate(node.children):
            if node.field_name_for_child(i) == "destination":
                target.append(self.word(child))
            elif child.is_named:
                head += self.word(child)
            else:
                head += "<>" if node.start_byte in self.readwrite else child.type
        return " ".join([head, *target])

    def heredoc(self, node: Node) -> str:
        operator = start = end = None
        redirects: list[str] = []
        for child in node.children:
            if child.type in ("<<", "<<-"):
                operator = child.type
            elif child.type == "heredoc_start":
                start = child
            elif child.type == "heredoc_end":
                end = child
            elif child.type == "file_redirect":
                redirects.append(self.file_redirect(child))
            elif child.type not in ("heredoc_body", "heredoc_content"):
                raise Doubt("a command follows a here-document's opening line")
        if operator is None or start is None or end is None:
            raise Doubt("a here-document is not whole")
        delimiter, literal = heredoc_delimiter(self.text(start))
        body = heredoc_body(self.source, start, end, delimiter, operator == "<<-")
        self.pending.append(body + self.text(end) + "\n")
        return " ".join([operator + (f"'{delimiter}'" if literal else delimiter), *redirects])

    def substitution(self, node: Node) -> str:
        return "$( " + self.statements(node) + self.newline() + " )"

    def word(self, node: Node) -> str:
        """The word's source text, its command substitutions written from their statements;
        a Doubt when a blank stands outside quotes in it."""
        out: list[str] = []
        at = node.start_byte
        for inner in substitutions(node):
            out.append(self.source[at:inner.start_byte].decode("utf-8"))
            out.append(self.substitution(inner))
            at = inner.end_byte
        out.append(self.source[at:node.end_byte].decode("utf-8"))
        check_blanks("".join(piece if i % 2 == 0 else "X" for i, piece in enumerate(out)))
        return "".join(out)


_ANSI_C: Final = re.compile(r"\$'(?:[^'\\]|\\.)*'", re.DOTALL)
_SINGLE: Final = re.compile(r"'[^']*'")
_DOUBLE: Final = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACED: Final = re.compile(r"\$\{[^}]*\}")


def check_blanks(text: str) -> None:
    """Raise Doubt when ``text``, one word, holds a blank or a line break outside quotes, or
    quotes that do not close."""
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        found = (_ANSI_C.match(text, i) if text.startswith("$'", i) else
                 _BRACED.match(text, i) if text.startswith("${", i) else
                 _SINGLE.match(text, i) if char == "'" else
                 _DOUBLE.match(text, i) if char == '"' else None)
        if found is not None:
            i = found.end()
            continue
        if char in " \t\n\r'\"":
            raise Doubt(f"the word {text!r} holds a blank, a line break or a quote bash reads "
                        "differently from the parser")
        i += 1


def reprint(source: bytes, root: Node, readwrite: set[int] | None = None) -> str:
    """The statements and words under ``root`` written as a bash script (module docstring);
    ``readwrite``: where each ``<>`` redirection the grammar reads apart has its ``>``."""
    writer = _Writer(source, readwrite or set())
    return writer.statements(root) + writer.newline()
