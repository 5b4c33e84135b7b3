"""What the ``skillgrant`` command line shares, without typer: exit statuses, the exception
guard, writing to the terminal, colour, and repository-relative paths.

``check`` and ``apply`` run from here with their arguments read by ``cli.entry`` (no typer, no
click: start-up is most of a pre-commit run); every other command, and every command line
``cli.entry`` does not read exactly, goes through typer (cli/app.py), whose guard wraps this one.

``exit_status`` is the one place an exception becomes an exit status (semantics §8): ``guard`` calls
it for an exception raised inside a command, ``cli.app.main`` for one that escaped typer. Never
1, which always means "findings". Only the standard library loads here.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import NoReturn, TextIO

from ..errors import SkillgrantError
from ..log import NAME as LOGGER_NAME


class Colour(StrEnum):
    auto = "auto"
    always = "always"
    never = "never"


class PlanKind(StrEnum):
    auto = "auto"
    plan = "plan"
    skill = "skill"
    settings = "settings"


class Format(StrEnum):
    """Every report format of the command line; each command writes some of them (below)."""

    text = "text"
    json = "json"
    github = "github"
    sarif = "sarif"
    markdown = "markdown"


#: The formats each command accepts for ``--format``, in the order its help lists them.
CHECK_FORMATS = (Format.text, Format.json, Format.github, Format.sarif,  # check, apply
                 Format.markdown)
EXPLAIN_FORMATS = (Format.text, Format.json)
REVIEW_FORMATS = tuple(Format)  # lint, diff


class Exit(Exception):
    """The command is over with exit status ``code`` (its messages are already written)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


# --- writing ------------------------------------------------------------------------------

#: What click (typer.echo) removes from text going anywhere but a terminal, unless asked not to.
_ANSI = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")


def echo(message: str = "", *, err: bool = False, nl: bool = True,
         color: bool | None = None) -> None:
    """Write ``message`` to stdout (stderr with ``err``) as ``typer.echo`` does.

    The one place the writer is chosen: ``echo_plain`` on POSIX for a stream whose encoding is
    not ASCII (importing typer costs more than a one-file ``check``), ``typer.echo`` itself
    everywhere else (click re-wraps an ASCII stream). tests/test_cli.py runs one table of
    writes through both.
    """
    stream = sys.stderr if err else sys.stdout
    if stream is None:
        return
    if os.name != "posix" or _ascii_stream(stream):
        import typer

        typer.echo(message, err=err, nl=nl, color=color)
        return
    echo_plain(stream, message, nl=nl, color=color)


def echo_plain(stream: TextIO, message: str, *, nl: bool = True,
               color: bool | None = None) -> None:
    """Write ``message`` to ``stream`` as click writes text to a POSIX text stream: ANSI
    sequences removed unless ``color`` is true or (``color`` unset) the stream is a terminal;
    always flushed."""
    if nl:
        message += "\n"
    if not message:
        stream.flush()
        return
    if _strip_ansi(stream, color):
        message = _ANSI.sub("", message)
    stream.write(message)
    stream.flush()


def _ascii_stream(stream: object) -> bool:
    import codecs

    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        return codecs.lookup(encoding).name == "ascii"
    except LookupError:
        return False


def _strip_ansi(stream: object, color: bool | None) -> bool:
    if color is not None:
        return not color
    try:
        tty = bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):
        tty = False
    return not tty and not type(stream).__module__.startswith("ipykernel.")


@contextmanager
def report_to(path: str | None) -> Iterator[None]:
    """Standard output goes to the file ``path`` (``-o/--output-file``) while the report is
    written. A regular file (or a new one) is written whole: a temporary file beside it,
    renamed over it once the report is complete, with the mode the file had (a new one gets
    the umask's), so an error leaves it as it was; a link is followed, and stays a link.
    Anything else (``/dev/stdout``, a FIFO) is written to as it is. None: standard output."""
    if path is None:
        yield
        return
    import stat

    try:
        mode: int | None = os.stat(path).st_mode  # through a link
    except FileNotFoundError:
        mode = None
    except OSError as e:
        raise SkillgrantError(f"{path}: cannot write the report: {e.strerror or e}") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise SkillgrantError(f"{path}: cannot write the report: it is a directory")
    if mode is not None and not stat.S_ISREG(mode):
        try:
            stream = open(path, "w", encoding="utf-8",  # noqa: SIM115
                          errors="backslashreplace", newline="")
        except OSError as e:
            raise SkillgrantError(f"{path}: cannot write the report: {e.strerror or e}") from None
        with _redirected(stream):
            yield
        return
    yield from _replace_whole(path, os.path.realpath(path), mode)


