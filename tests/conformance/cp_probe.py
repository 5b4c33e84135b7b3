"""Probe calls under the pinned Copilot CLI, and its judgement of them.

The probes are ``cc_probe.Probe`` values (a tool and its argument), so a case's probes are the
same for both runtimes; here they become Copilot CLI's tools: ``Bash`` is ``bash`` with
``{"command": …}``, ``Read`` is ``view`` of the path, ``Write`` and ``Edit`` are ``create`` of
a new file. (``WebFetch`` has no Copilot CLI tool offline and is left out.)

``CopilotJudge.allowed(skill_text, probes)`` runs one interactive session: the stand-in invokes
the skill (``skill`` with ``{"skill": "probe"}``), then makes every probe call in turn. A call is
*allowed* when the runtime ran it without putting it to the person, and its result does not
say it was refused. A session whose skill did not load (with ``must_load``), or that ended
before every call had a result, raises ``SessionBroken``: the suite never reads a broken
session as an answer.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from cc_probe import HOME, OUTSIDE, Probe, SessionBroken
from cp_runtime import SKILL_NAME, run_interactive, write_project
from cp_standin import StandIn

__all__ = ["TALLY", "CopilotJudge", "Probe", "SessionBroken", "copilot_call", "pre_approved"]

#: What the Copilot CLI suite ran, printed at the end of the run.
TALLY: dict[str, int] = {}
#: The skill tool's answer when the skill loaded.
LOADED = f'Skill "{SKILL_NAME}" loaded'
#: A file to which each session appends a line of the counts so far (a long run's progress).
PROGRESS = os.environ.get("SKILLGRANT_COPILOT_PROGRESS")
#: Tools a probe can become under Copilot CLI.
TOOLS = ("Bash", "Read", "Write", "Edit")


def copilot_call(probe: Probe, work: Path) -> tuple[str, dict[str, Any]]:
    """The Copilot CLI tool call for ``probe`` in the session folder ``work``."""
    arg = probe.arg.replace(OUTSIDE, str(work / "outside")).replace(HOME, str(work / "home"))
    if probe.tool == "Bash":
        return "bash", {"command": arg, "description": "probe", "initial_wait": 5}
    if probe.tool == "Read":
        return "view", {"path": arg}
    if probe.tool in ("Write", "Edit"):
        return "create", {"path": arg, "file_text": "probe\n"}
    raise ValueError(f"no Copilot CLI call for {probe.tool}")


#: How a result starts when the runtime did not run the call: refused by the person (the
#: harness says no to every question), or refused outright.
REFUSALS = ("The user rejected", "The execution of this tool", "Command blocked")
_RAN = re.compile(r"<shellId: \S+ ")


def pre_approved(tool: str, asked: bool, text: str) -> bool:
    """The runtime's judgement of one call: pre-approved when it ran without a question.

    A call that was neither put to the person nor run nor refused in a known way is no
    answer either way: SessionBroken, so that no such call is counted on either side.
    """
    if asked or text.startswith(REFUSALS):
        return False
    ran = bool(_RAN.search(text)) if tool == "bash" else not text.startswith(REFUSALS)
    if not ran:
        raise SessionBroken(f"a {tool} call was neither asked about nor run: {text[:300]!r}")
    return True


class CopilotJudge:
    """Runs interactive sessions against the pinned binary, ``workers`` at a time."""

    def __init__(self, binary: Path, standin: StandIn, workers: int = 2) -> None:
        self.binary = binary
        self.standin = standin
        self.workers = workers
        self.sessions = 0
        self.probes = 0
        self.not_loaded = 0
        self.asked = 0
        self._lock = threading.Lock()

    def allowed(self, skill_text: str, probes: Sequence[Probe], *,
                must_load: bool = True) -> dict[Probe, bool]:
        """Which of ``probes`` the runtime pre-approves once the skill is invoked.

        A skill that does not load raises SessionBroken with ``must_load``; without it, the
        probes are judged all the same (the skill then grants nothing), and the session is
        counted in ``not_loaded``.
        """
        probes = [p for p in dict.fromkeys(probes) if p.tool in TOOLS]
        work = Path(tempfile.mkdtemp(prefix="sg-cp-", dir="/var/tmp"))
        try:
            return self._run(work, skill_text, probes, must_load)
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def _run(self, work: Path, skill_text: str, probes: list[Probe],
             must_load: bool) -> dict[Probe, bool]:
        write_project(work, skill_text)
        (work / "outside" / "zz.txt").write_text("probe-old\n")
        calls = [copilot_call(p, work) for p in probes]
        url, session = self.standin.session([("skill", {"skill": SKILL_NAME}), *calls])
        shown = run_interactive(self.binary, url, session, work)
        skill_result = session.results.get(session.call_id(0), (True, ""))[1]
        loaded = skill_result.startswith(LOADED) and 0 not in shown.asked
        with self._lock:
            self.sessions += 1
            self.probes += len(probes)
            self.asked += len(shown.asked)
            self.not_loaded += not loaded
            if PROGRESS:  # a long run's progress, a line a session
                with open(PROGRESS, "a", encoding="utf-8") as log:
                    log.write(f"{self.sessions} sessions, {self.probes} probes, "
                              f"{self.asked} asked\n")
        if not loaded and must_load:
            raise SessionBroken(f"the skill did not load: {skill_result[:300]!r}; "
                                f"screen {shown.screen[-400:]!r}")
        verdicts = {}
        for index, probe in enumerate(probes, start=1):
            result = session.results.get(session.call_id(index))
            if result is None:
                raise SessionBroken(f"no result for probe {probe}: screen "
                                    f"{shown.screen[-600:]!r}; results {session.results!r}")
            verdicts[probe] = pre_approved(calls[index - 1][0], index in shown.asked, result[1])
        return verdicts

    def allowed_many(self, jobs: Iterable[tuple[str, Sequence[Probe]]], *,
                     must_load: bool = True) -> list[dict[Probe, bool]]:
        """``allowed`` for each (skill text, probes), run in parallel, in order."""
        with ThreadPoolExecutor(self.workers) as pool:
            return list(pool.map(lambda job: self.allowed(*job, must_load=must_load), jobs))
