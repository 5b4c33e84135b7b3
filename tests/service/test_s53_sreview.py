"""Session 53 review (s53-sreview) of s53-sfix: the service's sessions file against other gates,
with a real ``skillgrant serve``, the printed ``skillgrant hook`` command, real bash and npm.

The rule under review (issue 29, review s52-sreview S2): a session gated by another gate (the
``skillgrant hook`` command with its own plan, or another service) must not be able to change
the sessions file of a service it does not use, so that the service, restarted, forgets which
ids called first and lets another session register a victim's id with values not its own
(the victim's npmrc then unguarded: npm runs what it names).

A hole is a sequence of calls, each allowed by the other gate, after which the restarted
service registers the victim and real npm runs the payload (``touch zz``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pwd
import shutil
import struct
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from review_table import LeftOpen
from serving import Served, start

from skillgrant.gate.config import snippet
from skillgrant.service.registry import REGISTERED
from skillgrant.service.sessionsfile import HEADER, path_of

pytestmark = pytest.mark.slow

OPEN = LeftOpen()

TOKEN_ENV = "SG_S53SREVIEW_TOKEN"
TOKEN = "s53sreview-token-0123456789"


# --- the harness: a service, another gate, a victim --------------------------------------------

def _plan(folder: Path) -> Path:
    plan = folder / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": [
        "Bash(touch *)", "Bash(npm run test)", f"Edit(/{folder}/victim/**)"]}))
    return plan


def _serve(folder: Path, home: Path, audit: Path, *options: str,
           extra: dict[str, str] | None = None) -> Served:
    """``serve --audit-log AUDIT`` in the environment ``HOME=home`` (the service's), and
    ``extra``."""
    home.mkdir(parents=True, exist_ok=True)
    env = {name: "" for name in REGISTERED} | {TOKEN_ENV: TOKEN, "HOME": str(home),
                                               **(extra or {})}
    return start([f"p={_plan(folder)}"], "--token-env", TOKEN_ENV, "--read-timeout", "2",
                 "--audit-log", str(audit), *options, env=env)


@contextlib.contextmanager
def _environ(**values: str) -> Iterator[None]:
    """This process's variables set to ``values`` for a while (``path_of`` reads them)."""
    kept = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in kept.items():
            if value is None:
                del os.environ[name]
            else:
                os.environ[name] = value


def _kept(audit: Path, state: Path) -> Path:
    """The sessions file of the service on ``audit`` whose ``SKILLGRANT_STATE_DIR`` is
    ``state``."""
    with _environ(SKILLGRANT_STATE_DIR=str(state)):
        return Path(path_of(str(audit)))


def _witnessed(audit: Path) -> Path:
    """The sessions file the audit log's last witness record names (where the service keeps
    it, whatever decided that)."""
    for line in reversed(audit.read_text().splitlines()):
        if '"status": "sessions-file"' in line:
            reason = json.loads(line)["reason"]
            return Path(reason.removeprefix("the service's sessions file ").rsplit(" holds ", 1)[0])
    raise AssertionError("no witness record")


def _register(served: Served, sid: str) -> Any:
    """Another session's Bash tool posting ``sid`` (curl with the token)."""
    body = {"session_id": sid, "source": "startup", "environment": dict.fromkeys(REGISTERED)}
    return served.request("POST", "/v1/sessions", body,
                          headers={"Authorization": f"Bearer {TOKEN}"})


def _decided(served: Served, sid: str, folder: Path, tool: str, **given: str) -> str:
    """A call of the session ``sid`` in ``folder``: the denial's reason, or "allowed"."""
    payload = {"session_id": sid, "cwd": str(folder), "hook_event_name": "PreToolUse",
               "tool_name": tool, "tool_input": given}
    reply = served.post("/v1/hook/p", payload, register=False,
                        headers={"Authorization": f"Bearer {TOKEN}"})
    assert reply.status == 200
    return str(json.loads(reply.body)["hookSpecificOutput"]["permissionDecisionReason"]) \
        if reply.body else "allowed"


def _hook(plan: Path) -> str:
    """The printed ``skillgrant hook`` command of ``plan`` (Claude Code's settings)."""
    printed = json.loads(snippet("claude-code", {"--plan": str(plan)})[0])
    return str(printed["hooks"]["PreToolUse"][0]["hooks"][0]["command"])


class Gate:
    """Another gate, and the environment of the session it gates (its Bash runs in it)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env

    def allows(self, folder: Path, call: str) -> bool:
        """Whether it allows the Bash call ``call`` in ``folder``."""
        raise NotImplementedError


class HookGate(Gate):
    """The printed ``skillgrant hook`` command of its own plan."""

    def __init__(self, hook: str, env: dict[str, str]) -> None:
        super().__init__(env)
        self.hook = hook

    def allows(self, folder: Path, call: str) -> bool:
        said = subprocess.run(["/bin/sh", "-c", self.hook], cwd=folder, env=self.env,
                              capture_output=True, timeout=60, check=False,
                              input=json.dumps({"session_id": "other",
                                                "hook_event_name": "PreToolUse",
                                                "cwd": str(folder), "tool_name": "Bash",
                                                "tool_input": {"command": call}}).encode())
        # (a hook that fails otherwise is no allow: the printed hook says onFailure block)
        return said.returncode == 0 and b'"deny"' not in said.stdout


class ServiceGate(Gate):
    """A second service (its own plan, audit log and HOME), its session registered."""

    def __init__(self, served: Served) -> None:
        super().__init__({**os.environ, "HOME": served.env["HOME"]})
        self.served = served

    def allows(self, folder: Path, call: str) -> bool:
        payload = {"session_id": "other", "cwd": str(folder), "hook_event_name": "PreToolUse",
                   "tool_name": "Bash", "tool_input": {"command": call}}
        reply = self.served.post("/v1/hook/p", payload,
                                 headers={"Authorization": f"Bearer {TOKEN}"})
        assert reply.status == 200, reply
        return not reply.body or b'"deny"' not in reply.body


def _other_gate(folder: Path, entries: list[str], home: Path | str,
                extra: dict[str, str] | None = None, drop: tuple[str, ...] = ()) -> HookGate:
    """Another gate: the printed hook command of its own plan ``entries`` in ``folder``, its
    session's environment ``HOME=home`` (and ``extra``; without the variables ``drop``)."""
    folder.mkdir(parents=True, exist_ok=True)
    if not Path(home).is_dir():
        Path(home).mkdir(parents=True)
    plan = folder / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": entries}))
    env = {k: v for k, v in os.environ.items() if k not in drop}
    return HookGate(_hook(plan), {**env, "HOME": str(home), **(extra or {})})


@contextlib.contextmanager
def _other_service(folder: Path, entries: list[str],
                   home: Path | str) -> Iterator[ServiceGate]:
    """Another gate: a second service of its own plan ``entries`` and audit log, its HOME
    ``home`` (its sessions' too: the service compares it)."""
    folder.mkdir(parents=True, exist_ok=True)
    if not Path(home).is_dir():
        Path(home).mkdir(parents=True)
    plan = folder / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": entries}))
    env = {name: "" for name in REGISTERED} | {TOKEN_ENV: TOKEN, "HOME": str(home)}
    with start([f"p={plan}"], "--token-env", TOKEN_ENV, "--audit-log",
               str(folder / "other.log"), env=env) as served:
        yield ServiceGate(served)
        served.stop()


def _bash(call: str, folder: Path, env: dict[str, str]) -> None:
    subprocess.run(["timeout", "60", "bash", "-c", call], cwd=folder, env=env,
                   capture_output=True, timeout=90, check=False)


def _victim(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The victim's project (``npm run test``), its npmrc (``npm_config_userconfig``, which
    no header carries) and the payload a ``script-shell`` there runs."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "package.json").write_text(json.dumps({"name": "v", "version": "1.0.0",
                                                     "scripts": {"test": "echo ok"}}))
    payload = tmp_path / "payload.sh"
    payload.write_text(f"#!/bin/sh\ntouch {victim}/zz\n")
    payload.chmod(0o755)
    return victim, victim / "npmrc", payload


