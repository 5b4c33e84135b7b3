"""Session 43's review of the reader (s43-freview), against the Bun oracle (run with ``--bun``):
frontmatters skillgrant reads otherwise than Claude Code's own steps do.

Found by a character-soup generator of near-flat frontmatters (lines of ``key: value`` with
YAML indicators, tabs, CR, complex keys), 500,000 texts: every disagreement was skillgrant
reading *more* entries than the runtime (no escalation through ``apply`` was found), but the
reader's contract is to read what the runtime reads or refuse.

F4a: a tab-indented line after a plain value, then a ``? `` complex-key line. PyYAML rejects
the text (a tab in the indentation), so skillgrant reads the runtime's re-quoted retry, where
the tab is two spaces and the line continues the value; but Bun *accepts* the text as written
and reads the tab line as a key of its own with a null value. So Claude Code never takes the
retry: ``allowed-tools`` is the first line alone.

F4b: texts Bun rejects, and whose retry Bun rejects too (the runtime grants nothing), that
skillgrant reads.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bun_runtime
from bun_fixture import bun

CASES = {
    # F10b: the glued comment after a tagged or anchored header.
    "F10b-tagged-header": ("---\nname: probe\nmodel: !!str |#a #\n"
                           "allowed-tools: Read # Bash(touch *)\n---\nbody\n"),
    "F10b-anchored-header": ("---\nname: probe\nmodel: &q |#a #\n"
                             "allowed-tools: Read # Bash(touch *)\n---\nbody\n"),
    # F11b: the anchor after a tag.
    "F11b-tag-then-anchor": ("---\nname: probe\ndescription: !!str &a:{\n"
                             "allowed-tools: Read # Bash(touch *)\n---\nbody\n"),
    # F12: a lone '-' as a plain scalar inside a flow collection, on another key.
    "F12-lone-dash-in-flow-list": ("---\nname: probe\nx: [-]\n"
                                   "allowed-tools: Read # Bash(touch *)\n---\nbody\n"),
    "F12-lone-dash-in-flow-map": ("---\nname: probe\nx: {a: -}\n"
                                  "allowed-tools: Read # Bash(touch *)\n---\nbody\n"),
    # F11: an anchor whose name runs into a flow indicator, on another key.
    "F11-anchor-into-brace": ("---\nname: probe\ndescription: &a:{\n"
                              "allowed-tools: Read # Bash(touch *)\n---\nbody\n"),
    "F11-anchor-into-bracket": ("---\nname: probe\ndescription: &a:]\n"
                                "allowed-tools: Read # Bash(touch *)\n---\nbody\n"),
    # F10 (the escalation, confirmed through Claude Code in tests/conformance): a glued comment
    # on a block-scalar indicator with a later ' #' is not predicted as Bun's rejection.
    "F10-glued-comment-then-comment": ("---\nname: probe\nallowed-tools: Read # Bash(touch *)\n"
                                       "model: |#a #\n---\nbody\n"),
    "F10-glued-comment-folded": ("---\nname: probe\nallowed-tools: Read # Bash(touch *)\n"
                                 "model: >#a # \n---\nbody\n"),
    "F4a-tab-line-then-complex-key": ("---\nallowed-tools: B\n\tBash\u3000(touch *)\n? x\n"
                                      "---\nbody\n"),
    "F4a-tab-line-then-complex-key-ascii": "---\nallowed-tools: Read\n\tBash(rm:*)\n? x\n---\n",
    "F4b-complex-key-with-cr": ("---\nname: probe\nallowed-tools: Bash(touch *)\ndescription: d\n"
                                "?  #\r>\n   R)\n---\nbody\n"),
    "F4b-complex-key-folded-comment": ("---\nname: probe\ndescription: d\nallowed-tools: Read,\n"
                                       "? >#\n---\nbody\n"),
    "F4b-complex-key-quoted-comment": ("---\nname: probe\ndescription: d\nallowed-tools: Read #ep\n"
                                       "? ''#ch\n---\nbody\n"),
}

__all__ = ["bun"]  # (the pinned Bun, a fixture: tests/oracle/bun_fixture.py)



@pytest.mark.parametrize("case", sorted(CASES))
def test_f4_skillgrant_reads_what_bun_reads_or_refuses(bun: Path, case: str) -> None:
    text = CASES[case]
    bun_runtime.assert_reads_as_bun(bun, text)
