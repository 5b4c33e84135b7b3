"""Paths for ``Read`` and ``Edit`` (semantics §4.2).

Patterns are compiled in ``pathpattern`` (anchors, members, the top ``EVERY_PATH``); this
module decides inclusion and finds witnesses.

Inclusion is decided without the runtime's extension of a matched directory to its subtree
(semantics §4.2: the extension is monotone, so this is sound). Two patterns are compared in the
frame of their common anchor, or as absolute patterns when the plan's base directories resolve
both. A submitted pattern whose base is unknown is still covered when it is covered wherever
its base directory is (``~/.zshrc`` under ``//**``). A witness is reported only when it is
certain under the runtime as it may be: no approved pattern matches it or one of its ancestor
directories (the extension), even ignoring letter case, whatever the unknown base directories
are; otherwise the verdict is ``unknown``, never a doubtful witness.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence

from ..grants import Grant
from ..records import NamedTuple
from .base import Budget, Context, Outcome, Undecided, covered_or_compiled
from .pathlang import ANY_PARTS, Items, Parts, collapse, cover, literal, prefix_matches, scan
from .pathpattern import (
    EVERY_PATH,
    NO_PATHS,
    PathPattern,
    base_directories,
    members,
)
from .pathpattern import compile_pattern as compile_pattern

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Final

    from .pathpattern import Anchor

_WRITTEN: Final[dict[Anchor, str]] = {"abs": "//", "home": "~/", "root": "/", "cwd": ""}
_KIND: Final[dict[Anchor, str]] = {
    "abs": "an absolute",
    "home": "a home-relative",
    "root": "a project-root-relative",
    "cwd": "a cwd-relative",
}
_BASE_NAME: Final[dict[Anchor, str]] = {
    "abs": "filesystem root",
    "home": "home directory",
    "root": "project root",
    "cwd": "current directory",
}
# Stand-ins for a plan's base-dirs values in a reason that asks for them.
_EXAMPLE_BASE: Final[dict[str, str]] = {"cwd": "/path/to/project", "home": "/home/you",
                                        "root": "/path/to/project"}
# Tried first as the witness against every path: paths a reader recognises as sensitive.
_TELLING: Final = (("etc", "shadow"), ("root", ".ssh", "id_rsa"))
# How many uncovered instances are tried before the verdict settles for ``unknown``.
MAX_WITNESS_CANDIDATES: Final = 16


def relevant(submitted: Grant, other: Grant, shell_tools: frozenset[str]) -> bool:
    """Read and Edit grants are both relevant to either tool: ``Edit(p)`` grants Read of ``p``
    too (so a submitted ``Edit(p)`` must have its read side covered as well), and ``decide``
    sorts out which approved grant grants which side."""
    del submitted, shell_tools
    return other.key in ("Read", "Edit")


def decide(submitted: Grant, approved: Sequence[Grant], context: Context) -> Outcome:
    """Decide a ``Read``/``Edit`` grant against the approved ``Read`` and ``Edit`` grants.

    Two capabilities are at stake (measured on Claude Code 2.1.332): editing, granted by
    ``Edit`` grants only, and reading, granted by ``Read`` grants and by ``Edit(p)`` with a
    path (a tool-wide ``Edit`` never lets Read open a file outside the working directory). A
    submitted ``Read(p)`` needs its reading covered; a submitted ``Edit(p)`` needs both, since
    it grants both; a submitted tool-wide ``Edit`` grants editing only.
    """
    edits = [i for i, grant in enumerate(approved) if grant.key == "Edit"]
    reads = [i for i, grant in enumerate(approved)
             if grant.key == "Read" or (grant.key == "Edit" and not grant.is_tool_wide)]
    if submitted.key == "Read":
        return _read(submitted, approved, reads, context)
    edit_side = _on(edits, submitted, approved, context)
    if edit_side.status != "covered" or submitted.is_tool_wide:
        return edit_side
    read_side = _on(reads, Grant(tool="Read", key="Read", content=submitted.content), approved,
                    context)
    if read_side.status == "covered":
        return edit_side
    witness = read_side.witness
    if read_side.status == "not_covered" and witness is not None and witness.startswith("//"):
        return Outcome("not_covered", "it also lets Read open the paths it names, and no "
                       f"approved grant lets Read open {witness!r}", witness=witness)
    # A read inside the working directory is allowed without any grant, so a path that may lie
    # there is no certain witness.
    return Outcome("unknown", "it also lets Read open the paths it names, and the plan's "
                   f"grants do not cover that ({read_side.reason})")


def _read(submitted: Grant, approved: Sequence[Grant], reads: Sequence[int],
          context: Context) -> Outcome:
    """A submitted ``Read``: covered by approved ``Read`` grants only. The Read an ``Edit(p)``
    rule implies does not reach the files the runtime protects (shell start-up files,
    ``.gitconfig``, ``~/.claude/``…: measured on 2.1.332, review of issue 28), which a
    ``Read`` rule opens; so an Edit rule covers no Read entry. A witness must escape the Edit
    rules' reading too, or it is no certain witness. (A profile whose Edit rules' Read reaches
    what Read does, and the plan's own vocabulary (the call gate), let them cover.)"""
    if getattr(context.profile, "edit_read_covers_read", True):
        return _on(reads, submitted, approved, context)
    own = [i for i in reads if approved[i].key == "Read"]
    outcome = _on(own, submitted, approved, context)
    if outcome.status == "covered" or len(own) == len(reads):
        return outcome
    wider = _on(reads, submitted, approved, context)
    if wider.status != "covered":
        return wider
    return Outcome("unknown", "not decided: only an approved Edit(…) rule reaches these paths, "
                   "and the Read it implies does not reach the files the runtime protects "
                   "(shell start-up files, .gitconfig, ~/.claude/…), which a Read rule opens")


