"""Session 52's batch steps against what they stand in for: each answers as the code it
replaced (a regular expression, a generator) on tables and generated text."""

from __future__ import annotations

import pytest
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant.skillfile import yamlapart

_SIGNS = ["", "a: b", "[*", "[ \t\r\n&", "x: !t", "a,\n  ?", "{b}*", "a *b", "a:*", "x:\n*",
          "*", "?:", " &", "a-*", ",,x!", "[a b]", "Bash(git *)", "- &a", ":\t\t?"]


@pytest.mark.parametrize("text", _SIGNS)
def test_the_flow_sign_is_the_regexs(text: str) -> None:
    assert yamlapart._flow_sign(text) == (yamlapart._FLOW_SIGN.search(text) is not None)


@settings(max_examples=examples(3000))
@given(st.text(alphabet=list("[]{},:?!&*- \t\r\nab#'\""), max_size=30))
def test_the_flow_sign_is_the_regexs_on_generated_text(text: str) -> None:
    assert yamlapart._flow_sign(text) == (yamlapart._FLOW_SIGN.search(text) is not None)


@settings(max_examples=examples(2000))
@given(st.text(alphabet=list("0123456789.+-_:eExXoObB~nNuUlLtTrRfFaAsSyY .,*()!&"), min_size=1,
               max_size=12))
def test_a_plain_scalars_tag_is_the_resolvers(plain: str) -> None:
    from collections.abc import Callable

    import yaml
    from yaml.nodes import ScalarNode

    from skillgrant.skillfile.flatyaml import plain_tag

    # (Resolver.resolve is untyped in types-PyYAML)
    resolve: Callable[[type, str, tuple[bool, bool]], str] = yaml.resolver.Resolver().resolve
    assert plain_tag(plain) == resolve(ScalarNode, plain, (True, False))
