"""``check_call``: one concrete tool call against the approved plan, each expectation worked
out by hand from semantics §4 and docs/call-gate.md."""

from __future__ import annotations

from typing import Any

import pytest

import skillgrant
from skillgrant import PlanError, check_call, prove
from skillgrant.plan.model import Plan

PLAN = [
    "Bash(git *)", "Bash(npm test)", "Bash(echo *)", "Bash(make:*)",
    "Read(//etc/**)", "Edit(//repo/out/**)", "WebFetch(domain:*.example.com)",
    "mcp__gh", "Agent(explore)", "Skill(probe)", "TodoWrite", "Glob",
]
CWD = "/repo"

CASES: list[tuple[str, dict[str, Any], str, str | None]] = [
    # tool, input, status, witness
    ("Bash", {"command": "git status"}, "covered", None),
    ("Bash", {"command": "git status && npm test"}, "covered", None),
    ("Bash", {"command": "git status && rm -rf /"}, "not_covered", "rm -rf /"),
    ("Bash", {"command": "git status; rm -rf /"}, "not_covered", "rm -rf /"),
    ("Bash", {"command": "git log | sh"}, "unknown", "git log | sh"),
    ("Bash", {"command": "git log | head"}, "not_covered", "head"),
    ("Bash", {"command": "npm test --watch"}, "not_covered", "npm test --watch"),
    ("Bash", {"command": "make"}, "covered", None),
    ("Bash", {"command": "make install"}, "covered", None),
    ("Bash", {"command": "makeover"}, "not_covered", "makeover"),
    ("Bash", {"command": "echo $(id)"}, "not_covered", "id"),  # the substitution is judged
    ("Bash", {"command": "echo $(git status)"}, "covered", None),
    # an argument vector: bash's script is judged; another shell's is not read as bash's
    ("exec_command", {"cmd": ["bash", "-lc", "git status"]}, "covered", None),
    ("exec_command", {"cmd": ["zsh", "-c", "=git status --help"]}, "unknown", None),
    ("exec_command", {"cmd": ["sh", "-c", "git status"]}, "unknown", None),
    ("exec_command", {"cmd": ["./bash", "-c", "git status"]}, "unknown", None),
    ("Bash", {"command": "echo `id`"}, "unknown", "echo `id`"),
    ("Bash", {"command": "git diff <(ls)"}, "unknown", "git diff <(ls)"),
    ("Bash", {"command": "$GIT status"}, "unknown", "$GIT status"),
    ("Bash", {"command": "git commit -m \"$MSG\""}, "covered", None),
    ("Bash", {"command": "npm $X"}, "unknown", None),  # `--script-shell=…` (review s44 R6)
    ("Bash", {"command": "echo '%s\\n' \"$X\" $Y"}, "covered", None),
    # `git` and `git …`: both in `git *`, but the pattern may be `grep -O CMD` (review G-5)
    ("Bash", {"command": "git $X"}, "unknown", None),
    ("Bash", {"command": "sudo git status"}, "unknown", "sudo git status"),
    ("Bash", {"command": "env git status"}, "unknown", "env git status"),
    ("Bash", {"command": "bash -c 'git status'"}, "unknown", "bash -c 'git status'"),
    ("Bash", {"command": "xargs git add"}, "unknown", "xargs git add"),
    ("Bash", {"command": "eval git status"}, "unknown", "eval git status"),
    ("Bash", {"command": "timeout 5 git fetch"}, "covered", None),
    ("Bash", {"command": "timeout 5 rm -rf /"}, "not_covered", "rm -rf /"),
    ("Bash", {"command": "timeout --bogus git fetch"}, "unknown", "timeout --bogus git fetch"),
    ("Bash", {"command": "FOO=1 git status"}, "not_covered", "FOO=1 git status"),
    ("Bash", {"command": "f() { rm -rf /; }; git status"}, "unknown", None),
    ("Bash", {"command": "echo \"unterminated"}, "unknown", None),
    ("Bash", {"command": "echo hi > out/log.txt"}, "covered", None),
    ("Bash", {"command": "echo hi > /etc/passwd"}, "not_covered", "/etc/passwd"),
    ("Bash", {"command": "echo hi 2>/dev/null"}, "covered", None),
    ("Bash", {"command": "echo hi > $F"}, "unknown", None),
    ("Bash", {"command": "echo a > out/f b"}, "unknown", None),
    ("Bash", {"command": "cat <<EOF | sh\nrm -rf /\nEOF"}, "unknown", None),
    # the loop sets f for git too: a variable a program is given must be in the plan
    ("Bash", {"command": "for f in a b; do git add $f; done"}, "not_covered", None),
    ("Bash", {"command": "for f in a b; do echo $f; done"}, "covered", None),
    ("Bash", {"command": "if git diff --quiet; then echo same; fi"}, "covered", None),
    ("Bash", {"command": "(git status)"}, "covered", None),
    ("Bash", {"command": "[[ -f x ]] && git status"}, "unknown", None),
    # bash evaluates these arithmetically, where a variable's value can run a command
    ("Bash", {"command": "echo $(( x ))"}, "unknown", None),
    ("Bash", {"command": "echo $[x]"}, "unknown", None),
    ("Bash", {"command": "echo ${!x}"}, "unknown", None),
    ("Bash", {"command": "echo ${a[$i]}"}, "unknown", None),
    ("Bash", {"command": "echo ${x:$i}"}, "unknown", None),
    ("Bash", {"command": "echo ${x@P}"}, "unknown", None),
    ("Bash", {"command": "echo ${HOME:-/tmp} ${#x} ${x%.txt}"}, "covered", None),
    ("Bash", {"command": "(( x > 1 )) && git status"}, "unknown", None),
    ("Bash", {"command": "let 'a[$(id)]'"}, "unknown", None),
    ("Bash", {"command": "test \"$x\" -eq 1 && git status"}, "unknown", None),
    ("Bash", {"command": "export 'a[$(id)]=1'"}, "unknown", None),
    ("Bash", {"command": "declare -i n"}, "unknown", None),
    ("Bash", {"command": "read 'a[$(id)]' < f"}, "unknown", None),
    ("Bash", {"command": "echo x | read -r line"}, "not_covered", "read -r line"),
    ("Bash", {"command": 42}, "invalid", None),
    ("Bash", {}, "invalid", None),
    ("PowerShell", {"command": "Get-ChildItem"}, "not_covered", None),
    # paths
    ("Read", {"file_path": "/etc/hostname"}, "covered", None),
    ("Read", {"file_path": "/etc/../root/.ssh/id_rsa"}, "not_covered", "/root/.ssh/id_rsa"),
    ("Read", {"file_path": "/repo/out/x"}, "covered", None),  # Edit grants read
    ("Read", {"file_path": "/usr/bin/x"}, "not_covered", "/usr/bin/x"),
    ("Read", {"file_path": "relative.txt"}, "not_covered", "/repo/relative.txt"),
    ("Read", {"file_path": "/etc/a*b"}, "unknown", None),
    ("Edit", {"file_path": "/repo/out/a.txt"}, "covered", None),
    ("Edit", {"file_path": "/etc/hosts"}, "not_covered", "/etc/hosts"),
    ("Write", {"file_path": "/repo/out/new.txt"}, "covered", None),
    ("Write", {"file_path": "/repo/src/new.txt"}, "not_covered", "/repo/src/new.txt"),
    ("Glob", {"pattern": "**/*.py"}, "covered", None),  # the bare Glob grant
    ("Grep", {"pattern": "x", "path": "/etc"}, "covered", None),
    ("Grep", {"pattern": "x", "path": "/usr"}, "not_covered", None),
    ("Grep", {"pattern": "x"}, "not_covered", None),  # /repo/** is not covered
    ("Read", {"file_path": 5}, "invalid", None),
    # the web
    ("WebFetch", {"url": "https://api.example.com/x"}, "covered", None),
    ("WebFetch", {"url": "https://example.com/x"}, "not_covered", "example.com"),
    ("WebFetch", {"url": "https://API.Example.COM./x"}, "covered", None),
    ("WebFetch", {"url": "ftp://api.example.com/x"}, "not_covered", None),
    ("WebFetch", {"url": "https://evil.com\\@api.example.com/"}, "not_covered", None),
    ("WebFetch", {"url": "https://user@api.example.com/"}, "not_covered", None),
    ("WebFetch", {"url": "https://api.example.com.evil.com/"}, "not_covered", None),
    # names
    ("mcp__gh__get_issue", {}, "covered", None),
    ("mcp__ghx__get_issue", {}, "not_covered", "mcp__ghx__get_issue"),
    ("mcp__GH__get_issue", {}, "not_covered", None),
    ("Agent", {"subagent_type": "explore"}, "covered", None),
    ("Task", {"subagent_type": "explore"}, "covered", None),
    # a subagent in a worktree runs here (its calls reach this machine's hooks); a remote one
    # runs in Claude Code's cloud sandbox, out of every local hook's sight (review s50-greview)
    ("Agent", {"subagent_type": "explore", "isolation": "worktree"}, "covered", None),
    ("Agent", {"subagent_type": "explore", "isolation": "remote"}, "unknown", "explore"),
    ("Task", {"subagent_type": "explore", "isolation": "remote"}, "unknown", "explore"),
    ("Agent", {"subagent_type": "explore", "isolation": None}, "unknown", "explore"),
    ("Agent", {"subagent_type": "general-purpose"}, "not_covered", "general-purpose"),
    ("Skill", {"skill": "probe"}, "covered", None),
    ("Skill", {"skill": "other"}, "not_covered", "other"),
    ("TodoWrite", {"todos": []}, "covered", None),
    ("WebSearch", {"query": "x"}, "not_covered", "WebSearch"),
    ("Frobnicate", {}, "not_covered", "Frobnicate"),
    # other runtimes' names
    ("bash", {"command": "git status"}, "covered", None),
    ("run_shell_command", {"command": "git status", "dir_path": "/repo/sub"}, "covered", None),
    ("run_shell_command", {"command": "git status", "dir_path": "/tmp"}, "not_covered", "/tmp"),
    ("run_in_terminal", {"command": "rm -rf /"}, "not_covered", "rm -rf /"),
    ("exec_command", {"cmd": ["bash", "-lc", "git status"]}, "covered", None),
    ("shell", {"command": ["git", "status"]}, "covered", None),
    ("view", {"path": "/etc/hosts"}, "covered", None),
    ("read_file", {"filePath": "/etc/hosts"}, "covered", None),
    ("create_file", {"filePath": "/etc/x"}, "not_covered", "/etc/x"),
    ("replace_string_in_file", {"filePath": "/repo/out/a"}, "covered", None),
    ("fetch_webpage", {"urls": ["https://a.example.com/", "https://b.example.com/"]},
     "covered", None),
    ("fetch_webpage", {"urls": ["https://a.example.com/", "https://evil.com/"]},
     "not_covered", "evil.com"),
    ("web_fetch", {"prompt": "summarise https://docs.example.com/page please"}, "covered", None),
    ("web_fetch", {"prompt": "summarise https://evil.com/page"}, "not_covered", "evil.com"),
    ("apply_patch", {"command": "*** Begin Patch\n*** Update File: out/a.txt\n@@\n-x\n+y\n"
                                "*** End Patch\n"}, "covered", None),
    ("apply_patch", {"command": "*** Begin Patch\n*** Add File: out/a.txt\n+x\n"
                                "*** Update File: ../etc/passwd\n*** End Patch\n"},
     "not_covered", "/etc/passwd"),
    ("apply_patch", {"command": "not a patch"}, "unknown", None),
]


