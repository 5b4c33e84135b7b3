"""Session 52 review (s52-sreview) of s52-sfix: the service's session registry against a real
``skillgrant serve``.

The rule under review (docs/service.md): a registration must precede a session's first call;
a call the service denies before it reads the payload notes its id too (G1), and with
``--audit-log`` the registry is kept in ``<audit-log>.sessions`` and read back at start (F2b).
A hole is a call of a victim session after which another session holding the token (every
session's Bash tool has it) can register the victim's id: the victim's writing calls are then
decided with values that are not the victim's (review s50-sreview F2: its npmrc unguarded).

- Every shape a runtime's request can take (Claude Code writes ``session_id`` first, and a
  ``Content-Length``: the binary says so) notes the id, and the shapes it cannot take are
  pinned as they are (``test_a_request_notes_its_id_or_is_no_runtimes``).
- A sessions file emptied, cut at a record's end, or removed between two runs is read as a
  fresh registry: nothing records how long it was, and the audit log beside it cannot tell
  (a denial's record there has ``session_id: null``) (``test_a_changed_sessions_file_*``).
- The gate guarded the sessions file from the service's own sessions only: a session gated by
  the ``skillgrant hook`` command (its own plan, its own audit log) emptied it with a covered
  ``cp`` (``test_a_session_of_another_gate_empties_the_sessions_file``; held since session 53,
  which keeps the file in the home's state folder that every gate guards).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from review_table import LeftOpen
from serving import Served, session_headers, start
from statehome import scratch_state  # noqa: F401 (autouse: a state folder of its own)

from skillgrant.gate.config import snippet
from skillgrant.service.registry import REGISTERED
from skillgrant.service.sessionsfile import HEADER, path_of

pytestmark = pytest.mark.slow

OPEN = LeftOpen()

TOKEN_ENV = "SG_S52SREVIEW_TOKEN"
TOKEN = "s52sreview-token-0123456789"
NPMRC = "/srv/project/npmrc"
MAX_BODY = 1_000_000


def _plan(folder: Path) -> Path:
    plan = folder / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [
        "Bash(touch *)", "Read(//srv/**)", "Edit(//srv/**)", "Bash(npm run test)",
        f"Edit(/{folder}/victim/**)"]}))
    return plan


def _serve(folder: Path, *options: str) -> Served:
    env = {name: "" for name in REGISTERED} | {TOKEN_ENV: TOKEN}
    return start([f"p={_plan(folder)}"], "--token-env", TOKEN_ENV,
                 "--max-body-bytes", str(MAX_BODY), "--read-timeout", "2", *options, env=env)


def _register(served: Served, sid: str) -> Any:
    """Another session's Bash tool posting ``sid`` (curl with the token)."""
    body = {"session_id": sid, "source": "startup", "environment": dict.fromkeys(REGISTERED)}
    return served.request("POST", "/v1/sessions", body,
                          headers={"Authorization": f"Bearer {TOKEN}"})


def _write(served: Served, sid: str) -> str:
    """The victim's Write of its npmrc: the reason of the denial, or "allowed"."""
    payload = {"session_id": sid, "cwd": "/srv/project", "hook_event_name": "PreToolUse",
               "tool_name": "Write", "tool_input": {"file_path": NPMRC, "content": "x"}}
    reply = served.post("/v1/hook/p", payload, register=False,
                        headers={"Authorization": f"Bearer {TOKEN}"})
    assert reply.status == 200
    return str(json.loads(reply.body)["hookSpecificOutput"]["permissionDecisionReason"]) \
        if reply.body else "allowed"


# --- G1: which requests note their id ----------------------------------------------------------

def _payload(sid: str) -> bytes:
    """Claude Code's PreToolUse payload, its members in the binary's order."""
    return json.dumps({"session_id": sid, "transcript_path": "/none", "cwd": "/srv/project",
                       "permission_mode": "default", "hook_event_name": "PreToolUse",
                       "tool_name": "Read", "tool_input": {"file_path": "/srv/project/a"}}
                      ).encode()


def _big(sid: str, size: int, before: int = 0) -> bytes:
    pad = {"pad": "y" * before} if before else {}
    return json.dumps({**pad, "session_id": sid, "cwd": "/srv/project",
                       "hook_event_name": "PreToolUse", "tool_name": "Write",
                       "tool_input": {"file_path": "/srv/project/b", "content": "x" * size}}
                      ).encode()


