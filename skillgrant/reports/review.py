"""``lint`` and ``diff`` in every format (semantics §8, issue 8): text (the default), JSON, GitHub
workflow annotations, SARIF 2.1.0 and Markdown (a pull-request comment).

Each command's own renderers are in ``reports.lint`` and ``reports.diff``; GitHub and SARIF are
written by ``reports.ci`` from the command's located findings and its rules. ``Formats`` is the
one place a format is chosen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Generic, TypeVar

from ..rules import DIFF_RULES, LINT_RULES, Rule
from .ci import FileFindings, github_annotations, sarif_log
from .diff import (
    DiffReport,
    diff_findings,
    render_diff_json,
    render_diff_markdown,
    render_diff_text,
)
from .escape import dumps
from .lint import (
    LintReport,
    lint_findings,
    render_lint_json,
    render_lint_markdown,
    render_lint_text,
)
from .markdown import md_code, md_text

__all__ = [
    "DiffReport",
    "Formats",
    "LintReport",
    "md_code",
    "md_text",
    "render_diff",
    "render_lint",
]

ReportT = TypeVar("ReportT")


@dataclass(frozen=True)
class Formats(Generic[ReportT]):
    """One command's renderers: text (with or without colour), JSON (with the tool's version)
    and Markdown, and the located findings and rules its GitHub and SARIF output is made of."""

    text: Callable[[ReportT, bool], str]
    json: Callable[[ReportT, str], str]
    markdown: Callable[[ReportT], str]
    findings: Callable[[ReportT], FileFindings]
    rules: Sequence[Rule]

    def render(self, report: ReportT, fmt: str, *, version: str, root_uri: str | None,
               colour: bool = False) -> str:
        """``report`` as ``fmt``: text (the default), json, github, sarif or markdown."""
        if fmt == "json":
            return self.json(report, version)
        if fmt == "markdown":
            return self.markdown(report)
        if fmt == "github":
            return github_annotations([self.findings(report)])
        if fmt == "sarif":
            return sarif_log([self.findings(report)], rules=self.rules, version=version,
                             root_uri=root_uri)
        return self.text(report, colour)

    def render_many(self, reports: Sequence[ReportT], fmt: str, *, version: str,
                    root_uri: str | None, colour: bool = False) -> str:
        """Several reports (``lint A B``) as ``fmt``: one SARIF log or one array of JSON
        documents; the other formats one report after another."""
        if len(reports) == 1:
            return self.render(reports[0], fmt, version=version, root_uri=root_uri,
                               colour=colour)
        if fmt == "json":
            import json

            return dumps([json.loads(self.json(r, version)) for r in reports])
        if fmt == "github":
            return github_annotations([self.findings(r) for r in reports])
        if fmt == "sarif":
            return sarif_log([self.findings(r) for r in reports], rules=self.rules,
                             version=version, root_uri=root_uri)
        joiner = "\n" if fmt == "markdown" else ""
        return joiner.join(self.render(r, fmt, version=version, root_uri=root_uri,
                                       colour=colour) for r in reports)


LINT_FORMATS: Final = Formats(render_lint_text, render_lint_json, render_lint_markdown,
                              lint_findings, LINT_RULES)
DIFF_FORMATS: Final = Formats(render_diff_text, render_diff_json, render_diff_markdown,
                              diff_findings, DIFF_RULES)

render_lint: Final = LINT_FORMATS.render
render_lints: Final = LINT_FORMATS.render_many
render_diff: Final = DIFF_FORMATS.render
