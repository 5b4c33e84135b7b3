"""Probe calls and the runtime's judgement of them.

A probe is one concrete tool call (``Bash`` with a command, ``Read`` of a path, ``WebFetch`` of
a URL...). ``Judge.allowed(skill_text, probes)`` runs one session: the stand-in loads the skill
(``Skill`` with ``{"skill": "probe"}``), then makes every probe call in turn, and the runtime's
``permission_denials`` say which it did not pre-approve. A session whose skill did not load, or
that ended before every call had a result, raises: the suite never reads a broken session as an
answer.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cc_runtime import SKILL_NAME, run_session
from cc_standin import StandIn

#: Placeholders in probe paths: a folder outside the project, and the session's HOME.
OUTSIDE = "{outside}"
HOME = "{home}"


@dataclass(frozen=True, order=True)
class Probe:
    """One tool call. ``arg`` is the command, path or URL; paths may start with OUTSIDE."""

    tool: str
    arg: str

    def call(self, work: Path) -> tuple[str, dict[str, Any]]:
        arg = self.arg.replace(OUTSIDE, str(work / "outside")).replace(HOME, str(work / "home"))
        if self.tool == "Bash":
            return "Bash", {"command": arg, "description": "probe", "timeout": 5000}
        if self.tool == "Read":
            return "Read", {"file_path": arg}
        if self.tool == "Edit":
            return "Edit", {"file_path": arg, "old_string": "probe-old", "new_string": "new"}
        if self.tool == "WebFetch":
            return "WebFetch", {"url": arg, "prompt": "probe"}
        raise ValueError(f"no probe call for {self.tool}")

    def __str__(self) -> str:
        return f"{self.tool}({self.arg})"


#: What the suite ran, printed at the end of the run (case and probe counts).
TALLY: dict[str, int] = {}


class SessionBroken(AssertionError):
    """The runtime did not run the script to its end: no answer can be read from it."""


def _outside_files(work: Path, probes: list[Probe]) -> None:
    """Read and Edit probes outside the project need a real file (inside the session's
    folder: the jail lets nothing else be written)."""
    (work / "outside").mkdir(parents=True)
    for probe in probes:
        if probe.tool in ("Read", "Edit") and probe.arg.startswith(OUTSIDE):
            target = Path(probe.call(work)[1]["file_path"])
            if work in target.resolve().parents:
                target.parent.mkdir(parents=True, exist_ok=True)
                if not target.exists():
                    target.write_text("probe-old\n")


class Judge:
    """Runs sessions against the pinned binary, ``workers`` at a time; counts what it ran."""

    def __init__(self, binary: Path, standin: StandIn, workers: int = 3) -> None:
        self.binary = binary
        self.standin = standin
        self.workers = workers
        self.sessions = 0
        self.probes = 0
        self.not_loaded = 0
        self._lock = threading.Lock()

    def allowed(self, skill_text: str, probes: Sequence[Probe], *,
                must_load: bool = True) -> dict[Probe, bool]:
        """Which of ``probes`` the runtime pre-approves once the skill is loaded.

        A skill that does not load (its ``!`command` `` preprocessing fails, say) raises
        SessionBroken with ``must_load``; without it, the probes are judged all the same (the
        skill then grants nothing) and the session is counted in ``not_loaded``.
        """
        work = Path(tempfile.mkdtemp(prefix="sg-cc-", dir="/var/tmp"))
        try:
            return self._run(work, skill_text, list(dict.fromkeys(probes)), must_load)
        finally:
            shutil.rmtree(work, ignore_errors=True)

    def _run(self, work: Path, skill_text: str, probes: list[Probe],
             must_load: bool) -> dict[Probe, bool]:
        _outside_files(work, probes)
        calls = [p.call(work) for p in probes]
        url, session = self.standin.session([("Skill", {"skill": SKILL_NAME}), *calls])
        done, report = run_session(self.binary, url, work, skill_text)
        first = 1
        skill_id = session.call_id(0)
        loaded = skill_id in session.results and not session.results[skill_id][0]
        if not loaded and "disable-model-invocation" in session.results.get(skill_id, ("", ""))[1]:
            done, report, session, loaded = self._as_a_person(work, skill_text, calls)
            first = 0
            skill_id = "(the /probe command)"
            if not loaded and not must_load:
                # It never loads for a person either: its allowed-tools never apply.
                with self._lock:
                    self.sessions += 1
                    self.not_loaded += 1
                return {}
        with self._lock:
            self.sessions += 1
            self.probes += len(probes)
        if not loaded and not must_load:
            with self._lock:
                self.not_loaded += 1
        elif not loaded:
            raise SessionBroken(f"the skill did not load (exit {done.returncode}): "
                                f"{session.results.get(skill_id)!r} {done.stderr[-500:]!r}")
        denied = {d.get("tool_use_id") for d in report.get("permission_denials") or []}
        verdicts = {}
        for index, probe in enumerate(probes, start=first):
            call_id = session.call_id(index)
            if call_id not in session.results:
                raise SessionBroken(f"no result for probe {probe} (exit {done.returncode}): "
                                    f"{done.stderr[-300:]!r}; results {session.results!r}; "
                                    f"skill {skill_text[:300]!r}")
            verdicts[probe] = call_id not in denied
        return verdicts

    def _as_a_person(self, work: Path, skill_text: str,
                     calls: list[tuple[str, dict[str, Any]]]) -> tuple[Any, Any, Any, bool]:
        """Only a person can invoke this skill: do it as they would, with its slash command.
        The model is only asked once the skill's text has been built: no request at all means
        it did not load (a failing ``!`command` ``, say)."""
        url, session = self.standin.session(calls)
        done, report = run_session(self.binary, url, work, skill_text, prompt=f"/{SKILL_NAME}")
        return done, report, session, session.requests > 0

    def allowed_many(self, jobs: Iterable[tuple[str, Sequence[Probe]]], *,
                     must_load: bool = True) -> list[dict[Probe, bool]]:
        """``allowed`` for each (skill text, probes), run in parallel, in order."""
        with ThreadPoolExecutor(self.workers) as pool:
            return list(pool.map(lambda job: self.allowed(*job, must_load=must_load), jobs))
