"""Session 53 (s53-sfix): no session of any gate writes a service's sessions file (issue 29,
review s52-sreview S2, the multi-gate class).

A gate guards only the files it is told of: a session gated by the ``skillgrant hook``
command with its own plan, or by a second service with another audit log, was allowed to
write the sessions file kept beside a service's audit log. The audit log's witness
(s52-sfix2) refuses the next start when the file alone was emptied, but that session could
empty the audit log too (no witness left: a fresh registry), or append a registration while
the service runs. Now every service keeps its sessions file in one folder of the home,
``~/.local/state/skillgrant/sessions/`` (``gate.homefiles.STATE``), which every gate of this
version guards whole, whatever its plan or audit log; each case here is judged by the other
gate, and what it allows is run by real bash.
"""

from __future__ import annotations

import grp
import json
import os
import pwd
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from review_table import LeftOpen
from serving import Served, start
from statehome import scratch_state  # noqa: F401 (autouse: a state folder of its own)

from skillgrant.gate.config import snippet
from skillgrant.gate.homefiles import STATE, STATE_VARIABLE, state_folders
from skillgrant.gate.hook import Options, decide
from skillgrant.service.registry import REGISTERED
from skillgrant.service.sessionsfile import HEADER, beside, path_of

OPEN = LeftOpen()

TOKEN_ENV = "SG_S53SFIX_TOKEN"
TOKEN = "s53sfix-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _home() -> Path:
    """The scratch home whose ``STATE`` the test's ``SKILLGRANT_STATE_DIR`` names
    (``statehome``)."""
    return Path(os.environ[STATE_VARIABLE]).parents[2]


def _serve(folder: Path, audit: Path, *rules: str, env: dict[str, str] | None = None) -> Served:
    """A service of the plan ``rules`` (by default the victim's) with ``--audit-log audit``."""
    plan = folder / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": list(rules) or [
        "Bash(npm run test)", f"Edit(/{folder}/victim/**)"]}))
    given = {name: "" for name in REGISTERED} | {TOKEN_ENV: TOKEN} | (env or {})
    return start([f"p={plan}"], "--token-env", TOKEN_ENV, "--audit-log", str(audit), env=given)


def _call(served: Served, sid: str, folder: Path, tool: str, **given: str) -> str:
    """A call of the session ``sid`` in ``folder``: the denial's reason, or "allowed"."""
    payload = {"session_id": sid, "cwd": str(folder), "hook_event_name": "PreToolUse",
               "tool_name": tool, "tool_input": given}
    reply = served.post("/v1/hook/p", payload, register=False, headers=AUTH)
    assert reply.status == 200
    return str(json.loads(reply.body)["hookSpecificOutput"]["permissionDecisionReason"]) \
        if reply.body else "allowed"


def _register(served: Served, sid: str) -> Any:
    """Another session's Bash tool posting ``sid`` with the service's values."""
    body = {"session_id": sid, "source": "startup", "environment": dict.fromkeys(REGISTERED)}
    return served.request("POST", "/v1/sessions", body, headers=AUTH)


def _victim_late(folder: Path, audit: Path) -> None:
    """A run of the service in which the victim's Write was denied before it registered (its
    id late from then on)."""
    victim = folder / "victim"
    victim.mkdir(exist_ok=True)
    with _serve(folder, audit) as served:
        reason = _call(served, "victim", victim, "Write", file_path=str(victim / "npmrc"),
                       content="")
        assert "registered no environment" in reason
        served.stop()


def _hook(folder: Path, rules: list[str], tool: str, env: dict[str, str] | None = None,
          **given: str) -> int:
    """The printed ``skillgrant hook`` command (its own plan ``rules``) asked for a call in
    ``folder``: its exit status (2: denied)."""
    plan = folder / "other-plan.json"
    plan.write_text(json.dumps({"allowed-tools": rules}))
    printed = json.loads(snippet("claude-code", {"--plan": str(plan)})[0])
    command = printed["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    asked = subprocess.run(["/bin/sh", "-c", command], cwd=folder, capture_output=True,
                           timeout=60, check=False, env={**os.environ, **(env or {})},
                           input=json.dumps({"session_id": "other", "cwd": str(folder),
                                             "hook_event_name": "PreToolUse",
                                             "tool_name": tool, "tool_input": given}).encode())
    assert asked.returncode in (0, 2), asked.stderr
    return asked.returncode


