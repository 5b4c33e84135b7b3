"""A real ``skillgrant serve`` process for tests: started on a free loopback port, asked over
real sockets (``http.client``), stopped by a signal. Nothing is mocked."""

from __future__ import annotations

import http.client
import json
import os
import re
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from skillgrant.gate.environment import HEADER, headers
from skillgrant.service.payloadid import session_ids
from skillgrant.service.registry import REGISTERED

#: Seconds a service may take to start (it imports FastAPI and uvicorn).
START_SECONDS = 30


class Reply(NamedTuple):
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def _whole_answer(got: bytes) -> bool:
    """Whether ``got`` holds an HTTP answer's head and all of the body its ``Content-Length``
    or chunked encoding says, after any interim ``1xx`` answers (an answer without either ends
    when the connection does)."""
    head, cut, body = got.partition(b"\r\n\r\n")
    if not cut:
        return False
    if head.startswith(b"HTTP/1.1 1"):
        return _whole_answer(body)
    fields = dict(line.split(b":", 1) for line in head.split(b"\r\n")[1:] if b":" in line)
    fields = {name.strip().lower(): value.strip().lower() for name, value in fields.items()}
    if fields.get(b"transfer-encoding") == b"chunked":
        return body.endswith(b"0\r\n\r\n")
    length = fields.get(b"content-length")
    return length is not None and length.isdigit() and len(body) >= int(length)


