"""The value a JavaScript settings module exports, where its whole text is one literal
(issue 29, s57-sreview J10): ``module.exports = {…}``, ``export default {…}``, or ``const
config = {…};`` then ``module.exports = config;`` / ``export default config;`` (jest
--init's shape), after an optional ``'use strict'`` and comments. The literal holds only
JSON-like values: objects (keys plain names, strings), arrays, strings ('…', "…", a template
of no ``${`` nor ``\\``), numbers, ``true``, ``false``, ``null``, ``undefined``; trailing
commas. Anything else (a call, a name, a spread, a getter, ``__proto__`` or ``__esModule``
keys, a regular expression, an escape node reads otherwise, a surrogate left alone) makes
the text no literal: ``None``, and its reader fails closed (the settings are code)."""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

#: A token: blanks and comments (skipped), a name, a string, a template, a number, a mark.
_TOKEN: Final = re.compile(r"""
    (?P<skip>(?:[ \t\n\r\u2028\u2029]|//[^\n\r\u2028\u2029]*|/\*(?:[^*]|\*(?!/))*\*/)+)
  | (?P<name>[A-Za-z_$][A-Za-z0-9_$]*)
  | (?P<string>'(?:[^'\\\n\r]|\\(?:\r\n|[^\r]|\r))*'|"(?:[^"\\\n\r]|\\(?:\r\n|[^\r]|\r))*")
  | (?P<template>`[^`\\$\r]*`)
  | (?P<number>-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?![0-9A-Za-z_$.]))
  | (?P<mark>[{}\[\],:;=.])""", re.VERBOSE)
#: A string's escapes node reads as one character (``\\0`` only before no digit).
_ESCAPES: Final = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v"}
#: Names the exported binding may not take (the module wrapper's own).
_WRAPPER: Final = frozenset(("module", "exports", "require", "__dirname", "__filename",
                             "undefined", "null", "true", "false"))
#: Keys that change what the object is (its prototype; a default export jest takes).
_MOVING: Final = frozenset(("__proto__", "__esModule"))
#: Text bounded: a settings file beyond it is not read (code).
LIMIT: Final = 1 << 20


class _NoLiteral(Exception):
    """The text is no literal this module reads."""


def exported(text: str, typed: bool = False) -> object | None:
    """The value the module ``text`` exports where it is one literal (see the module's
    text); None where it is not. A ``typed`` (TypeScript) one may also hold type-only
    imports (``import type {Config} from 'jest';``: erased), a type after the bound name
    (``const config: Config = {…}``) and ``satisfies Config`` after a literal.

    >>> exported("module.exports = {testEnvironment: 'node', roots: ['<rootDir>/src',]};")
    {'testEnvironment': 'node', 'roots': ['<rootDir>/src']}
    """
    if len(text) > LIMIT:
        return None
    try:
        tokens = _tokens(text.removeprefix("\ufeff"))
        return _Module(tokens, typed).value()
    except _NoLiteral:
        return None


def exported_file(path: str) -> dict[str, object] | None:
    """The object the module at ``path`` exports where it is one literal (``exported``; a
    ``.ts``/``.cts``/``.mts`` one typed); None where it is not, or cannot be read."""
    from . import files as fs

    try:
        text = fs.read(path, LIMIT + 1).decode("utf-8")
    except (OSError, ValueError):  # (a byte no UTF-8 holds: not read)
        return None
    found = exported(text, "t" in path.rpartition(".")[2])
    return found if isinstance(found, dict) else None


def _tokens(text: str) -> list[tuple[str, str]]:
    """``text``'s tokens (kind, text), blanks and comments left out."""
    out, at = [], 0
    while at < len(text):
        found = _TOKEN.match(text, at)
        if found is None:
            raise _NoLiteral
        kind = found.lastgroup or ""
        if kind != "skip":
            out.append((kind, found.group()))
        at = found.end()
    return out


