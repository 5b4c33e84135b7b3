"""Which lint findings count, and when ``lint`` fails.

- ``--select`` and ``--ignore`` (or the configuration's ``lint.select`` and ``lint.ignore``)
  name rules by ID or by a prefix of IDs (``SGL1`` is every over-broad rule). A finding counts
  when its rule is selected (every rule, without ``--select``) and not ignored.
- A comment on an entry's line suppresses the rules it names for the entries on that line:
  ``- Bash(sudo *)  # skillgrant: ignore[SGL103]``. Several rules are separated by commas.
- ``lint`` exits 1 when a finding that counts is at least as severe as ``--fail-on`` (warning
  by default: a plan with only info findings passes); ``--exit-zero`` never fails on findings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..errors import SkillgrantError

if TYPE_CHECKING:
    from .lint import Finding
    from .sources import Source

#: Severities from the least to the most severe.
SEVERITIES = ("info", "warning", "error")
_SUPPRESSION = re.compile(r"#\s*skillgrant:\s*ignore\[([^\]]*)\]")


class SelectionError(SkillgrantError, ValueError):
    """A rule selection that names no rule."""


class Selection(NamedTuple):
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()

    def counts(self, rule_id: str) -> bool:
        if self.select is not None and not rule_id.startswith(self.select):
            return False
        return not (self.ignore and rule_id.startswith(self.ignore))


def selection(select: Sequence[str] | None, ignore: Sequence[str],
              known: Iterable[str]) -> Selection:
    """The selection of ``select`` and ``ignore`` (comma-separated values are split). Raises
    SelectionError for a value that is the prefix of no rule in ``known``."""
    ids = sorted(known)
    chosen = [_split(select) if select is not None else None, _split(ignore)]
    if chosen[0] is not None and not chosen[0]:
        raise SelectionError("--select (or lint.select) names no rule: give rule IDs or "
                             "prefixes, or leave it out for every rule")
    for values in chosen:
        for value in values or ():
            if not any(rule.startswith(value) for rule in ids):
                raise SelectionError(f"{value!r} names no rule (rules: {', '.join(ids)})")
    return Selection(None if chosen[0] is None else tuple(chosen[0]), tuple(chosen[1] or ()))


def suppressions(text: str, line: int | None) -> frozenset[str]:
    """The rules a comment on ``line`` (1-based) of ``text`` suppresses."""
    if line is None or line < 1:
        return frozenset()
    lines = text.split("\n")  # the locations count "\n" alone (not U+2028, FF or CR)
    if line > len(lines):
        return frozenset()
    found: set[str] = set()
    for names in _SUPPRESSION.findall(lines[line - 1]):
        found.update(n.strip() for n in names.split(",") if n.strip())
    return frozenset(found)


def counted(findings: Sequence[Finding], source: Source,
            chosen: Selection) -> tuple[list[Finding], int]:
    """The findings that count, and how many a comment suppressed."""
    kept: list[Finding] = []
    suppressed = 0
    for finding in findings:
        if not chosen.counts(finding.rule_id):
            continue
        where = source.at(finding.index)
        if finding.rule_id in suppressions(source.text, where.line if where else None):
            suppressed += 1
            continue
        kept.append(finding)
    return kept, suppressed


def fails(findings: Iterable[Finding], fail_on: str) -> bool:
    """Whether a finding is at least as severe as ``fail_on``."""
    floor = SEVERITIES.index(fail_on)
    return any(SEVERITIES.index(f.severity) >= floor for f in findings)


def _split(values: Sequence[str] | None) -> list[str]:
    return [part.strip() for value in values or () for part in value.split(",") if part.strip()]
