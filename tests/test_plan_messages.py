"""Issue 16, items 2-4: the messages a user reads about a plan or a SKILL.md that cannot be
used as it is. A symbolic-link loop is called one; a plan that approves nothing by the look of
it (a settings.json with only ``deny`` rules, an approved SKILL.md with no ``allowed-tools``)
loads with a warning; a misspelt plan key gets a "did you mean".

Each expected message is written out in full here, not built from the code's own constants.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from skillgrant import PlanError, SkillFileError
from skillgrant.gate.planfile import load as gate_load
from skillgrant.plan.light import ApprovedPlan, load_plan, plan_from_text
from skillgrant.plan.model import Plan
from skillgrant.skillfile.bounded import SymlinkLoopError, read_bounded
from skillgrant.skillfile.builder import apply_to_file, read_limited

needs_symlinks = pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt",
                                    reason="POSIX symbolic links")

# --- item 2: a symbolic-link loop says so ---------------------------------------------------


@pytest.fixture
def loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``a -> b -> a`` in a directory of its own, which is made the working directory so the
    names in the message are short."""
    monkeypatch.chdir(tmp_path)
    os.symlink("b", "a")
    os.symlink("a", "b")
    return tmp_path


@needs_symlinks
def test_the_bounded_reader_names_the_loop(loop: Path) -> None:
    with pytest.raises(SymlinkLoopError) as caught:
        read_bounded("a")
    assert caught.value.strerror == "a symbolic-link loop: a -> b -> a"
    assert isinstance(caught.value, OSError)


@needs_symlinks
@pytest.mark.parametrize(("read", "message"), [
    pytest.param(lambda p: Plan.load(p), "a: cannot read the plan: a symbolic-link loop: "
                 "a -> b -> a", id="Plan.load"),
    pytest.param(lambda p: Plan.load(p, kind="settings"), "a: cannot read the plan: a "
                 "symbolic-link loop: a -> b -> a", id="Plan.load-settings"),
    pytest.param(load_plan, "a: cannot read the plan: a symbolic-link loop: a -> b -> a",
                 id="light.load_plan"),
    pytest.param(lambda p: gate_load(p), "a: cannot read the plan: a symbolic-link loop: "
                 "a -> b -> a", id="gate.planfile.load"),
    pytest.param(read_limited, "a: cannot read the file: a symbolic-link loop: a -> b -> a",
                 id="read_limited"),
    pytest.param(lambda p: apply_to_file(p, Plan.from_entries(["Read"])),
                 "a: cannot read the file: a symbolic-link loop: a -> b -> a",
                 id="apply_to_file"),
])
def test_reading_a_loop_says_it_is_a_loop(loop: Path, read: Callable[[str], object],
                                          message: str) -> None:
    with pytest.raises((PlanError, SkillFileError)) as caught:
        read("a")
    assert str(caught.value) == message


@needs_symlinks
def test_a_link_to_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    os.symlink("SKILL.md", "SKILL.md")
    with pytest.raises(SkillFileError) as caught:
        read_limited("SKILL.md")
    assert str(caught.value) == ("SKILL.md: cannot read the file: a symbolic-link loop: "
                                 "SKILL.md -> SKILL.md")


