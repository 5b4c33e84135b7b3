"""Session 47 (s47-sfix): the files a ``Skill`` call's args fill (``gate/skillfiles.py``),
reviews s47-greview K3-K5: a skill's frontmatter ``name`` read by the project's reader (K3),
the runtime's command line read when it is PID 1, and refused when the line lacks the
runtime (K4), a plugin manifest's ``commands``/``skills`` paths (K5). The args' split and
names (S1-S4) are pinned in tests/test_s47_freview.py and tests/oracle/test_skillargs_bun.py."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from skillgrant.gate import skillfiles
from skillgrant.gate.call import check_call

RUNS = "---\n{front}\n---\nResult: !`echo $ARGUMENTS`\n"
QUIET = "---\nname: other\ndescription: says hello\n---\nHello.\n"
PLAN = ["Skill(other)", "Bash(echo *)"]
CALL = {"skill": "other", "args": "hi; touch zz"}
HOME = os.environ.get("HOME", "/")  # (where the pinned runtime is cached)


@pytest.fixture(autouse=True)
def _session(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


#: (the file's text, the name the gate reads: None where it cannot read it exactly).
NAMES = {
    "plain": ("---\nname: other\n---\n", "other"),
    "byte-order-mark": ("\ufeff---\nname: other\ndescription: d\n---\n", "other"),
    "quoted-key": ('---\n"name": other\n---\n', "other"),
    "indented-mapping": ("---\n name: other\n description: d\n---\n", "other"),
    "flow-mapping": ("---\n{name: other, description: d}\n---\n", "other"),
    "explicit-key": ("---\n? name\n: other\n---\n", "other"),
    "escaped-key": ('---\n"n\\x61me": other\n---\n', "other"),
    "escaped-value": ('---\nname: "oth\\x65r"\n---\n', "other"),
    "upper-case": ("---\nname: OTHER\n---\n", "OTHER"),
    "last-key": ("---\nname: a\nname: other\n---\n", "other"),
    "tagged": ("---\nname: !!null other\n---\n", None),
    "anchor-then-tag": ("---\nname: &a\n  !!null other\n---\n", None),
    "number": ("---\nname: 12\n---\n", None),
    "list": ("---\nname: [other]\n---\n", None),
    "no-name": ("---\ndescription: d\n---\n", ""),
    "no-frontmatter": ("name: other\n", ""),
    "other-name": ("---\nname: another\n---\n", "another"),
}


@pytest.mark.parametrize("case", list(NAMES))
def test_k3_the_frontmatter_name_is_read_by_the_projects_reader(case: str) -> None:
    text, name = NAMES[case]
    assert skillfiles.frontmatter_name(text + "body\n") == name


@pytest.mark.parametrize("case", ["byte-order-mark", "quoted-key", "indented-mapping",
                                  "flow-mapping", "escaped-key", "escaped-value", "tagged",
                                  "anchor-then-tag"])
def test_k3_a_skill_named_otherwise_than_a_line_says_is_judged(tmp_path: Path,
                                                               case: str) -> None:
    """Review s47 K3 (tests/gate/test_s47_greview.py through Claude Code): ``skills/bar``
    named ``other`` in a frontmatter a line regex misreads is judged beside the quiet
    ``web/.claude/skills/other``."""
    front = NAMES[case][0].replace("---\n", "", 1).rsplit("---\n", 1)[0].rstrip("\n")
    bom = "\ufeff" if case == "byte-order-mark" else ""
    _write(tmp_path / ".claude/skills/bar/SKILL.md",
           bom + RUNS.format(front=front.lstrip("\ufeff")))
    _write(tmp_path / "web/.claude/skills/other/SKILL.md", QUIET)
    assert check_call("Skill", CALL, PLAN, cwd=str(tmp_path)).status != "covered"


def test_k3_control_a_skill_named_plainly_otherwise_is_not_a_candidate(tmp_path: Path) -> None:
    _write(tmp_path / ".claude/skills/bar/SKILL.md", RUNS.format(front="name: another"))
    _write(tmp_path / ".claude/skills/other/SKILL.md", QUIET)
    assert check_call("Skill", CALL, PLAN, cwd=str(tmp_path)).status == "covered"


def _in_namespace(tmp_path: Path, project: Path, words: list[str],
                  env: dict[str, str] | None = None) -> str:
    """``check_call`` of ``CALL`` from ``project`` in a new PID namespace whose PID 1 is a
    bash whose command line holds ``words`` (``$0`` and the words after the probe's): the
    runtime as a container's entrypoint. Its answer (or error)."""
    if shutil.which("unshare") is None or os.geteuid() != 0:
        pytest.skip("unshare as root is needed for a PID namespace")
    probe = ("from skillgrant.gate.call import check_call; import sys; print(check_call("
             f"'Skill', {CALL!r}, {PLAN!r}, cwd=sys.argv[1]).status)")
    done = subprocess.run(["unshare", "--pid", "--fork", "--mount-proc", "bash", "-c",
                           f'{sys.executable} -c "$1" "$2"; true', words[0], probe,
                           str(project), *words[1:]], cwd=project, capture_output=True,
                          text=True, env={**os.environ, "HOME": str(tmp_path / "home"),
                                          **(env or {})}, check=False)
    if done.returncode != 0 and "unshare" in done.stderr:
        pytest.skip(f"no PID namespace here: {done.stderr.strip()}")
    return done.stdout.strip() + done.stderr[-400:]


def _extra(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    _write(project / ".claude/skills/other/SKILL.md", QUIET)
    _write(tmp_path / "extra/.claude/skills/other/SKILL.md", RUNS.format(front="name: other"))
    return project


def test_k4_the_runtime_as_pid_1_is_read(tmp_path: Path) -> None:
    """Review s47 K4: the runtime as PID 1 (``claude --add-dir ../extra``): its ``--add-dir``
    folder's skill is judged (a PID-1 runtime was never read)."""
    project = _extra(tmp_path)
    assert _in_namespace(tmp_path, project, ["claude"]) == "covered"  # (control)
    got = _in_namespace(tmp_path, project, ["claude", "--add-dir", "../extra"])
    assert got == "not_covered", got


def test_k4_a_line_without_the_runtime_is_refused(tmp_path: Path) -> None:
    """Under the runtime's hook (``CLAUDE_PROJECT_DIR`` set), each process up to PID 1 was
    started with it: the runtime that set it is not on the line (a hook run across a
    namespace, a service), so its options cannot be read: refused. The runtime's own start
    lacks it: read."""
    project = _extra(tmp_path)
    env = {"CLAUDE_PROJECT_DIR": str(project)}
    got = _in_namespace(tmp_path, project, ["claude"], env)
    assert got == "unknown", got
    probe = ("import os, sys; os.environ['CLAUDE_PROJECT_DIR'] = sys.argv[2]; "
             "from skillgrant.gate.call import check_call; print(check_call("
             f"'Skill', {CALL!r}, {PLAN!r}, cwd=sys.argv[1]).status)")
    done = subprocess.run(["bash", "-c", f'{sys.executable} -c "$1" "$2" "$3"; true', "claude",
                           probe, str(project), str(project)], cwd=project,
                          capture_output=True, text=True, check=True,
                          env={**os.environ, "HOME": str(tmp_path / "home")})
    assert done.stdout.split() == ["covered"], done.stderr


def _plugin(home: Path, manifest: dict[str, object], files: dict[str, str]) -> None:
    root = home / ".claude" / "plugins" / "pl"
    _write(root / ".claude-plugin" / "plugin.json", json.dumps(manifest))
    for name, text in files.items():
        _write(root / name, text)


#: (the manifest's field, the file it names: a command or skill the runtime runs for
#: ``pl:other``, found by no folder's name).
MANIFESTS: dict[str, tuple[dict[str, object], str]] = {
    "command-list": ({"commands": ["./x/other.md"]}, "x/other.md"),
    "command-string": ({"commands": "./x/other.md"}, "x/other.md"),
    "command-object": ({"commands": {"other": {"source": "./x/a.md"}}}, "x/a.md"),
    "outside-the-plugin": ({"commands": ["../shared/a.md"]}, "../shared/a.md"),
    "skill-folder-outside": ({"skills": ["../shared"]}, "../shared/s/SKILL.md"),
}


@pytest.mark.parametrize("case", list(MANIFESTS))
def test_k5_a_plugin_command_at_a_path_its_manifest_names(tmp_path: Path, case: str) -> None:
    """Review s47 K5: a plugin's manifest names its commands' files anywhere; each file it
    names is a candidate (a folder outside the plugin is walked as the plugin is)."""
    manifest, file = MANIFESTS[case]
    front = "name: other" if file.endswith("SKILL.md") else "description: d"
    _plugin(tmp_path / "home", {"name": "pl", **manifest}, {file: RUNS.format(front=front)})
    call = {"skill": "pl:other", "args": CALL["args"]}
    plan = ["Skill(pl:other)", "Bash(echo *)"]
    assert check_call("Skill", call, plan, cwd=str(tmp_path)).status == "not_covered"


def test_k5_a_marketplace_entry_names_a_command_of_a_plugin_fetched_elsewhere(
        tmp_path: Path) -> None:
    plugins = tmp_path / "home" / ".claude" / "plugins"
    _write(plugins / "marketplaces/m/.claude-plugin/marketplace.json", json.dumps(
        {"plugins": [{"name": "pl", "source": {"source": "github", "repo": "o/pl"},
                      "commands": ["./cmds/run-it.md"]}]}))
    _write(plugins / "cache/m/pl/1.0/cmds/run-it.md", RUNS.format(front="description: d"))
    assert str(plugins / "cache/m/pl/1.0/cmds/run-it.md") in skillfiles.skill_files(
        "pl:other", str(tmp_path))


def test_k5_a_manifest_the_gate_cannot_read_refuses_the_call(tmp_path: Path) -> None:
    _write(tmp_path / "home/.claude/plugins/pl/.claude-plugin/plugin.json", "{x")
    _write(tmp_path / ".claude/skills/other/SKILL.md", QUIET)
    got = check_call("Skill", CALL, PLAN, cwd=str(tmp_path))
    assert got.status == "unknown" and "plugin manifest" in got.reason, got


@pytest.mark.slow
@pytest.mark.parametrize("first", [False, True], ids=["child", "pid-1"])
def test_k4_a_covered_call_with_args_still_runs_under_the_runtime(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first: bool) -> None:
    """The cost side of K4, through Claude Code 2.1.332 and the printed hook: the runtime
    sets ``CLAUDE_PROJECT_DIR`` for its hooks and starts without it, so the gate finds it on
    the line (a child of a shell, or PID 1) and a call whose filled command the plan covers
    runs (``touch made``, plan ``Skill(other)``, ``Bash(touch *)``)."""
    monkeypatch.setenv("HOME", HOME)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "conformance"))
    import cc_runtime
    from cc_standin import StandIn
    from files_fixture import gated_project

    binary = cc_runtime.binary_path()
    if not binary.exists():
        pytest.skip("the pinned Claude Code is not installed (cc_runtime.py install)")
    project = tmp_path / "project"
    gated_project(project, ["Skill(other)", "Bash(touch *)"])
    _write(project / ".claude/skills/other/SKILL.md",
           "---\nname: other\ndescription: d\nallowed-tools: Bash(touch *)\n---\n"
           "Result: !`touch $ARGUMENTS`\n")
    jail = cc_runtime._JAIL
    if not first:  # (the jail's shell stays, the runtime its child)
        cc_runtime._JAIL = jail.replace('exec "$@"', '"$@"')
    try:
        with StandIn() as standin:
            url, session = standin.session([("Skill", {"skill": "other", "args": "made"})])
            done, _ = cc_runtime.run_session(
                binary, url, tmp_path, None, timeout=120, prompt="hello",
                extra_args=["--allowedTools", "Skill(other)", "Bash"])
    finally:
        cc_runtime._JAIL = jail
    result = session.results.get(session.call_id(0))
    assert result is not None, done.stderr[-2000:]
    assert (project / "made").exists(), f"the gate denied a covered call: {result}"


