"""The typer side of the ``skillgrant`` command line (cli/app.py, cli/review.py): the common
options, the per-run state, and the guard that turns cli.console's exits into typer's.

Everything that does not need typer lives in cli.console (re-exported here), so that ``check``
and ``apply`` can run without loading typer at all (cli/entry.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Annotated

import typer

from .console import (
    Colour,
    Exit,
    Format,
    PlanKind,
    artifact_path,
    colour_enabled,
    env_debug,
    fail,
    internal_message,
    print_traceback,
    repo_root,
    root_uri,
)
from .console import guard as _core_guard

__all__ = [
    "Colour", "ColourOpt", "DebugOpt", "Format", "PlanKind", "State", "artifact_path",
    "colour_enabled", "env_debug", "fail", "guard", "internal_message", "print_traceback",
    "repo_root", "root_uri",
]


@dataclass
class State:
    """The root command's options, shared with every command through ``ctx.obj``."""

    debug: bool = False


ColourOpt = Annotated[Colour, typer.Option(
    "--color", help="Colour text output: auto (a terminal, unless NO_COLOR is set).")]
DebugOpt = Annotated[bool, typer.Option(
    "--debug", envvar="SKILLGRANT_DEBUG",
    help="Show tracebacks and the library's log records on stderr.")]


@contextmanager
def guard(ctx: typer.Context, debug: bool) -> Iterator[None]:
    """cli.console.guard for a typer command: its exits become ``typer.Exit``."""
    debug = debug or (isinstance(ctx.obj, State) and ctx.obj.debug)
    try:
        with _core_guard(debug, passthrough=(typer.Exit, typer.Abort)):
            yield
    except Exit as e:
        raise typer.Exit(e.code) from None