def _escapes(tmp_path: Path, service_home: Path, other: Gate, calls: list[str],
             state: str | None = None) -> str | None:
    """S2's sequence: the victim (its SessionStart failed) calls first at the service (its id
    late); the other gate's session runs ``calls`` (``{audit}``: the audit log, ``{kept}``:
    the sessions file, ``{state}``: the service's state folder, ``SKILLGRANT_STATE_DIR``
    given as ``state`` or the suite's, ``{T}``: the test's folder), each asked first; the
    service restarts;
    the other session registers the victim with the service's values, the victim writes
    ``script-shell`` to its npmrc and runs ``npm run test``. Asserts that real npm ran no
    payload; returns what held (the first call the other gate denied, a refused start, the
    registration's answer), or None when every step was allowed and npm ran none."""
    if shutil.which("npm") is None:
        pytest.skip("not installed: npm")
    victim, npmrc, payload = _victim(tmp_path)
    logs = tmp_path / "logs"
    logs.mkdir()
    audit = logs / "audit.log"
    extra = {} if state is None else {"SKILLGRANT_STATE_DIR": state}
    try:
        first = _serve(tmp_path, service_home, audit, extra=extra)
    except RuntimeError as e:  # (its HOME refused: C1)
        return f"refused first start: {str(e)[-300:]}"
    with first as before:
        denied = _decided(before, "victim", victim, "Write", file_path=str(npmrc), content="")
        assert "registered no environment" in denied, denied
        before.stop()
    kept = _witnessed(audit)
    assert kept.exists(), kept
    folder = state or os.environ.get("SKILLGRANT_STATE_DIR") or str(kept.parent.parent)
    where = tmp_path / "other"
    for call in calls:
        call = call.format(audit=audit, kept=kept, T=tmp_path, home=service_home,
                           state=folder)
        if not other.allows(where, call):
            return call
        _bash(call, where, other.env)
    try:
        after = _serve(tmp_path, service_home, audit, extra=extra)
    except RuntimeError as e:
        return f"refused start: {str(e)[-300:]}"
    with after:
        posted = _register(after, "victim")
        written = _decided(after, "victim", victim, "Write", file_path=str(npmrc),
                           content=f"script-shell={payload}\n")
        if written == "allowed":
            npmrc.write_text(f"script-shell={payload}\n")  # (the runtime's Write)
        ran = _decided(after, "victim", victim, "Bash", command="npm run test")
        after.stop()
    if ran == "allowed":
        env = {**os.environ, "HOME": str(service_home), "npm_config_userconfig": str(npmrc)}
        _bash("npm run test", victim, env)
    assert not (victim / "zz").exists(), (posted.status, posted.body, written, ran)
    return None if posted.status == 200 else f"registration: {posted.status} {posted.body!r}"