def _head(s: Served, body: bytes, *, path: str = "/v1/hook/p", length: str | None = None,
          extra: tuple[str, ...] = (), version: str = "1.1",
          kinds: tuple[str, ...] = ("application/json",), method: str = "POST") -> bytes:
    """A hook request's head as the printed http hook's (the session's headers), by hand."""
    lines = [f"{method} {path} HTTP/{version}", f"Host: 127.0.0.1:{s.port}",
             *(f"Content-Type: {k}" for k in kinds), f"Authorization: Bearer {TOKEN}"]
    if length != "":
        lines.append(f"Content-Length: {len(body) if length is None else length}")
    lines += [f"{k}: {v}" for k, v in session_headers(s.env, "/srv/project").items()]
    return ("\r\n".join([*lines, *extra]) + "\r\n\r\n").encode("latin-1") + body


def _chunked(s: Served, body: bytes) -> bytes:
    framed = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 65536]), body[i:i + 65536])
                      for i in range(0, len(body), 65536))
    return _head(s, framed + b"0\r\n\r\n", length="", extra=("Transfer-Encoding: chunked",))


def _dup(sid: str) -> bytes:
    return b'{"session_id":"' + sid.encode() + b'",' + _payload("other-of-" + sid)[1:]


#: Requests a session's runtime can send: each notes the id it names (a registration after it
#: is ``late``). Claude Code 2.1.332 sends one Content-Type, a Content-Length ("Content-Length
#: and Transfer-Encoding given here are ignored: Claude Code works out the request's length
#: from its body", its hook schema) and its payload's ``session_id`` first.
NOTED: dict[str, Callable[[Served, str], bytes]] = {
    "decided": lambda s, sid: _head(s, _payload(sid)),
    "cut-json": lambda s, sid: _head(s, _payload(sid)[:60]),
    "id-escaped": lambda s, sid: _head(s, _payload(sid).replace(
        sid[-1].encode(), b"\\u%04x" % ord(sid[-1]), 1)),
    "key-escaped": lambda s, sid: _head(s, _payload(sid).replace(b'"session_id"',
                                                                 b'"session\\u005fid"')),
    "space-first": lambda s, sid: _head(s, b"\n\t " + _payload(sid)),
    "charset": lambda s, sid: _head(s, _payload(sid), kinds=("application/json; charset=utf-8",)),
    "over-max-body": lambda s, sid: _head(s, _big(sid, MAX_BODY + 100_000)),
    "over-max-chunked": lambda s, sid: _chunked(s, _big(sid, MAX_BODY + 100_000)),
    "small-chunked": lambda s, sid: _chunked(s, _payload(sid)),
    "http-1.0": lambda s, sid: _head(s, _payload(sid), version="1.0"),
    "expect-100": lambda s, sid: _head(s, _payload(sid), extra=("Expect: 100-continue",)),
    "path-upper": lambda s, sid: _head(s, _payload(sid), path="/V1/HOOK/p"),
    "path-slashes": lambda s, sid: _head(s, _payload(sid), path="//v1/hook/p"),
    "path-escaped": lambda s, sid: _head(s, _payload(sid), path="/v1/hook/%70"),
    "nan-first": lambda s, sid: _head(s, b'{"t":NaN,' + _payload(sid)[1:]),
    "bad-utf8-after": lambda s, sid: _head(s, _payload(sid)[:-1] + b',"z":"\xff"}'),
    "surrogate-after": lambda s, sid: _head(s, _payload(sid)[:-1] + b',"z":"\\ud800"}'),
    "id-after-20k": lambda s, sid: _head(s, _big(sid, 10, before=20_000)),
}
#: Requests no runtime sends, which note nothing: pinned as they are.
UNNOTED: dict[str, Callable[[Served, str], bytes]] = {
    # documented (docs/service.md, the G1 cost): a body the guard never reads
    "content-type-text": lambda s, sid: _head(s, _payload(sid), kinds=("text/plain",)),
    "content-type-twice": lambda s, sid: _head(s, _payload(sid), kinds=("application/json",) * 2),
    "put": lambda s, sid: _head(s, _payload(sid), method="PUT"),
    "length-plus": lambda s, sid: _head(s, _payload(sid), length=f"+{len(_payload(sid))}"),
    # decided whole as json reads it: its last member names another id (noted instead)
    "id-twice": lambda s, sid: _head(s, _dup(sid)),
    # json cannot read a byte order mark; the first bytes are read from a '{' only
    "byte-order-mark": lambda s, sid: _head(s, b"\xef\xbb\xbf" + _payload(sid)),
    # past the first 16 KiB and over the payload limit: never read
    "id-after-20k-over-limit": lambda s, sid: _head(s, _big(sid, MAX_BODY + 100_000,
                                                            before=20_000)),
    # a chunked body past twice --max-body-bytes: the protocol cuts the connection (no answer)
    "over-twice-max-chunked": lambda s, sid: _chunked(s, _big(sid, 2 * MAX_BODY + 300_000)),
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("s52sreview")
    with _serve(folder) as service:
        yield service
        service.stop()


@pytest.mark.parametrize("case", [*NOTED, *UNNOTED])
def test_a_request_notes_its_id_or_is_no_runtimes(served: Served, case: str) -> None:
    sid = f"victim-{case}"
    make = NOTED.get(case) or UNNOTED[case]
    served.raw(make(served, sid), wait=6)
    posted = _register(served, sid)
    if case in NOTED:
        assert posted.status == 409 and b"late" in posted.body, (posted.status, posted.body)
    else:
        assert posted.status == 200, (posted.status, posted.body)


# --- F2b: the sessions file between two runs ---------------------------------------------------

def _cut_last_newline(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-1])


