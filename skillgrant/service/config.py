"""``skillgrant serve --print-config``: Claude Code's settings for an ``http`` hook that sends
each PreToolUse payload to the service.

The hook has ``onFailure: "block"``: Claude Code treats a connection error, a timeout or a
non-2xx answer of an http hook as an error it lets the call through on, unless the hook says to
block (measured: docs/runtime-conformance.md). With it, a service that is down blocks every
tool call until it is back; standard error says so.
"""

from __future__ import annotations

import json
import os
import shlex

from ..gate.config import TIMEOUT_SECONDS, executable
from ..gate.environment import COMPARED, PROJECT, headers


def base_url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def http_hook(url: str, token_env: str | None) -> dict[str, object]:
    """One http hook entry posting to ``url``, with the bearer token from ``token_env``."""
    entry: dict[str, object] = {"type": "http", "url": url, "timeout": TIMEOUT_SECONDS,
                                "onFailure": "block"}
    sent = headers()  # the session's environment, which the service must share (review M-1)
    if token_env is not None:
        sent = {"Authorization": f"Bearer ${{{token_env}}}", **sent}
    entry["headers"] = sent
    entry["allowedEnvVars"] = [*([token_env] if token_env is not None else []), *COMPARED,
                               PROJECT]
    return entry


def session_start_hook(base: str, token_env: str | None) -> dict[str, object]:
    """The SessionStart command hook posting the session's npm variables to ``base``'s
    ``/v1/sessions`` (registry.py): Claude Code fills no lower-case name in a header."""
    words = [*executable(), "session-start", f"{base}/v1/sessions",
             *(["--token-env", token_env] if token_env is not None else [])]
    return {"type": "command", "command": shlex.join(words), "timeout": TIMEOUT_SECONDS}


def snippet(host: str, port: int, plans: list[str], token_env: str | None,
            pin: str | None = None) -> tuple[str, str]:
    """The settings JSON for the first of ``plans``, and what standard error should say; with
    ``pin`` (the hex SHA-256 of that plan's text) in the url, the service denies every call
    once the file holds another plan (issue 29, W1c: the service reloads a changed file)."""
    url = f"{base_url(host, port)}/v1/hook/{plans[0]}"
    if pin is not None:
        url += f"?plan-sha256={pin}"
    body = {"hooks": {
        "SessionStart": [{"hooks": [session_start_hook(base_url(host, port), token_env)]}],
        "PreToolUse": [{"matcher": "*", "hooks": [http_hook(url, token_env)]}]}}
    note = ("Merge into .claude/settings.json (or ~/.claude/settings.json).\n"
            f"The hook sends every PreToolUse payload to {url}. With onFailure: block, Claude "
            "Code blocks the call when the service is down, does not answer within "
            f"{TIMEOUT_SECONDS} s or answers with an error: every tool call is denied until "
            "the service is back. Without onFailure: block it would let those calls through.")
    if token_env is not None:
        note += (f"\nClaude Code fills the token from the environment variable {token_env}: "
                 "set it where Claude Code runs.")
    note += ("\nThe hook sends the session's PATH, HOME, PWD and the other variables the gate "
             "reads; the service decides a call only when they are its own (start it from the "
             "session's environment) and the payload's transcript is in the project folder of "
             "that PWD. A managed httpHookAllowedEnvVars must list them all. Claude Code fills "
             "no lower-case name in a header, so the SessionStart hook registers the "
             "session's npm variables with the service when the session starts or resumes; "
             "a session that did not register (one started before the service, or with "
             "settings printed by an earlier version) has its calls that may write denied: "
             "resume it (claude --resume) before its first call, or as a new session once it "
             "has made one (claude --resume ID --fork-session).")
    if len(plans) > 1:
        others = ", ".join(plans[1:])
        note += f"\nFor another served plan ({others}), put its name at the end of the url."
    return json.dumps(body, indent=2) + "\n", note + "\n"


def kept_note(audit_log: str | None) -> str:
    """What ``--print-config`` says of where the registry is kept, and from whom."""
    if audit_log is None:  # (service/sessionsfile.py: review s51-gfix3 F2b)
        return ("Without --audit-log the sessions' registrations are not kept: after a "
                "restart another session holding the token can register a session's id.\n")
    from ..gate.homefiles import STATE_VARIABLE
    from .sessionsfile import path_of

    try:
        kept = path_of(os.path.abspath(audit_log))
    except OSError as e:
        return f"The sessions file cannot be kept: {e}\n"
    given = os.environ.get(STATE_VARIABLE)
    moved = (f" {STATE_VARIABLE}={given} moves it: give every runtime of this user the same "
             "value, or print their hooks (skillgrant hook --print-config) where it is set, "
             "which carries it (a gate that has neither guards only the usual folder)."
             if given else "")
    return (f"The sessions' registrations are kept in {kept}.{moved} Same-user mode: a "
            "session of this user is kept from it by every skillgrant gate of this version; "
            "run the service as a user of its own, with its audit log and state where only "
            "that user may write, for the OS's boundary (docs/service.md).\n")
