"""``check`` and ``apply`` as the command line runs them, without typer: load the plan, find
the files, run them (``cli.batch`` here, or ``cli.pool`` over ``--jobs`` workers), write the
report, and answer the exit status.

Both ways in read the command line into an ``Invocation`` and call ``run_check``: cli/app.py
after typer has read it, and cli/entry.py when it has read it alone (the start-up path). Errors
leave as cli.console's ``fail``/``Exit``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from .. import __version__
from .console import (
    Colour,
    Format,
    PlanKind,
    colour_enabled,
    echo,
    fail,
    repo_root,
    report_to,
    root_uri,
)
from .files import Filters, collect

if TYPE_CHECKING:
    from ..plan.light import ApprovedPlan
    from ..plan.model import ConstrainKwargs, Plan
    from ..reports.check import JsonDocument, Run, TextDocument
    from .batch import FileDone, PlanLike, Rendering
    from .discovery import Config


class Invocation(NamedTuple):
    """A ``check``/``apply`` command line as read, by typer or by cli.entry, with typer's
    defaults."""

    command: str
    paths: list[str]
    plan: str | None  # None: each file's plan is found (cli/discovery.py)
    plan_kind: PlanKind = PlanKind.auto
    format: Format | None = None  # None: the configuration's, else text
    color: Colour = Colour.auto
    jobs: int = 1
    debug: bool = False
    dry_run: bool = False
    enforce: bool = False
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    output: str | None = None
    quiet: bool = False
    #: ``--runtime``: the runtimes every file is judged for (None: the plan's runtime key,
    #: else the configuration's, else every runtime that reads allowed-tools).
    runtime: str | None = None


def load_plan(source: str, kind: PlanKind) -> ApprovedPlan | Plan:
    # pydantic's Plan only when the plan needs it (plan.light): the same plan, the same errors.
    from ..plan.files import read_plan_file
    from ..plan.light import load_plan as load_light
    from ..plan.light import plan_from_text

    if source == "-":
        from ..errors import PlanError
        from ..review.sources import read_stdin_plan, skill_hint

        text = read_stdin_plan(kind.value)
        try:
            return plan_from_text(text, source="<stdin>", kind=kind.value)
        except PlanError as e:
            raise skill_hint(e, text, kind.value, "--plan-kind") from e
    if kind is PlanKind.auto:
        return load_light(source)
    # Bounded by MAX_FILE_BYTES: a huge file or a device is refused before it is read whole.
    return plan_from_text(read_plan_file(source, kind.value), source=source, kind=kind.value)


def warn_about(plan: object, name: str) -> None:
    """Say on standard error what the plan loader noticed (a plan that approves nothing)."""
    for warning in getattr(plan, "warnings", ()):
        echo(f"skillgrant: warning: {'<stdin>' if name == '-' else name}: {warning}", err=True)


def run_check(invocation: Invocation) -> int:
    """Run ``check`` or ``apply`` as ``invocation`` says and write its report; the exit status
    (0, 1 or 2)."""
    from ..reports.check import Run
    from .batch import file_done, unreadable_directory
    from .discovery import find_config

    config = find_config()
    command, dry_run = invocation.command, invocation.dry_run
    fmt = invocation.format or Format(config.format or "text")
    plans = Plans(invocation, config)
    if invocation.paths == [STDIN]:
        return _run_stdin(invocation, plans, fmt)
    found = collect(invocation.paths, Filters(invocation.include, invocation.exclude))
    files = [item for item in found if isinstance(item, Path)]
    root = repo_root()
    run = Run(command, plans.source(files), dry_run=dry_run)
    # JSON and text are rendered a file at a time (a registry-scale batch keeps text, not
    # decisions); the other formats render the whole run at the end.
    rendering, document = _rendering(run, fmt, invocation)
    error = change = False
    done_files = plans.run(files, root, write=command == "apply" and not dry_run,
                           dry_run=dry_run, rendering=rendering,
                           jobs=invocation.jobs or default_jobs())
    for item in found:
        # A directory that could not be read is an error in its place among the files.
        done = (next(done_files) if isinstance(item, Path) else
                file_done(unreadable_directory(item.path, item.reason, root, refused=item.refused),
                          json_dry_run=rendering.json_dry_run, text=rendering.text))
        if done.message is not None:
            echo(done.message, err=True)
        error = error or done.error
        change = change or done.would_change
        if document is not None and done.fragment is not None:
            document.add_fragment(done.fragment, changed=done.changed, applied=done.applied,
                                  error=done.error)
        elif done.result is not None:
            run.files.append(done.result)
    next(done_files, None)  # every file is done: let the generator (and its pool) finish
    with report_to(invocation.output):
        if document is not None:
            # Colour is kept only in the text report (as typer.echo keeps it when asked).
            colour = None if rendering.text is None or dry_run else rendering.text.colour
            for chunk in document.chunks():
                echo(chunk, nl=False, color=colour)
        else:
            _write_report(run, fmt, invocation.color, root, invocation.quiet)
    if error:
        return 2
    if command == "check" and change:
        return 1
    return 0


def _rendering(run: Run, fmt: Format,
               invocation: Invocation) -> tuple[Rendering, JsonDocument | TextDocument | None]:
    """How each file is rendered where it is done, and the document that gathers it (None: the
    results are kept for a renderer of the whole run)."""
    from ..reports.check import JsonDocument, TextDocument, TextStyle
    from .batch import Rendering

    if fmt is Format.json:
        return Rendering(json_dry_run=run.dry_run), JsonDocument(run, version=__version__)
    if fmt is Format.text:
        style = TextStyle(run.command, run.dry_run, colour_enabled(invocation.color),
                          invocation.quiet)
        return Rendering(text=style), TextDocument(style)
    return Rendering(), None


#: The path that stands for a SKILL.md read from standard input.
STDIN = "-"


def _run_stdin(invocation: Invocation, plans: Plans, fmt: Format) -> int:
    """``check -``/``apply -``: a SKILL.md from stdin, never written (``apply`` prints it)."""
    import sys

    from ..limits import MAX_SKILL_BYTES
    from ..reports.check import JsonDocument, Run
    from ..skillfile.builder import too_large
    from .batch import check_text, file_done

    if invocation.plan is None or invocation.plan == STDIN:
        fail("a SKILL.md on standard input ('-') needs --plan, given as a file")
    name = invocation.plan
    plan = plans.load(name)
    enforce = _gate_command(name, invocation) if invocation.enforce else None
    data = sys.stdin.buffer.read(MAX_SKILL_BYTES + 1) if sys.stdin is not None else b""
    if len(data) > MAX_SKILL_BYTES:
        fail(f"<stdin>: {too_large()}")
    outcome = check_text(data, "<stdin>", plan, dry_run=invocation.dry_run, enforce=enforce)
    result, message = outcome
    done = file_done(outcome, json_dry_run=invocation.dry_run if fmt is Format.json else None)
    if message is not None:
        echo(message, err=True)
    run = Run(invocation.command, getattr(plan, "source", None) or name,
              dry_run=invocation.dry_run)
    with report_to(invocation.output):
        if fmt is Format.json:
            document = JsonDocument(run, version=__version__)
            assert done.fragment is not None
            document.add_fragment(done.fragment, changed=done.changed, applied=False,
                                  error=done.error)
            for chunk in document.chunks():
                echo(chunk, nl=False)
        elif invocation.command == "apply" and not invocation.dry_run:
            if result.text is not None:
                echo(result.text, nl=False)
        else:
            run.files.append(result)
            _write_report(run, fmt, invocation.color, repo_root(), invocation.quiet)
    if result.error is not None:
        return 2
    return 1 if invocation.command == "check" and done.would_change else 0


class RuntimePlan(NamedTuple):
    """A loaded plan judged for the runtimes ``--runtime`` (or the configuration) names: the
    plan's attributes, its ``constrain_kwargs`` with ``runtime`` replaced. Checked when made:
    an unknown runtime is a PlanError."""

    plan: PlanLike
    runtime: str

    @property
    def allowed_tools(self) -> list[str]:
        return list(self.plan.allowed_tools)

    @property
    def source(self) -> str | None:
        return getattr(self.plan, "source", None)

    @property
    def warnings(self) -> tuple[str, ...]:
        return tuple(getattr(self.plan, "warnings", ()))

    def constrain_kwargs(self) -> ConstrainKwargs:
        from ..runtimes import profiles

        names = [p.name for p in profiles(self.runtime)]
        return {**self.plan.constrain_kwargs(), "runtime": names}


class Plans:
    """The plan of each file: ``--plan``'s for all, or each file's own (cli/discovery.py),
    each plan loaded once."""

    def __init__(self, invocation: Invocation, config: Config) -> None:
        self.invocation = invocation
        self.config = config
        self._loaded: dict[str, PlanLike] = {}
        self._names: dict[Path, str | None] = {}

    def name(self, path: Path) -> str | None:
        """The plan ``path`` is checked against (``-``: standard input), or None."""
        if self.invocation.plan is not None:
            return self.invocation.plan
        if path not in self._names:
            from .discovery import nearest_plan

            found = self.config.plan_for(path) or nearest_plan(path)
            self._names[path] = None if found is None else str(found)
        return self._names[path]

    def source(self, files: Sequence[Path]) -> str | None:
        """What the report names as the plan: the one plan of every file, else None."""
        names = {self.name(path) for path in files} if self.invocation.plan is None else {
            self.invocation.plan}
        name = names.pop() if len(names) == 1 else None
        if name is None:
            return None
        return getattr(self.load(name), "source", None) or name

    def load(self, name: str) -> PlanLike:
        if name not in self._loaded:
            plan = load_plan(name, self.invocation.plan_kind)
            warn_about(plan, name)
            # The configuration's runtimes go with the plans it maps: a plan named on the
            # command line is judged under the command line's and its own (review FB-2: a
            # configuration in the judged repository must not narrow an explicit plan's).
            configured = self.config.runtime if self.invocation.plan is None else None
            own = plan.constrain_kwargs()["runtime"]
            chosen = self.invocation.runtime or (None if own is not None else configured)
            if chosen is not None:
                from ..runtimes import profiles

                # An unknown runtime: a PlanError before any file is read.
                profiles(chosen, source="--runtime" if self.invocation.runtime else
                         str(self.config.path))
                self._loaded[name] = RuntimePlan(plan, chosen)
            else:
                self._loaded[name] = plan
            if not self.invocation.runtime:
                _say_narrowed(name, chosen or own,
                              "the plan's runtime key" if chosen is None else
                              os.path.relpath(str(self.config.path)))
        return self._loaded[name]

    def run(self, files: Sequence[Path], root: Path, *, write: bool, dry_run: bool,
            rendering: Rendering, jobs: int) -> Iterator[FileDone]:
        """Each file done, in order: the files of one plan together (a run of neighbours
        sharing a plan shares the workers), a file with no plan an error in its place."""
        from itertools import groupby

        from .batch import file_done, path_error

        for name, group in groupby(files, key=self.name):
            members = list(group)
            if name is None:
                for path in members:
                    yield file_done(path_error(path, NO_PLAN, root),
                                    json_dry_run=rendering.json_dry_run, text=rendering.text)
                continue
            enforce = _gate_command(name, self.invocation) if self.invocation.enforce else None
            yield from run_files(members, self.load(name), root, write=write, dry_run=dry_run,
                                 rendering=rendering, jobs=jobs, enforce=enforce)


#: What a file with no plan is told.
NO_PLAN = ("no plan found: give --plan, put a plan.yaml (or skillgrant-plan.yaml) beside it or "
           "in a folder above it, or map it in the configuration's plans table")


def default_jobs() -> int:
    """The worker count ``--jobs 0`` means: one per CPU this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def run_files(files: Sequence[Path], plan: PlanLike, root: Path, *, write: bool, dry_run: bool,
              rendering: Rendering, jobs: int, enforce: str | None = None) -> Iterator[FileDone]:
    """Each file done, in the order given, and rendered as ``rendering`` says; over ``jobs``
    worker processes (cli/pool.py) when there is more than one file to share, else in this
    one (``cli.batch.check_files``)."""
    from .batch import check_files

    workers = min(jobs, len(files))
    if workers > 1:
        from .pool import WorkerSetup, run_pool

        _collect()  # off while the modules loaded (cli/entry.py); on in every worker
        setup = WorkerSetup(plan, root, write, dry_run, rendering, enforce)
        yield from run_pool(files, setup, workers)
        return
    plugins: dict[str, object] = {}  # the plugin folders looked at, over this batch
    for done in check_files(files, plan, root, write=write, dry_run=dry_run, enforce=enforce,
                            plugins=plugins, rendering=rendering):
        yield done
        _collect()  # the first file loaded what checking needs (cli/entry.py turned it off)


