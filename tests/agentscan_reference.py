"""pluginparts' agent-file rule as the regular expression it was (session 48, s48-ffix): the
reference skillfile.agentscan's walk answers as, on texts short enough for its time."""

from __future__ import annotations

import re
from typing import Final

_SEP = r"(?>(?:\s|#[^\r\n]*+)+)"
RUNS: Final = re.compile(rf"mcp|\\|(?:hooks|github)[\"']?{_SEP}?:|(?:(?:^|[\r\n{{,\[])[ \t]*\?"
                         rf"{_SEP}?|(?:^|(?<=[\s\[{{,:?]))&\S*+{_SEP})(?:[&!]\S*+{_SEP}){{0,4}}"
                         rf"(?:[|>][-+0-9]*{_SEP})?[\"']?(?:hooks|github)", re.IGNORECASE)


def answer(text: str) -> int:
    """Where the expression's first match starts, or -1."""
    found = RUNS.search(text)
    return -1 if found is None else found.start()
