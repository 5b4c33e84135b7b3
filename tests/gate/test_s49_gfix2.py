"""Session 49's gate fixes (s49-gfix2), in-process: a plan entry's runner options read from one
table per runner (s48-greview2 R1, R1c, S4b: ``gate/runneropts.py``), an option the table does
not know refused; a session value's words as the shell joins quoted parts (E1). The real-bash
cases are s48-greview2's own tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillgrant.gate.envpaths import named_paths, named_variables
from skillgrant.gate.planprograms import plan_programs
from skillgrant.gate.readers import writer_of
from skillgrant.gate.runneropts import entry_run
from skillgrant.gate.startpaths import npmrc_paths
from skillgrant.gate.wrapped import NPMRC, npm_reads_settings

#: An entry's command (quotes removed, as planprograms reads it) → (the folder its program
#: runs in, the program's words).
RUNS = {
    "env --chdir=sub make": ("sub", ["make"]), "env --ch=sub make": ("sub", ["make"]),
    "env -Csub make": ("sub", ["make"]), "env -iCsub make": ("sub", ["make"]),
    "env -C sub -u X A=1 make": ("sub", ["make"]), "env -- make": (None, ["make"]),
    "unshare --wd=sub make": ("sub", ["make"]), "unshare -w sub make": ("sub", ["make"]),
    "unshare -rw sub make": ("sub", ["make"]), "unshare -m --fork make": (None, ["make"]),
    "env --split-string=make test": (None, ["make", "test"]),
    "env --sp=make test": (None, ["make", "test"]), "env -S A=1 make": (None, ["make"]),
    "env -S -C sub make": ("sub", ["make"]),
    "timeout 5 env -C a nice bash -c cd b": ("a", ["cd", "b"]),
    "env -C a env -C b make": ("a/b", ["make"]), "env -C a env -C /x make": ("/x", ["make"]),
    "bash -c -- cd sub": (None, ["cd", "sub"]), "bash -lc cd sub": (None, ["cd", "sub"]),
    "bash -o pipefail -c cd sub": (None, ["cd", "sub"]),
    "bash -eo pipefail -c cd sub": (None, ["cd", "sub"]),
    "bash --norc -c cd sub": (None, ["cd", "sub"]),
    "bash --norc -o pipefail -c cd sub": (None, ["cd", "sub"]),
    "bash x.sh -c y": (None, ["bash", "x.sh", "-c", "y"]), "env *": (None, ["*"]),
    "gdb -batch -ex run --cd=sub --args make": (
        "sub", ["gdb", "-batch", "-ex", "run", "--cd=sub", "--args", "make"]),
}


@pytest.mark.parametrize("entry", list(RUNS))
def test_a_runners_options_are_read_by_its_table(entry: str) -> None:
    assert entry_run(entry.split()) == RUNS[entry]


#: Runner options no table reads (or an ambiguous prefix, a new root): refused, named.
REFUSED = {"env --frob make": "'--frob'", "env --i make": "abbreviates several",
           "unshare -R / make": "another root", "unshare --root=/ make": "another root",
           "env -C": "without its value", "gdb --frob make": "'--frob'",
           "env -Z make": "'-Z'"}


@pytest.mark.parametrize("entry", list(REFUSED))
def test_a_runner_option_no_table_reads_is_refused(entry: str) -> None:
    with pytest.raises(ValueError, match=REFUSED[entry]):
        entry_run(entry.split())


@pytest.mark.parametrize("entry", ["env --chdir=sub make", "env --ch=sub make",
                                   "env -Csub make", "unshare --wd=sub make",
                                   "unshare -w sub make",
                                   "gdb -batch -ex run --cd=sub --args make",
                                   "bash -c -- 'cd sub && make'"])
def test_the_makefile_of_the_folder_the_runner_moves_to_is_guarded(entry: str) -> None:
    assert "sub/Makefile" in plan_programs((f"Bash({entry})",))


@pytest.mark.parametrize("entry", ['env --split-string="make test"', "env --sp='make test'"])
def test_env_split_strings_program_is_read(entry: str) -> None:
    assert "Makefile" in plan_programs((f"Bash({entry})",))


def test_a_plan_entry_with_an_unread_runner_option_refuses() -> None:
    with pytest.raises(ValueError, match="--frob"):
        plan_programs(("Bash(env --frob make)",))


#: A session value naming ``tools/ssh.sh`` with quotes or a backslash inside the word.
JOINED = {'sh "$PWD"/tools/ssh.sh': "./tools/ssh.sh", "sh 'tools'/ssh.sh": "tools/ssh.sh",
          "sh tools\\/ssh.sh": "tools/ssh.sh", 'sh "$(pwd)"/tools/ssh.sh': "./tools/ssh.sh",
          'sh "a b"/c.sh': "a b/c.sh", "sh \"x\\\"y\"/z.sh": 'x"y/z.sh'}


@pytest.mark.parametrize("value", list(JOINED))
def test_a_session_values_quoted_parts_join_into_one_path(value: str) -> None:
    assert JOINED[value] in named_paths(value)


@pytest.mark.parametrize("entry", ["npm test --userconfig=ci.npmrc",
                                   "npm test --userconfig ci.npmrc",
                                   "npm run build --globalconfig=ci.npmrc"])
def test_the_npmrc_an_entry_names_is_guarded_and_read(entry: str) -> None:
    named = plan_programs((f"Bash({entry})",))
    assert "ci.npmrc" in named and NPMRC + "ci.npmrc" in named


#: npm's words holding ``ci.npmrc`` → whether they only read it (its own entry: a cost).
NPM_READS = {"test --userconfig ci.npmrc": True, "test --userconfig=ci.npmrc": True,
             "--userconfig ci.npmrc test": True, "run build --globalconfig=ci.npmrc": True,
             "config set x=1 --userconfig ci.npmrc": False,
             "login --userconfig=ci.npmrc": False, "test ci.npmrc": False,
             "test --userconfig ci.npmrc ci.npmrc": False,
             "--prefix sub test --userconfig ci.npmrc": False}


@pytest.mark.parametrize("words", list(NPM_READS))
def test_npm_reads_the_settings_file_its_option_names(words: str) -> None:
    assert npm_reads_settings(words.split(), "ci.npmrc") is NPM_READS[words]


#: A guarded ``tools/x.sh`` in a command → whether a program of it may write the file: ``<``
#: alone opens it to read (s48-greview2's COST: ``Bash(bash < tools/x.sh)`` denied its own
#: call); ``<>``, ``>``, a later writer still write.
INPUTS = {"bash < tools/x.sh": False, "sh <tools/x.sh": False, "bash 0< tools/x.sh": False,
          "cat < tools/x.sh": False, "bash <tools/x.sh >&2": False,
          "bash <> tools/x.sh": True, "bash 3<>tools/x.sh": True, "bash >tools/x.sh": True,
          "bash < tools/x.sh > tools/x.sh": True, "bash < tools/x.sh; cp a tools/x.sh": True,
          "sh < tools/x.sh | tee tools/x.sh": True, "bash < <(cp a tools/x.sh)": True}


@pytest.mark.parametrize("text", list(INPUTS))
def test_an_input_redirection_reads_its_file(text: str) -> None:
    assert (writer_of(text, ["tools/x.sh"]) is not None) is INPUTS[text]


#: A session value → paths it names (s49-greview E1): a `${X:-W}` read in its place inside
#: the word, each value it may take; a pattern's folder whole.
EXPANDED = {"sh tools/ssh-${UNSET_S49:-dev}.sh": ["tools/ssh-dev.sh", "tools/ssh-.sh"],
            "sh tools/${S49_WRAP:-ssh}.sh": ["tools/my.sh", "tools/ssh.sh"],
            "sh tools/ssh${S49_CI:+-ci}.sh": ["tools/ssh.sh", "tools/ssh-ci.sh"],
            "sh tools/ss?.sh": ["tools/"], "sh tools/{a,b}.sh": ["tools/"],
            "sh *.sh": ["./"]}


@pytest.mark.parametrize("value", list(EXPANDED))
def test_a_session_values_expansion_is_read_in_its_place(
        value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("UNSET_S49", raising=False)
    monkeypatch.setenv("S49_WRAP", "my")
    monkeypatch.setenv("S49_CI", "1")
    assert set(EXPANDED[value]) <= set(named_paths(value))


def test_an_npmrc_is_read_where_the_plans_npm_runs_and_where_a_key_names(
        tmp_path: Path) -> None:
    """s49-greview N1: `sub/.npmrc` of `npm --prefix sub` (its relative value from sub), the
    file a `userconfig` key names; a relative session value read from the moved folder (E3)."""
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub/.npmrc").write_text("node-options=--require ./pre.js\n")
    (tmp_path / ".npmrc").write_text("userconfig=ci/npmrc\n")
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci/npmrc").write_text("node-options=--require ./boot.js\n")
    found = dict(npmrc_paths([str(tmp_path)], str(tmp_path / "home"), [], ["sub"]))
    assert str(tmp_path / "sub/pre.js") in found and str(tmp_path / "boot.js") in found


def test_a_compared_value_naming_an_uncarried_variable_is_a_session_problem() -> None:
    """s49-greview V1: under serve, `GIT_SSH_COMMAND='sh tools/$WRAP.sh'` reads a variable no
    header carries: the service cannot know the paths it names (compared ones are fine)."""
    from skillgrant.gate.environment import COMPARED, _uncarried

    sent: dict[str, str | None] = dict.fromkeys(COMPARED, "")
    assert _uncarried({**sent, "GIT_SSH_COMMAND": "sh tools/${HOME}/x.sh $PWD/y"}) is None
    said = _uncarried({**sent, "GIT_SSH_COMMAND": "sh tools/$WRAP.sh"})
    assert said is not None and "$WRAP" in said
    assert named_variables("a ${!X} ${#Y} $Z ${W:-$V} $1") == ["X", "Y", "Z", "W", "V"]


def test_a_nested_claude_folder_behind_a_link_is_listed(tmp_path: Path) -> None:
    """s48-greview K1: a linked package folder's `.claude`, a `.claude` that is a link; a
    link back up (a loop) ends."""
    from skillgrant.gate.skillfiles import _nested

    (tmp_path / "shared/.claude/skills").mkdir(parents=True)
    (tmp_path / "conf/skills").mkdir(parents=True)
    project = tmp_path / "project"
    (project / "api/.claude").mkdir(parents=True)
    (project / "web").symlink_to("../shared")
    (project / "app").mkdir()
    (project / "app/.claude").symlink_to("../../conf")
    (project / "app/up").symlink_to("..")
    found = _nested([str(project)])
    assert isinstance(found, list)
    assert {str(project / p) for p in ("api/.claude", "web/.claude", "app/.claude")} <= set(found)


#: More runners' tables (util-linux 2.38, sudo 1.9): the program past a mask, a priority, a
#: lock file; a folder sudo -D/nsenter --wd moves to; none for a process's options.
MORE_RUNS = {"setsid -w make": (None, ["make"]), "taskset -c 0 make": (None, ["make"]),
             "taskset 0x1 make": (None, ["make"]), "ionice -c3 make": (None, ["make"]),
             "ionice -p 12": (None, []), "chrt -r 10 make": (None, ["make"]),
             "prlimit --nofile=1024 make": (None, ["make"]),
             "prlimit -n1024 make": (None, ["make"]),
             "flock /tmp/l make": (None, ["make"]),
             "flock -n /tmp/l -c make test": (None, ["make", "test"]),
             "nsenter --wd=sub make": ("sub", ["make"]), "sudo -D sub make": ("sub", ["make"]),
             "sudo -u bob A=1 make": (None, ["make"])}


@pytest.mark.parametrize("entry", list(MORE_RUNS))
def test_more_runners_options_are_read_by_their_tables(entry: str) -> None:
    assert entry_run(entry.split()) == MORE_RUNS[entry]


@pytest.mark.parametrize("entry", ["sudo -i make", "nsenter -t 1 -m make", "nsenter -w make",
                                   "sudo --chroot=/x make", "taskset --frob make"])
def test_a_runner_moving_out_of_the_gates_view_is_refused(entry: str) -> None:
    with pytest.raises(ValueError, match=entry.split()[0]):
        entry_run(entry.split())


#: Runners with no table refuse an entry where an option of theirs is given; the wrappers'
#: attached options (s49-greview2 W1), su/runuser/setarch/ssh-agent/dbus-run-session tables
#: (N1), gdb's command files and commands, a shell's rcfile (G1, H1).
READ_NOW = {"timeout -k5 5 nsenter --wd=sub make": ("sub", ["make"]),
            "su -c cd sub": (None, ["cd", "sub"]), "setarch x86_64 -R make": (None, ["make"]),
            "ssh-agent bash -c cd sub": (None, ["cd", "sub"]), "nice -10 make": (None, ["make"]),
            "exec make": (None, ["make"]), "command -v jq": (None, ["command", "-v", "jq"]),
            "ccache gcc -c x.c": (None, ["gcc", "-c", "x.c"]),
            "valgrind --leak-check=full -q ./prog": (None, ["./prog"])}


@pytest.mark.parametrize("entry", list(READ_NOW))
def test_runners_and_wrappers_are_read_by_their_tables(entry: str) -> None:
    assert entry_run(entry.split()) == READ_NOW[entry]


@pytest.mark.parametrize("entry", ["su - -c make", "perf stat make", "watch -n 5 make",
                                   "systemd-run make", "chroot /x make", "firejail make",
                                   "strace -o x make",
                                   "gdb -batch -x cmds.gdb --args make",
                                   "gdb -batch -ex cd sub -ex run --args make",
                                   "bash --rcfile env.sh -i -c make"])
def test_a_runner_read_by_no_table_is_refused(entry: str) -> None:
    with pytest.raises(ValueError, match="plan's entry"):
        entry_run(entry.split())


def test_pnpm_workspace_settings_name_paths_as_an_npmrc(tmp_path: Path) -> None:
    """pnpm 10 reads `nodeOptions`, `pnpmfile`, `scriptShell` from pnpm-workspace.yaml."""
    (tmp_path / "pnpm-workspace.yaml").write_text(
        "packages:\n  - 'packages/*'\nnodeOptions: --require ./pre.js\nscriptShell: tools/sh\n")
    found = dict(npmrc_paths([str(tmp_path)], str(tmp_path / "home")))
    assert str(tmp_path / "pre.js") in found and str(tmp_path / "tools/sh") in found


#: su/runuser permute their options (`su root -c CMD`), sg takes `GROUP [-c] CMD`; with no
#: command each runs a shell reading its input (s49-greview2 N2, P1).
SHELLED = {"su root -c cd sub": ["cd", "sub"], "runuser root -c cd sub": ["cd", "sub"],
           "sg root -c cd sub": ["cd", "sub"], "su": ["sh"], "runuser root": ["sh"],
           "su root x.sh": ["sh", "x.sh"], "fakeroot": ["sh"], "setarch x86_64": ["sh"],
           "runuser -u root make": ["make"]}


@pytest.mark.parametrize("entry", list(SHELLED))
def test_a_runners_command_or_its_shell_is_read(entry: str) -> None:
    assert entry_run(entry.split()) == (None, SHELLED[entry])