def _bash(command: str, folder: Path, env: dict[str, str] | None = None) -> None:
    """Real bash runs what a gate allowed (a fault is no concern: what it did is looked at)."""
    subprocess.run(["timeout", "60", "bash", "-c", command], cwd=folder, capture_output=True,
                   timeout=90, check=False, env={**os.environ, **(env or {})},
                   input=b'["r","victim",0]\n')


@pytest.mark.slow
def test_another_gates_session_empties_both_files_and_the_victim_stays_late(
        tmp_path: Path) -> None:
    """The session of the ``skillgrant hook`` command (its plan ``Bash(cp /dev/null *)``)
    empties what it may of the audit log and the sessions file, with real bash; after the
    service's restart the victim's id, late before, stays late (or the start is refused).
    Before session 53 both were allowed, so no witness was left and the victim registered."""
    logs = tmp_path / "logs"
    logs.mkdir(mode=0o700)
    audit = logs / "audit.log"
    _victim_late(tmp_path, audit)
    other = tmp_path / "other"
    other.mkdir()
    for target in (str(audit), path_of(str(audit))):
        call = f"cp /dev/null {target}"
        if _hook(other, ["Bash(cp /dev/null *)"], "Bash", command=call) == 0:
            _bash(call, other)
    assert Path(path_of(str(audit))).read_bytes().startswith(HEADER)
    try:
        after = _serve(tmp_path, audit)
    except RuntimeError as e:  # refused: sound
        assert "sessions file" in str(e)
        return
    with after:
        posted = _register(after, "victim")
        after.stop()
    assert posted.status == 409 and b"late" in posted.body, posted.body


#: Spellings of a write to the state folder, each with the rule of the other gate's plan that
#: covers it (``{file}``: the sessions file; ``{home}``: the home; run in the other folder).
SPELLINGS: dict[str, tuple[str, str]] = {
    "cp-dev-null": ("Bash(cp /dev/null *)", "cp /dev/null {file}"),
    "rm-file": ("Bash(rm *)", "rm -f {file}"),
    "rm-glob": ("Bash(rm *)", "rm -f {home}/.local/state/*/sessions/*"),
    "rm-state": ("Bash(rm *)", "rm -rf {home}/.local/state"),
    "rm-local": ("Bash(rm *)", "rm -rf {home}/.local"),
    "mv-folder": ("Bash(mv *)", "mv {home}/.local/state/skillgrant/sessions {home}/gone"),
    "mv-home-local": ("Bash(mv *)", "mv {home}/.local {home}/gone"),
    "truncate": ("Bash(truncate *)", "truncate -s 0 {file}"),
    "tee-append": ("Bash(tee *)", "tee -a {file}"),
    "echo-append": ("Bash(echo *)", "echo '[\"r\",\"victim\",0]' >> {file}"),
    "find-delete": ("Bash(find *)", "find {home}/.local -delete"),
    "cd-then-rm": ("Bash(rm *)", "cd {home}/.local/state/skillgrant && rm -rf sessions"),
    "tilde": ("Bash(rm *)", "rm -rf ~/.local/state/skillgrant"),
    "dotdot": ("Bash(rm *)", "rm -rf {home}/x/../.local/state/skillgrant/sessions"),
}


def _spelled(name: str, home: Path, audit: Path) -> tuple[str, str]:
    rule, command = SPELLINGS[name]
    return rule, command.format(file=path_of(str(audit)), home=home)


@pytest.mark.slow
@pytest.mark.parametrize("gate", ["hook", "service"])
@pytest.mark.parametrize("name", list(SPELLINGS))
def test_no_other_gate_writes_the_sessions_file(tmp_path: Path,
                                                name: str, gate: str) -> None:
    """A session of the ``skillgrant hook`` command, or of a second service with another
    audit log, whose plan covers the call: the gate denies it, or real bash running it leaves
    the sessions file as it was."""
    logs = tmp_path / "logs"
    logs.mkdir(mode=0o700)
    audit = logs / "audit.log"
    _victim_late(tmp_path, audit)
    sessions = Path(path_of(str(audit)))
    kept = sessions.read_bytes()
    other = tmp_path / "other"
    (other / "logs").mkdir(parents=True, mode=0o700)
    (_home() / "x").mkdir()
    rule, command = _spelled(name, _home(), audit)
    if gate == "hook":
        allowed = _hook(other, [rule], "Bash", command=command) == 0
    else:
        with _serve(other, other / "logs" / "audit.log", rule) as second:
            assert second.register("other", headers=AUTH).status == 200
            allowed = _call(second, "other", other, "Bash", command=command) == "allowed"
            second.stop()
    if allowed:
        _bash(command, other)
    assert sessions.exists() and sessions.read_bytes() == kept, (name, gate, allowed)


