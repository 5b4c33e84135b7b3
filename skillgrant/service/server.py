"""``skillgrant serve``: the service under uvicorn, its signals and its plan watcher.

- It listens on loopback unless ``--host`` names another address, and then it refuses to start
  without a token (``--token-env VAR``). The socket is bound before uvicorn starts, so a port
  of 0 takes a free one, and the line on standard output names the address really served.
- SIGHUP reloads every plan; a poll every ``--poll`` seconds reloads a plan whose file changed.
- SIGTERM and SIGINT stop it gracefully: no new connection is taken, requests in flight finish.
- A client that does not send its request's headers within the read timeout is disconnected
  (``_HeaderDeadline``); the body's timeout is the guard's.
- Events (requests, reloads) are JSON Lines on standard error, one ``write`` each.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import gc
import ipaddress
import json
import os
import signal
import socket
import sys
import threading
from collections.abc import Sequence
from json.encoder import encode_basestring_ascii as _ascii
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from ..errors import SkillgrantError
from ..gate import files
from ..limits import MAX_REQUEST_BODY_BYTES, MAX_REQUEST_HEADER_BYTES
from .plans import Plans, PlanSpec

if TYPE_CHECKING:
    from .auditlog import AuditLog
    from .registry import Registry
    from .sessionsfile import SessionsFile

#: The port ``serve`` listens on by default.
DEFAULT_PORT = 8750


class ServeOptions(NamedTuple):
    plans: Sequence[PlanSpec]
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT
    token_env: str | None = None
    allow_hosts: Sequence[str] = ()
    audit_log: str | None = None
    max_body: int = MAX_REQUEST_BODY_BYTES
    read_timeout: float = 10.0
    handler_timeout: float = 10.0
    poll: float = 1.0
    workers: int = 8
    observe: bool = False


class StartError(SkillgrantError, ValueError):
    """The service cannot start as asked (a bad address, a missing token)."""


class EventLog:
    """JSON Lines events on a stream, one write each, safe across threads."""

    def __init__(self, stream: IO[str]) -> None:
        from ..gate.audit import stamp

        self._stream = stream
        self._lock = threading.Lock()
        self._stamp = stamp
        self._encode = json.JSONEncoder(ensure_ascii=True).encode

    def __call__(self, event: str, **fields: Any) -> None:
        self._write(self._encode({"time": self._stamp(), "event": event, **fields}) + "\n")

    def request(self, method: str | None, path: str, status: int | None, request_bytes: int,
                response_bytes: int, refused: str | None, ms: float,
                client: str | None) -> None:
        """The ``request`` event (one a request: ``guard.Guard``), as ``self("request",
        ...)`` writes it, written out here field by field (the encoder is made anew at each
        call, which took half of this event's time)."""
        def text(value: str | None) -> str:
            return "null" if value is None else _ascii(value)

        self._write(f'{{"time": "{self._stamp()}", "event": "request", "method": '
                    f'{text(method)}, "path": {_ascii(path)}, "status": '
                    f'{"null" if status is None else int(status)}, "request_bytes": '
                    f'{int(request_bytes)}, "response_bytes": {int(response_bytes)}, '
                    f'"refused": {text(refused)}, "ms": {float(ms)!r}, "client": '
                    f'{text(client)}}}\n')

    def _write(self, line: str) -> None:
        with self._lock:
            try:
                self._stream.write(line)
                self._stream.flush()
            except (OSError, ValueError):
                pass  # a closed or full stream: the event is lost, the request is not


def token(options: ServeOptions) -> str | None:
    """The bearer token, from the environment variable ``--token-env`` names. Raises
    StartError when a non-loopback address has none, or the variable is empty or short."""
    try:
        address = ipaddress.ip_address(options.host)
    except ValueError:
        raise StartError(f"--host must be an IP address, not {options.host!r} (a name could "
                         "resolve anywhere)") from None
    if options.token_env is None:
        if not address.is_loopback:
            raise StartError(f"--host {options.host} is not a loopback address: give "
                             "--token-env VAR, the environment variable holding the token "
                             "clients must send")
        return None
    value = os.environ.get(options.token_env, "")
    if len(value) < 16:
        raise StartError(f"the environment variable {options.token_env} must hold a token of "
                         "at least 16 characters")
    return value


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise StartError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.listen(512)
    sock.set_inheritable(True)
    return sock


def run(options: ServeOptions, out: IO[str] = sys.stdout) -> int:
    """Serve until stopped; the exit status. Raises StartError, PlanError."""
    import uvicorn

    from .app import Service, create_app, front, hook_now
    from .config import base_url
    from .guard import Guard, HostRule
    from .transport import Server, events_of_uvicorn, header_deadline
    from .watched import watched

    secret = token(options)
    log = EventLog(sys.stderr)
    plans = Plans(options.plans, log)
    audit, kept, registry = _records(options, log)
    sock = bind(options.host, options.port)
    port = sock.getsockname()[1]
    view = watched()  # the gate's answers about files, kept while nothing on them changes
    files.use(view)
    service = Service(plans, audit=audit, handler_timeout=options.handler_timeout,
                      workers=options.workers, observe=options.observe, view=view,
                      registry=registry)
    application = front(service, create_app(service))
    guarded = Guard(application, hosts=HostRule(options.host, port, options.allow_hosts),
                    token=secret, max_body=options.max_body, read_timeout=options.read_timeout,
                    hook_refusal=service.refusal, log=log, hook_now=hook_now(service))
    events_of_uvicorn(log)
    config = uvicorn.Config(
        guarded, http=header_deadline(options.read_timeout, MAX_REQUEST_HEADER_BYTES,
                                      guarded.direct, options.max_body),
        ws="none", lifespan="off", proxy_headers=False, access_log=False, log_config=None,
        log_level="warning", server_header=False, date_header=False, timeout_keep_alive=5,
        timeout_graceful_shutdown=int(options.handler_timeout + options.read_timeout) + 1)
    server = Server(config)
    # What start-up built (FastAPI, pydantic, the plans) lives as long as the process: out of
    # the collector's reach, a full collection no longer walks it in the middle of a request.
    gc.collect()
    gc.freeze()

    reloads = concurrent.futures.ThreadPoolExecutor(1, "skillgrant-reload")

    async def main() -> None:
        loop = asyncio.get_running_loop()

        def hangup() -> None:
            if audit is not None:
                try:
                    audit.reopen()
                except OSError as e:
                    log("reopen-failed", path=audit.path, error=str(e))
                try:  # (a rotated log witnesses the sessions file anew: sessionswitness.py)
                    registry.attest()
                except OSError as e:
                    log("witness-failed", path=audit.path, error=str(e))
            loop.run_in_executor(reloads, lambda: plans.reload(force=True))

        loop.add_signal_handler(signal.SIGHUP, hangup)
        watcher = asyncio.create_task(_watch(server, plans, reloads, options.poll))
        announce = asyncio.create_task(_announce(server, out, base_url(options.host, port),
                                                 [p.spec.name for p in plans.served()]))
        try:
            await server.serve(sockets=[sock])
        finally:
            watcher.cancel()
            announce.cancel()
            for pool in (*service.pools, reloads):
                pool.shutdown(wait=False, cancel_futures=True)
            for opened in (audit, kept):
                if opened is not None:
                    opened.close()
            files.use(None)
            if view is not None:
                view.close()
            log("stopped")

    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        runner.run(main())
    return 0


def _records(options: ServeOptions, log: EventLog) -> tuple[AuditLog | None,
                                                           SessionsFile | None, Registry]:
    """The audit log, the sessions file beside it (sessionsfile.py) and the registry read
    back from it. Raises StartError."""
    from .auditlog import AuditLog
    from .registry import Registry
    from .sessionsfile import SessionsFile
    from .userfolder import others_may_write

    try:
        # absolute: what a call must not write is this file wherever the call runs (M-16b)
        audit = AuditLog(os.path.abspath(options.audit_log)) \
            if options.audit_log is not None else None
    except OSError as e:
        raise StartError(f"cannot open the audit log: {e}") from None
    problem = None if audit is None else others_may_write(os.path.dirname(audit.path))
    if audit is not None and problem is not None:
        audit.close()
        raise StartError(f"the audit log {audit.path!r} and its sessions file cannot be kept "
                         f"there: {problem}")
    try:  # which sessions registered, or called first: kept across restarts (registry.py)
        kept = None if audit is None else SessionsFile(_kept_at(audit.path), audit)
    except OSError as e:
        if audit is not None:
            audit.close()
        raise StartError(str(e)) from None
    try:
        return audit, kept, Registry(log, kept)
    except OSError as e:
        for opened in (audit, kept):
            if opened is not None:
                opened.close()
        raise StartError(f"cannot read the sessions file: {e}") from None


def _kept_at(audit_log: str) -> str:
    """The sessions file of ``audit_log``. Raises OSError when a file of a version before lies
    beside the log (it is not read: docs/service.md says how to move it)."""
    from .sessionsfile import beside, path_of

    path = path_of(audit_log)
    if os.path.lexists(beside(audit_log)) and not os.path.lexists(path):
        raise OSError(
            f"{beside(audit_log)!r} is the sessions file of a version before, kept beside the "
            f"audit log; this version keeps it in {path!r}, where every gate guards it: move "
            "it there (the audit log's witness still checks it), or, once no session of before "
            "runs, move both it and the audit log away")
    return path


async def _announce(server: Any, out: IO[str], url: str, names: list[str]) -> None:
    while not server.started:
        await asyncio.sleep(0.01)
    out.write(f"skillgrant serve: listening on {url} (plans: {', '.join(names)})\n")
    out.flush()


async def _watch(server: Any, plans: Plans, pool: concurrent.futures.Executor,
                 every: float) -> None:
    """Reload a plan whose file changed, every ``every`` seconds (0: never)."""
    if every <= 0:
        return
    loop = asyncio.get_running_loop()
    while not server.should_exit:
        await asyncio.sleep(every)
        await loop.run_in_executor(pool, plans.reload)


def _loop_factory() -> Any:
    try:
        import uvloop
    except ImportError:  # the asyncio loop serves too, more slowly
        return None
    return uvloop.new_event_loop
