"""Session-43 review of ``skillgrant serve``'s in-line answer path (s43-serve: transport.
HeadLimited's ``_direct``/``_release``/``_answer``, ``Guard.direct``, ``Service.hook_now``) and
of the protocol's bounds around it. Each test is a sequence of bytes on real sockets (or fed to
the protocol) after which the service must have answered as the report's invariant says; a test
that fails here is a finding (report: /work/wt/reports/s43-sreview-report.md)."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import Served, start

#: Real sockets and a real service (seconds each): CI's slow step runs them
#: (.ci/steps/30-slow.sh), as `pytest --slow -m slow` does here.
pytestmark = [pytest.mark.slow]

PLAN = ["Bash(git status)", "Bash(npm *)"]


def _plan(folder: Path) -> Path:
    path = folder / "p.json"
    path.write_text(json.dumps({"allowed-tools": PLAN}))
    return path


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    # a long read timeout: a connection closed within the test's seconds was cut, not timed out
    with start([str(_plan(tmp_path_factory.mktemp("s43sreview")))],
               "--read-timeout", "60") as service:
        yield service


def _closed_soon(sock: socket.socket, seconds: float) -> bool:
    """Whether the service closed (or reset) the connection within ``seconds``, reading and
    dropping whatever it answered first."""
    sock.settimeout(seconds)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            if not sock.recv(65536):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False
    return False


def test_s1_a_chunked_bodys_trailer_is_bounded_as_a_head_is(served: Served) -> None:
    """S1: a chunked body's trailer section (header lines after the last chunk) is parsed by
    httptools as headers (each kept in ``headers``, its value grown piece by piece) but counted
    by nothing: the head's limit (``HeadLimited``) stops at the end of the head, the body's
    limit (``Guard._chunks``) counts only chunk data. One client sending one endless trailer
    value made the service's memory grow by ~140 MB in 8 s and stalled every other client's
    request by up to 3.8 s (a /v1/health probe), until the read timeout. A trailer past the
    head's limit must cut the connection, as a head past it does."""
    from skillgrant.limits import MAX_REQUEST_HEADER_BYTES

    sock = socket.create_connection((served.host, served.port), timeout=30)
    with sock:
        sock.sendall(f"POST /v1/hook/p HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n"
                     "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                     "2\r\n{}\r\n0\r\nX-Trailer: ".encode())
        piece = b"a" * 65536
        sent = 0
        try:
            while sent < 128 * MAX_REQUEST_HEADER_BYTES:  # 8 MiB of one trailer's value
                sock.sendall(piece)
                sent += len(piece)
        except (ConnectionResetError, BrokenPipeError):
            return  # cut off while sending: bounded
        assert _closed_soon(sock, 5.0), f"{sent} bytes of one trailer taken, still open"
