"""Session 52 (s52-sfix): the service's session registry (issue 29, service/registry.py).

- G1 (review s51-greview3): a call the service denies before it reads the payload (a limit, a
  read timeout, an unknown plan, a bad query, a pinned digest, a header problem, a payload
  ``json`` cannot read) notes its session id, read from the payload's first bytes
  (service/payloadid.py), as a call decided does: another session holding the token can no
  longer register the id afterwards (409 ``late``).
- F2b (review s51-gfix3): the registry is kept in the sessions file beside the audit log
  (service/sessionsfile.py) and read back at start, so a restart no longer forgets which ids
  made calls.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from review_table import LeftOpen
from serving import Served, session_headers, start
from statehome import scratch_state  # noqa: F401 (autouse: a state folder of its own)

from skillgrant.limits import MAX_HOOK_PAYLOAD_BYTES
from skillgrant.service import registry as r
from skillgrant.service.guard import DRAIN_BYTES
from skillgrant.service.payloadid import SCAN_BYTES, session_ids
from skillgrant.service.registry import REGISTERED, Registry
from skillgrant.service.sessionsfile import HEADER, SessionsFile, path_of

OPEN = LeftOpen()
_open = OPEN.add

TOKEN_ENV = "SG_S52SFIX_TOKEN"
TOKEN = "s52sfix-token-0123456789"
UNSET: dict[str, str | None] = dict.fromkeys(REGISTERED)
NPMRC = "/srv/project/npmrc"


# --- the id read from a payload's first bytes (payloadid.py) ---------------------------------

def _claude(sid: str, tool_input: object) -> bytes:
    """A Claude Code PreToolUse payload, its members in the binary's order."""
    return json.dumps({"session_id": sid, "transcript_path": "/h/.claude/projects/-p/t.jsonl",
                       "cwd": "/p", "permission_mode": "default",
                       "hook_event_name": "PreToolUse", "tool_name": "Write",
                       "tool_input": tool_input}).encode()


def _copilot(sid: str, tool_args: object) -> bytes:
    return json.dumps({"sessionId": sid, "timestamp": 1767225600000, "cwd": "/p",
                       "toolName": "bash", "toolArgs": tool_args}).encode()


