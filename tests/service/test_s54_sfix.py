"""Session 54 (s54-sfix): the state folder every gate guards, against programs that change what
a path means, and a service's ``SKILLGRANT_STATE_DIR`` carried into the printed hook (issue 29,
review s53-sreview R2, R3).

R2: ``mount --bind X ~/.local`` (a tmpfs over a parent, ``umount`` of a parent) hides the
sessions file below its target: the service, restarted, makes a new one and forgets which ids
called first. A mounter's words are now read as a folder writer's (``gate/mounters.py``): a
word naming a guarded path, a folder above one or a path in one makes the call ``unknown``;
``mount -a``, ``--fstab``, ``umount DEVICE`` (no word names the folder) too, and a ``mount
DEVICE`` names the folder ``/etc/fstab`` gives it. Each case asks the printed hook; that the
denied calls matter is shown by real bash in a private mount namespace, and by the review's
whole chain (tests/service/test_s53_sreview.py::test_a_folder_mounted_over_the_state_folder).

R3: the hook printed where ``SKILLGRANT_STATE_DIR`` is set carries it (``--state-dir``): a
runtime that lacks the variable, or has another, still guards the service's folder.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from test_s53_sreview import EMPTY_BOTH, HookGate, _environ, _escapes, _hook

from skillgrant.gate.config import snippet
from skillgrant.gate.homefiles import STATE_VARIABLE

#: The plan of the other gate's session: the mounters named, and the writers of a parent
#: (``chroot``, ``bwrap``, ``unshare``: ``Bash(*)``; the gate reads no narrower entry of a
#: runner: it refuses the plan, or the call).
ENTRIES = ["Bash(mount *)", "Bash(umount *)", "Bash(fusermount *)", "Bash(sshfs *)",
           "Bash(bindfs *)", "Bash(systemd-mount *)", "Bash(mv *)", "Bash(rm *)", "Bash(cp *)"]
#: The cases whose program the plan grants through ``Bash(*)``.
RUNNERS = ("chroot", "bwrap-bind", "unshare-shared")


def _gate(tmp_path: Path, entries: list[str] = ENTRIES) -> HookGate:
    """The printed hook of ``entries``, its session's state folder ``{T}/st/skillgrant`` (as
    ``~/.local/state/skillgrant``: ``{T}/st`` stands for ``~/.local/state``), HOME
    ``{T}/home``."""
    for folder in ("st/skillgrant/sessions", "empty", "free", "home", "w"):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": entries}))
    state = str(tmp_path / "st" / "skillgrant")
    with _environ(SKILLGRANT_STATE_DIR=state):
        hook = _hook(plan)
    return HookGate(hook, {**os.environ, "HOME": str(tmp_path / "home"),
                           STATE_VARIABLE: state})


#: Calls laying a filesystem over the state folder or a folder above it (``{T}/st`` as
#: ``~/.local/state``, ``~`` the session's HOME), taking one away, binding it elsewhere, or
#: running a program where a path names another file; and moving or removing a parent.
OVER = {
    "bind-parent": "mount --bind {T}/empty {T}/st",
    "bind-parent-option": "mount -o bind {T}/empty {T}/st",
    "tmpfs-parent": "mount -t tmpfs none {T}/st",
    "bind-home": "mount --bind {T}/empty ~",
    "bind-home-spelled": "mount --bind {T}/empty {T}/./home/",
    "target-option": "mount --target={T}/st --bind {T}/empty",
    "rbind": "mount -R {T}/empty {T}/st",
    "move": "mount --move {T}/st {T}/free",
    "remount": "mount -o remount,ro {T}/st",
    "bind-out": "mount --bind {T}/st/skillgrant {T}/free",
    "fstab": "mount -T {T}/fstab {T}/free",
    "umount-parent": "umount -l {T}/st",
    "umount-all": "umount -a",
    "umount-all-targets": "umount -A {T}/free",
    "fusermount": "fusermount -u {T}/st",
    "bindfs": "bindfs {T}/empty {T}/st",
    "systemd-mount": "systemd-mount --type=tmpfs none {T}/st",
    "sshfs": "sshfs localhost:/tmp {T}/st",
    "chroot": "chroot {T}/st /bin/sh -c 'echo > /skillgrant/sessions/x'",
    "bwrap-bind": "bwrap --bind {T}/st/skillgrant {T}/free --bind / / "
                  "sh -c 'echo > {T}/free/sessions/x'",
    "unshare-shared": "unshare -m --propagation shared mount --bind {T}/empty {T}/st",
    "mv-parent": "mv {T}/st {T}/gone",
    "rm-parent": "rm -rf {T}/st",
    "mv-home": "mv ~ {T}/gone",
    "cp-over-parent": "cp -r {T}/empty/. {T}/st",
}


@pytest.mark.parametrize("case", list(OVER))
def test_a_mounter_over_the_state_folder_is_denied(tmp_path: Path, case: str) -> None:
    """Each call changes what the state folder's path means (or moves it away): the printed
    hook of a plan granting the program denies it."""
    gate = _gate(tmp_path, ["Bash(*)"] if case in RUNNERS else ENTRIES)
    call = OVER[case].format(T=tmp_path)
    assert not gate.allows(tmp_path / "w", call), call


#: Mounts and unmounts of folders that hold no guarded path, and hold none: allowed (the
#: denials above are the state folder's, not a refusal of every mount).
ELSEWHERE = ["mount --bind {T}/empty {T}/free", "umount {T}/free", "umount -l {T}/free",
             "mount -t tmpfs none {T}/free", "sshfs localhost:/tmp {T}/free",
             "fusermount -u {T}/free", "unshare -r ls", "bwrap --bind {T}/empty {T}/free true",
             "chroot {T}/free true"]


@pytest.mark.parametrize("call", ELSEWHERE)
def test_a_mounter_elsewhere_is_allowed(tmp_path: Path, call: str) -> None:
    entries = ["Bash(*)"] if call.startswith(("chroot", "bwrap", "unshare")) else ENTRIES
    assert _gate(tmp_path, entries).allows(tmp_path / "w", call.format(T=tmp_path))


def _in_namespace(script: str) -> subprocess.CompletedProcess[bytes]:
    """``script`` run by real bash in a private mount namespace (its mounts are undone with
    it; nothing of the machine's changes)."""
    return subprocess.run(["timeout", "60", "unshare", "-m", "--propagation", "private",
                           "bash", "-c", script], capture_output=True, timeout=90, check=False)


def _root_and(*programs: str) -> None:
    if os.geteuid() != 0 or any(shutil.which(p) is None for p in ("unshare", *programs)):
        pytest.skip("needs root, unshare and " + ", ".join(programs))


@pytest.mark.parametrize("case", ["bind-parent", "tmpfs-parent", "bind-home"])
def test_the_denied_mount_hides_the_sessions_file(tmp_path: Path, case: str) -> None:
    """What the denial prevents, by real bash: after the call the sessions file is gone from
    its path (the service, restarted, would make a new one)."""
    _root_and("mount")
    gate = _gate(tmp_path)
    kept = tmp_path / "st" / "skillgrant" / "sessions" / "s.sessions"
    kept.write_text("kept\n")
    call = OVER[case].format(T=tmp_path).replace("~", str(tmp_path / "home"))
    if case == "bind-home":  # (the state folder in the home, as the usual one is)
        call = f"mount --bind {tmp_path}/empty {tmp_path}"
    shown = _in_namespace(f"{call} && test -e {shlex.quote(str(kept))} && echo SHOWN "
                          "|| echo HIDDEN")
    assert b"HIDDEN" in shown.stdout, shown
    assert not gate.allows(tmp_path / "w", call), call


def test_a_device_mounted_where_fstab_places_it_is_denied(tmp_path: Path) -> None:
    """``mount /dev/sdz9`` (``LABEL=x``, ``-L x``) mounts where ``/etc/fstab`` places it, and
    ``mount -a`` every entry (s55-sfix: the table's targets read as the call's words):
    above the state folder here (a scratch fstab bound over ``/etc/fstab`` in a private
    namespace, the hook run there); a device the table places elsewhere is allowed."""
    _root_and("mount")
    gate = _gate(tmp_path)
    fstab = tmp_path / "fstab"
    fstab.write_text(f"/dev/sdz9 {tmp_path}/st ext4 defaults 0 2\n"
                     f"LABEL=stx {tmp_path}/st ext4 defaults 0 2\n"
                     f"/dev/sdz8 {tmp_path}/free ext4 defaults 0 2\n")
    hook = (f"mount --bind {shlex.quote(str(fstab))} /etc/fstab && "
            f"exec sh -c {shlex.quote(gate.hook)}")
    inside = HookGate(f"unshare -m --propagation private sh -c {shlex.quote(hook)}", gate.env)
    for call in ("mount /dev/sdz9", "mount LABEL=stx", "mount -L stx", "mount -a"):
        assert not inside.allows(tmp_path / "w", call), call
    assert inside.allows(tmp_path / "w", "mount /dev/sdz8")


# --- R3: the service's SKILLGRANT_STATE_DIR carried into the printed hook -----------------------

def test_the_printed_hook_carries_the_state_variable(tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(ls)"]}))
    with _environ(SKILLGRANT_STATE_DIR=str(tmp_path / "a b")):
        words = shlex.split(_hook(plan))
    assert words[words.index("--state-dir") + 1] == str(tmp_path / "a b")
    given = json.loads(snippet("claude-code", {"--plan": str(plan),
                                               "--state-dir": str(tmp_path / "c")})[0])
    words = shlex.split(given["hooks"]["PreToolUse"][0]["hooks"][0]["command"])
    assert words[words.index("--state-dir") + 1] == str(tmp_path / "c")


#: The other runtime's variable: unset, or another folder (as the review's R3 rows).
STATE_DIRS = {"unset": None, "another": "{T}/other-state"}


@pytest.mark.slow
@pytest.mark.parametrize("case", list(STATE_DIRS))
def test_a_hook_printed_for_the_service_guards_its_folder(tmp_path: Path, case: str) -> None:
    """The service runs with ``SKILLGRANT_STATE_DIR={T}/state``; the other gate's hook was
    printed in the same environment (the operator's shell), and merged into a runtime that
    lacks the variable or has another: the whole chain (real serve, real bash, real npm) —
    the other gate denies emptying the sessions file."""
    given = STATE_DIRS[case]
    home = tmp_path / "svc"
    home.mkdir()
    folder = tmp_path / "other"
    folder.mkdir()
    plan = folder / "plan.json"
    plan.write_text(json.dumps({"allowed-tools": ["Bash(cp /dev/null *)"]}))
    with _environ(SKILLGRANT_STATE_DIR=str(tmp_path / "state")):
        hook = _hook(plan)
    env = {k: v for k, v in os.environ.items() if k != STATE_VARIABLE}
    if given is not None:
        env[STATE_VARIABLE] = given.format(T=tmp_path)
    held = _escapes(tmp_path, home, HookGate(hook, {**env, "HOME": str(home)}), EMPTY_BOTH,
                    str(tmp_path / "state"))
    assert held is not None and held.startswith("cp /dev/null") and "sessions" in held, held
