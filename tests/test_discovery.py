"""Each file's plan when ``--plan`` is not given (cli/discovery.py): the configuration's
``plans`` table, else the nearest plan file beside the SKILL.md or above it, up to the
repository's root; a file with no plan is an error naming it. Run through the console script
(its own reader of ``check``/``apply``) and through typer."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import forkrun
import pytest
from typer.testing import CliRunner

from skillgrant.cli.app import app
from skillgrant.cli.discovery import ConfigError, find_config, glob_pattern, nearest_plan

WIDE = "---\nname: t\ndescription: d\nallowed-tools: Bash(gh pr list), Bash(chmod -R 777 /)\n---\n"
GH = "allowed-tools:\n  - Bash(gh *)\n"
# A glob grants nothing under Copilot CLI: this plan names the runtime whose reading the tables
# state (the plan's own `runtime:` key, which discovery carries with the plan it finds).
RM = "runtime: claude-code\nallowed-tools:\n  - Bash(chmod *)\n"


def _tree(root: Path, files: dict[str, str]) -> Path:
    (root / ".git").mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def _console(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """What ``skillgrant ARGS`` prints in ``root``, forked from tests/forkrun.py's server."""
    return forkrun.run_text(list(args), cwd=root, timeout=60)


def _kept(result: subprocess.CompletedProcess[str]) -> dict[str, list[str] | None]:
    return {f["path"]: f["allowed"] for f in json.loads(result.stdout)["files"]}


def test_the_nearest_plan_beside_or_above_each_skill(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"plan.yaml": GH, "a/SKILL.md": WIDE, "b/plan.yaml": RM,
                            "b/SKILL.md": WIDE, "b/c/d/SKILL.md": WIDE})
    done = _console(root, "check", "a", "b", "--format", "json")
    assert done.returncode == 1, done.stderr
    assert _kept(done) == {"a/SKILL.md": ["Bash(gh pr list)"],
                           "b/SKILL.md": ["Bash(chmod -R 777 /)"],
                           "b/c/d/SKILL.md": ["Bash(chmod -R 777 /)"]}
    assert json.loads(done.stdout)["plan"] is None  # more than one plan in the run


def test_skillgrant_plan_yaml_is_taken_before_plan_yaml(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"s/plan.yaml": GH, "s/skillgrant-plan.yaml": RM, "s/SKILL.md": WIDE})
    assert nearest_plan(root / "s" / "SKILL.md") == root / "s" / "skillgrant-plan.yaml"


def test_no_plan_above_the_repository_root_is_taken(tmp_path: Path) -> None:
    (tmp_path / "plan.yaml").write_text(GH)
    root = _tree(tmp_path / "repo", {"s/SKILL.md": WIDE, "other/SKILL.md": WIDE,
                                     "other/plan.yaml": GH})
    assert nearest_plan(root / "s" / "SKILL.md") is None
    done = _console(root, "check", "s", "other", "--format", "json")
    assert done.returncode == 2
    assert "s/SKILL.md: no plan found" in done.stderr
    files = {f["path"]: f for f in json.loads(done.stdout)["files"]}
    assert files["s/SKILL.md"]["error"]["message"].startswith("no plan found")
    assert files["other/SKILL.md"]["allowed"] == ["Bash(gh pr list)"]  # still checked


def test_the_configuration_maps_globs_to_plans(tmp_path: Path) -> None:
    root = _tree(tmp_path, {
        ".skillgrant.toml": 'format = "json"\n[plans]\n"skills/gh-*/**" = "plans/gh.yaml"\n'
                            '"skills/**" = "plans/rm.yaml"\n',
        "plans/gh.yaml": GH, "plans/rm.yaml": RM, "skills/gh-x/SKILL.md": WIDE,
        "skills/y/SKILL.md": WIDE, "skills/y/plan.yaml": GH})
    done = _console(root, "check", "skills")  # format from the configuration
    assert _kept(done) == {"skills/gh-x/SKILL.md": ["Bash(gh pr list)"],
                           "skills/y/SKILL.md": ["Bash(chmod -R 777 /)"]}  # the table comes first
    text = _console(root, "check", "skills", "--format", "text")  # the command line wins
    assert text.stdout.startswith("skills/")


def test_pyproject_holds_the_configuration_too(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"pyproject.toml": '[project]\nname = "x"\n[tool.skillgrant]\n'
                                              'plans = { "**" = "approved.yaml" }\n',
                            "approved.yaml": RM, "deep/er/SKILL.md": WIDE})
    done = _console(root / "deep", "apply", "er", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert "Bash(chmod -R 777 /)" in (root / "deep/er/SKILL.md").read_text()
    assert "gh pr list" not in (root / "deep/er/SKILL.md").read_text()


@pytest.mark.parametrize(("text", "said"), [
    ("plan = {}\n", "unknown key plan; did you mean plans?"),
    ("[lint]\nselct = ['SGL1']\n", "unknown key lint.selct; did you mean lint.select?"),
    ("format = 'xml'\n", "format must be one of"),
    ("plans = ['a']\n", "plans must map globs to plan files"),
    ("plans = {\n", "not TOML"),
])
def test_a_bad_configuration_is_an_error_naming_it(tmp_path: Path, text: str,
                                                   said: str) -> None:
    root = _tree(tmp_path, {".skillgrant.toml": text, "s/SKILL.md": WIDE, "s/plan.yaml": GH})
    with pytest.raises(ConfigError, match=f"^{root}/.skillgrant.toml: .*{said[:20]}"):
        find_config(root)
    done = _console(root, "check", "s")
    assert done.returncode == 2 and ".skillgrant.toml" in done.stderr and said in done.stderr


def test_plan_given_twice_is_an_error(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"s/SKILL.md": WIDE, "gh.yaml": GH, "rm.yaml": RM})
    done = _console(root, "check", "s", "-p", "gh.yaml", "--plan", "rm.yaml")
    assert done.returncode == 2 and "--plan is given 2 times" in done.stderr
    result = CliRunner().invoke(app, ["apply", "s", "-p", "gh.yaml", "-p", "gh.yaml"])
    assert result.exit_code == 2


