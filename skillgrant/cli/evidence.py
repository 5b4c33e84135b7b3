"""``skillgrant suggest``, ``skillgrant replay`` and ``skillgrant audit verify`` (issue 32),
registered on the app of cli/app.py by ``register_evidence_commands``.

Exceptions become exit statuses through ``cli.options.guard``, as for every other command (2
on any error, never 1). The evidence readers and the renderers load inside the commands.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, cast

import typer

from ..evidence.levels import LEVELS, Level
from .console import report_to
from .options import DebugOpt, Format, OutputOpt, PlanKind, format_option, guard

EVIDENCE_HELP = ("Evidence: skillgrant audit logs, Claude Code session transcripts "
                 "(~/.claude/projects/…/*.jsonl) or Copilot CLI events.jsonl files.")

#: ``--generalize``'s choice: the levels of evidence.levels, as typer offers an enum's values.
_LEVEL_CHOICE = typer.main.get_click_type(
    annotation=StrEnum("Generalize", {level: level for level in LEVELS}),
    parameter_info=typer.models.OptionInfo())


def suggest(
    ctx: typer.Context,
    evidence: Annotated[list[str], typer.Argument(
        metavar="EVIDENCE...", show_default=False, help=EVIDENCE_HELP)],
    generalize: Annotated[str, typer.Option(
        "--generalize", "-g", click_type=_LEVEL_CHOICE, help="exact: one entry per "
        "distinct command, file and host; command: by program and subcommand where a reviewed "
        "table says its arguments run no code (Bash(ls *), Bash(gh pr list *)), else exact; "
        "directory: as command, with paths by their directory (Read(//src/**)); tool: "
        "tool-wide entries (Bash, Read).")] = "command",
    fmt: Annotated[Format, format_option(
        (Format.text, Format.json), help="text: the plan file (YAML, each entry with the calls "
        "it covers in a comment); json: the plan with every covered and not suggestible "
        "call.")] = Format.text,
    plan_out: Annotated[str | None, typer.Option(
        "--output", metavar="PLAN", help="Write the plan file to PLAN (replaced whole once "
        "written); standard output then gets the report of --format (text: one summary "
        "line).")] = None,
    output: OutputOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Suggest the narrowest plan that covers every call in the evidence, at the level of
    --generalize (default: command). Calls the gate does not understand are listed as not
    suggestible, with the gate's reason, and are not covered. The same evidence gives the same
    bytes. Exit 0: a plan was suggested; 2: an error.
    """
    with guard(ctx, debug):
        from .. import __version__
        from ..evidence.read import read_evidence
        from ..evidence.suggest import SuggestError
        from ..evidence.suggest import suggest as run_suggest
        from ..limits import MAX_FILE_BYTES
        from ..plan.model import Plan
        from ..reports.escape import dumps
        from ..reports.suggest import json_document, plan_text, summary

        found = run_suggest(read_evidence(evidence), cast(Level, generalize))
        text = plan_text(found, evidence)
        if len(text.encode("utf-8")) > MAX_FILE_BYTES:  # what the plan reader refuses
            raise SuggestError(f"the plan file would take {len(text.encode('utf-8')):,} "
                               f"bytes, over the {MAX_FILE_BYTES:,} a plan file may hold "
                               "(MAX_FILE_BYTES): use a wider --generalize level, or less "
                               "evidence at a time")
        if list(Plan.from_text(text).allowed_tools) != found.entries:  # read back as written
            raise SuggestError("the plan file does not read back as the suggested entries")
        if plan_out is not None:
            with report_to(plan_out):
                typer.echo(text, nl=False)
        with report_to(output):
            if fmt is Format.json:
                typer.echo(dumps(json_document(found, evidence, __version__)), nl=False)
            elif plan_out is not None:
                typer.echo(summary(found, plan_out), nl=False)
            else:
                typer.echo(text, nl=False)




def replay(
    ctx: typer.Context,
    logs: Annotated[list[str], typer.Argument(
        metavar="LOG...", show_default=False, help=EVIDENCE_HELP + " Without --against, only "
        "audit logs (their logged decisions are the old ones).")],
    plan: Annotated[str, typer.Option(
        "--plan", "-p", metavar="NEW", show_default=False,
        help="The new plan: a plan file, an approved SKILL.md or a settings.json.")],
    against: Annotated[str | None, typer.Option(
        "--against", metavar="OLD", help="The old plan to compare with (default: the "
        "decisions the audit log recorded).")] = None,
    plan_kind: Annotated[PlanKind, typer.Option(
        "--plan-kind", help="How to read the plans.")] = PlanKind.auto,
    fmt: Annotated[Format, format_option(
        (Format.text, Format.json, Format.markdown, Format.sarif),
        help="text for people; json for pipelines; markdown for a pull-request comment; "
             "sarif for code scanning.")] = Format.text,
    output: OutputOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Decide every logged call again under the plan NEW (and under OLD with --against) and
    report what would now be denied and what would now be allowed, with counts.
    Exit 0: nothing changed; 1: something did; 2: an error.
    """
    with guard(ctx, debug):
        from .. import __version__
        from ..evidence.read import read_evidence
        from ..evidence.replay import replay as run_replay
        from ..reports.replay import render
        from .console import repo_root, root_uri

        found = run_replay(read_evidence(logs), plan, against, plan_kind=plan_kind.value)
        root = repo_root()
        with report_to(output):
            typer.echo(render(found, fmt.value, version=__version__, root=root,
                              root_uri=root_uri(root)), nl=False)
        if found.changed:
            raise typer.Exit(1)


audit_app = typer.Typer(help="The audit log of skillgrant hook and skillgrant serve.",
                        no_args_is_help=True)


@audit_app.command("verify")
def verify(
    ctx: typer.Context,
    logs: Annotated[list[str], typer.Argument(metavar="LOG...", show_default=False,
                                              help="Audit logs to check.")],
    anchor: Annotated[str | None, typer.Option(
        "--anchor", metavar="LINK", help="The link (sha256:…) of a record kept elsewhere, e.g. "
        "the head a previous run printed: the log must still hold that record.")] = None,
    fmt: Annotated[Format, format_option((Format.text, Format.json))] = Format.text,
    output: OutputOpt = None,
    debug: DebugOpt = False,
) -> None:
    """Check the hash chain of audit logs: each record names the SHA-256 of the record before
    it. Names the first record where an edit, a deletion, an insertion or a reordering breaks
    the chain. A cut at the end shows only against an --anchor kept elsewhere.
    Exit 0: every chain holds; 1: one breaks; 2: an error.
    """
    with guard(ctx, debug):
        from .. import __version__
        from ..evidence.chain import verify as run_verify
        from ..reports.chain import render_json, render_text
        from ..reports.escape import dumps

        reports = [run_verify(log, anchor) for log in logs]
        with report_to(output):
            if fmt is Format.json:
                typer.echo(dumps(render_json(reports, __version__)), nl=False)
            else:
                typer.echo(render_text(reports), nl=False)
        if not all(r.valid for r in reports):
            raise typer.Exit(1)


def register_evidence_commands(app: typer.Typer) -> None:
    app.command()(suggest)
    app.command()(replay)
    app.add_typer(audit_app, name="audit")
