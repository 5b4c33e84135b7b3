"""The builder stage (semantics §6): constrain a SKILL.md's ``allowed-tools`` to the approved plan
and rewrite the file, changing nothing but that value.

Data flows one way: bytes → text (strict UTF-8, BOM and CRLF kept) → ``read_skill`` (spans,
python-frontmatter's metadata cross-checked against our own YAML nodes) → ``constrain`` → a
splice of the value's span only → a re-read that must give exactly the decided entries and
every other key unchanged, read by the same reader → an atomic write. Any failure leaves
the file as it was.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import PlanError, SkillFileError
from ..frozen import quick_init
from ..limits import MAX_SKILL_BYTES
from ..prover import constrain
from ..verdicts import Decision
from .bounded import read_bounded
from .doc import AllowedTools, Item, SkillDoc
from .fmread import same
from .keys import judge_keys
from .plugin import judge_plugin
from .reread import reread
from .spans import KEY, read_skill
from .splice import splice
from .staged import each
from .valuememo import ValueMemo

if TYPE_CHECKING:
    from ..plan.model import Plan

__all__ = [
    "AllowedTools",
    "ApplyResult",
    "Item",
    "SkillDoc",
    "apply_chunk",
    "apply_to_file",
    "apply_to_text",
    "decode_skill",
    "read_chunk",
    "read_limited",
    "read_skill",
    "splice_allowed_tools",
    "write_atomic",
]


@quick_init
@dataclass(frozen=True)
class ApplyResult:
    """What ``apply_to_file`` did: the text before and after, and the decision behind it."""

    path: Path
    old_text: str
    new_text: str
    decision: Decision
    written: bool
    #: The file as read (its spans), so a caller need not read it again.
    doc: SkillDoc | None = field(default=None, repr=False, compare=False)

    @property
    def changed(self) -> bool:
        """True when the rewrite differs from the file (whether or not it was written)."""
        return self.old_text != self.new_text


def apply_to_text(text: str, plan: Plan, *, path: str | None = None,
                  enforce: str | None = None) -> tuple[str, Decision]:
    """Constrain the ``allowed-tools`` of a SKILL.md text to ``plan``; return the new text and
    the decision.

    Only the value's span changes; it keeps its form (block list, flow list, string and its
    separator). An absent key is added when approved entries are restored; the key is removed
    when the plan approves nothing. Applying twice gives the same text as applying once.
    ``enforce``, a ``skillgrant hook`` command line, also adds the skill-scoped hook that runs
    it (``skillfile.enforce``).
    Dropped entries and restores are logged by ``constrain`` on the ``skillgrant`` logger,
    tagged with ``path``. Raises SkillFileError for a file that cannot be read or rewritten
    safely, PlanError for an invalid plan.

    >>> from skillgrant.plan import Plan
    >>> text = "---\\nname: x\\nallowed-tools: Bash(gh pr list), Bash(rm -rf /)\\n---\\n"
    >>> apply_to_text(text, Plan.from_entries(["Bash(gh *)"]))[0]
    '---\\nname: x\\nallowed-tools: Bash(gh pr list)\\n---\\n'
    """
    _, new_text, decision = _apply(text, plan, path, enforce)
    return new_text, decision


def _apply(text: str, plan: Plan, path: str | None, enforce: str | None = None, *,
           decoded: bool = False) -> tuple[SkillDoc, str, Decision]:
    doc = _read(text, plan, path, decoded)
    decision = _decide(doc, plan, path, enforce)
    return doc, _rewritten(doc, decision, path, enforce), decision


# _apply's three steps, which apply_chunk also runs one at a time over a chunk of files.

def _read(text: str, plan: Plan, path: str | None, decoded: bool) -> SkillDoc:
    if not callable(getattr(plan, "constrain_kwargs", None)):
        raise PlanError(f"the plan must be a skillgrant.Plan, not {type(plan).__name__}")
    return read_skill(text, path, decoded=decoded)


def _decide(doc: SkillDoc, plan: Plan, path: str | None, enforce: str | None,
            decided: ValueMemo[Decision] | None = None) -> Decision:
    """``doc``'s keys judged, and its value's decision under ``plan``. ``decided`` (a batch's,
    nothing logged: ``constrain`` logs for ``path`` only where a record is heard) keeps each
    decision by the value submitted, of which and of the plan it is a function."""
    judge_keys(doc, getattr(plan, "source", None), enforce)
    value = doc.allowed_tools
    submitted: str | list[str] = []
    if value is not None:
        submitted = value.value if isinstance(value.value, str) else list(value.value)
    if decided is None:
        return constrain(submitted, plan.allowed_tools, source=path, **plan.constrain_kwargs())
    if isinstance(submitted, str):
        key: str | tuple[str, ...] = submitted
        size = len(submitted)
    else:
        key = tuple(submitted)
        size = sum(map(len, key))
    return decided.get(key, size, lambda: constrain(
        submitted, plan.allowed_tools, source=path, **plan.constrain_kwargs()))


def _rewritten(doc: SkillDoc, decision: Decision, path: str | None, enforce: str | None) -> str:
    return _finished(doc, decision, _spliced(doc, decision.allowed), path, enforce)


def _spliced(doc: SkillDoc, entries: list[str]) -> str | None:
    """``_rewrite``'s splice (None: the rewrite is the text itself), not yet read back."""
    return None if _unchanged(doc, entries) else splice(doc, entries)


