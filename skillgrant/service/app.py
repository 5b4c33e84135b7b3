"""The service's application: the hook endpoint, and the library's endpoints (FastAPI).

``POST /v1/hook/{plan}`` takes a runtime's hook payload and answers exactly as the hook command
would (``gate.hook.decide``, the same audit records), in the body of a 200: a denial in the
runtime's JSON, or an empty body for a call the runtime's own permissions decide. Every
failure, from an unknown plan to a decision that takes too long, is a denial, because a
runtime treats a non-2xx answer as an error it may let the call through on. The other
endpoints are the library's calls (operations.py); their errors are HTTP errors with a JSON
body (``ErrorResponse``).

Work runs in a pool of threads, each request bounded by the handler timeout; the event loop
only reads requests and writes answers.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar
from urllib.parse import parse_qs

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__
from ..errors import SkillgrantError
from ..gate.crosscheck import MAY_WAIT, BashNeeded
from ..gate.hook import (
    Answer,
    LoadedPlan,
    Options,
    Sink,
    decide,
    failure,
)
from . import models as m
from . import operations as ops
from .auditlog import AuditLog
from .guard import (
    HEADERS,
    HOOK_PREFIX,
    SEEN,
    ASGIApp,
    Receive,
    Scope,
    Send,
    header_table,
    is_hook,
)
from .operations import NotServed
from .plans import Plans, ServedPlan
from .query import QueryError, dialect_of, document_hook, hook_options, refused
from .registry import Registry, add_route
from .sessions import Session, Sessions, in_session
from .watched import Watched

T = TypeVar("T")
#: An answer's exit status in ``skillgrant hook`` when it denies the call.
DENIED = 2
#: A hook payload's bytes times its plan's weight (``inline_weight``) at most, for its decision
#: to be made on the event loop; past it, the decision is made in a thread, bounded by the
#: handler timeout. The gate's work grows with the command's or path's length, the plan's
#: grants and their wildcards (review SV-3: a deep path against globstars): at this bound the
#: slowest payloads measured take milliseconds (docs/service.md, "Where a hook decision runs").
INLINE_WORK = 32_768


@functools.lru_cache(maxsize=64)  # a plan's entries are the same from call to call
def inline_weight(allowed_tools: tuple[str, ...]) -> int:
    """A plan's weight for ``INLINE_WORK``: its entries, plus 8 for each wildcard character
    (``*``, ``?``) in them, plus 16."""
    return len(allowed_tools) + 16 + 8 * sum(e.count("*") + e.count("?") for e in allowed_tools)


class Service:
    """The plans, the audit log, the handler timeout and the worker threads the endpoints
    share. Hook decisions have their own threads: a flood of slow library requests (a diff of
    two 512-entry lists takes seconds) cannot hold a hook call up."""

    def __init__(self, plans: Plans, *, audit: AuditLog | None, handler_timeout: float,
                 workers: int = 8, library_workers: int = 2, observe: bool = False,
                 view: Watched | None = None, registry: Registry | None = None) -> None:
        self.sessions = Sessions()
        # each session's npm variables (SessionStart: issue 29), kept in a file when given
        self.registry = Registry() if registry is None else registry
        self.observe = observe  # issue 32: decide and log every call, deny none
        self.view = view  # the gate's view of the filesystem (gate.files), when one is used
        self.plans = plans
        self.audit = audit
        self.handler_timeout = handler_timeout
        self.hooks = concurrent.futures.ThreadPoolExecutor(workers, "skillgrant-hook")
        self.library = concurrent.futures.ThreadPoolExecutor(library_workers,
                                                             "skillgrant-library")
        self.pools = (self.hooks, self.library)

    async def bounded(self, pool: concurrent.futures.Executor, work: Callable[..., T],
                      *args: Any) -> T:
        """``work(*args)`` in a thread of ``pool``; TimeoutError past the handler timeout (the
        thread runs on, its answer unused: every decision is bounded by the limits)."""
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(self.handler_timeout):
            return await loop.run_in_executor(pool, work, *args)

    async def hook(self, name: str, query: str, body: bytes, session: Session) -> Answer:
        """The hook answer for a payload sent for the plan ``name`` from ``session``; never
        raises. The decision's record is written here, once it is known the decision is the
        answer. Observing (``serve --observe``), the answer is empty whatever the decision."""
        found = self._decided(name, query, body, session)
        if isinstance(found, _Handover):
            found = await self._handed_over(found)
        return self._observed(found)

    def hook_now(self, name: str, query: str, body: bytes, session: Session) -> Answer | None:
        """``hook``'s answer when it is decided in line (on the event loop: ``_inline``);
        None when the decision is to be made in a hook thread (``hook`` makes it)."""
        found = self._decided(name, query, body, session)
        return None if isinstance(found, _Handover) else self._observed(found)

    def _observed(self, answer: Answer) -> Answer:
        if self.observe:
            from ..gate.observe import observed_answer

            return observed_answer(answer)
        return answer

    def _decided(self, name: str, query: str, body: bytes, session: Session
                 ) -> Answer | _Handover:
        given = parse_qs(query, keep_blank_values=True) if query else {}
        dialect, audit = dialect_of(given), self._sink()
        try:
            found = self._served(name, given, session)
            if isinstance(found, str):
                return self._unread(body, dialect, found, audit)
            options, served = found
            records: list[bytes] = []
            sink = records.append if audit is not None else None
            raw, payload, unknown = in_session(options, body, session, self.registry,
                                                served.loaded.plan.shell_tools)
            answer = self._inline(options, raw, served.loaded, sink, payload)
            if answer is None:  # (no coroutine of its own for a decision in line: issue 29)
                return _Handover(dialect, audit, options, raw, served.loaded, records, payload,
                                 unknown)
        except QueryError as e:
            return self._unread(body, dialect, str(e), audit)
        except Exception as e:  # fail closed: a crash denies the call
            return self._unread(body, dialect, f"internal error ({type(e).__name__}: {e})",
                                audit)
        return _finished(dialect, audit, answer, unknown, records)

    def _unread(self, body: bytes, dialect: str, message: str, audit: Sink | None) -> Answer:
        """The denial of a call denied before its payload was read: the ids its first bytes
        name are noted first, as a call decided notes its own (review s51-greview3 G1; a
        note the sessions file did not take is kept, and written with the next)."""
        with contextlib.suppress(OSError):
            self.registry.called_in(body)
        return failure(dialect, message, audit=audit)

    async def _handed_over(self, left: _Handover) -> Answer:
        """The decision ``_decided`` handed over, made in a hook thread."""
        sink = left.records.append if left.audit is not None else None
        try:
            answer = await self.bounded(self.hooks, decide, left.options, left.raw, left.loaded,
                                        sink, left.payload)
        except TimeoutError:
            return failure(left.dialect, "the decision took longer than "
                           f"{self.handler_timeout:g} s", audit=left.audit)
        except Exception as e:  # fail closed: a crash denies the call
            return failure(left.dialect, f"internal error ({type(e).__name__}: {e})",
                           audit=left.audit)
        return _finished(left.dialect, left.audit, answer, left.unknown, left.records)

    def _served(self, name: str, given: dict[str, list[str]], session: Session
                ) -> tuple[Options, ServedPlan] | str:
        """The hook's options from the query and the plan ``name`` served, or why the call is
        denied before it is decided. Raises QueryError."""
        options = hook_options(given)
        served = self.plans.get(name)
        if served is None:
            return f"no plan named {name!r} is served"
        # What the hook process guards with its options, guarded here too (reviews F4, F8)
        guarded = {"--plan": served.spec.path, "--skill-dir": served.skill_dir,
                   "--audit-log": None if self.audit is None else self.audit.path}
        options.values.update({k: v for k, v in guarded.items() if v is not None})
        problem = refused(options, served.digest, served.loaded.text, session.problem)
        return (options, served) if problem is None else problem

    def _inline(self, options: Options, raw: bytes | None, loaded: LoadedPlan,
                sink: Sink | None, payload: object) -> Answer | None:
        """``decide`` on the event loop, for a payload within ``INLINE_WORK`` that needs no
        question to bash (``crosscheck.MAY_WAIT``); None when the decision is to be made in a
        hook thread, bounded by the handler timeout. A decision is a few tens of microseconds
        of work; handing it to a thread and back cost more than that, and eight threads
        contending for the GIL made eight clients slower than one (issue 29). ``sink``
        receives the record of the decision that answers, only: a decision handed over has
        written none."""
        if self.view is not None:
            self.view.refresh()  # what changed since the last decision is forgotten
        if raw is None or len(raw) * inline_weight(loaded.allowed_tools) <= INLINE_WORK:
            token = MAY_WAIT.set(False)
            try:
                return decide(options, raw, loaded, sink, payload)
            except BashNeeded:
                pass  # bash is asked from a thread: a reading takes milliseconds
            finally:
                MAY_WAIT.reset(token)
        return None

    def refusal(self, scope: Scope, message: str) -> str:
        """The hook answer for a hook request the guard refused (the ids named by what it
        read of the body of one it authenticated, ``guard.SEEN``, noted)."""
        values = parse_qs(bytes(scope.get("query_string", b"")).decode("latin-1"))
        answer = self._unread(scope.get(SEEN, b""), dialect_of(values),
                              f"the request was refused: {message}", self._sink())
        return "" if self.observe else answer.stdout

    def _sink(self) -> Sink | None:
        if self.audit is None:
            return None
        if self.observe:
            from ..gate.observe import observing

            return observing(self.audit.write)
        return self.audit.write


class _Handover(NamedTuple):
    """A decision ``Service._decided`` leaves to a hook thread, and what its answer needs."""

    dialect: str
    audit: Sink | None
    options: Options
    raw: bytes | None
    loaded: LoadedPlan
    records: list[bytes]
    payload: object
    unknown: str | None


def _finished(dialect: str, audit: Sink | None, answer: Answer, unknown: str | None,
              records: list[bytes]) -> Answer:
    """The answer: a denial when the session's project folder is not known (``unknown``,
    ``sessions.in_session``) and the call not denied anyway, with its record only; else the
    decision, its records written (a record that cannot be written denies the call)."""
    if unknown is not None and answer.status != DENIED:
        return failure(dialect, unknown, audit=audit)
    if audit is not None:
        try:
            for line in records:
                audit(line)
        except OSError as e:
            return failure(dialect, f"the audit log cannot be written: {e}")
    return answer


def create_app(service: Service) -> FastAPI:
    """The application, its endpoints bound to ``service``."""
    api = FastAPI(title="skillgrant", version=__version__, docs_url=None, redoc_url=None,
                  description="The grant service: hook decisions and the library's calls "
                              "over HTTP, against the approved plans it serves.")
    _library_routes(api, service)
    add_route(api, service.registry)

    @api.get("/v1/health")
    async def health() -> m.HealthResponse:
        """The served plans (names, digests) and the version."""
        return ops.health(service.plans, __version__)

    @api.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, e: RequestValidationError) -> JSONResponse:
        # FastAPI's own answer echoes the input, and a NaN in it cannot be written as JSON.
        problems = ["/".join(str(p) for p in error.get("loc", ())) + f": {error.get('msg')}"
                    for error in e.errors()[:20]]
        return _error(422, "invalid-request", "; ".join(problems) or "an invalid request")

    @api.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, e: StarletteHTTPException) -> JSONResponse:
        code = {400: "bad-request", 404: "not-found", 405: "method"}.get(e.status_code, "http")
        return _error(e.status_code, code, str(e.detail))

    @api.exception_handler(SkillgrantError)
    async def library_error(request: Request, e: SkillgrantError) -> JSONResponse:
        status, code = (404, "not-served") if isinstance(e, NotServed) else (422, "invalid")
        return _error(status, code, str(e))

    @api.exception_handler(TimeoutError)
    async def timed_out(request: Request, e: TimeoutError) -> JSONResponse:
        return _error(503, "handler-timeout", "the request took longer than "
                      f"{service.handler_timeout:g} s")

    @api.exception_handler(Exception)
    async def crashed(request: Request, e: Exception) -> JSONResponse:
        return _error(500, "internal", f"internal error ({type(e).__name__})")

    return api


def front(service: Service, api: FastAPI) -> ASGIApp:
    """The application: hook requests straight to ``service.hook``, everything else to
    ``api``. A hook call is the hot path (one per tool call): it skips FastAPI's routing and
    validation, which a payload must never fail anyway."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not is_hook(scope):
            await api(scope, receive, send)
            return
        message = await receive()  # the guard has read the body whole
        answer = await service.hook(*_hook_request(service, scope,
                                                   bytes(message.get("body", b""))))
        body = answer.stdout.encode("utf-8")
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    document_hook(api)
    return app