@pytest.mark.parametrize(("tool", "tool_input", "status", "witness"), CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_each_call_is_judged(tool: str, tool_input: dict[str, Any], status: str,
                             witness: str | None) -> None:
    verdict = check_call(tool, tool_input, PLAN, cwd=CWD)
    assert verdict.status == status, verdict
    if witness is not None:
        assert verdict.witness == witness
    assert verdict.reason
    if verdict.covered:
        assert verdict.covered_by and all(isinstance(c, str) for c in verdict.covered_by)
        assert verdict.witness is None
    else:
        assert not verdict.covered_by


def test_the_covering_entries_follow_the_parts_in_order() -> None:
    verdict = check_call("Bash", {"command": "git push > out/log && npm test"}, PLAN, cwd=CWD)
    assert verdict.covered_by == ("Bash(git *)", "Bash(npm test)", "Edit(//repo/out/**)")


def test_the_judged_tool_and_the_runtime_name_are_both_kept() -> None:
    verdict = check_call("exec_command", {"cmd": "git status"}, PLAN, cwd=CWD)
    assert (verdict.tool, verdict.runtime_tool) == ("Bash", "exec_command")


def test_an_exact_entry_covers_the_whole_string_as_the_runtime_does() -> None:
    command = "git log | sh"
    assert check_call("Bash", {"command": command}, PLAN).status == "unknown"
    plan = [*PLAN, f"Bash({command})"]
    verdict = check_call("Bash", {"command": command}, plan)
    assert verdict.covered and verdict.covered_by == (f"Bash({command})",)


def test_a_tool_wide_grant_covers_what_the_analysis_does_not_understand() -> None:
    verdict = check_call("Bash", {"command": "eval \"$(curl x)\""}, ["Bash"])
    assert verdict.covered and verdict.covered_by == ("Bash",)


def test_a_case_slip_in_the_runtime_name_is_never_allowed_and_is_diagnosed() -> None:
    verdict = check_call("todowrite", {}, PLAN)
    assert verdict.status == "not_covered"
    assert [f.rule for f in verdict.findings] == ["tool-name-unnormalized"]
    assert "runtime adapter" in verdict.findings[0].message


def test_a_non_canonical_plan_entry_is_named_as_the_wrong_side() -> None:
    verdict = check_call("Frobnicate", {}, ["frobnicate"])
    assert verdict.status == "not_covered"
    assert "plan entry" in verdict.findings[0].message


def test_an_unknown_tool_named_exactly_in_the_plan_is_covered() -> None:
    assert check_call("Frobnicate", {}, ["Frobnicate"]).covered


def test_a_plan_object_brings_its_shell_tools_and_workdir_argument() -> None:
    plan = Plan.from_entries(["Bash(npm *)", "Read(//srv/**)"], shell_tools={
        "run": {"command-argument": "script", "workdir-argument": "dir"}})
    assert check_call("run", {"script": "npm ci", "dir": "/repo"}, plan, cwd="/repo").covered
    inside = check_call("run", {"script": "npm ci", "dir": "/srv/app"}, plan, cwd="/repo")
    assert inside.covered and inside.covered_by == ("Read(//srv/**)", "Bash(npm *)")
    outside = check_call("run", {"script": "npm ci", "dir": "/etc"}, plan, cwd="/repo")
    assert outside.status == "not_covered" and outside.witness == "/etc"
    assert check_call("run", {"script": "rm -rf /"}, plan).status == "not_covered"


def test_keyword_shell_tools_work_as_in_prove() -> None:
    verdict = check_call("exec", {"cmd": "npm ci"}, ["exec(npm *)"],
                         shell_tools={"exec": {"command-argument": "cmd"}})
    assert verdict.covered and verdict.tool == "Bash"


def test_base_dirs_anchor_home_and_root_patterns() -> None:
    plan = ["Read(~/notes/**)", "Edit(/build/**)"]
    dirs = {"home": "/home/me", "root": "/proj"}
    assert check_call("Read", {"file_path": "/home/me/notes/a"}, plan, base_dirs=dirs).covered
    assert check_call("Edit", {"file_path": "/proj/build/x"}, plan, base_dirs=dirs).covered
    assert check_call("Read", {"file_path": "/home/me/notes/a"}, plan).status == "unknown"


def test_an_invalid_plan_raises_plan_error() -> None:
    with pytest.raises(PlanError):
        check_call("Bash", {"command": "ls"}, ["Bash(unclosed"])


def test_a_malformed_call_is_invalid_never_an_exception() -> None:
    assert check_call("Bash", ["not", "a", "mapping"], PLAN).status == "invalid"
    assert check_call(7, {}, PLAN).status == "invalid"  # type: ignore[arg-type]


def test_the_package_exports_the_gate() -> None:
    assert skillgrant.check_call is check_call
    assert "check_call" in skillgrant.__all__ and "CallVerdict" in skillgrant.__all__


def test_placeholders_are_the_directories_the_runtime_substitutes() -> None:
    plan = ["Bash(${CLAUDE_SKILL_DIR}/scripts/run.sh *)", "Bash(${CLAUDE_PROJECT_DIR}/x)"]
    dirs = {"CLAUDE_SKILL_DIR": "/s/probe", "CLAUDE_PROJECT_DIR": "/repo/"}
    verdict = check_call("Bash", {"command": "/s/probe/scripts/run.sh --fast"}, plan,
                         placeholders=dirs)
    assert verdict.covered and verdict.covered_by == (plan[0],)  # as the plan writes it
    assert check_call("Bash", {"command": "/repo/x"}, plan, placeholders=dirs).covered
    other = check_call("Bash", {"command": "/s/other/scripts/run.sh"}, plan, placeholders=dirs)
    assert other.status == "not_covered"
    # not given, or not a plain absolute directory: the placeholder covers nothing
    assert check_call("Bash", {"command": "/s/probe/scripts/run.sh"}, plan).status == \
        "not_covered"
    odd = {"CLAUDE_SKILL_DIR": "/s/pro*be"}
    assert check_call("Bash", {"command": "/s/proXbe/scripts/run.sh"}, plan,
                      placeholders=odd).status == "not_covered"


#: Calls an adversarial review found `covered` although they do more than the plan allows
#: (each was confirmed against bash or the runtime's source); none may pass again.
HOLES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("Bash", {"command": "cat ${x:-`touch PWNED`}"}, ["Bash(cat *)"]),
    ("Bash", {"command": "echo \"${x:-`touch X`}\""}, ["Bash(echo *)"]),
    ("Bash", {"command": "cat ${x:-<(touch PWNED)}"}, ["Bash(cat *)"]),
    ("Bash", {"command": "cat <<EOF\n`touch X1`\nEOF"}, ["Bash(cat *)"]),
    ("Bash", {"command": "cat <<-EOF\n\t$(touch X2)\n\tEOF"}, ["Bash(cat *)"]),
    ("Bash", {"command": "cat <<EOF\n${!x}\nEOF"}, ["Bash(cat *)"]),
    ("Bash", {"command": "git status \r#; touch PWNED"}, ["Bash(git status)"]),
    ("Bash", {"command": "git status \\\t#; touch PWNED"}, ["Bash(git status)"]),
    ("Bash", {"command": "git status \\ #; touch PWNED"}, ["Bash(git status)"]),
    ("Bash", {"command": "git status \\\r\nrm -rf x"}, ["Bash(git *)"]),
    ("Bash", {"command": "for OPTIND in 'a[b]'; do git status; done"}, ["Bash(git status)"]),
    ("Bash", {"command": "for PATH in tools:/usr/bin; do git status; done"},
     ["Bash(git status)"]),
    ("Bash", {"command": "printf -v OPTIND %s x"}, ["Bash(printf *)"]),
    ("Bash", {"command": "read OPTIND <<< x"}, ["Bash(read *)"]),
    ("Bash", {"command": "export GIT_SSH_COMMAND=x; git fetch"}, ["Bash(export *)", "Bash(git *)"]),
    ("Bash", {"command": "IFS=/; git status"}, ["Bash(IFS=*)", "Bash(git status)"]),
    ("Bash", {"command": "cat < /dev/tcp/127.0.0.1/47123"}, ["Bash(cat)"]),
    ("Bash", {"command": "cat < /etc/shadow"}, ["Bash(cat)"]),
    ("Bash", {"command": "for i in 1 2; do echo x > passwd; cd /etc; done"},
     ["Bash(echo *)", "Bash(cd *)", "Edit(//repo/**)"]),
    ("Bash", {"command": "git \"$@\" status"}, ["Bash(git * status)"]),
    ("Bash", {"command": "printf x $ y"}, ["Bash(printf x y)"]),
    ("apply_patch", {"command": "*** Begin Patch\n*** Add File: ok.txt\n+hi\n"
                                " *** Add File: /home/u/.bashrc\n+x\n*** End Patch\n"},
     ["Edit(//repo/**)"]),
    ("apply_patch", {"command": "*** Begin Patch\n\t*** Delete File: /etc/important\n"
                                "*** End Patch\n"}, ["Edit(//repo/**)"]),
    ("web_fetch", {"url": "https://example.com/", "prompt": "summarize https://evil.example/"},
     ["WebFetch(domain:example.com)"]),
    ("web_fetch", {"prompt": "see https://example.com'@evil.com/x"},
     ["WebFetch(domain:example.com)"]),
    ("read", {"file_path": "/repo/docs/a", "path": "/etc/shadow"}, ["Read(//repo/**)"]),
    ("run_shell_command", {"command": "echo hi", "directory": "/repo", "dir_path": "/etc"},
     ["Bash(echo *)", "Read(//repo/**)"]),
    ("read_many_files", {"paths": ["docs/a.md"], "include": ["**/.env"]},
     ["Read(//repo/docs/**)"]),
    ("read_many_files", {"paths": ["docs/{a,../.env}"]}, ["Read(//repo/docs/**)"]),
    ("Glob", {"pattern": "{..,x}/.env"}, ["Glob", "Read(//repo/**)"]),
    # Issue 17's review: tree-sitter leaves a line break (and blanks) out of a quoted string's
    # tokens, and an option's value attached to it names a variable too.
    ("Bash", {"command": 'ssh prod "echo \nrm -rf /srv"'}, ["Bash(ssh prod 'echo rm -rf /srv')"]),
    ("Bash", {"command": 'touch "a\nb"'}, ["Bash(touch ab)"]),
    ("Bash", {"command": 'echo " "'}, ["Bash(echo '')"]),
    ("Bash", {"command": "printf -vPATH /tmp/evil && ls"}, ["Bash(printf *)", "Bash(ls)"]),
    ("Bash", {"command": "read -raIFS <<< x"}, ["Bash(read *)"]),
    ("Bash", {"command": "wait -pPATH"}, ["Bash(wait *)"]),
]