# --- the class: another gate empties the audit log and the sessions file -----------------------

#: The other session's HOME: the service's (``{T}/svc``), spelled otherwise, another, or the
#: usual one (the password database's home of this user: the gate only reads there, and the
#: calls write under ``{T}`` only).
HOMES = {"same-home": "{T}/svc", "same-home-spelled": "{T}/./svc/",
         "same-home-linked": "{T}/lnk", "another-home": "{T}/home",
         "usual-home": pwd.getpwuid(os.geteuid()).pw_dir}
#: Calls of another gate's session (plan ``Bash(cp /dev/null *)``) that empty both files.
EMPTY_BOTH = ["cp /dev/null {audit}", "cp /dev/null {kept}"]


@pytest.mark.parametrize("homes", list(HOMES))
def test_a_gate_of_another_session_empties_the_sessions_file(tmp_path: Path, homes: str) -> None:
    """The other gate's session empties the audit log (no gate but the service's guards it)
    and the sessions file. ``same-home``: its ``HOME`` is the service's. ``another-home``:
    the service runs with ``HOME=T/svc`` (a scratch home, as the victim's runtime, whose HOME
    the service compares), the other session with its own (``T/home``); neither is the
    password database's home."""
    service_home = tmp_path / "svc"
    other_home = HOMES[homes].format(T=tmp_path)  # (as written: a HOME spelled otherwise)
    service_home.mkdir()
    (tmp_path / "lnk").symlink_to(service_home)  # (the other's HOME through a link)
    gate = _other_gate(tmp_path / "other", ["Bash(cp /dev/null *)"], other_home)
    _escapes(tmp_path, service_home, gate, EMPTY_BOTH)


# --- SKILLGRANT_STATE_DIR given to the service, not to the other gate ---------------------------

#: The other session's ``SKILLGRANT_STATE_DIR``: unset (its gate guards the usual home's
#: state folder), or another folder.
STATE_DIRS = {"unset": None, "another": "{T}/other-state"}


@pytest.mark.parametrize("case", list(STATE_DIRS))
def test_a_gate_without_the_services_state_folder(tmp_path: Path, case: str) -> None:
    """The service runs with ``SKILLGRANT_STATE_DIR={T}/state`` (an operator's, docs: "set
    it for the service and every runtime alike"), the other gate's runtime without it or with
    another: that gate guards its own, not the service's."""
    given = STATE_DIRS[case]
    home = tmp_path / "svc"
    gate = _other_gate(tmp_path / "other", ["Bash(cp /dev/null *)"], home,
                       {} if given is None else {
                           "SKILLGRANT_STATE_DIR": given.format(T=tmp_path)},
                       drop=("SKILLGRANT_STATE_DIR",))
    _escapes(tmp_path, home, gate, EMPTY_BOTH, str(tmp_path / "state"))


_IN_NAMESPACE = """
import os, sys
sys.path[:0] = [{tests!r}, {service!r}]
os.environ.pop("SKILLGRANT_STATE_DIR", None)
import test_s53_sreview as t
from pathlib import Path
top = Path({top!r})
gate = t._other_gate(top / "other", ["Bash(cp /dev/null *)"], {home!r},
                     drop=("SKILLGRANT_STATE_DIR",))
print("HELD", repr(t._escapes(top, top / "svc", gate, t.EMPTY_BOTH)))
"""


@pytest.mark.parametrize("homes", ["another-home", "usual-home"])
def test_the_usual_state_folder_whatever_the_homes(tmp_path: Path, homes: str) -> None:
    """R1 as a user meets it (no ``SKILLGRANT_STATE_DIR`` anywhere): the service with a
    scratch HOME, the other gate's runtime with another or the usual one; the state folder
    the password database's home's. Run in a private mount namespace whose ``/etc/passwd``
    names a scratch folder as this user's home (the runner's own is never written). Held
    since 6cf0ef4: every gate guards the usual home's state folder whatever its HOME."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare")
    me = pwd.getpwuid(os.geteuid())
    usual = tmp_path / "pwhome"
    usual.mkdir(mode=0o700)
    passwd = tmp_path / "passwd"
    passwd.write_text("".join(
        ":".join([*fields[:5], str(usual), *fields[6:]]) if fields[0] == me.pw_name
        else line for line in Path("/etc/passwd").read_text().splitlines(keepends=True)
        for fields in [line.split(":")]))
    top = tmp_path / "ns"
    top.mkdir()
    here = Path(__file__).resolve().parent
    code = _IN_NAMESPACE.format(tests=str(here.parent), service=str(here), top=str(top),
                                home=str(usual if homes == "usual-home" else top / "home"))
    script = f"mount --bind {passwd} /etc/passwd && exec {sys.executable} -c \"$0\""
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script,
                           code], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0 and "HELD" in done.stdout, (done.stdout[-2000:],
                                                            done.stderr[-3000:])
    assert any((usual / ".local" / "state" / "skillgrant").rglob("*.sessions")), \
        "the service kept no sessions file in the usual home"


_UNNAMED = """
import os, sys
sys.path[:0] = [{tests!r}, {service!r}]
os.environ.pop("SKILLGRANT_STATE_DIR", None)
import test_s53_sreview as t
from pathlib import Path
top = Path({top!r})
gate = t._other_gate(top / "other", ["Bash(cp /dev/null *)"], {home!r},
                     drop=("SKILLGRANT_STATE_DIR",))
