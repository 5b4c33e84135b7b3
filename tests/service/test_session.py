"""The service decides a call in the session's environment (review M-1): what a call must not
write comes from the session's PATH, HOME and project folder, which an http hook's request
carries as headers; a service in another environment denies, and the project folder found
from the request guards its ``.claude`` as ``$CLAUDE_PROJECT_DIR`` does for the hook
process. Each case is a real service over a real socket, beside the real hook process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import Served, session_headers, start, transcript
from statehome import state_env

SESSION_BIN = "/opt/session-tools/bin"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("session")
    (root / "project" / ".claude").mkdir(parents=True)
    (root / "elsewhere").mkdir()
    (root / "plan.json").write_text(json.dumps({"allowed-tools": [
        "Bash(git status)", f"Edit(/{root}/**)"]}))
    return root


@pytest.fixture(scope="module")
def served(project: Path) -> Iterator[Served]:
    with start([f"plan={project / 'plan.json'}"]) as service:
        yield service


def _write(folder: Path, target: Path) -> dict[str, object]:
    return {"session_id": "s", "cwd": str(folder), "hook_event_name": "PreToolUse",
            "tool_name": "Write", "tool_input": {"file_path": str(target), "content": "{}"}}


def _decision(served: Served, payload: dict[str, object], started_in: Path,
              **env: str) -> str | None:
    """The service's decision for ``payload`` sent from a session started in ``started_in``
    whose environment is the service's changed by ``env``; None for no decision."""
    session = {**served.env, **env}
    if payload["session_id"] not in served.registered:  # (its SessionStart hook)
        assert served.register(str(payload["session_id"]), session).status == 200
    body = {"transcript_path": transcript(session, str(started_in)), **payload}
    reply = served.post("/v1/hook/plan", body, session=False,
                        headers={"Content-Type": "application/json",
                                 **session_headers(session, str(started_in))})
    assert reply.status == 200
    return json.loads(reply.body)["hookSpecificOutput"]["permissionDecision"] \
        if reply.body else None


def _hook(project: Path, payload: dict[str, object], **env: str) -> int:
    done = subprocess.run([sys.executable, "-P", "-m", "skillgrant", "hook", "--plan",
                           str(project / "plan.json")], input=json.dumps(payload).encode(),
                          capture_output=True, timeout=60, check=False,
                          env={**os.environ, **env})
    return done.returncode


def test_a_call_the_service_would_allow_is_denied_from_another_path(
        served: Served, project: Path) -> None:
    """Under the session's PATH, a write into its first folder changes what `git` runs: the
    hook process denies it. The service, in another PATH, would not guard that folder: it
    denies every call of such a session instead, naming why."""
    tools = project / "tools"
    tools.mkdir(exist_ok=True)
    payload = _write(project / "elsewhere", tools / "git")
    session_path = f"{tools}:{served.env['PATH']}"
    assert _hook(project, payload, PATH=session_path) == 2
    assert _hook(project, payload) == 0  # the service's own PATH does not hold it
    assert _decision(served, payload, project / "project") is None
    assert _decision(served, payload, project / "project", PATH=session_path) == "deny"
    reply = served.post("/v1/hook/plan", payload, session=False)
    assert b"does not carry the session's PATH" in reply.body


def test_the_projects_settings_are_guarded_from_a_folder_outside_it(
        served: Served, project: Path) -> None:
    """After a `cd` out of the project, its .claude is not above the call's folder: the hook
    guards it through $CLAUDE_PROJECT_DIR, the service through the session's PWD."""
    settings = project / "project" / ".claude" / "settings.json"
    payload = _write(project / "elsewhere", settings)
    assert _hook(project, payload, CLAUDE_PROJECT_DIR=str(project / "project")) == 2
    assert _decision(served, payload, project / "project") == "deny"
    assert _decision(served, payload, project / "elsewhere") is None  # another project's


def test_a_call_is_allowed_only_with_a_transcript_in_the_project_folder(
        served: Served, project: Path) -> None:
    inside = _write(project / "elsewhere", project / "elsewhere" / "a.txt")
    assert _decision(served, inside, project / "project") is None
    body = {**inside, "transcript_path": "/tmp/projects/x/s.jsonl"}
    reply = served.post("/v1/hook/plan", body, session=False, headers={
        "Content-Type": "application/json",
        **session_headers(served.env, str(project / "project"))})
    assert b"project folder is not known" in reply.body
    outside = _write(project / "elsewhere", Path("/etc/passwd"))
    reply = served.post("/v1/hook/plan", {k: v for k, v in outside.items()}, session=False,
                        headers={"Content-Type": "application/json",
                                 **session_headers(served.env, str(project / "project"))})
    assert b"no approved entry allows the path" in reply.body or (  # denied anyway: its own
        b"which the gate itself reads" in reply.body)  # reason (a root session: /etc, s45 R1)


def test_the_services_audit_log_and_a_skill_plans_scripts_are_guarded(
        project: Path, tmp_path: Path) -> None:
    """Reviews F4, F8, M-16b: what `skillgrant hook --audit-log --skill-dir` guards, the
    service guards for its own log (named relative to the folder it started in) and for a
    SKILL.md plan's folder, whose scripts the plan runs."""
    skill = tmp_path / "skill"
    skill.mkdir()
    (skill / "run.sh").write_text("#!/bin/sh\n")
    (skill / "SKILL.md").write_text("---\nname: s\ndescription: d\nallowed-tools: "
                                    f"Bash(${{CLAUDE_SKILL_DIR}}/run.sh), Edit(/{tmp_path}/**)\n"
                                    "---\nRun it.\n")
    with start([f"s={skill / 'SKILL.md'}"], "--audit-log", "audit.jsonl",
               cwd=tmp_path, env=state_env(tmp_path)) as service:
        folder = tmp_path / "work"
        folder.mkdir()

        def decided(target: Path) -> str | None:
            reply = service.post("/v1/hook/s", _write(folder, target))
            assert reply.status == 200
            return json.loads(reply.body)["hookSpecificOutput"]["permissionDecision"] \
                if reply.body else None

        assert decided(folder / "a.txt") is None
        assert decided(tmp_path / "audit.jsonl") == "deny"
        assert decided(skill / "run.sh") == "deny"
