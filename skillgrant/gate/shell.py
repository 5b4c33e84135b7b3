"""What a shell command would run, read with tree-sitter's bash grammar.

``analyse(command)`` answers with the simple commands it may run (``Simple``, a command
substitution's included), the files its redirections write or read (``Redirect``), and the
reading written back as bash text for the cross-check with bash (``crosscheck``); or with a
doubt, the gate's ``unknown``: a parse error, a process substitution, a function definition,
``[[ … ]]``, ``(( … ))``, a runner, an expansion in command position, any node type not read
here. A word is a literal, or a pattern (an expansion, a glob, a brace) that may take any
value. docs/call-gate.md states the model; tests/gate/test_bash_differential.py checks it
against GNU bash.
"""

from __future__ import annotations

import re

from ..limits import MAX_SHELL_COMMAND_CHARS, MAX_SHELL_NODES
from .bashparser import parser
from .lexical import PLAIN_EXPANSION, lexical_doubt
from .plainshell import plain_commands
from .reading import Analysis, Redirect, Simple, carried_past
from .reprint import heredoc_body, heredoc_delimiter, reprint
from .shellnodes import (
    CONTAINERS,
    HARMLESS_SOURCES,
    HARMLESS_TARGETS,
    NEVER,
    check_descriptor,
    is_descriptor,
    never_reason,
    read_write,
    walk,
)
from .shellwords import WordReader
from .words import (
    CARRY_FREE,
    Doubt,
    Word,
    assigned_names,
    check_runnable,
    check_variable,
    strip_wrappers,
)

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

    from tree_sitter import Node

__all__ = ["HARMLESS_SOURCES", "HARMLESS_TARGETS", "Analysis", "Redirect", "Simple", "analyse"]
#: ``$(`` not starting an arithmetic expansion.
_SUBSTITUTION: Final = re.compile(rb"\$\((?!\()")


def analyse(command: str) -> Analysis:
    """The simple commands ``command`` may run and the files it redirects to or from, or a
    doubt. A plain list of simple commands is read without the grammar (``plainshell``), with
    the same answer."""
    plain = plain_commands(command)
    if plain is not None:
        return Analysis(tuple(Simple(w, t, s, False, w[0].value) for w, t, s in plain))
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
        if reader.judged != reader.found:
            raise Doubt("a command substitution stands where the gate does not judge it")
        reprinted = reprint(source, tree.root_node, reader.readwrite)
    except Doubt as e:
        return Analysis(doubt=str(e))
    except RecursionError:
        return Analysis(doubt="the command is too deeply nested")
    redirects = reader.raced()
    if reader.moved:  # a loop runs its body again, after a cd later in it: no order holds
        redirects = [r._replace(after_cd=True) for r in redirects]
    return Analysis(carried_past(reader.commands, reader.carried), tuple(redirects),
                    reprinted=reprinted)


