"""Session 49 (s49-servespeed): npm's lower-case configuration variables under ``skillgrant
serve``, through the pinned Claude Code.

Measured on 2.1.332: an http hook's header value is filled only for names matching
``[A-Z_][A-Z0-9_]*`` (the binary's interpolation), so ``<${npm_config_userconfig}>`` is sent
as written; and two headers whose names differ only by case are sent as one line (axios: the
first name's spelling, the last value). The printed hook's ``...-npm_config_userconfig``
header therefore carries the session's ``NPM_CONFIG_USERCONFIG``, and a session that sets the
lower-case spelling alone is compared as if it had not set it (session 48's finding, open
through the runtime: s48's denial of a header sent twice never sees two lines). Closed in
session 50: the SessionStart hook ``serve --print-config`` prints registers the session's
npm variables with the service (service/registry.py; test_s50_session_start.py).
"""

from __future__ import annotations

import http.server
import json
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any, ClassVar

from cc_probe import Judge
from gate_sessions import Call, denied_by_gate, session
from review_table import LeftOpen
from test_service_e2e import ServiceHook

#: (tests/conftest.py reads a module's ``OPEN``). s49's row is gone: closed in session 50 by
#: the SessionStart registration (service/registry.py), passing through the runtime.
OPEN = LeftOpen()


class _Recorder(http.server.BaseHTTPRequestHandler):
    seen: ClassVar[list[list[tuple[str, str]]]] = []

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length", 0)))
        self.seen.append(list(self.headers.raw_items()))
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: Any) -> None:
        pass


def test_claude_code_fills_only_upper_case_names_and_sends_case_paired_headers_once(
        judge: Judge) -> None:
    """The two facts above, as the runtime sends the headers (the hook answers ``{}``)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1/hook/x"
    _Recorder.seen = []

    def hook(work: Path, plan: Path) -> dict[str, Any]:
        return {"type": "http", "url": url, "timeout": 10, "onFailure": "block",
                "headers": {"X-P-foo_bar": "<${foo_bar}>", "X-P-FOO_BAR": "<${FOO_BAR}>",
                            "X-Q-foo_bar": "<${foo_bar}>"},
                "allowedEnvVars": ["foo_bar", "FOO_BAR"]}

    try:
        session(judge, [Call("Bash", "touch in1", True)], hook=hook,
                plan_text="allowed-tools: []\n", env={"foo_bar": "low", "FOO_BAR": "UP"})
    finally:
        server.shutdown()
        server.server_close()
    assert _Recorder.seen, "the hook was not called"
    for received in _Recorder.seen:
        paired = [(k, v) for k, v in received if k.lower() == "x-p-foo_bar"]
        assert paired == [("X-P-foo_bar", "<UP>")], received
        assert ("X-Q-foo_bar", "<${foo_bar}>") in received, received


def test_a_session_setting_npm_config_userconfig_alone_has_its_npmrc_guarded(
        judge: Judge) -> None:
    """The session names its npm user settings in lower case (as ``npx`` does for what it
    runs); the service, started without it, must not allow a write of that file that the
    ``skillgrant hook`` command in the session denies (the file is guarded: s46 N2)."""
    folder = Path(tempfile.mkdtemp(prefix="sg-npm-", dir="/var/tmp"))
    try:
        npmrc = folder / "npmrc"
        plan = f"allowed-tools:\n  - Edit(//{str(folder).lstrip('/')}/**)\n"
        hook = ServiceHook()
        try:
            done = session(judge, [Call("Write", str(npmrc), False)], hook=hook,
                           plan_text=plan, env={"npm_config_userconfig": str(npmrc)})
        finally:
            hook.stop()
        result = next(iter(done.results.values()))
        assert denied_by_gate(result), json.dumps(result)
        # (by the registered value, not for a session that did not register)
        assert "npm_config_userconfig differs from the service's" in result[1], result
        assert not npmrc.exists()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
