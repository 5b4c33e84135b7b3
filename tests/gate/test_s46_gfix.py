"""Session 46 (s46-gfix): cargo's target folder guarded while a copy out of it is allowed
(review s45 P2), and the costs of issue 29 a user trips on: a copy out of a guarded system
folder, ``unzip -l``, a copied folder of many entries. Each case asks the printed hook and
runs what it allows under real bash."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from bash_review import bash, first_denied, hook_allows
from files_fixture import gated_project

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh), as
#: `pytest --slow -m slow` does here.
pytestmark = pytest.mark.slow

#: What cargo left of a crate built once (no cargo needed): a compiled build script, the
#: program twice (cargo hard-links ``target/debug/x`` to ``deps/x-HASH``).
BUILT = "target/debug/build/x-1/build-script-build"


def _crate(tmp_path: Path, entries: list[str], config: str | None = None) -> Path:
    project = tmp_path / "project"
    gated_project(project, entries)
    (project / "Cargo.toml").write_text('[package]\nname = "x"\nversion = "0.1.0"\n')
    built = project / BUILT
    built.parent.mkdir(parents=True)
    built.write_text("#!/bin/sh\necho built\n")
    (project / "target" / "debug" / "deps").mkdir()
    (project / "target" / "debug" / "deps" / "x-1").write_text("program\n")
    os.link(project / "target" / "debug" / "deps" / "x-1", project / "target" / "debug" / "x")
    (project / "eb").mkdir()
    (project / "eb" / "build-script-build").write_text("#!/bin/sh\ntouch zz\n")
    if config is not None:
        (project / ".cargo").mkdir()
        (project / ".cargo" / "config.toml").write_text(config)
    return project


CARGO = ["Bash(cp *)", "Bash(cargo build)"]


@pytest.mark.parametrize("command", [
    f"cp -r eb/. {os.path.dirname(BUILT)}/", f"cp eb/build-script-build {BUILT}",
    "cp -t target/debug/build/x-1 eb/build-script-build", "cp -r eb target/debug/build/x-1",
    "cp --target-directory=target/debug/build/x-1 eb/build-script-build",
    f"cp -f eb/build-script-build ./target/../{BUILT}",
])
def test_p2_a_write_into_cargos_target_folder_is_denied(tmp_path: Path, command: str) -> None:
    """Review s45 P2: a copy into ``target/`` (beside the Cargo.toml) is denied under a plan
    running cargo; real bash would have written it."""
    project = _crate(tmp_path, CARGO)
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    bash(command, scratch)
    assert "touch zz" in "".join(p.read_text() for p in (scratch / "target").rglob("*")
                                 if p.is_file()), "the copy wrote nothing: it proves nothing"
    assert not hook_allows(project, command)


@pytest.mark.parametrize("command", [
    "cp target/debug/x out/", "cp target/debug/deps/x-1 out/app", "cp -r target/debug out/",
    "cp -a target/debug/deps out/", "cp target/debug/deps/* out/", "cp -t out target/debug/x",
    "cp -v -- target/debug/x out/",
])
def test_p2_a_copy_out_of_cargos_target_folder_is_allowed(tmp_path: Path, command: str) -> None:
    """A read of ``target/`` stays allowed: the build's own output copied out (the program is
    a hard link of cargo's), and bash copies it."""
    project = _crate(tmp_path, CARGO)
    assert hook_allows(project, command)
    bash(command, project)
    assert any((project / "out").iterdir())


@pytest.mark.parametrize("command", [
    "cp -l target/debug/x out/x", "cp -s $PWD/target/debug/x out/x",
    "cp --link target/debug/x out/x", "cp -b target/debug/x out/x",
    "cp --parents target/debug/x out", "POSIXLY_CORRECT=1 cp target/debug/x out/",
    "cd out && cp ../target/debug/x .", "cp target/debug/x out/ | sh",
])
def test_p2_a_copy_that_keeps_the_source_written_is_denied(
        tmp_path: Path, command: str) -> None:
    """A copy out that is no plain read stays denied: a link of the source (a write to the
    copy writes it), a composed name, options read in another order, a move first."""
    project = _crate(tmp_path, CARGO)
    assert not hook_allows(project, command)


