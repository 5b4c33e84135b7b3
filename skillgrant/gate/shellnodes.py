"""The node types of tree-sitter's bash grammar the shell analysis (``shell``) reads, and the
walk over a tree."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .words import Doubt

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

    from tree_sitter import Node

#: Node types that hold statements (each child is a statement, a keyword or punctuation).
CONTAINERS: Final = frozenset({
    "program", "list", "pipeline", "subshell", "compound_statement", "negated_command",
    "do_group", "if_statement", "elif_clause", "else_clause", "while_statement",
    "command_substitution",
})
#: Word-like node types outside quotes that may vanish or split.
EXPANSIONS: Final = frozenset({"simple_expansion", "expansion", "arithmetic_expansion",
                               "brace_expression", "command_substitution"})
#: Node types refused wherever they stand.
NEVER: Final = frozenset({"process_substitution", "ERROR", "function_definition",
                          "arithmetic_expansion"})
#: Redirection targets that are not files (writing them changes nothing on disk).
HARMLESS_TARGETS: Final = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr"})
#: Redirection sources that are not files (reading them reads nothing of the disk).
HARMLESS_SOURCES: Final = frozenset({"/dev/null", "/dev/stdin", "/dev/zero", "/dev/urandom",
                                     "/dev/random"})


def never_reason(kind: str) -> str:
    """Why a node of type ``kind`` in ``NEVER`` (or a missing node) is refused."""
    return {
        "process_substitution": "the command holds a process substitution (<(…) or >(…)), "
                                "whose command the gate does not analyse",
        "function_definition": "the command defines a function, which may stand for any "
                               "program",
        "arithmetic_expansion": "the command holds an arithmetic expansion ($(( … )) or "
                                "$[ … ]), where a variable's value can run a command",
    }.get(kind, "the command does not parse as bash (a syntax error or a partial parse)")


def walk(root: Node) -> Iterator[Node]:
    """Every node under ``root``, ``root`` first, in source order."""
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


def substitutions(node: Node) -> list[Node]:
    """The command substitutions in a word, outermost only."""
    found: list[Node] = []
    stack = list(reversed(node.children))
    while stack:
        child = stack.pop()
        if child.type == "command_substitution":
            found.append(child)
        else:
            stack.extend(reversed(child.children))
    return found


def read_write(source: bytes, node: Node) -> bool:
    """Whether an ERROR node is the ``<`` of a ``<>`` redirection (read and write, on standard
    input) that tree-sitter's grammar does not know: a lone ``<`` right before a ``>``
    redirection with no descriptor, in a redirected statement."""
    following = node.next_sibling
    return (node.child_count == 1 and node.children[0].type == "<"
            and node.parent is not None and node.parent.type == "redirected_statement"
            and following is not None and following.type == "file_redirect"
            and following.start_byte == node.end_byte and following.child_count == 2
            and following.children[0].type == ">" and source[node.start_byte - 1:
                                                           node.start_byte] in b" \t")


#: A descriptor a ``>&``/``<&`` copies or moves, or ``-`` (closes).
_DESCRIPTOR: Final = re.compile(r"[0-9]+-?|-")
#: The largest descriptor bash reads as one (an int); a longer number is a word.
_MAX_DESCRIPTOR: Final = 2**31 - 1


def is_descriptor(text: str) -> bool:
    """Whether a ``>&``/``<&`` target is a descriptor (or ``-``), not a file bash writes."""
    return bool(_DESCRIPTOR.fullmatch(text)) and (
        text == "-" or int(text.rstrip("-")) <= _MAX_DESCRIPTOR)


def check_descriptor(node: Node) -> None:
    """Raise Doubt for a redirection's descriptor number bash reads as a word (over an int)."""
    for child in node.children:
        if child.type == "file_descriptor" and (
                not child.text or not child.text.isdigit() or int(child.text) > _MAX_DESCRIPTOR):
            raise Doubt("a redirection's descriptor number is over bash's limit, so bash reads "
                        "it as a word of the command")
