"""Issue 27 (session 41): ``yamlspan.compose``'s shortcuts against what they stand in for.

* ``_Composer.resolve`` answers most scalars without trying the implicit resolvers' patterns:
  its nodes must carry the tags the same composer gives with PyYAML's own ``Resolver.resolve``
  (``LOADER`` as it is), on the oracle generator's frontmatters and on generated scalars.
  (PyYAML's pure-Python composer is no reference here: it differs from libyaml's on ``a: !``.)
* A text the parser rejects is reported from the first compose, without the event pass: the
  problem (message and offset) must be the one the event pass and a second compose report.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from test_flatyaml import _shape as _tags  # the nodes' tags, values, marks, styles

from skillgrant import limits
from skillgrant.skillfile import nesting, yamlspan
from skillgrant.skillfile.yamlspan import YamlProblem, compose

sys.path.insert(0, str(Path(__file__).parent / "oracle"))  # as tests/test_reread.py does
from frontmatter_gen import texts


def _stock(text: str) -> Any:
    try:
        return _tags(yaml.compose(text, Loader=yamlspan.LOADER))
    except yaml.YAMLError:
        return "error"


def _ours(text: str) -> Any:
    try:
        return _tags(yaml.compose(text, Loader=yamlspan._Composer))
    except yaml.YAMLError:
        return "error"


def _full_path(text: str) -> tuple[str, int | None] | None:
    """The problem ``compose`` reported for a rejected text before the shortcut: the event
    pass, then a compose with the loader as it is."""
    try:
        yamlspan._check_events(text)
        yaml.compose(text, Loader=yamlspan.LOADER)
    except yaml.YAMLError as e:
        problem = yamlspan._problem(e)
        return problem.message, problem.index
    except YamlProblem as e:
        return e.message, e.index
    return None


def _problem(text: str) -> tuple[str, int | None] | None:
    try:
        compose(text)
    except YamlProblem as e:
        return e.message, e.index
    return None


SCALARS = ["Read", "yes", "No", "on", "~", "null", "", "1", "-1", "0x1f", "1.5", ".inf", "=",
           "<<", "2024-01-01", "Tuesday", "true story", "12:30", "+x", "-", "Null x", "o"]


@pytest.mark.parametrize("value", SCALARS)
@pytest.mark.parametrize("form", ["a: {}\n", "{}: x\n", "- {}\n", "a: [{}]\n", "a: '{}'\n",
                                  'a: "{}"\n', "a: |\n  {}\n", "a: !!str {}\n"])
def test_tags_are_the_resolvers(value: str, form: str) -> None:
    text = form.format(value)
    assert _ours(text) == _stock(text)


def test_tags_on_generated_frontmatters() -> None:
    count = 0
    for text in texts(41, 3000):
        assert _ours(text) == _stock(text), text
        count += 1
    assert count == 3000


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "yes", "1", "n"]),
                          st.text(st.sampled_from("abyNn01.:-+~ x#'\"[]{}!&*<=tT"),
                                  max_size=6)), min_size=1, max_size=4))
def test_tags_on_generated_scalars(pairs: list[tuple[str, str]]) -> None:
    text = "".join(f"{key}: {value}\n" for key, value in pairs)
    assert _ours(text) == _stock(text)


def test_rejected_texts_report_the_full_paths_problem() -> None:
    rejected = 0
    for text in texts(41, 3000):
        if nesting.collections_at_most(text) > limits.MAX_NESTING_DEPTH:
            continue
        ours = _problem(text)
        if ours is not None:
            rejected += 1
            assert ours == _full_path(text), text
    assert rejected > 500  # the generator's texts are mostly rejected


@pytest.mark.parametrize("text", ["a: b\n---\nc: [\n", "a: *x\nb: [\n", "a: [\n", "a: b: c\n",
                                  "a: 'x\n", "- a\nb: c\n", "a: b\n...\n---\nc\n",
                                  # a '*' after where the parser stops (session 42), or before
                                  "argument-hint: [a] [b]\nallowed-tools: Bash(x:*)\n",
                                  "a: b: c\nd: *x\n", "a: [b\nc: *x\n", "a: 'x\nb: *y\n",
                                  "a: &x 1\nb: *x\nc: d: e\n", "a: *x\nb: c: d\n",
                                  "a: [*x, b: c: d]\n", "a: &x [1]\nb: [*x, ]]\n",
                                  "a: *x b: c\n", "a: b *c: d\n", "*x: y: z\n",
                                  "a:\n- *x\n- b: c: d\n",
                                  "a: !t *x\nb: c: d\n", "a: |\n x\n*b\nc: d: e\n"])
def test_rejected_forms(text: str) -> None:
    assert _problem(text) == _full_path(text)


def test_a_star_after_the_error_takes_the_first_compose() -> None:
    """The generator's rejected texts with a ``*`` only after where the parser stopped are
    reported from the first compose (the test above checks they report the same problem):
    the shortcut is taken, not only allowed."""
    taken = 0
    for text in texts(42, 3000):
        if "*" not in text or nesting.collections_at_most(text) > limits.MAX_NESTING_DEPTH:
            continue
        try:
            yaml.compose(text, Loader=yamlspan._Composer)
        except yaml.composer.ComposerError:
            continue
        except yaml.YAMLError as e:
            if "*" not in text[:yamlspan._stopped_at(e, len(text))]:
                taken += 1
                assert _problem(text) == _full_path(text), text
    assert taken > 50
