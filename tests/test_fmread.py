"""The metadata ``fmread`` builds from the reader's nodes against PyYAML's own load of the text
(parsed again: the reference), value for value and type for type, on tables and generated
documents of strings, booleans, nulls, numbers, lists and nested mappings."""

from __future__ import annotations

import math

import pytest
import yaml
from examples import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from skillgrant.skillfile import fmread
from skillgrant.skillfile.yamlspan import LOADER, YamlProblem, compose


def _typed(value: object) -> object:
    """``value`` with each scalar's type beside it (``True == 1`` must not pass), NaN as a
    string (NaN is no value's equal)."""
    if isinstance(value, dict):
        return [(k, _typed(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_typed(v) for v in value]
    if isinstance(value, float) and math.isnan(value):
        return ("float", "nan")
    return (type(value).__name__, value)


def _both(text: str) -> tuple[object, object] | None:
    try:
        root = compose(text)
    except YamlProblem:
        return None
    try:
        reference = yaml.load(text, Loader=LOADER)
    except Exception as error:
        reference = type(error)
    try:
        ours: object = fmread.metadata(root)
    except Exception as error:
        ours = type(error)
    if not isinstance(reference, (dict, type)):
        reference = {}
    return _typed(ours), _typed(reference)


TABLE = [
    "a: true\nb: no\nc: ~\nd: 017\ne: 0x1F\nf: 1_000\ng: 1:30\nh: .inf\ni: .nan\nj: -1.5e3\n",
    "config:\n  X:\n    description: d\n    default: '~/x'\n  Y: [1, on, null]\n",
    "a: {b: {c: [d, {e: f}]}}\n", "a: b\na: c\n", "a:\n  b: 1\n  b: 2\n", "a: 2001-12-14\n",
    "a: !!binary aGk=\n", "a: {1: x}\n", "a: [x, {=: y}]\n", "? [a]\n: b\n", "a: |\n  x\n",
    "user-invocable: true\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks: []\n",
]


@pytest.mark.parametrize("text", TABLE)
def test_the_metadata_is_pyyamls_load(text: str) -> None:
    both = _both(text)
    assert both is not None
    assert both[0] == both[1]


_SCALAR = st.sampled_from(["x", "true", "No", "ON", "~", "null", "", "0", "017", "0o17", "0x1f",
                           "0b11", "1_0", "1:30", "1.5", ".inf", "-.Inf", ".NaN", "1e3",
                           "'1'", '"true"', "2001-12-14", "=", "<<"])
_KEY = st.sampled_from(["a", "b", "user-invocable", "1", "true", "~", "'q'", "="])


@st.composite
def _node(draw: st.DrawFn, depth: int = 0) -> str:
    kind = draw(st.sampled_from(["scalar", "flow-list", "flow-map"] if depth < 2
                                else ["scalar"]))
    if kind == "scalar":
        return draw(_SCALAR)
    items = draw(st.lists(_node(depth + 1), max_size=3))
    if kind == "flow-list":
        return "[" + ", ".join(items) + "]"
    keys = draw(st.lists(_KEY, min_size=len(items), max_size=len(items)))
    return "{" + ", ".join(f"{k}: {v}" for k, v in zip(keys, items, strict=True)) + "}"


@settings(max_examples=examples(3000), deadline=None)
@given(st.lists(st.tuples(_KEY, _node()), min_size=1, max_size=4))
def test_the_metadata_is_pyyamls_load_on_generated_documents(
        pairs: list[tuple[str, str]]) -> None:
    text = "".join(f"{key}: {value}\n" for key, value in pairs)
    both = _both(text)
    if both is not None:
        assert both[0] == both[1], text


@pytest.mark.parametrize("text", [
    "a:\n  - !!int x\nb: !!float y\nallowed-tools: Read\n",
    "allowed-tools: Read\nm:\n  k: !!int 0xZZ\n  j: !!bool maybe\nz: !!float nope\n",
])
def test_a_value_that_cannot_be_made_fails_as_safeconstructor_fails(text: str) -> None:
    """Review B-2: the first value SafeConstructor fails on is the one named."""
    root = compose(text)
    with pytest.raises(Exception) as ours:
        fmread.metadata(root)
    with pytest.raises(Exception) as reference:
        yaml.load(text, Loader=LOADER)
    assert (type(ours.value), str(ours.value)) == (type(reference.value),
                                                   str(reference.value))
