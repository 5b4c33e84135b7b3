"""``records.NamedTuple`` against ``typing.NamedTuple``, the reference it stands in for in a
hook's process: the same class bodies make classes that behave alike, and refuse alike."""

from __future__ import annotations

import functools
import pickle
import sys
import typing
from collections.abc import Callable
from typing import Any

import pytest

from skillgrant import records

#: Class bodies as the package writes them: fields, defaults, a docstring, methods, a
#: property, a class attribute, a nested class's qualified name.
BODIES = [
    "a: int\nb: str\n",
    '"""A record."""\na: int\nb: str = "x"\nc: tuple[int, ...] = ()\n',
    "a: int\ndef twice(self) -> int:\n    return 2 * self.a\n"
    "@property\ndef half(self) -> float:\n    return self.a / 2\nLIMIT = 3\n",
    "",
]
BAD_BODIES = [
    ("a: int = 1\nb: str\n", TypeError),
    ("a: int\ndef _replace(self):\n    return self\n", AttributeError),
    ("a: int\n_fields = ()\n", AttributeError),
]


def _made(base: object, body: str, name: str = "R") -> Any:  # a class exec made: any fields
    namespace: dict[str, object] = {"NamedTuple": base, "__name__": __name__}
    exec(f"from __future__ import annotations\nclass {name}(NamedTuple):\n"
         + "".join(f"    {line}\n" for line in (body or "pass").splitlines()), namespace)
    made = namespace[name]
    assert isinstance(made, type)
    return made


@pytest.mark.parametrize("body", BODIES)
def test_the_same_body_makes_the_same_record(body: str) -> None:
    ours, theirs = _made(records.NamedTuple, body), _made(typing.NamedTuple, body)
    assert ours.__mro__[1:] == theirs.__mro__[1:] == (tuple, object)
    for attribute in ("_fields", "_field_defaults", "__doc__", "__module__", "__qualname__",
                      "__name__", "__match_args__"):
        assert getattr(ours, attribute) == getattr(theirs, attribute), attribute
    # typing's class statement keeps the bases as written (``__orig_bases__``), and reads
    # each annotation as a type: ours keeps the strings (nothing here reads either).
    assert set(vars(ours)) == set(vars(theirs)) - {"__orig_bases__"}
    assert list(ours.__annotations__) == list(theirs.__annotations__)
    values = [7, "y", (1,)][:len(ours._fields)]
    mine, reference = ours(*values), theirs(*values)
    assert tuple(mine) == tuple(reference) and repr(mine)[1:] == repr(reference)[1:]
    assert mine._asdict() == reference._asdict()
    assert mine._replace() == mine and hash(mine) == hash(reference)
    for name in ("twice", "half", "LIMIT"):
        got, expected = getattr(mine, name, None), getattr(reference, name, None)
        if callable(expected):
            got, expected = got(), expected()  # type: ignore[misc]
        assert got == expected, name


@pytest.mark.parametrize(("body", "error"), BAD_BODIES)
def test_a_body_typing_refuses_is_refused(body: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        _made(typing.NamedTuple, body)
    with pytest.raises(error):
        _made(records.NamedTuple, body)


def test_a_record_pickles_by_its_module_and_name() -> None:
    """A record crosses ``--jobs`` worker processes: it is found again by module and name."""
    from skillgrant.verdicts import Verdict

    verdict = Verdict("Read", "covered", "Read", None, None)
    assert pickle.loads(pickle.dumps(verdict)) == verdict
    assert Verdict.__module__ == "skillgrant.verdicts"
    assert sys.modules[Verdict.__module__].Verdict is Verdict


@pytest.mark.parametrize("count", [0, 1, 2, 5, 10, 11, 13])
@pytest.mark.parametrize("given", [0, 1, 2])
def test_a_record_is_made_as_namedtuple_makes_it(count: int, given: int) -> None:
    """``records._record`` (``__new__``'s code compiled once a number of fields, renamed)
    against ``collections.namedtuple`` itself: every attribute, the signature, the errors (the
    methods but ``__new__`` name the module they are written in)."""
    import collections
    import inspect

    fields = tuple(f"f{i}" for i in range(count))
    defaults = tuple(range(min(given, count)))
    ours = records._record("R", fields, defaults, __name__)  # type: ignore[attr-defined]
    namedtuple: Callable[..., Any] = collections.namedtuple  # (fields mypy cannot read)
    theirs = namedtuple("R", fields, defaults=defaults, module=__name__)
    assert set(vars(ours)) == set(vars(theirs))
    for key, value in vars(theirs).items():
        mine = vars(ours)[key]
        if isinstance(value, (classmethod, staticmethod)):
            value, mine = value.__func__, mine.__func__
        if callable(value) and not isinstance(value, type):
            for attribute in ("__name__", "__qualname__", "__doc__", "__defaults__",
                              "__kwdefaults__", *(("__module__",) if key == "__new__" else ())):
                assert getattr(mine, attribute) == getattr(value, attribute), (key, attribute)
        elif not hasattr(value, "__get__"):
            assert mine == value, key
    assert inspect.signature(ours) == inspect.signature(theirs)
    assert inspect.signature(ours.__new__) == inspect.signature(theirs.__new__)
    values = list(range(100, 100 + count))
    mine, reference = ours(*values), theirs(*values)
    assert tuple(mine) == tuple(reference) and repr(mine) == repr(reference)
    assert mine._asdict() == reference._asdict()
    assert mine.__getnewargs__() == reference.__getnewargs__() == tuple(values)
    assert [getattr(mine, f) for f in fields] == values
    assert ours(**dict(zip(fields, values, strict=True))) == mine
    calls = [(), (*values, 1), tuple(values[:max(0, count - given - 1)])]
    for args in calls:
        assert _error(functools.partial(ours, *args)) == _error(functools.partial(theirs, *args))
    assert _error(lambda: ours(*values, nope=1)) == _error(lambda: theirs(*values, nope=1))
    assert _error(lambda: ours._make(values[1:])) == _error(lambda: theirs._make(values[1:]))
    assert _error(lambda: mine._replace(nope=1)) == _error(lambda: reference._replace(nope=1))


def _error(call: typing.Callable[[], object]) -> str:
    try:
        call()
    except (TypeError, ValueError) as e:
        return f"{type(e).__name__}: {e}"
    return "no error"


def test_a_name_namedtuple_refuses_is_refused_by_it() -> None:
    for fields in (("a", "a"), ("_a",), ("class",), ("a b",)):
        with pytest.raises(ValueError):
            records._record("R", fields, (), __name__)  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        records._record("class", ("a",), (), __name__)  # type: ignore[attr-defined]
