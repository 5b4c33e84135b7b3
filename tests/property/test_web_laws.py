"""Laws of the ``WebFetch`` domain (semantics §4.3), checked against a reference host matcher.

The reference (``reference.host_allows``) turns a ``domain:`` pattern into a regular expression
straight from the contract's sentences (a leading ``*.`` is one label or more, any other ``*`` stays
inside a label, case and a trailing dot do not matter) and matches concrete hosts with it. It
shares no code with the prover. Laws: soundness on sampled hosts, witness validity, constructed
narrowings (and narrowings of narrowings, whatever else is approved) are kept, spelling does not
matter. Every law runs at least 500 examples.
"""

from __future__ import annotations

import itertools

from examples import examples
from hypothesis import event, given, settings
from hypothesis import strategies as st
from reference import host_allows

from skillgrant import parse_grant, prove

EXAMPLES = examples(500)

LITERALS = ["a", "b", "ab", "com"]
GLOBS = ["*", "a*", "*b", "a*b"]
CONCRETE = ["a", "b", "ab", "com", "x", "ax"]
FILLS = ["", "a", "b", "x"]

HOSTS = [".".join(p) for n in (1, 2, 3) for p in itertools.product(CONCRETE, repeat=n)]


# --------------------------------------------------------------------------------------------
# Patterns: (subdomains, labels); subdomains is the leading `*.`
# --------------------------------------------------------------------------------------------

Host = tuple[bool, list[str]]

hosts = st.tuples(st.booleans(),
                  st.lists(st.sampled_from(LITERALS + GLOBS), min_size=1, max_size=3))


# The bare grant now and then (it covers everything, so often would teach little).
maybe_bare = st.one_of(hosts, hosts, hosts, hosts, st.none())


def render(pattern: Host) -> str:
    subdomains, labels = pattern
    return ("*." if subdomains else "") + ".".join(labels)


def entry(pattern: Host) -> str:
    return f"WebFetch(domain:{render(pattern)})"


@st.composite
def instance(draw: st.DrawFn, pattern: Host) -> str:
    subdomains, labels = pattern
    parts = draw(st.lists(st.sampled_from(CONCRETE), min_size=1, max_size=2)) if subdomains else []
    for label in labels:
        pieces = label.split("*")
        text = pieces[0] + "".join(draw(st.sampled_from(FILLS)) + p for p in pieces[1:])
        parts.append(text or "x")
    return ".".join(parts)


@st.composite
def narrowing(draw: st.DrawFn, pattern: Host) -> Host:
    subdomains, labels = pattern
    choices = [i for i, label in enumerate(labels) if "*" in label]
    if subdomains and (not choices or draw(st.booleans())):
        head = draw(st.sampled_from([["a"], ["x", "b"], ["*", "a"], ["a*"], ["*", "*"]]))
        if head[0] == "*" and len(head) > 1:
            return True, head[1:] + labels  # `*.a.rest`: still one label or more in front
        return False, head + labels
    if not choices:
        return pattern
    index = draw(st.sampled_from(choices))
    pieces = labels[index].split("*")
    at = draw(st.integers(0, len(pieces) - 2))
    fill = draw(st.sampled_from(["a", "x", "b*", "*a"]))
    label = "*".join(pieces[: at + 1]) + fill + "*".join(pieces[at + 1:])
    return subdomains, [*labels[:index], label, *labels[index + 1:]]


@st.composite
def spellings(draw: st.DrawFn, pattern: Host) -> str:
    text = render(pattern)
    upper = draw(st.lists(st.booleans(), min_size=len(text), max_size=len(text)))
    text = "".join(c.upper() if u else c for c, u in zip(text, upper, strict=True))
    return text + ("." if draw(st.booleans()) else "")


# --------------------------------------------------------------------------------------------
# Laws
# --------------------------------------------------------------------------------------------


def assert_sound(submitted: str, approved: list[str], extra: list[str]) -> None:
    content = parse_grant(submitted).content
    contents = [parse_grant(a).content for a in approved]
    for host in [*HOSTS, *extra]:
        if host_allows(content, host):
            assert any(host_allows(c, host) for c in contents), (submitted, approved, host)


@settings(max_examples=EXAMPLES)
@given(maybe_bare, st.lists(maybe_bare, min_size=1, max_size=3), st.data())
def test_soundness_and_witnesses(
    submitted: Host | None, approved: list[Host | None], data: st.DataObject
) -> None:
    s_entry = "WebFetch" if submitted is None else entry(submitted)
    a_entries = ["WebFetch" if a is None else entry(a) for a in approved]
    verdict = prove(s_entry, a_entries)
    event(verdict.status)
    assert verdict.status in ("covered", "not_covered"), verdict.reason
    if verdict.status == "covered":
        extra = [data.draw(instance(submitted)) for _ in range(8)] if submitted else []
        assert_sound(s_entry, a_entries, extra)
    else:
        host = verdict.witness
        assert host is not None and host == host.lower()
        assert host_allows(parse_grant(s_entry).content, host)
        assert not any(host_allows(parse_grant(a).content, host) for a in a_entries), host


@settings(max_examples=EXAMPLES)
@given(hosts, st.data())
def test_narrowings_are_kept(approved: Host, data: st.DataObject) -> None:
    narrow = data.draw(narrowing(approved))
    verdict = prove(entry(narrow), [entry(approved)])
    assert verdict.status == "covered", verdict.reason
    extra = [data.draw(instance(narrow)) for _ in range(8)]
    assert_sound(entry(narrow), [entry(approved)], extra)


@settings(max_examples=EXAMPLES)
@given(hosts, st.lists(hosts, max_size=2), st.data())
def test_narrowing_chains_are_kept_whatever_else_is_approved(
    approved: Host, others: list[Host], data: st.DataObject
) -> None:
    twice = data.draw(narrowing(data.draw(narrowing(approved))))
    verdict = prove(entry(twice), [*map(entry, others), entry(approved)])
    assert verdict.status == "covered", verdict.reason


@settings(max_examples=EXAMPLES)
@given(hosts, st.data())
def test_case_and_trailing_dot_do_not_matter(pattern: Host, data: st.DataObject) -> None:
    spelled = data.draw(spellings(pattern))
    assert prove(f"WebFetch(domain:{spelled})", [entry(pattern)]).status == "covered"
    assert prove(entry(pattern), [f"WebFetch(domain:{spelled})"]).status == "covered"
    # `domain:*` is the bare grant, both ways.
    assert prove(entry(pattern), ["WebFetch(domain:*)"]).status == "covered"
