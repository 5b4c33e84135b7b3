"""Session 52 (s52-sfix2): the sessions file fails closed (review s52-sreview S1-S3).

- S1: after each change of the sessions file (fsynced, before its answer) the service writes
  an audit record of the file's size and SHA-256 (service/sessionswitness.py); at start the
  file must begin with the bytes the log's last such record names, followed by nothing but
  first calls' notes and conflicts, or the start is refused, the file left as it is. A file
  that does not begin with the header is refused before anything of it is cut.
- S3: the folder holding the audit log and the sessions file, and each folder above it, must
  be this user's or root's and written by no one else (or sticky), or the start is refused
  (service/userfolder.py).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest
from serving import Served, start
from statehome import scratch_state  # noqa: F401 (autouse: a state folder of its own)

from skillgrant.evidence.chain import verify
from skillgrant.gate.audit import append, record
from skillgrant.reports.evidence_schemas import audit_record_schema
from skillgrant.service import sessionswitness
from skillgrant.service.auditlog import AuditLog
from skillgrant.service.registry import LATE, REGISTERED, REGISTERED_NEW, Registry
from skillgrant.service.sessionsfile import HEADER, SessionsFile, path_of
from skillgrant.service.sessionswitness import last_witnessed
from skillgrant.service.userfolder import others_may_write

TOKEN_ENV = "SG_S52SFIX2_TOKEN"
TOKEN = "s52sfix2-token-0123456789"
UNSET: dict[str, str | None] = dict.fromkeys(REGISTERED)
OTHER: dict[str, str | None] = {**UNSET, "npm_config_userconfig": "/elsewhere/npmrc"}


def _opened(audit: Path) -> tuple[AuditLog, Registry]:
    """The audit log, and the registry read back from the sessions file beside it, as
    ``serve --audit-log`` opens them (raises OSError as the start does)."""
    log = AuditLog(str(audit))
    try:
        return log, Registry(kept=SessionsFile(path_of(str(audit)), log))
    except OSError:
        log.close()
        raise


def _witnesses(audit: Path) -> list[dict[str, object]]:
    return [r for r in map(json.loads, audit.read_bytes().splitlines())
            if r["status"] == "sessions-file"]


def _noted(audit: Path) -> Path:
    """A run: "kept" registered, "victim" called first (late from then on); the sessions file."""
    log, registry = _opened(audit)
    assert registry.register("kept", UNSET)[0] == REGISTERED_NEW
    registry.called("victim")
    log.close()
    return Path(path_of(str(audit)))


def test_each_change_is_witnessed_on_the_audit_chain(tmp_path: Path) -> None:
    """One record for each change, naming the file's size and digest as it is after it; each
    is a record of the published schema, on the log's chain (``audit verify``)."""
    audit = tmp_path / "audit.log"
    sessions = _noted(audit)
    witnessed = _witnesses(audit)
    assert len(witnessed) == 2
    data = sessions.read_bytes()
    import hashlib
    assert witnessed[-1]["witness"] == f"{len(data)} sha256:{hashlib.sha256(data).hexdigest()}"
    assert witnessed[-1]["decision"] == "none" and witnessed[-1]["session_id"] is None
    for line in audit.read_bytes().splitlines():
        jsonschema.validate(json.loads(line), audit_record_schema())
    assert verify(str(audit)).valid
    log, registry = _opened(audit)  # (as it was witnessed: nothing more written)
    assert registry.register("victim", OTHER)[0] == LATE
    log.close()
    assert len(_witnesses(audit)) == 2


def _cut_last_record(path: Path) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-1]))


def _same_length_other_id(path: Path) -> None:
    path.write_bytes(path.read_bytes().replace(b'"victim"', b'"victin"'))


def _registration_added(path: Path) -> None:
    with path.open("ab") as f:
        f.write(b'["v",[["npm_config_userconfig","/elsewhere/npmrc"]]]\n["r","future",1]\n')