@pytest.mark.parametrize(("pattern", "path", "matches"), [
    ("skills/**", "skills/a/b/SKILL.md", True),
    ("skills/*", "skills/a/SKILL.md", False),
    ("skills/*/SKILL.md", "skills/a/SKILL.md", True),
    ("**/SKILL.md", "SKILL.md", True),
    ("**/SKILL.md", "x/y/SKILL.md", True),
    ("s?/SKILL.md", "sa/SKILL.md", True),
    ("s?/SKILL.md", "s/SKILL.md", False),
    ("a.b/**", "aXb/SKILL.md", False),
])
def test_globs(pattern: str, path: str, matches: bool) -> None:
    assert bool(glob_pattern(pattern).fullmatch(path)) is matches


def test_nothing_above_the_repository_is_read(tmp_path: Path) -> None:
    """A configuration or a plan above the repository is not the project's (a shared /tmp, a
    home folder): it is never read, and never beats the repository's own plan."""
    (tmp_path / ".skillgrant.toml").write_text('plans = { "**" = "evil.yaml" }\n')
    (tmp_path / "evil.yaml").write_text("allowed-tools: [Bash]\n")
    root = _tree(tmp_path / "repo", {"plan.yaml": GH, "skills/a/SKILL.md": WIDE})
    done = _console(root, "check", "skills", "--format", "json")
    assert _kept(done) == {"skills/a/SKILL.md": ["Bash(gh pr list)"]}
    assert json.loads(done.stdout)["plan"] == str(root / "plan.yaml")


def test_outside_a_repository_only_the_folders_themselves_are_read(tmp_path: Path) -> None:
    (tmp_path / "plan.yaml").write_text(GH)
    (tmp_path / ".skillgrant.toml").write_text('plans = { "**" = "plan.yaml" }\n')
    skill = tmp_path / "proj" / "skills" / "a" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(WIDE)
    assert nearest_plan(skill) is None
    assert find_config(tmp_path / "proj").path is None
    done = _console(tmp_path / "proj", "check", "skills")
    assert done.returncode == 2 and "no plan found" in done.stderr


def test_the_configurations_runtime_does_not_narrow_a_plan_named_on_the_command_line(
        tmp_path: Path) -> None:
    """Review FB-2: a configuration in the judged repository naming only Claude Code kept
    `Bash(gh:*)` under an explicit `--plan` of `Bash(gh *)`, which Copilot CLI reads wider
    (`gh zz` runs). Its runtimes go with the plans it maps, not with one named on the command
    line."""
    skill = "---\nname: t\ndescription: d\nallowed-tools: Bash(gh:*)\n---\n"
    root = _tree(tmp_path, {".skillgrant.toml": 'runtime = "claude-code"\n'
                                                '[plans]\n"**" = "gh.yaml"\n',
                            "gh.yaml": GH, "s/SKILL.md": skill})
    named = _console(root, "check", "s", "--plan", "gh.yaml", "--format", "json")
    assert _kept(named) == {"s/SKILL.md": ["Bash(gh *)"]}, named.stderr  # dropped, restored
    mapped = _console(root, "check", "s", "--format", "json")
    assert _kept(mapped) == {"s/SKILL.md": ["Bash(gh:*)"]}, mapped.stderr


def test_a_plan_judged_under_fewer_runtimes_than_every_one_says_so(tmp_path: Path) -> None:
    """Review R-6: a configuration (or a plan's own runtime key) narrowing the runtimes kept
    `Bash(gh:*)` under `Bash(gh *)`, which Copilot CLI reads wider, and no report said the
    verdict was Claude Code's alone. Standard error names the runtimes and where they came
    from; `--runtime` given on the command line is the user's own choice and is not repeated."""
    skill = "---\nname: t\ndescription: d\nallowed-tools: Bash(gh:*)\n---\n"
    root = _tree(tmp_path, {".skillgrant.toml": 'runtime = "claude-code"\n',
                            "plan.yaml": GH, "own.yaml": GH + "runtime: claude-code\n",
                            "s/SKILL.md": skill})
    said = "judged under Claude Code 2.1.332 only (.skillgrant.toml)"
    assert said in _console(root, "check", "s").stderr
    assert "judged under Claude Code 2.1.332 only (the plan's runtime key)" in _console(
        root, "check", "s", "--plan", "own.yaml").stderr
    assert "judged under" not in _console(root, "check", "s", "--runtime", "claude-code").stderr
    assert "judged under" not in _console(root, "check", "s", "--plan", "plan.yaml").stderr
