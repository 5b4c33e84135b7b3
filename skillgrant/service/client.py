"""``skillgrant session-start URL``: Claude Code's ``SessionStart`` command hook for ``skillgrant
serve`` (registry.py). It reads the hook's payload on standard input and posts the
``session_id`` with the session's npm variables (``registry.carried``, as this process
inherits them: the environment the session's tools run in) to the service's
``/v1/sessions``. Standard library only (no FastAPI): it runs where Claude Code runs.

Exit 0 when the service registered the values (or had the same); 2 otherwise, saying why on
standard error (every error of the command line exits 2: docs/cli.md; Claude Code shows a
SessionStart hook's failure and starts the session anyway). A session that did not register
has its calls denied by the service.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request

from ..limits import MAX_HOOK_PAYLOAD_BYTES
from .registry import carried

#: Seconds the post may take (the hook's own timeout is longer).
TIMEOUT_SECONDS = 10


def session_start(url: str, token_env: str | None, stdin: bytes | None = None) -> int:
    """Register the session the payload (``stdin``, else standard input) names; the exit
    status."""
    try:
        data = stdin if stdin is not None else sys.stdin.buffer.read(MAX_HOOK_PAYLOAD_BYTES + 1)
        payload = json.loads(data)
    except (ValueError, OSError) as e:
        return _fail(f"the hook's payload is not JSON ({e})")
    # (Copilot CLI's payloads spell it sessionId: s50-sreview)
    session = payload.get("session_id", payload.get("sessionId")) \
        if isinstance(payload, dict) else None
    if not isinstance(session, str) or not session:
        return _fail("the hook's payload has no session_id")
    headers = {"Content-Type": "application/json"}
    if token_env is not None:
        token = os.environ.get(token_env)
        if not token:
            return _fail(f"the token's variable {token_env} is not set")
        headers["Authorization"] = f"Bearer {token}"
    body = json.dumps({"session_id": session, "source": payload.get("source"),
                       "environment": {n: v for n, v in os.environ.items() if carried(n)}})
    request = urllib.request.Request(url, body.encode("utf-8"), headers, method="POST")
    # no proxy: the service is on this machine, and a proxy would see the token
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(request, timeout=TIMEOUT_SECONDS) as answer:
            answer.read(65_536)
    except urllib.error.HTTPError as e:
        return _fail(f"the service refused the registration ({e.code}): {_message(e)}")
    except (urllib.error.URLError, OSError, ValueError) as e:
        return _fail(f"the service at {url} cannot be reached ({e})")
    return 0


def _message(error: urllib.error.HTTPError) -> str:
    try:
        return str(json.loads(error.read(65_536))["error"]["message"])
    except (ValueError, KeyError, TypeError, OSError):
        return "no message"


def _fail(why: str) -> int:
    print(f"skillgrant session-start: {why}; the service denies this session's calls that "
          "may write",
          file=sys.stderr)
    return 2
