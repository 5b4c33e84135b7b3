"""``skillgrant suggest``, ``skillgrant replay`` and ``skillgrant audit verify`` (issue 32),
registered on the app of cli/app.py by ``register_evidence_commands``.

Exceptions become exit statuses through ``cli.options.guard``, as for every other command (2
on any error, never 1). The evidence readers and the renderers load inside the commands.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import typer

from .console import report_to
from .options import DebugOpt, Format, OutputOpt, format_option, guard

EVIDENCE_HELP = ("Evidence: skillgrant audit logs, Claude Code session transcripts "
                 "(~/.claude/projects/…/*.jsonl) or Copilot CLI events.jsonl files.")


class Generalize(StrEnum):
    exact = "exact"
    command = "command"
    directory = "directory"
    tool = "tool"


def suggest(
    ctx: typer.Context,
    evidence: Annotated[list[str], typer.Argument(
        metavar="EVIDENCE...", show_default=False, help=EVIDENCE_HELP)],
    generalize: Annotated[Generalize, typer.Option(
        "--generalize", "-g", help="exact: one entry per distinct command, file and host; "
        "command: per program and subcommand (Bash(git log *)); directory: as command, with "
        "paths by their directory (Read(//src/**)); tool: tool-wide entries (Bash, Read).")
    ] = Generalize.command,
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
        from ..evidence.read import read_evidence
        from ..evidence.suggest import suggest as run_suggest
        from ..reports.escape import dumps
        from ..reports.suggest import json_document, plan_text, summary

        found = run_suggest(read_evidence(evidence), generalize.value)
        text = plan_text(found, evidence)
        if plan_out is not None:
            with report_to(plan_out):
                typer.echo(text, nl=False)
        with report_to(output):
            if fmt is Format.json:
                typer.echo(dumps(json_document(found, evidence)), nl=False)
            elif plan_out is not None:
                typer.echo(summary(found, plan_out), nl=False)
            else:
                typer.echo(text, nl=False)


def register_evidence_commands(app: typer.Typer) -> None:
    app.command()(suggest)