def _collect() -> None:
    """The collector on again if cli/entry.py turned it off; what is loaded is frozen first."""
    import gc

    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def _gate_command(plan: str, invocation: Invocation) -> str:
    """The ``skillgrant hook`` command ``apply --enforce`` writes: the plan file by its
    absolute path, so the hook finds it from any working directory."""
    from ..errors import PlanError
    from ..gate.config import ConfigError, command

    if plan == "-":
        raise PlanError("--enforce needs the plan as a file: the hook reads it on every call",
                        source="<stdin>")
    try:
        return command("claude-code", plan, invocation.plan_kind.value)
    except ConfigError as e:  # this installation cannot be started as a hook (review ST-1)
        raise PlanError(f"--enforce writes no hook: {e}", source=plan) from e


def _write_report(run: Run, fmt: Format, colour: Colour, root: Path,
                  quiet: bool = False) -> None:
    from ..reports import check as report

    if fmt is Format.github:
        out = report.render_github(run)
    elif fmt is Format.sarif:
        out = report.render_sarif(run, version=__version__, root_uri=root_uri(root))
    elif fmt is Format.markdown:
        out = report.render_check_markdown(run)
    elif run.dry_run:
        out = "".join(f.diff for f in run.files if f.diff)
    else:
        on = colour_enabled(colour)
        echo(report.render_text(run, colour=on, quiet=quiet), nl=False, color=on)
        return
    echo(out, nl=False)


def _say_narrowed(name: str, runtimes: object, source: str) -> None:
    """Warn on standard error when a plan is judged under fewer runtimes than every one that
    reads ``allowed-tools`` and the command line did not ask for it (review R-6: a
    configuration or a plan key narrowing the runtimes is otherwise seen nowhere in a report,
    and an entry kept under one runtime may be wider under another)."""
    if runtimes is None:
        return
    from ..runtimes import DEFAULT_RUNTIMES, profiles

    chosen = profiles(runtimes, source=source)  # type: ignore[arg-type]
    if {p.name for p in chosen} >= set(DEFAULT_RUNTIMES):
        return
    echo(f"skillgrant: warning: {'<stdin>' if name == '-' else name}: judged under "
         f"{', '.join(p.title for p in chosen)} only ({source}); an entry kept here may be "
         "wider under another runtime that reads allowed-tools", err=True)
