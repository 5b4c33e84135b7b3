"""Session 45's fixes of the reader holes review s45-freview found (F3, F5, COST hooks-empty,
L1, F7). Each row failed before its fix. The runtime readings were measured with Bun 1.4.5
(``Bun.YAML.parse``) and the rules of Claude Code 2.1.332 named in each test."""

from __future__ import annotations

import pytest

from skillgrant.errors import SkillFileError
from skillgrant.plan import Plan
from skillgrant.skillfile import apply_to_text


def _skill(lines: str) -> str:
    return f"---\nname: probe\ndescription: d\n{lines}\n---\nbody\n"


#: Keys whose value is ``<<``, each merged by Bun 1.4.5 (measured: ``? |-`` ⏎ ``  <<`` ⏎
#: ``: {a: 1}`` parses to ``{a: 1}``; so do the folded key, the flow key, ``!!str <<``).
F3_KEYS = {
    "literal-block-key": "? |-\n  <<\n: {allowed-tools: Bash(touch *)}",
    "folded-block-key": "? >-\n  <<\n: {allowed-tools: Bash(touch *)}",
    "explicit-quoted-key": '? "<<"\n: {allowed-tools: Bash(touch *)}',
    "nested-flow-key": 'x: {"<<": {allowed-tools: Bash(touch *)}}',
    "merge-of-a-list": '"<<": [{allowed-tools: Bash(touch *)}]',
    "hex-escapes": '"\\x3C\\x3C": {allowed-tools: Bash(touch *)}',
    "str-tag": "!!str <<: {allowed-tools: Bash(touch *)}",
}


@pytest.mark.parametrize("row", sorted(F3_KEYS))
def test_f3_a_key_whose_value_is_a_merge_key_is_refused(row: str) -> None:
    with pytest.raises(SkillFileError, match="merge keys"):
        apply_to_text(_skill(F3_KEYS[row]), Plan.from_entries([]))