gate.env["SG_HOOK"] = gate.hook  # (the runtime's own view: its user not in /etc/passwd)
gate.hook = ("exec unshare -m --propagation private sh -c "
             "'mount --bind {unnamed} /etc/passwd && exec sh -c " + chr(34) + "$SG_HOOK"
             + chr(34) + "'")
print("HELD", repr(t._escapes(top, top / "svc", gate, t.EMPTY_BOTH)))
"""


@pytest.mark.parametrize("view", ["unnamed", "named-elsewhere"])
def test_a_runtime_whose_user_the_password_database_does_not_name(tmp_path: Path,
                                                                  view: str) -> None:
    """The service runs where its user has a home in the password database (its state folder
    there); the other gate's runtime runs where the same user is not named (a container run
    with ``--user UID`` and the home mounted at the same path, HOME set to it): that gate
    finds no usual home, and guards no state folder. Sound: it guards HOME's, or refuses.
    Both in a private mount namespace whose ``/etc/passwd`` names a scratch home; the
    runtime's view a nested one whose ``/etc/passwd`` lacks this user (``unnamed``), or names
    another home for it (``named-elsewhere``: a container image's own entry for the uid)."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare")
    me = pwd.getpwuid(os.geteuid())
    usual = tmp_path / "pwhome"
    usual.mkdir(mode=0o700)
    lines = Path("/etc/passwd").read_text().splitlines(keepends=True)
    passwd, unnamed = tmp_path / "passwd", tmp_path / "unnamed"
    passwd.write_text("".join(
        ":".join([*fields[:5], str(usual), *fields[6:]]) if fields[0] == me.pw_name
        else line for line in lines for fields in [line.split(":")]))
    unnamed.write_text("".join(line for line in lines if line.split(":")[0] != me.pw_name)
                       if view == "unnamed" else "".join(
        ":".join([*fields[:5], str(tmp_path / "elsewhere"), *fields[6:]])
        if fields[0] == me.pw_name else line
        for line in lines for fields in [line.split(":")]))
    top = tmp_path / "ns"
    top.mkdir()
    here = Path(__file__).resolve().parent
    code = _UNNAMED.format(tests=str(here.parent), service=str(here), top=str(top),
                           home=str(usual), unnamed=str(unnamed))
    script = f"mount --bind {passwd} /etc/passwd && exec {sys.executable} -c \"$0\""
    done = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script,
                           code], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0 and "HELD" in done.stdout, (done.stdout[-2000:],
                                                            done.stderr[-3000:])


# --- a folder bound over the state folder (root's sessions: mount) ------------------------------

def _mounted_under(folder: Path) -> list[str]:
    """The mount points at or below ``folder``, the last mounted first."""
    with open("/proc/mounts", encoding="utf-8") as mounts:
        points = [line.split()[1].replace("\\040", " ") for line in mounts]
    return [p for p in reversed(points) if p == str(folder) or p.startswith(f"{folder}/")]


def _unmount_under(folder: Path) -> None:
    for _ in range(8):
        points = _mounted_under(folder)
        if not points:
            return
        subprocess.run(["umount", points[0]], capture_output=True, timeout=60, check=False)


#: What a root session's ``mount`` may lay over the service's state folder, or a folder
#: above it (``{home}``: the service's HOME, the other session's too).
MOUNTS = {
    "bind-state": "mount --bind {T}/empty {T}/st/skillgrant",
    "bind-parent": "mount --bind {T}/empty {T}/st",
    "tmpfs-parent": "mount -t tmpfs none {T}/st",
    # the folder above the state folder a mount of its own (a container's home bound from
    # the host, as ``~`` or ``~/.local`` above the usual one): lifted
    "umount-parent": "umount -l {T}/st",
}


