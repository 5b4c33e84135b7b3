"""The node types of tree-sitter's bash grammar the shell analysis (``shell``) reads, and the
walk over a tree."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
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
