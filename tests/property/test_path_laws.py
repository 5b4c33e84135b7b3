"""Laws of the path domain (semantics §4.2), checked against an independent runtime model.

The model (``reference.path_allows``) is ``pathspec``'s gitignore matcher, turned into the
runtime's question "does this rule allow this path?" by anchoring the pattern at its base
directory and extending every matched ancestor directory to its subtree (what the runtime may
do, semantics §4.2). It never decides inclusion; the laws check the prover's claims about whole
languages on concrete paths:

* soundness: every sampled path a kept grant allows, some approved grant allows;
* witness validity: a ``not_covered`` witness is allowed by the grant and by no approved one
  (even ignoring letter case);
* completeness on constructed narrowings: a pattern built by narrowing an approved one is kept,
  and so is a narrowing of a narrowing (transitivity), whatever else is approved (monotonicity).

Patterns come from a few segment shapes over a tiny alphabet so that random pairs are often
related. Every law runs at least 500 examples.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from examples import examples
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from reference import path_allows, path_witness

from skillgrant import Verdict, parse_grant, prove

EXAMPLES = examples(500)

LITERALS = ["a", "b", "ab", "a.ts"]
GLOBS = ["*", "a*", "*b", "*.ts", "a*b", "*a*"]
SEGMENTS = LITERALS + GLOBS + ["**"]
# Concrete segments: the literals, and text no pattern mentions.
CONCRETE = ["a", "b", "ab", "a.ts", "x", "xb", "A"]
FILLS = ["", "a", "b", "x", ".ts", "ab"]

ANCHORS = ["//", "~/", "/", ""]
# Overlapping bases, so that patterns of different anchors often meet.
BASES: dict[str, str] = {"cwd": "/w/p", "home": "/w", "root": "/w/p/a"}
BASE_OF = {"~/": "home", "/": "root", "": "cwd", "./": "cwd"}


def allows(content: str | None, path: str, *, directory: bool = False,
           fold: bool = False) -> bool:
    """The reference model in the world of ``BASES``."""
    return path_allows(content, path, BASES, directory=directory, fold=fold)


# --------------------------------------------------------------------------------------------
# Patterns, members and narrowings
# --------------------------------------------------------------------------------------------

segment_lists = st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=4)


def render(anchor: str, segments: Sequence[str]) -> str:
    return anchor + "/".join(segments)


def explicit(anchor: str, segments: list[str]) -> list[str]:
    """The segments with the any-depth rule spelled out (``x`` is ``**/x``)."""
    if anchor == "" and len(segments) == 1 and segments[0] != "**":
        return ["**", *segments]
    return list(segments)


@st.composite
def instances(draw: st.DrawFn, anchor: str, segments: Sequence[str]) -> str:
    """An absolute path the pattern allows, built independently of the prover."""
    parts: list[str] = []
    for segment in explicit(anchor, list(segments)):
        if segment == "**":
            parts += draw(st.lists(st.sampled_from(CONCRETE), max_size=2))
            continue
        pieces = segment.split("*")
        text = pieces[0] + "".join(draw(st.sampled_from(FILLS)) + p for p in pieces[1:])
        parts.append(text or "x")
    base = "" if anchor == "//" else BASES[BASE_OF[anchor]].strip("/")
    return "/".join(p for p in (base, *parts) if p)


def concrete_paths() -> list[str]:
    """Every absolute path of up to three segments below a few prefixes."""
    paths: list[str] = []
    for prefix in ("", "w", "w/p", "w/p/a"):
        for depth in range(4):
            for parts in itertools.product(CONCRETE[:5], repeat=depth):
                paths.append("/".join(p for p in (prefix, *parts) if p))
    return sorted(set(p for p in paths if p))


PATHS = concrete_paths()


@st.composite
def narrowing(draw: st.DrawFn, segments: list[str]) -> list[str]:
    """A pattern no wider than ``segments`` (both anchored the same way), by one rewrite."""
    index = draw(st.integers(0, len(segments) - 1))
    segment = segments[index]
    head, tail = segments[:index], segments[index + 1:]
    last = index == len(segments) - 1
    if segment == "**":
        if last:  # `P/**` is `P/*/**` and the directory `P/`
            choices = [["*"], ["a", "**"], ["*", "b"], ["**", "*.ts"], ["a*"]]
        else:
            choices = [[], ["*"], ["a"], ["**", "b"], ["a", "**"]]
        return head + draw(st.sampled_from(choices)) + tail
    if "*" in segment:
        fill = draw(st.sampled_from(["a", "b", "x", "*a*", "b*", "*.ts"]))
        pieces = segment.split("*")
        at = draw(st.integers(0, len(pieces) - 2))
        rewritten = "*".join(pieces[: at + 1]) + fill + "*".join(pieces[at + 1:])
        return [*head, rewritten or "x", *tail]
    return segments  # a literal segment admits no narrower spelling but itself


# --------------------------------------------------------------------------------------------
# Laws
# --------------------------------------------------------------------------------------------


def sampled(data: st.DataObject, submitted: str | None, anchor: str,
            segments: Sequence[str]) -> list[str]:
    drawn = [data.draw(instances(anchor, segments)) for _ in range(8)] if submitted else []
    return [p for p in [*PATHS, *drawn] if allows(submitted, p)]


def assert_sound(submitted: str | None, approved: list[str], paths: list[str]) -> None:
    contents = [parse_grant(a).content for a in approved]
    for path in paths:
        assert any(allows(c, path) for c in contents), (submitted, approved, path)


def assert_witness(submitted: str | None, approved: list[str], witness: str | None) -> None:
    assert witness is not None
    path, directory = path_witness(witness, BASES)
    assert allows(submitted, path, directory=directory), (submitted, witness)
    for approved_entry in approved:
        content = parse_grant(approved_entry).content
        assert not allows(content, path, directory=directory, fold=True), (approved_entry, witness)


@st.composite
def patterns(draw: st.DrawFn, anchors: Sequence[str] = ("",)) -> tuple[str, list[str]]:
    anchor = draw(st.sampled_from(anchors))
    segments = draw(segment_lists)
    if anchor == "" and len(segments) > 1 and draw(st.booleans()):
        return "./", segments  # a leading `./` is dropped: the same pattern
    return anchor, segments


def entry(anchor: str, segments: Sequence[str]) -> str:
    return f"Read({render(anchor, segments)})"


def check_claims(submitted: tuple[str, list[str]], approved: list[tuple[str, list[str]]],
                 base_dirs: dict[str, str] | None, data: st.DataObject) -> Verdict:
    """Prove ``Read(submitted)`` under ``Read(approved)`` and check what the verdict claims on
    the model: a kept grant allows no sampled path the approved ones do not, a witness is
    valid. The verdict is returned for laws about the rest."""
    s_entry = entry(*submitted)
    a_entries = [entry(*a) for a in approved]
    verdict = prove(s_entry, a_entries, base_dirs=base_dirs)
    event(verdict.status)
    content = parse_grant(s_entry).content
    if verdict.status == "covered":
        assert_sound(content, a_entries, sampled(data, content, *submitted))
    elif verdict.status == "not_covered":
        assert_witness(content, a_entries, verdict.witness)
    return verdict


@settings(max_examples=EXAMPLES)
@given(patterns(), st.lists(patterns(), min_size=1, max_size=3), st.data())
def test_soundness_and_witnesses(
    submitted: tuple[str, list[str]], approved: list[tuple[str, list[str]]], data: st.DataObject
) -> None:
    verdict = check_claims(submitted, approved, None, data)
    if verdict.status not in ("covered", "not_covered"):
        content = parse_grant(entry(*submitted)).content
        # No gitignore oddities here: only the runtime's directory extension, or comparing bare
        # `Read(*)` (every path, absolute) with a cwd-relative pattern, leaves doubt.
        assert verdict.status == "unknown"
        assert ("extend" in verdict.reason
                or (content is None and "base directories cwd" in verdict.reason)), verdict.reason


@settings(max_examples=EXAMPLES)
@given(patterns(ANCHORS), st.lists(patterns(ANCHORS), min_size=1, max_size=3),
       st.sets(st.sampled_from(sorted(BASES))), st.data())
def test_soundness_and_witnesses_across_anchors(
    submitted: tuple[str, list[str]], approved: list[tuple[str, list[str]]], known: set[str],
    data: st.DataObject,
) -> None:
    # The plan tells only some base directories; BASES is one world consistent with that, so
    # every claim must hold in it.
    check_claims(submitted, approved, {k: BASES[k] for k in known}, data)


@settings(max_examples=EXAMPLES)
@given(st.lists(patterns(ANCHORS), min_size=1, max_size=3))
def test_every_path_witness(approved: list[tuple[str, list[str]]]) -> None:
    a_entries = [entry(*a) for a in approved]
    verdict = prove("Read", a_entries, base_dirs=BASES)
    event(verdict.status)
    if verdict.status == "covered":
        assert_sound(None, a_entries, PATHS)
    elif verdict.status == "not_covered":
        assert_witness(None, a_entries, verdict.witness)


@settings(max_examples=EXAMPLES)
@given(patterns(ANCHORS), st.data())
def test_narrowings_are_kept(approved: tuple[str, list[str]], data: st.DataObject) -> None:
    anchor, segments = approved
    wide = explicit(anchor, segments)
    narrow = data.draw(narrowing(wide))
    assume(len(narrow) > 1 or anchor not in ("", "./") or narrow == ["**"])
    verdict = prove(entry(anchor, narrow), [entry(anchor, segments)])
    assert verdict.status == "covered", verdict.reason
    # The narrowing is sound as well as kept: checked on the model, not just believed.
    content = parse_grant(entry(anchor, narrow)).content
    assert_sound(content, [entry(anchor, segments)], sampled(data, content, anchor, narrow))


@settings(max_examples=EXAMPLES)
@given(patterns(ANCHORS), st.lists(patterns(ANCHORS), max_size=2), st.data())
def test_narrowing_chains_are_kept_whatever_else_is_approved(
    approved: tuple[str, list[str]], others: list[tuple[str, list[str]]], data: st.DataObject
) -> None:
    anchor, segments = approved
    once = data.draw(narrowing(explicit(anchor, segments)))
    twice = data.draw(narrowing(once))
    assume(len(twice) > 1 or anchor not in ("", "./") or twice == ["**"])
    approved_entries = [entry(*o) for o in others] + [entry(anchor, segments)]
    verdict = prove(entry(anchor, twice), approved_entries, base_dirs=BASES)
    assert verdict.status == "covered", verdict.reason


@settings(max_examples=EXAMPLES)
@given(patterns(ANCHORS))
def test_dir_only_and_dot_slash_spellings(approved: tuple[str, list[str]]) -> None:
    anchor, segments = approved
    spelled = render(anchor, segments)
    # A directory-only pattern is no wider than the same pattern.
    assert prove(f"Read({spelled}/)", [f"Read({spelled})"]).status == "covered"
    # Read(p) ⊑ Edit(p), never the reverse unless Edit is approved; but a tool-wide Edit
    # (`Edit(*)` is bare `Edit`) grants no Read outside the working directory (2.1.332).
    tool_wide = parse_grant(f"Edit({spelled})").content is None
    assert prove(f"Read({spelled})", [f"Edit({spelled})"]).status == (
        "not_covered" if tool_wide else "covered")
    assert prove(f"Edit({spelled})", [f"Read({spelled})"]).status == "not_covered"
    if anchor == "" and len(segments) > 1:
        assert prove(f"Read(./{spelled})", [f"Read({spelled})"]).status == "covered"
        assert prove(f"Read({spelled})", [f"Read(./{spelled})"]).status == "covered"


@settings(max_examples=EXAMPLES)
@given(patterns(ANCHORS), st.sampled_from(["Edit", "Edit()", "Edit(*)"]))
def test_tool_wide_edit_grants_no_read(approved: tuple[str, list[str]], edit: str) -> None:
    """A tool-wide Edit never lets Read open a file outside the working directory (measured on
    2.1.332), so it covers no Read grant at all; the grant is kept only under a Read grant."""
    spelled = render(*approved)
    assert not prove(f"Read({spelled})", [edit], base_dirs=BASES).covered
    assert prove(f"Read({spelled})", [edit, "Read"]).covered_by == "Read"


@settings(max_examples=EXAMPLES)
@given(patterns(ANCHORS), st.lists(patterns(ANCHORS), max_size=3), st.data())
def test_kept_edit_has_its_read_side_covered(
    submitted: tuple[str, list[str]], reads: list[tuple[str, list[str]]], data: st.DataObject
) -> None:
    """``Edit(p)`` lets Read open p (measured on 2.1.332) and a tool-wide ``Edit`` lets Read
    open nothing outside the working directory: under ``Edit`` plus some Read patterns, a kept
    ``Edit(p)`` must have every path of p readable by one of those Read patterns (pathspec)."""
    spelled = render(*submitted)
    read_entries = [entry(*r) for r in reads]
    # Write and NotebookEdit bare too: an Edit(…) rule also approves those calls (issue 28).
    verdict = prove(f"Edit({spelled})", ["Edit", "Write", "NotebookEdit", *read_entries],
                    base_dirs=BASES)
    if parse_grant(f"Edit({spelled})").content is None:  # `Edit(*)`: tool-wide, reads nothing
        assert verdict.status == "covered"
        return
    content = parse_grant(f"Read({spelled})").content
    if verdict.status == "covered":
        assert read_entries, verdict
        assert_sound(content, read_entries, sampled(data, content, *submitted))
    elif verdict.status == "not_covered":
        assert_witness(content, read_entries, verdict.witness)
