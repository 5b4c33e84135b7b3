"""The ``skillgrant`` command line (semantics §8): ``check``, ``apply``, ``explain`` and ``schema``
here; ``lint`` and ``diff`` in cli/review.py, registered on the same app.

Exceptions become exit codes only in the CLI layer, in ``cli.console.exit_status``: each
command runs inside ``cli.options.guard``, which hands it what the command raised (a
SkillgrantError exits 2 with ``skillgrant: error: <message>`` on stderr; any other exception
exits 2 with a one-line message, the traceback only with ``--debug`` or ``SKILLGRANT_DEBUG=1``),
and ``main`` hands it what escapes typer. Never 1, which always means "findings". Machine output
goes to stdout, diagnostics to stderr.

Start-up matters (CI runs this on every commit): the console script (cli/entry.py) runs a plain
``check`` or ``apply`` without loading typer or this module; here, only typer and the light
package surface load at import; the plan model (pydantic), the SKILL.md reader (YAML,
frontmatter) and the renderers load inside the commands that use them. The work of ``check``
and ``apply`` is cli/run.py's, shared by both ways in.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from typing import Annotated, Any, Final, NoReturn

import typer

from .. import __version__
from .console import CHECK_FORMATS, EXPLAIN_FORMATS, exit_status
from .evidence import register_evidence_commands
from .options import (
    Colour,
    ColourOpt,
    DebugOpt,
    Format,
    OutputOpt,
    PlanKind,
    RootOptions,
    RuntimeOpt,
    SkillgrantGroup,
    colour_enabled,
    env_debug,
    format_option,
    guard,
)
from .review import register_review_commands
from .run import Invocation, load_plan, run_check, warn_about
from .serve import register_serve_command

app = typer.Typer(
    name="skillgrant",
    cls=SkillgrantGroup,
    help="Prove that a SKILL.md's allowed-tools is no wider than the approved plan, and "
         "rewrite it.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

FoundPlanOpt = Annotated[list[str] | None, typer.Option(
    "--plan", "-p", metavar="PLAN", show_default=False,
    help="The approved plan: a plan file (YAML or JSON), an approved SKILL.md, or a Claude "
         "Code settings.json; '-' reads it from stdin. Without it, each file's plan is the "
         "configuration's ([tool.skillgrant] plans) or the nearest plan.yaml beside or above "
         "it.")]
PlanKindOpt = Annotated[PlanKind, typer.Option(
    "--plan-kind", help="How to read --plan; auto tells by the name (.md) and content.")]
FormatOpt = Annotated[Format | None, format_option(
    CHECK_FORMATS, help="text for people; json for pipelines; github for workflow "
                        "annotations; sarif for code scanning.")]
IncludeOpt = Annotated[list[str] | None, typer.Option(
    "--include", metavar="GLOB", help="Read only the files a directory holds that match a "
    "GLOB (repeatable; ** spans folders).")]
ExcludeOpt = Annotated[list[str] | None, typer.Option(
    "--exclude", metavar="GLOB", help="Leave out the files a directory holds that match a "
    "GLOB (repeatable).")]
QuietOpt = Annotated[bool, typer.Option(
    "--quiet", "-q", help="Text output: only the files with a drop, a restore or a note, and "
    "only their dropped entries.")]
JobsOpt = Annotated[int, typer.Option(
    "--jobs", "-j", min=0, metavar="N",
    help="Spread the files over N worker processes (0: one per CPU). The output is the same "
         "as with --jobs 1, in the same order.")]
PathsArg = Annotated[list[str], typer.Argument(
    metavar="PATH", help="SKILL.md (or command) files, or directories searched for SKILL.md "
    "and for the command files of .claude/ and plugins.",
    show_default=False)]


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"skillgrant {__version__}")
        raise typer.Exit(0)


@app.callback()
def _root(
    ctx: typer.Context,
    version: Annotated[bool, typer.Option(
        "--version", "-V", callback=_print_version, is_eager=True,
        help="Print the version and exit.")] = False,
    debug: DebugOpt = False,
) -> None:
    ctx.obj = RootOptions(debug=debug)


def _batch_options(
    ctx: typer.Context,
    paths: PathsArg,
    plan: FoundPlanOpt = None,
    dry_run: Annotated[bool, typer.Option(
        "--dry-run", help="Write nothing; print a unified diff of each change.")] = False,
    enforce: Annotated[bool, typer.Option(
        "--enforce", help="Also add a skill-scoped PreToolUse hook that runs `skillgrant hook` "
        "with this plan, so the plan is a ceiling at run time (the one change outside "
        "allowed-tools).")] = False,
    plan_kind: PlanKindOpt = PlanKind.auto,
    format: FormatOpt = None,
    color: ColourOpt = Colour.auto,
    jobs: JobsOpt = 1,
    include: IncludeOpt = None,
    exclude: ExcludeOpt = None,
    output: OutputOpt = None,
    quiet: QuietOpt = False,
    runtime: RuntimeOpt = None,
    debug: DebugOpt = False,
) -> None:
    """The one parameter list of ``check`` and ``apply``, in their help's order: typer reads it
    as each command's signature (``check`` has no ``--dry-run`` or ``--enforce``). Each name
    but ``ctx`` is the ``Invocation`` field it fills."""


#: Options only ``apply`` has: it is the command that writes.
_WRITE_OPTIONS: Final = ("dry_run", "enforce")


def _batch_command(name: str, doc: str) -> Callable[..., None]:
    """The ``check`` or ``apply`` command: ``_batch_options`` as its signature, and a body
    that hands the command line, as an ``Invocation``, to cli/run.py."""

    def command(ctx: typer.Context, **options: Any) -> None:
        with guard(ctx, options["debug"]):
            code = run_check(Invocation(name, **{
                **options, "plan": _one_plan(options["plan"]),
                "include": tuple(options["include"] or ()),
                "exclude": tuple(options["exclude"] or ())}))
        raise typer.Exit(code)

    signature = inspect.signature(_batch_options, eval_str=True)
    if name != "apply":
        signature = signature.replace(parameters=[
            p for p in signature.parameters.values() if p.name not in _WRITE_OPTIONS])
    command.__signature__ = signature  # type: ignore[attr-defined]
    command.__name__ = command.__qualname__ = name
    command.__doc__ = doc
    return command


check = app.command("check")(_batch_command("check", """\
Report what `apply` would change, decision by decision.

