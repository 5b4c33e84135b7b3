"""What the reviews of the reader (s43-freview, s44-freview, …) share: a probe skill, a work
folder, a layout written from a table, one Claude Code session judged call by call, and
``skillgrant check`` of the project; the sessions the reviews repeat (``apply --enforce``'s
ceiling, a Skill call through the printed gate, a skill forked as a project agent) and their
Copilot CLI counterparts (``apply`` then a session, a plugin loaded with ``--plugin-dir``).

Each review test has two sides. The runtime's, with skillgrant bypassed: the pinned Claude Code
loads the hostile file and pre-approves a probe outside the plan (the precondition: the layout
is real). skillgrant's: ``check`` (or ``apply``) of the project with that plan must not pass it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from cc_probe import TALLY, Judge
from cc_runtime import run_session
from cc_standin import marker
from cp_probe import CopilotJudge
from cp_runtime import run_interactive, write_project
from reader_review import check as check  # (the unit reviews' too)
from reader_review import lay_out as lay_out
from reader_review import run

from skillgrant import SkillFileError
from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_file

PLAN = "allowed-tools: Read\n"
WIDE = ["--allowedTools", "Skill"]


def skill(name: str, allowed: str) -> str:
    return f"---\nname: {name}\ndescription: probe skill\nallowed-tools: {allowed}\n---\nRun it.\n"


def touch(name: str) -> tuple[str, dict[str, Any]]:
    return ("Bash", {"command": f"touch zz_{name}", "description": "probe", "timeout": 5000})


@contextmanager
def work_folder(prefix: str) -> Iterator[Path]:
    """A fresh folder under /var/tmp (not /tmp: the runtime treats /tmp specially), removed
    after the test."""
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir="/var/tmp"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def runtime(judge: Judge, work: Path, calls: Sequence[tuple[str, dict[str, Any]]], *,
            review: str, prompt: str = "Run the probe skill.",
            extra: Sequence[str] = ()) -> list[tuple[bool, str] | None]:
    """Run ``calls`` in the project under ``work``, skills allowed, after ``prompt`` (a slash
    command runs a command file as a person would); each call's (pre-approved, result text),
    None for a call with no result. ``review`` names the tally the session counts in."""
    url, script = judge.standin.session(
        [(tool, json.loads(json.dumps(args).replace("{work}", str(work)))) for tool, args in calls])
    done, report = run_session(judge.binary, url, work, None, extra_args=[*WIDE, *extra],
                               prompt=prompt)
    TALLY[f"{review} sessions"] = TALLY.get(f"{review} sessions", 0) + 1
    denied = {d.get("tool_use_id") for d in report.get("permission_denials") or []}
    got: list[tuple[bool, str] | None] = []
    for index in range(len(calls)):
        result = script.results.get(script.call_id(index))
        got.append(None if result is None else
                   (script.call_id(index) not in denied and not result[0], result[1]))
    assert got[0] is not None, done.stderr[-600:]
    return got


def allowed_then_checked(judge: Judge, work: Path, text: str, tag: str, *,
                         review: str) -> None:
    """The probe skill ``text`` in the project under ``work``: ``check --plan Read`` of it must
    not pass, where (the runtime's side, the precondition) Claude Code loads it and
    pre-approves ``touch zz_TAG``, which the plan does not carry."""
    lay_out(work, {f"project/{SKILL_PATH}": text})
    (work / "plan.yaml").write_text(PLAN)
    done = check(work / "project", work / "plan.yaml", SKILL_PATH)
    got = runtime(judge, work, [("Skill", {"skill": "probe"}), touch(tag)], review=review)
    assert got[0] is not None and got[0][0] and got[1] is not None and got[1][0], got
    assert done.returncode != 0, (
        f"check passed (exit 0) a file under which Claude Code allows `touch` (plan Read):\n"
        f"{done.stdout}{done.stderr}")


#: The plan ``apply --enforce`` is given in the reviews' ceiling sessions, and the call outside
#: it the ceiling must deny.
ECHO = ["Bash(echo *)"]
TOUCH_ZZ = ("Bash", {"command": "touch zz", "description": "probe", "timeout": 5000})
SKILL_PATH = ".claude/skills/probe/SKILL.md"


def enforce_session(judge: Judge, text: str, *, where: str = SKILL_PATH,
                    files: Mapping[str, str] | None = None, plugin: str | None = None,
                    prompt: str = "Run the probe skill.", skill_call: bool = True,
                    denied: bool = False,
                    refusals: tuple[type[Exception], ...] = (SkillFileError,)) -> None:
    """``apply --enforce`` (plan ``Bash(echo *)``) of ``text`` written at ``where`` in the
    project (beside ``files``); a session allowing Bash (``plugin``, a folder of the project,
    loaded with ``--plugin-dir``) calls ``Skill(probe)`` (unless not ``skill_call``) then
    ``touch zz``: the hook's ceiling must keep ``touch zz`` from running (with ``denied``, the
    runtime must also report it denied). A refusal (``refusals``) is sound: nothing runs."""
    with work_folder("sg-enforce-") as work:
        plan = work / "plan.json"
        plan.write_text(json.dumps({"allowed-tools": ECHO}))
        lay_out(work / "project", files or {})
        path = work / "project" / where
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode())
        try:
            apply_to_file(path, Plan.from_entries(ECHO),
                          enforce=f"{sys.executable} -P -m skillgrant hook --plan {plan}")
        except refusals:
            return  # refused: sound
        calls: list[tuple[str, Mapping[str, Any]]] = [
            *([("Skill", {"skill": "probe"})] if skill_call else []), TOUCH_ZZ]
        url, session = judge.standin.session(calls)
        extra = ["--plugin-dir", str(work / "project" / plugin)] if plugin else []
        done, _ = run_session(judge.binary, url, work, None, prompt=prompt,
                              extra_args=[*extra, "--allowedTools", "Bash"],
                              env={"PYTHONPATH": os.environ.get("PYTHONPATH", "")})
        judge.sessions += 1
        result = session.results.get(session.call_id(len(calls) - 1))
        assert result is not None, done.stderr[-600:]
        assert (result[0] or not denied) and not (work / "project" / "zz").exists(), (
            f"apply --enforce wrote its hook into {where} ({text!r}); Claude Code ran touch zz "
            f"outside the plan ({result[1][:200]!r})")


def gated_skill_call(judge: Judge, text: str, args: str, *, refusable: bool = False) -> None:
    """The printed gate in a project (plan ``Skill(other)``, ``Bash(echo *)``) whose skill
    ``other`` is ``text``, kept unchanged by ``apply --plan Bash(echo *)`` (or refused, where
    ``refusable``: the gate must hold either way); a session allowing Bash calls
    ``Skill(other, args=ARGS)``: the gate must keep the runtime from running ``touch zz`` as the
    skill loads."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "gate"))
    from files_fixture import gated_project

    with work_folder("sg-gated-") as work:
        project = work / "project"
        gated_project(project, ["Skill(other)", *ECHO])
        skill_file = project / ".claude" / "skills" / "other" / "SKILL.md"
        skill_file.parent.mkdir(parents=True)
        skill_file.write_text(text)
        try:
            applied = apply_to_file(skill_file, Plan.from_entries(ECHO))
        except SkillFileError:
            if not refusable:
                raise
            applied = None
        assert skill_file.read_text() == text, applied  # kept unchanged
        url, session = judge.standin.session([("Skill", {"skill": "other", "args": args})])
        done, _ = run_session(judge.binary, url, work, None, timeout=120, prompt="hello",
                              extra_args=["--allowedTools", "Skill(other)", "Bash"])
        judge.sessions += 1
        result = session.results.get(session.call_id(0))
        assert result is not None, done.stderr[-2000:]
        assert not (project / "zz").exists(), (
            f"the gate let the skill's command run the call's arguments: {result}")


