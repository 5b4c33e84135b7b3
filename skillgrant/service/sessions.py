"""The session a hook request comes from (review M-1): the session's environment, which the
printed http hook sends as headers (gate/environment.py), and what the service makes of it.

A session sends the same headers with every call, so what they say is read once and kept by
their bytes, while the service's own environment's values are those it was compared with.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping

from ..gate.environment import COMPARED, NAMES, PROJECT, project_of, sent, session_problem, values
from ..gate.hook import UNREAD, Options
from ..gate.options import PROJECT_OPTION
from ..gate.tools import ShellTool, translate
from ..limits import MAX_HOOK_PAYLOAD_BYTES
from .registry import REGISTERED, Registry

#: The session's headers: their names, and as the guard keys them (``guard.header_table``).
_SESSION = tuple((header, header.encode("latin-1")) for _, header in NAMES)
_KEYS = tuple(key for _, key in _SESSION)
_KEYSET = frozenset(_KEYS)
#: Sessions kept at most, and transcripts of each; past them all are forgotten.
MAX_SESSIONS = 256
MAX_TRANSCRIPTS = 64
#: The names Claude Code never fills in a header: their headers carry the upper-case
#: spelling's value (one line for both), and the registration carries theirs (registry.py).
_LOWER = tuple(name for name in REGISTERED if name.islower())
#: The tools' domains (gate/tools.py) whose calls write nothing.
_READING = frozenset(("read", "search", "web"))


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
        # the last request's: its values, the service's own then, its session
        self._last: tuple[tuple[bytes | None, ...], tuple[str | None, ...], Session] | None = \
            None

    def __len__(self) -> int:
        return len(self._kept)

    def of(self, last: dict[bytes, bytes],
           repeated: dict[bytes, list[bytes]] | None = None) -> Session:
        """The session of a request whose headers' last values are ``last``, by their names
        in lower case; Claude Code writes a header's value in Latin-1 (measured: review F10).
        A session's header sent more than once (``repeated``) with values that differ is
        never read as one of them: its calls are denied (``npm_config_prefix`` beside
        ``NPM_CONFIG_PREFIX`` is one header name; session 48's finding)."""
        clash = [name.decode("latin-1") for name, values in (repeated or {}).items()
                 if name in _KEYSET and len(set(values)) > 1]
        if clash:
            return Session({}, f"the request sends the session's header {', '.join(clash)} "
                           "more than once with different values (variables whose names "
                           "differ only by case are one header name), so what the session "
                           "set is not known here: use the `skillgrant hook` command", "")
        raw = tuple(map(last.get, _KEYS))
        own = values(COMPARED)  # what session_problem compares the session with
        was = self._last  # (compared value by value: the values' hashes are not made yet)
        if was is not None and was[1] is own and was[0] == raw:
            return was[2]
        kept = self._kept.get(raw)
        if kept is not None and kept[0] == own:
            self._last = (raw, own, kept[1])
            return kept[1]
        headers = {name: value.decode("latin-1")
                   for (name, _), value in zip(_SESSION, raw, strict=True) if value is not None}
        made = Session(headers, session_problem(headers, _compared(headers, own)),
                       sent(headers)[PROJECT] or "")
        if len(self._kept) >= MAX_SESSIONS:
            self._kept.clear()
        self._kept[raw] = (own, made)
        self._last = (raw, own, made)
        return made


def _compared(headers: dict[str, str], own: tuple[str | None, ...]) -> dict[str, str]:
    """The service's values of ``COMPARED`` (``own``) that a session's headers are compared
    with: each lower-case npm name's as its header says (that header carries the upper-case
    value, compared by its own name; the registration gives the lower-case one)."""
    compared = {name: value for name, value in zip(COMPARED, own, strict=True)
                if value is not None}
    given = sent(headers)
    for name in _LOWER:
        value = given[name]
        compared.pop(name, None)
        if value is not None:
            compared[name] = value
    return compared


def _reads_only(read: dict[str, object], shell_tools: Mapping[str, ShellTool]) -> bool:
    """Whether the payload's tool reads and writes nothing (gate/tools.py: a read, a search,
    a fetch): the gate checks what a call must not write for writing tools only
    (``judge.path_part``), so its decision does not rest on the npm variables."""
    name = read.get("tool_name", read.get("toolName"))
    spec = translate(name, shell_tools) if isinstance(name, str) else None
    return spec is not None and spec.domain in _READING


def in_session(options: Options, body: bytes, session: Session, registry: Registry,
               shell_tools: Mapping[str, ShellTool]) -> tuple[bytes | None, object, str | None]:
    """The payload's bytes (None: over the limit) and the payload read (``UNREAD`` when it
    cannot be), with the session's project folder set in ``options``, and why that folder is
    not known (or None), or why the session's registered npm variables are not the service's
    (``Registry.problem``; a read, a search or a fetch is decided as before whatever it is):
    the call is then denied, unless it is denied without it, as the project only adds what a
    call must not write (reviews M-1, M-17). The payload is read once,
    as ``decide`` reads it; one it cannot read it reads again, to say why."""
    raw = body if len(body) <= MAX_HOOK_PAYLOAD_BYTES else None
    payload: object = UNREAD
    # one that cannot be read is denied by decide, which says why (no folder is needed)
    with contextlib.suppress(ValueError, RecursionError):
        payload = json.loads(raw.decode("utf-8")) if raw is not None else UNREAD
    read = payload if isinstance(payload, dict) else {}
    project, unknown = session.project(read.get("transcript_path"))
    if project is not None:
        options.values[PROJECT_OPTION] = project
    # the session's npm variables, registered when it started (registry.py)
    sid = read.get("session_id", read.get("sessionId"))
    # (a registration must precede the first call: review s50-sreview F2; one read unread
    # too, by its first bytes: review s51-greview3 G1)
    if isinstance(payload, dict):
        registry.called(sid)
    else:
        registry.called_in(body)
    unregistered = registry.problem(sid)
    if unregistered is not None and _reads_only(read, shell_tools):
        unregistered = None  # (the npm variables guard writes only: reads decided as before)
    return raw, payload, unregistered or unknown
