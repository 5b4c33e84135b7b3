"""yamlapart's rules as the regular expressions they were (session 48): the reference its
linear walks (skillfile.propwalk) answer as, on texts short enough for the patterns' time."""

from __future__ import annotations

import re
from typing import Final

ODD_COMPLEX_KEY: Final = re.compile(
    r"(?:(?:^|[\n\r])[ \t-]*|[\[{][ \t]*)\?(?=[ \t\r\n]|$)"
    r"(?![ \t]+(?:[!&][^\s]*[ \t]+)*[A-Za-z0-9_][A-Za-z0-9_ .-]*(?:\n|$))")
CUT_ANCHOR: Final = re.compile(r"(?:(?:^|[\n\r])[ \t\r]*(?:-[ \t\r]+)*|:[ \t\r]+|[\[{,][ \t\r]*"
                               r"|\?[ \t\r]+)(?:![^\s]*[ \t\r]+)*[&*][A-Za-z0-9_-]+[?:%@`]")
LONE_DASH: Final = re.compile(r"(?:[\[{,:])(?>(?:\s|(?<=\s)#[^\r\n]*+)*)(?:[&!][^\s,\[\]{}]*\s+)*"
                              r"-(?=(?>(?:\s|(?<=\s)#[^\r\n]*+)*)[\]},])")
CUT_TAG: Final = re.compile(r"(?:(?:^|[\n\r])[ \t\r]*(?:-[ \t\r]+)*|:[ \t\r]+|[\[{,][ \t\r]*"
                            r"|\?[ \t\r]+)(?:&[^\s]*[ \t\r]+)*![^\s,\[\]{}]*[,\[\]{}]")


def answer(pattern: re.Pattern[str], text: str) -> int:
    """The offset of the last character the pattern's first match consumed, or -1."""
    found = pattern.search(text)
    return -1 if found is None else found.end() - 1
