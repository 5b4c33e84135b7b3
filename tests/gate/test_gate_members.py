"""The gate's one-lookup membership (``gate.members``) against the prover: for a generated
plan and a generated concrete value, the entry a domain's ``member`` names is the entry that
proving the singleton entry (``Read(//a/b)``, ``Edit(//a/b)``, ``WebFetch(domain:h)``,
``Agent(t)``, ``Skill(n)``, an MCP name) names when it is ``covered``, and None when the prover
answers anything else. A value outside the decided fragment (``OUTSIDE``) is left to the
prover by the gate, so it is only counted here.

Patterns and values come from a tiny alphabet so that random pairs are often related, with
the runtime's readings mixed in (``//abs``, ``~/``, ``/rel-to-root``, ``./``, a bare segment
matching at any depth, ``**``, trailing ``/``, pattern syntax the prover does not decide,
``domain:*.x``, ``Skill(x *)``, server-wide MCP names, names read two ways).
"""

from __future__ import annotations

import re

from examples import examples
from hypothesis import event, given, settings
from hypothesis import strategies as st

from skillgrant.domains import skill as skill_domain
from skillgrant.errors import PlanError
from skillgrant.gate import members
from skillgrant.gate.call import check_call
from skillgrant.gate.verdict import CallPlan, call_plan
from skillgrant.grants import parse_grant

EXAMPLES = examples(1000)

SEGMENTS = ["a", "b", "ab", "a.ts", "*", "a*", "*.ts", "**", "A", "x y", "é", "a?", "[ab]",
            "a\\*", "${CLAUDE_SKILL_DIR}", ".", ".."]
ANCHORS = ["//", "~/", "/", "./", ""]
CONCRETE = ["a", "b", "ab", "a.ts", "x", "A", "é", "x y", "a ", "!a", "#a", "a,b", "a\u00a0",
            "a\x85", "~", "$", "a:b"]
DIRECTORIES = ["/a", "/b", "/a/b", "/", "/x"]

path_pattern = st.builds(
    lambda anchor, parts, slash: anchor + "/".join(parts) + slash,
    st.sampled_from(ANCHORS), st.lists(st.sampled_from(SEGMENTS), min_size=0, max_size=3),
    st.sampled_from(["", "", "/"]))
path_entry = st.builds(lambda tool, pattern, bare: tool if bare else f"{tool}({pattern})",
                       st.sampled_from(["Read", "Edit", "Write"]), path_pattern,
                       st.sampled_from([False] * 9 + [True]))
absolute = st.lists(st.sampled_from(CONCRETE), min_size=0, max_size=4).map(
    lambda parts: "/" + "/".join(parts))
base_dirs = st.fixed_dictionaries({}, optional={"home": st.sampled_from(DIRECTORIES),
                                                "root": st.sampled_from(DIRECTORIES)})


def _plan(entries: list[str], dirs: dict[str, str] | None = None) -> CallPlan | None:
    try:
        plan = call_plan(entries, base_dirs=dirs)
        plan.prepared()
    except PlanError:  # an invalid generated plan: nothing to compare
        return None
    return plan


def _prover(plan: CallPlan, entry: str, cwd: str | None = None) -> str | None:
    verdict = plan.prove(entry, cwd)
    return verdict.covered_by if verdict.covered else None


def _agrees(found: members.Found, plan: CallPlan, entry: str, cwd: str | None = None) -> None:
    """``found`` (a member's answer) is the prover's on ``entry``, or is left to it."""
    if isinstance(found, members.Outside):
        event("outside the fragment")
        return
    event("covered" if found else "not covered")
    assert found == _prover(plan, entry, cwd)


@settings(max_examples=EXAMPLES)
@given(st.lists(path_entry, max_size=5), base_dirs, st.sampled_from([None, *DIRECTORIES]),
       absolute, st.sampled_from(["Read", "Edit"]))
def test_path_member_is_the_provers_answer(entries: list[str], dirs: dict[str, str],
                                           cwd: str | None, path: str, kind: str) -> None:
    plan = _plan(entries, dirs)
    if plan is not None:
        _agrees(members.path(plan, kind, path, cwd), plan, f"{kind}(/{path})", cwd)


