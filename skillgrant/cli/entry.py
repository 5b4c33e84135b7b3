"""The ``skillgrant`` console script and ``python -m skillgrant``.

A pre-commit hook starts ``skillgrant check`` on every commit, and importing typer costs about
as much as the whole check. So a command line this module can read exactly — ``check`` or
``apply``, paths, and the options below, each spelled out once — runs ``check``/``apply``
directly (cli/run.py, the code typer's commands call). Anything else goes to the typer app
(cli/app.py) unchanged: help, ``--version``, every other command, root options, repeated or
abbreviated options, ``--``, an unknown token, an option without its value, a value typer would
convert or refuse, ``SKILLGRANT_DEBUG`` or shell completion in the environment. Reading less
than typer and deferring the rest keeps one behaviour: tests/test_entry.py runs command lines
both ways and compares output, status and files.
"""

from __future__ import annotations

import os
import sys
from enum import StrEnum
from typing import NamedTuple, NoReturn

from .console import Colour, Format, PlanKind


def _values(choice: type[StrEnum]) -> frozenset[str]:
    return frozenset(member.value for member in choice)


#: The options ``check`` and ``apply`` both take a value for: long spelling → (short spelling,
#: the values typer's enum for it accepts, or None for any).
_VALUED: dict[str, tuple[str | None, frozenset[str] | None]] = {
    "--plan": ("-p", None),
    "--plan-kind": (None, _values(PlanKind)),
    "--format": ("-f", _values(Format)),
    "--color": (None, _values(Colour)),
    "--jobs": ("-j", None),
}
#: Flags → the commands that take them.
_FLAGS: dict[str, frozenset[str]] = {
    "--debug": frozenset({"check", "apply"}),
    "--dry-run": frozenset({"apply"}),
}
_SHORT = {short: long for long, (short, _) in _VALUED.items() if short}


class Invocation(NamedTuple):
    """A ``check``/``apply`` command line read without typer, with typer's defaults."""

    command: str
    paths: list[str]
    plan: str
    plan_kind: str = "auto"
    format: str = "text"
    color: str = "auto"
    jobs: int = 1
    debug: bool = False
    dry_run: bool = False


def read_fast(args: list[str], environ: dict[str, str] | os._Environ[str]) -> Invocation | None:
    """``args`` as an Invocation, or None when typer should read them (see the module doc)."""
    if "SKILLGRANT_DEBUG" in environ or "_SKILLGRANT_COMPLETE" in environ:
        return None
    if not args or args[0] not in ("check", "apply"):
        return None
    command = args[0]
    values: dict[str, str] = {}
    flags: set[str] = set()
    paths: list[str] = []
    rest = iter(args[1:])
    for token in rest:
        if not token.startswith("-"):
            paths.append(token)
            continue
        name, eq, attached = token.partition("=")
        if not eq:
            name = _SHORT.get(token, token)
        elif name not in _VALUED:  # `-p=x` is a short option's value "=x" to click
            return None
        if name in _FLAGS and not eq:
            if command not in _FLAGS[name] or name in flags:
                return None
            flags.add(name)
            continue
        if name not in _VALUED or name in values:
            return None
        _, choices = _VALUED[name]
        value = attached if eq else next(rest, None)
        if not value:
            return None
        if choices is not None and value not in choices:
            return None
        if value.startswith("-") and value != "-":
            return None
        if name == "--jobs" and not (value.isascii() and value.isdigit() and len(value) <= 9):
            return None  # typer converts (and refuses) what int() might not
        values[name] = value
    if not paths or "--plan" not in values:
        return None
    return Invocation(
        command=command, paths=paths, plan=values["--plan"],
        plan_kind=values.get("--plan-kind", "auto"), format=values.get("--format", "text"),
        color=values.get("--color", "auto"), jobs=int(values.get("--jobs", "1")),
        debug="--debug" in flags, dry_run="--dry-run" in flags)


def run(invocation: Invocation) -> int:
    """Run ``check``/``apply`` as the typer command does; its exit status."""
    from .console import Exit, guard
    from .run import process

    try:
        with guard(invocation.debug):
            apply = invocation.command == "apply"
            return process(invocation.command, invocation.paths, invocation.plan,
                           PlanKind(invocation.plan_kind), Format(invocation.format),
                           Colour(invocation.color), write=apply and not invocation.dry_run,
                           dry_run=invocation.dry_run, jobs=invocation.jobs)
    except Exit as e:
        return e.code


def main(argv: list[str] | None = None) -> NoReturn:
    """The console script: a plain ``check``/``apply`` here, everything else through typer."""
    invocation = read_fast(sys.argv[1:] if argv is None else argv, os.environ)
    if invocation is None:
        from .app import main as typer_main

        typer_main(argv)
    sys.exit(run(invocation))
