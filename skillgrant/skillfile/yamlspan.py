"""YAML with positions, shared by the plan loader and the SKILL.md splicer.

Two jobs: compose a document into nodes whose marks locate every value (refusing aliases and
merge keys, which would let one text span stand for several values), and render one string as a
YAML scalar that parses back to exactly that string. Rendering is conservative: whenever a plain
or single-quoted scalar might mean something else, the string is double-quoted with escapes.
"""

from __future__ import annotations

import operator
import re
from typing import Any, Final, Literal

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ..grants import lone_surrogate
from ..limits import MAX_NESTING_DEPTH, MAX_YAML_ALIASES
from .entryspans import entry_starts as entry_starts  # the plan loader's, from here
from .flatyaml import compose_flat, plain_tag
from .nesting import collections_at_most

# libyaml when it is there; its marks count characters exactly like the pure-Python loader's.
LOADER: Final[type[yaml.SafeLoader]] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

STR_TAG: Final = "tag:yaml.org,2002:str"
MERGE_TAG: Final = "tag:yaml.org,2002:merge"


#: libyaml's parser's ``__init__``, when ``LOADER`` is libyaml's (``_Composer``'s).
_PARSER_INIT: Final[Any] = (yaml._yaml.CParser.__init__
                            if getattr(yaml, "CSafeLoader", None) is LOADER else None)


class _Composer(LOADER):  # type: ignore[misc,valid-type]
    """``LOADER`` for composing, whose resolver answers at once where ``Resolver.resolve``
    would find no pattern to try and no path resolver (then its answer is the default tag of
    the node's kind): a collection, a quoted scalar, and a plain one whose first character
    starts no implicit resolver's pattern (a word like ``Use`` or ``Read``: most values).
    Every other call is ``Resolver.resolve``'s own.

    Without path resolvers, ``descend_resolver`` and ``ascend_resolver`` (called for every
    node) return at once having done nothing; they are then answered by builtins that do
    nothing either (``operator.is_`` of the parent and index, ``tuple()``), which cost no
    Python frame."""

    def __init__(self, stream: str) -> None:
        if _PARSER_INIT is None:
            super().__init__(stream)
        else:  # libyaml's parser alone: composing asks nothing of the constructor
            _PARSER_INIT(self, stream)
            if self.yaml_path_resolvers:
                yaml.resolver.BaseResolver.__init__(self)
        if not self.yaml_path_resolvers:
            self.descend_resolver = operator.is_
            self.ascend_resolver = tuple

    def resolve(self, kind: type[Node], value: str | None, implicit: Any) -> str:
        if not self.yaml_path_resolvers:
            if kind is ScalarNode:
                found = self.yaml_implicit_resolvers
                if not implicit[0] or (
                        value and value[0] not in found and None not in found):
                    return _SCALAR
            elif kind is MappingNode:
                return _MAPPING
            elif kind is SequenceNode:
                return _SEQUENCE
        tag: str = _RESOLVE(self, kind, value, implicit)  # type: ignore[no-untyped-call]
        return tag


_RESOLVE: Final = yaml.resolver.BaseResolver.resolve
_SCALAR: Final[str] = _Composer.DEFAULT_SCALAR_TAG
_MAPPING: Final[str] = _Composer.DEFAULT_MAPPING_TAG
_SEQUENCE: Final[str] = _Composer.DEFAULT_SEQUENCE_TAG

ScalarStyle = Literal["plain", "single", "double"]

#: PyYAML ``node.style`` → our name for the form of a scalar.
STYLE_NAMES: Final[dict[str | None, str]] = {
    None: "plain",
    "": "plain",
    "'": "single",
    '"': "double",
    "|": "literal",
    ">": "folded",
}

