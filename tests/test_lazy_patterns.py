"""``lazy.compile_on_use``: nothing is compiled until the pattern is used, and then it answers
as ``re.compile``'s pattern does."""

from __future__ import annotations

import re
from typing import Any

import pytest

from skillgrant.lazy import compile_on_use


def test_nothing_is_compiled_before_the_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[object] = []
    real = re.compile

    def counted(*a: Any) -> re.Pattern[str]:
        compiled.append(a)
        return real(*a)

    monkeypatch.setattr(re, "compile", counted)
    pattern = compile_on_use(r"(a+)(b)?", re.IGNORECASE)
    assert compiled == []
    assert pattern.fullmatch("AAb") is not None
    assert compiled == [(r"(a+)(b)?", re.IGNORECASE)]
    pattern.search("xa")
    pattern.sub("-", "aab")
    assert len(compiled) == 1  # compiled once; the methods are its own from then on


@pytest.mark.parametrize("text", ["", "aab", "xAAbyab", "b", "a\nab"])
def test_it_answers_as_the_compiled_pattern(text: str) -> None:
    ours, theirs = compile_on_use(r"(a+)(b)?", re.IGNORECASE), re.compile(r"(a+)(b)?", re.I)
    for method in ("match", "fullmatch", "search"):
        found, expected = getattr(ours, method)(text), getattr(theirs, method)(text)
        assert (found and found.groups()) == (expected and expected.groups()), method
    assert ours.findall(text) == theirs.findall(text)
    assert [m.span() for m in ours.finditer(text)] == [m.span() for m in theirs.finditer(text)]
    assert ours.split(text) == theirs.split(text)
    assert ours.sub("-", text) == theirs.sub("-", text)
    assert ours.subn("-", text) == theirs.subn("-", text)
    assert (ours.pattern, ours.flags, ours.groups) == (theirs.pattern, theirs.flags,
                                                       theirs.groups)


def test_a_bytes_pattern_too() -> None:
    pattern = compile_on_use(rb"(?im)^url\s*=\s*(.*?)\s*$")
    assert pattern.findall(b"[remote]\nURL = x \n") == [b"x"]


def test_a_pattern_that_cannot_compile_raises_where_it_is_used() -> None:
    pattern = compile_on_use(r"(")
    with pytest.raises(re.error):
        pattern.search("x")
