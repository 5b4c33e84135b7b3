"""The sessions' npm variables, registered when each session starts (issue 29, session 50).

Claude Code fills a header's ``${NAME}`` only for names of upper-case letters, digits and
``_``, and sends two headers whose names differ only by case as one line (measured on 2.1.332:
tests/conformance/test_s49_serve_npm.py). So npm's lower-case ``npm_config_prefix``,
``npm_config_globalconfig`` and ``npm_config_userconfig`` never reach the service in a
header, and what the npmrc they name guards is not known there. The settings ``serve
--print-config`` prints add a ``SessionStart`` *command* hook (``skillgrant session-start``):
Claude Code runs it when a session starts or resumes, in the environment its tools run in,
before the session's first tool call (measured: tests/conformance/test_s50_session_start.py),
and it posts the session's npm variables, in both spellings, with the payload's
``session_id`` to ``POST /v1/sessions``. A hook request is decided only when its payload's
``session_id`` registered values equal to the service's own; otherwise the call is denied
unless the gate denies it anyway (as for an unknown project folder), but for a read, a search
or a fetch of a session that never registered, decided as before (sessions.py: the npm
variables only add what a call must not write).

The model can reach the port from the Bash tool, but only after the registration (the
runtime waits for the SessionStart hook before its first call). So:
- the first registration of an id is kept, and the same values again are accepted (a
  resumed session, a session cleared);
- other values for a known id are refused, logged, and the session's calls are denied from
  then on: a session resumed with other variables, or a program posting another session's id,
  cannot be told from the session itself;
- an id never registered has its calls that may write denied, and once the service has
  decided a call of it, it is never registered afterwards (session 51, review s50-sreview
  F2): a registration must precede the session's first call, and anyone holding the token
  (another session's Bash tool) could otherwise register the id of a session whose
  SessionStart failed with values that are not its own;
- at most ``MAX_SESSIONS`` ids and ``MAX_KEPT_CHARS`` characters of values are kept, each
  value at most ``MAX_VALUE_CHARS``; past them a new id is refused (and its calls denied),
  and none is ever forgotten: a forgotten id could be registered again by anyone who knows
  it. With an audit log, each change is kept in the sessions file beside it and read back
  when the service starts (sessionsfile.py, review s51-gfix3 F2b), so a restart forgets
  nothing; without one, a restarted service knows no session;
- a call the service denies before it reads the payload notes the ids its first bytes name
  (payloadid.py, review s51-greview3 G1), as a call decided notes its own.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from ..gate.environment import state
from ..gate.homefiles import NPM_ENVIRONMENT
from .payloadid import session_ids

if TYPE_CHECKING:
    from fastapi import FastAPI

    from .sessionsfile import SessionsFile

#: The header-carried spellings of npm's variables (sessions.py: their headers are one line).
REGISTERED = NPM_ENVIRONMENT
#: What a registration carries: every variable whose name is one of these in any case (npm
#: reads ``npm_config_*`` in any case, s50-sreview F1; ``homefiles.npm_global`` lowers the
#: names), and ``PREFIX`` and ``DESTDIR``, which move npm's global npmrc (s50-sreview F2).
NPM_NAMES = frozenset(name.lower() for name in NPM_ENVIRONMENT)
MOVERS = frozenset(("PREFIX", "DESTDIR"))
#: Names a registration may carry at most.
MAX_NAMES = 64
#: Ids kept at most (a registration per session; none is forgotten).
MAX_SESSIONS = 65_536
#: Characters of distinct values kept at most, and of one value (PATH_MAX).
MAX_KEPT_CHARS = 16_000_000
MAX_VALUE_CHARS = 4096
MAX_ID_CHARS = 128
#: A registration's outcomes: (HTTP status, code).
REGISTERED_NEW = (200, "registered")
SAME = (200, "same")
CONFLICT = (409, "conflict")
LATE = (409, "late")
FULL = (503, "sessions-full")
UNKEPT = (503, "sessions-file")
INVALID = (422, "invalid")
#: A session whose values conflicted: never decided again. One a call of which was decided
#: before it registered: never registered again.
_CONFLICTED = (("<conflict>", ""),)
_UNREGISTERED = (("<unregistered>", ""),)


class Registry:
    """Each session id's registered values (on the event loop only), and each change of them
    kept in ``kept``, the sessions file (sessionsfile.py), when there is one: read back whole
    here (raises OSError: a file that cannot be read as one refuses the start)."""

    def __init__(self, log: Callable[..., None] | None = None,
                 kept: SessionsFile | None = None) -> None:
        self.log = log
        self._sessions: dict[str, tuple[tuple[str, str], ...]] = {}
        # each set of values (shared by the sessions giving it), numbered as the file has them
        self._index: dict[tuple[tuple[str, str], ...], int] = {}
        self._defined: list[tuple[tuple[str, str], ...]] = []
        self._chars = 0
        self._kept = kept
        self._pending: list[list[Any]] = []  # notes the file did not take yet
        if kept is not None:
            with kept.locked(self._replay):
                pass

    def __len__(self) -> int:
        return len(self._sessions)

    def register(self, session_id: object, given: object, source: object = None
                 ) -> tuple[tuple[int, str], str]:
        """Register ``given`` (each name of ``REGISTERED`` to its value or None) for
        ``session_id``: the outcome, and what it means."""
        outcome, message = self._registered(session_id, given)
        if self.log is not None:
            shown = session_id[:MAX_ID_CHARS] if isinstance(session_id, str) else None
            self.log("session", session_id=shown, outcome=outcome[1],
                     source=str(source)[:32] if source is not None else None)
        return outcome, message

    def _registered(self, session_id: object, given: object) -> tuple[tuple[int, str], str]:
        found = _read(session_id, given)
        if isinstance(found, str):
            return INVALID, found
        assert isinstance(session_id, str)
        try:
            with self._locked():
                outcome, change = self._transit(session_id, found)
                self._keep(change, lose=change[:1] == ["r"])
        except OSError as e:
            return UNKEPT, (f"the service cannot keep the registration ({e}), so it is not "
                            "registered: its calls that may write are denied")
        return outcome, {
            LATE: "the service decided a call of the session before it registered, so a "
                  "registration now cannot be told from another program's: its calls that "
                  "may write stay denied (start a new session, or claude --resume ID "
                  "--fork-session)",
            SAME: "the session registered these values before",
            CONFLICT: "the session registered other values before: its calls are denied "
                      "from now on (start a new session)",
            FULL: f"the service keeps {len(self._sessions)} sessions, its most: stop it, "
                  "move its sessions file and its audit log away once no session of before "
                  "runs, start it, then resume the session (claude --resume)",
            REGISTERED_NEW: "registered"}[outcome]

    def _transit(self, session_id: str, found: tuple[tuple[str, str], ...]
                 ) -> tuple[tuple[int, str], list[Any]]:
        """A registration's outcome, and the change it makes (``_apply``'s; empty: none)."""
        kept = self._sessions.get(session_id)
        if kept is _UNREGISTERED:
            return LATE, []
        if kept is not None:
            if kept == found:
                return SAME, []
            return CONFLICT, ([] if kept is _CONFLICTED else ["x", session_id])
        size = sum(len(n) + len(v) for n, v in found)
        if len(self._sessions) >= MAX_SESSIONS or (
                found not in self._index and self._chars + size > MAX_KEPT_CHARS):
            return FULL, []
        return REGISTERED_NEW, ["r", session_id, found]

    def _apply(self, change: list[Any]) -> None:
        """Make the change ``change``: ``["r", id, values]``, ``["x", id]``, ``["c", id]``."""
        if change[0] == "r":
            found = change[2]
            if found not in self._index:
                self._define(found)
            self._sessions[change[1]] = self._defined[self._index[found]]
        else:
            self._sessions[change[1]] = _CONFLICTED if change[0] == "x" else _UNREGISTERED

    def _define(self, found: tuple[tuple[str, str], ...]) -> None:
        self._index[found] = len(self._defined)
        self._defined.append(found)
        self._chars += sum(len(n) + len(v) for n, v in found)

    def _keep(self, change: list[Any], lose: bool = False) -> None:
        """Write ``change`` (and the notes not written yet) to the sessions file, then make
        it. Raises OSError: the change is then made anyway (kept to be written with the
        next), or, when ``lose``, not made."""
        if not change:
            return
        if self._kept is not None:
            records = list(self._pending)
            if change[0] == "r":
                found = change[2]
                if found not in self._index:
                    records.append(["v", [list(pair) for pair in found]])
                records.append(["r", change[1], self._index.get(found, len(self._defined))])
            else:
                records.append(change)
            try:
                self._kept.append(records)
                self._pending.clear()
            except OSError:
                if not lose:
                    self._apply(change)
                    self._pending.append(change)
                raise
        self._apply(change)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """The sessions file's lock, what was appended to it since read (nothing without a
        file)."""
        if self._kept is None:
            yield
            return
        with self._kept.locked(self._replay):
            yield

    def _replay(self, record: list[Any]) -> None:
        """Make the change a record of the sessions file says, by the rules a registration
        and a call follow (sessionsfile.py). Raises ValueError, TypeError, IndexError."""
        kind, session_id = record[0], record[1]
        if kind == "v":
            found = _read("-", dict(session_id))
            if isinstance(found, str) or len(session_id) != len(found):
                raise ValueError(found if isinstance(found, str) else "a set value not set")
            self._define(found)
            return
        if not isinstance(session_id, str) or isinstance(_read(session_id, {}), str) or \
                kind not in ("r", "x", "c") or len(record) != (3 if kind == "r" else 2):
            raise ValueError(f"not a record: {kind!r}")
        if kind == "r":
            if not isinstance(record[2], int) or not 0 <= record[2] < len(self._defined):
                raise ValueError("a set of values not defined")
            change = self._transit(session_id, self._defined[record[2]])[1]
            if change:
                self._apply(change)
        elif kind == "x":
            if session_id in self._sessions and self._sessions[session_id] is not \
                    _UNREGISTERED:
                self._sessions[session_id] = _CONFLICTED
        else:
            self._note(session_id)

    def attest(self) -> None:
        """Write the audit log's record of the sessions file as it is (after the log was
        opened again: sessionswitness.py). Raises OSError."""
        if self._kept is not None:
            with self._locked():
                self._kept.attest()

    def called_in(self, body: bytes) -> None:
        """``called`` for each id a payload not read names in its first bytes
        (payloadid.py: review s51-greview3 G1). Raises OSError as ``called`` does."""
        for session_id in session_ids(body):
            self.called(session_id)

    def called(self, session_id: object) -> None:
        """Note that a call of the session ``session_id`` (a payload's) is being decided: an
        id not registered by then never is (within ``MAX_SESSIONS``; past it, no new id
        registers anyway). Raises OSError when the sessions file does not take the note: the
        note is kept, and written with the next change."""
        if isinstance(session_id, str) and self._noted(session_id) and \
                isinstance(_read(session_id, {}), tuple):
            with self._locked():  # (raises OSError: the note is kept, the call denied)
                if self._noted(session_id):
                    self._keep(["c", session_id])

    def _noted(self, session_id: str) -> bool:
        """Whether a call of ``session_id`` changes the registry: an id not known, within
        ``MAX_SESSIONS``."""
        return session_id not in self._sessions and len(self._sessions) < MAX_SESSIONS

    def _note(self, session_id: str) -> None:
        if self._noted(session_id):
            self._apply(["c", session_id])

    def knows(self, session_id: object) -> bool:
        """Whether ``session_id`` is known (its values kept, in conflict, or a call of it decided
        before it registered)."""
        return isinstance(session_id, str) and session_id in self._sessions

    def problem(self, session_id: object) -> str | None:
        """Why a call of the session ``session_id`` (a payload's) cannot be decided with the
        service's environment (its carried variables, ``own_values``), or None."""
        kept = self._sessions.get(session_id) if isinstance(session_id, str) else None
        own = own_values()
        if kept is not None and kept == own:
            twice = _spelled_twice(own)
            return None if twice is None else (
                f"{twice} is set in two spellings with different values, so which one npm "
                "reads is not known here: use the `skillgrant hook` command")
        if kept is None or kept is _UNREGISTERED:
            return ("the session registered no environment with the service (its npm "
                    "variables, which Claude Code sends no header for), so what a call that "
                    "may write must not write is not known here (its reads are decided as "
                    "before): add the SessionStart hook `skillgrant serve --print-config` "
                    "prints, then start a new session, or resume this one as a new one "
                    "(claude --resume ID --fork-session): a registration must precede the "
                    "session's first call")
        if kept is _CONFLICTED:
            return ("the session registered two different environments (a session resumed "
                    "with other npm variables, or another program posting its id), so what "
                    "the call must not write is not known here: start a new session")
        mine, theirs = dict(own), dict(kept)
        differing = sorted(n for n in {*mine, *theirs} if mine.get(n) != theirs.get(n))
        return (f"the session's {', '.join(differing)} "
                f"{'differs' if len(differing) == 1 else 'differ'} from the service's, so "
                "what the call must not write is not known here: start `skillgrant serve` "
                "from the session's environment, or use the `skillgrant hook` command")


def carried(name: str) -> bool:
    """Whether a registration carries the variable ``name``."""
    return name.lower() in NPM_NAMES or name in MOVERS


def own_values() -> tuple[tuple[str, str], ...]:
    """The service's own carried variables, as ``_read`` gives a registration's (kept while
    its environment is the same: ``environment.state``)."""
    key = state()
    if _OWN[0] != key:
        _OWN[:] = [key, tuple(sorted((n, v) for n, v in os.environ.items()
                                     if v and carried(n)))]
    found: tuple[tuple[str, str], ...] = _OWN[1]
    return found


_OWN: list[Any] = [None, ()]


def _read(session_id: object, given: object) -> tuple[tuple[str, str], ...] | str:
    """``given``'s set values, sorted by name (an empty value or null is unset, as npm reads
    it), or why the registration is refused."""
    if not isinstance(session_id, str) or not 0 < len(session_id) <= MAX_ID_CHARS \
            or not session_id.isprintable():
        return f"session_id must be a printable string of 1 to {MAX_ID_CHARS} characters"
    if not isinstance(given, Mapping) or len(given) > MAX_NAMES or not all(
            isinstance(n, str) and carried(n) for n in given):
        return (f"environment must name at most {MAX_NAMES} variables, each npm's "
                "npm_config_prefix, _globalconfig or _userconfig in any case, PREFIX or DESTDIR "
                "(null when unset)")
    found: list[tuple[str, str]] = []
    for name, value in given.items():
        if value is not None and (not isinstance(value, str) or len(value) > MAX_VALUE_CHARS):
            return f"{name} must be null or a string of at most {MAX_VALUE_CHARS} characters"
        if value:
            found.append((name, value))
    return tuple(sorted(found))


def _spelled_twice(values: tuple[tuple[str, str], ...]) -> str | None:
    """A name set in two spellings with different values (which npm takes depends on the
    environment's order), or None."""
    seen: dict[str, str] = {}
    for name, value in values:
        if seen.setdefault(name.lower(), value) != value:
            return name.lower()
    return None


def add_route(api: FastAPI, registry: Registry) -> None:
    """``POST /v1/sessions``: a session's registration (``skillgrant session-start``)."""
    from fastapi.responses import JSONResponse

    from . import models as m

    async def sessions(body: m.SessionRequest) -> m.SessionResponse:
        """Register a session's npm variables (the SessionStart hook `serve --print-config`
        prints): the first registration of an id is kept; other values later deny its
        calls."""
        (status, code), message = registry.register(body.session_id, body.environment,
                                                    body.source)
        if status != 200:
            return JSONResponse(  # type: ignore[return-value]
                {"error": {"code": code, "message": message}}, status_code=status)
        return m.SessionResponse(session_id=body.session_id, outcome=code)  # type: ignore[arg-type]

    # (this module's annotations are text: FastAPI is given the classes)
    sessions.__annotations__ = {"body": m.SessionRequest, "return": m.SessionResponse}
    api.add_api_route("/v1/sessions", sessions, methods=["POST"], responses={
        409: {"model": m.ErrorResponse, "description": "The id registered other values."},
        422: {"model": m.ErrorResponse, "description": "An invalid registration."},
        503: {"model": m.ErrorResponse, "description": "The service keeps no more sessions "
              "(sessions-full), or its sessions file did not take the registration "
              "(sessions-file)."}})