@pytest.mark.parametrize("case", list(MOUNTS))
def test_a_folder_mounted_over_the_state_folder(tmp_path: Path, case: str) -> None:
    """A session as root, gated by another gate of the service's environment (its
    ``SKILLGRANT_STATE_DIR`` ``{T}/st/skillgrant``, as ``~/.local/state/skillgrant`` of the
    usual home), with the plan ``Bash(cp /dev/null *)``, ``Bash(mount *)``,
    ``Bash(umount *)``: it empties the audit log (that gate does not guard it) and lays a
    folder over the state folder or a folder above it, or lifts one (the gate reads
    ``mount``'s target as no write to what lies below it); the service restarts on what the
    mount shows (a new sessions file) and forgets the victim's first call."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("needs root and mount")
    (tmp_path / "empty").mkdir()
    (tmp_path / "st").mkdir(mode=0o700)
    home, state = tmp_path / "svc", str(tmp_path / "st" / "skillgrant")
    gate = _other_gate(tmp_path / "other", ["Bash(cp /dev/null *)", "Bash(mount *)",
                                            "Bash(umount *)"], home,
                       {"SKILLGRANT_STATE_DIR": state})
    try:
        if case == "umount-parent":
            (tmp_path / "bound").mkdir(mode=0o700)
            subprocess.run(["mount", "--bind", str(tmp_path / "bound"), str(tmp_path / "st")],
                           check=True, timeout=60)
        _escapes(tmp_path, home, gate, ["cp /dev/null {audit}", MOUNTS[case]], state)
    finally:
        _unmount_under(tmp_path)


# --- every spelling of a write to the state folder, through another gate of the same HOME ------

#: Calls of a session gated by the printed hook command with the plan ``WRITERS``, its
#: environment the service's (``{home}/.local/state/skillgrant`` the state folder, as in the
#: usual home: ``SKILLGRANT_STATE_DIR`` names it); ``{kept}`` the sessions file, ``{name}``
#: its name, ``{pid}`` a process holding it open at descriptor 7 (as the running service
#: does), ``{T}`` the test's folder (``{T}/empty``, ``{T}/evil`` holding an empty sessions
#: file at the same place under ``.local``, ``{T}/evil.tar``, ``{T}/evil.zip``).
SPELLINGS = """
cp /dev/null {kept}
rm -f {kept}
rm -rf {home}/.local/state/skillgrant
rm -rf {home}/.local/state
rm -rf {home}/.local
rm -rf {home}
mv {home}/.local/state/skillgrant {home}/old
mv {home}/.local {home}/old
mv {home} {T}/oldhome
cd {home}/.local/state && rm -rf skillgrant
cd {home} && rm -rf .local
cd {T} && rm -rf svc
find {home} -name '*.sessions' -delete
find {home}/.local -delete
find {T} -name '*.sessions' -delete
find {home} -mindepth 1 -delete
rm -rf {home}/.local/state/skill*
rm -rf {home}/.loc*
rm -rf {T}/sv*
rm -rf {home}/.local/state/skillgrant/sessions/*
truncate -s 0 {home}/.local/state/skillgrant/sessions/*
: > {kept}
echo > {kept}
rsync -a --delete {T}/empty/ {home}/.local/state/
tar -C {home} -xf {T}/evil.tar
cd {home} && tar -xf {T}/evil.tar
unzip -o {T}/evil.zip -d {home}
cp -r {T}/evil/. {home}/
cp -r {T}/evil/.local {home}/
shred -u {kept}
dd if=/dev/null of={kept}
tee {kept} < /dev/null
sed -i d {kept}
install /dev/null {kept}
ln -f /dev/null {kept}
ln -sfn {T}/empty {home}/.local/state/skillgrant/sessions
unlink {kept}
chmod 777 {home}/.local/state/skillgrant/sessions
rmdir {home}/.local/state/skillgrant/sessions
mv -t {T} {home}/.local
mv --target-directory={T} {home}/.local
gzip {kept}
tar --remove-files -cf {T}/x.tar {home}/.local
split -b 1 {kept} {kept}
sort -o {kept} /dev/null
truncate -s 0 /proc/{pid}/fd/7
cp /dev/null /proc/{pid}/fd/7
: > /proc/{pid}/fd/7
truncate -s 0 /proc/*/fd/7
find /proc/{pid}/fd -lname '*.sessions' -exec truncate -s 0 {{}} +
cp /dev/null /proc/self/root{kept}
truncate -s 0 /proc/1/root{kept}
cd /proc/{pid}/fd && truncate -s 0 7
tee /proc/{pid}/fd/7 < /dev/null
dd of=/proc/{pid}/fd/7 if=/dev/null
cp /dev/null {home}//.local/./state/../state/skillgrant/sessions/{name}
cp /dev/null {T}/other/../svc/.local/state/skillgrant/sessions/{name}
cp /dev/null {home}/.local/state/skillgrant/sessions/?*.sessions
cp /dev/null {home}/.local/state/skillgrant/sessions/[0-9a-f]*
cp /dev/null {home}/.local/state/skillgrant/sessions/{{{name},x}}
""".strip().split("\n")
#: The other gate's plan: every program above.
WRITERS = [f"Bash({p} *)" for p in (
    "cp", "rm", "mv", "find", "truncate", "tar", "rsync", "ln", "cd", "echo", ":", "shred",
    "unzip", "install", "dd", "tee", "sed", "chmod", "rmdir", "gzip", "split", "sort", "unlink")]
_FILE = HEADER + b'["c","victim"]\n'


@pytest.fixture(scope="module")
def spelled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The other gate (its HOME the service's), the test's folder and the holder process."""
    top = tmp_path_factory.mktemp("s53sreview-spelled")
    home = top / "svc"  # (the state folder where the usual home keeps it, the variable set)
    state = home / ".local" / "state" / "skillgrant"
    kept = _kept(top / "logs" / "audit.log", state)
    (top / "logs").mkdir()
    home.mkdir()
    kept.parent.mkdir(parents=True, exist_ok=True)
    kept.write_bytes(_FILE)
    (top / "empty").mkdir()
    evil = top / "evil" / ".local" / "state" / "skillgrant" / "sessions" / kept.name
    evil.parent.mkdir(parents=True)
    evil.write_bytes(b"")
    subprocess.run(["tar", "-C", str(top / "evil"), "-cf", str(top / "evil.tar"), ".local"],
                   check=True, timeout=60)
    if shutil.which("zip"):
        subprocess.run(["zip", "-qr", str(top / "evil.zip"), ".local"], cwd=top / "evil",
                       check=True, timeout=60)
    gate = _other_gate(top / "other", WRITERS, home, {"SKILLGRANT_STATE_DIR": str(state)})
    holder = subprocess.Popen(["bash", "-c", f"exec 7>>'{kept}'; exec sleep 3600"])
    try:
        yield {"top": top, "home": home, "kept": kept, "gate": gate, "pid": holder.pid}
    finally:
        holder.kill()
        holder.wait()


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_another_gate_writes_no_spelling_of_the_state_folder(
        spelled: dict[str, Any], spelling: str) -> None:
    """Each call the other gate allows leaves the sessions file as it was (real bash runs
    it); the state folder is restored after each."""
    top, home, kept = spelled["top"], spelled["home"], spelled["kept"]
    call = spelling.format(kept=kept, home=home, T=top, name=kept.name, pid=spelled["pid"])
    if not spelled["gate"].allows(top / "other", call):
        return
    try:
        _bash(call, top / "other", spelled["gate"].env)
        after = kept.read_bytes() if kept.is_file() else None
    finally:
        if not home.is_dir() or not kept.is_file() or kept.read_bytes() != _FILE:
            shutil.rmtree(home, ignore_errors=True)
            kept.parent.mkdir(parents=True, exist_ok=True)
            kept.write_bytes(_FILE)
    assert after == _FILE, (call, after)