#: Changes between two runs that lose what the file said (or add a registration): refused.
REFUSED: dict[str, Callable[[Path], object]] = {
    "emptied": lambda p: p.write_bytes(b""),
    "header-only": lambda p: p.write_bytes(HEADER),
    "last-record-cut": _cut_last_record,
    "last-newline-cut": lambda p: p.write_bytes(p.read_bytes()[:-1]),
    "removed": lambda p: p.unlink(),
    "same-length-other-id": _same_length_other_id,
    "registration-added": _registration_added,
    "not-a-sessions-file": lambda p: p.write_bytes(b"kept notes of the operator"),
}


@pytest.mark.parametrize("change", list(REFUSED))
def test_a_changed_sessions_file_refuses_the_start_and_is_left_as_it_is(
        tmp_path: Path, change: str) -> None:
    audit = tmp_path / "audit.log"
    sessions = _noted(audit)
    REFUSED[change](sessions)
    kept = sessions.read_bytes() if sessions.exists() else b""
    with pytest.raises(OSError, match="sessions file"):
        _opened(audit)
    assert sessions.read_bytes() == kept


def test_a_note_past_the_witnessed_bytes_is_kept_and_witnessed(tmp_path: Path) -> None:
    """A crash between a change's fsync and its audit record leaves a change never
    answered past the witnessed bytes: a first call's note or a conflict (which only deny)
    is read, and the start witnesses the file as it is."""
    audit = tmp_path / "audit.log"
    sessions = _noted(audit)
    with sessions.open("ab") as f:
        f.write(b'["c","crashed"]\n["x","kept"]\n["c","torn')
    log, registry = _opened(audit)
    assert registry.register("crashed", UNSET)[0] == LATE
    assert registry.problem("kept") is not None and "two different" in str(
        registry.problem("kept"))
    log.close()
    assert not sessions.read_bytes().endswith(b"torn")
    witness = _witnesses(audit)[-1]["witness"]
    assert isinstance(witness, str) and witness.startswith(f"{sessions.stat().st_size} sha256:")


def test_a_file_that_is_not_one_is_refused_before_it_is_cut(tmp_path: Path) -> None:
    """Without a witness (a new log): a file not beginning with the header is refused
    whole; a start of the header (a first write cut by a crash) is cut to nothing."""
    sessions = Path(path_of(str(tmp_path / "audit.log")))
    sessions.parent.mkdir(parents=True)
    sessions.write_bytes(b"kept notes of the operator")
    with pytest.raises(OSError, match="not a sessions file"):
        _opened(tmp_path / "audit.log")
    assert sessions.read_bytes() == b"kept notes of the operator"
    sessions.write_bytes(HEADER[:9])
    log, registry = _opened(tmp_path / "audit.log")
    log.close()
    assert sessions.read_bytes() == b"" and len(registry) == 0


def test_a_log_of_before_witnesses_nothing_and_is_witnessed_at_start(tmp_path: Path) -> None:
    """A sessions file written by a service of before (no witness in its log) is read as
    it is, and the start writes the log's first witness."""
    audit = tmp_path / "audit.log"
    sessions = Path(path_of(str(audit)))
    before = Registry(kept=SessionsFile(str(sessions)))
    before.called("victim")
    append(str(audit), record(session="s", runtime_tool="Read", tool="Read", decision="allow",
                              status="covered", reason="r"))
    log, registry = _opened(audit)
    assert registry.register("victim", UNSET)[0] == LATE
    log.close()
    witness = _witnesses(audit)[-1]["witness"]
    assert isinstance(witness, str) and witness.startswith(f"{sessions.stat().st_size} ")


