"""Review s62 (s62-vreview) of ``skillgrant serve``'s kept answers (issue 29): the service
keeps whole answers (``guards.guarded_items``' guarded set, ``gitreach``'s findings,
``testlinks``' walk) through ``gate/files.kept`` until its view (``service/watched.py``)
reports a change on a path it watched, and the gate's modules keep more for the guarded set's
lifetime (``_LAST`` tables keyed by the guarded set's identity: ``testlinks``, ``syspathdirs``,
``pytestini``, ``jestsettings``) or the process's (``functools.lru_cache`` of
``sitenames``, ``interpreters``). A direct read (``os.scandir``, ``open``, ``os.path.*``)
inside such a computation watches nothing: were the file it looked at to change, the service
would answer from what it kept while the printed hook (computing afresh) answers otherwise.

A hole is a session whose every call the service allows (call 1 makes it keep its answer, a
later call changes what a direct read looked at, the next writes what the fresh reading
guards) while the printed hook denies one, and a real program of the plan then runs the
payload (``touch zz``). Each row runs one session's calls through a real service and
through the printed hook (same plan, same project, same environment), running with real bash
each call the service allows: the rows pin that both gates give the same answer at every
call and that the payload never runs.

No session whose change only a direct read saw found the service behind (a link made in a
collecting folder, a folder made a basedir: the service forgot as the hook reads). The hole
found (V1, open) is of another kind: a relative ``WGETRC`` (``CURL_HOME``,
``XDG_CACHE_HOME`` alike) is guarded as a path relative to the process's own folder, which
is the call's folder in the hook and the folder ``serve`` was started in for the service.
The report s62-vreview.md lists every session tried.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from review_table import LeftOpen
from serving import Served, start

from skillgrant.gate.config import snippet
from skillgrant.service.registry import REGISTERED

pytestmark = pytest.mark.slow

#: The holes left open by this review: each a strict xfail.
OPEN = LeftOpen()

PAYLOAD = "import os\nos.system('touch zz')\n"


class Both:
    """A project gated at once by a real ``skillgrant serve`` and by the printed hook of the
    same plan, in the same session environment (``HOME``, ``CLAUDE_PROJECT_DIR``, ``PATH``)."""

    def __init__(self, top: Path, entries: list[str], files: dict[str, str],
                 setup: str = "", extra: dict[str, str] | None = None) -> None:
        self.top = top
        self.project = top / "project"
        self.home = top / "home"
        (self.project / ".claude").mkdir(parents=True)
        self.home.mkdir()
        for name, text in files.items():
            (self.project / name).parent.mkdir(parents=True, exist_ok=True)
            (self.project / name).write_text(text.replace("{P}", str(self.project)))
        plan = top / "plan.json"
        plan.write_text(json.dumps({"allowed-tools": entries}))
        session = {"HOME": str(self.home), "CLAUDE_PROJECT_DIR": str(self.project),
                   "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",  # (its pytest)
                   **(extra or {})}
        self.env = {**os.environ, **session}
        if setup:
            subprocess.run(["bash", "-c", setup], cwd=self.project, env=self.env, check=True,
                           capture_output=True, timeout=60)
        printed = json.loads(snippet("claude-code", {"--plan": str(plan)})[0])
        self.hook = str(printed["hooks"]["PreToolUse"][0]["hooks"][0]["command"])
        self.served: Served = start([f"p={plan}"], env={name: "" for name in REGISTERED}
                                    | session, cwd=top)

    def _payload(self, call: str) -> dict[str, object]:
        return {"session_id": "s62v", "cwd": str(self.project),
                "hook_event_name": "PreToolUse", "tool_name": "Bash",
                "tool_input": {"command": call}}

    def service_allows(self, call: str) -> bool:
        reply = self.served.post("/v1/hook/p", self._payload(call))
        assert reply.status == 200, reply
        return not reply.body or b'"deny"' not in reply.body

    def hook_allows(self, call: str) -> bool:
        said = subprocess.run(["/bin/sh", "-c", self.hook], cwd=self.project, env=self.env,
                              input=json.dumps(self._payload(call)).encode(),
                              capture_output=True, timeout=60, check=False)
        return said.returncode == 0 and b'"deny"' not in said.stdout

    def session(self, calls: list[str]) -> list[tuple[str, bool, bool]]:
        """Each call (``{T}`` the scratch folder) asked of both gates, run by real bash
        where the service allows it: (call, service's, hook's)."""
        found = []
        for call in (c.replace("{T}", str(self.top)) for c in calls):
            service, hook = self.service_allows(call), self.hook_allows(call)
            found.append((call, service, hook))
            if service:
                subprocess.run(["timeout", "60", "bash", "-c", call], cwd=self.project,
                               env=self.env, capture_output=True, timeout=90, check=False)
        return found

    def close(self) -> None:
        self.served.stop()


#: Each session: the plan, the project's files, what the user made before it, its calls,
#: and what was looked at directly (the module the kept answer's staleness would come from).
SESSIONS: dict[str, tuple[list[str], dict[str, str], str, list[str], dict[str, str]]] = {
    # V1 (a hole): the session's WGETRC is relative; the hook guards `wgetrc` in the call's
    # folder (its own), the service in the folder it was started in; wget (a recipe of the
    # plan's make) then reads the written ./wgetrc and runs its `use_askpass` program
    "relative-wgetrc": (
        ["Bash(make fetch)", "Bash(cp *)", "Bash(chmod +x src/x.sh)"],
        {"notes.txt": "x\n", "src/x.sh": "#!/bin/sh\ntouch zz\n",
         "src/rc.txt": "use_askpass = {P}/src/x.sh\n",
         "Makefile": "fetch:\n\t-wget -q -O /dev/null http://127.0.0.1:9/\n"}, "",
        ["make fetch", "cp notes.txt out.txt", "chmod +x src/x.sh", "cp src/rc.txt wgetrc",
         "make fetch"], {"WGETRC": "wgetrc"}),
    # testlinks._links: `_LAST` returns the walk kept for the same guarded set (no kept
    # `fs.kept` asked): a dangling link made in a collecting folder, its target then made
    # and filled; the service forgets as the hook reads (the test module itself is
    # guarded by its name anywhere)
    "dangling-link-then-filled": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)", "Bash(mkdir *)", "Bash(ln -s *)"],
        {"tests/test_a.py": "def test_a():\n    assert 1\n", "notes.txt": "x\n",
         "tools/h.py": "X = 1\n", "src/t.txt": "def test_b():\n    import helper\n",
         "src/payload.txt": PAYLOAD}, "",
        ["cp notes.txt out.txt", "ln -s {T}/far/later tools/ext", "mkdir -p {T}/far/later",
         "cp src/payload.txt {T}/far/later/helper.py",
         "cp src/t.txt {T}/far/later/test_b.py", "python3 -m pytest -q"], {}),
    # syspathdirs.first_on_path/_holds_tests (os.scandir, kept in `_LAST` for the guarded
    # set): a folder asked first (no tests: its `yaml.py` is no import's), then a link to a
    # package of tests made in it (pytest collects through it: the folder becomes a basedir)
    "helper-folder-made-a-basedir": (
        ["Bash(python3 -m pytest -q)", "Bash(cp *)", "Bash(mkdir *)", "Bash(ln -s *)"],
        {"tests/__init__.py": "", "tests/test_a.py": "import yaml\ndef test_a():\n"
         "    assert yaml\n", "notes.txt": "x\n", "tools/helper.py": "X = 1\n",
         "src/yaml.txt": PAYLOAD}, "",
        ["cp notes.txt tools/yaml.py", "ln -s ../tests tools/sub",
         "cp src/yaml.txt tools/yaml.py", "python3 -m pytest -q"], {}),
}


@pytest.mark.parametrize("name", list(SESSIONS))
def test_the_service_answers_as_the_hook_after_a_change(tmp_path: Path, name: str) -> None:
    """Every call of the session: the service's answer is the hook's, and the payload does
    not run."""
    entries, files, setup, calls, extra = SESSIONS[name]
    if name == "relative-wgetrc" and not (shutil.which("wget") and shutil.which("make")):
        pytest.skip("no wget or make here")
    both = Both(tmp_path, entries, files, setup, extra)
    try:
        decided = both.session(calls)
    finally:
        both.close()
    differ = [(call, service) for call, service, hook in decided if service != hook]
    assert not differ, differ
    assert not (both.project / "zz").exists(), decided


@pytest.mark.skipif(not shutil.which("wget"), reason="no wget here")
def test_wget_reads_a_relative_wgetrc_from_its_folder(tmp_path: Path) -> None:
    """V1's premise, with wget alone: a relative ``WGETRC`` is read from the folder wget runs
    in, and its ``use_askpass`` program runs before any connection."""
    (tmp_path / "x.sh").write_text("#!/bin/sh\ntouch zz\n")
    (tmp_path / "x.sh").chmod(0o755)
    (tmp_path / "wgetrc").write_text(f"use_askpass = {tmp_path / 'x.sh'}\n")
    subprocess.run(["wget", "-q", "-O", "/dev/null", "http://127.0.0.1:9/"], cwd=tmp_path,
                   env={**os.environ, "WGETRC": "wgetrc"}, capture_output=True, timeout=60,
                   check=False)
    assert (tmp_path / "zz").exists()
