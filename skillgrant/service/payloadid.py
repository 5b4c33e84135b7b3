"""The session ids a hook payload names, read from its first bytes without parsing it whole
(review s51-greview3 G1).

A registration must precede a session's first call (registry.py): the service notes each id
whose call it decides. A call it denies before it reads the payload (a body over a limit, one
that does not arrive in time, an unknown plan, a header problem, a payload ``json`` cannot
read: nested too deep) must note its id too, or another session holding the token could
register the id afterwards. Both runtimes write the id as their payload's first member
(Claude Code's ``session_id``, Copilot CLI's ``sessionId``: docs/runtime-conformance.md), so
it is read from the payload's first ``SCAN_BYTES``.

The reading is exact: for a prefix of a JSON text, it gives the string value of every member
``session_id`` or ``sessionId`` of the top-level object whose value and the ``,`` or ``}``
after it lie within the prefix, each decoded by ``json`` itself, and stops at the first member
that does not, or at anything that is not JSON. Nothing is read inside another value, and
nothing is recursed into (a value is skipped by counting its brackets outside its strings).
Where no id is read, none is noted: nothing a runtime sends is then that session's call.
"""

from __future__ import annotations

import json
import re

#: Bytes of a payload read for its ids at most (the work on the event loop is linear in them).
SCAN_BYTES = 16_384
#: The members naming the session (Claude Code's, Copilot CLI's).
NAMES = frozenset(("session_id", "sessionId"))

_SPACE = re.compile(rb"[ \t\n\r]*")
_STRING = re.compile(rb'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')
_SCALAR = re.compile(rb"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null")
_BRACKET = re.compile(rb'["\[\]{}]')


def session_ids(data: bytes) -> tuple[str, ...]:
    """The string values of the top-level members ``session_id`` and ``sessionId`` of the
    JSON object ``data`` begins with, in order, read within its first ``SCAN_BYTES`` (see
    the module's text)."""
    data = data[:SCAN_BYTES]
    at = _after_space(data, 0)
    if data[at:at + 1] != b"{":
        return ()
    found: list[str] = []
    at += 1
    while True:
        key = _STRING.match(data, _after_space(data, at))
        if key is None:
            break
        at = _after_space(data, key.end())
        if data[at:at + 1] != b":":
            break
        start = _after_space(data, at + 1)
        end = _value_end(data, start)
        if end is None:
            break
        at = _after_space(data, end)
        if data[at:at + 1] not in (b",", b"}"):
            break  # (a number cut at the prefix's end is not read as a shorter one)
        try:  # (only a string is decoded: nothing is recursed into)
            if json.loads(key.group()) in NAMES and data[start:start + 1] == b'"':
                found.append(json.loads(data[start:end]))
        except ValueError:  # (bytes that are not UTF-8)
            break
        if data[at:at + 1] != b",":
            break
        at += 1
    return tuple(found)


def _after_space(data: bytes, at: int) -> int:
    match = _SPACE.match(data, at)
    return at if match is None else match.end()


def _value_end(data: bytes, at: int) -> int | None:
    """Where the JSON value at ``at`` ends in ``data``, or None (it does not end there, or is
    not a value). An object or an array is skipped by counting its brackets outside its
    strings, never recursing."""
    first = data[at:at + 1]
    if first == b'"':
        string = _STRING.match(data, at)
        return None if string is None else string.end()
    if first not in (b"{", b"["):
        scalar = _SCALAR.match(data, at)
        return None if scalar is None else scalar.end()
    depth = 0
    while True:
        bracket = _BRACKET.search(data, at)
        if bracket is None:
            return None
        mark = bracket.group()
        if mark == b'"':
            string = _STRING.match(data, bracket.start())
            if string is None:
                return None
            at = string.end()
            continue
        depth += 1 if mark in (b"{", b"[") else -1
        at = bracket.end()
        if depth == 0:
            return at
