"""Laws for the MCP (semantics §4.4) and Agent (§4.5) domains against a reference written from the
the contract's words: a plain membership test over concrete tool names / agent types.

Reference semantics (allow position):
- ``mcp__s`` and ``mcp__s__*`` allow every tool ``mcp__s__<t>`` (t non-empty);
  ``mcp__s__p*`` allows ``mcp__s__<p…>``; ``mcp__s__t`` allows exactly that tool. Verbatim.
  A name with a second ``__`` after its server is read two ways (a server name may hold
  ``__``, and rules match the tool's own server: measured on Claude Code 2.1.332).
- ``Agent`` (or ``Task``) allows every type; ``Agent(t)`` allows exactly type ``t``. The name
  is matched exactly: ``agent`` grants nothing.
"""

from __future__ import annotations

from examples import examples
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from pinned import constrain, prove

EXAMPLES = examples(500)

SERVERS = st.sampled_from(["gh", "ghx", "g", "linear", "a-b"])
TOOL_CHARS = "abx_"
TOOLS = st.text(TOOL_CHARS, min_size=1, max_size=4)


def ambiguous(name: str) -> bool:
    """A name whose server/tool boundary reads two ways (`___`, a server or tool edge at `_`):
    outside the decided fragment, covered only by an identical entry."""
    rest = name[len("mcp__"):]
    server, _, tool = rest.partition("__")
    return "___" in rest or server.endswith("_") or tool.startswith("_") or "__" in tool


def mcp_allows(rule: str, tool_name: str) -> bool:
    """Does MCP rule ``rule`` allow calling the tool named ``tool_name``? (Reference model.)"""
    assert tool_name.startswith("mcp__")
    server, _, tool = rule[len("mcp__"):].partition("__")
    called_server, _, called_tool = tool_name[len("mcp__"):].partition("__")
    if server != called_server or not called_tool:
        return False
    if tool in ("", "*"):
        return True
    if tool.endswith("*"):
        return called_tool.startswith(tool[:-1])
    return called_tool == tool


@st.composite
def mcp_rules(draw: st.DrawFn) -> str:
    server = draw(SERVERS)
    form = draw(st.sampled_from(["server", "server-star", "prefix", "exact"]))
    if form == "server":
        return f"mcp__{server}"
    if form == "server-star":
        return f"mcp__{server}__*"
    tool = draw(TOOLS)
    return f"mcp__{server}__{tool}*" if form == "prefix" else f"mcp__{server}__{tool}"


@st.composite
def members(draw: st.DrawFn, rule: str) -> str:
    """A concrete tool name the rule allows, built from the contract's words."""
    server, _, tool = rule[len("mcp__"):].partition("__")
    if tool in ("", "*"):
        return f"mcp__{server}__{draw(TOOLS)}"
    if tool.endswith("*"):
        return f"mcp__{server}__{tool[:-1]}{draw(st.text(TOOL_CHARS, max_size=3))}"
    return rule


@settings(max_examples=EXAMPLES)
@given(sub=mcp_rules(), approved=st.lists(mcp_rules(), min_size=1, max_size=3), data=st.data())
def test_mcp_soundness_and_witness(sub: str, approved: list[str], data: st.DataObject) -> None:
    verdict = prove(sub, approved)
    if ambiguous(sub):
        assert verdict.covered == (sub in approved), verdict
        return
    if verdict.covered:
        for _ in range(5):
            name = data.draw(members(sub))
            assert mcp_allows(sub, name)
            assert any(mcp_allows(a, name) for a in approved), (sub, approved, name)
    elif any(map(ambiguous, approved)):
        # An approved name read two ways may allow any witness: none is certain.
        assert verdict.status in ("not_covered", "unknown"), verdict
    else:
        assert verdict.status == "not_covered", verdict  # the fragment is fully decided
        assert verdict.witness is not None
        assert mcp_allows(sub, verdict.witness), verdict
        assert not any(mcp_allows(a, verdict.witness) for a in approved), verdict


@settings(max_examples=EXAMPLES)
@given(wide=mcp_rules(), suffix=st.text(TOOL_CHARS, max_size=3), star=st.booleans())
def test_mcp_constructed_narrowings_are_kept(wide: str, suffix: str, star: bool) -> None:
    server, _, tool = wide[len("mcp__"):].partition("__")
    if tool in ("", "*"):
        narrow = f"mcp__{server}__{suffix or 'x'}{'*' if star else ''}"
    elif tool.endswith("*"):
        narrow = f"mcp__{server}__{tool[:-1]}{suffix}{'*' if star else ''}"
        if narrow.endswith("__"):
            narrow += "x"
    else:
        narrow = wide
    assume(not ambiguous(wide) and not ambiguous(narrow))
    assert prove(narrow, [wide]).covered, (narrow, wide)


@settings(max_examples=EXAMPLES)
@given(rules=st.lists(mcp_rules(), min_size=1, max_size=4), extra=mcp_rules())
def test_mcp_monotonicity(rules: list[str], extra: str) -> None:
    kept = constrain(rules, rules[:1]).kept
    widened = constrain(rules, [*rules[:1], extra]).kept
    assert {v.entry for v in kept} <= {v.entry for v in widened}


AGENT_TYPES = st.sampled_from(["reviewer", "Reviewer", "general-purpose", "explore", "x"])
AGENT_RULES = st.one_of(
    st.sampled_from(["Agent", "Task", "Agent(*)", "agent"]),
    AGENT_TYPES.map(lambda t: f"Agent({t})"),
    AGENT_TYPES.map(lambda t: f"Task({t})"),
)


def agent_allows(rule: str, agent_type: str) -> bool:
    """Reference: does an Agent/Task rule allow spawning ``agent_type``?"""
    name, _, rest = rule.partition("(")
    if name not in ("Agent", "Task"):
        return False  # names are matched exactly (issue 28): `agent` grants nothing
    content = rest[:-1] if rest else ""
    return content in ("", "*") or content == agent_type


@settings(max_examples=EXAMPLES)
@given(sub=AGENT_RULES, approved=st.lists(AGENT_RULES, min_size=1, max_size=3))
def test_agent_soundness_and_witness(sub: str, approved: list[str]) -> None:
    verdict = prove(sub, approved)
    probes = ["reviewer", "Reviewer", "general-purpose", "explore", "x", "other"]
    if verdict.covered:
        for agent_type in probes:
            if agent_allows(sub, agent_type):
                assert any(agent_allows(a, agent_type) for a in approved), (sub, approved)
    else:
        assert verdict.status == "not_covered", verdict
        assert verdict.witness is not None
        # A submitted name spelt otherwise is judged (and written) as the built-in tool.
        written = sub.replace("agent", "Agent", 1) if sub.startswith("agent") else sub
        assert agent_allows(written, verdict.witness)
        assert not any(agent_allows(a, verdict.witness) for a in approved), verdict


@settings(max_examples=EXAMPLES)
@given(agent_type=AGENT_TYPES, alias=st.sampled_from(["Agent", "Task", "AGENT", "task"]))
def test_agent_narrowing_and_alias_kept(agent_type: str, alias: str) -> None:
    verdict = prove(f"{alias}({agent_type})", ["Agent"])
    assert verdict.covered
    assert verdict.written == f"Agent({agent_type})"
    assert prove(f"Agent({agent_type})", [f"Task({agent_type})"]).covered