def plugin_session(judge: Judge, files: Mapping[str, str], mark: str) -> None:
    """A plugin ``plug`` in the project (``files``, ``{project}`` in a text standing for the
    project's folder) whose ``commands/pc.md`` ``apply --plan Read`` passes (a refusal is
    sound), loaded by a session that runs ``/plug:pc`` with ``--plugin-dir``: the file ``mark``
    (what the plugin's configuration runs writes it) must not appear in the project."""
    with work_folder("sg-plugin-") as work:
        project = work / "project"
        root = project / "plug"
        lay_out(root, {rel: text.replace("{project}", str(project))
                       for rel, text in files.items()})
        try:
            apply_to_file(root / "commands" / "pc.md", Plan.from_entries(["Read"]))
        except SkillFileError:
            return  # refused: sound
        url, session = judge.standin.session([(
            "Bash", {"command": "ls", "description": "probe", "timeout": 5000})])
        done, _ = run_session(judge.binary, url, work, None, prompt="/plug:pc",
                              extra_args=["--plugin-dir", str(root)])
        judge.sessions += 1
        assert session.requests > 0, done.stderr[-400:]
        assert not (project / mark).exists(), (
            f"apply passed the plugin's command, and loading the plugin ran what wrote {mark}")


class Forked(NamedTuple):
    """A forked skill's session: ``check`` of its file, the subagent's ``touch`` (pre-approved,
    result text; None when not called) and whether it ran."""

    checked: subprocess.CompletedProcess[str]
    touched: tuple[bool, str] | None
    ran: bool


