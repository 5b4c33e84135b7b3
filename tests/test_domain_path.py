"""The path domain (semantics §4.2) as tables, through the public ``prove()``.

Each row's status comes from the contract's words (or, where the contract is silent, from
docs/domains-path-web.md), never from running the prover. Every ``not_covered`` row also checks
its witness against the path model of tests/reference.py (a gitignore matcher,
``pathspec``, that knows nothing of skillgrant): the witness must be allowed by the submitted
pattern and by no approved pattern, even with the runtime's extension of a matched directory to
its subtree and ignoring letter case.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from pinned import prove
from reference import path_allows, path_witness

from skillgrant.domains import path, pathpattern
from skillgrant.domains.base import Budget, Context, OverBudget
from skillgrant.grants import parse_grant

Bases = Mapping[str, str] | None
Row = tuple[str, list[str], Bases, str]

# Base directories tried when the plan gives none: the witness must hold for all of them.
SAMPLE_BASES: list[dict[str, str]] = [
    {"cwd": "/w/proj", "home": "/home/me", "root": "/w/proj"},
    {"cwd": "/", "home": "/", "root": "/"},
    {"cwd": "/home/me/src", "home": "/home/me", "root": "/home"},
]


def assert_valid_witness(entry: str, approved: list[str], witness: str, bases: Bases) -> None:
    submitted = parse_grant(entry)
    for sample in [dict(bases)] if bases else SAMPLE_BASES:
        concrete, directory = path_witness(witness, sample)
        assert path_allows(submitted.content, concrete, sample, directory=directory), sample
        for other in map(parse_grant, approved):
            # `Edit(p)` also lets Read open p; a tool-wide `Edit` does not (2.1.332).
            edit_grants_read = (submitted.key == "Read" and other.key == "Edit"
                                and other.content is not None)
            if other.key != submitted.key and not edit_grants_read:
                continue
            assert not path_allows(other.content, concrete, sample, directory=directory,
                                   fold=True), (other, sample)


def check(entry: str, approved: list[str], bases: Bases, expected: str) -> None:
    verdict = prove(entry, approved, base_dirs=bases)
    assert verdict.status == expected, verdict.reason
    if expected == "not_covered":
        assert verdict.witness is not None
        assert_valid_witness(entry, approved, verdict.witness, bases)
    else:
        assert verdict.witness is None
    if expected == "covered":
        assert verdict.covered_by in approved


def ids(rows: list[Row]) -> list[str]:
    return [f"{e} <= {' '.join(a)}" + (f" {dict(b)}" if b else "") for e, a, b, _ in rows]


# --------------------------------------------------------------------------------------------
# Tables, one per rule of §4.2
# --------------------------------------------------------------------------------------------

ONE_SEGMENT_STAR: list[Row] = [
    ("Read(src/x.ts)", ["Read(src/*.ts)"], None, "covered"),
    ("Read(src/a*.ts)", ["Read(src/*.ts)"], None, "covered"),
    ("Read(src/*.ts)", ["Read(src/*)"], None, "covered"),
    # The contract's own example: a path `*` is not "any text".
    ("Read(src/lib/x.ts)", ["Read(src/*.ts)"], None, "not_covered"),
    ("Read(src/*/x.ts)", ["Read(src/*.ts)"], None, "not_covered"),
    ("Read(src/*.tsx)", ["Read(src/*.ts)"], None, "not_covered"),
    ("Read(src/*)", ["Read(src/*.ts)"], None, "not_covered"),
    # gitignore: other consecutive stars are one star, never crossing `/`.
    ("Read(src/a**b)", ["Read(src/a*b)"], None, "covered"),
    ("Read(src/a*b)", ["Read(src/a**b)"], None, "covered"),
    ("Read(src/a/x/b)", ["Read(src/a**b)"], None, "not_covered"),
]

DOUBLE_STAR: list[Row] = [
    ("Read(src/a/b/c.ts)", ["Read(src/**)"], None, "covered"),
    ("Read(src/**/*.ts)", ["Read(src/**)"], None, "covered"),
    ("Read(src/**/x.ts)", ["Read(src/**/*.ts)"], None, "covered"),
    ("Read(src/**)", ["Read(src/**/*.ts)"], None, "not_covered"),
    ("Read(a/b)", ["Read(a/**/b)"], None, "covered"),  # `**` takes zero segments too
    ("Read(a/x/y/b)", ["Read(a/**/b)"], None, "covered"),
    ("Read(a/**/b)", ["Read(a/**)"], None, "covered"),
    ("Read(a/**/b)", ["Read(a/*/b)"], None, "not_covered"),
    # Equal-looking languages no segment-by-segment alignment shows (the exact search).
    ("Read(*/**)", ["Read(**/*)"], None, "covered"),
    ("Read(**)", ["Read(src/**)"], None, "not_covered"),
]

ANY_DEPTH: list[Row] = [
    ("Read(.env)", ["Read(**/.env)"], None, "covered"),
    ("Read(**/.env)", ["Read(.env)"], None, "covered"),
    ("Read(src/.env)", ["Read(.env)"], None, "covered"),
    ("Read(a/b/.env)", ["Read(.env)"], None, "covered"),
    ("Read(src/x.ts)", ["Read(*.ts)"], None, "covered"),
    ("Read(.env)", ["Read(src/.env)"], None, "not_covered"),
    ("Read(*.ts)", ["Read(src/*.ts)"], None, "not_covered"),
    # `.env` is at any depth, `/.env` only at the project root.
    ("Read(.env)", ["Read(/.env)"], {"cwd": "/p", "root": "/p"}, "not_covered"),
]

DOT_SLASH: list[Row] = [
    ("Read(./src/x.ts)", ["Read(src/*.ts)"], None, "covered"),
    ("Read(src/x.ts)", ["Read(./src/*)"], None, "covered"),
    # Dropping `./` leaves a pattern with no `/`: any depth (docs/domains-path-web.md).
    ("Read(src/.env)", ["Read(./.env)"], None, "covered"),
    ("Read(./.env)", ["Read(**/.env)"], None, "covered"),
    ("Read(./src/lib/x.ts)", ["Read(./src/*.ts)"], None, "not_covered"),
]

TRAILING_DOUBLE_STAR: list[Row] = [
    ("Read(/docs/x.md)", ["Read(/docs/**)"], None, "covered"),
    ("Read(/docs/)", ["Read(/docs/**)"], None, "covered"),  # the directory itself
    ("Read(src/a/)", ["Read(src/a/**)"], None, "covered"),
    ("Read(/docs/**)", ["Read(/docs/*)"], None, "not_covered"),  # `/docs/` itself
    # The directory, not a file of the same name (docs/domains-path-web.md).
    ("Read(/docs)", ["Read(/docs/**)"], None, "not_covered"),
]

DIRECTORY_ONLY: list[Row] = [
    ("Read(src/)", ["Read(src)"], None, "covered"),
    ("Read(a/b/)", ["Read(a/*/)"], None, "covered"),
    ("Read(src)", ["Read(src/)"], None, "not_covered"),
]

ANCHORS: list[Row] = [
    ("Read(~/a/b)", ["Read(~/a/*)"], None, "covered"),  # same anchor: no base needed
    ("Read(/src/x.ts)", ["Read(/src/**)"], None, "covered"),
    ("Read(//etc/hosts)", ["Read(//etc/*)"], None, "covered"),
    ("Read(/src/x.ts)", ["Read(src/*.ts)"], None, "unknown"),
    ("Read(/src/x.ts)", ["Read(src/*.ts)"], {"root": "/p", "cwd": "/p"}, "covered"),
    ("Read(/src/x.ts)", ["Read(src/*.ts)"], {"root": "/p", "cwd": "/q"}, "not_covered"),
    ("Read(src/x.ts)", ["Read(/src/*.ts)"], {"root": "/p"}, "unknown"),
    ("Read(~/.zshrc)", ["Read(//home/me/.zshrc)"], None, "unknown"),
    ("Read(~/.zshrc)", ["Read(//home/me/.zshrc)"], {"home": "/home/me"}, "covered"),
    ("Read(//home/me/.zshrc)", ["Read(~/.zshrc)"], {"home": "/home/me"}, "covered"),
    ("Read(//home/me/.zshrc)", ["Read(~/.zshrc)"], None, "unknown"),
    ("Read(~/.zshrc)", ["Read(//home/you/*)"], {"home": "/home/me"}, "not_covered"),
    ("Read(~/.zshrc)", ["Read(.zshrc)"], {"home": "/home/me", "cwd": "/home/me"}, "covered"),
    ("Read(~/x/y)", ["Read(//h/**)"], {"home": "/h/../h/./"}, "covered"),  # normalised
    ("Read(~/x/y)", ["Read(//h/**)"], {"home": "h"}, "unknown"),  # not absolute: unusable
    # Covered wherever the home directory is / outside the pattern whatever cwd is
    # (docs/domains-path-web.md: decided without base directories when it holds for all).
    ("Read(~/.zshrc)", ["Read(//**)"], None, "covered"),
    ("Read(src/x)", ["Read(//**/src/*)"], None, "covered"),
    ("Read(//etc/passwd)", ["Read(src/**)"], None, "not_covered"),
    # ... but a home directory may lie under <cwd>/src.
    ("Read(~/.ssh/id_rsa)", ["Read(src/**)"], None, "unknown"),
    # ... and `~/x` is `/x` only if the home directory is `/`.
    ("Read(~/x)", ["Read(//x)"], None, "unknown"),
    ("Read(src/x)", ["Read(//src/*)"], None, "unknown"),
    ("Read(src/x)", ["Read(//src/*)"], {"cwd": "/"}, "covered"),
]

EDIT_GRANTS_READ: list[Row] = [
    # The Read an Edit(p) rule implies does not reach the files the runtime protects, which
    # a Read rule opens (review of issue 28, F28-3): an Edit rule covers no Read entry.
    ("Read(src/x.ts)", ["Edit(src/*)"], None, "unknown"),
    ("Read(src/x.ts)", ["Edit(src/x.ts)"], None, "unknown"),
    ("Read(//etc/hostname)", ["Edit(//etc/**)"], None, "unknown"),
    ("Read", ["Edit(//**)"], None, "unknown"),
    # A tool-wide Edit never lets Read open a file outside the working directory (2.1.332).
    ("Read", ["Edit"], None, "not_covered"),
    ("Read(/x)", ["Edit"], None, "not_covered"),
    ("Read(//etc/**)", ["Edit"], None, "not_covered"),
    ("Read(//etc/**)", ["Edit(*)"], None, "not_covered"),
    ("Read(src/x.ts)", ["Edit()"], None, "not_covered"),
    ("Edit(src/x.ts)", ["Read(src/*)"], None, "not_covered"),
    ("Edit(src/x.ts)", ["Read(src/x.ts)"], None, "not_covered"),
    ("Edit", ["Read"], None, "not_covered"),
    ("Edit(src/x.ts)", ["Edit(src/*)"], None, "covered"),
]

OUTSIDE_FRAGMENT: list[Row] = [
    ("Read(src/?.ts)", ["Read(src/**)"], None, "unknown"),
    ("Read(src/[ab].ts)", ["Read(src/**)"], None, "unknown"),
    ("Read(src/?.ts)", ["Read(src/?.ts)"], None, "covered"),
    ("Read(src/[ab].ts)", ["Edit(src/[ab].ts)"], None, "unknown"),
    ("Read(src/a.ts)", ["Read(src/?.ts)"], None, "unknown"),  # `?` may allow it
    ("Read(//etc/passwd)", ["Read(src/?.ts)"], None, "not_covered"),  # it cannot
    # gitignore constructs whose reading is not settled: decided only when identical.
    ("Read(!src/x)", ["Read(src/**)"], None, "unknown"),
    ("Read(!src/x)", ["Read(!src/x)"], None, "covered"),
    ("Read(#x)", ["Read(**)"], None, "unknown"),
    ("Read(src/\\*.ts)", ["Read(src/**)"], None, "unknown"),
    ("Read(src/a )", ["Read(src/**)"], None, "unknown"),
    ("Read(a/***/b)", ["Read(a/**)"], None, "unknown"),
    ("Read(a/../b)", ["Read(a/**)"], None, "unknown"),
    ("Read(a//b)", ["Read(a/**)"], None, "unknown"),
    ("Read(./)", ["Read(**)"], None, "unknown"),
    ("Read(~root/x)", ["Read(**)"], None, "unknown"),
    ("Read(${CLAUDE_PROJECT_DIR}/x)", ["Read(**)"], None, "unknown"),
    # gitignore reads a pattern per line: this is `docs/a` and `**` to the runtime.
    ("Read(docs/a\n**)", ["Read(docs/*)"], None, "unknown"),
    ("Read(docs/a\n**)", ["Read(docs/a\n**)"], None, "covered"),
    ("Read(docs/x)", ["Read(docs/a\n**)"], None, "unknown"),
]

EVERY_PATH: list[Row] = [
    ("Read", ["Read"], None, "covered"),
    ("Read(src/**)", ["Read"], None, "covered"),
    ("Read(src/**)", ["Read()"], None, "covered"),
    ("Read", ["Read(//**)"], None, "covered"),
    ("Read", ["Read(src/**)"], None, "not_covered"),
    ("Read", ["Read(**)"], None, "unknown"),  # `**` under an unknown cwd
    ("Read", ["Read(**)"], {"cwd": "/"}, "covered"),
]

DIRECTORY_EXTENSION: list[Row] = [
    # §4.2: decided without the extension, so these narrowings are never kept; the runtime
    # might allow the path through the matched directory, so there is no certain witness.
    ("Read(src/a/b.ts)", ["Read(src/*)"], None, "unknown"),
    ("Read(src/a/**)", ["Read(src/a)"], None, "unknown"),
]

LETTER_CASE: list[Row] = [
    ("Read(SRC/a.ts)", ["Read(src/*)"], None, "unknown"),
    ("Read(src/A.ts)", ["Read(src/a.ts)"], None, "unknown"),
]

TABLES = (ONE_SEGMENT_STAR + DOUBLE_STAR + ANY_DEPTH + DOT_SLASH + TRAILING_DOUBLE_STAR
          + DIRECTORY_ONLY + ANCHORS + EDIT_GRANTS_READ + OUTSIDE_FRAGMENT + EVERY_PATH
          + DIRECTORY_EXTENSION + LETTER_CASE)


@pytest.mark.parametrize(("entry", "approved", "bases", "expected"), TABLES, ids=ids(TABLES))
def test_table(entry: str, approved: list[str], bases: Bases, expected: str) -> None:
    check(entry, approved, bases, expected)


# --------------------------------------------------------------------------------------------
# Evidence
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("entry", "approved", "bases", "witness"), [
    # A pattern without wildcards has one path: it is the witness.
    ("Read(src/lib/x.ts)", ["Read(src/*.ts)"], None, "src/lib/x.ts"),
    ("Read(//etc/passwd)", ["Read(src/**)"], None, "//etc/passwd"),
    ("Read(~/.zshrc)", ["Read(//home/you/*)"], {"home": "/home/me"}, "~/.zshrc"),
    ("Edit(src/x.ts)", ["Read(src/*)"], None, "src/x.ts"),
    ("Read(/docs)", ["Read(/docs/**)"], None, "/docs"),
    # The pattern's only directory.
    ("Read(/docs/**)", ["Read(/docs/*)"], None, "/docs/"),
])
def test_forced_witness(entry: str, approved: list[str], bases: Bases, witness: str) -> None:
    assert prove(entry, approved, base_dirs=bases).witness == witness


@pytest.mark.parametrize(("entry", "edit"), [
    ("Read", "Edit"), ("Read", "Edit()"), ("Read", "Edit(*)"), ("Read(/x)", "Edit"),
    ("Read(//etc/**)", "Edit"), ("Read(//etc/hostname)", "Edit(*)"), ("Read(~/.zshrc)", "Edit"),
    ("Read(src/x.ts)", "Edit()"), ("Read(**)", "Edit"),
])
def test_bare_edit_does_not_grant_read(entry: str, edit: str) -> None:
    # Measured on 2.1.332: a tool-wide Edit never lets Read open a file outside the working
    # directory, while Edit(//etc/**) lets it read /etc/hostname.
    verdict = prove(entry, [edit])
    assert verdict.status == "not_covered", verdict
    assert verdict.witness is not None
    assert_valid_witness(entry, [edit], verdict.witness, None)
    # Alongside a Read grant, the tool-wide Edit still adds nothing to what Read may open.
    assert prove(entry, [edit, "Read(src/**)"]).covered is (entry == "Read(src/x.ts)")
    assert prove("Read(//etc/hostname)", ["Edit(//etc/**)", edit]).status == "unknown"
    # ... and a submitted Edit(p) grants Read of p, which the tool-wide Edit does not.
    assert not prove("Edit(//etc/hostname)", [edit]).covered


@pytest.mark.parametrize(("entry", "approved", "status"), [
    # Found by the conformance suite (pair cases): under a plan of bare Edit, a kept
    # Edit(//etc/**) let the runtime Read /etc/hostname, which the plan never allowed.
    ("Edit(//etc/**)", ["Edit"], "not_covered"),
    ("Edit(//etc/hostname)", ["Edit", "Read(//usr/**)"], "not_covered"),
    # (Write and NotebookEdit bare beside the bare Edit: an Edit(…) rule also approves Write
    # and NotebookEdit calls on its paths, which a bare Edit does not; see below.)
    ("Edit(//etc/**)", ["Edit", "Write", "NotebookEdit", "Read"], "covered"),
    ("Edit(//etc/**)", ["Edit", "Write", "NotebookEdit", "Read(//etc/**)"], "covered"),
    ("Edit(//etc/x)", ["Edit(//etc/**)"], "covered"),
    ("Edit(//etc/x)", ["Read(//etc/**)"], "not_covered"),  # the edit side
    # A path that may lie inside the working directory is readable without any grant there:
    # no certain witness.
    ("Edit(src/**)", ["Edit", "Write", "NotebookEdit"], "unknown"),
    ("Edit", ["Edit"], "covered"),  # a tool-wide Edit grants no Read: nothing more to cover
])
def test_edit_with_a_path_needs_its_read_side_covered(entry: str, approved: list[str],
                                                      status: str) -> None:
    verdict = prove(entry, approved)
    assert verdict.status == status, verdict
    if status == "not_covered":
        assert verdict.witness is not None and verdict.witness.startswith("//")


@pytest.mark.parametrize(("entry", "approved", "status"), [
    # Claude Code 2.1.332: an Edit(…) rule also approves Write and NotebookEdit calls on its
    # paths; a bare Edit approves neither (issue 28, measured by the Edit, Write and
    # NotebookEdit domain pairs). So a bare Edit covers an Edit(…) rule only beside bare
    # Write and NotebookEdit grants.
    ("Edit(src/**)", ["Edit", "Read"], "not_covered"),
    ("Edit(src/**)", ["Edit", "Write", "Read"], "not_covered"),
    ("Edit(src/**)", ["Edit", "Write", "NotebookEdit", "Read"], "covered"),
    ("Edit(src/a.txt)", ["Edit(src/**)"], "covered"),
    ("Write", ["Edit"], "not_covered"),
    ("NotebookEdit", ["Edit(**)"], "not_covered"),
])
def test_an_edit_rule_also_grants_write_and_notebook_edit(entry: str, approved: list[str],
                                                          status: str) -> None:
    verdict = prove(entry, approved)
    assert verdict.status == status, verdict
    if status == "not_covered" and entry.startswith("Edit("):
        assert "Write or NotebookEdit call" in verdict.reason


def test_bare_edit_against_every_path_gives_a_telling_witness() -> None:
    verdict = prove("Read", ["Edit"])
    assert verdict.witness is not None and verdict.witness.startswith("//")
    assert "every path" in verdict.reason


def test_witness_against_every_path_is_a_telling_absolute_path() -> None:
    verdict = prove("Read", ["Read(src/**)", "Read(~/.claude/**)"])
    assert verdict.status == "not_covered"
    assert verdict.witness is not None and verdict.witness.startswith("//")
    assert "every path" in verdict.reason


def test_union_names_every_approved_entry_it_needs() -> None:
    approved = ["Read(src)", "Read(src/*)", "Read(src/*/**)"]
    verdict = prove("Read(src/**)", approved)
    assert verdict.status == "covered"
    assert {verdict.covered_by, *verdict.also_covered_by} == set(approved)


def test_unknown_reasons_name_what_is_missing() -> None:
    assert "root" in prove("Read(/src/x.ts)", ["Read(src/*.ts)"]).reason
    assert "cwd" in prove("Read(/src/x.ts)", ["Read(src/*.ts)"]).reason
    assert "directory" in prove("Read(src/a/b.ts)", ["Read(src/*)"]).reason
    assert "case" in prove("Read(SRC/a.ts)", ["Read(src/*)"]).reason
    assert "not an absolute" in prove("Read(~/x/y)", ["Read(//h/**)"],
                                      base_dirs={"home": "h"}).reason
    assert "'?'" in prove("Read(src/?.ts)", ["Read(src/**)"]).reason


def test_covered_wherever_the_base_is_says_so() -> None:
    assert "wherever the home directory is" in prove("Read(~/.zshrc)", ["Read(//**)"]).reason


# --------------------------------------------------------------------------------------------
# Bounds (semantics §1.5, §9)
# --------------------------------------------------------------------------------------------


def _alternating(first: str, second: str, runs: int) -> str:
    return "Read(" + "/".join([first, second] * runs) + "/x)"


def test_the_budget_stops_a_decision() -> None:
    submitted = parse_grant(_alternating("*", "**", 3))
    approved = [parse_grant(_alternating("**", "*", 3))]
    with pytest.raises(OverBudget):
        path.decide(submitted, approved, Context(budget=Budget(limit=1_000)))
    assert path.decide(submitted, approved, Context()).status == "covered"


def test_a_hard_inclusion_is_exact_when_small_and_unknown_when_large() -> None:
    # Both sides are "at least n segments, then x"; proving it needs the exhaustive search,
    # whose size grows exponentially with n (inclusion here is coNP-hard in general).
    small = prove(_alternating("*", "**", 3), [_alternating("**", "*", 3)])
    assert small.status == "covered"
    large = prove(_alternating("*", "**", 30), [_alternating("**", "*", 30)])
    assert large.status == "unknown"
    assert "MAX_WORK_PER_DECISION" in large.reason


def test_witness_search_is_capped(monkeypatch: pytest.MonkeyPatch) -> None:
    assert prove("Read(src/**)", ["Read(src/*.ts)"]).status == "not_covered"
    monkeypatch.setattr(path, "MAX_WITNESS_CANDIDATES", 0)
    assert prove("Read(src/**)", ["Read(src/*.ts)"]).status == "unknown"


# --------------------------------------------------------------------------------------------
# The compiled form (unit level)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("content", "anchor", "dir_only"), [
    ("//etc/x", "abs", False),
    ("~/x", "home", False),
    ("/x", "root", False),
    ("x", "cwd", False),
    ("./x/", "cwd", True),
    ("~/.claude/", "home", True),
])
def test_anchor_and_kind(content: str, anchor: str, dir_only: bool) -> None:
    compiled = pathpattern.compile_pattern(content)
    assert isinstance(compiled, pathpattern.PathPattern)
    assert (compiled.anchor, compiled.dir_only) == (anchor, dir_only)


def test_no_slash_means_any_depth_and_dot_slash_is_dropped() -> None:
    compile_pattern = pathpattern.compile_pattern
    assert compile_pattern(".env") == compile_pattern("**/.env")
    assert compile_pattern("./.env") == compile_pattern(".env")
    assert compile_pattern("./src/x") == compile_pattern("src/x")
    assert compile_pattern("src/x") != compile_pattern("**/src/x")


def test_every_path_is_the_named_top() -> None:
    # The bare grant compiles to the top, which is `//**` and denotes all of `//*/**`.
    assert pathpattern.compile_pattern(None) is pathpattern.EVERY_PATH
    assert pathpattern.compile_pattern("//**") == pathpattern.EVERY_PATH
    assert pathpattern.members(pathpattern.EVERY_PATH) == (
        pathpattern.compile_pattern("//*/**"),)
