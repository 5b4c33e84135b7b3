"""The session's environment as an http hook's request carries it (gate/environment.py,
review M-1): the service decides a call only in the environment the ``skillgrant hook`` process
would have, and knows the project folder only from a transcript Claude Code keeps for it."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skillgrant.gate import environment
from skillgrant.gate.environment import COMPARED, OWN, PROJECT, project_folder, session_problem

GATE = Path(environment.__file__).parent
OWN_ENV = {"PATH": "/usr/bin:/bin", "HOME": "/home/ana"}


def _headers(env: dict[str, str], **changed: str | None) -> dict[str, str]:
    values = {name: env.get(name, "") for name in (*COMPARED, PROJECT)}
    values.update({k: v for k, v in changed.items() if v is not None})
    sent = {f"x-skillgrant-env-{k.lower()}": f"<{v}>" for k, v in values.items()}
    for name in [k for k, v in changed.items() if v is None]:
        del sent[f"x-skillgrant-env-{name.lower()}"]
    return sent


def test_every_environment_read_in_the_gate_is_compared_or_the_gates_own() -> None:
    """A variable the gate reads that the request does not carry would be the service's, not
    the session's: the hole review M-1 found. Each `os.environ` read in gate/*.py is listed."""
    from skillgrant.gate import entryfolders, gitreach, guards, homefiles

    read: set[str] = set()
    # the tuples of names read with ``environment.values``, by the names they are held in
    held = {"_PATH_VARIABLES": environment._PATH_VARIABLES, "_DOUBTED": environment._DOUBTED,
            "_ITEMS_ENVIRONMENT": guards._ITEMS_ENVIRONMENT, "COMPARED": COMPARED,
            "_FINDINGS_ENVIRONMENT": gitreach._FINDINGS_ENVIRONMENT,
            "ENTRY_ENVIRONMENT": entryfolders.ENTRY_ENVIRONMENT,
            "MOVED_CODE": homefiles.MOVED_CODE}
    for module in GATE.glob("*.py"):
        text = module.read_text(encoding="utf-8")
        read |= set(re.findall(r"""os\.environ(?:\.get)?[(\[]\s*["']([A-Z0-9_]+)["']""", text))
        read |= set(re.findall(r"""\bvalues\(\(\s*["']([A-Z0-9_]+)["']""", text))
        for name in re.findall(r"\bvalues\((\w+)\)", text):
            assert name in held, f"{module.name}: values({name}) is not a known tuple"
            read |= set(held[name])
        assert "os.getenv" not in text, module
    assert read, "no read found: the pattern is stale"
    assert read <= set(COMPARED) | set(OWN), read - set(COMPARED) - set(OWN)


def test_the_service_decides_only_in_its_own_environment() -> None:
    assert session_problem(_headers(OWN_ENV), OWN_ENV) is None
    problem = session_problem(_headers(OWN_ENV, PATH="/tmp/evil:/usr/bin:/bin"), OWN_ENV)
    assert problem is not None and "PATH differs from the service's" in problem
    problem = session_problem(_headers(OWN_ENV, GIT_DIR="/x/.git", HOME="/root"), OWN_ENV)
    assert problem is not None and "HOME, GIT_DIR differ" in problem
    # review F3: GIT_CONFIG_KEY_n is in no header, so equal counts say nothing of the settings
    counted = {**OWN_ENV, "GIT_CONFIG_COUNT": "1"}
    problem = session_problem(_headers(counted), counted)
    assert problem is not None and "GIT_CONFIG_COUNT" in problem


@pytest.mark.parametrize("sent", [
    {"x-skillgrant-env-home": None},  # not sent
    {"x-skillgrant-env-home": "/home/ana"},  # not between < and >: not filled as printed
    {"x-skillgrant-env-home": "<"},
])
def test_a_variable_not_sent_as_printed_is_refused(sent: dict[str, str | None]) -> None:
    headers = _headers(OWN_ENV)
    for name, value in sent.items():
        if value is None:
            del headers[name]
        else:
            headers[name] = value
    problem = session_problem(headers, OWN_ENV)
    assert problem is not None and "does not carry the session's HOME" in problem


def _body(transcript: object) -> bytes:
    return json.dumps({"transcript_path": transcript, "tool_name": "Read"}).encode()