def _on(indexes: Sequence[int], submitted: Grant, approved: Sequence[Grant],
        context: Context) -> Outcome:
    """``_decide`` against the approved grants at ``indexes``; its indexes mapped back."""
    outcome = _decide(submitted, [approved[i] for i in indexes], context)
    if outcome.covered_by is None:
        return outcome
    return Outcome(outcome.status, outcome.reason, covered_by=indexes[outcome.covered_by],
                   witness=outcome.witness, also=tuple(indexes[i] for i in outcome.also))


def _decide(submitted: Grant, approved: Sequence[Grant], context: Context) -> Outcome:
    pattern = covered_or_compiled(submitted, approved, compile_pattern, every="every path",
                                  same="the same path pattern is approved", specifier="pattern")
    if isinstance(pattern, Outcome):
        return pattern
    bases, problems = base_directories(context.base_dirs)
    return _Judge(pattern, approved, bases, problems, context.budget).run()


class _Approved(NamedTuple):
    """An approved grant as the judge uses it: its members when decided (``NO_PATHS`` when it
    is outside the fragment), and a loose reading (at least as wide) for judging witnesses."""

    grant: Grant
    decided: tuple[PathPattern, ...]
    loose: tuple[PathPattern, ...] | Undecided
    undecided: str | None

    @classmethod
    def of(cls, grant: Grant) -> _Approved:
        compiled = compile_pattern(grant.content)
        if isinstance(compiled, PathPattern):
            return cls(grant, members(compiled), members(compiled), None)
        loose = compile_pattern(grant.content, loose=True)
        return cls(grant, NO_PATHS, members(loose) if isinstance(loose, PathPattern) else loose,
                   compiled.reason)