# Characters a plain or single-quoted scalar may hold as they are: printable, no line breaks
# (YAML 1.1 also breaks lines on NEL, LS and PS), no BOM, no tab. That is the printable set
# [\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff],
# written as its complement: the same characters, compiled in a tenth of the time (start-up).
_SAFE_CHARS = re.compile(r"[^\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]*")
# A plain scalar may not start with an indicator, nor hold ": " or " #", nor end in ":".
_PLAIN_FIRST = frozenset("-?:,[]{}#&*!|>'\"%@`")
_FLOW_INDICATORS = frozenset(",[]{}")

_ESCAPES: Final[dict[str, str]] = {
    "\0": "\\0", "\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f",
    "\r": "\\r", "\x1b": "\\e", '"': '\\"', "\\": "\\\\", "\x85": "\\N", "\xa0": "\\_",
    "\u2028": "\\L", "\u2029": "\\P",
}


class YamlProblem(Exception):
    """Text that is not YAML we accept; ``index`` is the 0-based character offset, if known."""

    def __init__(self, message: str, index: int | None) -> None:
        super().__init__(message)
        self.message = message
        self.index = index


def compose(text: str) -> Node | None:
    """Compose one YAML document into nodes (``None`` for an empty document).

    Raises YamlProblem for a syntax error, several documents, an alias, a merge key, nesting
    deeper than MAX_NESTING_DEPTH, or a lone surrogate. Aliases are refused rather than expanded
    (MAX_YAML_ALIASES is 0): a node reached twice has one text span but two meanings, and alias
    chains are the classic expansion bomb. Merge keys would let a key appear in the data with no
    node of its own. The events are streamed first, so nothing is composed (recursively) before
    both limits have been checked. Flat ``key: value`` lines, which can hold none of these, are
    composed without the parser (``flatyaml``).
    """
    surrogate = lone_surrogate(text)
    if surrogate is not None:
        raise YamlProblem(f"invalid text: lone surrogate U+{ord(text[surrogate]):04X} is not "
                          "a character", surrogate)
    flat = compose_flat(text)
    if flat is not None:
        return flat
    if collections_at_most(text) <= MAX_NESTING_DEPTH:
        sure, node = _compose_shallow(text)
        if sure:
            return node
    try:
        _check_events(text)
        node = yaml.compose(text, Loader=_Composer)
    except yaml.YAMLError as e:
        raise _problem(e) from e
    if node is not None:
        _refuse_merge_keys(node)
    return node


def _check_events(text: str) -> None:
    """Stream the parser's events, refusing an alias or nesting past the limit before anything
    is composed."""
    aliases = depth = 0
    for event in yaml.parse(text, Loader=LOADER):
        if isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_YAML_ALIASES:
                # The message predates the constant and is pinned by golden files.
                raise YamlProblem("YAML aliases (*name) are not accepted here", _index(event))
        elif isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_NESTING_DEPTH:
                raise YamlProblem(f"YAML nested more than {MAX_NESTING_DEPTH} levels deep "
                                  "(MAX_NESTING_DEPTH)", _index(event))
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _index(event: yaml.Event) -> int | None:
    return None if event.start_mark is None else int(event.start_mark.index)


def _problem(error: yaml.YAMLError) -> YamlProblem:
    """PyYAML's error as a YamlProblem at the offset it names."""
    if isinstance(error, yaml.MarkedYAMLError):
        mark = error.problem_mark or error.context_mark
        detail = error.problem or "invalid YAML"
        if error.context:
            detail += f" ({error.context})"
        return YamlProblem(f"invalid YAML: {detail}", mark.index if mark else None)
    if isinstance(error, yaml.reader.ReaderError):
        return YamlProblem(f"invalid YAML: character U+{error.character:04X} is not allowed"
                           if isinstance(error.character, int)
                           else f"invalid YAML: {error.reason}", error.position)
    return YamlProblem(f"invalid YAML: {error}", None)