def hook_now(service: Service) -> Callable[[Scope, bytes], str | None]:
    """A hook request's answer (the text of its body), made in line, as ``front`` would
    answer it: for ``guard.Guard.direct``; None when the decision is made in a hook thread."""
    def answer(scope: Scope, body: bytes) -> str | None:
        found = service.hook_now(*_hook_request(service, scope, body))
        return None if found is None else found.stdout

    return answer


def _hook_request(service: Service, scope: Scope, body: bytes
                  ) -> tuple[str, str, bytes, Session]:
    """What ``Service.hook`` takes of a hook request: the plan's name, the query, the body and
    the session."""
    path = str(scope["path"])
    return (path[len(HOOK_PREFIX):] if path.startswith(HOOK_PREFIX) else "",
            bytes(scope.get("query_string", b"")).decode("latin-1"), body,
            service.sessions.of(*(scope.get(HEADERS) or header_table(scope))))


#: The library's endpoints (operations.py): each path's operation, its request and response
#: models, and what it does (the OpenAPI description).
_LIBRARY: tuple[tuple[str, Callable[..., Any], type, type, str], ...] = (
    ("check-call", ops.check_call, m.CheckCallRequest, m.CallVerdictModel,
     "One concrete tool call against the plan (``check_call``)."),
    ("prove", ops.prove, m.ProveRequest, m.VerdictModel,
     "Whether one submitted entry is inside the plan (``prove``)."),
    ("constrain", ops.constrain, m.ConstrainRequest, m.DecisionModel,
     "A submitted allowed-tools value constrained to the plan (``constrain``)."),
    ("apply", ops.apply, m.ApplyRequest, m.ApplyResponse,
     "A SKILL.md's text with its allowed-tools constrained to the plan, and the\n"
     "decision. The service never writes a file."),
    ("lint", ops.lint, m.LintRequest, m.LintResponse, "Review a plan's grants (``lint``)."),
    ("diff", ops.diff, m.DiffRequest, m.DiffResponse,
     "How a grant list changed, and whether it escalates (``diff``)."),
)