class _Module:
    """A reader of one module's tokens."""

    def __init__(self, tokens: list[tuple[str, str]], typed: bool) -> None:
        self.tokens = tokens
        self.at = 0
        self.typed = typed

    def value(self) -> object:
        """The exported literal (raises _NoLiteral)."""
        if self._peek() in (("string", "'use strict'"), ("string", '"use strict"')):
            self.at += 1
            self._end()
        while self.typed and self._peek() == ("name", "import"):
            self._type_import()
        bound: dict[str, object] = {}
        if self._peek() in (("name", "const"), ("name", "let"), ("name", "var")):
            self.at += 1
            kind, name = self._next()
            if kind != "name" or name in _WRAPPER:
                raise _NoLiteral
            if self.typed and self._peek() == ("mark", ":"):
                self.at += 1
                self._type()
            self._expect("=")
            bound[name] = self._typed_literal()
            self._end()
        if self._peek() == ("name", "export"):
            self.at += 1
            self._expect("default")
        else:
            for word in ("module", ".", "exports", "="):
                self._expect(word)
        if bound and self._peek() == ("name", next(iter(bound))):
            self.at += 1
            found = next(iter(bound.values()))
        else:
            found = self._typed_literal()
        self._end()
        if self.at != len(self.tokens) or not isinstance(found, dict):
            raise _NoLiteral
        return found

    def _type_import(self) -> None:
        """``import type {A, B} from '…';``: erased, no module loaded."""
        for word in ("import", "type", "{"):
            self._expect(word)
        while self._next()[0] == "name" and self._next()[1] == ",":
            pass
        self.at -= 1
        for word in ("}", "from"):
            self._expect(word)
        if self._next()[0] != "string":
            raise _NoLiteral
        self._end()

    def _type(self) -> None:
        """A type's name (``Config``, ``Config.InitialOptions``)."""
        while True:
            if self._next()[0] != "name":
                raise _NoLiteral
            if self._peek() != ("mark", "."):
                return
            self.at += 1

    def _typed_literal(self) -> object:
        """A literal, and a ``satisfies`` type after it in a typed module."""
        found = self._literal()
        if self.typed and self._peek() == ("name", "satisfies"):
            self.at += 1
            self._type()
        return found

    def _literal(self) -> object:
        kind, word = self._next()
        if word == "{":
            return self._object()
        if word == "[":
            return self._array()
        if kind == "string":
            return _string(word[1:-1])
        if kind == "template":
            return word[1:-1]
        if kind == "number":
            return float(word)
        if kind == "name" and word in ("true", "false", "null", "undefined"):
            return {"true": True, "false": False}.get(word)
        raise _NoLiteral

    def _object(self) -> dict[str, object]:
        found: dict[str, object] = {}
        while self._peek() != ("mark", "}"):
            kind, word = self._next()
            key = _string(word[1:-1]) if kind == "string" else word if kind == "name" else None
            if key is None or key in _MOVING:
                raise _NoLiteral
            self._expect(":")
            found[key] = self._literal()
            if self._peek() != ("mark", "}"):
                self._expect(",")
        self.at += 1
        return found

    def _array(self) -> list[object]:
        found = []
        while self._peek() != ("mark", "]"):
            found.append(self._literal())
            if self._peek() != ("mark", "]"):
                self._expect(",")
        self.at += 1
        return found

    def _end(self) -> None:
        """A statement's end: ``;``s or none (a new line, the text's end)."""
        while self._peek() == ("mark", ";"):
            self.at += 1

    def _peek(self) -> tuple[str, str] | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def _next(self) -> tuple[str, str]:
        if self.at >= len(self.tokens):
            raise _NoLiteral
        self.at += 1
        return self.tokens[self.at - 1]

    def _expect(self, word: str) -> None:
        if self._next()[1] != word:
            raise _NoLiteral


def _string(body: str) -> str:
    """A string literal's ``body`` as node reads it (raises _NoLiteral where an escape is
    one this module does not read: an octal or ``\\8``, a lone surrogate)."""
    out, at = [], 0
    while at < len(body):
        c = body[at]
        if c != "\\":
            out.append(c)
            at += 1
            continue
        e = body[at + 1]
        at += 2
        if e in _ESCAPES:
            out.append(_ESCAPES[e])
        elif e == "0" and not body[at:at + 1].isdigit():
            out.append("\0")
        elif e in "xu":
            point, at = _hexed(e, body, at)
            out.append(point)
        elif e in "\r\n\u2028\u2029":  # (a line continuation: nothing)
            at += e == "\r" and body[at:at + 1] == "\n"
        elif e.isascii() and (e.isalnum() or e == "_"):
            raise _NoLiteral  # (octal, \8, \9: not read)
        else:
            out.append(e)
    try:
        return "".join(out).encode("utf-16", "surrogatepass").decode("utf-16")
    except UnicodeError as e:  # (a lone surrogate)
        raise _NoLiteral from e


def _hexed(e: str, body: str, at: int) -> tuple[str, int]:
    """The character ``\\x``/``\\u`` (``e``) gives from ``body[at:]``, and where it ends
    (raises _NoLiteral where its digits are not read)."""
    hexed = re.compile(r"[0-9A-Fa-f]{2}" if e == "x" else
                       r"[0-9A-Fa-f]{4}|\{[0-9A-Fa-f]{1,6}\}").match(body, at)
    point = int(hexed.group().strip("{}"), 16) if hexed is not None else -1
    if not 0 <= point <= 0x10FFFF or hexed is None:
        raise _NoLiteral
    return chr(point), hexed.end()
