"""Session 55 (s55-sfix): ``mount``'s and ``umount``'s words read as util-linux 2.38 reads them,
and what a mount makes reachable judged, not only its words as paths (issue 29, review
s54-sreview M, M2; ``gate/mounters.py``).

Each case asks the printed hook of a plan granting the mounters (the harness of
``test_s54_sfix``: ``{T}/st`` stands for the folder above the state folder, ``{T}/free`` and
``{T}/empty`` hold nothing guarded); that a denied call matters is shown by real bash and
util-linux's mount in a private mount namespace (its mounts go with it).
"""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import pytest
from test_s53_sreview import HookGate
from test_s54_sfix import ENTRIES, _gate, _in_namespace, _root_and

#: Spellings mount reads as a table (``-T``), a proc filesystem, a folder of an overlay, a
#: bound proc, the root file system's device, a network share: each reaches the state folder
#: by a path no word of the call is (or names nothing the gate can follow).
REACHING = {
    "fstab-abbreviated": "mount --fst {T}/fstab {T}/empty",
    "fstab-attached": "mount -T{T}/fstab {T}/empty",
    "fstab-in-a-cluster": "mount -vT{T}/fstab {T}/empty",
    "fstab-all-attached": "mount -aT{T}/fstab",
    "fstab-long-attached": "mount --fstab={T}/fstab {T}/empty",
    "namespace": "mount -N 1 --bind {T}/empty {T}/free",
    "target-prefix": "mount --target-p {T} --bind {T}/empty /st",
    "proc": "mount -t proc proc {T}/free",
    "proc-attached": "mount -tproc proc {T}/free",
    "proc-long": "mount --ty=proc x {T}/free",
    "proc-bound": "mount --bind /proc {T}/free",
    "proc-bound-option": "mount -o bind /proc/self {T}/free",
    "overlay-upper": "mount -t overlay overlay -o lowerdir={T}/empty,upperdir={T}/st,"
                     "workdir={T}/wk {T}/free",
    "overlay-lower": "mount -t overlay o -olowerdir={T}/empty:{T}/st {T}/free",
    "root-device": "mount -o ro {T}/rootdev {T}/free",
    "nfs": "mount -t nfs host:/export {T}/free",
    "nfs-untyped": "mount host:/export {T}/free",
    "cifs": "mount //host/share {T}/free",
    "label": "mount LABEL=nosuchlabel {T}/free",
    "umount-all": "umount -fa",
    "umount-all-abbreviated": "umount --all-t {T}/free",
    "umount-all-targets": "umount -lA {T}/free",
}


def _root_device(tmp_path: Path) -> None:
    """``{T}/rootdev``: a node of the block device the root file system is mounted from."""
    number = os.stat("/").st_dev
    os.mknod(tmp_path / "rootdev", 0o600 | 0o060000, number)


@pytest.mark.parametrize("case", list(REACHING))
def test_a_mount_reaching_the_state_folder_is_denied(tmp_path: Path, case: str) -> None:
    (tmp_path / "wk").mkdir()
    gate = _gate(tmp_path)
    if case == "root-device":
        if os.geteuid() != 0:
            pytest.skip("needs root (mknod)")
        _root_device(tmp_path)
    call = REACHING[case].format(T=tmp_path)
    assert not gate.allows(tmp_path / "w", call), call


#: Mounts that reach nothing guarded, and unmounts that take nothing away from it: allowed
#: (``umount /dev/sdz9``: nothing is mounted from it, umount changes nothing; the other
#: command's words are no umount operands that hide a folder).
KEPT = ["mount -t tmpfs none {T}/free", "mount --bind {T}/empty {T}/free",
        "mount -t overlay overlay -o lowerdir={T}/empty,upperdir={T}/up,workdir={T}/wk "
        "{T}/free", "mount -a", "mount -vt tmpfs tmpfs {T}/free", "umount /dev/sdz9",
        "umount {T}/free && echo done", "umount -l {T}/free; ls -l",
        "mount -o remount,ro {T}/free"]


@pytest.mark.parametrize("call", KEPT)
def test_a_mount_reaching_nothing_guarded_is_allowed(tmp_path: Path, call: str) -> None:
    (tmp_path / "up").mkdir()
    (tmp_path / "wk").mkdir()
    gate = _gate(tmp_path, [*ENTRIES, "Bash(echo *)", "Bash(ls *)"])
    assert gate.allows(tmp_path / "w", call.format(T=tmp_path)), call