@pytest.mark.parametrize(("pwd", "transcript", "env", "found"), [
    ("/srv/my.app", "/home/ana/.claude/projects/-srv-my-app/s.jsonl", OWN_ENV, "/srv/my.app"),
    # a subagent's transcript lies deeper in the same project folder
    ("/srv/app", "/home/ana/.claude/projects/-srv-app/s/subagents/a.jsonl", OWN_ENV, "/srv/app"),
    # CLAUDE_CONFIG_DIR moves the projects (review M-19: HOME alone is not trusted then)
    ("/srv/app", "/cfg/projects/-srv-app/s.jsonl", {**OWN_ENV, "CLAUDE_CONFIG_DIR": "/cfg"},
     "/srv/app"),
    ("/srv/app", "/home/ana/.claude/projects/-srv-app/s.jsonl",
     {**OWN_ENV, "CLAUDE_CONFIG_DIR": "/cfg"}, None),
    ("/srv/app", "/home/ana/.claude/projects/-srv-other/s.jsonl", OWN_ENV, None),
    ("/srv/app", "/home/ana/.claude/projects/-srv-app", OWN_ENV, None),  # no file in it
    ("/srv/app", "/home/ana/.claude/projects/../projects/-srv-app/s.jsonl", OWN_ENV,
     "/srv/app"),
    ("/srv/app", "/tmp/projects/-srv-app/s.jsonl", OWN_ENV, None),
    ("/srv/app", None, OWN_ENV, None),  # review M-17: no transcript, no project
    ("srv/app", "/home/ana/.claude/projects/srv-app/s.jsonl", OWN_ENV, None),  # relative PWD
    # past 200 characters Claude Code cuts the name and adds a hash of the folder, which is
    # not computed: not known (review s41 F4: a stale PWD sharing the first 200 passed)
    ("/" + "a" * 250, "/home/ana/.claude/projects/-" + "a" * 199 + "-1x2y/s.jsonl", OWN_ENV,
     None),
    ("/" + "a" * 199, "/home/ana/.claude/projects/-" + "a" * 199 + "/s.jsonl", OWN_ENV,
     "/" + "a" * 199),
])
def test_the_project_folder_is_the_sessions_pwd_when_its_transcript_is_there(
        pwd: str, transcript: object, env: dict[str, str], found: str | None) -> None:
    folder, why = project_folder(_headers(env, PWD=pwd), _body(transcript), env)
    assert folder == found
    assert (why is None) == (found is not None)


@given(st.dictionaries(st.sampled_from([*COMPARED, *OWN, "SKILLGRANT_TEST_X"]),
                       st.text(st.characters(blacklist_characters="\x00",
                                             blacklist_categories=["Cs"]), max_size=8),
                       max_size=6),
       st.lists(st.sampled_from([*COMPARED, "SKILLGRANT_TEST_X"]), max_size=6))
def test_values_are_what_os_environ_gives(setting: dict[str, str], unset: list[str]) -> None:
    """``environment.values`` reads os.environ's table directly: each value is
    ``os.environ.get``'s, after any change to the environment."""
    saved = dict(os.environ)
    try:
        for name, value in setting.items():
            os.environ[name] = value
        for name in unset:
            os.environ.pop(name, None)
        names = tuple(dict.fromkeys([*setting, *unset, *COMPARED]))
        for _ in range(2):  # asked, then answered from the decoded values kept
            assert environment.values(names) == tuple(os.environ.get(n) for n in names)
    finally:
        os.environ.clear()
        os.environ.update(saved)


def test_values_follow_every_change_of_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """``environment.values`` keeps its answers while ``os.environ``'s table equals the copy
    they were read from (session 46): a variable set, changed or removed is read at once."""
    from skillgrant.gate.environment import values

    names = ("SKILLGRANT_T_A", "SKILLGRANT_T_B", "PATH")
    monkeypatch.delenv("SKILLGRANT_T_A", raising=False)
    monkeypatch.delenv("SKILLGRANT_T_B", raising=False)
    assert values(names)[:2] == (None, None) and values(names)[2] == os.environ.get("PATH")
    monkeypatch.setenv("SKILLGRANT_T_A", "one")
    assert values(names)[:2] == ("one", None)
    monkeypatch.setenv("SKILLGRANT_T_A", "two")
    monkeypatch.setenv("SKILLGRANT_T_B", "x")
    assert values(names)[:2] == ("two", "x") and values(names[:1]) == ("two",)
    monkeypatch.delenv("SKILLGRANT_T_A")
    assert values(names)[:2] == (None, "x")
    monkeypatch.setenv("SKILLGRANT_T_UNRELATED", "y")  # another variable: the same answers
    assert values(names)[:2] == (None, "x")


def test_the_environments_state_changes_with_any_variable_and_is_never_given_twice(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``environment.state`` (the guarded set's key, session 49): the same number while
    ``os.environ`` is unchanged, a new one at any change, an earlier one never again."""
    first = environment.state()
    assert environment.state() == first
    monkeypatch.setenv("SKILLGRANT_S49_STATE", "1")
    second = environment.state()
    monkeypatch.delenv("SKILLGRANT_S49_STATE")
    third = environment.state()
    assert len({first, second, third}) == 3
    assert environment.state() == third


def test_a_header_claude_code_left_as_written_is_named_as_such() -> None:
    """Claude Code 2.1.332 fills no lower-case name (``${npm_config_prefix}`` is sent as
    written: tests/conformance/test_s49_serve_npm.py): the denial says so, not "differs"."""
    sent = _headers(OWN_ENV)
    sent["x-skillgrant-env-npm_config_prefix"] = "<${npm_config_prefix}>"
    problem = session_problem(sent, OWN_ENV)
    assert problem is not None and "npm_config_prefix as written" in problem
    assert "upper-case" in problem and "skillgrant hook" in problem
