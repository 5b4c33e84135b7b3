"""The module ``python -m MODULE`` runs, read as CPython reads its command line (session 47):
``runsby`` judges ``python -m mypy --python-executable ./e.sh`` by mypy's rule, as it judges
``mypy --python-executable ./e.sh`` (review s46 M1).

CPython's options (``Python/getopt.c``): short ones clustered (``-Im mypy``, ``-Imypy``), of
which ``-c``, ``-m``, ``-W`` and ``-X`` take a value, attached or the next word; ``-c`` and
``-m`` end the options; a word not starting with ``-``, ``-`` (stdin) or ``--`` ends them
too (a script follows); the long options take no value but ``--check-hash-based-pycs``."""

from __future__ import annotations

from collections.abc import Container

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: The short options that take a value.
_VALUED: Final = frozenset("cmWX")


def module_run(values: list[str | None],
               among: Container[str] | None = None) -> tuple[str, int] | None:
    """The module an interpreter given the words ``values`` (after its name; None for a
    pattern) runs, and the index of the word after it; None when it runs no module, or one
    the words do not name literally (a pattern). With ``among``: its top package, and None
    unless ``among`` holds it."""
    at = 0
    while at < len(values):
        value = values[at]
        at += 1
        if value is None or value[:1] != "-" or value in ("-", "--"):
            return None  # a script, stdin, a pattern: no module named here
        if value[:2] == "--":
            at += value == "--check-hash-based-pycs"
            continue
        flag = next((k for k in range(1, len(value)) if value[k] in _VALUED), 0)
        if not flag:
            continue
        attached = value[flag + 1:]
        if value[flag] == "c":
            return None
        if value[flag] == "m":
            module = attached or (values[at] if at < len(values) else None)
            top = module.split(".", 1)[0] if module and among is not None else module
            return None if not top or (among is not None and top not in among) else (
                top, at + (not attached))
        at += not attached  # (-W's, -X's value)
    return None
