"""Every public exception. A failed proof is a value (a Verdict); a bad input is one of these."""

from __future__ import annotations


class SkillgrantError(Exception):
    """Base class of every exception skillgrant raises on purpose."""


def _caret_block(text: str, position: int, width: int = 72) -> str:
    """The text on one line with a caret under ``position``; long text is cut to a window
    around the position, and control characters are shown as ``?``."""
    position = max(0, min(position, len(text)))
    start = max(0, min(position - width // 2, len(text) - width))
    shown = text[start : start + width]
    lead = "…" if start > 0 else ""
    tail = "…" if start + width < len(text) else ""
    shown = "".join(ch if ch.isprintable() or ch == " " else "?" for ch in shown)
    return f"    {lead}{shown}{tail}\n    {' ' * (len(lead) + position - start)}^"


class GrantSyntaxError(SkillgrantError, ValueError):
    """An ``allowed-tools`` entry that does not follow the entry grammar (semantics §2).

    ``entry`` is the text as given, ``position`` the 0-based offset of the offending character.
    """

    def __init__(self, message: str, entry: str, position: int) -> None:
        self.message = message
        self.entry = entry
        self.position = position
        quoted = repr(entry) if len(entry) <= 80 else f"of {len(entry)} characters"
        super().__init__(f"{message} in entry {quoted} at column {position + 1}\n"
                         f"{_caret_block(entry, position)}")


class _LocatedError(SkillgrantError, ValueError):
    """An error in an input file: ``message``, and ``line`` and ``column`` (1-based) when known;
    its text is ``WHERE[:LINE[:COLUMN]]: message`` (WHERE is ``<input>`` for none)."""

    def __init__(self, message: str, where: str | None, line: int | None,
                 column: int | None) -> None:
        self.message = message
        self.line = line
        self.column = column
        shown = where or "<input>"
        if line is not None:
            shown += f":{line}"
            if column is not None:
                shown += f":{column}"
        super().__init__(f"{shown}: {message}")


class PlanError(_LocatedError):
    """The approved plan is invalid: unreadable, malformed, or with an invalid entry (semantics §5,
    §7).

    ``source`` names the file (or ``None`` for in-memory plans); ``line`` and ``column`` are
    1-based when known; ``entry`` is the offending approved entry when there is one.
    """

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None,
                 column: int | None = None, entry: str | None = None) -> None:
        self.source = source
        self.entry = entry
        super().__init__(message, source, line, column)


class SkillFileError(_LocatedError):
    """A SKILL.md that cannot be read or rewritten safely (semantics §6). The file is left
    untouched."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 column: int | None = None) -> None:
        self.path = path
        super().__init__(message, path, line, column)


class AllowedToolsError(SkillgrantError, TypeError):
    """An ``allowed-tools`` value that is neither a string nor a list of strings (semantics §2)."""