def _nested(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


@pytest.mark.parametrize("made", [_claude, _copilot])
def test_every_prefix_of_a_runtime_payload_reads_its_id_or_nothing(
        made: Callable[[str, object], bytes]) -> None:
    """Against ``json``: each prefix of a payload gives the id the whole payload has (once its
    first member ends in the prefix), or nothing; never another string."""
    payload = made('v-"\\é\u2028', {"file_path": "/p/x", "content": '{"session_id":"no"}'})
    whole = json.loads(payload)
    sid = whole.get("session_id", whole.get("sessionId"))
    first = payload.index(b",") + 1  # (the first member, and the comma ending it)
    for cut in range(len(payload) + 1):
        assert session_ids(payload[:cut]) == ((sid,) if cut >= first else ()), cut


def test_ids_are_read_as_json_reads_them_and_nowhere_else() -> None:
    assert session_ids(b'{"session\\u005fid" : "a\\u0041", "sessionId":"b"}') == ("aA", "b")
    assert session_ids(b'{"x":{"session_id":"inner"},"y":["session_id","z"]}') == ()
    assert session_ids(b'[{"session_id":"a"}]') == ()
    assert session_ids(b'{"session_id":1,"sessionId":null}') == ()
    assert session_ids(b'{"session_id":"a" "b"}') == ()  # (not JSON past the value)
    assert session_ids(b'{"session_id":"\xff"}') == ()  # (not UTF-8)
    # nested far past json's recursion, skipped by its brackets; its strings' brackets are not
    deep = b'{"a":' + _nested(5000) + b',"b":"]}","session_id":"deep"}'
    assert session_ids(deep) == ("deep",)
    with pytest.raises(RecursionError):
        json.loads(deep)
    # read within the first SCAN_BYTES only
    late = b'{"a":"' + b"x" * SCAN_BYTES + b'","session_id":"late"}'
    assert session_ids(late) == ()


# --- the sessions file (sessionsfile.py), in process ----------------------------------------

@pytest.fixture
def clean_npm(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in REGISTERED:
        monkeypatch.delenv(name, raising=False)


def test_a_registry_read_back_is_the_one_written(tmp_path: Path, clean_npm: None) -> None:
    path = str(tmp_path / "audit.log.sessions")
    kept = SessionsFile(path)
    before = Registry(kept=kept)
    assert before.register("a", UNSET)[0] == r.REGISTERED_NEW
    assert before.register("b", {**UNSET, "npm_config_prefix": "/x"})[0] == r.REGISTERED_NEW
    assert before.register("c", UNSET)[0] == r.REGISTERED_NEW  # (a's values: not written again)
    assert before.register("c", {**UNSET, "npm_config_prefix": "/y"})[0] == r.CONFLICT
    before.called("victim")
    before.called("a")  # (registered: nothing to note)
    kept.close()
    lines = Path(path).read_bytes().splitlines(keepends=True)
    assert lines[0] == HEADER and len(lines) == 1 + 2 + 3 + 1 + 1  # values twice, r x3, x, c
    after = Registry(kept=SessionsFile(path))
    assert after.problem("a") is None and after.register("a", UNSET)[0] == r.SAME
    assert "differs" in str(after.problem("b"))
    assert after.register("c", UNSET)[0] == r.CONFLICT
    assert after.register("victim", UNSET)[0] == r.LATE
    assert after.register("new", UNSET)[0] == r.REGISTERED_NEW


def test_two_services_sharing_the_file_see_each_others_notes(tmp_path: Path,
                                                             clean_npm: None) -> None:
    """A service reads what another appended before each change it makes: an id one of them
    noted never registers at the other."""
    path = str(tmp_path / "audit.log.sessions")
    one, two = Registry(kept=SessionsFile(path)), Registry(kept=SessionsFile(path))
    one.called("victim")
    assert two.register("victim", UNSET)[0] == r.LATE
    assert two.register("x", UNSET)[0] == r.REGISTERED_NEW
    assert one.register("x", {**UNSET, "PREFIX": "/o"})[0] == r.CONFLICT
    assert Registry(kept=SessionsFile(path)).register("x", UNSET)[0] == r.CONFLICT


def test_a_write_cut_by_a_crash_is_cut_off_and_anything_else_refuses(tmp_path: Path,
                                                                     clean_npm: None) -> None:
    path = tmp_path / "audit.log.sessions"
    registry = Registry(kept=SessionsFile(str(path)))
    registry.called("victim")
    whole = path.read_bytes()
    with path.open("ab") as f:
        f.write(b'["c","cut')  # (the last write, never answered)
    assert Registry(kept=SessionsFile(str(path))).register("victim", UNSET)[0] == r.LATE
    assert path.read_bytes() == whole
    for bad in (b'["c","a"]\n', whole + b'{"c":"a"}\n', whole + b'["r","a",7]\n',
                whole + b'["v",[["HOME","/x"]]]\n', whole + b'["q","a"]\n'):
        path.write_bytes(bad)
        with pytest.raises(OSError, match="sessions file"):
            Registry(kept=SessionsFile(str(path)))


def test_the_file_is_opened_as_the_audit_log_is(tmp_path: Path) -> None:
    target = tmp_path / "bashrc"
    target.write_text("")
    os.symlink(target, tmp_path / "audit.log.sessions")
    with pytest.raises(OSError, match="sessions file"):
        SessionsFile(str(tmp_path / "audit.log.sessions"))
    os.link(target, tmp_path / "other")
    with pytest.raises(OSError, match="sessions file"):
        SessionsFile(str(target))


# --- through a real service ------------------------------------------------------------------

def _plan(folder: Path) -> Path:
    plan = folder / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [
        "Bash(touch *)", "Read(//srv/**)", "Edit(//srv/**)", f"Edit(/{folder}/**)",
        f"Bash(cp {folder}/* *)"]}))
    return plan


def _serve(folder: Path, *options: str) -> Served:
    env = {name: "" for name in REGISTERED} | {TOKEN_ENV: TOKEN}
    return start([f"p={_plan(folder)}"], "--token-env", TOKEN_ENV, *options, env=env)


def _payload(sid: str, tool: str, **given: object) -> dict[str, Any]:
    return {"session_id": sid, "cwd": "/srv/project", "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": given}


def _reason(reply: Any) -> str:
    assert reply.status == 200
    return json.loads(reply.body)["hookSpecificOutput"]["permissionDecisionReason"] \
        if reply.body else "allowed"


def _write(served: Served, sid: str, path: str = NPMRC) -> str:
    return _reason(served.post("/v1/hook/p", _payload(sid, "Write", file_path=path,
                                                      content="registry=x"),
                               headers={"Authorization": f"Bearer {TOKEN}"}, register=False))


