"""The conformance harness's own parts, without the runtime: the stand-in model's answers, the
install step's failure, probe calls. (The suite itself runs with --conformance.)"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

HARNESS = Path(__file__).resolve().parent / "conformance"
sys.path.insert(0, str(HARNESS))

from cc_probe import HOME, OUTSIDE, Probe  # noqa: E402
from cc_standin import StandIn  # noqa: E402


def _events(raw: bytes) -> list[tuple[str, dict[str, object]]]:
    events = []
    for block in raw.decode().split("\n\n"):
        if block.strip():
            name, data = block.split("\n")
            events.append((name.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return events


def _post(url: str, body: dict[str, object]) -> bytes:
    request = urllib.request.Request(f"{url}/v1/messages?beta=true", json.dumps(body).encode(),
                                     {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return bytes(answer.read())


def test_standin_plays_its_script_one_call_a_turn_and_records_results() -> None:
    with StandIn() as standin:
        url, session = standin.session([("Skill", {"skill": "probe"}),
                                        ("Bash", {"command": "touch zz"})])
        tools = [{"name": "Bash"}]
        first = _events(_post(url, {"tools": tools, "messages": [
            {"role": "user", "content": "go"}]}))
        assert [name for name, _ in first] == [
            "message_start", "content_block_start", "content_block_delta", "content_block_stop",
            "message_delta", "message_stop"]
        block = first[1][1]["content_block"]
        assert block == {"type": "tool_use", "id": "toolu_probe_0000", "name": "Skill",
                         "input": {}}
        assert json.loads(first[2][1]["delta"]["partial_json"]) == {"skill": "probe"}  # type: ignore[index]
        turn = {"role": "assistant", "content": [{"type": "tool_use", "id": block["id"]}]}
        result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": block["id"],
                                               "content": "Launching skill: probe"}]}
        second = _events(_post(url, {"tools": tools, "messages": [turn, result]}))
        assert second[1][1]["content_block"]["name"] == "Bash"  # type: ignore[index]
        assert session.results == {"toolu_probe_0000": (False, "Launching skill: probe")}
        turn2 = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_probe_0001"}]}
        done = _events(_post(url, {"tools": tools, "messages": [turn, result, turn2]}))
        assert done[1][1]["content_block"]["type"] == "text"  # type: ignore[index]
        assert done[4][1]["delta"]["stop_reason"] == "end_turn"  # type: ignore[index]
        # A request without tools (a title, a summary) gets text, and the script waits.
        aside = _events(_post(url, {"messages": []}))
        assert aside[1][1]["content_block"]["type"] == "text"  # type: ignore[index]


def test_standin_refuses_unknown_sessions() -> None:
    with StandIn() as standin, pytest.raises(urllib.error.HTTPError) as raised:
        _post(f"http://127.0.0.1:{standin.port}/s/999999", {"messages": []})
    assert raised.value.code == 404
    raised.value.close()


def test_probe_calls_fill_in_the_session_folders(tmp_path: Path) -> None:
    assert Probe("Read", f"{OUTSIDE}/a").call(tmp_path) == (
        "Read", {"file_path": f"{tmp_path}/outside/a"})
    assert Probe("Read", f"{HOME}/.zshrc").call(tmp_path)[1]["file_path"] == (
        f"{tmp_path}/home/.zshrc")
    name, tool_input = Probe("Bash", "touch zz").call(tmp_path)
    assert name == "Bash" and tool_input["command"] == "touch zz"


@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
def test_a_runtime_that_cannot_be_installed_says_so_in_one_line(tmp_path: Path) -> None:
    env = os.environ | {"SKILLGRANT_RUNTIME_CACHE": str(tmp_path / "cache"),
                        "npm_config_registry": "http://127.0.0.1:9/",
                        "npm_config_fetch_retries": "0"}
    done = subprocess.run([sys.executable, str(HARNESS / "cc_runtime.py"), "install"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 1
    (line,) = done.stdout.splitlines()
    assert line.startswith("the pinned Claude Code 2.1.332 could not be installed: npm could "
                           "not fetch @anthropic-ai/claude-code-linux-x64@2.1.332")