class _Judge:
    """One decision: the submitted pattern in its frame, the approved ones, the budget.

    The frame is where patterns are compared: absolute when the submitted pattern's base is
    known (or it is absolute), else the submitted pattern's own anchor.
    """

    def __init__(
        self,
        pattern: PathPattern,
        approved: Sequence[Grant],
        bases: Mapping[str, Parts],
        problems: Sequence[str],
        budget: Budget,
    ) -> None:
        self.pattern = pattern
        self.bases = bases
        self.problems = problems
        self.budget = budget
        self.approved = [_Approved.of(grant) for grant in approved]
        self.has_dir_only = any(wide.dir_only for entry in self.approved
                                if not isinstance(entry.loose, Undecided) for wide in entry.loose)
        self.incomparable: set[str] = set()
        resolved = pattern.anchor == "abs" or pattern.anchor in bases
        self.frame: Anchor = "abs" if resolved else pattern.anchor

    def absolute(self, pattern: PathPattern) -> Items | None:
        """The pattern rooted at ``/``, or None when its base directory is unknown."""
        if pattern.anchor == "abs":
            return pattern.items
        base = self.bases.get(pattern.anchor)
        return None if base is None else (*map(literal, base), *pattern.items)

    def in_frame(self, pattern: PathPattern) -> Items | None:
        if self.frame == "abs":
            return self.absolute(pattern)
        return pattern.items if pattern.anchor == self.frame else None

    def coverers(self, member: PathPattern, rooted: bool) -> list[tuple[int, Items]]:
        """The approved members that can cover ``member``: in the frame, or rooted at ``/``."""
        found: list[tuple[int, Items]] = []
        for index, entry in enumerate(self.approved):
            for wide in entry.decided:
                if wide.dir_only and not member.dir_only:
                    continue
                items = self.absolute(wide) if rooted else self.in_frame(wide)
                if items is not None:
                    found.append((index, items))
        return found

    def run(self) -> Outcome:
        used: list[int] = []
        anywhere = False
        for member in members(self.pattern):
            items = self.in_frame(member)
            assert items is not None  # the frame is the submitted pattern's
            found = cover(items, self.coverers(member, rooted=False), self.budget)
            if found is None and self.frame != "abs":
                # For every possible base B: B/L(p) ⊆ L(a) for all B iff L(**/p) ⊆ L(a).
                everywhere = collapse((ANY_PARTS, *member.items))
                found = cover(everywhere, self.coverers(member, rooted=True), self.budget)
                anywhere = anywhere or found is not None
            if found is None:
                return self.refute()
            used.extend((found[0], *found[1]))
        first, *rest = dict.fromkeys(used)
        together = " (several of them together)" if rest else ""
        where = f", wherever the {_BASE_NAME[self.pattern.anchor]} is" if anywhere else ""
        return Outcome("covered", f"every path it allows is allowed by an approved "
                       f"grant{together}{where}", covered_by=first, also=tuple(rest))

    def candidates(self) -> Iterator[tuple[Parts, bool]]:
        """Paths the submitted pattern allows and no approved member matches as written, each
        with whether it is a directory: files first, readable shapes first."""
        for member in members(self.pattern):
            if self.pattern is EVERY_PATH and not member.dir_only:
                yield from ((parts, False) for parts in _TELLING)
            items = self.in_frame(member)
            assert items is not None
            for parts, index in scan(items, self.coverers(member, rooted=False), self.budget):
                if index is None:
                    yield parts, member.dir_only

    def refute(self) -> Outcome:
        """Find a witness no approved grant may allow, or settle for ``unknown``."""
        doubts: list[str] = []
        for parts, is_dir in itertools.islice(self.candidates(), MAX_WITNESS_CANDIDATES):
            doubt = self.doubt(parts, is_dir)
            if doubt is None:
                witness = self.render(parts, directory=is_dir)
                what = "it allows every path, and no" if self.pattern is EVERY_PATH else "no"
                note = ""
                if not is_dir and self.has_dir_only and self.doubt(parts, is_dir=True) == "":
                    note = " as a file (an approved pattern allows only a directory of that name)"
                return Outcome("not_covered", f"{what} approved grant allows {witness!r}{note}",
                               witness=witness)
            if doubt:
                doubts.append(doubt)
        if doubts and doubts[0] in self.incomparable:
            return Outcome("unknown", doubts[0])
        reason = doubts[0] if doubts else "no path it allows was shown to be outside them"
        return Outcome("unknown", f"not covered as written, but no certain witness: {reason}")

    def doubt(self, parts: Parts, is_dir: bool) -> str | None:
        """Why the runtime might allow ``parts`` under an approved grant ("" when one allows it
        outright); None when none can."""
        for entry in self.approved:
            if isinstance(entry.loose, Undecided):
                return f"the approved {entry.grant} might allow it ({entry.loose.reason})"
            for wide in entry.loose:
                doubt = self.reach(entry.grant, wide, parts, is_dir)
                if doubt is not None and entry.undecided is not None:
                    return f"the approved {entry.grant} might allow it ({entry.undecided})"
                if doubt is not None:
                    return doubt
        return None

    def reach(self, grant: Grant, wide: PathPattern, parts: Parts, is_dir: bool) -> str | None:
        """Why ``wide`` might allow ``parts`` or one of its ancestor directories ("" when it
        allows ``parts`` as written); None when it cannot."""
        items = self.in_frame(wide)
        if items is None and self.frame != "abs":
            return self.missing_base(grant, wide)
        if items is None:
            # Unknown base B: the approved pattern allows B/q, and B may be any prefix.
            hits = prefix_matches(wide.items, parts, self.budget, str.casefold, anywhere=True)
            if any(hit and _fits(wide, parts, size, is_dir) for size, hit in enumerate(hits)):
                return self.missing_base(grant, wide)
            return None
        folded = prefix_matches(items, parts, self.budget, str.casefold)
        if not any(hit and _fits(wide, parts, size, is_dir) for size, hit in enumerate(folded)):
            return None  # the usual case: no match even ignoring case
        exact = prefix_matches(items, parts, self.budget)
        return self.closest_reach(grant, wide, parts, is_dir, exact, folded)

    def closest_reach(self, grant: Grant, wide: PathPattern, parts: Parts, is_dir: bool,
                      exact: Sequence[bool], folded: Sequence[bool]) -> str | None:
        """``reach`` from the longest prefix of ``parts`` that ``wide`` matches (``exact``) or
        matches up to letter case (``folded``)."""
        for size in range(len(parts), -1, -1):
            if not _fits(wide, parts, size, is_dir):
                continue
            if exact[size]:
                if size == len(parts):
                    return ""
                return (f"the approved {grant} matches the directory "
                        f"{self.render(parts[:size], directory=True)!r}, and the runtime may "
                        f"extend it to everything beneath")
            if folded[size]:
                return (f"the approved {grant} allows {self.render(parts, directory=is_dir)!r} "
                        f"up to letter case, and the runtime may compare paths "
                        f"case-insensitively")
        return None

    def missing_base(self, grant: Grant, pattern: PathPattern) -> str:
        missing = sorted({a for a in (self.pattern.anchor, pattern.anchor)
                          if a != "abs" and a not in self.bases})
        problems = f" ({'; '.join(self.problems)})" if self.problems else ""
        example = ", ".join(f"{key}: {_EXAMPLE_BASE[key]}" for key in missing)
        reason = (f"{_KIND[self.pattern.anchor]} pattern cannot be compared with "
                  f"{_KIND[pattern.anchor]} {grant} without the base directories "
                  f"{', '.join(missing)} (base-dirs){problems}; give them as absolute paths "
                  f"in the plan, e.g. `base-dirs: {{{example}}}` (base_dirs= in the API)")
        self.incomparable.add(reason)
        return reason

    def render(self, parts: Parts, *, directory: bool) -> str:
        """A concrete path in the submitted pattern's notation (``//`` absolute, ``~/`` home,
        ``/`` project root, plain cwd-relative)."""
        anchor = self.pattern.anchor
        if self.frame == "abs" and anchor != "abs":
            base = self.bases[anchor]
            if parts[:len(base)] == base:
                parts = parts[len(base):]
            else:  # an ancestor above the base directory
                anchor = "abs"
        if not parts:  # the base directory itself
            return {"abs": "//", "home": "~/", "root": "/", "cwd": "."}[anchor]
        text = _WRITTEN[anchor] + "/".join(parts)
        if directory:
            text += "/"
        return text


def _fits(wide: PathPattern, parts: Parts, size: int, is_dir: bool) -> bool:
    """Whether ``wide`` may match the first ``size`` parts as to being a directory: every
    proper prefix is a directory; the whole path is one when ``is_dir``."""
    return not wide.dir_only or size < len(parts) or is_dir
