"""Review s47 (s47-greview) of the call gate, session 46's last fixes first: sequences of calls
the printed hook allows under a narrow plan (no tool-wide ``Bash``, no grant of code of the
model's choosing), after which real bash runs a payload (``touch zz``) or writes a file the
plan does not allow. Each case proves the hole with real bash in a scratch copy first, then
asks the printed hook for each call in turn, running the allowed ones; the hook allowing them
all is the finding: these tests fail while the hole is open (``OPEN`` marks them strict
xfails)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from bash_review import LeftOpen, bash
from files_fixture import gated_project
from test_gate_files import _settings_hook, payload

#: Real bash and fresh hook processes: CI's slow step runs them (.ci/steps/30-slow.sh), as
#: `pytest --slow -m slow` does here.
pytestmark = pytest.mark.slow

#: The holes left open by this review, by test name (and case): each a strict xfail
#: (tests/conftest.py reads a module's ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add


def _first_denied(project: Path, calls: list[str], env: dict[str, str] | None = None,
                  cwd: Path | None = None) -> str | None:
    """The first of ``calls`` the printed hook denies from the folder ``cwd`` (the project when
    None), in the environment ``env``, running each allowed one there; None when it allows
    them all."""
    hook = _settings_hook(project)
    folder = cwd or project
    for call in calls:
        done = subprocess.run(["/bin/sh", "-c", hook], input=payload(call, folder),
                              cwd=folder, capture_output=True, timeout=60, check=False,
                              env=env)
        if done.returncode == 2:
            return call
        bash(call, folder, env)
    return None


def _proves(project: Path, tmp_path: Path, calls: list[str],
            env: dict[str, str] | None = None, cwd: str = ".") -> None:
    """Runs ``calls`` under real bash in a copy of ``project`` (links kept) from its folder
    ``cwd``; asserts the payload ran."""
    scratch = tmp_path / "scratch"
    shutil.copytree(project, scratch, symlinks=True)
    for call in calls:
        bash(call, scratch / cwd, env)
    assert any(scratch.rglob("zz")), "bash ran no payload: the case proves nothing"


# --- cp -r into a folder holding a copied link one level down (T1's fix looks at the top) ---


def _venv_project(root: Path, entries: list[str]) -> Path:
    """A gated project under ``root`` whose ``.venv/bin/python3`` is an absolute link to an
    interpreter outside it (as ``python -m venv``, uv and pyenv make it), and ``pay/bin/python3``,
    the payload."""
    home = root / "pyhome" / "bin"
    home.mkdir(parents=True)
    (home / "python3.12").write_text("#!/bin/sh\necho ran\n")
    (home / "python3.12").chmod(0o755)
    project = root / "project"
    gated_project(project, entries)
    (project / ".venv" / "bin").mkdir(parents=True)
    (project / ".venv" / "bin" / "python3").symlink_to(home / "python3.12")
    (project / ".venv" / "pyvenv.cfg").write_text(f"home = {home}\n")
    (project / "pay" / "bin").mkdir(parents=True)
    (project / "pay" / "bin" / "python3").write_text("#!/bin/sh\ntouch zz\n")
    (project / "pay" / "bin" / "python3").chmod(0o755)
    return project


#: (the calls): the first copies a folder holding the venv's link (``cp -r`` copies links as
#: links), the second copies a folder of the same layout over it.
NESTED_LINK = {
    "folder-into-folder": ["cp -r .venv/bin out/", "cp -r pay/bin out/",
                           ".venv/bin/python3 -m unittest"],
    "tree-into-folder": ["cp -r .venv/bin out/", "cp -r pay/. out/",
                         ".venv/bin/python3 -m unittest"],
    "target-directory": ["cp -r .venv/bin out/", "cp -rt out pay/bin",
                         ".venv/bin/python3 -m unittest"],
    # -T: the last operand is the copy itself, not a folder to copy into (through_links reads
    # it as one, and looks at out/bin): both copies write out/python3
    "no-target-directory": ["cp -rT .venv/bin out", "cp -rT pay/bin out",
                            ".venv/bin/python3 -m unittest"],
}


@pytest.mark.parametrize("case", list(NESTED_LINK))
def test_n1_cp_r_writes_through_a_link_below_the_folder_it_copies_into(
        tmp_path: Path, case: str) -> None:
    """N1 (s46's T1 fix, copied.through_links, judges ``DIR/<source's name>`` and, for
    ``SRC/.``, each top entry of SRC: one level): ``cp -r .venv/bin out/`` copies the venv's
    absolute link as a link (``-r`` implies ``-P``) to ``out/bin/python3``; ``cp -r pay/bin
    out/`` then opens ``out/bin/python3`` and writes the payload through the link into the
    interpreter the plan runs. Plan ``Bash(cp *)``, ``Bash(.venv/bin/python3 -m unittest)``."""
    entries = ["Bash(cp *)", "Bash(.venv/bin/python3 -m unittest)"]
    calls = NESTED_LINK[case]
    _proves(_venv_project(tmp_path / "proof", entries), tmp_path, calls)
    project = _venv_project(tmp_path / "run", entries)
    assert _first_denied(project, calls) is not None, \
        "the hook allows a cp -r writing through a link below the folder it copies into"


_open("test_n1_cp_r_writes_through_a_link_below_the_folder_it_copies_into",
      "review s47 N1: copied.through_links looks one level into the destination folder")


# --- a program's own settings: the write subcommand after a flag taking no value -----------


#: (the program needed, the plan, the calls): a flag that takes no value
#: (``--insecure-skip-tls-verify``, kubectl's global boolean) right after the settings word;
#: the write subcommand after it is read as the flag's value, and the name after that,
#: ``view``, as the subcommand (a read).
OWN_AFTER_FLAG = {
    "kubectl": ("kubectl", ["Bash(kubectl *)"], [
        f"kubectl config --insecure-skip-tls-verify {write}" for write in (
            "set-cluster view --server=https://127.0.0.1:1",
            "set-credentials view --exec-command=touch --exec-arg=zz "
            "--exec-api-version=client.authentication.k8s.io/v1beta1",
            "set-context view --cluster=view --user=view", "use-context view")] + [
        "kubectl get pods"]),
}


@pytest.mark.parametrize("case", list(OWN_AFTER_FLAG))
def test_o1_own_settings_write_after_a_flag_taking_no_value(tmp_path: Path,
                                                            case: str) -> None:
    """O1 (ownsettings.own_settings, s46 S5's fix: a plain word right after an option is not
    counted, it may be the option's value): after a boolean flag the next word is the real
    subcommand (``set-credentials``); the gate skips it and reads the next plain word, the
    user's name ``view``, as a read subcommand. kubectl then writes an exec credential plugin
    into ``~/.kube/config`` and the covered ``kubectl get pods`` runs it."""
    from bash_review import needs
    from test_s46_greview import _proves as _proves_home

    program, entries, calls = OWN_AFTER_FLAG[case]
    needs(program)
    project = tmp_path / "project"
    gated_project(project, entries)
    env = _proves_home(project, tmp_path, calls)
    assert _first_denied(project, calls, env) is not None, \
        "the hook allows a settings write after a flag that takes no value"


_open("test_o1_own_settings_write_after_a_flag_taking_no_value",
      "review s47 O1: ownsettings skips a word after a flag as its value, though the flag "
      "takes none")


# --- a node runner's workspace option given by the call, not the plan's entry ---------------


def _workspace_project(project: Path, entries: list[str]) -> None:
    """A gated npm workspace root (``packages/a`` its member, both ``test`` scripts harmless)
    and ``e/a.json``, the member's manifest with a ``test`` script running the payload."""
    import json

    gated_project(project, entries)
    (project / "packages" / "a").mkdir(parents=True)
    (project / "package.json").write_text(json.dumps({
        "name": "r", "version": "1.0.0", "workspaces": ["packages/a"],
        "scripts": {"test": "echo ok"}}))
    member = {"name": "a", "version": "1.0.0", "scripts": {"test": "echo a"}}
    (project / "packages" / "a" / "package.json").write_text(json.dumps(member))
    (project / "e").mkdir()
    (project / "e" / "a.json").write_text(json.dumps(
        {**member, "scripts": {"test": "touch zz"}}))


@pytest.mark.parametrize("option", ["--workspaces", "-ws", "-w a", "--workspace=packages/a"])
def test_w1_a_workspace_option_the_call_gives_under_a_star_entry(tmp_path: Path,
                                                                 option: str) -> None:
    """W1 (planprograms._entry_programs guards the workspaces' manifests only when the plan's
    entry itself holds a workspace option, review s44 P3): under ``Bash(npm test *)`` the call
    gives ``--workspaces`` (``-ws``, ``-w NAME``): ``cp e/a.json packages/a/package.json`` is
    allowed (a member below the call's folder, P1g), then ``npm test --workspaces`` runs the
    member's new ``test`` script. Plan ``Bash(cp *)``, ``Bash(npm test *)``."""
    from bash_review import needs

    needs("npm")
    entries = ["Bash(cp *)", "Bash(npm test *)"]
    calls = ["cp e/a.json packages/a/package.json", f"npm test {option}"]
    _workspace_project(tmp_path / "proof", entries)
    _proves(tmp_path / "proof", tmp_path, calls)
    _workspace_project(tmp_path / "run", entries)
    assert _first_denied(tmp_path / "run", calls) is not None, \
        "the hook allows a member's manifest written, then run by a workspace option"


_open("test_w1_a_workspace_option_the_call_gives_under_a_star_entry",
      "review s47 W1: workspaces guarded only for an entry naming the option itself")


# --- a skill known by a frontmatter name the gate does not read (through Claude Code) -------


def _skill(text: str) -> str:
    """``text`` a skill file running ``echo $ARGUMENTS`` from a ``!`` line, its frontmatter's
    ``name`` ``other``, written as ``text`` says."""
    return text + "Result: !`echo $ARGUMENTS`\n"


_FRONT = "---\nname: other\ndescription: echo things\nallowed-tools: Bash(echo *)\n---\n"
#: The skill's frontmatter name written three ways the runtime reads (Bun's YAML after it
#: drops a BOM) and skillfiles._named does not: each alone is run by the runtime for
#: ``Skill(other)`` (measured: the gate then finds no file and denies); beside a nested
#: ``web/.claude/skills/other`` (listed by the gate, not loaded by the runtime in the session)
#: the gate judges the quiet one only.
NAMED_OTHERWISE = {
    "byte-order-mark": "\ufeff" + _FRONT,
    "quoted-key": _FRONT.replace("name: other", '"name": other'),
    "indented-mapping": "---\n" + "".join(" " + line + "\n" for line in _FRONT.split("\n")[1:4])
    + "---\n",
}


@pytest.mark.parametrize("case", list(NAMED_OTHERWISE))
def test_k3_a_skill_named_in_a_frontmatter_the_gate_does_not_read(tmp_path: Path,
                                                                  case: str) -> None:
    """K3 (skillfiles._named: a file counts by its frontmatter ``name`` only when it starts
    with ``---`` and a line starts with ``name:``): ``.claude/skills/bar/SKILL.md`` named
    ``other`` behind a BOM, a quoted key or an indented mapping is the skill the runtime runs
    for ``Skill(other, args="hi; touch zz")``; the gate finds only ``web/.claude/skills/other``
    (quiet), judges the args there, and allows the call. Measured through Claude Code 2.1.332
    (a control session without the hook runs it too)."""
    from test_s46_gfix import _k1_session

    files = {"project/.claude/skills/bar/SKILL.md": _skill(NAMED_OTHERWISE[case]),
             "project/web/.claude/skills/other/SKILL.md":
                 "---\nname: other\ndescription: says hello\n---\nHello.\n"}
    if not _k1_session(tmp_path / "open", files, [], gated=False):
        pytest.skip(f"the runtime ran no command of the skill ({case}): nothing to judge")
    assert not _k1_session(tmp_path / "gated", files, [], gated=True), \
        "the runtime ran a command the gate did not judge, of a skill it did not find"


def _skill_session(work: Path, files: dict[str, str], extra: list[str], *, gated: bool,
                   skill: str, first: bool) -> bool:
    """One Claude Code 2.1.332 session (plan ``Skill(<skill>)``, ``Bash(echo *)``) calling
    ``Skill(<skill>, args="hi; touch zz")``, the runtime the first process of its PID
    namespace (as a container's entrypoint is) when ``first``, else a child of a shell
    there; whether ``zz`` was made."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "conformance"))
    import cc_runtime
    from cc_standin import StandIn

    binary = cc_runtime.binary_path()
    if not binary.exists():
        pytest.skip("the pinned Claude Code is not installed (cc_runtime.py install)")
    project = work / "project"
    gated_project(project, [f"Skill({skill})", "Bash(echo *)"])
    if not gated:
        (project / ".claude" / "settings.json").write_text("{}")
    for name, text in files.items():
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        (work / name).write_text(text)
    call = ("Skill", {"skill": skill, "args": "hi; touch zz"})
    jail = cc_runtime._JAIL
    if not first:  # (the jail's shell stays, the runtime its child)
        cc_runtime._JAIL = jail.replace('exec "$@"', '"$@"')
    try:
        with StandIn() as standin:
            url, session = standin.session([call])
            cc_runtime.run_session(binary, url, work, None, timeout=120, prompt="hello",
                                   extra_args=["--allowedTools", f"Skill({skill})", "Bash",
                                               *extra])
    finally:
        cc_runtime._JAIL = jail
    assert session.results.get(session.call_id(0)) is not None
    return any(work.rglob("zz"))


_RUNS = ("---\ndescription: echo things\nallowed-tools: Bash(echo *)\n---\n"
         "Result: !`echo $ARGUMENTS`\n")
_QUIET = "---\ndescription: says hello\n---\nHello.\n"


def test_k4_the_runtime_as_the_first_process_hides_its_added_folders(tmp_path: Path) -> None:
    """K4 (skillfiles._command_lines stops at a parent whose pid is 1 before reading it): a
    runtime that is PID 1 (a container's entrypoint, ``docker run … claude``; the
    conformance jail) is never read, so its ``--add-dir``, ``--plugin-dir`` and ``--settings``
    are not seen. ``--add-dir ../extra`` holding ``.claude/skills/other`` (runs the args) and
    a nested ``web/.claude/skills/other`` (quiet, listed by the gate, not loaded by the
    runtime): the gate judges the quiet one, the runtime runs extra's. As a child process
    (the control below) the same call is denied."""
    files = {"extra/.claude/skills/other/SKILL.md": _RUNS,
             "project/web/.claude/skills/other/SKILL.md": _QUIET}
    extra = ["--add-dir", "../extra"]
    if not _skill_session(tmp_path / "open", files, extra, gated=False, skill="other",
                          first=True):
        pytest.skip("the runtime ran no command of the skill: nothing to judge")
    assert not _skill_session(tmp_path / "child", files, extra, gated=True, skill="other",
                              first=False), "control: the gate reads a child runtime's line"
    assert not _skill_session(tmp_path / "gated", files, extra, gated=True, skill="other",
                              first=True), \
        "the runtime (PID 1) ran a command of a skill in a folder its --add-dir added"


def test_k5_a_plugin_command_at_a_path_its_manifest_names(tmp_path: Path) -> None:
    """K5 (skillfiles._plugin_files finds a plugin's command only as ``commands/NAME.md``): a
    plugin's manifest may name its commands' files anywhere (``"commands":
    ["./x/other.md"]``); given with ``--plugin-dir ../pl``, ``Skill(pl:other)`` runs
    ``x/other.md``. With a nested ``web/.claude/commands/pl/other.md`` (quiet) the gate judges
    that one and allows the call (the runtime a child process: K4 apart)."""
    import json

    files = {"pl/.claude-plugin/plugin.json": json.dumps(
        {"name": "pl", "commands": ["./x/other.md"]}), "pl/x/other.md": _RUNS,
        "project/web/.claude/commands/pl/other.md": _QUIET}
    extra = ["--plugin-dir", "../pl"]
    if not _skill_session(tmp_path / "open", files, extra, gated=False, skill="pl:other",
                          first=False):
        pytest.skip("the runtime ran no command of the plugin's: nothing to judge")
    assert not _skill_session(tmp_path / "gated", files, extra, gated=True, skill="pl:other",
                              first=False), \
        "the runtime ran a plugin command at a path its manifest names, the gate judged another"


# --- cargo's configuration includes a file outside .cargo/ ---------------------------------


def _included_crate(project: Path) -> None:
    """A gated crate (plan ``Bash(cp *)``, ``Bash(cargo build)``) whose ``.cargo/config.toml``
    includes ``../cargo-shared.toml`` (a setting shared with other tools, harmless), and
    ``e/shared.toml``, the same file naming ``e/e.sh`` (the payload, which runs rustc after
    it) as cargo's ``rustc-wrapper``."""
    gated_project(project, ["Bash(cp *)", "Bash(cargo build)"])
    (project / "src").mkdir(exist_ok=True)
    (project / "Cargo.toml").write_text(
        '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n')
    (project / "src" / "main.rs").write_text("fn main() {}\n")
    (project / ".cargo").mkdir()
    (project / ".cargo" / "config.toml").write_text('include = ["../cargo-shared.toml"]\n')
    (project / "cargo-shared.toml").write_text("[term]\nverbose = false\n")
    (project / "e").mkdir()
    (project / "e" / "e.sh").write_text('#!/bin/sh\ntouch zz\nexec "$@"\n')
    (project / "e" / "e.sh").chmod(0o755)
    (project / "e" / "shared.toml").write_text(
        f'[build]\nrustc-wrapper = "{project / "e" / "e.sh"}"\n')


def test_c5_cargo_runs_the_wrapper_a_file_its_configuration_includes_names(
        tmp_path: Path) -> None:
    """C5 (planprograms.STARTS guards ``^.cargo/`` for cargo; cargo 1.95's configuration
    ``include`` key, stable, reads other files, relative to the including file): a crate's
    ``.cargo/config.toml`` includes ``../cargo-shared.toml``; ``cp e/shared.toml
    cargo-shared.toml`` is allowed, and the covered ``cargo build`` runs its
    ``build.rustc-wrapper``. Plan ``Bash(cp *)``, ``Bash(cargo build)``."""
    from bash_review import needs

    needs("cargo")
    calls = ["cp e/shared.toml cargo-shared.toml", "cargo build"]
    _included_crate(tmp_path / "proof")
    _proves(tmp_path / "proof", tmp_path, calls)
    _included_crate(tmp_path / "run")
    assert _first_denied(tmp_path / "run", calls) is not None, \
        "the hook allows writing a file cargo's configuration includes"


_open("test_c5_cargo_runs_the_wrapper_a_file_its_configuration_includes_names",
      "review s47 C5: a file cargo's configuration includes is not guarded")


# --- a program running project-defined commands that planprograms._RUNS_ANY does not list ---


def _npm_building_crate(project: Path) -> None:
    """A gated crate (plan ``Bash(cp *)``, ``Bash(cargo build)``) whose committed ``build.rs``
    runs ``npm run gen`` (as crates bundling a web front end do), its ``package.json``'s
    ``gen`` harmless; ``e/package.json``, the same with ``gen`` running the payload."""
    import json

    gated_project(project, ["Bash(cp *)", "Bash(cargo build)"])
    (project / "src").mkdir(exist_ok=True)
    (project / "Cargo.toml").write_text(
        '[package]\nname = "x"\nversion = "0.1.0"\nedition = "2021"\n')
    (project / "src" / "main.rs").write_text("fn main() {}\n")
    (project / "build.rs").write_text(
        'fn main() {\n    println!("cargo:rerun-if-changed=package.json");\n'
        '    std::process::Command::new("npm").args(["run", "gen"]).status().unwrap();\n}\n')
    manifest = {"name": "x", "version": "1.0.0", "scripts": {"gen": "echo gen"}}
    (project / "package.json").write_text(json.dumps(manifest))
    (project / "e").mkdir()
    (project / "e" / "package.json").write_text(json.dumps(
        {**manifest, "scripts": {"gen": "touch zz"}}))


def test_h4_cargo_runs_a_build_script_that_starts_another_program(tmp_path: Path) -> None:
    """H4 (planprograms._RUNS_ANY, review s46 H2/H3's rule: under a program running commands
    the project defines, every program's start inputs are guarded; cargo is not among them,
    though its build scripts are such commands): a crate's ``build.rs`` runs ``npm run gen``;
    ``cp e/package.json package.json`` is allowed (npm is not the plan's), and the covered
    ``cargo build`` runs the build script, which runs the new ``gen``. Plan ``Bash(cp *)``,
    ``Bash(cargo build)``."""
    from bash_review import needs

    needs("cargo", "npm")
    calls = ["cp e/package.json package.json", "cargo build"]
    _npm_building_crate(tmp_path / "proof")
    _proves(tmp_path / "proof", tmp_path, calls)
    _npm_building_crate(tmp_path / "run")
    assert _first_denied(tmp_path / "run", calls) is not None, \
        "the hook allows a start input of a program a build script runs"


_open("test_h4_cargo_runs_a_build_script_that_starts_another_program",
      "review s47 H4: cargo (build scripts) is not in planprograms._RUNS_ANY")


#: (the programs needed, the plan's runner entry, the runner's file and its text, the
#: payload's place): each runs ``python3 -m unittest`` from the call's folder, which Python
#: puts first on ``sys.path`` (``argparse.py`` there is imported for the standard one), or the
#: project's venv's Python (a ``.pth`` line in its site-packages runs at its start).
RUNNER_PYTHON = {
    "make": (("make",), "Bash(make test)", "Makefile", "test:\n\tpython3 -m unittest\n",
             "argparse.py"),
    "npm": (("npm",), "Bash(npm test)", "package.json",
            '{"name": "x", "version": "1.0.0", "scripts": {"test": "python3 -m unittest"}}',
            "argparse.py"),
    "make-venv-pth": (("make",), "Bash(make test)", "Makefile",
                      "test:\n\t.venv/bin/python -c pass\n",
                      ".venv/lib/python{v}/site-packages/x.pth"),
}


@pytest.mark.parametrize("case", list(RUNNER_PYTHON))
def test_h5_a_recipes_python_imports_a_standard_module_from_the_calls_folder(
        tmp_path: Path, case: str) -> None:
    """H5 (planprograms._RUNS_ANY guards every program's ``STARTS`` under a runner of project
    commands; the call's folder's standard module names, and a venv's ``lib/``, are guarded
    only beside a plan entry running that Python, placed.shadows): a Makefile recipe (an npm
    script) runs ``python3 -m unittest``; ``cp e/evil.py argparse.py`` is allowed, and the
    covered ``make test`` (``npm test``) runs it: unittest imports argparse from the call's
    folder. Likewise a recipe running ``.venv/bin/python``: ``cp e/evil.py
    .venv/lib/python3.X/site-packages/x.pth`` is allowed. Plan ``Bash(cp *)`` and the
    runner's entry."""
    import sys

    from bash_review import needs

    programs, entry, name, text, place = RUNNER_PYTHON[case]
    needs("python3", *programs)
    place = place.format(v=f"{sys.version_info[0]}.{sys.version_info[1]}")

    def build(project: Path) -> None:
        gated_project(project, ["Bash(cp *)", entry])
        (project / name).write_text(text)
        (project / "e").mkdir()
        (project / "e" / "evil.py").write_text("import os; os.system('touch zz')\n")
        if ".venv" in place:  # (a venv of the hook's Python: its version is the place's)
            subprocess.run([sys.executable, "-m", "venv", "--without-pip",
                            str(project / ".venv")], check=True, capture_output=True)

    calls = [f"cp e/evil.py {place}", entry[5:-1]]
    build(tmp_path / "proof")
    _proves(tmp_path / "proof", tmp_path, calls)
    build(tmp_path / "run")
    assert _first_denied(tmp_path / "run", calls) is not None, \
        "the hook allows a file the Python a runner's recipe starts imports at its start"


_open("test_h5_a_recipes_python_imports_a_standard_module_from_the_calls_folder",
      "review s47 H5: under a runner of project commands the call folder's module names are "
      "not guarded")
