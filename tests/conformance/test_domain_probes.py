"""Every tool domain against the pinned Claude Code (issue 28).

Two kinds of test:

- **The measured classes**, one test each, named after the behaviour. Each shows the runtime's
  side (the files as the runtime reads them, skillgrant bypassed) and skillgrant's (the prover's
  verdict, or the applied file).
- **Generated pairs, end to end, per domain** (``cc_domain_pairs``): for each plan, every
  submitted entry is applied (A) and the runtime judges A's entries against the plan alone (P)
  on calls of that domain. The applied files of one plan are judged together: allow rules only
  add, so the union of their entries allowing nothing P does not means no one of them does.
  ``--domain-pairs N`` sets the pairs per domain (a pytest option, not a variable: the runtime's
  sessions would inherit one): a seeded first N of each domain, 120 unless given (CI's step 50
  gives 10); ``--domain-pairs 200`` runs the full counts (docs/runtime-conformance.md gives the
  last such run).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from cc_cases import block_list, entry_probes, plan_skill, skill
from cc_domain_pairs import DOMAINS, calls_for, groups
from cc_domains import Call, DomainJudge
from cc_probe import TALLY, Judge
from pinned import prove

from skillgrant import SkillFileError, parse_grant
from skillgrant.plan.model import Plan
from skillgrant.skillfile.builder import apply_to_text, read_skill

#: Calls per session.
CHUNK = 24
#: The pairs a domain whose not_covered witnesses are judged, at least (proving them needs no
#: session; the witnesses of 20 pairs a domain are about 25 calls).
WITNESS_PAIRS = 20


@pytest.fixture(scope="module")
def domain_judge(judge: Judge) -> Iterator[DomainJudge]:
    found = DomainJudge(judge.binary, judge.standin, judge.workers)
    yield found
    TALLY["domain sessions"] = TALLY.get("domain sessions", 0) + found.sessions
    TALLY["domain probe calls"] = TALLY.get("domain probe calls", 0) + found.calls


# --- the measured classes -------------------------------------------------------------------

#: (the skill's allowed-tools, as the runtime reads it with skillgrant bypassed) -> calls.
_SIDES: dict[str, list[str]] = {
    "compound-exact": ["Bash(touch zz && touch /dev/shm/zz)"],
    "expansion-exact": ["Bash(touch ${HOME}/zz)", "Bash(touch {a,b})"],
    "touch-glob": ["Bash(touch *)"],
    "read-lower": ["read(~/docs/**)"],
    "read-upper": ["Read(~/docs/**)"],
    "bash-lower": ["bash(touch *)"],
    "skill-glob": ["Skill(deploy-*)"],
    "skill-exact": ["Skill(deploy-staging)"],
    "skill-prefix": ["Skill(o *)"],
    "exec-command": ["exec_command"],
    "bash": ["Bash"],
    "mcp-a": ["mcp__a"],
    "mcp-a-b": ["mcp__a__b__*"],
    "monitor-rule": ["Monitor(touch *)"],
    "monitor": ["Monitor"],
    "stars-only": ["Bash( * )"],
    "wrapper-exact": ["Bash(eval touch /dev/shm/zz)", "Bash(exec touch /dev/shm/zz)"],
    "wrapper-glob": ["Bash(eval *)", "Bash(exec *)"],
}
_CALLS = [Call("Bash", "touch zz && touch /dev/shm/zz"), Call("Bash", "touch ${HOME}/zz"),
          Call("Bash", "touch {a,b}"), Call("Bash", "touch zz"), Call("Read", "~/docs/a.txt"),
          Call("Skill", "deploy-staging"), Call("Skill", "other"), Call("Skill", "oth-x"),
          Call("mcp__a__b__t", ""), Call("mcp__a__t", ""), Call("Monitor", "touch zz"),
          Call("Bash", "eval touch /dev/shm/zz"), Call("Bash", "exec touch /dev/shm/zz")]


@pytest.fixture(scope="module")
def sides(domain_judge: DomainJudge) -> dict[str, dict[Call, bool]]:
    texts = {name: skill(block_list(entries)) for name, entries in _SIDES.items()}
    results = domain_judge.allowed_many((text, _CALLS) for text in texts.values())
    return dict(zip(texts, results, strict=True))


def test_exact_compound_rules_are_approved_whole(sides: dict[str, dict[Call, bool]]) -> None:
    call = Call("Bash", "touch zz && touch /dev/shm/zz")
    assert sides["compound-exact"][call] and not sides["touch-glob"][call]
    assert prove("Bash(touch zz && touch /dev/shm/zz)", ["Bash(touch *)"]).status == "unknown"


def test_exact_rules_holding_shell_expansion_are_approved_whole(
        sides: dict[str, dict[Call, bool]]) -> None:
    for command in ("touch ${HOME}/zz", "touch {a,b}"):
        assert sides["expansion-exact"][Call("Bash", command)]
        assert not sides["touch-glob"][Call("Bash", command)]
        assert prove(f"Bash({command})", ["Bash(touch *)"]).status == "unknown"


def test_tool_names_are_case_sensitive_so_a_misspelt_plan_is_never_respelt(
        sides: dict[str, dict[Call, bool]]) -> None:
    read = Call("Read", "~/docs/a.txt")
    assert sides["read-upper"][read] and not sides["read-lower"][read]
    assert sides["touch-glob"][Call("Bash", "touch zz")]
    assert not sides["bash-lower"][Call("Bash", "touch zz")]
    for submitted, plan in (("Read(~/docs/a.txt)", "read(~/docs/**)"),
                            ("Bash(touch zz)", "bash(touch *)")):
        new_text, decision = apply_to_text(skill(block_list([submitted])),
                                           Plan.from_entries([plan], runtime="claude-code"))
        assert decision.restored
        assert list(read_skill(new_text).allowed_tools.entries) == [plan]  # type: ignore[union-attr]


def test_skill_rules_read_as_measured(sides: dict[str, dict[Call, bool]]) -> None:
    assert not sides["skill-glob"][Call("Skill", "deploy-staging")]
    assert sides["skill-exact"][Call("Skill", "deploy-staging")]
    assert prove("Skill(deploy-staging)", ["Skill(deploy-*)"]).status == "not_covered"
    # `Skill(o *)` is a raw prefix: it allows `other` and `oth-x`, so `Skill(other)` is kept.
    assert sides["skill-prefix"][Call("Skill", "other")]
    assert sides["skill-prefix"][Call("Skill", "oth-x")]
    assert prove("Skill(other)", ["Skill(o *)"]).covered


def test_a_shell_tool_alias_grants_nothing_in_claude_code(
        sides: dict[str, dict[Call, bool]]) -> None:
    touch = Call("Bash", "touch zz")
    assert not sides["exec-command"][touch] and sides["bash"][touch]
    verdict = prove("Bash", ["exec_command"], shell_tools=["exec_command"])
    assert verdict.status == "not_covered"


def test_mcp_rules_match_the_tools_own_server(sides: dict[str, dict[Call, bool]]) -> None:
    deep = Call("mcp__a__b__t", "")
    assert sides["mcp-a"][Call("mcp__a__t", "")] and not sides["mcp-a"][deep]
    assert sides["mcp-a-b"][deep]
    assert not prove("mcp__a__b__*", ["mcp__a"]).covered
    assert not prove("mcp__a__b__t", ["mcp__a"]).covered
    assert prove("mcp__a__t", ["mcp__a"]).covered


def test_monitor_calls_follow_bash_rules_and_monitor_rules_grant_nothing(
        sides: dict[str, dict[Call, bool]]) -> None:
    monitor = Call("Monitor", "touch zz")
    assert sides["touch-glob"][monitor]
    assert not sides["bash"][monitor]
    assert not sides["monitor-rule"][monitor]
    assert sides["monitor"][monitor]
    assert prove("Monitor(touch zz)", ["Monitor(touch *)"]).status == "inert"
    assert prove("Bash(touch zz)", ["Bash"]).status == "not_covered"
    assert prove("Bash(touch zz)", ["Bash", "Monitor"]).covered
    assert prove("Monitor", ["Monitor"]).covered


def test_exact_rules_run_through_a_wrapper_are_approved_whole(
        sides: dict[str, dict[Call, bool]]) -> None:
    # Review F28-2: `eval`, `exec` (and the other builtins and wrappers of
    # commandpattern.WHOLE_PROGRAMS): the exact rule approves the string, the glob does not.
    for command in ("eval touch /dev/shm/zz", "exec touch /dev/shm/zz"):
        assert sides["wrapper-exact"][Call("Bash", command)]
        assert not sides["wrapper-glob"][Call("Bash", command)]
        assert prove(f"Bash({command})", [f"Bash({command.split()[0]} *)"]).status == "unknown"


def test_a_content_of_stars_only_is_a_glob_rule_not_a_tool_wide_grant(
        sides: dict[str, dict[Call, bool]]) -> None:
    # Review F28-1: only `Bash`, `Bash()` and `Bash(*)` are tool-wide. `Bash( * )` refuses what
    # a glob rule's checks refuse, approves no exact compound whole, and approves Monitor calls.
    for command in ("touch ${HOME}/zz", "touch zz && touch /dev/shm/zz"):
        assert sides["bash"][Call("Bash", command)]
        assert not sides["stars-only"][Call("Bash", command)]
    assert sides["stars-only"][Call("Bash", "touch zz")]
    assert sides["stars-only"][Call("Monitor", "touch zz")]
    assert prove("Bash", ["Bash( * )"]).status == "unknown"
    assert prove("Bash(touch zz && touch /dev/shm/zz)", ["Bash(**)", "Monitor"]).status == \
        "unknown"
    assert prove("Bash(touch zz)", ["Bash(**)"]).covered


#: Review F28-2b (23 exact rules, each under the plan that kept it before the fix): a glob
#: rule's analysis refuses each command, the exact rule approves it whole.
F28_2B: tuple[tuple[str, str], ...] = (
    *(("find *", f"find {rest}") for rest in (
        ". -fprint /dev/shm/zz", ". -fls /dev/shm/zz", ". -delete", ". -execdir touch zz +",
        ". -fprintf /dev/shm/zz x", ". -fprint0 /dev/shm/zz", ". -newer zz -delete", "-delete",
        ". -exec touch zz +")),
    ("/usr/bin/find *", "/usr/bin/find . -delete"),
    ("/usr/bin/ionice *", "/usr/bin/ionice touch /dev/shm/zz"),
    ("/usr/bin/setsid *", "/usr/bin/setsid touch /dev/shm/zz"),
    ("/usr/bin/flock *", "/usr/bin/flock /dev/shm/l touch /dev/shm/zz"),
    ("/usr/bin/env *", "/usr/bin/env -S touch"),
    ("/usr/bin/watch *", "/usr/bin/watch -n1 touch zz"),
    ("'exec' *", "'exec' touch /dev/shm/zz"), ("ex''ec *", "ex''ec touch /dev/shm/zz"),
    ('"eval" *', '"eval" touch zz'), ("e'v'al *", "e'v'al touch zz"),
    ("typeset *", "typeset A=1"),
    ("nocorrect *", "nocorrect touch zz"), ("A[0]=1 *", "A[0]=1 touch /dev/shm/zz"),
    ("A+=1 *", "A+=1 eval touch zz"),
)
#: Exact rules of plain commands (``commandpattern.plain_command``) and prefix rules, each under
#: the glob of its program: kept, and the runtime allows nothing more under them (writes outside
#: the project, into .claude and .git/hooks included, are path-checked under both).
PLAIN_KEPT: tuple[tuple[str, str], ...] = (
    *((f"{c.split()[0].removesuffix(':*')} *", c) for c in (
        "chmod 777 /dev/shm/zz", "chown root /dev/shm/zz", "ln -s x /dev/shm/zz", "mkdir -p ../zz",
        "touch .claude/zz", "touch .git/hooks/pre-commit", "truncate -s0 /dev/shm/zz",
        "shred /dev/shm/zz", "truncate -s0 ../zz", "gh pr view 1 --output /dev/shm/zz",
        "pnpm --dir /dev/shm/zz install", "gh label list", "cargo build --release",
        "xdg-open http://x", "tinymist compile a.typ", "gh pr view:*", "gh issue list:*",
        "pnpm install:*", "chmod:*", "mkdir -p:*",
        # A prefix rule is never approved whole (the runtime's whole approval needs the rule
        # to be the command's own string), whatever program it names.
        "git tag:*", "find:*", "eval:*", "exec:*", "typeset:*", "sh:*", "command -v gh:*",
        "npm run migrate:status:*")),
    ("gh * list", "gh label list"), ("gh pr *", "gh pr checkout 12"),
)


def _escalations(domain_judge: DomainJudge,
                 cases: tuple[tuple[str, str], ...]) -> tuple[list[str], int, dict[str, bool]]:
    """Each case's rule applied under its plan (A, per plan) against the plan (P), on the rule's
    own command and the calls derived from it; and the rules' own side (each alone)."""
    by_plan: dict[str, list[str]] = {}
    for plan, command in cases:
        by_plan.setdefault(plan, []).append(command)
    jobs: list[tuple[str, list[Call]]] = []
    kept = 0
    for plan, commands in by_plan.items():
        applied: list[str] = []
        for command in commands:
            new_text, decision = apply_to_text(skill(block_list([f"Bash({command})"])),
                                               Plan.from_entries([f"Bash({plan})"],
                                                                 runtime="claude-code"))
            kept += len(decision.kept)
            doc = read_skill(new_text)
            applied += list(doc.allowed_tools.entries) if doc.allowed_tools else []
        calls = list(dict.fromkeys(
            Call("Bash", p.arg) for c in commands
            for p in [*entry_probes(f"Bash({c})"), *entry_probes(f"Bash({plan})")]))
        jobs += [(skill(block_list(applied)), calls), (plan_skill([f"Bash({plan})"]), calls)]
    own = [Call("Bash", c.removesuffix(":*")) for _, c in cases]
    jobs.append((skill(block_list([f"Bash({c})" for _, c in cases])), own))
    results = domain_judge.allowed_many(jobs)
    escalations = [f"{plan}: {call}" for plan, a, p in
                   zip(by_plan, results[0:-1:2], results[1:-1:2], strict=True)
                   for call, ok in a.items() if ok and not p[call]]
    return escalations, kept, {str(c): v for c, v in results[-1].items()}