def _finished(doc: SkillDoc, decision: Decision, spliced: str | None, path: str | None,
              enforce: str | None) -> str:
    """The rewrite, ``spliced`` read back (``_verify``), with the gate's hook for ``enforce``."""
    new_text = doc.text
    if spliced is not None:
        _verify(doc, spliced, decision.allowed)
        new_text = spliced
    if enforce is not None:
        from .enforce import enforce_text

        new_text = enforce_text(new_text, enforce, path=path)
    return new_text


def splice_allowed_tools(text: str, entries: Sequence[str], *, path: str | None = None) -> str:
    """The SKILL.md text with ``allowed-tools`` holding exactly ``entries`` (no decision made):
    rewritten in its own form, added after ``description`` when absent, removed when
    ``entries`` is empty. The result is verified by reading it back.

    >>> splice_allowed_tools("---\\nallowed-tools: [Read, Bash]\\n---\\n", ["Read"])
    '---\\nallowed-tools: [Read]\\n---\\n'
    """
    return _rewrite(read_skill(text, path), list(entries))


def _unchanged(doc: SkillDoc, entries: list[str]) -> bool:
    """Whether the file read as ``doc`` already holds exactly ``entries``, read so by the
    runtime too: its rewrite is the file itself."""
    current = doc.allowed_tools
    return (list(current.entries) if current is not None else None) == (entries or None) and (
        doc.runtime_note is not None or doc.runtime_entries == _as_read(entries))


def _rewrite(doc: SkillDoc, entries: list[str]) -> str:
    new_text = _spliced(doc, entries)
    if new_text is None:
        return doc.text
    _verify(doc, new_text, entries)
    return new_text


def _verify(doc: SkillDoc, new_text: str, entries: list[str]) -> None:
    """Read the rewrite back (``reread``: the one reader, with its fast branch for a one-line
    plain value); it must hold exactly ``entries`` and leave the rest alone."""
    try:
        new = reread(doc, new_text)
    except SkillFileError as e:
        raise SkillFileError(f"the rewritten frontmatter does not read back ({e.message}); "
                             "nothing was written", path=doc.path) from e
    problems = []
    got = None if new.allowed_tools is None else list(new.allowed_tools.entries)
    if got != (entries or None):
        problems.append(f"{KEY} would read back as {got!r}, not {entries!r}")
    elif new.runtime_note is None and new.runtime_entries != _as_read(entries):
        problems.append(f"Claude Code would read {KEY} as {list(new.runtime_entries)!r}, not "
                        f"{entries!r}")
    if not _others_same(doc.metadata, new.metadata):
        problems.append("another frontmatter key would change")
    # The two bodies equal: as long, and the new text ends with the old body (one copy, not
    # two, of what is most of the file; a slice past the end is empty).
    body = doc.body
    if max(len(new_text) - new.body_start, 0) != len(body) or not new_text.endswith(body):
        problems.append("the body would change")
    if problems:
        raise SkillFileError("cannot rewrite allowed-tools safely: " + "; ".join(problems) +
                             "; nothing was written", path=doc.path)


