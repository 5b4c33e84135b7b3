"""``WebFetch`` (semantics §4.3) as tables, through the public ``prove()``.

Statuses come from the contract's words. Every ``not_covered`` row checks its witness with the host
model of tests/reference.py (a regular expression per pattern, written from the contract),
which shares no code with the prover: the witness host must be allowed by the submitted grant
and by no approved one.
"""

from __future__ import annotations

import pytest
from reference import host_allows

from skillgrant import prove
from skillgrant.domains import web
from skillgrant.domains.base import Budget, Context, OverBudget, Undecided
from skillgrant.grants import parse_grant

Row = tuple[str, list[str], str]


def check(entry: str, approved: list[str], expected: str) -> None:
    verdict = prove(entry, approved)
    assert verdict.status == expected, verdict.reason
    if expected == "not_covered":
        host = verdict.witness
        assert host is not None
        assert host_allows(parse_grant(entry).content, host)
        assert not any(host_allows(parse_grant(a).content, host) for a in approved)
    else:
        assert verdict.witness is None
    if expected == "covered":
        assert verdict.covered_by in approved


EXACT_HOSTS: list[Row] = [
    ("WebFetch(domain:example.com)", ["WebFetch(domain:example.com)"], "covered"),
    ("WebFetch(domain:Example.COM)", ["WebFetch(domain:example.com)"], "covered"),
    ("WebFetch(domain:example.com)", ["WebFetch(domain:EXAMPLE.com)"], "covered"),
    ("WebFetch(domain:example.com.)", ["WebFetch(domain:example.com)"], "covered"),
    ("WebFetch(domain:example.com)", ["WebFetch(domain:example.com.)"], "covered"),
    ("WebFetch(domain:evil.com)", ["WebFetch(domain:example.com)"], "not_covered"),
    ("WebFetch(domain:www.example.com)", ["WebFetch(domain:example.com)"], "not_covered"),
    ("WebFetch(domain:example.com.evil.com)", ["WebFetch(domain:example.com)"], "not_covered"),
    ("WebFetch(domain:notexample.com)", ["WebFetch(domain:*.example.com)"], "not_covered"),
]

SUBDOMAINS: list[Row] = [
    ("WebFetch(domain:a.example.com)", ["WebFetch(domain:*.example.com)"], "covered"),
    ("WebFetch(domain:a.b.example.com)", ["WebFetch(domain:*.example.com)"], "covered"),
    ("WebFetch(domain:*.a.example.com)", ["WebFetch(domain:*.example.com)"], "covered"),
    ("WebFetch(domain:*.*.example.com)", ["WebFetch(domain:*.example.com)"], "covered"),
    ("WebFetch(domain:api-*.example.com)", ["WebFetch(domain:*.example.com)"], "covered"),
    # Not the apex.
    ("WebFetch(domain:example.com)", ["WebFetch(domain:*.example.com)"], "not_covered"),
    ("WebFetch(domain:*.example.com)", ["WebFetch(domain:example.com)"], "not_covered"),
    ("WebFetch(domain:*.example.com)", ["WebFetch(domain:*.a.example.com)"], "not_covered"),
    ("WebFetch(domain:*.example.com)", ["WebFetch(domain:*.*.example.com)"], "not_covered"),
    ("WebFetch(domain:*.example.com)",
     ["WebFetch(domain:example.com)", "WebFetch(domain:a.example.com)"], "not_covered"),
]

ONE_LABEL_STAR: list[Row] = [
    ("WebFetch(domain:example.org)", ["WebFetch(domain:example.*)"], "covered"),
    ("WebFetch(domain:example.com)", ["WebFetch(domain:ex*.com)"], "covered"),
    ("WebFetch(domain:ex*e.com)", ["WebFetch(domain:ex*.com)"], "covered"),
    ("WebFetch(domain:api.github.com)", ["WebFetch(domain:api.*.com)"], "covered"),
    ("WebFetch(domain:docs.*.io)", ["WebFetch(domain:*.io)"], "covered"),
    # `*` never matches a dot.
    ("WebFetch(domain:example.evil.com)", ["WebFetch(domain:example.*)"], "not_covered"),
    ("WebFetch(domain:a.example.com)", ["WebFetch(domain:ex*.com)"], "not_covered"),
    ("WebFetch(domain:api.a.b.com)", ["WebFetch(domain:api.*.com)"], "not_covered"),
    ("WebFetch(domain:example.*)", ["WebFetch(domain:example.com)"], "not_covered"),
    ("WebFetch(domain:*.io)", ["WebFetch(domain:docs.*.io)"], "not_covered"),
]