@pytest.mark.slow
@pytest.mark.parametrize("gate", ["hook", "service"])
def test_no_other_gate_writes_it_with_the_write_tool(tmp_path: Path, gate: str) -> None:
    """A Write of the sessions file under the plan ``Edit(/<the home>/**)``: denied."""
    logs = tmp_path / "logs"
    logs.mkdir(mode=0o700)
    audit = logs / "audit.log"
    _victim_late(tmp_path, audit)
    other = tmp_path / "other"
    (other / "logs").mkdir(parents=True, mode=0o700)
    rule = f"Edit(/{_home()}/**)"
    given = {"file_path": path_of(str(audit)), "content": '["r","victim",0]\n'}
    if gate == "hook":
        assert _hook(other, [rule], "Write", env=None, **given) == 2
    else:
        with _serve(other, other / "logs" / "audit.log", rule) as second:
            assert second.register("other", headers=AUTH).status == 200
            assert _call(second, "other", other, "Write", **given) != "allowed"
            second.stop()


def test_every_gate_guards_the_state_folders(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """In process, as the hook decides: a write in ``STATE`` of the password database's home,
    of ``HOME`` or in ``SKILLGRANT_STATE_DIR`` is denied under a plan covering it, whatever ``HOME``
    says; beside them, allowed."""
    monkeypatch.setenv("HOME", str(tmp_path / "elsewhere"))
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(touch *)"]}))
    options = Options({"--plan": str(plan)})

    def status(target: str) -> int:
        payload = json.dumps({"session_id": "s", "hook_event_name": "PreToolUse",
                              "tool_name": "Bash", "cwd": str(tmp_path),
                              "tool_input": {"command": f"touch {target}"}}).encode()
        return decide(options, payload).status

    usual = os.path.join(pwd.getpwuid(os.geteuid()).pw_dir, STATE)
    home = os.path.join(os.environ["HOME"], STATE)  # (s53-sreview R5)
    assert state_folders() == [usual, home, os.environ[STATE_VARIABLE]]
    for folder in state_folders():
        assert status(f"{folder}/sessions/x.sessions") == 2, folder
    assert status(f"{_home()}/.local/state/other") == 0


def test_the_service_keeps_its_state_in_the_usual_home_whatever_home_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without ``SKILLGRANT_STATE_DIR`` the sessions file lies in the password database's
    home, which every gate guards whatever its ``HOME`` (s53-sreview R1, R1b, C3); a relative
    one refuses."""
    monkeypatch.setenv("HOME", str(tmp_path / "elsewhere"))
    monkeypatch.delenv(STATE_VARIABLE)
    usual = os.path.join(pwd.getpwuid(os.geteuid()).pw_dir, STATE)
    assert path_of(str(tmp_path / "audit.log")).startswith(usual + "/sessions/")
    assert state_folders() == [usual, os.path.join(os.environ["HOME"], STATE)]
    monkeypatch.setenv(STATE_VARIABLE, "state")
    with pytest.raises(OSError, match="not an absolute path"):
        path_of(str(tmp_path / "audit.log"))


@pytest.mark.slow
def test_a_sessions_file_of_before_beside_the_log_refuses_the_start(tmp_path: Path) -> None:
    """A file kept beside the audit log by a version before is named, with where to move it;
    moved there, it is read (its victim stays late)."""
    audit = tmp_path / "audit.log"
    _victim_late(tmp_path, audit)
    sessions = Path(path_of(str(audit)))
    sessions.rename(beside(str(audit)))
    plan = tmp_path / "plan.json"
    done = subprocess.run([sys.executable, "-P", "-m", "skillgrant",
                           "serve", "--port", "0", "--plan",
                           str(plan), "--audit-log", str(audit)],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "version before" in done.stderr and \
        str(sessions) in done.stderr, done.stderr
    Path(beside(str(audit))).rename(sessions)
    with _serve(tmp_path, audit) as after:
        posted = _register(after, "victim")
        after.stop()
    assert posted.status == 409, posted.body


@pytest.mark.slow
@pytest.mark.parametrize("home", ["another", "the-service's"])
def test_a_runtime_with_another_home_than_the_services(tmp_path: Path, home: str) -> None:
    """The service runs with one ``HOME``, the other gate's runtime with another (or the
    same): the sessions file's place does not follow ``HOME``, so that gate guards it."""
    logs = tmp_path / "logs"
    logs.mkdir(mode=0o700)
    audit = logs / "audit.log"
    _victim_late(tmp_path, audit)
    other = tmp_path / "other"
    (other / "home").mkdir(parents=True, mode=0o700)
    env = {"HOME": str(other / "home")} if home == "another" else {}
    sessions = Path(path_of(str(audit)))
    kept = sessions.read_bytes()
    call = f"cp /dev/null {sessions}"
    if _hook(other, ["Bash(cp /dev/null *)"], "Bash", env=env, command=call) == 0:
        _bash(call, other, env)
    assert sessions.read_bytes() == kept