@pytest.mark.parametrize(("config", "env", "folder"), [
    ('[build]\ntarget-dir = "out/t"\n', {}, "out/t"),
    ('build.build-dir = "{workspace-root}/bd"\n', {}, "bd"),
    ("", {"CARGO_TARGET_DIR": "out/t"}, "out/t"),
    ('[build\ntarget-dir = "out/t"\n', {}, "out/t"),  # (not TOML: the project whole)
])
def test_p2_the_folder_cargo_is_told_to_build_in(
        tmp_path: Path, config: str, env: dict[str, str], folder: str) -> None:
    """``CARGO_TARGET_DIR``, ``build.target-dir``, ``build.build-dir`` move the folder cargo
    builds in: a copy there is denied too."""
    project = _crate(tmp_path, CARGO, config)
    (project / folder).mkdir(parents=True)
    session = {**os.environ, **env}
    command = f"cp -r eb {folder}/"
    assert first_denied(project, [command], env=session) == command
    free = ["cp -r eb eb2"]  # (a configuration not read: the project's folder whole)
    assert first_denied(project, free, env=session) == (free[0] if "[build\n" in config
                                                        else None)


def test_p2_an_other_plan_does_not_guard_target(tmp_path: Path) -> None:
    """A plan running no cargo guards no ``target/``."""
    project = _crate(tmp_path, ["Bash(cp *)"])
    assert hook_allows(project, "cp -r eb target/debug/build/x-1")


# --- a copy out of a guarded folder ------------------------------------------------------


@pytest.mark.parametrize("command", [
    "cp .claude/settings.json out/", "cp plan.json out/", "cp -p .claude/settings.json out/s",
])
def test_a_copy_of_a_guarded_file_out_is_allowed(tmp_path: Path, command: str) -> None:
    """``cat .claude/settings.json`` was allowed (review s44 C13); ``cp`` of it out too."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)"])
    assert hook_allows(project, command)


@pytest.mark.parametrize("command", [
    "cp -r .claude out/", "cp -r . out/", "cp notes.txt .claude/", "cp -r evil/. .",
    "cp -r src/.cargo sub/", "cp -t .claude notes.txt", "cp notes.txt out/ .claude/x",
    "cp out/x .claude/settings.json",
])
def test_a_copy_into_or_of_what_holds_a_guarded_item_stays_denied(
        tmp_path: Path, command: str) -> None:
    """The copy's destination is judged as before; a source holding a guarded item (the copy
    brings it along) or a walked-up settings name (``.cargo`` under a cargo plan) too."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(cargo build)"])
    (project / "src" / ".cargo").mkdir(parents=True)
    (project / "src" / ".cargo" / "config.toml").write_text("")
    assert not hook_allows(project, command)


def test_a_root_session_copies_a_system_file_out(tmp_path: Path) -> None:
    """Issue 29, a cost: as root ``/etc`` is guarded whole (review s45 R1); ``cp /etc/hosts
    out/`` reads it and is allowed, bash copies it; a copy into ``/etc`` stays denied."""
    if os.geteuid() != 0 or not os.access("/etc", os.W_OK):
        pytest.skip("not a root session: /etc is not guarded whole")
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)"])
    assert hook_allows(project, "cp /etc/hosts out/")
    bash("cp /etc/hosts out/", project)
    assert (project / "out" / "hosts").exists()
    assert not hook_allows(project, "cp notes.txt /etc/")
    assert not hook_allows(project, "cp -r /etc out/")


# --- unzip's listings --------------------------------------------------------------------