@pytest.mark.parametrize(("tool", "tool_input", "plan"), HOLES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(HOLES)])
def test_the_holes_found_in_review_stay_closed(tool: str, tool_input: dict[str, Any],
                                               plan: list[str]) -> None:
    assert not check_call(tool, tool_input, plan, cwd="/repo").covered


def test_a_placeholder_directory_with_shell_syntax_is_not_substituted() -> None:
    plan = ["Bash(${CLAUDE_SKILL_DIR}/run.sh)", "Bash(${CLAUDE_SKILL_DIR}/run.sh *)"]
    for directory, command in (("/tmp/sk;touch X;", "/tmp/sk;touch X;/run.sh"),
                               ("/tmp/my skills", "/tmp/my skills/run.sh --x")):
        verdict = check_call("Bash", {"command": command}, plan,
                             placeholders={"CLAUDE_SKILL_DIR": directory})
        assert not verdict.covered, directory


def test_a_symbolic_link_out_of_the_plan_is_judged_where_it_leads(tmp_path: Any) -> None:
    project, outside = tmp_path / "proj", tmp_path / "outside"
    (outside / "inner").mkdir(parents=True)
    project.mkdir()
    (project / "link").symlink_to(outside / "inner")
    plan = ["Bash(echo *)", f"Edit(/{project}/**)"]
    for command in ("echo pwned > link/PWN2", "echo pwned > link/../PWN1"):
        verdict = check_call("Bash", {"command": command}, plan, cwd=str(project))
        assert verdict.status == "not_covered", command
    assert check_call("Write", {"file_path": f"{project}/link/x"}, plan,
                      cwd=str(project)).status == "not_covered"
    assert check_call("Bash", {"command": "echo ok > fine.txt"}, plan, cwd=str(project)).covered


