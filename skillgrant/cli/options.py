"""The typer side of the ``skillgrant`` command line (cli/app.py, cli/review.py): the common
options, the per-run state, and the guard that turns cli.console's exits into typer's.

Everything that does not need typer lives in cli.console (re-exported here), so that ``check``
and ``apply`` can run without loading typer at all (cli/entry.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any

import typer
import typer.core
import typer.main
import typer.models

from .console import (
    Colour,
    Exit,
    Format,
    PlanKind,
    colour_enabled,
    env_debug,
    fail,
    internal_message,
    print_traceback,
    repo_root,
    root_uri,
)
from .console import guard as console_guard

__all__ = [
    "Colour", "ColourOpt", "DebugOpt", "Format", "OutputOpt", "PlanKind", "RootOptions",
    "RuntimeOpt", "SkillgrantGroup", "colour_enabled", "env_debug", "fail", "format_option",
    "guard", "internal_message", "print_traceback", "repo_root", "root_uri",
]


@dataclass
class RootOptions:
    """The root command's options, shared with every command through ``ctx.obj``."""

    debug: bool = False


ColourOpt = Annotated[Colour, typer.Option(
    "--color", help="Colour text output: auto (a terminal, unless NO_COLOR is set).")]
OutputOpt = Annotated[str | None, typer.Option(
    "--output-file", "-o", metavar="FILE", help="Write the report to FILE (replaced whole "
    "once it is written) instead of standard output.")]
RuntimeOpt = Annotated[str | None, typer.Option(
    "--runtime", metavar="NAMES", help="The runtimes the entries are judged for, separated by "
    "commas (default: the plan's runtime key, else every runtime that reads allowed-tools: "
    "claude-code and copilot-cli).")]
DebugOpt = Annotated[bool, typer.Option(
    "--debug", envvar="SKILLGRANT_DEBUG",
    help="Show tracebacks and the library's log records on stderr.")]


def format_option(formats: Sequence[Format], help: str | None = None) -> Any:
    """A ``--format``/``-f`` option for a ``Format`` parameter that offers only ``formats``
    (a command writes some of the formats): typer's choice for an enum of just those, so the
    help, completion and refusals are what typer gives an enum, and the command gets a
    ``Format``."""
    offered = StrEnum("Offered", {f.name: f.value for f in formats})  # type: ignore[misc]
    choice = typer.main.get_click_type(annotation=offered,
                                       parameter_info=typer.models.OptionInfo())
    return typer.Option("--format", "-f", help=help, click_type=choice)


@contextmanager
def guard(ctx: typer.Context, debug: bool) -> Iterator[None]:
    """``cli.console.guard`` for a typer command (with the root's ``--debug`` too): its exits
    become ``typer.Exit``; typer's own exits pass."""
    debug = debug or (isinstance(ctx.obj, RootOptions) and ctx.obj.debug)
    try:
        with console_guard(debug, passthrough=(typer.Exit, typer.Abort)):
            yield
    except Exit as e:
        raise typer.Exit(e.code) from None


class SkillgrantGroup(typer.core.TyperGroup):
    """The app's click group: click's own usage errors (an unknown option or command, a value
    not among the choices) keep click's usage and hint lines, and their message gets the
    ``skillgrant: error:`` prefix every other error has (docs/cli.md), in place of click's
    ``Error:``. Everything else runs as click runs it."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             windows_expand_args: bool = True, **extra: Any) -> Any:
        extra["windows_expand_args"] = windows_expand_args
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        import sys

        # The click typer runs on (its own copy, in recent typer), found through typer.
        errors = sys.modules[typer.BadParameter.__module__]
        try:
            status = super().main(args, prog_name, complete_var, False, **extra)
        except getattr(errors, "NoArgsIsHelpError", ()) as e:  # no command: the help
            e.show()
            sys.exit(e.exit_code)
        except errors.ClickException as e:
            show_error(e)
            sys.exit(e.exit_code)
        except typer.Abort:
            typer.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(status if isinstance(status, int) else 0)


def show_error(error: Any) -> None:
    """Write click's error as click does, with ``skillgrant: error:`` for ``Error:``."""
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        hint = ""
        if ctx.command.get_help_option(ctx) is not None:
            hint = f"Try '{ctx.command_path} {ctx.help_option_names[0]}' for help.\n"
        typer.echo(f"{ctx.get_usage()}\n{hint}", err=True, color=ctx.color)
    typer.echo(f"skillgrant: error: {error.format_message()}", err=True)