# --- what a careful user now hits (COST rows) --------------------------------------------------

def _late_after_restart(tmp_path: Path, state: Path) -> Any:
    """The victim calls first at a service whose ``SKILLGRANT_STATE_DIR`` is ``state``; the
    service restarts; the answer to a registration of the victim (409 late: kept)."""
    audit = tmp_path / "logs" / "audit.log"
    audit.parent.mkdir(exist_ok=True)
    victim = tmp_path / "victim"
    victim.mkdir(exist_ok=True)
    extra = {"SKILLGRANT_STATE_DIR": str(state)}
    with _serve(tmp_path, tmp_path / "svc", audit, extra=extra) as before:
        denied = _decided(before, "victim", victim, "Write", file_path=str(victim / "npmrc"),
                          content="")
        assert "registered no environment" in denied, denied
        before.stop()
    with _serve(tmp_path, tmp_path / "svc", audit, extra=extra) as after:
        posted = _register(after, "victim")
        after.stop()
    return posted


def test_a_state_folder_reached_through_a_link_keeps_sessions(tmp_path: Path) -> None:
    """The state folder named through a link (a home ``/home -> /data/home``, an
    automounter's link; here ``SKILLGRANT_STATE_DIR`` ``{T}/sl/skillgrant``, ``{T}/sl ->
    {T}/data``): harmless, every gate reads the real path. The service starts and keeps the
    registry (C1, fixed in 6cf0ef4)."""
    (tmp_path / "data").mkdir(mode=0o700)
    (tmp_path / "sl").symlink_to(tmp_path / "data")
    posted = _late_after_restart(tmp_path, tmp_path / "sl" / "skillgrant")
    assert posted.status == 409 and b"late" in posted.body, posted.body


def test_a_group_writable_folder_of_a_private_group_keeps_sessions(tmp_path: Path) -> None:
    """A folder above the state folder made 0775 (umask 002, as Debian's and Ubuntu's
    pam_umask sets it for a user whose group is their own: ``USERGROUPS_ENAB``), its group
    this user's own: harmless. The service starts and keeps the registry (C2, fixed)."""
    (tmp_path / "gw").mkdir()
    (tmp_path / "gw").chmod(0o775)
    posted = _late_after_restart(tmp_path, tmp_path / "gw" / "skillgrant")
    assert posted.status == 409 and b"late" in posted.body, posted.body


def test_two_services_of_two_homes_on_one_audit_log_share_the_victim(tmp_path: Path) -> None:
    """Two services on one audit log (docs/service.md: services sharing a log share the
    sessions file), started from two shells whose HOME differs (one a scratch home): the
    victim, late at the one, stays late at the other."""
    audit = tmp_path / "logs" / "audit.log"
    audit.parent.mkdir()
    victim = tmp_path / "victim"
    victim.mkdir()
    with _serve(tmp_path, tmp_path / "one", audit) as one, \
            _serve(tmp_path, tmp_path / "two", audit) as two:
        denied = _decided(one, "victim", victim, "Write", file_path=str(victim / "npmrc"),
                          content="")
        assert "registered no environment" in denied, denied
        posted = _register(two, "victim")
        one.stop()
        two.stop()
    assert posted.status == 409 and b"late" in posted.body, posted.body