EVERY_HOST: list[Row] = [
    ("WebFetch", ["WebFetch"], "covered"),
    ("WebFetch", ["WebFetch(domain:*)"], "covered"),  # `domain:*` ≡ bare
    ("WebFetch(domain:*)", ["WebFetch"], "covered"),
    ("WebFetch(domain:*.com)", ["WebFetch(domain:*)"], "covered"),
    ("WebFetch(domain:example.com)", ["WebFetch()"], "covered"),
    ("WebFetch", ["WebFetch(domain:example.com)"], "not_covered"),
    ("WebFetch(domain:*)", ["WebFetch(domain:*.com)"], "not_covered"),
    ("WebFetch", ["WebFetch(domain:*.com)", "WebFetch(domain:*.net)"], "not_covered"),
]

OTHER_SPECIFIERS: list[Row] = [
    ("WebFetch(https://example.com/x)", ["WebFetch(domain:example.com)"], "unknown"),
    ("WebFetch(https://example.com/x)", ["WebFetch(https://example.com/x)"], "covered"),
    ("WebFetch(domain:a.com)", ["WebFetch(https://example.com)"], "unknown"),
    ("WebFetch(domain:exämple.com)", ["WebFetch(domain:*.com)"], "unknown"),
    ("WebFetch(domain:example.com:8080)", ["WebFetch(domain:example.com)"], "unknown"),
    ("WebFetch(domain:a..com)", ["WebFetch(domain:*.com)"], "unknown"),
    ("WebFetch(domain:**.com)", ["WebFetch(domain:*.com)"], "unknown"),
    ("WebFetch(Domain:example.com)", ["WebFetch(domain:example.com)"], "unknown"),
    ("WebFetch(domain:example.com:8080)", ["WebFetch"], "covered"),
]

TABLES = EXACT_HOSTS + SUBDOMAINS + ONE_LABEL_STAR + EVERY_HOST + OTHER_SPECIFIERS


@pytest.mark.parametrize(("entry", "approved", "expected"), TABLES,
                         ids=[f"{e} <= {' '.join(a)}" for e, a, _ in TABLES])
def test_table(entry: str, approved: list[str], expected: str) -> None:
    check(entry, approved, expected)


@pytest.mark.parametrize(("entry", "approved", "witness"), [
    ("WebFetch(domain:evil.com)", ["WebFetch(domain:example.com)"], "evil.com"),
    ("WebFetch(domain:example.com)", ["WebFetch(domain:*.example.com)"], "example.com"),
    ("WebFetch(domain:EVIL.com.)", ["WebFetch(domain:example.com)"], "evil.com"),
    ("WebFetch(domain:*.example.com)", ["WebFetch(domain:example.com)"], "evil.example.com"),
])
def test_witness(entry: str, approved: list[str], witness: str) -> None:
    assert prove(entry, approved).witness == witness


def test_every_host_names_a_stranger() -> None:
    verdict = prove("WebFetch", ["WebFetch(domain:docs.python.org)"])
    assert verdict.witness == "evil.example.com"
    assert "every host" in verdict.reason


def test_compiled_forms() -> None:
    assert web.compile_host("domain:*") == web.compile_host(None)
    assert web.compile_host("domain:EXAMPLE.com.") == web.compile_host("domain:example.com")
    assert isinstance(web.compile_host("https://example.com"), Undecided)


def test_every_host_is_the_named_top() -> None:
    # The bare grant, `domain:*` and `domain:**` compile to one object: every host.
    for content in (None, "domain:*", "domain:**"):
        assert web.compile_host(content) is web.EVERY_HOST
    assert web.compile_host("domain:*.com") is not web.EVERY_HOST


def test_the_budget_stops_a_decision() -> None:
    submitted = parse_grant("WebFetch(domain:*." + ".".join(["a*"] * 30) + ")")
    approved = [parse_grant("WebFetch(domain:*." + ".".join(["*a"] * 30) + ")")]
    with pytest.raises(OverBudget):
        web.decide(submitted, approved, Context(budget=Budget(limit=100)))
    assert web.decide(submitted, approved, Context()).status == "not_covered"