class _Reader(WordReader):
    def __init__(self, source: bytes) -> None:
        super().__init__(source)
        self.commands: list[Simple] = []
        self.redirects: list[Redirect] = []
        self.moved = False  # a cd or pushd ran before this point
        self.carried: list[Word] = []  # what the command assigns for later commands
        self.found: set[int] = set()  # where each command substitution starts
        self.judged: set[int] = set()  # those whose commands were read
        self.readwrite: set[int] = set()  # where a `<>` redirection's `>` starts
        self.programs = 0  # programs (not CARRY_FREE builtins) read so far, in run order
        self.looping = 0  # inside a loop's body
        self.concurrent = 0  # inside a pipeline of several commands, or a background job
        self.own = False  # the redirections being read are those of a program
        self.races: list[tuple[bool, bool, bool, bool]] = []  # for each redirection

    def raced(self) -> list[Redirect]:
        """The redirections, each ``raced`` when a program may run before it opens its file:
        one read before it, any program when it is in a loop, another program when it runs at
        the same time as others."""
        total = self.programs
        return [r._replace(raced=before or (loop and total > 0) or (together and total > own))
                for r, (before, loop, together, own) in zip(self.redirects, self.races,
                                                              strict=True)]

    def scan(self, root: Node) -> None:
        """Refuse what no context makes safe, wherever it stands: errors, missing nodes,
        substitutions, function definitions; and trees over the node limit."""
        bodies: list[tuple[int, int]] = []
        for count, node in enumerate(walk(root), start=1):
            if count > MAX_SHELL_NODES:
                raise Doubt(f"the command has over {MAX_SHELL_NODES} syntax nodes "
                            "(MAX_SHELL_NODES)")
            if node.type == "ERROR" and read_write(self.source, node):
                self.readwrite.add(node.end_byte)
                continue
            if node.is_missing or node.type in NEVER:
                raise Doubt(never_reason(node.type))
            if node.type == "command_substitution":
                self.substitution(node)
            elif node.type == "heredoc_body":
                bodies.append((node.start_byte, node.end_byte))
            if node.type == "expansion" and not PLAIN_EXPANSION.fullmatch(self.text(node)):
                raise Doubt(f"the expansion {self.text(node)!r} is evaluated arithmetically or "
                            "indirectly, where a variable's value can run a command")
            if node.type == "compound_statement" and node.child_count and \
                    node.children[0].type == "((":
                raise Doubt("the command holds an arithmetic command (( … )), where a "
                            "variable's value can run a command")
        if root.has_error and not self.readwrite:
            raise Doubt("the command does not parse as bash (a syntax error or a partial parse)")
        self.check_substitutions(bodies)

    def check_substitutions(self, bodies: list[tuple[int, int]]) -> None:
        """Every ``$(`` in the text one the grammar found, and none in a here-document body
        (bash reads those only when it reads the body)."""
        if any(start <= at < end for at in self.found for start, end in bodies):
            raise Doubt("a here-document's body holds a command substitution, which bash "
                        "reads only when it reads the body")
        if {m.start() for m in _SUBSTITUTION.finditer(self.source)} != self.found:
            raise Doubt("the command holds '$(' where the grammar finds no command "
                        "substitution (in quotes, a comment or an expansion)")

    def substitution(self, node: Node) -> None:
        """A command substitution is judged as the commands it runs; every ``$(`` in the text
        must be one the grammar found (``scan``)."""
        if not self.source.startswith(b"$(", node.start_byte):
            raise Doubt("the command holds a command substitution in backquotes")
        self.found.add(node.start_byte)

    def statement(self, node: Node) -> None:
        kind = node.type
        if kind in CONTAINERS:
            if kind == "command_substitution":
                self.judged.add(node.start_byte)
            loop = kind == "while_statement"
            together = kind == "pipeline" and len(node.named_children) > 1
            for child in node.named_children:
                following = child.next_sibling
                background = following is not None and following.type == "&"
                self.looping += loop
                self.concurrent += together or background
                self.statement(child)
                self.looping -= loop
                self.concurrent -= together or background
        elif kind == "command":
            self.simple(node, [])
        elif kind in _READERS:
            getattr(self, _READERS[kind])(node)
        elif kind != "comment":
            raise Doubt(f"the command holds a {kind.replace('_', ' ')}, which the gate does "
                        "not analyse")

    def assigning(self, node: Node) -> None:
        """An assignment or a declaration on its own: a command that sets variables for the
        commands after it."""
        if node.type in ("declaration_command", "unset_command"):
            words = self.words(node)
            check_runnable(words)
            self.carried += assigned_names(words)
        else:
            single = node.type == "variable_assignment"
            for assigned in [node] if single else node.named_children:
                name = assigned.child_by_field_name("name")
                check_variable(self.text(name) if name is not None else "", "an assignment")
            words = self.words(node)
            self.carried += words
        self.commands.append(Simple(tuple(words), self.text(node), assigns=True,
                                    program=words[0].value))

    def test(self, node: Node) -> None:
        """``[ … ]`` (the grammar's test command) as the ``[`` builtin and its words; ``[[ … ]]``
        is a doubt (its operands may be evaluated arithmetically)."""
        if not node.children or node.children[0].type != "[" or node.children[-1].type != "]":
            raise Doubt("the command holds a [[ … ]] test, where a variable's value can run a "
                        "command")
        words = [Word("["), *self.operands(node.children[1:-1]), Word("]")]
        check_runnable(words)
        self.commands.append(Simple(tuple(words), self.text(node), program="["))

    def redirected(self, node: Node) -> None:
        """A statement with redirections: a simple command's open after its words expand
        (``simple``), a compound's before it runs."""
        body = node.child_by_field_name("body")
        redirects = [c for c in node.named_children
                     if c != body and c.type != "ERROR"]  # scan() let only `<>`'s `<` by
        if body is not None and body.type == "command":
            self.simple(body, [], redirects)
            return
        if body is not None and body.type in ("list", "pipeline"):
            # the grammar hangs `a && b > f` on the whole list; bash, on `b`: judged as opening
            # after every command of the list ran
            self.statement(body)
            body = None
        self.own = False
        for child in redirects:
            self.redirect(child)
        if body is not None:
            self.statement(body)

    def for_loop(self, node: Node) -> None:
        for child in node.named_children:
            if child.type == "do_group":
                self.looping += 1
                self.statement(child)
                self.looping -= 1
            elif child.type == "variable_name":
                check_variable(self.text(child), "for")  # the loop assigns it
                self.carried.append(Word(None))
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
                    self.word(part)  # a pattern the value is compared with: never run
                    continue
                self.statement(part)

    def redirect(self, node: Node) -> None:
        if node.type == "heredoc_redirect":
            self.heredoc(node)
            return
        if node.type == "herestring_redirect":
            self.herestring(node)
            return
        if node.type != "file_redirect":
            raise Doubt(f"the command holds a {node.type.replace('_', ' ')}")
        self.file_redirect(node)

    def file_redirect(self, node: Node) -> None:
        operator = next((c.type for c in node.children if not c.is_named), "")
        targets = [c for i, c in enumerate(node.children)
                   if node.field_name_for_child(i) == "destination"]
        check_descriptor(node)
        if operator in (">&-", "<&-"):
            if targets:  # `<&- --force`: bash passes the word to the command
                raise Doubt("a redirection is followed by more words, which the gate does not "
                            "analyse")
            return  # a descriptor closed
        if len(targets) != 1:
            # `echo a > f b`: bash passes `b` to the command; the grammar hangs it here
            raise Doubt("a redirection is followed by more words, which the gate does not "
                        "analyse")
        target = targets[0]
        if operator in (">&", "<&") and is_descriptor(self.text(target)):
            return  # a copy, a move (`2>&1-`) or a close of a file descriptor, no file
        word = self.word(target)
        if word.value is not None and word.value.startswith(("/dev/tcp/", "/dev/udp/")):
            raise Doubt(f"the redirection {self.text(node)!r} opens a network connection")
        if node.start_byte in self.readwrite:
            operator = "<>"  # the grammar reads `<` apart: a read and write, judged as a write
        reads = operator in ("<", "<&")
        if word.value in (HARMLESS_SOURCES if reads else HARMLESS_TARGETS):
            return
        self.redirects.append(Redirect(word, self.text(node), self.moved, reads))
        self.races.append((self.programs > 0, self.looping > 0, self.concurrent > 0, self.own))

    def herestring(self, node: Node) -> None:
        """A here-string is input: one word, whose command substitutions run."""
        words = [self.word(c) for c in node.named_children]
        if len(words) != 1 or len(node.children) != 2:
            raise Doubt("a here-string is not one word")

    def heredoc(self, node: Node) -> None:
        """A here-document is input; anything the grammar hangs on it (a pipeline or a list
        after its opening line) runs, and is not analysed here."""
        start = end = None
        for child in node.named_children:
            if child.type == "heredoc_start":
                start = child
            elif child.type == "heredoc_end":
                end = child
            elif child.type == "file_redirect":
                self.redirect(child)
            elif child.type != "heredoc_body":
                raise Doubt("a command follows a here-document's opening line, which the gate "
                            "does not analyse")
        if start is None or end is None:
            raise Doubt("a here-document is not whole")
        delimiter, _ = heredoc_delimiter(self.text(start))
        heredoc_body(self.source, start, end, delimiter,
                     any(c.type == "<<-" for c in node.children))

    def simple(self, node: Node, prefix: list[Word], redirects: list[Node] | None = None
               ) -> None:
        """A simple command: its words expand first (their command substitutions run), then
        its redirections open, then it runs."""
        words = list(prefix)
        name_seen = False
        redirects = list(redirects or [])
        for child in node.children:
            if not child.is_named:
                words.append(self.dollar(child))  # a lone `$` is a word of its own
            elif child.type in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
                redirects.append(child)
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
        self.own = body[0].value not in CARRY_FREE
        for child in redirects:
            self.redirect(child)
        self.programs += self.own
        if body[0].value in ("cd", "pushd", "popd"):
            self.moved = True
        assigned = assigned_names(body)
        self.carried += assigned
        self.commands.append(Simple(tuple(head + body), self.text(node), stripped,
                                    bool(assigned), body[0].value))

    def word_list(self, nodes: list[Node]) -> list[Word]:
        return [self.word(n) for n in nodes]

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
        operator = "+=" if any(c.type == "+=" for c in node.children) else "="  # += appends
        if value is None:
            return Word(self.text(name) + operator)
        word = self.word(value)
        if word.value is None:
            return Word(None)
        return Word(self.text(name) + operator + word.value)

#: The reader's method for each statement node type that is not a container or a command.
_READERS: Final = {
    "redirected_statement": "redirected", "variable_assignment": "assigning",
    "variable_assignments": "assigning", "declaration_command": "assigning",
    "unset_command": "assigning", "for_statement": "for_loop", "test_command": "test",
    "case_statement": "case"}
