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
    "RuntimeOpt",
    "colour_enabled", "env_debug", "fail", "format_option", "guard", "internal_message",
    "print_traceback", "repo_root", "root_uri",
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
    "claude-code).")]
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