@pytest.mark.slow
def test_a_runtime_without_the_services_state_variable(tmp_path: Path) -> None:
    """The service runs with ``SKILLGRANT_STATE_DIR``, a runtime without it, its hook printed
    where the variable is set (the operator's shell, the service's environment): the printed
    command carries it (``--state-dir``), so that gate guards the service's folder too. Sound:
    denied, or the file left as it was."""
    logs = tmp_path / "logs"
    logs.mkdir(mode=0o700)
    audit = logs / "audit.log"
    _victim_late(tmp_path, audit)
    other = tmp_path / "other"
    other.mkdir()
    sessions = Path(path_of(str(audit)))
    kept = sessions.read_bytes()
    call = f"cp /dev/null {sessions}"
    without = {k: v for k, v in os.environ.items() if k != STATE_VARIABLE}
    plan = other / "other-plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(cp /dev/null *)"]}))
    printed = json.loads(snippet("claude-code", {"--plan": str(plan)})[0])
    command = printed["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    asked = subprocess.run(["/bin/sh", "-c", command], cwd=other, capture_output=True,
                           timeout=60, check=False, env=without, input=json.dumps({
                               "session_id": "other", "cwd": str(other),
                               "hook_event_name": "PreToolUse", "tool_name": "Bash",
                               "tool_input": {"command": call}}).encode())
    if asked.returncode == 0:
        _bash(call, other)
    assert sessions.read_bytes() == kept


# (test_a_runtime_without_the_services_state_variable: held since s54-sfix, the hook printed
# where the variable is set carries it as --state-dir)


def test_the_state_folder_is_made_for_this_user_only(tmp_path: Path) -> None:
    """The folders not there yet are made 0700; one another user may write refuses."""
    from skillgrant.service.sessionsfile import SessionsFile

    path = Path(path_of(str(tmp_path / "audit.log")))
    SessionsFile(str(path)).close()
    for folder in (_home() / ".local", _home() / ".local" / "state", path.parent):
        assert folder.stat().st_mode & 0o777 == 0o700, folder
    shutil.rmtree(_home() / ".local")
    (_home() / ".local").mkdir(mode=0o700)
    (_home() / ".local").chmod(0o777)
    with pytest.raises(OSError, match="group or by others"):
        SessionsFile(str(path))


def test_a_home_kept_elsewhere_through_a_link(tmp_path: Path) -> None:
    """``~/.local`` a link (its own mode 777) to a folder of this user: accepted, as the
    folders it leads to are; leading to a folder others may write: refused."""
    from skillgrant.service.userfolder import made

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (_home() / ".local").symlink_to(elsewhere)
    folder = str(_home() / STATE / "sessions")
    assert made(folder) is None
    assert (elsewhere / "state" / "skillgrant" / "sessions").is_dir()
    _victim_late(tmp_path, tmp_path / "audit.log")  # (a real serve: s53-sreview C1)
    with _serve(tmp_path, tmp_path / "audit.log") as after:
        posted = _register(after, "victim")
        after.stop()
    assert posted.status == 409, posted.body
    assert list((elsewhere / "state" / "skillgrant" / "sessions").iterdir())
    elsewhere.chmod(0o777)
    assert "group or by others" in str(made(folder))


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give a folder another group")
def test_a_folder_of_a_private_group(tmp_path: Path) -> None:
    """``~/.local`` 0775 (umask 002) of the user's own group, which holds no one else (here
    root's: no member, no other user's own group): accepted (s53-sreview C2); of a group
    other users are in (``nogroup``): refused."""
    from skillgrant.service.sessionsfile import SessionsFile

    assert not grp.getgrgid(0).gr_mem and [u.pw_name for u in pwd.getpwall()
                                            if u.pw_gid == 0] == ["root"]
    local = _home() / ".local"
    local.mkdir(mode=0o700)
    local.chmod(0o775)
    path = path_of(str(tmp_path / "audit.log"))
    SessionsFile(path).close()
    os.chown(local, -1, 65534)
    with pytest.raises(OSError, match="may be written by its group"):
        SessionsFile(path)