@pytest.mark.parametrize("command", [
    "unzip -l evil.zip", "unzip -lq evil.zip", "unzip -t evil.zip", "unzip -v evil.zip",
    "unzip -Z -1 evil.zip", "unzip -z evil.zip",
])
def test_unzip_listing_is_allowed_and_writes_nothing(tmp_path: Path, command: str) -> None:
    """Issue 29, a cost: ``unzip -l x.zip`` under ``Bash(unzip *)`` lists; allowed, and bash
    writes nothing (``evil.zip`` holds a ``.claude/settings.json`` without the hook)."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(unzip *)"])
    before = sorted(p.relative_to(project) for p in project.rglob("*"))
    assert hook_allows(project, command)
    bash(command, project)
    assert sorted(p.relative_to(project) for p in project.rglob("*")) == before


@pytest.mark.parametrize("command", [
    "unzip evil.zip", "unzip -o evil.zip", "unzip -l evil.zip -d x", "unzip -lo evil.zip",
    "unzip -p evil.zip", "unzip -l *.zip", "unzip -l evil.zip; unzip -o evil.zip",
    "unzip -Z -1 evil.zip && unzip -o evil.zip",
])
def test_unzip_extracting_stays_denied(tmp_path: Path, command: str) -> None:
    project = tmp_path / "project"
    gated_project(project, ["Bash(unzip *)"])
    assert not hook_allows(project, command)


def test_unzip_options_from_the_environment_are_not_read(tmp_path: Path) -> None:
    """``UNZIP`` in the session's environment adds options the gate does not read."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(unzip *)"])
    command = "unzip -l evil.zip"
    assert first_denied(project, [command], env={**os.environ, "UNZIP": "-o"}) == command


# --- a folder of many entries ------------------------------------------------------------