def test_exact_rules_the_runtime_approves_whole_are_dropped_review_f28_2b(
        domain_judge: DomainJudge) -> None:
    escalations, kept, alone = _escalations(domain_judge, F28_2B)
    TALLY["F28-2b cases"] = len(F28_2B)
    assert escalations == []
    assert kept == 0
    # The cases are live: under its exact rule alone the runtime allows each command.
    assert all(alone.values()), [c for c, ok in alone.items() if not ok]


def test_exact_rules_of_plain_commands_stay_kept_under_a_glob(
        domain_judge: DomainJudge) -> None:
    escalations, kept, _ = _escalations(domain_judge, PLAIN_KEPT)
    TALLY["plain exact rules kept"] = kept
    assert escalations == []
    assert kept == len(PLAIN_KEPT)


# --- generated pairs, per domain ------------------------------------------------------------

@pytest.fixture
def pairs_a_domain(request: pytest.FixtureRequest) -> int:
    """The generated pairs judged a domain (``--domain-pairs``)."""
    return int(request.config.getoption("--domain-pairs"))


@pytest.mark.parametrize("domain", list(DOMAINS))
def test_applied_files_never_allow_more_than_the_plan_in_each_domain(
        domain_judge: DomainJudge, domain: str, pairs_a_domain: int) -> None:
    jobs: list[tuple[str, list[Call]]] = []
    plans: list[tuple[str, ...]] = []
    pairs = kept = refused = 0
    for group in groups(domain, pairs_a_domain):
        plan = Plan.from_entries(list(group.plan), runtime="claude-code")
        applied: dict[str, None] = {}
        for entry in group.submitted:
            pairs += 1
            try:
                new_text, decision = apply_to_text(skill(block_list([entry])), plan)
            except SkillFileError:
                refused += 1
                continue
            kept += bool(decision.kept)
            doc = read_skill(new_text)
            applied.update(dict.fromkeys(doc.allowed_tools.entries if doc.allowed_tools
                                         else []))
        calls = calls_for(domain, [*group.plan, *group.submitted, *applied])
        # At most CHUNK calls a session: a Monitor call's notification starts another turn,
        # and a long session of them outlasts the session's time limit on a busy machine.
        for start in range(0, len(calls) if applied else 0, CHUNK):
            chunk = calls[start:start + CHUNK]
            jobs += [(skill(block_list(list(applied))), chunk), (plan_skill(group.plan), chunk)]
            plans.append(group.plan)
    results = domain_judge.allowed_many(jobs)
    escalations = []
    allowed_a = 0
    for entries, a, p in zip(plans, results[0::2], results[1::2], strict=True):
        allowed_a += sum(a.values())
        escalations += [(entries, str(call)) for call, ok in a.items() if ok and not p[call]]
    TALLY[f"{domain} pairs"] = pairs
    TALLY[f"{domain} kept"] = kept
    TALLY[f"{domain} calls allowed under A"] = allowed_a
    TALLY[f"{domain} escalations"] = len(escalations)
    assert pairs >= pairs_a_domain and refused == 0
    assert escalations == [], "\n".join(map(repr, escalations))


