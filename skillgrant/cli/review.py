"""``skillgrant lint`` and ``skillgrant diff`` (semantics §8, issue 8), registered on the app of
cli/app.py by ``register_review_commands``.

Exceptions become exit statuses through ``cli.options.guard`` (and so
``cli.console.exit_status``), as for every other command (2 on any error, never 1). The plan
model, YAML, git and the renderers load inside the commands.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from .. import __version__
from .console import REVIEW_FORMATS, report_to
from .options import (
    Colour,
    ColourOpt,
    DebugOpt,
    Format,
    OutputOpt,
    PlanKind,
    RuntimeOpt,
    colour_enabled,
    fail,
    format_option,
    guard,
    repo_root,
    root_uri,
)
from .run import warn_about

if TYPE_CHECKING:
    from ..review.sources import Source


FormatOpt = Annotated[Format, format_option(
    REVIEW_FORMATS, help="text for people; json for pipelines; github for workflow "
                         "annotations; sarif for code scanning; markdown for a pull-request "
                         "comment.")]
KindOpt = Annotated[PlanKind, typer.Option(
    "--kind", help="How to read the plan(s): auto tells by the name (.md) and content.")]
SOURCE_HELP = ("A plan file (YAML or JSON), an approved SKILL.md or a Claude Code "
               "settings.json")


class Severity(StrEnum):
    info = "info"
    warning = "warning"
    error = "error"


def lint(
    ctx: typer.Context,
    plans: Annotated[list[str], typer.Argument(
        metavar="PLAN-or-SKILL.md...", show_default=False,
        help=SOURCE_HELP + "; or REV:path, read from git; '-' reads standard input. Several "
        "are reviewed one after another.")],
    kind: KindOpt = PlanKind.auto,
    fmt: FormatOpt = Format.text,
    select: Annotated[list[str] | None, typer.Option(
        "--select", metavar="RULES", help="Only these rules (IDs or prefixes such as SGL1, "
        "comma-separated or repeated). Default: every rule, or the configuration's "
        "lint.select.")] = None,
    ignore: Annotated[list[str] | None, typer.Option(
        "--ignore", metavar="RULES", help="Not these rules (IDs or prefixes). Default: the "
        "configuration's lint.ignore.")] = None,
    fail_on: Annotated[Severity, typer.Option(
        "--fail-on", help="Exit 1 for a finding at least this severe.")] = Severity.warning,
    exit_zero: Annotated[bool, typer.Option(
        "--exit-zero", help="Exit 0 whatever the findings (2 still means an error).")] = False,
    output: OutputOpt = None,
    colour: ColourOpt = Colour.auto,
    debug: DebugOpt = False,
) -> None:
    """Review the grants of plans: invalid, over-broad, inert and non-canonical entries.

    Each finding has a stable rule ID (SGL001…), a severity, a message and a fix. A comment
    `# skillgrant: ignore[SGL103]` on an entry's line suppresses that rule there.
    Exit 0: no finding at --fail-on or above; 1: one; 2: an error.
    """
    with guard(ctx, debug):
        from ..reports.review import LintReport, render_lints
        from ..review.lint import BY_ID, lint_entries
        from ..review.selection import counted, fails, selection
        from ..review.sources import STDIN, read_source
        from .discovery import find_config

        if plans.count(STDIN) > 1:
            fail("standard input ('-') can be read once")
        config = find_config()
        chosen = selection(select if select is not None else config.select,
                           ignore if ignore is not None else config.ignore, BY_ID)
        root = repo_root()
        reports, suppressed = [], 0
        for plan in plans:
            source = read_source(plan, kind.value, root)
            warn_about(source.plan, source.name)
            every = lint_entries(list(source.entries), shell_tools=source.shell_tools)
            if source.refusal is not None and not any(f.severity == "error" for f in every):
                # The loader refused an entry that lint passes: never call such a plan clean.
                raise source.refusal
            found, hidden = counted(every, source, chosen)
            reports.append(LintReport(source, tuple(found)))
            suppressed += hidden
        on = colour_enabled(colour) and fmt is Format.text and output is None
        with report_to(output):
            typer.echo(render_lints(reports, fmt.value, version=__version__,
                                    root_uri=root_uri(root), colour=on), nl=False, color=on)
        if suppressed:
            typer.echo(f"skillgrant: {suppressed} finding(s) suppressed by comments", err=True)
    found = [f for report in reports for f in report.findings]
    raise typer.Exit(1 if fails(found, fail_on.value) and not exit_zero else 0)


def diff(
    ctx: typer.Context,
    old: Annotated[str, typer.Argument(
        metavar="OLD", show_default=False,
        help=SOURCE_HELP + "; or REV:path, read from git (an existing file of that name "
                           "wins); '-' reads standard input.")],
    new: Annotated[str, typer.Argument(
        metavar="NEW", show_default=False, help="The changed version, in any form OLD takes.")],
    kind: KindOpt = PlanKind.auto,
    fmt: FormatOpt = Format.text,
    output: OutputOpt = None,
    colour: ColourOpt = Colour.auto,
    runtime: RuntimeOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Grants in NEW that OLD does not provably grant: a capability escalation, with its witness.

    Also lists narrowed and removed grants. Judged with OLD's shell-tools and base-dirs, for the
    runtimes --runtime names (else OLD's runtime key, else every runtime that reads
    allowed-tools).
    Exit 0: no escalation; 1: an escalation (unknown counts); 2: an error (also an invalid
    OLD entry).
    """
    with guard(ctx, debug):
        from ..reports.review import DiffReport, render_diff
        from ..review.lint import diff_entries
        from ..review.sources import STDIN, read_source

        if old == new == STDIN:
            fail("OLD and NEW cannot both be read from standard input")
        root = repo_root()
        before = read_source(old, kind.value, root)
        after = read_source(new, kind.value, root)
        for side in (before, after):
            warn_about(side.plan, side.name)
        baseline = before.approved().constrain_kwargs()
        if runtime is not None:
            from ..runtimes import profiles

            baseline["runtime"] = [p.name for p in profiles(runtime)]
        _warn_if_settings_differ(before, after)
        result = diff_entries(list(before.entries), list(after.entries), **baseline)
        on = colour_enabled(colour) and fmt is Format.text and output is None
        with report_to(output):
            typer.echo(render_diff(DiffReport(before, after, result), fmt.value,
                                   version=__version__, root_uri=root_uri(root), colour=on),
                       nl=False, color=on)
    raise typer.Exit(1 if result.escalates else 0)


def _warn_if_settings_differ(old: Source, new: Source) -> None:
    if new.plan is None or old.plan is None:
        return
    if new.plan.constrain_kwargs() != old.plan.constrain_kwargs():
        typer.echo("skillgrant: warning: NEW declares other shell-tools or base-dirs than OLD; "
                   "its entries are judged with OLD's", err=True)


def register_review_commands(app: typer.Typer) -> None:
    """Add ``lint`` and ``diff`` to the ``skillgrant`` app."""
    app.command("lint")(lint)
    app.command("diff")(diff)