def _instance(pattern: str, fills: list[str], dirs: dict[str, str], cwd: str) -> str:
    """A concrete absolute path the path ``pattern`` is written to allow (its base directory
    put in front, each star and ``**`` filled from ``fills``): often covered, so the covering
    entry the member names is compared, not only its absence."""
    anchor = next((a for a in ("//", "~/", "/") if pattern.startswith(a)), "")
    base = {"//": "", "~/": dirs.get("home", "/h"), "/": dirs.get("root", "/r")}.get(anchor, cwd)
    parts = [p for p in pattern[len(anchor):].removeprefix("./").split("/") if p]
    filled = [fills[i % len(fills)] if p == "**" else p.replace("*", fills[i % len(fills)])
              for i, p in enumerate(parts)]
    return (base.rstrip("/") + "/" + "/".join(f for f in filled if f)).replace("//", "/")


plain_path_entry = st.builds(
    lambda tool, anchor, parts, slash: f"{tool}({anchor}{'/'.join(parts)}{slash})",
    st.sampled_from(["Read", "Edit"]), st.sampled_from(ANCHORS),
    st.lists(st.sampled_from(["a", "b", "*", "a*", "*.ts", "**", "é"]), min_size=1, max_size=3),
    st.sampled_from(["", "", "/"]))


@settings(max_examples=EXAMPLES)
@given(st.lists(plain_path_entry, min_size=1, max_size=4), base_dirs,
       st.sampled_from(DIRECTORIES), st.lists(st.sampled_from(["", "a", "x", "a/b", "é"]),
                                              min_size=1, max_size=3),
       st.sampled_from(["Read", "Edit"]))
def test_path_member_on_paths_the_plan_names(entries: list[str], dirs: dict[str, str], cwd: str,
                                             fills: list[str], kind: str) -> None:
    plan = _plan(entries, dirs)
    pattern = entries[0].partition("(")[2].removesuffix(")")
    if plan is not None:
        path = _instance(pattern, fills, dirs, cwd)
        _agrees(members.path(plan, kind, path, cwd), plan, f"{kind}(/{path})", cwd)


HOST_LABELS = ["a", "b", "ab", "x-y", "0"]
host_pattern = st.builds(
    lambda lead, labels, dot: lead + ".".join(labels) + dot,
    st.sampled_from(["", "*.", "A"]), st.lists(st.sampled_from([*HOST_LABELS, "*", "a*", "B"]),
                                               min_size=1, max_size=3),
    st.sampled_from(["", "."]))
web_entry = st.one_of(st.just("WebFetch"), host_pattern.map(lambda h: f"WebFetch(domain:{h})"),
                      st.sampled_from(["WebFetch(domain:*)", "WebFetch(https://a.b)",
                                       "WebFetch(domain:a..b)", "WebFetch(domain:é.a)"]))
host = st.lists(st.sampled_from(HOST_LABELS), min_size=1, max_size=4).map(".".join)


@settings(max_examples=EXAMPLES)
@given(st.lists(web_entry, max_size=4), host)
def test_host_member_is_the_provers_answer(entries: list[str], name: str) -> None:
    plan = _plan(entries)
    if plan is not None:
        found = members.host(plan, name)
        assert not isinstance(found, members.Outside)
        _agrees(found, plan, f"WebFetch(domain:{name})")


NAMES = ["a", "b", "ab", "general-purpose", "a:b", "a b", "a/b", "/a", "A", "é", "a.b"]
name_entry = st.builds(lambda tool, content, bare: tool if bare else f"{tool}({content})",
                       st.sampled_from(["Agent", "Task", "Skill"]),
                       st.sampled_from([*NAMES, "a *", "a:*", "a*", "*", "", "a\\b", "a  *"]),
                       st.sampled_from([False] * 6 + [True]))


@settings(max_examples=EXAMPLES)
@given(st.lists(name_entry, max_size=5), st.sampled_from(["Agent", "Skill"]),
       st.sampled_from(NAMES))
def test_name_member_is_the_provers_answer(entries: list[str], tool: str, name: str) -> None:
    plan = _plan(entries)
    if plan is None:
        return
    if tool == "Agent":
        _agrees(members.agent_type(plan, name), plan, f"Agent({name})")
        return
    # Skill (review F2): the prover's answer on the plan without the rules Claude Code reads
    # as granting nothing (a star other than a trailing ' *' or ':*'), and no name of
    # characters no skill name holds.
    granting = _plan([e for e in entries if not e.startswith("Skill(")
                      or skill_domain.inert_reason(parse_grant(e)) is None])
    found = members.skill(plan, name)
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.:@+/-]*", name) or granting is None:
        assert found is None
        return
    _agrees(found, granting, f"Skill({name})")