#: Spellings pointing a link on the way to the state folder elsewhere (``{link}``: the home's
#: ``.local``, a link to a folder of this user), each with the rule covering it.
RELINKS: dict[str, tuple[str, str]] = {
    "ln-sfn": ("Bash(ln *)", "ln -sfn {evil} {link}"),
    "rm-then-ln": ("Bash(rm *)", "rm {link} && ln -s {evil} {link}"),
    "mv-T": ("Bash(mv *)", "ln -s {evil} {home}/new && mv -T {home}/new {link}"),
    "unlink": ("Bash(unlink *)", "unlink {link}"),
    "cp-P": ("Bash(cp *)", "cp -P --remove-destination {home}/new {link}"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RELINKS))
def test_a_link_on_the_way_pointed_elsewhere(tmp_path: Path, name: str) -> None:
    """``~/.local`` a link to a folder of this user (a home kept elsewhere: C1 accepted): the
    other gate's session empties the audit log (no witness left) and points the link
    elsewhere (or removes it), run by real bash where allowed; the restarted service's victim
    stays late."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    evil = tmp_path / "evil"
    evil.mkdir(mode=0o700)
    link = _home() / ".local"
    link.symlink_to(elsewhere)
    (_home() / "new").symlink_to(evil)
    logs = tmp_path / "logs"
    logs.mkdir(mode=0o700)
    audit = logs / "audit.log"
    _victim_late(tmp_path, audit)
    other = tmp_path / "other"
    other.mkdir()
    rule, command = RELINKS[name]
    command = command.format(evil=evil, link=link, home=_home())
    rules = [rule, "Bash(ln *)"] if "ln -s" in command else [rule]
    emptied = f"cp /dev/null {audit}"  # (no witness left: the guard alone holds)
    assert _hook(other, ["Bash(cp /dev/null *)"], "Bash", command=emptied) == 0
    _bash(emptied, other)
    if _hook(other, rules, "Bash", command=command) == 0:
        _bash(command, other)
    try:
        after = _serve(tmp_path, audit)
    except RuntimeError as e:  # refused: sound
        assert "sessions file" in str(e)
        return
    with after:
        posted = _register(after, "victim")
        after.stop()
    assert posted.status == 409 and b"late" in posted.body, (name, posted.body)


def _acl(folder: Path, *entries: tuple[int, int, int]) -> None:
    """Set ``folder``'s access ACL (Linux's xattr format: version 2, then tag, permissions,
    id), as ``setfacl`` does; skips where the file system keeps none."""
    data = struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *e) for e in entries)
    try:
        os.setxattr(folder, "system.posix_acl_access", data)
    except (AttributeError, OSError) as e:
        pytest.skip(f"no POSIX ACLs here: {e}")


def test_a_folder_with_an_access_acl(tmp_path: Path) -> None:
    """0700 with a named user's entry ``rwx`` (``setfacl -m u:nobody:rwx``): the mode shows
    0770 (the group bits are the mask) of this user's own group; refused (s53-sreview R4).
    With a mask giving no write, no entry may write: accepted."""
    from skillgrant.service.userfolder import others_may_write

    folder = tmp_path / "logs"
    folder.mkdir(mode=0o700)
    anyone = 0xFFFFFFFF
    _acl(folder, (0x01, 7, anyone), (0x02, 7, 65534), (0x04, 0, anyone), (0x10, 7, anyone),
         (0x20, 0, anyone))
    assert folder.stat().st_mode & 0o777 == 0o770
    assert "access ACL" in str(others_may_write(str(folder)))
    _acl(folder, (0x01, 7, anyone), (0x02, 7, 65534), (0x04, 0, anyone), (0x10, 5, anyone),
         (0x20, 0, anyone))
    assert others_may_write(str(folder)) is None


def test_print_config_names_the_file_the_variable_and_the_modes(tmp_path: Path) -> None:
    """``serve --print-config``'s note: the sessions file's path, the variable that moved it
    (every runtime needs it too: s53-sreview R3), the same-user mode and the OS's boundary."""
    from skillgrant.service.config import kept_note

    audit = str(tmp_path / "audit.log")
    note = kept_note(audit)
    assert path_of(audit) in note and f"{STATE_VARIABLE}=" in note
    assert "Same-user mode" in note and "a user of its own" in note
    assert "not kept" in kept_note(None)