def _register(served: Served, sid: str) -> Any:
    body = {"session_id": sid, "source": "startup", "environment": UNSET}
    return served.request("POST", "/v1/sessions", body,
                          headers={"Authorization": f"Bearer {TOKEN}"})


def _raw(served: Served, body: bytes, path: str = "/v1/hook/p", token: str = TOKEN,
         length: int | None = None, extra: tuple[str, ...] = (), wait: float = 10) -> bytes:
    """A hook request as Claude Code sends it (the session's headers), written by hand."""
    head = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{served.port}",
            "Content-Type: application/json", f"Authorization: Bearer {token}",
            f"Content-Length: {len(body) if length is None else length}",
            *(f"{k}: {v}" for k, v in session_headers(served.env, "/srv/project").items()),
            *extra]
    return served.raw(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body, wait)


def _big(sid: str, size: int) -> bytes:
    folder = "/srv/project"
    return json.dumps({"session_id": sid, "transcript_path": "/none", "cwd": folder,
                       "hook_event_name": "PreToolUse", "tool_name": "Write",
                       "tool_input": {"file_path": f"{folder}/big", "content": "x" * size}}
                      ).encode()


def _deep(sid: str) -> bytes:
    return (b'{"session_id":"' + sid.encode() + b'","cwd":"/srv/project","tool_name":'
            b'"mcp__s__t","tool_input":{"a":' + _nested(200_000) + b"}}")


def _small(sid: str) -> bytes:
    return json.dumps(_payload(sid, "Read", file_path="/srv/project/a")).encode()


