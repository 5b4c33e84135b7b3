"""What a shell command would run, read with tree-sitter's bash grammar (the parser the runtimes
use themselves).

``analyse(command)`` answers with the simple commands the command line may run, each as the
words the matcher compares (``Simple``), and the files its redirections write or read
(``Redirect``) — or
with a doubt: the reason the analysis does not understand the command. A doubt is the gate's
``unknown``. The analysis understands lists, pipelines, subshells, groups, ``if``/``while``/
``until``/``for``/``case``, negation, comments, assignments, declarations, here-documents and
redirections; anything else is a doubt: a parse error or partial parse, command or process
substitution, a function definition, a ``[[ … ]]`` or ``(( … ))`` test, a runner (``eval``,
``bash -c``, ``xargs``, ``find -exec``, ``sudo``, ``env`` …, see ``RUNNERS``), an expansion in
command position, and every node type not named here.

A word is either a literal, known once quotes and escapes are removed, or a pattern: a word
holding an expansion, a glob or a brace may take any value. Expansions outside quotes may also
vanish or split into several words; ``Word.vanishes`` says so. docs/call-gate.md states the
model; tests/gate/test_bash_differential.py checks it against GNU bash.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final, NamedTuple

from ..limits import MAX_SHELL_COMMAND_CHARS, MAX_SHELL_NODES
from .bashparser import parser
from .lexical import PLAIN_EXPANSION, SPLITS_IN_QUOTES, lexical_doubt
from .plainshell import plain_commands
from .words import (
    Doubt,
    Word,
    bare,
    check_runnable,
    check_variable,
    strip_wrappers,
    unescape_double,
)

if TYPE_CHECKING:
    from tree_sitter import Node


class Simple(NamedTuple):
    """A simple command that would run: its words (assignments first, wrappers removed) and its
    source text."""

    words: tuple[Word, ...]
    text: str
    stripped: tuple[str, ...] = ()


class Redirect(NamedTuple):
    """A file a redirection writes (or, with ``reads``, reads: ``< file`` passes a file the
    command's words do not name): the target word, relative to the working directory at that
    point; ``after_cd`` when a ``cd``, ``pushd`` or ``popd`` may have moved it."""

    target: Word
    text: str
    after_cd: bool = False
    reads: bool = False


class Analysis(NamedTuple):
    commands: tuple[Simple, ...] = ()
    redirects: tuple[Redirect, ...] = ()
    doubt: str | None = None


#: Redirection targets that are not files (writing them changes nothing on disk).
HARMLESS_TARGETS: Final = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr"})
#: Redirection sources that are not files (reading them reads nothing of the disk).
HARMLESS_SOURCES: Final = frozenset({"/dev/null", "/dev/stdin", "/dev/zero", "/dev/urandom",
                                     "/dev/random"})

#: Node types that hold statements (each child is a statement, a keyword or punctuation).
_CONTAINERS: Final = frozenset({
    "program", "list", "pipeline", "subshell", "compound_statement", "negated_command",
    "do_group", "if_statement", "elif_clause", "else_clause", "while_statement",
})
#: Statement node types that run nothing themselves.
_INERT: Final = frozenset({"comment"})
#: Word-like node types outside quotes that may vanish or split.
_EXPANSIONS: Final = frozenset({"simple_expansion", "expansion", "arithmetic_expansion",
                                "brace_expression"})
_NEVER: Final = frozenset({"command_substitution", "process_substitution", "ERROR",
                           "function_definition", "arithmetic_expansion"})
def analyse(command: str) -> Analysis:
    """The simple commands ``command`` may run and the files it redirects to or from, or a
    doubt. A plain list of simple commands is read without the grammar (``plainshell``), with
    the same answer."""
    plain = plain_commands(command)
    if plain is not None:
        return Analysis(tuple(map(Simple._make, plain)))
    return analyse_parsed(command)


def analyse_parsed(command: str) -> Analysis:
    """``analyse`` read with the grammar alone: the reference the fast path is tested
    against."""
    if len(command) > MAX_SHELL_COMMAND_CHARS:
        return Analysis(doubt=f"the command is {len(command)} characters long, over the limit "
                        f"of {MAX_SHELL_COMMAND_CHARS} (MAX_SHELL_COMMAND_CHARS)")
    doubt = lexical_doubt(command)
    if doubt is not None:
        return Analysis(doubt=doubt)
    source = command.encode("utf-8")
    try:
        tree = parser().parse(source)
        reader = _Reader(source)
        reader.scan(tree.root_node)
        reader.statement(tree.root_node)
    except Doubt as e:
        return Analysis(doubt=str(e))
    except RecursionError:
        return Analysis(doubt="the command is too deeply nested")
    redirects = reader.redirects
    if reader.moved:  # a loop runs its body again, after a cd later in it: no order holds
        redirects = [r._replace(after_cd=True) for r in redirects]
    return Analysis(tuple(reader.commands), tuple(redirects))


class _Reader:
    def __init__(self, source: bytes) -> None:
        self.source = source
        self.commands: list[Simple] = []
        self.redirects: list[Redirect] = []
        self.moved = False  # a cd or pushd ran before this point

    def text(self, node: Node) -> str:
        return self.source[node.start_byte:node.end_byte].decode("utf-8")

    def scan(self, root: Node) -> None:
        """Refuse what no context makes safe, wherever it stands: errors, missing nodes,
        substitutions, function definitions; and trees over the node limit."""
        if root.has_error:
            raise Doubt("the command does not parse as bash (a syntax error or a partial parse)")
        for count, node in enumerate(_walk(root), start=1):
            if count > MAX_SHELL_NODES:
                raise Doubt(f"the command has over {MAX_SHELL_NODES} syntax nodes "
                            "(MAX_SHELL_NODES)")
            if node.is_missing or node.type in _NEVER:
                raise Doubt(_never_reason(node.type))
            if node.type == "expansion" and not PLAIN_EXPANSION.fullmatch(self.text(node)):
                raise Doubt(f"the expansion {self.text(node)!r} is evaluated arithmetically or "
                            "indirectly, where a variable's value can run a command")
            if node.type == "compound_statement" and node.child_count and \
                    node.children[0].type == "((":
                raise Doubt("the command holds an arithmetic command (( … )), where a "
                            "variable's value can run a command")

    def statement(self, node: Node) -> None:
        kind = node.type
        if kind in _CONTAINERS:
            for child in node.named_children:
                self.statement(child)
        elif kind in _INERT:
            return
        elif kind == "command":
            self.simple(node, [])
        elif kind == "redirected_statement":
            self.redirected(node)
        elif kind in ("variable_assignment", "variable_assignments", "declaration_command",
                      "unset_command"):
            self.assigning(node)
        elif kind == "for_statement":
            self.for_loop(node)
        elif kind == "case_statement":
            self.case(node)
        else:
            raise Doubt(f"the command holds a {kind.replace('_', ' ')}, which the gate does "
                        "not analyse")

    def assigning(self, node: Node) -> None:
        """An assignment or a declaration on its own: a command that sets variables for the
        commands after it."""
        if node.type in ("declaration_command", "unset_command"):
            words = self.words(node)
            check_runnable(words)
        else:
            single = node.type == "variable_assignment"
            for assigned in [node] if single else node.named_children:
                name = assigned.child_by_field_name("name")
                check_variable(self.text(name) if name is not None else "", "an assignment")
            words = self.words(node)
        self.commands.append(Simple(tuple(words), self.text(node)))

    def redirected(self, node: Node) -> None:
        for i, child in enumerate(node.children):
            field = node.field_name_for_child(i)
            if field == "body":
                self.statement(child)
            elif child.is_named:
                self.redirect(child)

    def for_loop(self, node: Node) -> None:
        for child in node.named_children:
            if child.type == "do_group":
                self.statement(child)
            elif child.type == "variable_name":
                check_variable(self.text(child), "for")  # the loop assigns it
            else:
                self.word(child)  # the loop's values: read, never run

    def case(self, node: Node) -> None:
        for child in node.named_children:
            if child.type != "case_item":
                self.word(child)
                continue
            for part in child.named_children:
                if part.type in ("word", "concatenation", "string", "raw_string",
                                 "simple_expansion", "expansion", "extglob_pattern"):
                    continue  # a pattern the value is compared with: never run
                self.statement(part)

    def redirect(self, node: Node) -> None:
        if node.type == "heredoc_redirect":
            self.heredoc(node)
            return
        if node.type == "herestring_redirect":
            return  # input only; a substitution in it was refused by scan()
        if node.type != "file_redirect":
            raise Doubt(f"the command holds a {node.type.replace('_', ' ')}")
        operator = next((c.type for c in node.children if not c.is_named), "")
        targets = [c for i, c in enumerate(node.children)
                   if node.field_name_for_child(i) == "destination"]
        if len(targets) != 1:
            # `echo a > f b`: bash passes `b` to the command; the grammar hangs it here
            raise Doubt("a redirection is followed by more words, which the gate does not "
                        "analyse")
        target = targets[0]
        if operator in (">&", "<&") and (target.type == "number" or self.text(target) == "-"):
            return  # a copy (or a close) of a file descriptor, no file
        word = self.word(target)
        if word.value is not None and word.value.startswith(("/dev/tcp/", "/dev/udp/")):
            raise Doubt(f"the redirection {self.text(node)!r} opens a network connection")
        reads = operator in ("<", "<&")
        if word.value in (HARMLESS_SOURCES if reads else HARMLESS_TARGETS):
            return
        self.redirects.append(Redirect(word, self.text(node), self.moved, reads))

    def heredoc(self, node: Node) -> None:
        """A here-document is input; anything the grammar hangs on it (a pipeline or a list
        after its opening line) runs, and is not analysed here."""
        for child in node.named_children:
            if child.type == "file_redirect":
                self.redirect(child)
            elif child.type not in ("heredoc_start", "heredoc_body", "heredoc_end",
                                    "heredoc_content"):
                raise Doubt("a command follows a here-document's opening line, which the gate "
                            "does not analyse")

    def simple(self, node: Node, prefix: list[Word]) -> None:
        words = list(prefix)
        name_seen = False
        for child in node.children:
            if not child.is_named:
                words.append(self.dollar(child))  # a lone `$` is a word of its own
            elif child.type in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
                self.redirect(child)
            elif child.type == "variable_assignment":
                words.append(self.assignment(child))
            elif child.type == "command_name":
                name_seen = True
                words.extend(self.word_list(child.named_children))
            else:
                words.append(self.word(child))
        if not name_seen:
            raise Doubt("a command has no name")
        assignments = sum(1 for child in node.named_children
                          if child.type == "variable_assignment")
        head, body = words[:assignments], words[assignments:]
        body, stripped = strip_wrappers(body)
        check_runnable(body)
        if body[0].value in ("cd", "pushd", "popd"):
            self.moved = True
        self.commands.append(Simple(tuple(head + body), self.text(node), stripped))

    def word_list(self, nodes: list[Node]) -> list[Word]:
        return [self.word(n) for n in nodes]

    @staticmethod
    def dollar(node: Node) -> Word:
        """An anonymous node inside a word: the grammar leaves a lone ``$`` unnamed; anything
        else is not read here."""
        if node.type != "$":
            raise Doubt(f"a word holds {node.type!r}, which the gate does not analyse")
        return Word("$")

    def words(self, node: Node) -> list[Word]:
        """The words of an assignment or declaration statement, as its command would show."""
        if node.type == "variable_assignment":
            return [self.assignment(node)]
        words: list[Word] = []
        for child in node.children:
            if child.type == "variable_assignment":
                words.append(self.assignment(child))
            elif not child.is_named:
                words.append(Word(child.type))  # the declaration keyword
            else:
                words.append(self.word(child))
        return words

    def assignment(self, node: Node) -> Word:
        name = node.child_by_field_name("name")
        value = node.child_by_field_name("value")
        if name is None or name.type != "variable_name":
            raise Doubt(f"an assignment {self.text(node)!r} is not to a plain variable")
        if value is None:
            return Word(self.text(name) + "=")
        word = self.word(value)
        if word.value is None:
            return Word(None)
        return Word(self.text(name) + "=" + word.value)

    def word(self, node: Node) -> Word:
        kind = node.type
        if kind in ("word", "number", "variable_name"):
            return bare(self.text(node))
        if kind == "raw_string":
            return Word(self.text(node)[1:-1])
        if kind == "string":
            return self.quoted(node)
        if kind in _EXPANSIONS:
            return Word(None, vanishes=True)
        if kind in ("ansi_c_string", "translated_string"):
            return Word(None)
        if kind == "concatenation":
            parts = [self.word(c) if c.is_named else self.dollar(c) for c in node.children]
            if all(p.value is not None for p in parts):
                return Word("".join(p.value or "" for p in parts))
            return Word(None, vanishes=all(p.vanishes for p in parts))
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
        inner = self.source[children[0].end_byte:children[-1].end_byte - 1]
        return Word(unescape_double(inner.decode("utf-8")))


#: What a double-quoted string without an expansion is made of in the grammar.
_QUOTED_TEXT: Final = frozenset({'"', "string_content", "$"})


def _never_reason(kind: str) -> str:
    return {
        "command_substitution": "the command holds a command substitution ($(…) or `…`), "
                                "whose command the gate does not analyse",
        "process_substitution": "the command holds a process substitution (<(…) or >(…)), "
                                "whose command the gate does not analyse",
        "function_definition": "the command defines a function, which may stand for any "
                               "program",
        "arithmetic_expansion": "the command holds an arithmetic expansion ($(( … )) or "
                                "$[ … ]), where a variable's value can run a command",
    }.get(kind, "the command does not parse as bash (a syntax error or a partial parse)")


def _walk(root: Node) -> Iterator[Node]:
    cursor = root.walk()
    while True:
        node = cursor.node
        if node is not None:
            yield node
        if cursor.goto_first_child() or cursor.goto_next_sibling():
            continue
        while True:
            if not cursor.goto_parent():
                return
            if cursor.goto_next_sibling():
                break