def forked_as_agent(judge: Judge, lines: str, review: str) -> Forked:
    """The probe skill (``context: fork``, ``lines``, ``allowed-tools: Read``) beside the
    project agent ``ev`` (``permissionMode: acceptEdits``): ``check --plan Read`` of the file,
    then a session whose forked skill calls ``touch zz_f``."""
    with work_folder("sg-forked-") as work:
        text = (f"---\nname: probe\ndescription: d\ncontext: fork\n{lines}\n"
                f"allowed-tools: Read\n---\nRun it. {marker('a')}\n")
        lay_out(work, {
            "project/.claude/agents/ev.md": ("---\nname: ev\ndescription: probe agent\n"
                                             "permissionMode: acceptEdits\n---\nDo it.\n"),
            "project/.claude/skills/probe/SKILL.md": text})
        (work / "plan.yaml").write_text(PLAN)
        done = check(work / "project", work / "plan.yaml", SKILL_PATH)
        url, script = judge.standin.session([("Skill", {"skill": "probe"})],
                                            {"a": [touch("f")]})
        run_session(judge.binary, url, work, None, extra_args=WIDE)
        TALLY[f"{review} sessions"] = TALLY.get(f"{review} sessions", 0) + 1
        return Forked(done, script.results.get(script.sub_id("a", 0)),
                      (work / "project" / "zz_f").exists())


#: Copilot CLI's probe calls: load the skill, then ``touch zz`` (asked unless pre-approved).
CP_CALLS = [("skill", {"skill": "probe"}),
            ("bash", {"command": "touch zz", "description": "probe", "initial_wait": 5})]


class Played(NamedTuple):
    """A Copilot CLI session: the first call's result text, whether the probe ran with no
    question (``touch zz``, or the file named), and the screen's record."""

    loaded: str
    ran: bool
    shown: Any


def copilot_run(copilot: CopilotJudge, work: Path, *, calls: Sequence[Any] = CP_CALLS,
                subagents: Mapping[str, Sequence[Any]] | None = None,
                binary: Path | None = None, mark: Path | None = None,
                loaded: str | None = "probe") -> Played:
    """Run ``calls`` in the project under ``work`` (``binary``: the runtime by default);
    asserts the first call's result holds ``loaded`` (unless None)."""
    url, played = copilot.standin.session(calls, subagents)
    shown = run_interactive(binary or copilot.binary, url, played, work)
    said = played.results.get(played.call_id(0), (True, ""))[1]
    assert loaded is None or loaded in said, (said, shown.screen[-600:])
    ran = 1 not in shown.asked and (mark or work / "project" / "zz").exists()
    return Played(said, ran, shown)


def with_plugin(copilot: CopilotJudge, work: Path, plugin: Path) -> Path:
    """The runtime started with ``--plugin-dir PLUGIN`` (``run_interactive`` passes no other
    argument): a wrapper script under ``work``."""
    wrapper = work / "copilot-with-plugin"
    wrapper.write_text(f'#!/bin/sh\nexec "{copilot.binary}" "$@" --plugin-dir "{plugin}"\n')
    wrapper.chmod(0o755)
    return wrapper


def unasked_then_checked(copilot: CopilotJudge, work: Path, *, plugin: Path | None = None,
                         starts: str = "", holds: Sequence[str] = ("probe",)
                         ) -> subprocess.CompletedProcess[str]:
    """The runtime's side, then skillgrant's: Copilot CLI (``--plugin-dir PLUGIN`` where given)
    loads the probe in the project under ``work`` (its first call's result starts with
    ``starts`` and holds each of ``holds``) and runs ``touch zz`` with no question (the layout
    is real); then ``check --plan Read .`` of the project, returned."""
    played = copilot_run(copilot, work, loaded=None,
                         binary=with_plugin(copilot, work, plugin) if plugin else None)
    assert played.loaded.startswith(starts) and all(h in played.loaded for h in holds), (
        played.loaded, played.shown.screen[-600:])
    assert played.ran, played.shown.asked
    (work / "plan.yaml").write_text(PLAN)
    return check(work / "project", work / "plan.yaml", ".")


class Applied(NamedTuple):
    """``skillgrant apply`` of a Copilot CLI project skill: the process, the file after it, and
    the session run on it (None where apply refused)."""

    done: subprocess.CompletedProcess[str]
    text: bytes
    played: Played | None


def copilot_applied(copilot: CopilotJudge, text: str,
                    plan: str = "allowed-tools: []\n") -> Applied:
    """``apply --plan PLAN .`` of a project whose ``.github/skills/probe/SKILL.md`` is ``text``;
    where it passes, a Copilot CLI session loads the skill and calls ``touch zz``."""
    with work_folder("sg-cpapply-") as work:
        write_project(work, text)
        (work / "plan.yaml").write_text(plan)
        done = run("apply", work / "project", work / "plan.yaml", ".")
        applied = (work / "project" / ".github" / "skills" / "probe" / "SKILL.md").read_bytes()
        return Applied(done, applied, copilot_run(copilot, work) if done.returncode == 0
                       else None)