#: A first call of the victim the service denies before it reads the payload's session id:
#: what the service is sent, and what it answers (a denial).
FIRST: dict[str, Callable[[Served, str], bytes]] = {
    "over-the-payload-limit": lambda s, sid: _raw(s, _big(sid, MAX_HOOK_PAYLOAD_BYTES)),
    "over-max-body-bytes": lambda s, sid: _raw(s, _big(sid, 6_000_000)),
    "declared-over-drain-bytes": lambda s, sid: _raw(s, _small(sid), length=DRAIN_BYTES + 1),
    "nested-past-json": lambda s, sid: _raw(s, _deep(sid)),
    "unknown-plan": lambda s, sid: _raw(s, _small(sid), path="/v1/hook/nope"),
    "bad-query": lambda s, sid: _raw(s, _small(sid), path="/v1/hook/p?bogus=1"),
    "pinned-digest": lambda s, sid: _raw(s, _small(sid), path="/v1/hook/p?plan-sha256=" +
                                         "0" * 64),
    "header-clash": lambda s, sid: _raw(s, _small(sid), extra=(
        "X-Skillgrant-Env-npm_config_prefix: <a>", "X-Skillgrant-Env-NPM_CONFIG_PREFIX: <b>")),
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("s52sfix")
    with _serve(folder, "--max-body-bytes", "5000000", "--read-timeout", "2") as service:
        yield service


@pytest.mark.slow
@pytest.mark.parametrize("case", list(FIRST))
def test_g1_a_call_denied_unread_makes_the_id_late(served: Served, case: str) -> None:
    sid = f"victim-{case}"
    answer = FIRST[case](served, sid)
    assert answer.startswith(b"HTTP/1.1 200") and b'"deny"' in answer, answer[:300]
    posted = _register(served, sid)
    assert posted.status == 409 and b"late" in posted.body, (posted.status, posted.body)
    assert "registered no environment" in _write(served, sid)


@pytest.mark.slow
def test_g1_a_body_that_stalls_makes_the_id_late(served: Served) -> None:
    """The body's first bytes arrive, the rest never does: 408 after the read timeout (2 s),
    the id read from what arrived."""
    body = _big("victim-stalled", 10_000)
    answer = _raw(served, body[:4000], length=len(body), wait=8)
    assert answer.startswith(b"HTTP/1.1 200") and b"did not arrive" in answer
    assert _register(served, "victim-stalled").status == 409


@pytest.mark.slow
def test_g1_a_request_without_the_token_notes_nothing(served: Served) -> None:
    """The cost's bound: a request the guard refuses before it is authenticated (its token,
    Host or Origin) is read no further, so no program without the token makes an id late."""
    answer = _raw(served, _small("not-noted"), token="wrong-token-0123456789")
    assert answer.startswith(b"HTTP/1.1 200") and b"token" in answer
    assert _register(served, "not-noted").status == 200


@pytest.mark.slow
def test_f2b_a_restart_remembers_which_sessions_called_and_registered(
        tmp_path: Path) -> None:
    """Killed (-9) and restarted with the same audit log: the victim's id, which called before
    registering, stays late; a session registered before stays registered (its write is
    decided with no new registration); a resumed one registers as ``same``."""
    audit = tmp_path / "audit.log"
    with _serve(tmp_path, "--audit-log", str(audit)) as before:
        assert "registered no environment" in _write(before, "victim")
        assert _register(before, "kept").status == 200
        assert _write(before, "kept") == "allowed"
        before.stop(signal.SIGKILL)
    assert Path(path_of(str(audit))).stat().st_mode & 0o777 == 0o600
    with _serve(tmp_path, "--audit-log", str(audit)) as after:
        posted = _register(after, "victim")
        assert posted.status == 409 and b"late" in posted.body
        assert "registered no environment" in _write(after, "victim")
        assert _write(after, "kept") == "allowed"
        assert _register(after, "kept").json()["outcome"] == "same"


@pytest.mark.slow
def test_f2b_a_sessions_file_that_cannot_be_read_refuses_the_start(tmp_path: Path) -> None:
    audit = tmp_path / "audit.log"
    Path(path_of(str(audit))).parent.mkdir(parents=True)
    Path(path_of(str(audit))).write_bytes(HEADER + b"not a record\n")
    done = subprocess.run(
        [sys.executable, "-P", "-m", "skillgrant", "serve", "--port", "0", "--plan",
         str(_plan(tmp_path)), "--audit-log", str(audit)],
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "sessions file" in done.stderr, done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("guarded", ["audit.log", "sessions"])
@pytest.mark.parametrize("how", ["Write", "cp"])
def test_f2b_the_sessions_file_is_guarded_as_the_audit_log_is(
        tmp_path: Path, guarded: str, how: str) -> None:
    """A session whose plan covers the folder of the audit log, and the home's state folder
    (``Edit(/{tmp_path}/**)``: the scratch HOME is in it), writes neither the log nor the
    sessions file (gate/guards.py), with a Write or a covered ``cp``."""
    audit = tmp_path / "audit.log"
    with _serve(tmp_path, "--audit-log", str(audit)) as served:
        target = str(audit) if guarded == "audit.log" else path_of(str(audit))
        assert _register(served, "writer").status == 200
        assert _write(served, "writer", str(tmp_path / "free")) == "allowed"
        if how == "Write":
            reason = _write(served, "writer", target)
        else:
            source = tmp_path / "forged"
            source.write_text("")
            payload = _payload("writer", "Bash", command=f"cp {source} {target}")
            reason = _reason(served.post("/v1/hook/p", payload, headers={
                "Authorization": f"Bearer {TOKEN}"}, register=False))
        assert reason != "allowed"


# (test_f2b_the_sessions_file_is_guarded_as_the_audit_log_is: held since gate/guards.py guards it)


@pytest.mark.slow
def test_f2b_without_an_audit_log_a_restart_forgets(tmp_path: Path) -> None:
    """Without ``--audit-log`` there is no sessions file (no file the gate guards to keep it
    in): a restarted service no longer knows that the victim called before registering."""
    with _serve(tmp_path) as before:
        assert "registered no environment" in _write(before, "victim")
    with _serve(tmp_path) as after:
        assert _register(after, "victim").status == 409


_open("test_f2b_without_an_audit_log_a_restart_forgets",
      "without --audit-log the registry is kept nowhere: the state folder every gate guards "
      "could hold it, named by the served plans' real paths (the port may change; services "
      "of the same plans would share it, as services of one log do), with no witness but "
      "the gates' guard. Not done (session 54, docs/decisions.md): every log-less start "
      "would then need a state folder (refused where the password database names no home "
      "and the variable is unset, where it starts today), and a plan reloaded under another "
      "path, or one more plan served, forgets all the same: serve with --audit-log to keep it")


def test_print_config_says_when_registrations_are_not_kept(tmp_path: Path) -> None:
    def note(*more: str) -> str:
        done = subprocess.run([sys.executable, "-P", "-m", "skillgrant", "serve", "--plan",
                               str(_plan(tmp_path)), "--print-config", *more],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stderr

    assert "Without --audit-log the sessions' registrations are not kept" in note()
    assert "registrations are not kept" not in note("--audit-log", str(tmp_path / "a.log"))
