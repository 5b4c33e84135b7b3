"""Session 44's review of the reader (s44-freview), against the Bun oracle (run with ``--bun``):
frontmatters skillgrant reads otherwise than Claude Code's own steps do. The escalations are
confirmed through Claude Code itself in tests/conformance/test_s44_freview.py.

Each text holds the canary ``allowed-tools: Read # Bash(touch *)``: when Bun rejects the text
and skillgrant predicts it does not, the runtime's re-quoted retry reads the comment as
entries (``Bash(touch *)``) where skillgrant reads ``Read``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bun_runtime
from bun_fixture import bun

CANARY = "allowed-tools: Read # Bash(touch *)"
VALUES = {
    # N7: F12's lone dash behind an anchor or a tag (yamlapart._LONE_DASH wants it right after
    # the flow indicator).
    "N7-anchored-dash-in-list": "x: [a, &b -]",
    "N7-anchored-dash-first": "x: [&b -]",
    "N7-tagged-dash-in-map": "x: {a: !!str -}",
    "N7-bare-tag-dash": "x: [! -]",
    "N7-anchor-and-tag-dash": "x: {a: &b !!str -}",
    "N7-tab-after-anchor": "x: [&b\t-]",
    "N7-anchored-dash-map-key": "x: {&b -}",
    # N7: the dash right after a JSON-like key's ':' (no blank needed there).
    "N7-json-key-dash-map": 'x: {"a":-}',
    "N7-single-quoted-key-dash-map": "x: {'a':-}",
    "N7-json-key-dash-list": 'x: ["a":-]',
    # N7c (against main 4db6fbf): the same right after a JSON-like key's ':' (_LONE_DASH and
    # _CUT_TAG want ': ' with a blank there).
    "N7c-json-key-tag-comma": 'x: {"a":!,}',
    "N7c-json-key-anchored-dash": "x: ['a':&b -]",
    "N7c-json-key-tagged-dash": 'x: {"a":!!str -}',
    "N7c-json-key-blank-before-colon": 'x: ["a" :-]',
    "N7c-json-key-tab-before-colon": "x: {'a'\t:!,}",
    # N10: a bare '?' glued to a comma (no blank after it), then an empty entry: PyYAML lets
    # the empty entry pass after it, Bun rejects it.
    "N10-empty-entry-after-bare-question-mark": "x: [?, , b]",
    "N10-tab-entry-after-bare-question-mark": "x: [a, ?, \t, b]",
    "N10-tab-glued": "x: [?,\t, b]",
    "N10-two-blanks": "x: [?,  , b]",
    # N10: a complex key after a comma (the complex-key rules look after '[' or '{' only) whose
    # key is a lone dash.
    "N10-complex-key-dash-after-comma": "x: [a, ? -]",
    "N10-complex-key-anchored-dash": "x: {a: b, ? &b -}",
    "N10-complex-key-json-dash": 'x: [a, ? "a":-]',
    "N10-blank-question-mark-then-empty-entry": "x: [a, ? , , b]",
    # N10: a bare '?' glued to ':' then a second ':' (an empty key's empty key).
    "N10-question-colon-colon": "x: [?: :]",
    "N10-question-colon-colon-after-item": "x: [a, ?: :]",
    "N10-question-colon-colon-value": "x: [?: : b]",
    # N12 (against main 0204cc5): the N10 shapes after a dash-tab list item, which stops
    # flow_oddity's scan (PyYAML's scanner refuses the tab; the reader composes past it).
    "N12-dash-tab-then-empty-entry": "y:\n  -\tfoo\nx: [?, , b]",
    "N12-dash-tab-then-complex-key-dash": "y:\n  -\tfoo\nx: [a, ? -]",
    "N12-dash-tab-then-question-colon": "y:\n  -\tfoo\nx: [?: :]",
    "N12-top-dash-tab-item": "y:\n-\tfoo\nx: [?, , b]",
    # (and N7c's tag right after a JSON-like key's ':', which _CUT_TAG wants with a blank)
    "N12-dash-tab-then-json-key-tag": 'y:\n  -\tfoo\nx: {"a":!,}',
    "N12-dash-tab-then-json-key-anchored-tag": "y:\n  -\tfoo\nx: ['a':&b !,]",
    # N7: a tag that runs on through a flow indicator for PyYAML (it ends a tag at a blank).
    "N7-bare-tag-comma": "x: [!, a]",
    "N7-anchor-bare-tag-comma": "x: [&b !, a]",
}

__all__ = ["bun"]  # (the pinned Bun, a fixture: tests/oracle/bun_fixture.py)



@pytest.mark.parametrize("case", sorted(VALUES))
def test_n7_skillgrant_reads_what_bun_reads_or_refuses(bun: Path, case: str) -> None:
    text = f"---\nname: probe\n{VALUES[case]}\n{CANARY}\n---\nbody\n"
    bun_runtime.assert_reads_as_bun(bun, text)


#: N8 (low: skillgrant reads less than the runtime, no escalation found): a comment line inside a
#: flow collection nested under a key, indented with spaces then a tab. ``runtime._misplaced_line``
#: takes the tab for a misplaced continuation and predicts Bun rejects the text (and its retry:
#: "grants nothing"; with a plain ``allowed-tools: Read`` the retry changes nothing and the file
#: is refused); Bun accepts it as written (a comment line) and reads ``Read``.
TAB_COMMENT = {
    "N8-nested-flow-list": "y:\n  x: [a,\n \t#c\n  ]",
    "N8-nested-flow-map": "y:\n  x: {a: b,\n \t#c\n  }",
    "N8-item-flow-list": "y:\n  - [a,\n \t#c\n    ]",
    "N8-comment-after-comma": "y:\n  x: [a, #z\n \t#c\n  ]",
}


@pytest.mark.parametrize("case", sorted(TAB_COMMENT))
def test_n8_a_tab_before_a_comment_line_is_read_as_bun_reads_it(bun: Path, case: str) -> None:
    text = f"---\nname: probe\n{TAB_COMMENT[case]}\n{CANARY}\n---\nbody\n"
    bun_runtime.assert_reads_as_bun(bun, text)
