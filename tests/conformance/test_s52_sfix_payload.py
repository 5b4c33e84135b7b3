"""Session 52 (s52-sfix): what the service's reading of a session id from a payload's first
bytes rests on (service/payloadid.py, review s51-greview3 G1), measured on the pinned Claude
Code: its http hook's body begins with the member ``session_id``, before a tool input of any
size, so the id of a call the service denies unread (over a limit, nested past ``json``'s
recursion) is read from the body's first ``SCAN_BYTES``."""

from __future__ import annotations

import http.server
import json
import threading
from pathlib import Path
from typing import Any, ClassVar

from cc_probe import Judge
from gate_sessions import Call, session

from skillgrant.service.payloadid import SCAN_BYTES, session_ids


class _Recorder(http.server.BaseHTTPRequestHandler):
    bodies: ClassVar[list[bytes]] = []

    def do_POST(self) -> None:
        self.bodies.append(self.rfile.read(int(self.headers.get("content-length", 0))))
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: Any) -> None:
        pass


def test_claude_codes_hook_body_begins_with_its_session_id(judge: Judge) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1/hook/x"
    _Recorder.bodies = []

    def hook(work: Path, plan: Path) -> dict[str, Any]:
        return {"type": "http", "url": url, "timeout": 10, "onFailure": "block"}

    long = "touch in1 # " + "x" * (2 * SCAN_BYTES)  # (a tool input past the bytes read)
    try:
        session(judge, [Call("Bash", "touch in0", True), Call("Bash", long, True)],
                hook=hook, plan_text="allowed-tools: []\n")
    finally:
        server.shutdown()
        server.server_close()
    assert len(_Recorder.bodies) >= 2, "the hook was not called"
    for body in _Recorder.bodies:
        sid = json.loads(body)["session_id"]
        assert body.startswith(b'{"session_id":'), body[:80]
        assert session_ids(body) == (sid,)
    assert any(len(body) > SCAN_BYTES for body in _Recorder.bodies)