def _replace_whole(path: str, target: str, mode: int | None) -> Iterator[None]:
    import stat
    import tempfile

    try:
        fd, temporary = tempfile.mkstemp(prefix=".skillgrant-", dir=os.path.dirname(target))
    except OSError as e:
        raise SkillgrantError(f"{path}: cannot write the report: {e.strerror or e}") from None
    try:
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            os.fchmod(fd, 0o666 & ~umask)
        else:
            os.fchmod(fd, stat.S_IMODE(mode))
        with _redirected(open(fd, "w", encoding="utf-8", errors="backslashreplace",
                              newline="")):
            yield
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


@contextmanager
def _redirected(stream: TextIO) -> Iterator[None]:
    saved = sys.stdout
    with stream:
        sys.stdout = stream
        try:
            yield
        finally:
            sys.stdout = saved


# --- errors -------------------------------------------------------------------------------

def fail(message: str) -> NoReturn:
    """Say why on stderr and exit 2 — also when stderr itself is gone."""
    _say(f"skillgrant: error: {message}")
    raise Exit(2)


def _say(line: str) -> None:
    try:
        echo(line, err=True)
    except OSError:
        discard(sys.stderr)


def discard(stream: object) -> None:
    """Point ``stream``'s descriptor at the null device: its reader went away, and what is
    still buffered must not fail again when Python flushes it at exit (status 120)."""
    try:
        fd = stream.fileno()  # type: ignore[attr-defined]
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)
    except (AttributeError, OSError, ValueError):
        pass


def exit_status(error: Exception | KeyboardInterrupt, debug: bool, *,
                escaped: bool = False) -> int:
    """The exit status for ``error``, with its message written to stderr: the one place an
    exception becomes an exit status.

    Inside a command: Ctrl-C is 130 (``skillgrant: interrupted``); a closed stdout, a
    SkillgrantError and any other exception are 2 with ``skillgrant: error: <message>`` (a
    SkillgrantError's own message; for any other a one-line ``internal error: …``, the traceback
    before it only with ``debug``); a message that cannot be written is dropped. ``escaped``:
    what escaped typer itself (``cli.app.main``) is 2 too, a closed stdout without a message,
    anything else an internal error.
    """
    if isinstance(error, KeyboardInterrupt):
        _say("skillgrant: interrupted")
        return 130
    if isinstance(error, BrokenPipeError):
        # The reader of the output went away (`skillgrant check … | head`).
        discard(sys.stdout)
        if not escaped:
            _say("skillgrant: error: the output was closed before the report was written "
                 "(broken pipe)")
        return 2
    if debug:
        print_traceback()
    if escaped:
        echo(f"skillgrant: error: {internal_message(error, debug)}", err=True)
    elif isinstance(error, SkillgrantError):
        # The message's first line names file:line:column; a syntax error adds its caret block
        # on the indented lines below it.
        _say(f"skillgrant: error: {error}")
    else:
        _say(f"skillgrant: error: {internal_message(error, debug)}")
    return 2


@contextmanager
def guard(debug: bool, passthrough: tuple[type[BaseException], ...] = ()) -> Iterator[None]:
    """Run a command: an exception leaves as ``Exit(exit_status(…))``, with the library's log
    records on stderr meanwhile when ``debug``.

    ``Exit`` and the ``passthrough`` exceptions (typer's own exits) leave untouched.
    """
    with _library_log(debug):
        try:
            yield
        except Exit:
            raise
        except (Exception, KeyboardInterrupt) as e:
            if isinstance(e, passthrough):
                raise
            raise Exit(exit_status(e, debug)) from None


@contextmanager
def _library_log(enabled: bool) -> Iterator[None]:
    """With --debug, the library's log records (drops, restores) go to stderr."""
    if not enabled:
        yield
        return
    import logging

    logger = logging.getLogger(LOGGER_NAME)
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
    return sys.stdout is not None and sys.stdout.isatty()


def repo_root() -> Path:
    """The repository holding the working directory (the nearest ``.git``), else the working
    directory: paths in github and sarif output are relative to it."""
    cwd = Path(os.path.abspath(os.getcwd()))
    for candidate in (cwd, *cwd.parents):
        if (candidate / ".git").exists():
            return candidate
    return cwd


def root_uri(root: Path) -> str:
    """``root`` as a ``file://`` URI ending in ``/`` (SARIF's ``%SRCROOT%``)."""
    uri = root.as_uri()
    return uri if uri.endswith("/") else uri + "/"
