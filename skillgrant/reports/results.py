"""What a ``check``/``apply`` run hands its renderers: one ``FileResult`` a SKILL.md, and the
``Run`` they belong to."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..frozen import quick_init

if TYPE_CHECKING:
    from ..verdicts import Decision
    from .ci import FileError, Location


@quick_init
@dataclass(frozen=True)
class FileResult:
    """What happened to one SKILL.md, as the CLI saw it.

    ``path`` is shown to people; ``artifact`` is the repository-relative POSIX path (absolute
    when the file is outside the repository) used by the github and sarif formats.
    ``location`` is where ``allowed-tools`` is (or would be added); ``entry_locations`` holds
    one location per verdict, in order. ``applied`` is True when the file was rewritten.
    """

    path: str
    artifact: str
    decision: Decision | None = None
    changed: bool = False
    applied: bool = False
    location: Location | None = None
    entry_locations: tuple[Location, ...] = ()
    diff: str | None = None
    error: FileError | None = None
    #: Why Claude Code will not read this file's allowed-tools (SG009), or reads it as other
    #: entries (SG010), if so; ``runtime_rule`` names which.
    runtime_note: str | None = None
    runtime_rule: str = "SG009"
    #: The file's new text, for a SKILL.md read from standard input (``check -``, ``apply -``).
    text: str | None = None
    #: What the file's ``disallowed-tools`` (or ``disallowedTools``, ``removed_key``) removes
    #: as Claude Code reads it (SG011), and where that key is.
    removed: tuple[str, ...] = ()
    removed_key: str | None = None
    removed_location: Location | None = None

    def where(self, index: int) -> Location | None:
        if index < len(self.entry_locations):
            return self.entry_locations[index]
        return self.location


@dataclass
class Run:
    """Everything a renderer needs about one ``check``/``apply`` run."""

    command: str
    plan: str | None
    files: list[FileResult] = field(default_factory=list)
    dry_run: bool = False