class Served:
    """A running service: its process, address and the file its standard error goes to."""

    def __init__(self, process: subprocess.Popen[str], url: str, errors: Path,
                 env: Mapping[str, str]) -> None:
        self.process = process
        self.env = env  # the service's environment: the session's, as a request carries it
        self.url = url
        parts = urlsplit(url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.errors = errors
        self.registered: set[str] = set()

    def register(self, session_id: str, env: Mapping[str, str | None] | None = None,
                 headers: Mapping[str, str] | None = None) -> Reply:
        """Register ``session_id`` as the SessionStart hook ``skillgrant session-start``
        does, with the npm variables of ``env`` (default: the service's own)."""
        given = self.env if env is None else env
        body = {"session_id": session_id, "source": "startup",
                "environment": {n: given.get(n) for n in REGISTERED}}
        reply = self.request("POST", "/v1/sessions", body, headers=headers)
        if reply.status == 200:
            self.registered.add(session_id)
        return reply

    def request(self, method: str, path: str, body: bytes | object | None = None,
                headers: Mapping[str, str] | None = None, timeout: float = 30,
                session: bool = True, register: bool = True) -> Reply:
        """``method`` on ``path``. A hook request with ``session`` (the default), as Claude Code
        sends an http hook's request from a session in the service's environment: the headers
        ``--print-config`` prints, filled, and a payload object's ``transcript_path`` in the
        project folder of its ``cwd`` (review M-1), its ``session_id`` registered first
        with the service's npm variables, as the SessionStart hook does (unless not
        ``register``)."""
        data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
        sent = {"Content-Type": "application/json"} if data is not None else {}
        if session and "/hook" in path.lower() and data is not None:
            sid = _session_id(data)
            if register and sid is not None and sid not in self.registered:  # SessionStart
                self.register(sid, headers=headers)
            folder = _cwd(data)
            data = with_transcript(data, transcript(self.env, folder))
            sent.update(session_headers(self.env, folder))
        sent.update(headers or {})
        connection = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            return Reply(response.status, {k.lower(): v for k, v in response.getheaders()},
                         response.read())
        finally:
            connection.close()

    def raw(self, data: bytes, wait: float = 10) -> bytes:
        """Send ``data`` on a fresh connection as it is, and read until the service closes it
        (or resets it), one whole answer has arrived (the connection may stay open for the
        next request: waiting out its idle timeout would tell nothing more), or ``wait``
        seconds pass without a byte."""
        with socket.create_connection((self.host, self.port), timeout=wait) as sock:
            sock.sendall(data)
            got = b""
            try:
                while not _whole_answer(got) and (chunk := sock.recv(65536)):
                    got += chunk
            except (TimeoutError, ConnectionResetError):
                pass
            return got

    def post(self, path: str, body: bytes | object, **kwargs: Any) -> Reply:
        return self.request("POST", path, body, **kwargs)

    def events(self) -> list[dict[str, Any]]:
        """The JSON Lines events written to standard error so far."""
        found = []
        for line in self.errors.read_text().splitlines():
            if line.startswith("{"):
                found.append(json.loads(line))
        return found

    def stop(self, sig: int = signal.SIGTERM, timeout: float = 30) -> int:
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            return self.process.wait(timeout)
        finally:
            if self.process.stdout is not None:
                self.process.stdout.close()

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.stop()


def session_headers(env: Mapping[str, str], folder: str) -> dict[str, str]:
    """The headers Claude Code sends for the printed http hook, in a session whose environment
    is ``env`` started in ``folder``."""
    values = {**env, "PWD": folder}
    return {name: f"<{values.get(name[len(HEADER):], '')}>" for name in headers()}


def _session_id(data: bytes) -> str | None:
    """The payload's session id, as the service reads it: by ``json``, or, from a payload it
    cannot read, by its first bytes (service/payloadid.py: such a call notes the id too)."""
    try:
        payload = json.loads(data)
    except (ValueError, RecursionError):
        return next(iter(session_ids(data)), None)
    found = payload.get("session_id", payload.get("sessionId")) \
        if isinstance(payload, dict) else None
    return found if isinstance(found, str) else None


def _cwd(data: bytes) -> str:
    try:
        found = json.loads(data).get("cwd", "/")
    except (ValueError, AttributeError, RecursionError):
        return "/"
    if not isinstance(found, str) or not found.isprintable():
        return "/"
    try:  # a header's value: Latin-1, one line
        found.encode("latin-1")
    except UnicodeEncodeError:
        return "/"
    return found or "/"


def with_transcript(data: bytes, path: str) -> bytes:
    """A payload object's text with ``"transcript_path"`` written first, every other byte as
    it was (a hostile payload stays as hostile); other texts as they are."""
    stripped = data.lstrip()
    if not stripped.startswith(b"{") or b'"transcript_path"' in data:
        return data
    rest = stripped[1:]
    key = b'"transcript_path": ' + json.dumps(path).encode()
    return data[:len(data) - len(stripped)] + b"{" + key + (
        b"" if rest.lstrip().startswith(b"}") else b", ") + rest


def transcript(env: Mapping[str, str], folder: str) -> str:
    """Where Claude Code keeps the transcript of a session started in ``folder``."""
    config = env.get("CLAUDE_CONFIG_DIR") or os.path.join(env.get("HOME", ""), ".claude")
    return os.path.join(config, "projects", re.sub(r"[^a-zA-Z0-9]", "-", folder), "t.jsonl")


def start(plans: Sequence[str], *options: str, env: Mapping[str, str] | None = None,
          cwd: str | Path | None = None) -> Served:
    """``skillgrant serve --plan P ... --port 0 OPTIONS``, once it says it is listening."""
    errors = Path(tempfile.mkstemp(prefix="sg-serve-", suffix=".log")[1])
    # (-P: as the console script, the folder it starts in is not first on its sys.path,
    # which the gate would guard whole: guards._imported_from)
    argv = [sys.executable, "-P", "-m", "skillgrant", "serve", "--port", "0"]
    for plan in plans:
        argv += ["--plan", plan]
    with errors.open("w") as err:
        process = subprocess.Popen([*argv, *options], stdout=subprocess.PIPE, stderr=err,
                                   text=True, cwd=cwd, env={**os.environ, **(env or {})})
    assert process.stdout is not None
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if selector.select(timeout=0.2):
                line = process.stdout.readline()
                if "listening on " in line:
                    url = line.split("listening on ", 1)[1].split()[0]
                    return Served(process, url, errors, {**os.environ, **(env or {})})
                if not line:
                    break
            if process.poll() is not None:
                break
    process.kill()
    process.wait()
    process.stdout.close()
    raise RuntimeError(f"the service did not start: {errors.read_text()[-2000:]}")


def registering(folder: Path, token_env: str, token: str) -> Served:
    """``start`` of the sessions tests' service: plan ``p`` (``Bash(touch *)``, reads and edits
    of ``/srv``) in ``folder``, bearer ``token`` in ``token_env``, every variable a session
    registers unset in its environment."""
    plan = folder / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(touch *)", "Read(//srv/**)",
                                                  "Edit(//srv/**)"]}))
    env = {name: "" for name in REGISTERED} | {token_env: token}
    return start([f"p={plan}"], "--token-env", token_env, env=env)