def _others_same(before: Mapping[str, object], after: Mapping[str, object]) -> bool:
    """``fmread.same`` of the two metadata less ``allowed-tools``, without building them: the
    same other keys in the same order, each value the same."""
    keys = [key for key in before if key != KEY]
    return keys == [key for key in after if key != KEY] and all(
        same(before[key], after[key]) for key in keys)


def _as_read(entries: Sequence[str]) -> tuple[str, ...]:
    """``entries`` as Claude Code keeps them once written apart: any ``*`` is every tool."""
    return ("*",) if "*" in entries else tuple(entries)


def decode_skill(data: bytes, path: str | None = None) -> str:
    """Decode a SKILL.md's bytes as strict UTF-8, keeping a BOM (as U+FEFF) and CRLF as they are.

    Raises SkillFileError naming the line and column of the first byte that is not UTF-8.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        column = len(data[line_start:e.start].decode("utf-8", errors="replace")) + 1
        raise SkillFileError(f"the file is not UTF-8: byte 0x{data[e.start]:02X} cannot be "
                             "decoded", path=path, line=data.count(b"\n", 0, e.start) + 1,
                             column=column) from e


def apply_to_file(path: str | os.PathLike[str], plan: Plan, *, dry_run: bool = False,
                  enforce: str | None = None,
                  plugins: dict[str, object] | None = None) -> ApplyResult:
    """Apply ``plan`` to the SKILL.md at ``path`` and write the result atomically when it
    changed (never with ``dry_run``). The file is left byte-identical on any error.

    ``plugins``, one dict kept over a batch, remembers the plugin folders looked at
    (``skillfile.plugin.judge_plugin``).

    Raises SkillFileError (unreadable, over MAX_SKILL_BYTES, not UTF-8, unsafe to rewrite, in a
    plugin whose manifest or hooks grant beside it (``skillfile.plugin``), or the write
    failed) or PlanError.
    """
    target = path if isinstance(path, Path) else Path(path)
    data = read_limited(target)
    old_text = decode_skill(data, str(target))
    judge_plugin(str(target), plugins)
    doc, new_text, decision = _apply(old_text, plan, str(target), enforce, decoded=True)
    write = new_text != old_text and not dry_run
    if write:
        write_atomic(target, new_text.encode("utf-8"), expected=data)
    return ApplyResult(target, old_text, new_text, decision, write, doc)


#: A chunk (``read_chunk``) ends at this many files, or sooner once its bytes reach
#: CHUNK_BYTES: what a chunk holds at once stays small beside the 100 MiB a batch may take.
CHUNK_FILES = 64
CHUNK_BYTES = 1 << 21


def read_chunk(paths: Iterator[Path]) -> tuple[list[Path], list[Any]]:
    """The next files of ``paths`` (none: the batch is done), and for each its text
    (``read_limited``, ``decode_skill``) or the exception that stopped it, as ``staged.each``
    keeps them: ``apply_chunk`` continues from there."""
    taken: list[Path] = []
    values: list[Any] = []
    size = 0
    for path in paths:
        taken.append(path)
        values.append(path)
        if each(values, _text_of, len(values) - 1):
            break  # the exception that ends the batch
        value = values[-1]
        size += len(value[1]) if isinstance(value, tuple) else 0
        if len(taken) >= CHUNK_FILES or size >= CHUNK_BYTES:
            break
    return taken, values


def _text_of(path: Path) -> tuple[Path, str]:
    return path, decode_skill(read_limited(path), str(path))


def apply_chunk(values: list[Any], plan: Plan, *, enforce: str | None = None,
                plugins: dict[str, object] | None = None,
                decided: ValueMemo[Decision] | None = None) -> None:
    """``apply_to_file`` with ``dry_run`` (nothing is written) of each file ``read_chunk``
    read, step by step over the chunk (``staged``): each value becomes the file's
    ApplyResult, or the exception its steps raised, the same as the file's alone.
    ``decided`` keeps the batch's decisions (``_decide``)."""
    each(values, lambda value: _judged(value, plugins))
    each(values, lambda value: (*value, _read(value[1], plan, str(value[0]), True)))
    each(values, lambda value: (*value, _decide(value[2], plan, str(value[0]), enforce,
                                                decided)))
    each(values, lambda value: (*value, _spliced(value[2], value[3].allowed)))
    each(values, lambda value: ApplyResult(
        value[0], value[1], _finished(value[2], value[3], value[4], str(value[0]), enforce),
        value[3], False, value[2]))


