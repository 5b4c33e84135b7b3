"""Path patterns for ``Read`` and ``Edit`` (semantics §4.2): from specifier text to a compiled
``PathPattern``, and the union of members it denotes.

A path pattern has an *anchor* and a sequence of parts (see ``pathlang``):

===========  ==============  ==========================================================
anchor       written         base directory
===========  ==============  ==========================================================
``abs``      ``//etc/x``     the filesystem root
``home``     ``~/.zshrc``    ``base_dirs["home"]``
``root``     ``/src/**``     ``base_dirs["root"]`` (the settings / project root)
``cwd``      ``src/*.ts``    ``base_dirs["cwd"]``; a leading ``./`` is dropped, and a pattern
                             with no ``/`` matches at any depth (``.env`` is ``**/.env``)
===========  ==============  ==========================================================

``*`` matches within one part and ``**`` any number of parts, zero included, so a trailing
``/**`` also matches the directory itself (as a directory: ``P/**`` is ``P/*/**`` ∪ ``P/``, see
``members``); a trailing ``/`` restricts a pattern to directories. A pattern never matches its
own base directory, which the runtime is never asked about. Bare ``Read`` is every path
(``EVERY_PATH``, ``//**``), the top; an approved pattern outside the decided fragment covers
nothing by its language (``NO_PATHS``, the bottom), only an identical entry.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache

from ..grants import Grant
from ..records import NamedTuple
from .base import OutrightSide, Undecided, outright_side
from .pathlang import (
    ANY_PART,
    ANY_PARTS,
    AnyParts,
    FirstMatch,
    Items,
    Parts,
    collapse,
    literal,
    part_glob,
)

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final, Literal

    Anchor = Literal["abs", "home", "root", "cwd"]


_DRIVE = re.compile(r"[A-Za-z]:")
# Over-approximations used only when asking "might this approved pattern allow the witness?".
_LOOSE = re.compile(r"\\.|\\$|\?|\[[^/\]]*\]?|^\s+|\s+$")
# How each anchor is written, longest first: what is left is the pattern's parts.
_ANCHORS: Final[tuple[tuple[str, Anchor], ...]] = (("//", "abs"), ("~/", "home"), ("/", "root"))


class PathPattern(NamedTuple):
    """A compiled path pattern: anchor, items, and whether it matches directories only."""

    anchor: Anchor
    items: Items
    dir_only: bool = False


#: The top: every path, what a bare ``Read`` or ``Edit`` names.
EVERY_PATH: Final = PathPattern("abs", (ANY_PARTS,))
#: The bottom: the union of no members, what an undecided approved pattern covers.
NO_PATHS: Final[tuple[PathPattern, ...]] = ()


@lru_cache(maxsize=4096)
def compile_pattern(content: str | None, *, loose: bool = False) -> PathPattern | Undecided:
    """Compile a ``Read``/``Edit`` specifier (semantics §4.2); None (the bare grant) is
    ``EVERY_PATH``.

    ``loose`` reads the gitignore constructs the prover does not decide (``?``, ``[…]``,
    escapes, surrounding blanks) as ``*``: a pattern at least as wide as any reading of the
    original, for judging whether an approved pattern might allow a witness.

    >>> compile_pattern("src/*.ts").anchor, compile_pattern("~/.zshrc").anchor
    ('cwd', 'home')
    """
    if content is None:
        return EVERY_PATH
    screened = _screened(content, loose)
    if isinstance(screened, Undecided):
        return screened
    anchor, rest = _anchored(screened)
    return _compiled(anchor, rest)


def _screened(content: str, loose: bool) -> str | Undecided:
    """The content to compile (loosened when ``loose``), or why it is outside the fragment."""
    if "\n" in content or "\r" in content:
        # gitignore reads one pattern per line: `a\n**` would be two rules, one of them `**`.
        return Undecided("a line break splits a gitignore pattern into several")
    if loose:
        content = _LOOSE.sub("*", content)
    elif problem := _outside_fragment(content):
        return Undecided(problem)
    if "${" in content:
        return Undecided("it holds a placeholder, which the runtime may expand to any path")
    if (content.startswith("~") and not content.startswith("~/")) or _DRIVE.match(content):
        return Undecided("a leading '~' without '/' or a drive letter may name another base")
    return content


def _anchored(content: str) -> tuple[Anchor, str]:
    """The anchor a pattern is written with, and the rest of it."""
    for written, anchor in _ANCHORS:
        if content.startswith(written):
            return anchor, content[len(written):]
    return "cwd", content.removeprefix("./")


def _compiled(anchor: Anchor, rest: str) -> PathPattern | Undecided:
    dir_only = rest.endswith("/")
    rest = rest.removesuffix("/")
    parts = rest.split("/")
    if not rest or any(part in ("", ".", "..") for part in parts):
        return Undecided("it has an empty, '.' or '..' segment, or names only its base directory")
    if any(len(part) > 2 and part == "*" * len(part) for part in parts):
        return Undecided("a segment of three or more stars is '**' to git but '*' to other "
                         "gitignore matchers")
    items: Items = tuple(ANY_PARTS if part == "**" else part_glob(part) for part in parts)
    if anchor == "cwd" and len(parts) == 1:
        items = (ANY_PARTS, *items)
    return PathPattern(anchor, collapse(items), dir_only)


def _outside_fragment(content: str) -> str | None:
    if "?" in content or "[" in content:
        return "only '*' and '**' are decided in path patterns, and '?' or '[' is here"
    if "\\" in content:
        return "escapes read differently as grant syntax and as gitignore syntax"
    if content != content.strip():
        return "gitignore drops trailing blanks, so the pattern may not mean what it shows"
    if content[0] in "!#":
        return "a leading '!' or '#' is a negation or a comment in gitignore"
    return None


def members(pattern: PathPattern) -> tuple[PathPattern, ...]:
    """The union a pattern denotes. A trailing ``**`` that takes no part matches the directory
    itself (semantics §4.2), not a file of that name, so ``P/**`` is ``P/*/**`` ∪ ``P/``. No member
    matches the pattern's base directory itself: the runtime asks only about paths below it.

    >>> [str(len(m.items)) + ("/" if m.dir_only else "") for m in members(compile_pattern("a/**"))]
    ['3', '1/']
    """
    items = pattern.items
    if not items or not isinstance(items[-1], AnyParts):
        return (pattern,)
    head = items[:-1]
    below = pattern._replace(items=(*head, ANY_PART, ANY_PARTS))
    # The base directory itself is not a path the runtime is asked about: `**` is `*/**`.
    return (below, pattern._replace(items=head, dir_only=True)) if head else (below,)


def base_directories(raw: Mapping[str, str]) -> tuple[dict[str, Parts], list[str]]:
    """The usable base directories (``cwd``, ``home``, ``root``) as parts, and the problems
    with unusable ones. A base must be an absolute POSIX path; ``.`` and ``..`` are resolved."""
    bases: dict[str, Parts] = {}
    problems: list[str] = []
    for key in ("cwd", "home", "root"):
        value = raw.get(key)
        if value is None:
            continue
        if not isinstance(value, str) or not value.startswith("/") or "\\" in value:
            problems.append(f"base directory {key}={value!r} is not an absolute POSIX path")
            continue
        parts: list[str] = []
        for part in value.split("/"):
            if part == "..":
                if parts:
                    parts.pop()
            elif part not in ("", "."):
                parts.append(part)
        bases[key] = tuple(parts)
    return bases, problems


class MemberSide(NamedTuple):
    """Approved path grants compiled for concrete paths (``member``): what ``covered_outright``
    finds, and each decided member that is not for directories only, rooted at ``/`` (one whose
    base directory is not known is left out: it covers no absolute path), in order."""

    outright: OutrightSide
    rooted: FirstMatch


def member_side(approved: Sequence[Grant], indexes: Sequence[int],
                base_dirs: Mapping[str, str]) -> MemberSide:
    """The ``MemberSide`` of the approved grants at ``indexes`` under ``base_dirs``."""
    bases, _ = base_directories(base_dirs)
    rooted: list[tuple[int, Items]] = []
    for index in indexes:
        compiled = compile_pattern(approved[index].content)
        if not isinstance(compiled, PathPattern):
            continue  # outside the fragment: it covers only an identical content (outright)
        for each in members(compiled):
            base = () if each.anchor == "abs" else bases.get(each.anchor)
            if not each.dir_only and base is not None:
                rooted.append((index, (*map(literal, base), *each.items)))
    return MemberSide(outright_side(approved, indexes), FirstMatch(rooted, "/"))


def member(side: MemberSide, content: str) -> int | None:
    """The index of the approved grant that covers the absolute path ``content`` (written
    ``//a/b``), as ``path.decide`` names it for the submitted grant with that content: the
    first tool-wide or identical grant, else the first member matching it. The caller keeps
    ``content`` inside the fragment ``compile_pattern`` decides as a literal (no empty, ``.``
    or ``..`` part, no pattern syntax); ``//`` alone is covered outright only."""
    found = side.outright.get(content)
    if found is not None or content == "//":
        return found
    return side.rooted.first(content[1:])