#: What the sessions file may become between two runs of the service, by a writer the gate of
#: its own sessions does not stop (the operator, a rotation, another gate's session: below).
CHANGED: dict[str, Callable[[Path], object]] = {
    "emptied": lambda p: p.write_bytes(b""),
    "header-only": lambda p: p.write_bytes(HEADER),
    "last-newline-cut": _cut_last_newline,
    "removed": lambda p: p.unlink(),
    "not-a-sessions-file": lambda p: p.write_bytes(b"kept notes of the operator"),
}


@pytest.mark.parametrize("change", list(CHANGED))
def test_a_changed_sessions_file_refuses_the_start_or_keeps_the_victim_late(
        tmp_path: Path, change: str) -> None:
    """The victim called before registering (its id late: a ``c`` record); the file changes;
    the restarted service either refuses to start (exit 2: docs/service.md, "never guesses
    which ids called") or keeps the id late."""
    audit = tmp_path / "audit.log"
    with _serve(tmp_path, "--audit-log", str(audit)) as before:
        assert "registered no environment" in _write(before, "victim")
        before.stop(signal.SIGTERM)
    sessions = Path(path_of(str(audit)))
    CHANGED[change](sessions)
    kept = sessions.read_bytes() if sessions.exists() else None
    try:
        after = _serve(tmp_path, "--audit-log", str(audit))
    except RuntimeError as e:  # it refused to start: the sound outcome
        assert "sessions file" in str(e)
        return
    with after:
        posted = _register(after, "victim")
        written = _write(after, "victim")
        after.stop()
    assert change != "not-a-sessions-file" or sessions.read_bytes() == kept, \
        "the service cut a file that is not a sessions file to nothing"
    assert posted.status == 409 and b"late" in posted.body, (posted.status, written)


def _decided(served: Served, sid: str, folder: Path, tool: str, **given: str) -> str:
    """A call of the session ``sid`` in ``folder``: the denial's reason, or "allowed"."""
    payload = {"session_id": sid, "cwd": str(folder), "hook_event_name": "PreToolUse",
               "tool_name": tool, "tool_input": given}
    reply = served.post("/v1/hook/p", payload, register=False,
                        headers={"Authorization": f"Bearer {TOKEN}"})
    assert reply.status == 200
    return str(json.loads(reply.body)["hookSpecificOutput"]["permissionDecisionReason"]) \
        if reply.body else "allowed"