def _compose_shallow(text: str) -> tuple[bool, Node | None]:
    """``compose`` for a text that cannot nest past the limit: composed directly, without the
    event pass. Not sure (False) when the text does not compose for the composer's own reasons
    (an undefined alias, a second document) or holds an alias, so that the full path finds and
    reports the problem exactly as it always has. A reader's, scanner's or parser's error with
    no ``*`` before where the parser stopped (``_stopped_at``: no alias event can come before
    it, and the nesting is bounded) is the very error the full path's event pass stops at: it
    is raised here."""
    try:
        node: Node | None = yaml.compose(text, Loader=_Composer)
    except yaml.composer.ComposerError:
        return False, None
    except yaml.YAMLError as e:
        if text.find("*", 0, _stopped_at(e, len(text))) >= 0:
            return False, None
        raise _problem(e) from e
    if node is None or ("&" not in text and "!" not in text and "<<" not in text
                        and "\\" not in text):
        # With no anchor, an alias would name none and not compose; a merge key is a tag or a
        # key whose value is ``<<``: written out, or with an escape (``"\x3C<"``; a quoted
        # scalar folded over lines gains a space, a block scalar keeps its break).
        return True, node
    merge = _merge_without_alias(node)
    if merge is None:
        return False, None
    if merge:
        _refuse_merge_keys(node)
    return True, node


def _stopped_at(error: yaml.YAMLError, end: int) -> int:
    """Where the parser was when it raised ``error`` (``end``, the text's, when not known):
    every event it made before came from a token that starts before there. A scanner's error
    is marked where the scanner is, a parser's at the token it cannot take (libyaml's
    ``yaml_parser_set_scanner_error`` and ``_parser_error``, PyYAML's ``get_mark()`` and
    ``token.start_mark``), so an alias event before it needs a ``*`` before it."""
    mark = getattr(error, "problem_mark", None) if isinstance(
        error, (yaml.scanner.ScannerError, yaml.parser.ParserError)) else None
    return end if mark is None else min(end, int(mark.index) + 1)


def _merge_without_alias(node: Node) -> bool | None:
    """None when a node is reached twice from ``node`` (an alias composes to the very node its
    anchor names), else whether a merge key was found on the way (refused by
    _refuse_merge_keys, as the full path refuses it)."""
    seen: set[int] = set()
    stack = [node]
    merge = False
    while stack:
        current = stack.pop()
        if id(current) in seen:
            return None
        seen.add(id(current))
        if isinstance(current, MappingNode):
            for key, value in current.value:
                merge = merge or _is_merge_key(key)
                stack.append(key)
                stack.append(value)
        elif isinstance(current, SequenceNode):
            stack.extend(current.value)
    return merge


def _is_merge_key(key: Node) -> bool:
    """A merge key to Bun: any key whose value is ``<<``, plain, quoted, escaped or a block
    scalar (measured: ``Bun.YAML.parse('"<<": {a: 1}')`` is ``{a: 1}``), or tagged merge."""
    return key.tag == MERGE_TAG or (isinstance(key, ScalarNode) and key.value == "<<")


def _refuse_merge_keys(root: Node) -> None:
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, MappingNode):
            for key, value in node.value:
                if _is_merge_key(key):
                    raise YamlProblem("YAML merge keys (<<) are not accepted here",
                                      key.start_mark.index)
                stack.extend((key, value))
        elif isinstance(node, SequenceNode):
            stack.extend(node.value)


def line_column(text: str, index: int) -> tuple[int, int]:
    """1-based line and column (in characters) of a 0-based offset; lines end at ``\\n``.

    >>> line_column("a\\nbc", 4)
    (2, 3)
    """
    index = max(0, min(index, len(text)))
    line_start = text.rfind("\n", 0, index) + 1
    return text.count("\n", 0, index) + 1, index - line_start + 1