def test_plan_entries_are_split_as_the_prover_splits_them() -> None:
    # One list item may hold several entries (semantics §2): each is judged as an entry of its own.
    assert check_call("Frob", {}, ["Bash(x), Frob"]).covered
    assert prove("Frob", ["Bash(x), Frob"]).covered
    verdict = check_call("Bash", {"command": "/d/x"}, ["Read, Bash(${CLAUDE_SKILL_DIR}/x)"],
                         placeholders={"CLAUDE_SKILL_DIR": "/d"})
    assert verdict.covered and verdict.covered_by == ("Bash(${CLAUDE_SKILL_DIR}/x)",)
    with pytest.raises(PlanError, match="not a string"):
        check_call("Bash", {"command": "x"}, [5])  # type: ignore[list-item]


def test_a_call_past_the_work_limit_is_unknown_never_an_exception() -> None:
    """A long command against many patterns runs the scan out of its budget (found in
    review): the call is ``unknown``."""
    plan = [f"Bash(x{i} *)" for i in range(512)]
    verdict = check_call("Bash", {"command": "a" * 60_000}, plan)
    assert verdict.status == "unknown"
    assert "MAX_WORK_PER_DECISION" in verdict.reason


def test_a_program_path_that_climbs_out_of_a_granted_folder_is_unknown() -> None:
    """``Bash(/repo/scripts/*)`` names the skill's scripts; ``..`` would reach any program
    (the review of issue 29, T1)."""
    plan = ["Bash(/repo/scripts/*)"]
    assert check_call("Bash", {"command": "/repo/scripts/run.sh x"}, plan, cwd=CWD).covered
    verdict = check_call("Bash", {"command": "/repo/scripts/../../usr/bin/rm -rf x"}, plan,
                         cwd=CWD)
    assert verdict.status == "unknown" and "climbs" in verdict.reason


