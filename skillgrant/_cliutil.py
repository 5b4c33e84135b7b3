"""What every command of the ``skillgrant`` CLI shares (cli.py, _cli_review.py): the
exception → exit status guard, colour, repository-relative paths, and the common options.

``guard`` is the one place an exception becomes an exit status: a SkillgrantError exits 2 with
``skillgrant: error: <message>`` on stderr; any other exception exits 2 with a one-line message
(the traceback only with ``--debug`` or ``SKILLGRANT_DEBUG=1``); never 1, which always means
"findings". Only the standard library and typer load here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from .errors import SkillgrantError


class Colour(StrEnum):
    auto = "auto"
    always = "always"
    never = "never"


class PlanKind(StrEnum):
    auto = "auto"
    plan = "plan"
    skill = "skill"
    settings = "settings"


@dataclass
class State:
    """The root command's options, shared with every command through ``ctx.obj``."""

    debug: bool = False


ColourOpt = Annotated[Colour, typer.Option(
    "--color", help="Colour text output: auto (a terminal, unless NO_COLOR is set).")]
DebugOpt = Annotated[bool, typer.Option(
    "--debug", envvar="SKILLGRANT_DEBUG",
    help="Show tracebacks and the library's log records on stderr.")]


# --- errors -------------------------------------------------------------------------------

def fail(message: str) -> NoReturn:
    typer.echo(f"skillgrant: error: {message}", err=True)
    raise typer.Exit(2)


@contextmanager
def guard(ctx: typer.Context, debug: bool) -> Iterator[None]:
    """Turn every exception into exit status 2 with a message on stderr (Ctrl-C: 130)."""
    debug = debug or (isinstance(ctx.obj, State) and ctx.obj.debug)
    with _library_log(debug):
        try:
            yield
        except (typer.Exit, typer.Abort):
            raise
        except KeyboardInterrupt:
            typer.echo("skillgrant: interrupted", err=True)
            raise typer.Exit(130) from None
        except SkillgrantError as e:
            if debug:
                print_traceback()
            # The message's first line names file:line:column; a syntax error adds its caret
            # block on the indented lines below it.
            fail(str(e))
        except Exception as e:
            if debug:
                print_traceback()
            fail(internal_message(e, debug))


@contextmanager
def _library_log(enabled: bool) -> Iterator[None]:
    """With --debug, the library's log records (drops, restores) go to stderr."""
    if not enabled:
        yield
        return
    import logging

    logger = logging.getLogger("skillgrant")
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("skillgrant: %(levelname)s: %(message)s"))
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def internal_message(error: BaseException, debug: bool) -> str:
    detail = str(error).split("\n", 1)[0].strip()
    message = f"internal error: {type(error).__name__}" + (f": {detail}" if detail else "")
    if not debug:
        message += " (run with --debug or SKILLGRANT_DEBUG=1 for the traceback)"
    return message


def env_debug() -> bool:
    return os.environ.get("SKILLGRANT_DEBUG", "").strip().lower() in {"1", "true", "yes", "on"}


def print_traceback() -> None:
    import traceback

    traceback.print_exc(file=sys.stderr)


# --- output -------------------------------------------------------------------------------

def colour_enabled(choice: Colour) -> bool:
    if choice is Colour.always:
        return True
    if choice is Colour.never or os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return sys.stdout.isatty()


def repo_root() -> Path:
    """The repository holding the working directory (the nearest ``.git``), else the working
    directory: paths in github and sarif output are relative to it."""
    cwd = Path(os.path.abspath(os.getcwd()))
    for candidate in (cwd, *cwd.parents):
        if (candidate / ".git").exists():
            return candidate
    return cwd


def artifact_path(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` in POSIX form, or absolute when it is outside ``root``."""
    absolute = os.path.abspath(path)
    if os.sep == "/" and not absolute.startswith("//"):
        # What the pathlib lines below answer, by string operations: both paths are absolute
        # and normalized, and this runs once per file of a batch.
        base = str(root)
        if absolute == base:
            return "."
        prefix = base if base.endswith("/") else base + "/"
        return absolute[len(prefix):] if absolute.startswith(prefix) else absolute
    try:
        return Path(absolute).relative_to(root).as_posix()
    except ValueError:
        return Path(absolute).as_posix()


def root_uri(root: Path) -> str:
    """``root`` as a ``file://`` URI ending in ``/`` (SARIF's ``%SRCROOT%``)."""
    uri = root.as_uri()
    return uri if uri.endswith("/") else uri + "/"
