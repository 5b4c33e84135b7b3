"""Session 49's gate fixes (s49-gfix, issue 29): what a plan's programs read at their start,
from each runner's documented search list (``gate/starttables.py``), the files a plan's pip
requirements file or makefile includes (``gate/buildnames.py``), and the refusals where the
reading is not exact: a program run after ``cd $DIR``, a computed include."""

from __future__ import annotations

from pathlib import Path

import pytest
from bash_review import first_denied, home_env, hooked_project, needs

from skillgrant.gate.buildnames import named_paths
from skillgrant.gate.planprograms import plan_programs


@pytest.mark.parametrize("entry", ["Bash(cd $WORK && make)", "Bash(cd ${DIR}/sub; ./run.sh)",
                                   "Bash(cd $HOME && npm test)"])
def test_a_program_run_in_a_folder_the_gate_cannot_name_is_refused(entry: str) -> None:
    """s48-gfix's residual: the entry's commands after a ``cd`` to a ``$`` folder were not
    read (what ``make`` reads there stayed writable); the plan is refused, naming the entry."""
    with pytest.raises(ValueError, match="cannot name"):
        plan_programs((entry, "Bash(cp *)"))


@pytest.mark.parametrize("entry", ["Bash(cd $WORK)", "Bash(cd ${CLAUDE_SKILL_DIR} && ./x.sh)",
                                   "Bash(cd $TMPDIR && ls -la)"])
def test_a_cd_to_a_named_or_guarded_folder_is_no_refusal(entry: str) -> None:
    """A ``cd`` running nothing after it that reads start files, or into the skill's folder
    (guarded whole: G-13)."""
    assert isinstance(plan_programs((entry,)), tuple)


@pytest.mark.parametrize(("entry", "expected"), [
    ("Bash(nox -f sub/noxfile.py)", ["sub/noxfile.py", "sub/.nox/"]),
    ("Bash(tox -c sub/tox.ini)", ["sub/tox.ini", "^tox.toml"]),
    ("Bash(scons -C sub)", ["sub/SConstruct.py", "sub/site_scons/"]),
    ("Bash(scons -u)", ["^SConstruct", "^site_scons/"]),
    ("Bash(meson setup build proj)", ["proj/meson.build", "build/meson-private/"]),
    ("Bash(cmake --build build)", ["build/_deps/"]),
    ("Bash(uv run python tools/x.py)", ["^pyproject.toml", "^.venv/", "setup.py"]),
    ("Bash(Rscript tools/x.R)", [".Rprofile", ".Renviron"]),
    ("Bash(prove -l t)", ["t", ".proverc"]),
    ("Bash(python3 -m unittest test_x.TestA)", ["test_x.py", "test_x/"]),
    ("Bash(pytest test_x.py::TestA)", ["test_x.py"]),
    ("Bash(./scripts/test.sh)", ["./scripts/test.sh", "./scripts/"]),
    ("Bash(cat tools/x.sh | bash)", ["tools/x.sh", "tools/"]),
    ("Bash(cat < tools/x.sh | tee y | sudo bash)", ["tools/x.sh", "tools/", "y"]),
    ("Bash(make -I inc test)", ["inc", ":."]),
    ("Bash(uv run --with ./pkg python x.py)", ["./pkg"]),
    ("Bash(tox --installpkg=dist/x.tar.gz)", ["dist/x.tar.gz"]),
    ("Bash(pnpm test)", ["^pnpm-workspace.yaml", "^.pnp.cjs"]),
    ("Bash(pip install -r requirements.txt)", ["requirements.txt", "=requirements.txt"]),
    ("Bash(make -C sub)", [":sub"]), ("Bash(cd sub && make)", [":sub/."])])
def test_the_plans_programs_start_files(entry: str, expected: list[str]) -> None:
    """What ``plan_programs`` names for each row the session closed (in-process)."""
    named = plan_programs((entry,))
    assert [p for p in expected if p not in named] == []


def test_what_a_requirements_file_and_a_makefile_include(tmp_path: Path) -> None:
    """``buildnames.named_paths``: ``-r``/``-c`` relative to the file, ``-e`` and path lines
    (the call's folder's build files for ``.``), a makefile's includes and their sources."""
    (tmp_path / "req").mkdir()
    (tmp_path / "req" / "all.txt").write_text("-r base.txt\n--constraint=c.txt\n-e ./libs/a\n"
                                              "./libs/b[x]\n-e .\nrequests # -r no.txt\n")
    (tmp_path / "req" / "base.txt").write_text("-rmore.txt\n")
    (tmp_path / "Makefile").write_text("include rules.mk\n-include deps/x.d\n")
    (tmp_path / "rules.mk").write_text("sinclude more.mk\n")
    found = {p[len(str(tmp_path)) + 1:] for p, whole in named_paths(
        ("=req/all.txt", ":."), [str(tmp_path)]) if whole}
    assert {"req/base.txt", "req/more.txt", "req/c.txt", "libs/a", "libs/b", "setup.py",
            "pyproject.toml", "rules.mk", "rules.mk.sh", "RCS/rules.mk,v", "deps/x.d",
            "more.mk", "more.mk.sh"} <= found
    assert not {"req/no.txt", "no.txt", "."} & found


@pytest.mark.parametrize(("mark", "name", "text"), [
    ("=requirements.txt", "requirements.txt", "-r ${REQS}/base.txt\n")])
def test_a_computed_include_is_refused(tmp_path: Path, mark: str, name: str,
                                       text: str) -> None:
    """A name the gate cannot compute (a variable, a pattern) is refused, never guessed."""
    (tmp_path / name).write_text(text)
    with pytest.raises(ValueError, match="cannot name exactly"):
        named_paths((mark,), [str(tmp_path)])


@pytest.mark.parametrize("text", ["-include $(DEPS)\n", "include *.mk\n"])
def test_a_computed_include_of_a_makefile_is_a_doubt(tmp_path: Path, text: str) -> None:
    """A makefile's include the gate cannot compute is a doubt write-guarding the folders it
    may read from (session 56, review s55-greview K5: no longer the whole plan refused)."""
    (tmp_path / "Makefile").write_text(text)
    held: list[tuple[str, str]] = []
    named_paths((":.",), [str(tmp_path)], held)
    assert held and all("cannot name exactly" in why for _, why in held), held


@pytest.mark.slow
def test_the_hook_denies_under_a_plan_it_refuses(tmp_path: Path) -> None:
    """The printed hook under ``Bash(cd $WORK && make)``: a covered ``cp`` is denied, the
    denial naming the entry (real bash, scratch home)."""
    needs("make")
    project = hooked_project(tmp_path, ["Bash(cd $WORK && make)", "Bash(cp *)"])
    env = home_env(tmp_path / "home")
    assert first_denied(project, ["cp src/x.sh y.sh"], env) == "cp src/x.sh y.sh"


@pytest.mark.slow
@pytest.mark.parametrize("entry", ["perl -w tools/x.pl", "node --trace-warnings tools/x.js",
                                   "valgrind tools/x.pl", "prove t", "R -f tools/x.R"])
def test_an_entry_allows_its_own_call(tmp_path: Path, entry: str) -> None:
    """COSTs (s49-greview, s49-greview2): an interpreter's flag before its script, valgrind's
    program, a test runner's operand, R's `-f` file are what the plan's own call reads."""
    project = hooked_project(tmp_path, [f"Bash({entry})"])
    (project / "tools").mkdir()
    (project / "t").mkdir()
    assert first_denied(project, [entry], home_env(tmp_path / "home")) is None
