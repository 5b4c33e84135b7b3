"""Shell words as the shell analysis reads them from tree-sitter's nodes: a literal value once
quotes and escapes are removed, or a pattern (``words.Word``). ``WordReader`` is the part of the
reader (``shell``) that reads words; the reader reads the statements, the commands of each
command substitution in a word among them (``statement``)."""

from __future__ import annotations

from .lexical import SPLITS_IN_QUOTES
from .reprint import check_blanks
from .shellnodes import EXPANSIONS, substitutions
from .words import Doubt, Word, bare, unescape_double

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

    from tree_sitter import Node


class WordReader:
    """Reads the words of one command's source; ``statement`` reads a command substitution's
    commands (the statement reader overrides it)."""

    def __init__(self, source: bytes) -> None:
        self.source = source

    def text(self, node: Node) -> str:
        return self.source[node.start_byte:node.end_byte].decode("utf-8")

    def statement(self, node: Node) -> None:
        raise Doubt("a command substitution is not read here")

    def dollar(self, node: Node) -> Word:
        """An anonymous node inside a word: the grammar leaves a lone ``$`` unnamed; anything
        else is not read here. A ``$`` that bash expands with what follows it (``$"…"``, its
        locale quoting; ``$$``, the shell's process id; a name, a digit, ``{``, ``(``) is not
        a lone ``$``."""
        if node.type != "$" or node.end_byte - node.start_byte != 1:
            raise Doubt(f"a word holds {self.text(node)!r}, which the gate does not analyse")
        after = self.source[node.end_byte:node.end_byte + 1].decode("latin-1")
        if after and (after.isalnum() or after in _EXPANDS_AFTER_DOLLAR):
            raise Doubt(f"a '$' is joined to {after!r} after it, which bash expands with it "
                        "($\"…\", $$, …) and the parser reads apart")
        return Word("$")

    def operands(self, nodes: list[Node]) -> list[Word]:
        """The words of ``[ … ]`` as the grammar's test expressions hold them."""
        words: list[Word] = []
        for child in nodes:
            if child.type in ("unary_expression", "binary_expression"):
                words += self.operands(child.children)
            elif child.type in ("<", ">"):  # bash: a redirection of `[`, not an operator
                raise Doubt(f"'[' is given an unquoted {child.type!r}, which bash reads as a "
                            "redirection")
            elif child.type == "test_operator" or not child.is_named:
                words.append(Word(self.text(child)))
            else:
                words.append(self.word(child))
        return words

    def word(self, node: Node) -> Word:
        """A word's value; the commands of each command substitution in it are read (they run
        first, and their output is a value the gate does not know)."""
        if node.type == "command_substitution":
            self.statement(node)
            return Word(None, vanishes=True)
        for inner in substitutions(node):
            self.statement(inner)
        return self.value(node)

    def value(self, node: Node) -> Word:
        kind = node.type
        if kind in ("word", "number", "variable_name", "concatenation"):
            check_blanks(self.text(node) if kind != "concatenation" else
                         _outside(self.source, node))
        if kind in ("word", "number", "variable_name"):
            return bare(self.text(node))
        if kind == "raw_string":
            return Word(self.text(node)[1:-1])
        if kind == "string":
            return self.quoted(node)
        if kind in EXPANSIONS or kind == "extglob_pattern":  # substitutions: read by word()
            return Word(None, vanishes=True)
        if kind in ("ansi_c_string", "translated_string"):
            return Word(None)
        if kind == "concatenation":
            parts = [self.value(c) if c.is_named else self.dollar(c) for c in node.children]
            if all(p.value is not None for p in parts):
                return Word("".join(p.value or "" for p in parts))
            # one part that may split (a brace, a glob, an unquoted expansion) splits the word:
            # `""{-v,x}` is two words
            # and all but its first word may then start with anything (an unquoted expansion
            # splits; a glob or a brace gives each word the text before it)
            fixed = next(i for i, p in enumerate(parts) if p.value is None)
            head = "" if any(p.vanishes and c.type != "word" for c, p in zip(
                node.children, parts, strict=True)) else "".join(
                p.value or "" for p in parts[:fixed]) + parts[fixed].head
            return Word(None, vanishes=any(p.vanishes for p in parts), head=head)
        raise Doubt(f"a word holds a {kind.replace('_', ' ')}, which the gate does not analyse")

    def quoted(self, node: Node) -> Word:
        """A double-quoted string: its value when it holds no expansion, read from the text
        between its quotes (the grammar's tokens leave some of it out: the blanks before a
        closing quote or a lone ``$``, a line break between two pieces of content)."""
        children = node.children
        if any(c.type not in _QUOTED_TEXT for c in children):
            if SPLITS_IN_QUOTES.search(self.text(node)):
                return Word(None, vanishes=True)  # "$@", "${a[@]}": no word, or several
            return Word(None)  # an expansion: one word of any value
        if len(children) < 2 or children[0].type != '"' or children[-1].type != '"':
            raise Doubt(f"the quoted string {self.text(node)!r} is not read here")
        inner = self.source[children[0].end_byte:children[-1].end_byte - 1].decode("utf-8")
        if _expands_in_quotes(inner):
            return Word(None)  # a `$` bash expands that the grammar left as text
        return Word(unescape_double(inner))


def _expands_in_quotes(inner: str) -> bool:
    """Whether the text between double quotes holds a ``$`` bash expands (not escaped, before a
    name, a digit or a special parameter)."""
    i = 0
    while i < len(inner) - 1:
        if inner[i] == "\\":
            i += 2
            continue
        if inner[i] == "$" and (inner[i + 1].isalnum() or inner[i + 1] in _EXPANDS_AFTER_DOLLAR):
            return True
        i += 1
    return False


#: The characters that make bash expand a ``$`` before them (with letters and digits).
_EXPANDS_AFTER_DOLLAR: Final = frozenset("$!#?-*@_{('\"[")
#: What a double-quoted string without an expansion is made of in the grammar.
_QUOTED_TEXT: Final = frozenset({'"', "string_content", "$"})


def _outside(source: bytes, node: Node) -> str:
    """A word's text with each command substitution in it written as one letter."""
    out, at = [], node.start_byte
    for inner in substitutions(node):
        out.append(source[at:inner.start_byte].decode("utf-8") + "X")
        at = inner.end_byte
    out.append(source[at:node.end_byte].decode("utf-8"))
    return "".join(out)
