"""The ``skillgrant`` console script and ``python -m skillgrant``.

A pre-commit hook starts ``skillgrant check`` on every commit, and importing typer costs about
as much as the whole check. So a command line this module can read exactly — ``check`` or
``apply``, paths, and the options below, each spelled out once — runs ``check``/``apply``
directly (cli/run.py, the code typer's commands call). Anything else goes to the typer app
(cli/app.py) unchanged: help, ``--version``, every other command, root options, repeated or
abbreviated options, ``--``, an unknown token, an option without its value, a value typer would
convert or refuse, ``SKILLGRANT_DEBUG`` or shell completion in the environment. ``main`` is the
one place the reader is chosen. Reading less than typer and deferring the rest keeps one
behaviour: tests/test_entry.py reads its command lines with both readers, and runs them both
ways comparing output, status and files.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing, collections and functools are not loaded for annotations
if TYPE_CHECKING:
    from collections.abc import Iterator
    from enum import StrEnum
    from typing import NoReturn

    from .run import Invocation

# The tables below need the console's enums, imported on first use: ``skillgrant hook`` starts
# here on every tool call and needs none of it (nor typing: records.py).
_TABLES: dict[str, dict[str, tuple[str | None, frozenset[str] | None]]] = {}


def _values(choices: type[StrEnum] | tuple[StrEnum, ...]) -> frozenset[str]:
    return frozenset(member.value for member in choices)


def _valued() -> dict[str, tuple[str | None, frozenset[str] | None]]:
    """The options ``check`` and ``apply`` both take a value for: long spelling → (short
    spelling, the values typer's choice for it accepts, or None for any). Made once."""
    if "valued" in _TABLES:
        return _TABLES["valued"]
    from .console import CHECK_FORMATS, Colour, PlanKind

    return _TABLES.setdefault("valued", {
        "--plan": ("-p", None),
        "--plan-kind": (None, _values(PlanKind)),
        "--format": ("-f", _values(CHECK_FORMATS)),
        "--color": (None, _values(Colour)),
        "--jobs": ("-j", None),
        "--output-file": ("-o", None),
        "--runtime": (None, None),
    })


#: Flags → the commands that take them.
_FLAGS: dict[str, frozenset[str]] = {
    "--debug": frozenset({"check", "apply"}),
    "--dry-run": frozenset({"apply"}),
    "--enforce": frozenset({"apply"}),
    "--quiet": frozenset({"check", "apply"}),
}


_SHORT: dict[str, str] = {}


def _short() -> dict[str, str]:
    """Short option spelling → long. Made once."""
    if not _SHORT:
        _SHORT.update({"-q": "--quiet", **{short: long for long, (short, _) in _valued().items()
                                          if short}})
    return _SHORT


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
        elif not _read_option(command, token, rest, values, flags):
            return None
    if not paths:
        return None
    from .console import Colour, Format, PlanKind
    from .run import Invocation

    given = values.get("--format")
    return Invocation(
        command=command, paths=paths, plan=values.get("--plan"),
        plan_kind=PlanKind(values.get("--plan-kind", "auto")),
        format=None if given is None else Format(given),
        color=Colour(values.get("--color", "auto")), jobs=int(values.get("--jobs", "1")),
        debug="--debug" in flags, dry_run="--dry-run" in flags, enforce="--enforce" in flags,
        output=values.get("--output-file"), quiet="--quiet" in flags,
        runtime=values.get("--runtime"))


def _read_option(command: str, token: str, rest: Iterator[str], values: dict[str, str],
                 flags: set[str]) -> bool:
    """Read the option ``token`` (its value from ``rest`` when not attached) into ``values``
    or ``flags``; False when typer should read the command line."""
    name, eq, attached = token.partition("=")
    if not eq:
        name = _short().get(token, token)
    elif name not in _valued():  # `-p=x` is a short option's value "=x" to click
        return False
    if name in _FLAGS and not eq:
        if command not in _FLAGS[name] or name in flags:
            return False
        flags.add(name)
        return True
    if name not in _valued() or name in values:
        return False
    value = attached if eq else next(rest, None)
    if value is None or not _taken_as_given(name, value):
        return False
    values[name] = value
    return True


def _taken_as_given(name: str, value: str) -> bool:
    """Whether typer takes ``value`` for the option ``name`` unchanged (not converted, not
    refused, not read as another option)."""
    _, choices = _valued()[name]
    if not value or (choices is not None and value not in choices):
        return False
    if value.startswith("-") and value != "-":
        return False
    # typer converts (and refuses) what int() might not
    return name != "--jobs" or (value.isascii() and value.isdigit() and len(value) <= 9)


def run(invocation: Invocation) -> int:
    """Run ``check``/``apply`` as the typer command does; its exit status."""
    from . import run as check_run
    from .console import Exit, guard

    try:
        with guard(invocation.debug):
            return check_run.run_check(invocation)
    except Exit as e:
        return e.code


def _hook(args: list[str], own: bool) -> int:
    """``skillgrant hook``'s exit status. In a process of its own, the regular expressions and
    the package's modules an earlier hook's process compiled are found compiled
    (patterncache.py, modulecache.py), and those it compiles are kept for the next once its
    answer is written: neither may fail the hook (an exception here would end it with status
    1, which a runtime does not read as a denial)."""
    kept = None
    if own:
        try:
            from .. import modulecache, patterncache

            modulecache.load()  # (first: it serves re's modules too)
            patterncache.load()
            kept = (patterncache, modulecache)
        except BaseException:  # the patterns compile, the modules import, as before
            kept = None
    try:
        from ..gate.hook import main as hook_main
    except BaseException:  # the gate cannot be imported: the fixed denial, not exit status 1
        from ..lastresort import DENIAL, write_answer

        return write_answer(*DENIAL)
    if own:
        try:
            from ..gate import files

            files.keep_across(True)  # (the write guard's set: gate/guardkeep.py)
        except BaseException:  # (computed in the process, as before)
            pass
    status = hook_main(args)
    for cache in kept or ():
        try:  # noqa: SIM105  (contextlib is not loaded in a hook's process)
            cache.keep()
        except BaseException:  # the answer is written: keeping is no part of it
            pass
    return status


def _leave(status: int, own: bool) -> NoReturn:
    """End the process with ``status``. In a process of its own (``own``: the console script,
    ``python -m skillgrant``), without tearing down the modules it loaded (several
    milliseconds of a one-file ``check``, a fifth of a hook's start) when nothing is left to
    finish: its output flushed (a hook writes its answer and audit record with ``os.write``),
    every file written closed (each in a ``with`` block), no thread but this one (the
    ``--jobs`` pool has ended). Otherwise, and when called with arguments (a test, a
    program's own process), as ``sys.exit``."""
    threading = sys.modules.get("threading")
    if not own or (threading is not None and threading.active_count() > 1):
        sys.exit(status)
    for stream in (sys.stdout, sys.stderr):
        if stream is None:  # started with the descriptor closed: nothing was written there
            continue
        try:
            stream.flush()
        except (OSError, ValueError):
            sys.exit(status)  # as before: the interpreter reports what it could not write
    os._exit(status)


def main(argv: list[str] | None = None) -> NoReturn:
    """The console script: a plain ``check``/``apply`` here, everything else through typer.

    In a process of its own (``argv`` None), the cyclic garbage collector is off while the
    modules load: it walked them over and over, a tenth of a hook's or a one-file check's
    time. A hook decides one call (its work is bounded, and reference counting frees the
    rest); a check turns it on again from its second file on and before it starts worker
    processes (``run.run_files``), so a batch's memory stays bounded; typer's commands have it
    on."""
    own = argv is None
    args = sys.argv[1:] if argv is None else argv
    if own:
        import gc

        gc.disable()
    if args[:1] == ["hook"]:  # a hook starts on every tool call: never through typer
        _leave(_hook(args[1:], own), own)
    for stream in (sys.stdout, sys.stderr):  # a file name's byte the encoding has no
        if getattr(stream, "errors", None) == "strict":  # text for (review F-1): \udcff
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    invocation = read_fast(args, os.environ)
    if invocation is None:
        if own:
            gc.enable()
        from .app import main as typer_main

        typer_main(argv)
    _leave(run(invocation), own)
