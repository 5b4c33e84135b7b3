"""``check`` and ``apply`` on one SKILL.md, as the command line reports it, wherever the file
is done: in the CLI's process (cli/run.py) or in a ``--jobs`` worker (cli/pool.py).

``check_file`` is everything the CLI does for one file short of rendering: apply the plan (never
writing for ``check``), locate the value and its entries for the report, make the diff for
``--dry-run``. ``file_done`` turns its outcome into the ``FileDone`` the run counts and reports.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NamedTuple, Protocol, cast

from ..errors import SkillFileError
from ..log import heard
from ..reports.check import FileError, FileResult, text_block
from ..reports.ci import Location, artifact_path
from ..reports.jsondoc import file_fragment

# Its functions are looked up at call time: tests replace apply_to_file and read_chunk.
from ..skillfile import builder as skillfile
from ..skillfile.removed import removed_tools
from ..skillfile.staged import each
from ..skillfile.valuememo import ValueMemo

if TYPE_CHECKING:
    from ..plan.model import ConstrainKwargs, Plan
    from ..reports.check import TextStyle
    from ..review.checks import Hit
    from ..skillfile.builder import ApplyResult
    from ..skillfile.doc import AllowedTools, SkillDoc
    from ..verdicts import Decision

FileOutcome = tuple["FileResult", "str | None"]


class PlanLike(Protocol):
    """What a file's check needs of the approved plan, and all a worker is handed: the
    approved entries and the keyword arguments for ``constrain``. ``plan.model.Plan`` and the
    pydantic-free ``plan.light.ApprovedPlan`` both are one."""

    @property
    def allowed_tools(self) -> list[str]: ...

    def constrain_kwargs(self) -> ConstrainKwargs: ...


def check_file(path: Path, plan: PlanLike, root: Path, *, write: bool,
               dry_run: bool, enforce: str | None = None,
               plugins: dict[str, object] | None = None) -> FileOutcome:
    """Apply ``plan`` to one file (writing only with ``write``) and describe the outcome.
    ``plugins`` is kept over the batch (``apply_to_file``'s).

    A SkillFileError becomes the file's error and the message for stderr; any other exception
    propagates (the CLI turns it into exit 2).
    """
    try:
        # Typed for a Plan, apply_to_file reads no more of it than PlanLike offers.
        result = skillfile.apply_to_file(path, cast("Plan", plan), dry_run=not write,
                                         enforce=enforce, plugins=plugins)
    except SkillFileError as e:
        return _failed(path, root, e)
    return _outcome(path, result, root, dry_run, enforce)


def check_chunk(paths: Iterator[Path], plan: PlanLike, root: Path, *, dry_run: bool,
                enforce: str | None = None, plugins: dict[str, object] | None = None,
                decided: ValueMemo[Decision] | None = None) -> list[FileOutcome | BaseException]:
    """``check_file``, never writing, of the next chunk of ``paths`` (``builder.read_chunk``;
    an empty list: none is left), done step by step over the chunk (``skillfile.staged``):
    each file's outcome, the same as ``check_file``'s, in order. An exception that
    ``check_file`` would raise for a file ends the list in that file's place. ``decided``,
    kept over one batch and one plan, holds its decisions by the value submitted
    (``builder._decide``)."""
    taken, values = skillfile.read_chunk(paths)
    skillfile.apply_chunk(values, cast("Plan", plan), enforce=enforce, plugins=plugins,
                          decided=decided)
    for i, value in enumerate(values):
        if isinstance(value, SkillFileError):
            values[i] = _failed(taken[i], root, value)
    each(values, lambda result: result if isinstance(result, tuple) else _outcome(
        result.path, result, root, dry_run, enforce))
    return values


def check_files(files: Sequence[Path], plan: PlanLike, root: Path, *, write: bool,
                dry_run: bool, enforce: str | None, plugins: dict[str, object] | None,
                rendering: Rendering) -> Iterator[FileDone]:
    """Each of ``files`` done (``check_file``) and rendered (``file_done``), in order. When
    nothing is written and no log record is heard, a chunk at a time (``check_chunk``), its
    outcomes rendered one after the other before the first is given; an exception is raised
    in its file's place. Else one file after the other: a file written is read so by a later
    file (a link to it), and a log record keeps its place among the files' messages."""
    json_dry_run, text = rendering
    if write or heard():
        for path in files:
            outcome = check_file(path, plan, root, write=write, dry_run=dry_run,
                                 enforce=enforce, plugins=plugins)
            yield file_done(outcome, json_dry_run=json_dry_run, text=text)
        return
    import gc

    pending = iter(files)
    decided: ValueMemo[Decision] = ValueMemo()
    while True:
        # A chunk's documents live until its outcomes are made: the cyclic collector, which
        # would walk them at each of its rounds, waits for the chunk's end (they hold no cycle).
        collecting = gc.isenabled()
        gc.disable()
        try:
            done: list[Any] = check_chunk(pending, plan, root, dry_run=dry_run,
                                          enforce=enforce, plugins=plugins,
                                          decided=decided)
            each(done, lambda outcome: file_done(outcome, json_dry_run=json_dry_run,
                                                 text=text))
        finally:
            if collecting:
                gc.enable()
        if not done:
            return
        for value in done:
            if isinstance(value, BaseException):
                raise value
            yield value


def _failed(path: Path, root: Path, error: SkillFileError) -> FileOutcome:
    return (FileResult(str(path), artifact_path(path, root),
                       error=FileError(error.message, error.line, error.column)),
            f"skillgrant: error: {error}")


def _outcome(target: Path, result: ApplyResult, root: Path, dry_run: bool,
             enforce: str | None) -> FileOutcome:
    path = str(target)
    doc = getattr(result, "doc", None)
    if doc is None:
        doc = skillfile.read_skill(result.old_text, path)
    return _result(path, artifact_path(target, root), doc, result.old_text,
                   result.new_text, result.decision, written=result.written,
                   dry_run=dry_run), hook_note(path, doc, enforce, written=result.written)


def hook_note(path: str, doc: SkillDoc, enforce: str | None, *, written: bool) -> str | None:
    """What standard error says when ``apply --enforce`` adds (or, not writing, would add) the
    ``hooks:`` key to the file read as ``doc``: the one change outside allowed-tools is never
    made silently. None when there is no such change."""
    if enforce is None:
        return None
    from ..skillfile.enforce import adds_hook, skill_command

    if not adds_hook(doc):
        return None
    done = "added" if written else "would add"
    return (f"skillgrant: note: {path}: {done} a hooks: key to the frontmatter: a PreToolUse "
            f"hook that runs the gate on every tool call once the skill loads: "
            f"{skill_command(enforce, path)}")


def check_text(data: bytes, name: str, plan: PlanLike, *, dry_run: bool,
               enforce: str | None = None) -> FileOutcome:
    """``check_file`` for a SKILL.md's bytes (standard input): nothing is written, and the
    result carries the new text."""
    from ..skillfile.builder import apply_to_text, decode_skill, read_skill

    try:
        text = decode_skill(data, name)
        new_text, decision = apply_to_text(text, cast("Plan", plan), path=name,
                                           enforce=enforce)
        doc = read_skill(text, name)
    except SkillFileError as e:
        return (FileResult(name, name, error=FileError(e.message, e.line, e.column)),
                f"skillgrant: error: {e}")
    from dataclasses import replace

    result = _result(name, name, doc, text, new_text, decision, written=False, dry_run=dry_run)
    return replace(result, text=new_text), hook_note(name, doc, enforce, written=False)


def _result(path: str, artifact: str, doc: SkillDoc, old_text: str, new_text: str,
            decision: Decision, *, written: bool, dry_run: bool) -> FileResult:
    location, entries = locate(doc)
    diff = None
    if dry_run and old_text != new_text:
        from ..reports.check import unified_diff

        diff = unified_diff(old_text, new_text, artifact)
    merged = doc.merged_note
    note, rule = doc.runtime_note, "SG009"
    if note is None and merged:
        note, rule = merged, "SG010"
    elif note is None:  # issue 33: what the kept entries pre-approve reaches the subagents
        reach = _agent_reach()(list(decision.allowed))
        if reach:
            from ..rules import RULE_BY_ID

            note, rule = f"{reach[0][1].message}. {RULE_BY_ID['SGL117'].help}", "SGL117"
        elif doc.metadata.get("context") == "fork" and decision.allowed:  # review S3
            from ..rules import RULE_BY_ID

            fix = RULE_BY_ID["SGL117"].help.replace("drop the Agent entry",
                                                    "remove `context: fork`")
            note, rule = ("the skill runs in a forked subagent (`context: fork`), which its "
                          f"allowed-tools reach and its own hook does not. {fix}", "SGL117")
    found = removed_tools(old_text, doc)  # (SG011: a frontmatter without the keys is
    # passed at C speed)
    if found is not None:
        return FileResult(path, artifact, decision, old_text != new_text, written, location,
                          entries, diff, runtime_note=note, runtime_rule=rule,
                          removed=found.entries, removed_key=found.key,
                          removed_location=_line_column(old_text, found.offset))
    return FileResult(path, artifact, decision, old_text != new_text, written, location,
                      entries, diff, runtime_note=note, runtime_rule=rule)


@cache
def _agent_reach() -> Callable[[Sequence[str]], list[tuple[int, Hit]]]:
    """``review.checks.agent_reach``, imported when first asked for (a check starts without
    the review's checks) and kept: an import statement run for every file of a batch costs
    more than the answer."""
    from ..review.checks import agent_reach

    return agent_reach


def unreadable_directory(path: Path, reason: str, root: Path, *,
                         refused: bool = False) -> FileOutcome:
    """The outcome for a directory the walk could not enter or list (``reason``, the OS's
    words), or a plugin's whose files grant (``refused``: the refusal's words): an input
    error for that path, as an unreadable file is."""
    return path_error(path, reason if refused else f"cannot read the directory: {reason}", root)


def path_error(path: Path, message: str, root: Path) -> FileOutcome:
    """The outcome for a path that is an error before anything is read from it."""
    error = SkillFileError(message, path=str(path))
    return (FileResult(str(path), artifact_path(path, root), error=FileError(error.message)),
            f"skillgrant: error: {error}")


def _line_column(text: str, offset: int) -> Location:

    line_start = text.rfind("\n", 0, offset) + 1
    return _at(Location, (text.count("\n", 0, offset) + 1, offset - line_start + 1, None))


#: ``Location(line, column, end)`` of a tuple of the three, without the record's ``__new__``
#: (a Python frame each: a batch makes one for every entry).
_at: Final[Callable[[type[Location], tuple[int, int, tuple[int, int] | None]], Location]] = \
    tuple.__new__


class _Lines:
    """``_line_column`` for offsets of one text, as line and column: an offset on the line of
    the one before it (the entries of a value mostly share one) is counted from that line's
    start, and on a later line its line's number is that line's plus the line breaks between
    (entries, and each entry's end, come in order): the same answers."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.start, self.end = 0, -1  # no line yet
        self.line = 0

    def at(self, offset: int) -> tuple[int, int]:
        if not self.start <= offset <= self.end:
            text = self.text
            start = text.rfind("\n", 0, offset) + 1
            if self.end >= 0 and start > self.start:
                self.line += text.count("\n", self.start, start)
            else:
                self.line = text.count("\n", 0, start) + 1
            self.start = start
            newline = text.find("\n", start)
            self.end = len(text) if newline < 0 else newline
        return self.line, offset - self.start + 1


def locate(doc: SkillDoc) -> tuple[Location, tuple[Location, ...]]:
    """Where ``allowed-tools`` is (or would be added), and where each of its entries is: the
    first character of each as written (skillfile.spans reads escapes and folded lines)."""
    text = doc.text
    value = doc.allowed_tools
    if value is None:
        return _line_column(text, doc.insert_at), ()
    count = len(value.entries)
    if (len(value.entry_starts) == count == len(value.entry_ends)
            and text.find("\n", value.key_start, value.line_end) < 0):
        return _on_its_line(text, value)
    key = _line_column(text, value.key_start + value.key_column)
    if len(value.entry_starts) != count:
        return key, ()
    ends = value.entry_ends if len(value.entry_ends) == count else None
    lines = _Lines(text)
    found = []
    for i, start in enumerate(value.entry_starts):
        line, column = lines.at(start)
        if ends is not None and ends[i] > start:
            found.append(_at(Location, (line, column, lines.at(ends[i] - 1))))
        else:
            found.append(_at(Location, (line, column, None)))
    return key, tuple(found)


def _on_its_line(text: str, value: AllowedTools) -> tuple[Location, tuple[Location, ...]]:
    """``locate`` for a value written on the key's line (``key_start`` begins it), and so
    every entry: each column counted from there."""
    line = text.count("\n", 0, value.key_start) + 1
    before = value.key_start - 1  # a column is its offset less this
    return _at(Location, (line, value.key_column + 1, None)), tuple([
        _at(Location, (line, start - before, (line, end - 1 - before))) if end > start
        else _at(Location, (line, start - before, None))
        for start, end in zip(value.entry_starts, value.entry_ends, strict=True)])


class FileDone(NamedTuple):
    """One file done, as the CLI needs it: the result (or, for JSON, its text already), the
    error message for stderr, and what the exit status and the summary count."""

    result: FileResult | None
    fragment: str | None
    message: str | None
    changed: bool
    applied: bool
    error: bool
    would_change: bool


class Rendering(NamedTuple):
    """How each file of a batch is rendered where it is done: as JSON text (``json_dry_run``,
    the value of ``--dry-run``), as its block of the text report (``text``), or not at all (the
    result is kept, for the formats rendered at the end)."""

    json_dry_run: bool | None = None
    text: TextStyle | None = None


def file_done(outcome: FileOutcome, *, json_dry_run: bool | None = None,
              text: TextStyle | None = None) -> FileDone:
    """``outcome`` as a FileDone; rendered in place when ``json_dry_run`` (the value of
    ``--dry-run``: JSON text) or ``text`` (the text report: the file's block, or for a dry run
    its diff) is given, so a batch keeps text rather than decisions."""
    result, message = outcome
    decision = result.decision
    would_change = result.changed or (decision is not None and (bool(decision.dropped)
                                                                or decision.restored))
    fragment = None
    if json_dry_run is not None:
        fragment = file_fragment(result, dry_run=json_dry_run)
    elif text is not None:
        fragment = (result.diff or "") if text.dry_run else text_block(result, text)
    return FileDone(None if fragment is not None else result, fragment, message, result.changed,
                    result.applied, result.error is not None, would_change)