def _judged(value: tuple[Path, str], plugins: dict[str, object] | None) -> tuple[Path, str]:
    judge_plugin(str(value[0]), plugins)
    return value


def read_limited(path: str | os.PathLike[str]) -> bytes:
    """The bytes of the file at ``path``, refusing one over MAX_SKILL_BYTES without reading it
    whole (a hostile path may name a huge file or an endless device).

    Raises SkillFileError naming the file and the limit, or why it cannot be read.
    """
    shown = str(path)
    try:
        data = read_bounded(path, MAX_SKILL_BYTES)
    except OSError as e:
        raise SkillFileError(f"cannot read the file: {e.strerror or e}", path=shown) from e
    if len(data) > MAX_SKILL_BYTES:
        raise SkillFileError(too_large(), path=shown)
    return data


def too_large() -> str:
    """Why a skill file over MAX_SKILL_BYTES is refused."""
    return (f"the file is over {MAX_SKILL_BYTES} bytes (MAX_SKILL_BYTES): Claude Code and "
            "Copilot CLI read no skill or command file that large, so it grants nothing as it "
            "is; skillgrant refuses it rather than pass a file that would grant once cut down")


def write_atomic(path: str | os.PathLike[str], data: bytes, *,
                 expected: bytes | None = None) -> None:
    """Replace the file at ``path`` with ``data`` atomically: a temporary file in the same
    directory, written, flushed and fsynced, given the original's mode (and owner, where
    permitted), then renamed over it. A symlink is followed: its target is replaced.

    With ``expected``, the write is refused when the file no longer holds those bytes (it
    changed since it was read). On any failure the temporary file is removed, the original is
    untouched, and SkillFileError is raised.
    """
    import tempfile  # here: `check` never writes

    shown = str(path)
    target = Path(os.path.realpath(path))
    try:
        before = target.stat()
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                    suffix=".skillgrant-tmp")
    except OSError as e:
        raise SkillFileError(f"cannot write the file: {e.strerror or e}", path=shown) from e
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, stat.S_IMODE(before.st_mode))
        with contextlib.suppress(OSError):  # keeping the owner needs privileges we may lack
            if hasattr(os, "chown") and (before.st_uid, before.st_gid) != _owner(temp):
                os.chown(temp, before.st_uid, before.st_gid)
        if expected is not None and target.read_bytes() != expected:
            raise SkillFileError("the file changed while it was being rewritten; nothing was "
                                 "written", path=shown)
        os.replace(temp, target)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        if isinstance(e, OSError):
            raise SkillFileError(f"cannot write the file: {e.strerror or e}; it was left as it "
                                 "was", path=shown) from e
        raise
    _sync_directory(target.parent)


def _owner(path: str) -> tuple[int, int]:
    info = os.stat(path)
    return info.st_uid, info.st_gid


def _sync_directory(directory: Path) -> None:
    """Make the rename durable; not every platform can open a directory, so best effort."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