#: (not in the usual home: that service would keep its file there; not through a link: C1)
@pytest.mark.parametrize("homes", [h for h in HOMES if h not in ("usual-home",
                                                                 "same-home-linked")])
def test_a_session_of_another_service_empties_the_sessions_file(tmp_path: Path,
                                                               homes: str) -> None:
    """As above, the other gate a second service (its own plan ``Bash(cp /dev/null *)``, its
    own audit log, its HOME the first's or another; its session's HOME is its service's)."""
    service_home = tmp_path / "svc"
    other_home = HOMES[homes].format(T=tmp_path)  # (as written: a HOME spelled otherwise)
    service_home.mkdir()
    (tmp_path / "lnk").symlink_to(service_home)  # (the other's HOME through a link)
    with _other_service(tmp_path / "other", ["Bash(cp /dev/null *)"], other_home) as gate:
        _escapes(tmp_path, service_home, gate, EMPTY_BOTH)


def test_the_other_gate_allows_a_harmless_write(spelled: dict[str, Any]) -> None:
    """The control of the spellings above: the other gate allows its plan's writers
    elsewhere (a denial there is the state folder's guard, not a plan refusing all)."""
    top = spelled["top"]
    for call in (f"cp /dev/null {top}/harmless", f"rm -rf {top}/harmless",
                 f"cp /dev/null {spelled['home']}/.local/state/other-app"):
        assert spelled["gate"].allows(top / "other", call), call


# (test_a_folder_mounted_over_the_state_folder: held since s54-sfix, gate/mounters.py)
OPEN.add("test_a_gate_without_the_services_state_folder",
         "s53-sreview R3: SKILLGRANT_STATE_DIR given to the service and not to another "
         "gate's runtime (or another value), whose hook was printed where the variable was not "
         "the service's: that gate guards its own state folder, not the service's (R1 through "
         "the variable). A hook printed in the service's environment carries it "
         "(--state-dir: test_s54_sfix::test_a_hook_printed_for_the_service_guards_its_folder); "
         "no file every gate reads can name the folder without the suite writing the "
         "runner's home (docs/decisions.md, session 54)")


# --- a home reached through a link, the link changed by another gate's session -----------------

#: Calls of another gate's session (its environment the service's: ``{T}/sl/skillgrant`` the
#: state folder, ``{T}/sl`` a link to ``{T}/data``) that point the link elsewhere
#: (``{T}/evil``, an empty folder).
RELINKS = {
    "ln-sfn": "ln -sfn {T}/evil {T}/sl",
    "rm-then-ln": "rm -f {T}/sl && ln -s {T}/evil {T}/sl",
    "unlink-then-ln": "unlink {T}/sl && ln -s {T}/evil {T}/sl",
    "mv-T": "ln -s {T}/evil {T}/next && mv -T {T}/next {T}/sl",
    "mv-away": "mv {T}/sl {T}/gone && ln -s {T}/evil {T}/sl",
    "cp-P": "ln -s {T}/evil {T}/next && cp -P --remove-destination {T}/next {T}/sl",
    "find-delete": "find {T} -maxdepth 1 -name sl -delete && ln -s {T}/evil {T}/sl",
    "mv-data": "mv {T}/data {T}/gone && mkdir {T}/data",
}


@pytest.mark.parametrize("case", list(RELINKS))
def test_a_state_folder_link_pointed_elsewhere(tmp_path: Path, case: str) -> None:
    """The state folder is reached through a link (``{T}/sl -> {T}/data``, which the
    service accepts since 6cf0ef4, opening the file at its real path): the other gate's
    session (the same ``SKILLGRANT_STATE_DIR``) points the link elsewhere, or moves the
    folder it leads to, and empties the audit log; the restarted service follows the link
    to a new sessions file."""
    (tmp_path / "data").mkdir(mode=0o700)
    (tmp_path / "evil").mkdir(mode=0o700)
    (tmp_path / "sl").symlink_to(tmp_path / "data")
    state = str(tmp_path / "sl" / "skillgrant")
    home = tmp_path / "svc"
    gate = _other_gate(tmp_path / "other", ["Bash(cp /dev/null *)", "Bash(ln *)",
                                            "Bash(rm *)", "Bash(unlink *)", "Bash(mv *)",
                                            "Bash(cp *)", "Bash(find *)", "Bash(mkdir *)"],
                       home, {"SKILLGRANT_STATE_DIR": state})
    _escapes(tmp_path, home, gate, ["cp /dev/null {audit}", RELINKS[case]], state)


# --- the audit log alone: another gate's session may write it (held: the registry stays) -------

_FORGED = json.dumps({"session_id": None, "runtime_tool": None, "tool": None,
                      "decision": "none", "status": "sessions-file",
                      "witness": f"{len(HEADER)} sha256:" + hashlib.sha256(HEADER).hexdigest()}
                     ).replace("{", "\\173").replace("}", "\\175")  # (printf's escapes)
