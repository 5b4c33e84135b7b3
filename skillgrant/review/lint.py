"""Plan review (semantics §8, issue 8): ``lint_entries`` and ``diff_entries``.

``lint_entries`` reports approved grants that are invalid, over-broad, inert or non-canonical,
each finding with a stable rule ID (docs/lint-rules.md) and a hint whose example is made from
the entry at hand (``rules.HINT_TEMPLATES``). ``diff_entries`` judges every grant of
a new version against the old one with ``prove()``: a grant the old ones do not provably cover
is a capability escalation, shown with its witness. ``read_revision`` reads ``REV:path`` from
git for the CLI.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final, Literal

from .. import rules, vocabulary
from ..domains import command, mcp
from ..errors import GrantSyntaxError, PlanError, SkillgrantError
from ..grants import Grant, parse_grant, shorten, split_allowed_tools
from ..limits import MAX_ENTRIES_PER_VALUE
from ..prover import prove
from ..rules import LINT_RULES, Category, Rule, Severity
from ..screening import inert_reason, screen
from ..verdicts import Verdict
from .checks import Hit, agent_reach, check_grant
from .runners import ASSIGNMENT, RUNNERS, Runner, program_name, wildcard_place

__all__ = ["BY_ID", "RULES", "DiffEntry", "DiffKind", "DiffResult", "Finding", "RevisionError",
           "Rule", "diff_entries", "lint_entries", "read_revision"]

ShellTools = Mapping[str, object] | Iterable[str] | None
BaseDirs = Mapping[str, str | None] | None

#: The lint rules (``rules.LINT_RULES``), and by ID.
RULES: Final = LINT_RULES
BY_ID: Final[dict[str, Rule]] = {rule.id: rule for rule in RULES}


@dataclass(frozen=True)
class Finding:
    """One rule firing on one approved entry.

    ``entry`` is the entry as the plan lists it (empty for a finding about the whole list) and
    ``index`` its position among the plan's entries. ``example`` is an invocation the grant
    approves that shows the problem; ``replacement`` is what to write instead when certain.
    """

    rule_id: str
    name: str
    severity: Severity
    category: Category
    entry: str
    message: str
    hint: str
    index: int | None = None
    example: str | None = None
    replacement: str | None = None


_SCREENED: Final = {"invalid": "SGL001", "unknown": "SGL002", "ambiguous": "SGL305"}


def lint_entries(entries: str | Sequence[str], *, shell_tools: ShellTools = None) -> list[Finding]:
    """Review approved entries (semantics §8 ``lint``): every rule that fires, in entry order.

    ``entries`` is a plan's ``allowed-tools`` value, split as semantics §2; ``shell_tools`` are the
    plan's declared shell aliases, linted like ``Bash``. An entry that does not parse is a
    finding (SGL001), never an exception; a value that is neither a string nor a list of strings
    raises AllowedToolsError.

    >>> [f.rule_id for f in lint_entries(["Bash(gh *)", "Bash(sudo *)", "LS"])]
    ['SGL103', 'SGL201']
    """
    items = split_allowed_tools(entries)
    shell = _shell_keys(shell_tools)
    findings: list[Finding] = []
    if len(items) > MAX_ENTRIES_PER_VALUE:
        findings.append(_finding(Hit("SGL002", f"the list has {len(items)} entries; the limit is "
                                     f"{MAX_ENTRIES_PER_VALUE} (MAX_ENTRIES_PER_VALUE)"), "", None))
    reach = dict(agent_reach(items))  # SGL117: a finding on a list, shown on its Agent entry
    for index, entry in enumerate(items):
        hits = sorted([*_lint_entry(entry, shell), *filter(None, [reach.get(index)])],
                      key=lambda hit: hit.rule_id)
        findings.extend(_finding(hit, entry, index) for hit in hits)
    return findings


def _lint_entry(entry: str, shell_tools: frozenset[str]) -> list[Hit]:
    text, problem = screen(entry)
    if problem is not None:
        return [Hit(_SCREENED[problem[0]], problem[1])]
    try:
        grant = parse_grant(text)
    except GrantSyntaxError as e:
        return [Hit("SGL001", f"{e.message} at column {e.position + 1}")]
    hits = [*check_grant(grant, text, shell_tools), *_name_and_reach(grant, shell_tools)]
    fields = _hint_fields(grant, shell_tools)
    return [hit if hit.hint else replace(hit, hint=_hint(hit.rule_id, fields)) for hit in hits]


def _name_and_reach(grant: Grant, shell_tools: frozenset[str]) -> list[Hit]:
    """A tool name that looks like a misspelt built-in one (SGL309), and a bare ``Write``,
    ``Skill`` or ``Agent`` (SGL114–SGL116)."""
    if grant.is_mcp or grant.key in shell_tools or inert_reason(grant) is not None:
        return []
    near = vocabulary.close_names(grant.tool)
    if near:
        meant = near[0] + ("" if grant.content is None else f"({grant.content})")
        return [Hit("SGL309", f"the runtime knows no tool named `{grant.tool}`, so the entry "
                    f"likely grants nothing; did you mean {' or '.join(f'`{n}`' for n in near)}?",
                    hint=f"Write `{meant}` if that is the tool you meant.")]
    broad = rules.BARE_OVER_BROAD.get(grant.key)
    if broad is None or grant.content is not None:
        return []
    return [Hit(broad[0], f"`{grant}` lets the agent {broad[1]}")]


# ---------------------------------------------------------------- hints made from the entry

def _hint(rule_id: str, fields: Mapping[str, str]) -> str:
    """The rule's hint with an example from ``fields`` (``rules.HINT_TEMPLATES``), or its
    ``help`` when the entry does not give every field the example needs."""
    try:
        return rules.HINT_TEMPLATES[rule_id].format_map(fields)
    except KeyError:  # no template, or one naming a part the entry does not have
        return BY_ID[rule_id].help


def _hint_fields(grant: Grant, shell_tools: frozenset[str]) -> dict[str, str]:
    """What the hint templates may name of the entry at hand, and only what it gives."""
    fields = {"tool": grant.tool}
    if grant.is_mcp:
        server, _ = mcp.split_name(grant.key)
        if "*" not in server:
            fields["server"] = server
        return fields
    content = grant.content
    if content is None:
        return fields
    if grant.key in ("Read", "Edit"):
        stem = content.rstrip("/")
        fields["stem"] = stem[:-2] if stem.endswith("/*") else stem
    elif (vocabulary.domain_of(grant.key, shell_tools) is vocabulary.Domain.COMMAND
          and not command.has_reserved(content)):
        fields.update(_command_fields(content))
    return fields


_SPECIAL = re.compile(r"([()\\*])")


def _escaped(text: str) -> str:
    """Command text as it is written inside ``Tool(…)``: placeholders back, specials escaped."""
    return _SPECIAL.sub(r"\\\1", command.render(text))


def _command_fields(content: str) -> dict[str, str]:
    glob = command.compile_pattern(content).globs[-1]
    if glob.stars == 0:
        return {}
    lead = glob.segments[0]
    fields = {"rest": "*".join(map(_escaped, glob.segments[1:]))}
    words = lead.split()
    partial = words.pop() if words and not lead[-1].isspace() else ""
    if partial:
        fields["glued"] = command.render(partial)
    while words and ASSIGNMENT.match(words[0]):
        words.pop(0)
    if not words and partial and not ASSIGNMENT.match(partial):
        words, partial, lead = [partial], "", lead + " "  # the `*` glued to the program
    if not words:
        return fields
    fields["program"] = _escaped(words[0])
    program = program_name(words[0])
    runner, where, owed = _runner_at(program, words[1:], partial)
    if runner is None or partial:
        return fields  # a wildcard glued to an argument: no example continues it
    said = " ".join((program, *runner.then))
    keys = (said, program, said.split()[-1], "")  # the most specific first
    for field, parts in rules.HINT_PARTS.items():
        fields[field] = next((parts[key] for key in keys if key in parts), "")
    if where in ("command", "lead"):
        fields["head"] = _escaped(lead) + "".join(f"{word} " for word in owed)
    return {k: v for k, v in fields.items() if v}


def _runner_at(program: str, words: Sequence[str],
               partial: str) -> tuple[Runner | None, str | None, list[str]]:
    """The runner (``runners.RUNNERS``) whose wildcard the pattern's first ``*`` is, as
    ``checks`` finds it: where the ``*`` stands, and the words the runner still needs."""
    for runner in RUNNERS:
        if program in runner.programs:
            where, owed = wildcard_place(runner, words, partial)
            if where is not None:
                return runner, where, owed
    return None, None, []


def _finding(hit: Hit, entry: str, index: int | None) -> Finding:
    rule = BY_ID[hit.rule_id]  # every lint rule has a category
    assert rule.category is not None
    return Finding(rule.id, rule.name, rule.severity, rule.category, entry, hit.message,
                   hit.hint or rule.help, index, hit.example, hit.replacement)


def _shell_keys(shell_tools: ShellTools) -> frozenset[str]:
    names = shell_tools.keys() if isinstance(shell_tools, Mapping) else shell_tools or ()
    return frozenset(vocabulary.name_key(str(name)) for name in names)


# ----------------------------------------------------------------------------------- diff

DiffKind = Literal["escalated", "narrowed", "equivalent", "added-covered", "unchanged", "inert",
                   "removed"]


@dataclass(frozen=True)
class DiffEntry:
    """How one grant changed between OLD and NEW.

    For a NEW entry ``verdict`` is ``prove(entry, OLD)``; for a removed OLD entry it is
    ``prove(entry, NEW)``. ``old`` names the OLD entry it was compared with: the identical one
    (``unchanged``) or the one that covers it (``narrowed``, ``equivalent``, ``added-covered``).
    ``index`` is the entry's position in its own list.
    """

    kind: DiffKind
    entry: str
    verdict: Verdict
    old: str | None = None
    index: int = 0

    @property
    def escalates(self) -> bool:
        return self.kind == "escalated"

    @property
    def witness(self) -> str | None:
        return self.verdict.witness

    @property
    def reason(self) -> str:
        return self.verdict.reason


@dataclass(frozen=True)
class DiffResult:
    """Every NEW entry in NEW's order, then the removed OLD entries in OLD's order."""

    entries: tuple[DiffEntry, ...]

    def of_kind(self, kind: DiffKind) -> list[DiffEntry]:
        return [e for e in self.entries if e.kind == kind]

    @property
    def escalated(self) -> list[DiffEntry]:
        return self.of_kind("escalated")

    @property
    def escalates(self) -> bool:
        """True when NEW grants anything OLD does not provably grant (``diff`` exits 1)."""
        return any(e.escalates for e in self.entries)


def diff_entries(
    old: str | Sequence[str],
    new: str | Sequence[str],
    *,
    shell_tools: ShellTools = None,
    base_dirs: BaseDirs = None, runtime: str | Sequence[str] | None = None,
) -> DiffResult:
    """Compare two versions of a grant list (semantics §8 ``diff``) under ``runtime`` (prove's).

    Each NEW entry is judged with ``prove(entry, OLD)``. Not covered, unknown, invalid and
    ambiguous entries are escalations (``unknown`` counts: what is not proven is not granted);
    inert ones grant nothing. Identity is by canonical form, so reordering and tool-name case
    changes are ``unchanged``. OLD is judged as an approved plan: an invalid, ambiguous or
    over-limit OLD entry raises PlanError (semantics §5), so a broken baseline is never ignored.

    >>> [(e.kind, e.witness) for e in diff_entries(["Bash(gh *)"], ["Bash(rm -rf /)"]).entries]
    [('escalated', 'rm -rf /'), ('removed', 'gh')]
    """
    old_items, new_items = split_allowed_tools(old), split_allowed_tools(new)
    old_grants = _baseline(old_items)
    new_grants = [_valid_grant(entry) for entry in new_items]
    present = {g for g in new_grants if g is not None}
    first_old: dict[Grant, str] = {}
    for entry, old_grant in zip(old_items, old_grants, strict=True):
        first_old.setdefault(old_grant, entry)
    judged: list[DiffEntry] = []
    for index, (entry, grant) in enumerate(zip(new_items, new_grants, strict=True)):
        if len(new_items) > MAX_ENTRIES_PER_VALUE:
            reason = (f"the new list has {len(new_items)} entries, over the limit of "
                      f"{MAX_ENTRIES_PER_VALUE} (MAX_ENTRIES_PER_VALUE); rejected whole")
            judged.append(DiffEntry("escalated", entry, Verdict(entry, "unknown", reason),
                                    index=index))
            continue
        verdict = prove(entry, old_items, shell_tools=shell_tools, base_dirs=base_dirs,
                        runtime=runtime)
        if grant is not None and grant in first_old:
            judged.append(DiffEntry("unchanged", entry, verdict, first_old[grant], index))
        elif verdict.status == "inert":
            judged.append(DiffEntry("inert", entry, verdict, index=index))
        elif not verdict.covered or verdict.covered_by is None:
            judged.append(DiffEntry("escalated", entry, verdict, index=index))
        else:
            kind = _covered_kind(entry, verdict, present, shell_tools, base_dirs, runtime)
            judged.append(DiffEntry(kind, entry, verdict, verdict.covered_by, index))
    narrowed = {name for e in judged if e.kind in ("narrowed", "equivalent")
                for name in (e.verdict.covered_by, *e.verdict.also_covered_by)}
    approved_new = [e for e, g in zip(new_items, new_grants, strict=True) if g is not None]
    seen: set[Grant] = set()
    for index, (entry, old_grant) in enumerate(zip(old_items, old_grants, strict=True)):
        if old_grant in present or old_grant in seen or entry in narrowed:
            continue
        seen.add(old_grant)
        verdict = _still_granted(entry, approved_new, shell_tools, base_dirs, runtime)
        if not verdict.covered:
            judged.append(DiffEntry("removed", entry, verdict, index=index))
    return DiffResult(tuple(judged))


def _covered_kind(entry: str, verdict: Verdict, present: set[Grant], shell_tools: ShellTools,
                  base_dirs: BaseDirs, runtime: str | Sequence[str] | None) -> DiffKind:
    covers = [verdict.covered_by or "", *verdict.also_covered_by]
    if all(_valid_grant(cover) in present for cover in covers):
        return "added-covered"  # whatever covers it is still granted: it adds nothing
    if all(prove(cover, [entry], shell_tools=shell_tools, base_dirs=base_dirs,
                 runtime=runtime).covered for cover in covers):
        return "equivalent"  # it covers what covers it: the same grant, respelled
    return "narrowed"


def _baseline(entries: list[str]) -> list[Grant]:
    if len(entries) > MAX_ENTRIES_PER_VALUE:
        raise PlanError(f"the old list has {len(entries)} entries; the limit is "
                        f"{MAX_ENTRIES_PER_VALUE} (MAX_ENTRIES_PER_VALUE)")
    grants: list[Grant] = []
    for entry in entries:
        grant = _valid_grant(entry)
        if grant is None:
            reason = _lint_entry(entry, frozenset())[0].message
            raise PlanError(f"old entry {shorten(entry)!r} is not a valid approved entry: "
                            f"{reason}", entry=entry)
        grants.append(grant)
    return grants


def _valid_grant(entry: str) -> Grant | None:
    """The entry's Grant when it could be an approved entry (semantics §5), else None."""
    text, problem = screen(entry)
    if problem is not None:
        return None
    try:
        return parse_grant(text)
    except GrantSyntaxError:
        return None


def _still_granted(entry: str, approved_new: list[str], shell_tools: ShellTools,
                   base_dirs: BaseDirs, runtime: str | Sequence[str] | None) -> Verdict:
    if len(approved_new) > MAX_ENTRIES_PER_VALUE:
        return Verdict(entry, "unknown", "the new list is over MAX_ENTRIES_PER_VALUE")
    return prove(entry, approved_new, shell_tools=shell_tools, base_dirs=base_dirs, runtime=runtime)


# ------------------------------------------------------------------------------------ git


class RevisionError(SkillgrantError, ValueError):
    """``REV:path`` could not be read from git."""


def read_revision(spec: str, cwd: str | os.PathLike[str] | None = None) -> str:
    """The text of a file at a git revision; ``spec`` is ``REV:path`` as git reads it (the path
    is relative to the repository root unless it starts with ``./``).

    Runs ``git cat-file blob`` (no shell): it refuses trees and applies no textconv filter, so
    the text is the committed bytes. Raises RevisionError when git fails or the blob is not
    UTF-8.
    """
    _rev, colon, path = spec.partition(":")
    if not colon or not path or spec.startswith("-"):
        raise RevisionError(f"{spec!r} is not REV:path")
    try:
        done = subprocess.run(["git", "cat-file", "blob", spec], cwd=cwd, capture_output=True,
                              timeout=60, check=False)
    except (OSError, subprocess.SubprocessError) as e:
        raise RevisionError(f"cannot run git to read {spec!r}: {e}") from e
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip() or f"exit {done.returncode}"
        raise RevisionError(f"git cannot read {spec!r}: {detail}")
    try:
        return done.stdout.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RevisionError(f"{spec!r} is not UTF-8 text: {e}") from e