def test_a_skill_rule_claude_code_reads_as_nothing_covers_no_skill() -> None:
    """Review F2: ``Skill(x*)`` grants nothing under Claude Code (docs/runtime-conformance.md),
    though as a command pattern it would hold ``xevil``; the gate covers no skill by it."""
    for rule, name in (("Skill(x*)", "xevil"), ("Skill(*x)", "evilx"), ("Skill(x/*)", "x/evil"),
                       ("Skill(x**)", "x:evil")):
        assert check_call("Skill", {"skill": name}, [rule]).status == "not_covered", rule
    assert check_call("Skill", {"skill": "x y"}, ["Skill(x *)"]).status == "not_covered"
    assert check_call("Skill", {"skill": "x"}, ["Skill(x *)", "Skill(x*)"]).covered_by == (
        "Skill(x *)",)


MCP_PARTS = ["a", "b", "a_b", "a__b", "a_", "_b", "*", "get_*", "get_issue", ""]
mcp_name = st.builds(lambda server, tool: "mcp__" + server + ("" if tool is None else "__" + tool),
                     st.sampled_from(["a", "b", "a_b", "a_", "gh", "a*"]),
                     st.none() | st.sampled_from(MCP_PARTS))


@settings(max_examples=EXAMPLES)
@given(st.lists(mcp_name, max_size=5), mcp_name)
def test_mcp_member_is_the_provers_answer(entries: list[str], name: str) -> None:
    plan = _plan(entries)
    if plan is not None:
        _agrees(members.mcp_tool(plan, name), plan, name)


def test_the_runtimes_path_readings() -> None:
    """Hand cases of the runtime's reading (docs/runtime-conformance.md), each member's answer
    the prover's too."""
    plan = call_plan(["Read(//etc/**)", "Read(~/.zshrc)", "Read(/src/**)", "Read(./docs/*)",
                      "Read(.env)", "Edit(//repo/out/)"],
                     base_dirs={"home": "/home/u", "root": "/repo"})
    cases = [("/etc/passwd", "Read(//etc/**)"), ("/home/u/.zshrc", "Read(~/.zshrc)"),
             ("/repo/src/a/b.py", "Read(/src/**)"), ("/w/docs/a.md", "Read(./docs/*)"),
             ("/w/x/y/.env", "Read(.env)"), ("/w/docs/a/b.md", None), ("/etc", None),
             ("/repo/out", None), ("/home/v/.zshrc", None)]
    for path, expected in cases:
        assert members.path(plan, "Read", path, "/w") == expected, path
        assert _prover(plan, f"Read(/{path})", "/w") == expected, path
    assert members.path(plan, "Edit", "/etc/passwd", "/w") is None


def test_long_values_and_starry_patterns_match_by_the_automaton() -> None:
    """A value past the regular expression's length and a pattern of many stars are matched
    by ``pathlang.matches``; the first pattern in order still wins."""
    plan = call_plan(["Read(//a/**/b/**/c/**)", "Read(//a/**)", "Read(//x/*a*a*a*)"])
    long = "/a/" + "/".join(["p" * 20] * 20) + "/b/q/c/r"
    short = "/a/b/q/c/r"
    for path in (long, short, "/x/aaa", "/x/" + "a" * 300):
        assert members.path(plan, "Read", path, None) == _prover(plan, f"Read(/{path})"), path
    assert members.path(plan, "Read", long, None) == "Read(//a/**/b/**/c/**)"
    assert members.path(plan, "Read", "/x/" + "ab" * 200, None) == "Read(//x/*a*a*a*)"


def test_a_lookup_past_its_budget_is_left_to_the_prover() -> None:
    """Review F1: sixty ``**`` patterns against an 8,000-character path run the automaton past
    its budget; the member leaves the path to the prover, whose answer is a denial."""
    plan = call_plan([f"Read(//**/dir{i}/**)" for i in range(60)])
    path = "/" + "/".join(["a"] * 4000)
    assert members.path(plan, "Read", path, "/w") is members.OUTSIDE
    assert check_call("Read", {"file_path": path}, plan, cwd="/w").status == "unknown"