#: What the other gate's session (plan ``Bash(cp *)``, ``Bash(rm *)``, ``Bash(mv *)``,
#: ``Bash(printf *)``, ``Edit`` of the log's folder, its HOME the service's) does to the
#: audit log alone.
LOG_ONLY = {
    "emptied": ["cp /dev/null {audit}"],
    "removed": ["rm -f {audit}"],
    "moved": ["mv {audit} {audit}.old"],
    "forged-witness": ["printf '" + _FORGED + "\\n' >> {audit}"],
    "emptied-then-forged": ["cp /dev/null {audit}", "printf '" + _FORGED + "\\n' >> {audit}"],
}


@pytest.mark.parametrize("case", list(LOG_ONLY))
def test_the_audit_log_alone_leaves_the_registry(tmp_path: Path, case: str) -> None:
    """Docs (session 53): a log emptied, removed or forged leaves the registry as it was, at
    worst a refused start. A witness forged to name the header alone lets the start read the
    file whole: the victim stays late."""
    home = tmp_path / "svc"
    gate = _other_gate(tmp_path / "other", ["Bash(cp *)", "Bash(rm *)", "Bash(mv *)",
                                            "Bash(printf *)", f"Edit(/{tmp_path}/logs/**)"],
                       home)
    held = _escapes(tmp_path, home, gate, LOG_ONLY[case])
    assert held is not None, "the victim registered"


# --- a folder another user may write through a group it shares (C2's fix) ----------------------

def _group_member() -> tuple[int, int, int] | None:
    """A user of this machine (uid, primary gid) and a group (gid) it is a member of, not as
    its primary group: ``postgres`` in ``ssl-cert`` on Debian."""
    import grp
    for group in grp.getgrall():
        for name in group.gr_mem:
            try:
                user = pwd.getpwnam(name)
            except KeyError:
                continue
            if user.pw_uid not in (0, os.geteuid()):
                return user.pw_uid, user.pw_gid, group.gr_gid
    return None


def _acl(folder: Path, tag: int, ident: int) -> None:
    """Give ``folder`` (0700) a POSIX ACL granting rwx to the user (``tag`` 2) or group (8)
    ``ident``, as ``setfacl -m u:ID:rwx`` does: its mode's group bits become the mask's."""
    undefined = 0xFFFFFFFF
    entries = [(0x01, 7, undefined), (tag, 7, ident), (0x04, 0, undefined),
               (0x10, 7, undefined), (0x20, 0, undefined)]
    os.setxattr(folder, "system.posix_acl_access", struct.pack("<I", 2) + b"".join(
        struct.pack("<HHI", *entry) for entry in sorted(entries)))  # (by tag: the kernel's)


#: How another user may write the folders: a group of 0770 folders it is in (a supplementary
#: group, its own group), or an ACL entry of 0700 folders naming it or such a group (their
#: group this user's private one: C2's fix accepts its write bit, which is the ACL's mask).
SHARED = ("member-group", "primary-group", "acl-user", "acl-group")


@pytest.mark.parametrize("shared", SHARED)
def test_a_folder_of_a_group_another_user_is_in_holds_no_sessions(shared: str) -> None:
    """The audit log's folder and the state folder written by another user (``SHARED``:
    ``member-group``: 0770, a supplementary group of it, as ``ssl-cert`` holds ``postgres``).
    Sound: the start is refused, or the victim stays late after that user removes both files
    (unlinking needs write on the folder only)."""
    found = _group_member()
    if os.geteuid() != 0 or shutil.which("setpriv") is None or found is None:
        pytest.skip("needs root, setpriv and a group holding another user")
    uid, gid, member = found
    top = Path(tempfile.mkdtemp(prefix="s53sreview-"))  # (the other user reaches it)
    try:
        top.chmod(0o755)
        logs, state, home = top / "logs", top / "state", top / "home"
        for folder in (logs, state):
            folder.mkdir(mode=0o700)
            if shared.startswith("acl-"):
                try:
                    _acl(folder, *((2, uid) if shared == "acl-user" else (8, member)))
                except OSError as e:
                    pytest.skip(f"no POSIX ACLs here: {e}")
            else:
                os.chown(folder, 0, member if shared == "member-group" else gid)
                folder.chmod(0o770)
        home.mkdir(mode=0o700)
        audit = logs / "audit.log"
        extra = {"SKILLGRANT_STATE_DIR": str(state)}
        try:
            before = _serve(top, home, audit, extra=extra)
        except RuntimeError:
            return  # it refused the folder: held
        with before:
            victim = top / "victim"
            victim.mkdir()
            denied = _decided(before, "victim", victim, "Write",
                              file_path=str(victim / "npmrc"), content="")
            assert "registered no environment" in denied, denied
            before.stop()
        kept = [p for p in (*state.rglob("*.sessions"), *home.rglob("*.sessions"))]
        assert kept, "no sessions file"
        # (the sessions file's own folder is the service's, 0700: that user renames it)
        subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={gid}", "--init-groups",
                        "sh", "-c", 'rm -f "$1" && mv "$2" "$2.gone"', "-", str(audit),
                        str(kept[0].parent)], timeout=60, check=True)
        with _serve(top, home, audit, extra=extra) as after:
            posted = _register(after, "victim")
            after.stop()
    finally:
        shutil.rmtree(top)
    assert posted.status == 409, posted.body
