"""Session 54 review (s54-greview3) of s54-sfix: a mount over a folder above the state folder
is a write to it (``gate/mounters.py``), and the hook carries the service's state folder
(``--state-dir``). With a real ``skillgrant serve``, the printed ``skillgrant hook`` command,
real bash, util-linux's mount 2.38 and npm (the harness of ``test_s53_sreview``).

A hole is a sequence of calls, each allowed by the other gate, after which the restarted
service registers the victim and real npm runs the payload (``touch zz``)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from review_table import LeftOpen
from test_s53_sreview import _environ, _escapes, _other_gate, _unmount_under

from skillgrant.service.sessionsfile import path_of

pytestmark = pytest.mark.slow

OPEN = LeftOpen()


# --- M: a mount whose target a table names -------------------------------------------------------

#: A table of mounts (``fstab``'s format) laying ``{T}/empty`` over ``{T}/st``, the folder
#: above the state folder; and the calls of a root session reading it: mount reads the target
#: of a one-operand mount from the table ``-T``/``--fstab`` names (getopt_long takes any
#: unambiguous abbreviation, ``--fst``; a short option takes its value attached, ``-T/x``, also
#: after others in a cluster, ``-vT/x``, ``-aT/x``: every entry of it).
TABLE = "{T}/empty {T}/st none bind 0 0\n"
TABLE_MOUNTS = {
    "fstab-abbreviated": "mount --fst {T}/fstab {T}/empty",
    "table-attached": "mount -T{T}/fstab {T}/empty",
    "table-in-a-cluster": "mount -vT{T}/fstab {T}/empty",
    "all-of-a-table": "mount -aT{T}/fstab",
    "held-table-apart": "mount -T {T}/fstab {T}/empty",
    "held-fstab-whole": "mount --fstab={T}/fstab {T}/empty",
}


@pytest.mark.parametrize("case", list(TABLE_MOUNTS))
def test_a_mount_whose_target_a_table_names(tmp_path: Path, case: str) -> None:
    """A root session gated by another gate of the service's environment (its
    ``SKILLGRANT_STATE_DIR`` ``{T}/st/skillgrant``), plan ``Bash(cp /dev/null *)``,
    ``Bash(mount *)``: it empties the audit log and mounts what its own table names over
    ``{T}/st``; the restarted service finds no sessions file and forgets the victim's first
    call. The gate reads ``mount``'s words (``mounters.hidden``: ``-T``, ``--fstab`` as whole
    words only), not the table's target."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("needs root and mount")
    (tmp_path / "empty").mkdir()
    (tmp_path / "st").mkdir(mode=0o700)
    (tmp_path / "fstab").write_text(TABLE.format(T=tmp_path))
    home, state = tmp_path / "svc", str(tmp_path / "st" / "skillgrant")
    gate = _other_gate(tmp_path / "other", ["Bash(cp /dev/null *)", "Bash(mount *)"], home,
                       {"SKILLGRANT_STATE_DIR": state})
    try:
        held = _escapes(tmp_path, home, gate, ["cp /dev/null {audit}", TABLE_MOUNTS[case]],
                        state)
    finally:
        _unmount_under(tmp_path)
    assert held is not None, "every call allowed, the victim registered"


def test_the_table_mounts_what_it_names(tmp_path: Path) -> None:
    """The premise of ``test_a_mount_whose_target_a_table_names``: each spelling mounts
    ``{T}/empty`` over ``{T}/st`` (in a private mount namespace)."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare")
    (tmp_path / "empty").mkdir()
    (tmp_path / "st").mkdir()
    (tmp_path / "fstab").write_text(TABLE.format(T=tmp_path))
    for call in TABLE_MOUNTS.values():
        script = f"{call.format(T=tmp_path)} >/dev/null && findmnt -n -o TARGET {tmp_path}/st"
        done = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c",
                               script], capture_output=True, text=True, timeout=60,
                              check=False)
        assert done.stdout.strip() == f"{tmp_path}/st", (call, done.stderr)


# (test_a_mount_whose_target_a_table_names: held since s55-sfix, mounters._parsed)


# --- M2: the state folder reached through a second path a mount makes -----------------------------

#: Each case: the call (in ``{T}/other``, ``y`` and ``w`` fresh folders there). A proc
#: filesystem gives every file a second path (``y/self/root/...``); an overlay whose upper
#: folder is the folder above the state folder writes through ``y`` into it.
SECOND_PATHS = {
    "proc": ("mount -t proc proc y && cp /dev/null y/self/root{kept} && "
             "cp /dev/null y/self/root{audit}"),
    "overlay-upper": ("mount -t overlay overlay -o lowerdir={T}/empty,upperdir={T}/st,"
                      "workdir=w y && cp /dev/null y/skillgrant/sessions/{name} && "
                      "cp /dev/null {audit}"),
}


@pytest.mark.parametrize("case", list(SECOND_PATHS))
def test_the_state_folder_through_a_second_path(tmp_path: Path, case: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A root session gated by another gate of the service's environment (its
    ``SKILLGRANT_STATE_DIR`` ``{T}/st/skillgrant``), plan ``Bash(cp /dev/null *)``,
    ``Bash(mount *)``: it mounts a filesystem at a folder of its own (no word is the state
    folder or above it: an overlay's ``upperdir=`` is inside ``-o``'s value) and empties the
    sessions file and the audit log through it (a path no gate guards, where
    ``/proc/self/root/...`` is). The call runs in a private mount namespace (the
    mount goes with it; the files written are the service's)."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare")
    import test_s53_sreview

    def contained(call: str, folder: Path, env: dict[str, str]) -> None:
        subprocess.run(["timeout", "60", "unshare", "-m", "--propagation", "private", "bash",
                        "-c", call], cwd=folder, env=env, capture_output=True, timeout=90,
                       check=False)

    monkeypatch.setattr(test_s53_sreview, "_bash", contained)
    (tmp_path / "st").mkdir(mode=0o700)
    (tmp_path / "other" / "y").mkdir(parents=True)
    (tmp_path / "other" / "w").mkdir()
    (tmp_path / "empty").mkdir()
    home, state = tmp_path / "svc", str(tmp_path / "st" / "skillgrant")
    gate = _other_gate(tmp_path / "other", ["Bash(cp /dev/null *)", "Bash(mount *)"], home,
                       {"SKILLGRANT_STATE_DIR": state})
    with _environ(SKILLGRANT_STATE_DIR=state):  # (the sessions file's name)
        name = Path(path_of(str(tmp_path / "logs" / "audit.log"))).name
    held = _escapes(tmp_path, home, gate, [SECOND_PATHS[case].replace("{name}", name)],
                    state)
    assert held is not None, "every call allowed, the victim registered"


# (test_the_state_folder_through_a_second_path: held since s55-sfix, mounters._entry)
