"""The session a hook request comes from (review M-1): the session's environment, which the
printed http hook sends as headers (gate/environment.py), and what the service makes of it.

A session sends the same headers with every call, so what they say is read once and kept by
their bytes, while the service's own environment's values are those it was compared with.
"""

from __future__ import annotations

from ..gate.environment import COMPARED, NAMES, PROJECT, project_of, sent, session_problem, values

#: The session's headers: their names, and as the guard keys them (``guard.header_table``).
_SESSION = tuple((header, header.encode("latin-1")) for _, header in NAMES)
_KEYS = tuple(key for _, key in _SESSION)
#: Sessions kept at most, and transcripts of each; past them all are forgotten.
MAX_SESSIONS = 256
MAX_TRANSCRIPTS = 64


class Session:
    """A request's session: its headers (lower-case names), why the service cannot decide
    its calls (``session_problem``; None when it can), and the folder it started in (its
    ``PWD`` unwrapped, or empty)."""

    def __init__(self, headers: dict[str, str], problem: str | None, folder: str) -> None:
        self.headers = headers
        self.problem = problem
        self.folder = folder
        self._projects: dict[str, tuple[str | None, str | None]] = {}

    def project(self, transcript: object) -> tuple[str | None, str | None]:
        """``environment.project_of`` the session's folder and a payload's ``transcript_path``:
        kept by the transcript, as the session is kept while the service's environment (its
        ``HOME`` and ``CLAUDE_CONFIG_DIR`` among the values compared) is the same."""
        if not isinstance(transcript, str):
            return project_of(self.folder, transcript)
        found = self._projects.get(transcript)
        if found is None:
            if len(self._projects) >= MAX_TRANSCRIPTS:
                self._projects.clear()
            found = self._projects[transcript] = project_of(self.folder, transcript)
        return found


class Sessions:
    """The sessions requests came from, kept (on the event loop only)."""

    def __init__(self) -> None:
        self._kept: dict[tuple[bytes | None, ...], tuple[tuple[str | None, ...], Session]] = {}

    def __len__(self) -> int:
        return len(self._kept)

    def of(self, last: dict[bytes, bytes]) -> Session:
        """The session of a request whose headers' last values are ``last`` (a header sent
        twice: the last counts), by their names in lower case; Claude Code writes a header's
        value in Latin-1 (measured: review F10)."""
        raw = tuple(map(last.get, _KEYS))
        own = values(COMPARED)  # what session_problem compares the session with
        kept = self._kept.get(raw)
        if kept is not None and kept[0] == own:
            return kept[1]
        headers = {name: value.decode("latin-1")
                   for (name, _), value in zip(_SESSION, raw, strict=True) if value is not None}
        made = Session(headers, session_problem(headers), sent(headers)[PROJECT] or "")
        if len(self._kept) >= MAX_SESSIONS:
            self._kept.clear()
        self._kept[raw] = (own, made)
        return made