def test_k5_plugin_folders_are_walked_through_links_each_once(tmp_path: Path) -> None:
    """A plugin's skill behind a link named for it (a folder elsewhere), and manifests that
    name each other's folders: every candidate found, the walk ending."""
    plugins = tmp_path / "home" / ".claude" / "plugins"
    _write(tmp_path / "elsewhere/x/SKILL.md", RUNS.format(front="description: d"))
    _write(plugins / "pl/skills/.keep", "")
    (plugins / "pl/skills/other").symlink_to(tmp_path / "elsewhere/x")
    (plugins / "pl/skills/again").symlink_to(tmp_path / "elsewhere")
    _write(tmp_path / "a/.claude-plugin/plugin.json", json.dumps({"skills": ["../b"]}))
    _write(tmp_path / "b/.claude-plugin/plugin.json", json.dumps({"skills": ["../a"]}))
    found = skillfiles.skill_files("pl:other", str(tmp_path / "project"))
    assert str(plugins / "pl/skills/other/SKILL.md") in found
    assert skillfiles._plugin_files(str(tmp_path / "a"), "pl:other") == []


def test_a_skill_file_that_is_a_fifo_is_refused_never_waited_on(tmp_path: Path) -> None:
    """A ``SKILL.md`` that is a FIFO (or another file the gate cannot read whole): the hook
    would wait on ``open`` until the runtime's hook timeout; it is refused at once, whether
    found by its folder or as a possible ``name``."""
    for folder in ("other", "bar"):
        path = tmp_path / ".claude" / "skills" / folder / "SKILL.md"
        path.parent.mkdir(parents=True)
        os.mkfifo(path)
        got = check_call("Skill", {**CALL, "args": "hi"}, PLAN, cwd=str(tmp_path))
        assert got.status == "unknown", got
        path.unlink()
    _write(tmp_path / ".claude" / "skills" / "other" / "SKILL.md", "")
    assert check_call("Skill", {**CALL, "args": "hi"}, PLAN, cwd=str(tmp_path)).status \
        == "covered"  # (an empty file: nothing to fill)
    os.mkfifo(tmp_path / ".claude" / "skills" / "bar" / "SKILL.md")  # (beside the quiet one)
    got = check_call("Skill", {**CALL, "args": "hi"}, PLAN, cwd=str(tmp_path))
    assert got.status == "unknown" and "cannot be read" in got.reason, got


@pytest.mark.parametrize("where", [".claude/settings.json",
                                   "home/.claude/plugins/pl/.claude-plugin/plugin.json"])
def test_a_settings_or_manifest_fifo_is_refused_never_waited_on(tmp_path: Path,
                                                                where: str) -> None:
    _write(tmp_path / ".claude" / "skills" / "other" / "SKILL.md", QUIET)
    (tmp_path / where).parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(tmp_path / where)
    got = check_call("Skill", {**CALL, "args": "hi"}, PLAN, cwd=str(tmp_path))
    assert got.status == "unknown", got