@pytest.mark.parametrize("path", ["/usr/bin:/bin:", ":/usr/bin:/bin", "/usr/bin::/bin",
                                  "bin:/usr/bin:/bin", "", None,
                                  # review F1: `~+` is bash's folder, `~-` the one before,
                                  # `~nosuchuser` relative
                                  "~+/bin:/usr/bin", "~-/bin:/usr/bin", "~nosuchuser/bin:/bin"])
def test_a_path_bash_reads_from_its_folder_covers_no_command(
        path: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Review M-6: an empty or relative PATH entry (and no PATH: bash's default ends in '.')
    is the folder bash is in when it looks a name up, so `npm test` may run ./npm."""
    if path is None:
        monkeypatch.delenv("PATH", raising=False)
    else:
        monkeypatch.setenv("PATH", path)
    verdict = check_call("Bash", {"command": "npm test"}, PLAN, cwd=CWD)
    assert verdict.status == "unknown"
    assert "PATH" in verdict.reason


def test_an_empty_path_entry_runs_the_folders_file_under_bash(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The oracle for the row above: bash, a PATH ending in ':' and no npm elsewhere on it,
    runs ./npm."""
    import shutil
    import subprocess

    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed")
    (tmp_path / "npm").write_text("#!/bin/sh\necho planted\n")
    (tmp_path / "npm").chmod(0o755)
    done = subprocess.run([bash, "-c", "npm test"],
                          cwd=tmp_path, capture_output=True, text=True, check=False,
                          env={"PATH": "/nonexistent:"})
    assert done.stdout == "planted\n"
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert check_call("Bash", {"command": "npm test"}, PLAN, cwd=CWD).covered


@pytest.mark.parametrize(("name", "value"), [
    ("GIT_CONFIG_GLOBAL", ".gitcfg"), ("XDG_CONFIG_HOME", "cfg"), ("BASH_ENV", "env.sh"),
    ("GIT_DIR", ".git"),
])
def test_a_relative_configuration_variable_covers_no_command(
        name: str, value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reviews F2, F2b: git reads a relative GIT_CONFIG_GLOBAL from the repository's top, bash
    a relative BASH_ENV from its folder."""
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.setenv(name, value)
    verdict = check_call("Bash", {"command": "npm test"}, PLAN, cwd=CWD)
    assert verdict.status == "unknown"
    assert name in verdict.reason
    monkeypatch.delenv(name)
    assert check_call("Bash", {"command": "npm test"}, PLAN, cwd=CWD).covered


def test_home_paths_in_path_are_judged(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "~/bin:~:/usr/bin:/bin")
    assert check_call("Bash", {"command": "npm test"}, PLAN, cwd=CWD).covered


def test_the_file_bash_reads_before_each_command_is_guarded(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Review F6: Claude Code's Bash tool runs bash, which runs $BASH_ENV first."""
    from skillgrant.gate.guardedset import GUARDED
    from skillgrant.gate.guards import guarded_items

    monkeypatch.setenv("BASH_ENV", str(tmp_path / "env.sh"))
    plan = [f"Edit(/{tmp_path}/**)"]
    token = GUARDED.set(guarded_items(str(tmp_path / "plan.json"), None, None, str(tmp_path),
                                      None))
    try:
        verdict = check_call("Write", {"file_path": str(tmp_path / "env.sh"), "content": "x"},
                             plan, cwd=str(tmp_path))
        other = check_call("Write", {"file_path": str(tmp_path / "a.txt"), "content": "x"},
                           plan, cwd=str(tmp_path))
    finally:
        GUARDED.reset(token)
    assert verdict.status == "unknown" and other.covered


def test_a_path_folder_after_a_link_and_dot_dot_is_guarded_where_bash_finds_it(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Review F12: `link/../bin` is `bin` beside the link's target, not beside the link."""
    from skillgrant.gate.guardedset import GUARDED
    from skillgrant.gate.guards import guarded_items

    (tmp_path / "real" / "inner").mkdir(parents=True)
    (tmp_path / "real" / "bin").mkdir()
    (tmp_path / "bin").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real" / "inner")
    monkeypatch.setenv("PATH", f"{tmp_path}/link/../bin:/usr/bin:/bin")
    plan = [f"Edit(/{tmp_path}/**)"]
    token = GUARDED.set(guarded_items(str(tmp_path / "plan.json"), None, None, str(tmp_path),
                                      None))
    try:
        found = check_call("Write", {"file_path": str(tmp_path / "real" / "bin" / "npm"),
                                     "content": "x"}, plan, cwd=str(tmp_path))
    finally:
        GUARDED.reset(token)
    assert found.status == "unknown", found