# --- witnesses, per domain ------------------------------------------------------------------

def _outside_project(call: Call) -> bool:
    """A path the runtime checks may lie outside the project: absolute, home, `..`, or an
    expansion (`$HOME/zz`: measured, denied by the path check under its own exact rule)."""
    return call.tool in ("Bash", "Monitor") and any(
        word.startswith(("/", "~")) or ".." in word or "$" in word
        for word in call.arg.split()[1:])


def _witness_call(domain: str, entry: str, reason: str, witness: str) -> Call | None:
    """The call a witness stands for, when this suite can make it."""
    tool = entry.split("(", 1)[0].lower()
    if tool == "bash" and "\n" not in witness:
        return Call("Monitor" if "Monitor call" in reason else "Bash", witness)
    if tool == "skill" and domain == "Skill":
        return Call("Skill", witness)
    if tool == "webfetch" and "*" not in witness:
        return Call("WebFetch", f"https://{witness}/x")
    if tool == "read" and witness.startswith("~/"):
        return Call("Read", witness)
    return None


def test_witnesses_are_allowed_by_the_entry_and_by_no_approved_one(
        domain_judge: DomainJudge, pairs_a_domain: int) -> None:
    """For not_covered verdicts of the generated pairs (Bash, Monitor, Skill, WebFetch, Read),
    the witness call is allowed under a skill holding only the submitted entry (as skillgrant
    reads it: in the runtime's spelling), and denied under P. Read-only commands, which need
    no grant, cannot show it and are left out; so are commands naming a path outside the
    project, which the runtime path-checks under every rule but a tool-wide one."""
    sample: dict[Call, tuple[str, tuple[str, ...]]] = {}
    for domain in ("Bash", "Monitor", "Skill", "WebFetch", "Read"):
        taken = 0  # (the witnesses of at least 20 pairs a domain: at fewer, too few to judge)
        for group in groups(domain, max(pairs_a_domain, WITNESS_PAIRS)):
            for entry in group.submitted:
                verdict = prove(entry, list(group.plan))
                if verdict.status != "not_covered" or verdict.witness is None or taken >= 8:
                    continue
                call = _witness_call(domain, entry, verdict.reason, verdict.witness)
                if call is None or call in sample or _outside_project(call):
                    continue
                sample[call] = (str(parse_grant(entry)), group.plan)
                taken += 1
    calls = list(sample)
    (baseline,) = domain_judge.allowed_many([(skill(block_list([])), calls)])
    judged = [c for c in calls if not baseline[c]]
    under_entry = domain_judge.allowed_many(
        (skill(block_list([sample[c][0]])), [c]) for c in judged)
    # P: one session per plan, with every witness of that plan.
    by_plan: dict[tuple[str, ...], list[Call]] = {}
    for c in judged:
        by_plan.setdefault(sample[c][1], []).append(c)
    under_plan: dict[Call, bool] = {}
    for result in domain_judge.allowed_many((plan_skill(plan), cs)
                                            for plan, cs in by_plan.items()):
        under_plan.update(result)
    wrong = [(sample[c], str(c), a[c], under_plan[c])
             for c, a in zip(judged, under_entry, strict=True) if not a[c] or under_plan[c]]
    TALLY["domain witnesses judged"] = len(judged)
    assert len(judged) >= 20
    assert wrong == [], "\n".join(map(repr, wrong))


def test_the_plain_command_names_cover_the_runtimes_analysis() -> None:
    """Every name the pinned binary's Bash analysis names is one ``plain_command`` refuses as a
    program (tests/conformance/cc_names.py reads them from the binary)."""
    from cc_names import extract
    from cc_runtime import binary_path

    from skillgrant.domains.plainnames import ANALYZED

    extracted = extract(binary_path())
    assert {"eval", "find", "typeset", "nocorrect", "ionice", "git"} <= extracted
    assert extracted <= ANALYZED, sorted(extracted - ANALYZED)[:20]