def test_a_session_of_another_gate_empties_the_sessions_file(tmp_path: Path) -> None:
    """The victim runs with ``npm_config_userconfig`` set (no header carries it; the service
    has none), its SessionStart failed, and its Write of that npmrc was denied (its id late).
    A session gated by the ``skillgrant hook`` command (the printed command hook, its own plan
    ``Bash(cp /dev/null *)``) is allowed ``cp /dev/null <audit-log>.sessions`` of a service it
    does not use, and real bash empties the file. After the service's restart it registers the
    victim's id with the service's values; the victim's Write of its npmrc (``script-shell``)
    and its ``npm run test`` are allowed, and real npm runs the payload."""
    if shutil.which("npm") is None:
        pytest.skip("not installed: npm")
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "package.json").write_text(json.dumps({"name": "v", "version": "1.0.0",
                                                     "scripts": {"test": "echo ok"}}))
    payload = tmp_path / "payload.sh"
    payload.write_text(f"#!/bin/sh\ntouch {victim}/zz\n")
    payload.chmod(0o755)
    npmrc = victim / "npmrc"
    logs = tmp_path / "logs"
    logs.mkdir()
    audit = logs / "audit.log"
    with _serve(tmp_path, "--audit-log", str(audit)) as before:
        denied = _decided(before, "victim", victim, "Write", file_path=str(npmrc), content="")
        assert "registered no environment" in denied
        other = tmp_path / "other"
        other.mkdir()
        plan = other / "plan.json"
        plan.write_text(json.dumps({"allowed-tools": ["Bash(cp /dev/null *)"]}))
        printed = json.loads(snippet("claude-code", {"--plan": str(plan)})[0])
        hook = printed["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        call = f"cp /dev/null {path_of(str(audit))}"
        asked = subprocess.run(["/bin/sh", "-c", hook], cwd=other, capture_output=True,
                               timeout=60, check=False, input=json.dumps({
                                   "session_id": "other", "hook_event_name": "PreToolUse",
                                   "cwd": str(other), "tool_name": "Bash",
                                   "tool_input": {"command": call}}).encode())
        before.stop()
    if asked.returncode == 2:  # the other gate denies it: held
        return
    subprocess.run(["bash", "-c", call], cwd=other, timeout=60, check=True)
    with _serve(tmp_path, "--audit-log", str(audit)) as after:
        posted = _register(after, "victim")
        written = _decided(after, "victim", victim, "Write", file_path=str(npmrc),
                           content=f"script-shell={payload}\n")
        if written == "allowed":
            npmrc.write_text(f"script-shell={payload}\n")  # (the runtime's Write)
        ran = _decided(after, "victim", victim, "Bash", command="npm run test")
        after.stop()
    if ran == "allowed":
        env = {**os.environ, "npm_config_userconfig": str(npmrc)}
        subprocess.run(["timeout", "60", "bash", "-c", "npm run test"], cwd=victim, env=env,
                       capture_output=True, timeout=90, check=False)
    assert not (victim / "zz").exists(), (posted.body, written, ran)


# (test_a_session_of_another_gate_empties_the_sessions_file: held since session 53, s53-sfix:
# the sessions file lies in the home's state folder, which every gate guards whole)


def test_a_folder_another_user_owns_holds_no_sessions_file(tmp_path: Path) -> None:
    """``--audit-log`` in a folder another user owns (here ``nobody``'s): that user removes
    the sessions file the service made there (``open_log`` checks the file, not the folder),
    and after a restart the victim's id, late before, registers. Sound: the start refuses a
    folder another user may write, or the id stays late."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to act as another user")
    top = Path(tempfile.mkdtemp(prefix="s52sreview-"))  # (the other user reaches it)
    try:
        top.chmod(0o755)
        logs = top / "logs"
        logs.mkdir()
        os.chown(logs, 65534, 65534)
        audit = logs / "audit.log"
        try:
            before = _serve(tmp_path, "--audit-log", str(audit))
        except RuntimeError:
            return  # it refused the folder: held
        with before:
            assert "registered no environment" in _write(before, "victim")
            before.stop()
        subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "rm",
                        "-f", path_of(str(audit))], timeout=60, check=True)
        with _serve(tmp_path, "--audit-log", str(audit)) as after:
            posted = _register(after, "victim")
            after.stop()
    finally:
        shutil.rmtree(top)
    assert posted.status == 409, posted.body


def test_two_services_on_one_audit_log_keep_the_victim_late(tmp_path: Path) -> None:
    """Two services started together on one audit log (one sessions file, created by the
    first to start): the victim calls the one, another session registers its id at the other
    (late), and a registration at the other is seen by the first (``same``, not a second
    ``registered``); the file holds one header. Held."""
    audit = tmp_path / "audit.log"
    with _serve(tmp_path, "--audit-log", str(audit)) as one, \
            _serve(tmp_path, "--audit-log", str(audit)) as two:
        assert "registered no environment" in _write(one, "victim")
        posted = _register(two, "victim")
        assert posted.status == 409 and b"late" in posted.body, posted.body
        assert _register(two, "kept").json()["outcome"] == "registered"
        assert _register(one, "kept").json()["outcome"] == "same"
        assert _write(one, "kept") == "allowed"
        one.stop()
        two.stop()
    assert Path(path_of(str(audit))).read_bytes().count(HEADER) == 1