#: The plain scalars PyYAML reads as strings that Bun 1.4.5 reads as numbers (review
#: s45-freview L1: ``1e3``, ``0o17``, ``+0o17``, ``08``, ``-.5``; YAML 1.2's core schema and
#: signed octal and hexadecimal). Fitted with Bun's ``typeof`` on 287,489 generated plain
#: scalars, as a value and as a flow list's item: 0 differences (docs/decisions.md, s45).
_BUN_NUMBER: Final = re.compile(
    r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?0o[0-7]+"
    r"|[-+]?0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
_NUMBER_FIRST: Final = frozenset("+-.0123456789")


def is_str_scalar(node: Node) -> bool:
    """True for a scalar node that loads as a Python ``str``, and that Claude Code's YAML
    parser (Bun's) reads as a string too."""
    return isinstance(node, ScalarNode) and node.tag == STR_TAG and not _bun_number(node)


def _bun_number(node: ScalarNode) -> bool:
    value = node.value
    return (bool(value) and value[0] in _NUMBER_FIRST and not node.style
            and _BUN_NUMBER.fullmatch(value) is not None)


def one_line(value: str) -> bool:
    """True when ``value`` holds only printable characters and no line break (YAML's sense)."""
    return _SAFE_CHARS.fullmatch(value) is not None


def plain_ok(value: str, *, flow: bool) -> bool:
    """True when ``value`` written as a plain scalar certainly loads back as this same string.

    >>> plain_ok("Bash(gh *)", flow=False), plain_ok("Bash(x: y)", flow=False)
    (True, False)
    """
    if not value or value != value.strip(" ") or not _SAFE_CHARS.fullmatch(value):
        return False
    if value[0] in _PLAIN_FIRST or ": " in value or " #" in value or value.endswith(":"):
        return False
    if flow and (_FLOW_INDICATORS & set(value) or ":" in value):
        return False
    return plain_tag(value) == STR_TAG and _BUN_NUMBER.fullmatch(value) is None


def single_quote(value: str) -> str | None:
    """``value`` as a single-quoted scalar, or None when that style cannot hold it."""
    if not _SAFE_CHARS.fullmatch(value) or value != value.strip(" "):
        return None
    return "'" + value.replace("'", "''") + "'"


def double_quote(value: str) -> str:
    """``value`` as a double-quoted scalar; every character that is not plainly safe is escaped.

    >>> double_quote('say "hi"\\n')
    '"say \\\\"hi\\\\"\\\\n"'
    """
    out = ['"']
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif _SAFE_CHARS.fullmatch(ch):
            out.append(ch)
        elif ord(ch) <= 0xFF:
            out.append(f"\\x{ord(ch):02X}")
        elif ord(ch) <= 0xFFFF:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(f"\\U{ord(ch):08X}")
    out.append('"')
    return "".join(out)


def render_scalar(value: str, style: str, *, flow: bool) -> str:
    """``value`` as a scalar in ``style`` ("plain", "single" or "double") where that is safe,
    else double-quoted. The result always loads back as ``value``.

    >>> render_scalar("Read", "plain", flow=True), render_scalar("a, b", "plain", flow=True)
    ('Read', '"a, b"')
    """
    if style == "plain" and plain_ok(value, flow=flow):
        return value
    if style == "single":
        quoted = single_quote(value)
        if quoted is not None:
            return quoted
    return double_quote(value)


_TAG_NAMES: Final[dict[str, str]] = {"null": "empty (null)", "bool": "a boolean",
                                     "int": "an integer", "float": "a number",
                                     "timestamp": "a date", "binary": "binary data"}


def node_kind(node: Node) -> str:
    """What a node holds, in words: "a mapping", "a list", "an integer", "a date"..."""
    if isinstance(node, MappingNode):
        return "a mapping"
    if isinstance(node, SequenceNode):
        return "a list"
    if node.tag == STR_TAG and isinstance(node, ScalarNode) and _bun_number(node):
        return "a number (to Claude Code's YAML parser, YAML 1.2)"
    return _TAG_NAMES.get(node.tag.rsplit(":", 1)[-1], f"a {node.tag.rsplit(':', 1)[-1]}")
