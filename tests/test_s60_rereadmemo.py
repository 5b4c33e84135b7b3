"""The read-back's readings of the key's new lines kept by their text (session 60,
``reread._plain_read``, ``reread._apart_read``, ``blockread._items_read``): a rewrite read back
after the same lines were read at another place of another file gives the whole reader's
document, so what is kept holds no offset of the file it was first read in."""

from __future__ import annotations

import pytest

from skillgrant.errors import AllowedToolsError, SkillFileError
from skillgrant.skillfile import blockread
from skillgrant.skillfile import reread as reread_module
from skillgrant.skillfile.doc import AllowedTools
from skillgrant.skillfile.reread import reread
from skillgrant.skillfile.spans import read_skill

#: Values whose rewrites each branch reads (a plain line, a block list), and some it declines.
#: Each with whether a branch takes its rewrites (and so asks the memos).
_VALUES = [
    ("allowed-tools: Read, Grep, Bash(git *)", True),
    ("allowed-tools: Read Grep", True),
    ("allowed-tools: Read, Bash(a #b)", False),
    ("allowed-tools:\n  - Read\n  - Grep\n  - Bash(git *)", True),
    ("allowed-tools:\n- Read\n- Bash(gh pr list:*)", True),
    ("allowed-tools:\n  - Read\n  - 'Grep'", False),
]
#: What comes before the key, so that the same lines stand at other offsets.
_BEFORE = ["", "name: a\n", "name: a much longer name\ndescription: d\n"]


def _outcome(read: object, *args: object) -> object:
    try:
        return read(*args)  # type: ignore[operator]
    except SkillFileError as e:
        return ("error", str(e))


@pytest.mark.parametrize(("value", "taken"), _VALUES)
def test_kept_readings_hold_no_offset_of_the_file_first_read(value: str, taken: bool) -> None:
    reread_module._plain_read.cache_clear()
    reread_module._apart_read.cache_clear()
    blockread._items_read.cache_clear()
    for before in _BEFORE:  # the first file fills the memos, the later ones take from them
        old_text = f"---\n{before}{value}\nlast: x\n---\nBody\n"
        old = read_skill(old_text, "SKILL.md")
        allowed = old.allowed_tools
        assert allowed is not None
        for kept in ([allowed.entries[0]], list(allowed.entries[:2]), list(allowed.entries)):
            new_text = (old_text[:allowed.start] + _written(allowed.form, kept, allowed)
                        + old_text[allowed.end:])
            assert _outcome(reread, old, new_text) == _outcome(read_skill, new_text,
                                                                 "SKILL.md")
    # The memos were asked, and answered from what an earlier file left.
    hits = reread_module._plain_read.cache_info().hits + blockread._items_read.cache_info().hits
    assert (hits > 0) == taken


def _written(form: str, entries: list[str], allowed: AllowedTools) -> str:
    """The new value's text: a block list's lines (its span starts at the first dash's line),
    else a plain string."""
    if form == "block-list":
        return "\n".join(allowed.item_prefix + entry for entry in entries)
    return ", ".join(entries)


@pytest.mark.parametrize(("old_value", "new_value"), [
    ("allowed-tools: Read, Grep", "Read(x, Bash(a)"),  # the branch's checks pass: it raises
    ("allowed-tools: Read, Grep", "Read(x, Bash(a---b)"),  # they fail: the whole reader's error
    ("allowed-tools:\n  - Read\n  - Grep", "  - Read(x\n  - Bash(a,b"),
    ("allowed-tools:\n  - Read\n  - Grep", "  - Read(x\n  - Bash(a,b---c"),
])
def test_a_value_the_split_refuses_fails_where_it_always_did(old_value: str,
                                                             new_value: str) -> None:
    old = read_skill(f"---\nname: a\n{old_value}\nlast: x\n---\nB\n", "SKILL.md")
    allowed = old.allowed_tools
    assert allowed is not None
    new_text = old.text[:allowed.start] + new_value + old.text[allowed.end:]
    for _ in range(2):  # the second from the memos
        try:
            reread(old, new_text)
        except AllowedToolsError as e:  # the split's own error, raised by the branch
            assert "---" not in new_value, e
        except SkillFileError as e:  # the whole reader's, located
            assert "---" in new_value and e.line is not None
        else:
            raise AssertionError("read back")