def _many(project: Path, count: int) -> None:
    for folder in range(count // 100):
        (project / "big" / f"d{folder}").mkdir(parents=True)
        for name in range(100):
            (project / "big" / f"d{folder}" / f"f{name}.js").write_text("")


@pytest.mark.parametrize("command", ["cp -r big out/", "rm -rf big", "chmod -R u+w big",
                                     "cp -r big/d1 out/x"])
def test_a_folder_of_many_entries_is_copied_or_removed(tmp_path: Path, command: str) -> None:
    """Issue 29, a cost: a folder past 4,096 entries was taken to hold a walked-up settings
    name (review s44 P10); now 65,536 entries are looked at, and only for a command that may
    put the tree's names elsewhere (not ``rm``, ``chmod``)."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(rm *)", "Bash(chmod *)", "Bash(cargo build)"])
    _many(project, 4200)
    assert hook_allows(project, command)


@pytest.mark.parametrize("command", ["cp -r big out/", "cp -rL ln out/", "mv big out/"])
def test_a_walked_up_name_deep_in_a_copied_tree_is_found(tmp_path: Path, command: str) -> None:
    """``big/d41/.CARGO`` (any case: s45 X1) past 4,096 entries, or behind a link, is found:
    the copy would bring it along."""
    project = tmp_path / "project"
    gated_project(project, ["Bash(cp *)", "Bash(mv *)", "Bash(cargo build)"])
    _many(project, 4200)
    (project / "big" / "d41" / ".CARGO").mkdir()
    (project / "ln").mkdir()
    (project / "ln" / "to").symlink_to("../big/d41")
    assert not hook_allows(project, command)


# --- review s46's COST C-own: a program's settings read, not written ----------------------

OWN = ["Bash(gcloud *)", "Bash(docker *)", "Bash(rustup *)", "Bash(gh *)", "Bash(aws *)",
       "Bash(kubectl *)"]


@pytest.mark.parametrize("command", [
    "gcloud config get-value project", "gcloud auth print-access-token",
    "docker context inspect", "docker buildx build .", "rustup default", "gh config --help",
    "gh auth login --help", "aws configure export-credentials", "aws configure get region",
])
def test_a_programs_settings_read_pass(tmp_path: Path, command: str) -> None:
    project = tmp_path / "project"
    gated_project(project, OWN)
    assert hook_allows(project, command)


@pytest.mark.parametrize("command", [
    "gcloud config set core/pass_credentials_to_gsutil x", "docker buildx create",
    "rustup default stable", "gh auth login; --help", "gh auth login -h github.com",
    "gcloud beta auth login", "kubectl -v 0 --request-timeout 5 config use-context x",
    "aws --region r --output json configure set credential_process ./e.sh",
])
def test_a_programs_settings_written_stay_denied(tmp_path: Path, command: str) -> None:
    project = tmp_path / "project"
    gated_project(project, OWN)
    assert not hook_allows(project, command)


# --- K1's leftovers through Claude Code 2.1.332 --------------------------------------------

_RUNS = ("---\nname: {name}\ndescription: echo things\nallowed-tools: Bash(echo *)\n---\n"
         "Result: !`echo $ARGUMENTS`\n")
_QUIET = "---\nname: {name}\ndescription: says hello\n---\nHello.\n"
#: (the skill files under the work folder, the runtime's extra arguments)
ELSEWHERE = {
    "add-dir": ({"project/.claude/skills/other/SKILL.md": _QUIET.format(name="other"),
                 "extra/.claude/skills/other/SKILL.md": _RUNS.format(name="other")},
                ["--add-dir", "../extra"]),
    "add-dir-alone": ({"extra/.claude/skills/other/SKILL.md": _RUNS.format(name="other")},
                      ["--add-dir", "../extra"]),
    "frontmatter-name": ({"project/.claude/skills/bar/SKILL.md": _RUNS.format(name="other")},
                         []),
    "frontmatter-name-beside": ({
        "project/.claude/skills/other/SKILL.md": _QUIET.format(name="quiet"),
        "project/.claude/skills/bar/SKILL.md": _RUNS.format(name="other")}, []),
    "nested": ({"project/.claude/skills/other/SKILL.md": _QUIET.format(name="other"),
                "project/web/.claude/skills/other/SKILL.md": _RUNS.format(name="other")}, []),
}


def _k1_session(work: Path, files: dict[str, str], extra: list[str], gated: bool) -> bool:
    """One session calling ``Skill(other, args="hi; touch zz")``; whether ``zz`` was made."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "conformance"))
    from cc_runtime import binary_path, run_session
    from cc_standin import StandIn

    binary = binary_path()
    if not binary.exists():
        pytest.skip("the pinned Claude Code is not installed (cc_runtime.py install)")
    project = work / "project"
    gated_project(project, ["Skill(other)", "Bash(echo *)"])
    if not gated:
        (project / ".claude" / "settings.json").write_text("{}")
    for name, text in files.items():
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_text(text)
    call = ("Skill", {"skill": "other", "args": "hi; touch zz"})
    with StandIn() as standin:
        url, session = standin.session([call])
        done, _ = run_session(binary, url, work, None, timeout=120, prompt="hello",
                              extra_args=["--allowedTools", "Skill(other)", "Bash", *extra])
    assert session.results.get(session.call_id(0)) is not None, done.stderr[-2000:]
    return any(work.rglob("zz"))


@pytest.mark.parametrize("case", list(ELSEWHERE))
def test_k1_a_skill_the_runtime_finds_elsewhere_is_judged(tmp_path: Path, case: str) -> None:
    """K1's leftovers, measured: without the gate's hook the runtime runs the command filled
    from the args in the skill it finds for ``other`` (in a folder ``--add-dir`` adds; known by
    its frontmatter's name); with it, the Skill call is denied and nothing runs."""
    files, extra = ELSEWHERE[case]
    if not _k1_session(tmp_path / "open", files, extra, gated=False):
        pytest.skip(f"the runtime ran no command of the skill ({case}): nothing to judge")
    assert not _k1_session(tmp_path / "gated", files, extra, gated=True)