def test_a_witness_is_read_from_a_records_own_status_only(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """A call's input naming a status and a witness (the model's text) is not a witness; the
    last witness is found across the blocks read back, past long lines; a last line being
    written is not read."""
    monkeypatch.setattr(sessionswitness, "BLOCK", 64)
    audit = tmp_path / "audit.log"
    assert last_witnessed(os.open(audit, os.O_RDONLY | os.O_CREAT)) is None
    append(str(audit), sessionswitness.witness_record("/x", 26, "sha256:" + "a" * 64))
    for n in range(5):
        append(str(audit), record(
            session="s", runtime_tool="Write", tool="Write", decision="allow",
            status="covered", reason="r", tool_input={
                "status": "sessions-file", "witness": f"0 sha256:{n}", "pad": "p" * 300}))
    with audit.open("ab") as f:
        f.write(sessionswitness.witness_record("/x", 0, "sha256:" + "b" * 64)[:-1])
    fd = os.open(audit, os.O_RDONLY)
    try:
        assert last_witnessed(fd) == (26, "sha256:" + "a" * 64)
    finally:
        os.close(fd)


def _of_a_shared_group(folder: Path) -> bool:
    """``folder`` given the group ``nogroup`` (65534: nobody's, _apt's; not a group of this
    user alone, which may write it: s53-sreview C2), as root; False otherwise."""
    if os.geteuid() != 0:
        return False
    os.chown(folder, -1, 65534)
    return True


def test_a_folder_another_user_may_write(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir(mode=0o700)
    assert others_may_write(str(folder)) is None
    folder.chmod(0o770)
    if _of_a_shared_group(folder):
        assert "group or by others" in str(others_may_write(str(folder)))
    folder.chmod(0o1777)  # (sticky: as /tmp)
    assert others_may_write(str(folder)) is None
    inner = folder / "inner"
    inner.mkdir(mode=0o700)
    folder.chmod(0o757)  # a folder above, written by others: they can move `inner` away
    assert str(folder) in str(others_may_write(str(inner)))
    folder.chmod(0o700)
    if os.geteuid() == 0:
        os.chown(inner, 65534, 65534)
        assert "another user" in str(others_may_write(str(inner)))
    assert "cannot be read" in str(others_may_write(str(tmp_path / "missing")))


# --- against a real serve ---------------------------------------------------------------------

def _serve(folder: Path, *options: str) -> Served:
    plan = folder / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(touch *)", "Read(//srv/**)",
                                                  "Edit(//srv/**)"]}))
    env = {name: "" for name in REGISTERED} | {TOKEN_ENV: TOKEN}
    return start([f"p={plan}"], "--token-env", TOKEN_ENV, *options, env=env)


def _serve_exit(folder: Path, audit: Path) -> subprocess.CompletedProcess[str]:
    plan = folder / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Read(//srv/**)"]}))
    return subprocess.run([sys.executable, "-P", "-m", "skillgrant", "serve", "--port", "0",
                           "--plan", str(plan), "--audit-log", str(audit)],
                          capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.slow
def test_serve_refuses_a_log_folder_others_may_write(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir(mode=0o700)
    logs.chmod(0o775)
    if not _of_a_shared_group(logs):
        pytest.skip("needs root to give the folder a group other users are in")
    done = _serve_exit(tmp_path, logs / "audit.log")
    assert done.returncode == 2 and "may be written by its group" in done.stderr, done.stderr
    assert not Path(path_of(str(logs / "audit.log"))).exists()


@pytest.mark.slow
def test_a_rotated_log_witnesses_the_sessions_file_anew(tmp_path: Path) -> None:
    """The audit log moved away and SIGHUP: the new log's first record witnesses the
    sessions file, so emptying the file before the next start is refused there too."""
    audit = tmp_path / "audit.log"
    with _serve(tmp_path, "--audit-log", str(audit)) as served:
        assert served.register("kept", headers={"Authorization": f"Bearer {TOKEN}"}).status == 200
        audit.rename(tmp_path / "audit.log.1")
        served.process.send_signal(signal.SIGHUP)
        deadline = time.monotonic() + 20
        while not (audit.exists() and _witnesses(audit)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _witnesses(audit), served.errors.read_text()[-2000:]
        served.stop()
    Path(path_of(str(audit))).write_bytes(b"")
    done = _serve_exit(tmp_path, audit)
    assert done.returncode == 2 and "does not begin with" in done.stderr, done.stderr
