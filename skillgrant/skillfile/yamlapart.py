"""Frontmatter text Bun's YAML 1.2 parser (Claude Code's) and PyYAML read apart, found by its
characters: skillgrant refuses it (``runtime.Divergence``), since what the runtime grants
from it cannot be computed. Each rule is a review's finding, pinned by the Bun oracle
(tests/oracle/test_s43_freview_bun.py) and the runtime (tests/conformance/test_s43_freview.py).
Each function answers the reason and the offset into the text, or None.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from yaml.nodes import CollectionNode, MappingNode

from .judged import JUDGED
from .propwalk import cut_anchor, cut_tag, lone_dash, odd_complex_key

if TYPE_CHECKING:
    from collections.abc import Callable

    from yaml.nodes import Node

#: YAML's complex-key indicator: a ``?`` first on a line (after blanks, dashes; a line starts
#: after a lone CR too: review s48-freview H4) or after a flow collection's opening bracket,
#: then a blank or the line's end.
_COMPLEX_KEY: Final = re.compile(r"(?:^|[\n\r])[ \t-]*\?(?=[ \t\r\n]|$)|[\[{][ \t]*\?(?=[ \t\r\n])")
#: The rules found by a walk of the text (``propwalk``: the regular expressions they were,
#: tests/yamlapart_reference.py, walked each run of node properties from every start it
#: holds, as the square of its length: review s49-freview B1, B2). Of the complex keys, one
#: whose line holds more than a plain scalar key (anchors and tags before it). An anchor or
#: alias at a node's start (after a tag, a lone CR) whose name PyYAML ends where Bun goes on.
#: A tag at a node's start holding a flow indicator (``[!, a]``, ``x: !a,b``): PyYAML ends a tag
#: only at a blank, Bun (YAML 1.2) at a flow indicator too (N7). A ``-`` alone between a flow
#: collection's indicators (``[-]``, ``[a, -]``, ``{a: -}``), behind node properties too
#: (``[a, &b -]``, ``{a: !!str -}``: review s44-freview N7), with line breaks and comments
#: around it (``[a,`` ⏎ ``  -]``: review s48-freview2 L1; ``{"a":-}``: N7c). And the complex
#: keys (a regular expression whose tries walk no run twice):


def _complex_key(text: str) -> int:
    found = _COMPLEX_KEY.search(text)
    return -1 if found is None else found.end() - 1


#: Text every match of a rule holds, as patterns each led by a literal character (found at C
#: speed): searched first, so the rule's walk runs only in a text where one of them matches
#: (``*`` is in most frontmatters, in ``Bash(git *)``; ``-`` in ``allowed-tools``). Each is
#: linear: no two of its tries walk the same run (a tag's from the run's last ``!``; a lone
#: dash's separation ends at the next ``-``, a comment's too, which it then accepts: weaker than
#: the rule's, which reads a comment to its line's end; not a ``--``, as in ``git --version``).
_ODD_COMPLEX_NEEDS: Final = (re.compile(r"\?"),)
_COMPLEX_NEEDS: Final = _ODD_COMPLEX_NEEDS
#: An anchor's or alias's cut name is where the walk stands: at the text's start or after a
#: blank, a line break, ``[``, ``{`` or ``,`` (the end of a node's start, of a list's dashes, of
#: the blanks after a tag: ``propwalk._cut_property``), which the lookbehind asks of the
#: character before (none at the start). A name after another character (``\*\*Status:``
#: in a quoted shell command) is not walked to.
_CUT_ANCHOR_NEEDS: Final = (re.compile(r"&(?<![^ \t\r\n\[{,]&)[A-Za-z0-9_-]++[?:%@`]"),
                            re.compile(r"\*(?<![^ \t\r\n\[{,]\*)[A-Za-z0-9_-]++[?:%@`]"))
_CUT_TAG_NEEDS: Final = (re.compile(r"![^\s,\[\]{}!]*+[,\[\]{}]"),)
_LONE_DASH_NEEDS: Final = (re.compile(r"-(?>(?:\s|(?<=\s)#[^\r\n-]*+)*)(?:[\]},]|(?<![\r\n-])-)"),)
#: Each rule's walk and what every match of it holds (tests/test_yamlapart.py).
RULES: Final = ((odd_complex_key, _ODD_COMPLEX_NEEDS), (_complex_key, _COMPLEX_NEEDS),
                (cut_anchor, _CUT_ANCHOR_NEEDS), (cut_tag, _CUT_TAG_NEEDS),
                (lone_dash, _LONE_DASH_NEEDS))

_COMPLEX: Final = ("a complex key ('? '): Claude Code's YAML parser reads the lines around one "
                   "otherwise than skillgrant's, so what it grants cannot be computed; write "
                   "plain 'key: value' lines")
_ANCHOR: Final = ("an anchor or alias name followed by '?', ':', '%', '@' or '`': Claude "
                  "Code's YAML parser reads the name on, skillgrant's ends it there, so what "
                  "it grants cannot be computed; put a blank after the name")
_TAG: Final = ("a tag holding ',', '[', ']', '{' or '}': Claude Code's YAML parser ends it there, "
                "skillgrant's reads it on, so what it grants cannot be computed; put a blank "
                "after the tag")
_DASH: Final = ("a lone '-' in a flow collection: Claude Code's YAML parser rejects it where "
                "skillgrant's reads a '-', so what it grants cannot be computed; quote it")


def apart_as_read(yaml_text: str, root: Node | None = None, *,
                  composed: bool = False) -> tuple[str, int] | None:
    """For a text PyYAML reads: a complex key whose line holds more than a plain scalar
    (`? >#`, `? ''#c`: Bun rejects it; review s43-freview F4), an anchor cut short (`&a:{`:
    F11, F11b), a lone dash in a flow collection (F12). ``composed``: ``root`` is PyYAML's
    composition of the text itself (``flow_oddity``)."""
    return (_found(yaml_text, odd_complex_key, _ODD_COMPLEX_NEEDS, _COMPLEX)
            or _found(yaml_text, cut_anchor, _CUT_ANCHOR_NEEDS, _ANCHOR)
            or _found(yaml_text, cut_tag, _CUT_TAG_NEEDS, _TAG)
            or _found(yaml_text, lone_dash, _LONE_DASH_NEEDS, _DASH)
            or flow_oddity(yaml_text, root, composed=composed))


def flow_oddity(yaml_text: str, root: Node | None = None, *,
                composed: bool = False) -> tuple[str, int] | None:
    """For a text PyYAML reads: inside a flow collection, a node property or an alias
    (``[a, &b -]``, ``{"a":!,}``), a complex key (``[?, , b]``, ``[?: :]``), a lone ``-`` or
    an empty entry, which Bun and PyYAML read apart in more shapes than rules can list
    (reviews s44-freview N7, N7c, N10: a random nested-flow generator found 101 such texts in
    400,000). Found on PyYAML's own tokens; none of it is in a real skill's flow lists.

    With ``composed`` (``root`` is PyYAML's composition of ``yaml_text``, which holds no tab
    after a dash, so the text scanned is that text), the nodes tell when the scan finds
    nothing (``_scan_may_find``), and the text is not scanned. (The brackets of ``Bash(ls:*)`` or
    ``argument-hint: <a> [b]`` are inside plain scalars; ``[Read, Bash(git *)]`` is a flow
    list of plain scalars.)"""
    if ("[" not in yaml_text and "{" not in yaml_text) or not _flow_sign(yaml_text):
        return None
    if composed and "-\t" not in yaml_text and not _scan_may_find(root, yaml_text):
        return None
    import yaml

    from .dashtab import spaced

    level, last = 0, ""
    try:  # the text as PyYAML read it (a tab after a list item's dash as a space: N12)
        for token in yaml.scan(spaced(yaml_text),
                               Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
            kind, at = type(token).__name__, token.start_mark.index
            level += kind in _OPENING
            level -= kind in _CLOSING
            if level and (kind in _PROPERTIES or (kind == "KeyToken" and yaml_text[at] == "?")
                          or (kind == last == "FlowEntryToken")):
                return _FLOW, at
            last = kind
    except yaml.YAMLError as e:  # tokens it cannot read to the end: none is known plain
        return _FLOW[0], getattr(getattr(e, "problem_mark", None), "index", 0)
    return None


def _scan_may_find(root: Node | None, yaml_text: str) -> bool:
    """False when ``flow_oddity``'s scan of ``yaml_text``, which PyYAML composed into
    ``root`` (a tree: ``yamlspan.compose`` refuses aliases), cannot find anything: no flow
    collection holds a ``?`` in its text, and no node inside one begins with ``&`` or ``!``.
    True when the scan must tell.

    The scan reads the tokens the composer read, with the same libyaml scanner, to the end
    without an error, and looks inside flow collections only (between a ``[`` or ``{`` token
    and its closing one, which a flow collection node spans). There:
    - an alias token: none, the text composed;
    - an anchor or tag token: it is the first of a node's properties, and a node starts at its
      first property (libyaml's parser marks it so), so a node inside the collection would
      begin with ``&`` or ``!`` (which no scalar, plain or quoted, begins with otherwise);
    - a key token written ``?``: it would be inside the collection's span;
    - two entry tokens in a row (``[a, , b]``): after a ``,`` libyaml's parser takes a node or
      the closing bracket and refuses a second ``,`` ("did not find expected node content"),
      so the text would not have composed."""
    stack = [] if root is None else [root]
    while stack:
        node = stack.pop()
        if isinstance(node, CollectionNode):
            if node.flow_style:
                if yaml_text.find("?", node.start_mark.index, node.end_mark.index) >= 0 or (
                        _property_inside(node, yaml_text)):
                    return True
                continue  # (what is inside it is asked there)
            for item in node.value:  # pairs of nodes, or nodes
                if isinstance(item, tuple):
                    stack.extend(item)
                else:
                    stack.append(item)
    return False


def _property_inside(flow: CollectionNode, yaml_text: str) -> bool:
    """Whether a node inside the collection ``flow`` begins with ``&`` or ``!``."""
    stack: list[Node] = [flow]
    while stack:
        node = stack.pop()
        if node is not flow and yaml_text[
                node.start_mark.index:node.start_mark.index + 1] in _PROPERTY:
            return True
        if isinstance(node, CollectionNode):
            stack.extend(_children(node))
    return False


def _children(node: CollectionNode) -> list[Node]:
    """A collection's nodes: a mapping's keys and values, a sequence's items."""
    if isinstance(node, MappingNode):
        return [one for pair in node.value for one in pair]
    return list(node.value)


_PROPERTY: Final = ("&", "!")
#: What ``_flow_sign`` looks for: a node property, an alias or a ``?`` first after a flow
#: indicator or a ``:``, blank space between.
_FLOW_SIGN: Final = re.compile(r"[\[{,:][ \t\r\n]*[?!&*]")
_SIGN: Final = re.compile(r"[?!&*]")


def _flow_sign(yaml_text: str) -> bool:
    """``_FLOW_SIGN.search(yaml_text)`` found something, found from its last character (one of
    ``?!&*``, searched at C speed; the class of its first, ``,`` and ``:``, is in every
    frontmatter's text): the blank space before such a character, read backwards, must
    follow one of ``[{,:``. The one place that can be is the first character before the blank
    run that is not blank (those four are not blank), so this is the regex's answer."""
    for found in _SIGN.finditer(yaml_text):
        at = found.start() - 1
        while at >= 0 and yaml_text[at] in " \t\r\n":
            at -= 1
        if at >= 0 and yaml_text[at] in "[{,:":
            return True
    return False
_OPENING: Final = frozenset({"FlowSequenceStartToken", "FlowMappingStartToken"})
_CLOSING: Final = frozenset({"FlowSequenceEndToken", "FlowMappingEndToken"})
_PROPERTIES: Final = frozenset({"AnchorToken", "AliasToken", "TagToken"})
_FLOW: Final = ("a node property, an alias or a complex key inside a flow collection: Claude "
                "Code's YAML parser and skillgrant's read these apart, so what it grants cannot "
                "be computed; write the collection's items plainly")


def apart_as_rejected(yaml_text: str) -> tuple[str, int] | None:
    """For a text PyYAML rejects, which Bun is taken to reject too: any complex key (Bun may
    read the text as written: a tab-indented line before one, F4), an anchor cut short."""
    return (_found(yaml_text, _complex_key, _COMPLEX_NEEDS, _COMPLEX)
            or _found(yaml_text, cut_anchor, _CUT_ANCHOR_NEEDS, _ANCHOR))


def judged_keys(yaml_text: str) -> tuple[str, int] | None:
    """For the runtime's frontmatter where it is not skillgrant's (Claude Code ends it at a
    '---' inside a value): a text that may hold a key ``JUDGED`` names (a name written
    out, or an escape), which skillgrant judges in its own reading only (F7)."""
    if "\\" in yaml_text or any(key in yaml_text for key in JUDGED):
        return ("it may hold 'hooks' or 'agent', which let the skill go beyond its plan, and "
                "skillgrant judges only the keys of its own reading", 0)
    return None


def _found(yaml_text: str, rule: Callable[[str], int], needs: tuple[re.Pattern[str], ...],
           why: str) -> tuple[str, int] | None:
    """``rule``'s first match in ``yaml_text`` (why, and the offset of its last character),
    looked for only where one of ``needs`` matches."""
    for need in needs:  # (a loop, not any() of a generator: asked four times a reading)
        if need.search(yaml_text):
            break
    else:
        return None
    found = rule(yaml_text)
    return None if found < 0 else (why, found)