def _library_routes(api: FastAPI, service: Service) -> None:
    errors: dict[int | str, dict[str, Any]] = {
        404: {"model": m.ErrorResponse, "description": "No such served plan."},
        422: {"model": m.ErrorResponse, "description": "An invalid plan or input."},
        503: {"model": m.ErrorResponse, "description": "The handler timeout passed."}}
    for path, operation, request, response, doc in _LIBRARY:
        api.add_api_route(f"/v1/{path}", _endpoint(service, operation, request, response, doc),
                          methods=["POST"], responses=errors)


def _endpoint(service: Service, operation: Callable[..., Any], request: type, response: type,
              doc: str) -> Callable[..., Any]:
    """The handler of one library endpoint: the request's body (a ``request``) to
    ``operation`` in the library's pool, bounded by the handler timeout; named, typed and
    documented for FastAPI as a hand-written handler would be."""
    async def endpoint(body: Any) -> Any:
        if service.view is not None:
            service.view.refresh()  # as before a hook decision (``Service._inline``)
        return await service.bounded(service.library, operation, service.plans, body)

    endpoint.__name__ = endpoint.__qualname__ = operation.__name__
    endpoint.__doc__ = doc
    endpoint.__annotations__ = {"body": request, "return": response}
    return endpoint


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)