@needs_symlinks
def test_a_loop_in_a_directory_on_the_way(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    os.symlink("skills", "skills")
    with pytest.raises(PlanError) as caught:
        Plan.load("skills/x/SKILL.md")
    assert str(caught.value) == ("skills/x/SKILL.md: cannot read the plan: a directory on its "
                                 "path is a symbolic-link loop: skills -> skills")


@needs_symlinks
def test_a_long_chain_that_does_not_loop(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("end").write_text("allowed-tools: Read\n", encoding="utf-8")
    target = "end"
    for index in range(60):  # more than any system follows (Linux: 40)
        os.symlink(target, f"l{index}")
        target = f"l{index}"
    assert Plan.load("l0").allowed_tools == ["Read"]  # the first links are within reach
    with pytest.raises(PlanError) as caught:
        Plan.load(target)
    assert str(caught.value) == (
        f"{target}: cannot read the plan: too many levels of symbolic links: a symbolic-link "
        "loop, or a chain of links longer than the system follows")


@needs_symlinks
def test_a_link_that_resolves_is_still_read(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("real.yaml").write_text("allowed-tools: Read\n", encoding="utf-8")
    os.symlink("real.yaml", "plan.yaml")
    assert Plan.load("plan.yaml").allowed_tools == ["Read"]


# --- item 3: a plan that approves nothing warns ---------------------------------------------

DENY_ONLY = json.dumps({"permissions": {"deny": ["Bash(rm *)"]}})

WARNED = [
    pytest.param("settings.json", DENY_ONLY,
                 "the settings file approves nothing: it has only permissions.deny",
                 id="settings-deny-only"),
    pytest.param("settings.json",
                 json.dumps({"permissions": {"allow": [], "deny": ["Read"], "ask": ["Bash"]}}),
                 "the settings file approves nothing: it has only permissions.deny and "
                 "permissions.ask", id="settings-deny-and-ask-empty-allow"),
    pytest.param("settings.json", json.dumps({"permissions": {}}),
                 "the settings file approves nothing: permissions.allow is missing or empty",
                 id="settings-nothing"),
    pytest.param("SKILL.md", "---\nname: x\ndescription: d\n---\nbody\n",
                 "the approved SKILL.md approves nothing: it has no allowed-tools key",
                 id="skill-without-the-key"),
]


@pytest.mark.parametrize(("name", "text", "warning"), WARNED)
def test_loaders_warn_when_nothing_is_approved(tmp_path: Path, name: str, text: str,
                                               warning: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    for plan in (Plan.load(path), load_plan(str(path)), gate_load(str(path))[0],
                 Plan.from_text(text, source=name), plan_from_text(text, source=name)):
        assert plan.allowed_tools == []
        assert plan.warnings == (warning,), type(plan)


@pytest.mark.parametrize(("name", "text", "warning"), WARNED)
def test_each_warning_is_logged(caplog: pytest.LogCaptureFixture, name: str, text: str,
                                warning: str) -> None:
    with caplog.at_level(logging.WARNING, logger="skillgrant"):
        plan_from_text(text, source=name)
    assert [(r.name, r.levelno, r.getMessage()) for r in caplog.records] == [
        ("skillgrant", logging.WARNING, f"{name}: {warning}")]
    assert caplog.records[0].skillgrant == {  # type: ignore[attr-defined]
        "file": name, "event": "plan-warning", "reason": warning}


@pytest.mark.parametrize(("name", "text"), [
    pytest.param("plan.yaml", "allowed-tools: []\n", id="an-empty-plan-is-explicit"),
    pytest.param("plan.yaml", "allowed-tools: Read\n", id="plan"),
    pytest.param("settings.json",
                 json.dumps({"permissions": {"allow": ["Read"], "deny": ["Bash"]}}),
                 id="settings-with-allow"),
    pytest.param("SKILL.md", "---\nallowed-tools: Read\n---\n", id="skill-with-the-key"),
    pytest.param("SKILL.md", "---\nallowed-tools: []\n---\n", id="skill-with-an-empty-list"),
])
def test_no_warning_otherwise(caplog: pytest.LogCaptureFixture, name: str, text: str) -> None:
    with caplog.at_level(logging.WARNING, logger="skillgrant"):
        assert Plan.from_text(text, source=name).warnings == ()
        assert plan_from_text(text, source=name).warnings == ()
    assert caplog.records == []


def test_approved_plan_keeps_its_fields_and_order() -> None:
    plan = ApprovedPlan(["Read"], "p.yaml")
    assert (plan.allowed_tools, plan.source, plan.warnings) == (["Read"], "p.yaml", ())
    assert tuple(plan) == (["Read"], "p.yaml", ())
    assert ApprovedPlan(["Read"]).source is None
    assert ApprovedPlan([], "s.json", ("w",)).warnings == ("w",)


def test_a_plan_built_in_code_has_no_warnings() -> None:
    assert Plan.from_entries([]).warnings == ()


@pytest.mark.parametrize("text", ["allowed-tools: Read\nwarnings: [x]\n",
                                  "allowed-tools: Read\nsource: me\n"])
def test_warnings_is_no_key_of_a_plan_document(text: str) -> None:
    with pytest.raises(PlanError, match="unknown key"):
        Plan.from_text(text, source="p.yaml")


# --- item 4: a misspelt key gets "did you mean" ---------------------------------------------

KEYS = ("plan keys are allowed-tools, shell-tools, base-dirs and runtime (x-… keys are ignored)")


@pytest.mark.parametrize(("source", "text", "message"), [
    pytest.param("p.yaml", "allowed-tool: [Read]\n",
                 "p.yaml:1:1: the plan has no allowed-tools key: unknown key 'allowed-tool' "
                 "(did you mean 'allowed-tools'?)", id="allowed-tool"),
    pytest.param("p.yaml", "name: x\nallowedtools: [Read]\n",
                 "p.yaml:2:1: the plan has no allowed-tools key: unknown key 'allowedtools' "
                 "(did you mean 'allowed-tools'?)", id="allowedtools"),
    pytest.param("p.yaml", "x-note: 1\n  # a comment\nalowed-tools: Read\n",
                 "p.yaml:3:1: the plan has no allowed-tools key: unknown key 'alowed-tools' "
                 "(did you mean 'allowed-tools'?)", id="alowed-tools"),
    pytest.param("p.yaml", "Allowed_Tools: Read\n",
                 "p.yaml:1:1: the plan has no allowed-tools key: unknown key 'Allowed_Tools' "
                 "(did you mean 'allowed-tools'?)", id="case-and-underscore"),
    pytest.param("p.yaml", "allowed: Read\n",
                 "p.yaml:1:1: the plan has no allowed-tools key: unknown key 'allowed' "
                 "(did you mean 'allowed-tools'?)", id="a-start-of-the-key"),
    pytest.param("p.json", '{"x-a": 1, "allowedTool": ["Read"]}',
                 "p.json:1:12: the plan has no allowed-tools key: unknown key 'allowedTool' "
                 "(did you mean 'allowed-tools'?)", id="json"),
    pytest.param("p.yaml", "tools: [Read]\n",
                 "p.yaml:1:1: the plan has no allowed-tools key (use allowed-tools: [] to "
                 "approve no tools)", id="not-close-to-any"),
    pytest.param("p.yaml", "allowed-tools: Read\nbasedirs: {cwd: /x}\n",
                 f"p.yaml:2:1: unknown key 'basedirs' (did you mean 'base-dirs'?); {KEYS}",
                 id="basedirs"),
    pytest.param("p.yaml", "allowed-tools: Read\nshell_tool: [run]\n",
                 f"p.yaml:2:1: unknown key 'shell_tool' (did you mean 'shell-tools'?); {KEYS}",
                 id="shell_tool"),
    pytest.param("p.yaml", "allowed-tools: Read\nAllowed-Tools: Read\n",
                 f"p.yaml:2:1: unknown key 'Allowed-Tools' (did you mean 'allowed-tools'?); "
                 f"{KEYS}", id="a-second-spelling-in-capitals"),
    pytest.param("p.yaml", "allowed-tools: Read\nbase-dirs:\n  pwd: /x\n",
                 "p.yaml:3:8: base-dirs.pwd: Extra inputs are not permitted (did you mean "
                 "'cwd'?)", id="base-dirs-inner"),
    pytest.param("p.yaml", "allowed-tools: Read\nshell-tools:\n  run: {command: cmd}\n",
                 "p.yaml:3:18: shell-tools.run.command: Extra inputs are not permitted (did "
                 "you mean 'command-argument'?)", id="shell-tools-inner"),
    pytest.param("p.yaml", "allowed-tools: Read\nshell-tools:\n  run: {cmd: x}\n",
                 "p.yaml:3:14: shell-tools.run.cmd: Extra inputs are not permitted",
                 id="shell-tools-inner-not-close"),
])
def test_a_misspelt_key_gets_a_suggestion(source: str, text: str, message: str) -> None:
    for load in (Plan.from_text, plan_from_text):
        with pytest.raises(PlanError) as caught:
            load(text, source=source)
        assert str(caught.value) == message