Exit 0: apply would change nothing; 1: it would change a file (a drop, a restore, a spelling); 2:
an error.
"""))
apply = app.command("apply")(_batch_command("apply", """\
Rewrite each SKILL.md's allowed-tools to what the plan covers (the builder stage).

Only the allowed-tools value changes; writes are atomic. Exit 0: done; 2: an error (a file with
an error is left untouched; the others are still applied).
"""))


def _one_plan(given: list[str] | None) -> str | None:
    """``--plan`` at most once: given twice, it is an error, not "the last wins"."""
    if given and len(given) > 1:
        from .console import fail

        fail(f"--plan is given {len(given)} times ({', '.join(map(repr, given))}); give it once")
    return given[0] if given else None


@app.command()
def explain(
    ctx: typer.Context,
    grant: Annotated[str, typer.Argument(metavar="GRANT", help="One allowed-tools entry.")],
    approved: Annotated[list[str] | None, typer.Option(
        "--approved", "-a", metavar="ENTRY",
        help="An approved entry (repeatable; a value may hold several entries).")] = None,
    plan: Annotated[str | None, typer.Option(
        "--plan", "-p", metavar="PLAN",
        help="Also approve the entries of this plan, with its shell-tools and base-dirs.")
    ] = None,
    plan_kind: PlanKindOpt = PlanKind.auto,
    runtime: RuntimeOpt = None,
    fmt: Annotated[Format, format_option(EXPLAIN_FORMATS)] = Format.text,
    colour: ColourOpt = Colour.auto,
    debug: DebugOpt = False,
) -> None:
    """One decision with its evidence: the covering entry, a witness, or why it is unknown.

    Exit 0: covered; 1: anything else; 2: a bad plan, or neither --approved nor --plan.
    """
    with guard(ctx, debug):
        from ..errors import PlanError
        from ..grants import split_allowed_tools
        from ..prover import check_approved_entry, prove
        from ..reports import check as report

        if approved is None and plan is None:
            from .console import fail

            fail("explain needs what the grant is judged against: --approved ENTRY (repeatable) "
                 "or --plan PLAN")
        entries: list[str] = []
        shell_tools = base_dirs = None
        runtimes: str | list[str] | None = runtime
        if plan is not None:
            loaded = load_plan(plan, plan_kind)
            warn_about(loaded, plan)
            entries.extend(loaded.allowed_tools)
            kwargs = loaded.constrain_kwargs()
            shell_tools, base_dirs = kwargs["shell_tools"], kwargs["base_dirs"]
            if runtimes is None:
                runtimes = kwargs["runtime"]
        given = split_allowed_tools(list(approved or []))
        for entry in given:
            try:
                check_approved_entry(entry)
            except PlanError as e:
                raise PlanError(e.message, source="--approved", entry=e.entry) from e
        entries.extend(given)
        from ..runtimes import profiles

        readings = profiles(runtimes)
        verdict = prove(grant, entries, shell_tools=shell_tools, base_dirs=base_dirs,
                        runtime=[p.name for p in readings])
        if fmt is Format.json:
            typer.echo(report.render_explain_json(verdict, entries, version=__version__,
                                                  runtimes=[p.name for p in readings]),
                       nl=False)
        else:
            on = colour_enabled(colour)
            typer.echo(report.render_explain_text(verdict, entries, colour=on), nl=False,
                       color=on)
            # The runtimes the verdict is for: what each entry means depends on them.
            typer.echo(f"  runtime:    {', '.join(f'{p.name} ({p.title})' for p in readings)}")
    raise typer.Exit(0 if verdict.covered else 1)


@app.command()
def schema(
    ctx: typer.Context,
    report: Annotated[str | None, typer.Option(
        "--report", metavar="NAME", help="The schema of a JSON document the command line "
        "writes instead: check, apply, explain, lint, diff, or hook-RUNTIME (hook-claude-code, "
        "hook-copilot-cli, hook-codex, hook-vscode, hook-gemini-cli).")] = None,
    debug: DebugOpt = False,
) -> None:
    """Print the JSON Schema of a plan file (for editors: yaml-language-server, VS Code), or
    with --report of a JSON document skillgrant writes."""
    with guard(ctx, debug):
        from ..reports.check import dumps

        if report is None:
            from ..plan.schema import plan_schema

            typer.echo(dumps(plan_schema()), nl=False)
            return
        from ..reports.schemas import REPORT_SCHEMAS, report_schema
        from .console import fail

        if report not in REPORT_SCHEMAS:
            fail(f"--report must be one of {', '.join(REPORT_SCHEMAS)}, not {report!r}")
        typer.echo(dumps(report_schema(report)), nl=False)


register_review_commands(app)
register_serve_command(app)
register_evidence_commands(app)  # suggest, replay, audit (issue 32)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True,
                               "help_option_names": []}, add_help_option=False)
def hook(ctx: typer.Context) -> None:
    """Decide one PreToolUse hook payload on stdin against the plan (the call gate): deny a call
    outside the plan in the runtime's own contract. `skillgrant hook --help` for its options.

    The console script runs this without typer (a hook starts on every tool call); this entry
    is the same command, for `python -m skillgrant --help` and shell completion.
    """
    from ..gate.hook import main as hook_main

    raise typer.Exit(hook_main(list(ctx.args)))


def main(argv: list[str] | None = None) -> NoReturn:
    """The console script: run the app; an exception that escapes typer still exits 2."""
    try:
        app(args=argv, prog_name="skillgrant")
    except SystemExit:
        raise
    except Exception as e:
        debug = "--debug" in (argv or sys.argv) or env_debug()
        sys.exit(exit_status(e, debug, escaped=True))
    sys.exit(0)