def test_the_reaching_mounts_reach_the_state_folder(tmp_path: Path) -> None:
    """What the denials prevent, by real bash and mount 2.38: each mount makes the sessions
    file reachable at a path below ``{T}/free``, a fresh folder. (A second mount of the root
    file system's device is refused to this machine's root: that case is the gate's reading
    of ``/proc/self/mountinfo`` only.)"""
    _root_and("mount")
    _gate(tmp_path)
    (tmp_path / "wk").mkdir()
    kept = tmp_path / "st" / "skillgrant" / "sessions" / "s.sessions"
    kept.write_text("kept\n")
    (tmp_path / "fstab").write_text(f"{tmp_path}/st {tmp_path}/free none bind 0 0\n")
    seen = {"proc": f"self/root{kept}", "proc-bound": f"self/root{kept}",
            "overlay-upper": "skillgrant/sessions/s.sessions",
            "overlay-lower": "skillgrant/sessions/s.sessions",
            "fstab-abbreviated": "skillgrant/sessions/s.sessions",
            "fstab-in-a-cluster": "skillgrant/sessions/s.sessions"}
    for case, below in seen.items():
        call = REACHING[case].format(T=tmp_path).replace(f"{tmp_path}/empty", f"{tmp_path}/free"
                                                         ) if case.startswith("fstab") else \
            REACHING[case].format(T=tmp_path)
        shown = _in_namespace(f"{call} && test -e {shlex.quote(f'{tmp_path}/free/{below}')} "
                              "&& echo SHOWN")
        assert b"SHOWN" in shown.stdout, (case, shown)


def test_an_umount_of_a_source_over_the_state_folder_is_denied(tmp_path: Path) -> None:
    """``umount SOURCE`` unmounts wherever the source is mounted: a tmpfs named ``stsrc``
    over ``{T}/st`` (in a private namespace, the hook run there) is taken away by ``umount
    stsrc``, which names no folder; an unmounted source is allowed (umount changes
    nothing), and real umount shows both."""
    _root_and("mount")
    gate = _gate(tmp_path)
    mounted = f"mount -t tmpfs stsrc {shlex.quote(str(tmp_path))}/st"
    inside = HookGate(f"unshare -m --propagation private sh -c "
                      f"{shlex.quote(mounted + ' && exec sh -c ' + shlex.quote(gate.hook))}",
                      gate.env)
    assert not inside.allows(tmp_path / "w", "umount stsrc")
    assert inside.allows(tmp_path / "w", "umount nosuchsource")
    ran = subprocess.run(["timeout", "60", "unshare", "-m", "--propagation", "private", "sh",
                          "-c", f"{mounted} && umount stsrc && findmnt -n {tmp_path}/st "
                          "|| echo GONE"], capture_output=True, timeout=90, check=False)
    assert b"GONE" in ran.stdout, ran


def test_mount_all_reads_the_tables_entries(tmp_path: Path) -> None:
    """``mount -a`` mounts every entry of ``/etc/fstab`` (a scratch table bound over it in a
    private namespace, the hook run there): an entry binding a folder over ``{T}/st``, a proc
    at a fresh folder, an overlay whose upper folder is ``{T}/st`` are denied; a tmpfs at a
    fresh folder is allowed."""
    _root_and("mount")
    gate = _gate(tmp_path)
    (tmp_path / "wk").mkdir()
    T = tmp_path
    tables = {f"{T}/empty {T}/st none bind 0 0\n": False,
              f"proc {T}/free proc defaults 0 0\n": False,
              f"overlay {T}/free overlay lowerdir={T}/empty,upperdir={T}/st,workdir={T}/wk 0 0\n":
                  False,
              f"{T}/st/skillgrant {T}/free none rbind 0 0\n": False,
              f"none {T}/free tmpfs defaults 0 0\n": True}
    for number, (line, allowed) in enumerate(tables.items()):
        fstab = tmp_path / f"fstab{number}"
        fstab.write_text(line)
        hook = (f"mount --bind {shlex.quote(str(fstab))} /etc/fstab && "
                f"exec sh -c {shlex.quote(gate.hook)}")
        inside = HookGate(f"unshare -m --propagation private sh -c {shlex.quote(hook)}",
                          gate.env)
        assert inside.allows(tmp_path / "w", "mount -a") is allowed, line
