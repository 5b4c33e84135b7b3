"""Markdown for pull-request comments and CI step summaries (``--format markdown`` of ``lint``,
``diff``, ``check`` and ``apply``): untrusted text as code spans and escaped text, and tables of
them.

Every entry and message is untrusted: whatever an entry holds, it is shown either as literal
code or as escaped text, never as markup GitHub would act on (a link, an image, a cell border).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from .escape import brief, one_line

# Also ``:``, ``.`` and ``@``: escaped, they keep GitHub from turning a URL or an e-mail address
# inside an untrusted entry into a link.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|~&!#:.@])")
_BACKTICKS = re.compile(r"`+")


def md_code(text: str) -> str:
    """``text`` as an inline code span that shows it literally, inside a table cell too: the
    fence is longer than any run of backticks inside, padded when the text starts or ends with
    a backtick or a space, and ``|`` is escaped (GitHub splits cells before code spans)."""
    if not text:
        return "(empty)"
    body = brief(text)
    if "\\|" in body:
        # In a table GitHub would read ``\\|`` as an escaped backslash and a cell border;
        # escaped text shows the entry exactly (not in monospace).
        return _MD_SPECIAL.sub(r"\\\1", body)
    body = body.replace("|", "\\|")
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(body)), default=0) + 1)
    pad = " " if body[0] in "` " or body[-1] in "` " else ""
    return f"{fence}{pad}{body}{pad}{fence}"


def md_text(text: str) -> str:
    """A message as Markdown: what it quotes in backticks becomes code spans (``md_code``),
    the rest has every character Markdown could read as markup escaped. Whatever an entry
    inside holds, each piece is either literal code or escaped text."""
    said = one_line(text)
    pieces = said.split("`")
    if len(pieces) % 2 == 0:  # an unpaired backtick: nothing is code
        pieces = [said]
    return "".join(md_code(piece) if i % 2 else _MD_SPECIAL.sub(r"\\\1", piece)
                   for i, piece in enumerate(pieces))


def md_table(header: Sequence[str], rows: Sequence[Sequence[str]], *,
             right: Collection[str] = ()) -> str:
    """A GitHub table of cells already written as Markdown; a ``line`` column, and the columns
    named in ``right``, are right-aligned."""
    aligned = {"line", *right}
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---:" if name in aligned else "---" for name in header) + "|"]
    lines.extend("| " + " | ".join(row) + " |" for row in rows)
    return "\n".join(lines) + "\n"
