"""The ``serve`` benchmark's requests in one process, without sockets: uvicorn's protocol (the
service's own, ``service/transport.py``; plain httptools for the others) fed each request's
bytes through an in-memory transport on uvloop, as the event loop would. What is left out is
the same for every target (the system calls, the client), so CPU time and instruction counts
per request compare the applications and their layers alone (issue 29).

    python benchmarks/inprocess.py serve|bare|raw N

``serve`` is the service as ``skillgrant serve`` builds it (guard, hook path, watched view,
no audit log); ``bare`` is benchmarks/bare_app.py; ``raw`` an ASGI function answering an
empty body. It runs 300 requests, then N, and prints the CPU time per request of the N.
Instructions of the N alone: ``valgrind --tool=callgrind --collect-atstart=no
--toggle-collect=_operator_call python benchmarks/inprocess.py KIND N``, over N (they run in
a call of ``operator.call``).
``CHECK=1`` prints each payload's answer first; ``NODIRECT=1`` sends the service's hook
requests through uvicorn's ASGI cycle (no answer in line: ``transport.HeadLimited.direct``);
``GCOFF=1`` stops the collector for the N (a full collection landing in one run and not the
other moves a count by ~10%).
"""

from __future__ import annotations

import asyncio
import gc
import json
import operator
import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import uvicorn
import uvloop
from load import SESSION_FOLDER, _requests, _session
from memory_transport import PORT, MemoryTransport
from run import GATE_CALLS, GATE_PLAN
from uvicorn.server import ServerState


def _config(which: str, folder: Path, payloads: list[bytes]) -> uvicorn.Config:
    if which == "serve":
        from skillgrant.gate import files
        from skillgrant.limits import MAX_REQUEST_HEADER_BYTES
        from skillgrant.service.app import Service, create_app, front, hook_now
        from skillgrant.service.guard import Guard, HostRule
        from skillgrant.service.plans import Plans, PlanSpec
        from skillgrant.service.server import EventLog
        from skillgrant.service.transport import header_deadline
        from skillgrant.service.watched import watched

        plan = folder / "bench.json"
        plan.write_text(json.dumps({"allowed-tools": list(GATE_PLAN)}))
        log = EventLog(open(os.devnull, "w"))  # noqa: SIM115 (the process's whole life)
        view = watched()
        files.use(view)
        service = Service(Plans([PlanSpec("bench", str(plan))], log), audit=None,
                          handler_timeout=10.0, view=view)
        from skillgrant.service.registry import REGISTERED  # (its SessionStart hook)

        service.registry.register("s", {n: os.environ.get(n) for n in REGISTERED})
        app: Any = Guard(front(service, create_app(service)), hosts=HostRule("127.0.0.1", PORT),
                         token=None, max_body=1_000_000, read_timeout=10.0,
                         hook_refusal=service.refusal, log=log,
                         hook_now=None if os.environ.get("NODIRECT") else hook_now(service))
        return uvicorn.Config(app, http=header_deadline(10.0, MAX_REQUEST_HEADER_BYTES,
                                                        app.direct),
                              ws="none", lifespan="off", proxy_headers=False, access_log=False,
                              log_config=None, server_header=False, date_header=False,
                              timeout_keep_alive=5)  # as server.run configures it
    if which == "bare":
        answers = folder / "answers.json"
        answers.write_text(json.dumps({p.decode(): "" for p in payloads}))
        os.environ["BARE_ANSWERS"] = str(answers)
        import bare_app

        return uvicorn.Config(bare_app.app, http="httptools", access_log=False)

    async def raw(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"application/json"), (b"content-length", b"0")]})
        await send({"type": "http.response.body", "body": b""})

    return uvicorn.Config(raw, http="httptools", access_log=False)


async def _main(which: str) -> Callable[[int], Awaitable[float]]:
    """The target made and warmed up (300 requests); the coroutine function that runs N more
    and gives their CPU time."""
    transcript = _session(dict(os.environ))[1]
    payloads = [json.dumps({"session_id": "s", "transcript_path": transcript,
                            "cwd": SESSION_FOLDER, "hook_event_name": "PreToolUse",
                            "tool_name": tool, "tool_input": given}).encode()
                for tool, given in GATE_CALLS]
    requests = _requests(PORT, payloads, dict(os.environ))
    config = _config(which, Path(tempfile.mkdtemp()), payloads)
    config.load()
    state = ServerState()
    protocol = config.http_protocol_class(config=config, server_state=state, app_state={},
                                          _loop=asyncio.get_running_loop())
    transport = MemoryTransport()
    protocol.connection_made(transport)

    async def one(request: bytes) -> bytes:
        transport.written.clear()
        protocol.data_received(request)
        await asyncio.sleep(0)
        while state.tasks:
            await asyncio.sleep(0)
        return b"".join(transport.written)

    if os.environ.get("CHECK"):
        for request in requests:
            print((await one(request))[:300])
    for i in range(300):
        await one(requests[i % len(requests)])
    assert not transport.closed

    async def measured(count: int) -> float:
        started = time.process_time()
        for i in range(count):
            await one(requests[i % len(requests)])
        return time.process_time() - started

    return measured


def main(which: str, count: int) -> None:
    loop = uvloop.new_event_loop()
    asyncio.set_event_loop(loop)
    measured = loop.run_until_complete(_main(which))
    gc.collect()
    gc.freeze()
    if os.environ.get("GCOFF"):
        gc.disable()
    # In a call of a C function of its own: ``--toggle-collect=_operator_call`` counts these.
    spent = operator.call(loop.run_until_complete, measured(count))
    print(f"{which}: {spent / max(count, 1) * 1e6:.1f} µs of CPU a request over {count}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
