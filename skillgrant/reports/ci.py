"""The two CI formats every command shares: GitHub workflow commands and SARIF 2.1.0.

A command turns its results into ``FileFindings`` (an artifact path, an input error or None,
and located ``Finding`` values, each naming a stable ``rules.Rule``) and hands them to
``github_annotations`` or ``sarif_log``. ``check``/``apply`` build them in ``reports.check``;
``lint``/``diff`` in ``reports.lint`` and ``reports.diff``.

A finding about an entry spans the entry's text: both formats give its end as well as its start
(``entry_end``). Each SARIF rule links to its documentation (``help_uri``) and carries the
``security-severity`` GitHub code scanning ranks alerts by (``security_severity``); each result
carries a fingerprint that does not depend on line numbers (``fingerprint``).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from ..frozen import quick_init
from ..pathnames import absolute
from .escape import dumps, printable

if TYPE_CHECKING:
    from ..rules import Rule
    from ..verdicts import Verdict

SARIF_SCHEMA_URI: Final = "https://json.schemastore.org/sarif-2.1.0.json"

#: Where the repository's documents are read on the web. SARIF wants an absolute ``helpUri``
#: (a relative one has no base a viewer knows), so every rule's link is this base plus a
#: path in the repository: the one place to change when the repository moves.
DOCS_BASE: Final = "https://github.com/skillgrant/skillgrant/blob/main/"


def artifact_path(path: Path, root: Path) -> str:
    """How a report names a file: ``path`` relative to the repository ``root`` in POSIX form
    (SARIF's artifact location under ``%SRCROOT%``), or absolute when it is outside ``root``.

    On POSIX the names are compared as strings (a batch names every file: pathlib costs ten
    times as much): ``abspath`` and a ``Path``'s text are both normalised, so ``root``'s text
    plus ``/`` begins exactly the paths inside it. A path that starts with ``//`` (its own
    anchor in pathlib) goes the pathlib way."""
    if os.name == "posix":
        named = absolute(path)  # (os.path.abspath's answer)
        base = os.fspath(root)
        if not named.startswith("//") and not base.startswith("//"):
            if named == base:
                return "."
            inside = base if base.endswith("/") else base + "/"
            return named[len(inside):] if named.startswith(inside) else named
    whole = Path(os.path.abspath(path))
    try:
        return whole.relative_to(root).as_posix()
    except ValueError:
        return whole.as_posix()


class Location(NamedTuple):
    """1-based line and column in a file; for an entry, ``end`` is the line and column of its
    last character as written (None: worked out from the entry's text).

    A record (a tuple): a batch makes one for every entry of every file, and a tuple costs a
    third of a frozen dataclass's instance to make (session 61); ``cli.batch`` makes them by
    ``tuple.__new__(Location, (line, column, end))``, without the record's ``__new__``."""

    line: int
    column: int = 1
    end: tuple[int, int] | None = None


@quick_init
@dataclass(frozen=True)
class FileError:
    """An input error for one file (the file was left untouched)."""

    message: str
    line: int | None = None
    column: int | None = None


@dataclass(frozen=True)
class Finding:
    """A rule hit, located in a file. ``verdict`` is the decision behind a check/apply finding
    (None for a file-level one, such as a restore); ``properties`` is the SARIF property bag
    of other commands' findings (used instead of the verdict's when given)."""

    rule: Rule
    message: str
    location: Location | None
    verdict: Verdict | None = None
    properties: Mapping[str, object] | None = None

    @property
    def entry(self) -> str:
        """The entry the finding is about, as written; ``""`` for one about a whole file or
        list (a restore, a lint finding about the value)."""
        if self.verdict is not None:
            return self.verdict.entry
        entry = (self.properties or {}).get("entry")
        return entry if isinstance(entry, str) else ""


#: One file's share of a github or sarif report: its artifact path (repository-relative POSIX,
#: or absolute), its input error (if any) and its findings.
FileFindings = tuple[str, FileError | None, Sequence[Finding]]


def _error_location(error: FileError) -> Location | None:
    return None if error.line is None else Location(error.line, error.column or 1)


def entry_end(start: Location, entry: str) -> Location:
    """Where an entry that starts at ``start`` ends: the line and column of its last character
    (columns count code points, as the locations do; an entry may run over lines).

    >>> entry_end(Location(4, 16), "Bash(gh *)")
    Location(line=4, column=25)
    """
    breaks = entry.count("\n")
    if not breaks:
        return Location(start.line, start.column + max(len(entry), 1) - 1)
    return Location(start.line + breaks, max(len(entry) - entry.rindex("\n") - 1, 1))


def _span(found: Finding) -> tuple[Location, Location] | None:
    """The start and (inclusive) end of what a finding is about; None when it has no
    location. A finding about no entry ends where it starts."""
    if found.location is None:
        return None
    if not found.entry:
        return found.location, found.location
    if found.location.end is not None:
        return found.location, Location(*found.location.end)
    return found.location, entry_end(found.location, found.entry)


# --- GitHub workflow commands -------------------------------------------------------------

def _gh_data(text: str) -> str:
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _gh_property(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def _gh_position(span: tuple[Location, Location] | None) -> list[str]:
    if span is None:
        return []
    start, end = span
    if start == end:
        return [f"line={start.line}", f"col={start.column}"]
    if start.line != end.line:
        # The runner drops an annotation's columns when it spans lines.
        return [f"line={start.line}", f"endLine={end.line}"]
    return [f"line={start.line}", f"col={start.column}", f"endLine={end.line}",
            f"endColumn={end.column}"]


def _gh_command(level: str, artifact: str, span: tuple[Location, Location] | None, title: str,
                message: str) -> str:
    props = [f"file={_gh_property(artifact)}", *_gh_position(span),
             f"title={_gh_property(title)}"]
    return f"::{level} {','.join(props)}::{_gh_data(message)}"


_GH_LEVEL: Final = {"error": "error", "warning": "warning", "note": "notice"}


def github_annotations(files: Iterable[FileFindings]) -> str:
    """Workflow commands for findings and input errors, one line each. A finding about an
    entry spans it: ``endLine`` and ``endColumn`` (inclusive) are those of its last
    character."""
    out = []
    for artifact, error, found_in_file in files:
        if error is not None:
            where = _error_location(error)
            out.append(_gh_command("error", artifact, None if where is None else (where, where),
                                   "skillgrant: input error", error.message))
        for found in found_in_file:
            out.append(_gh_command(_GH_LEVEL[found.rule.level], artifact, _span(found),
                                   f"{found.rule.id} {found.rule.name}", found.message))
    return "".join(line + "\n" for line in out)


# --- SARIF 2.1.0 --------------------------------------------------------------------------

_DRIVE = re.compile(r"[A-Za-z]:/")


def _artifact_location(artifact: str) -> dict[str, Any]:
    from urllib.parse import quote

    # A file name's byte that is not UTF-8 (a lone surrogate here) is that byte, %-escaped.
    name = artifact.encode("utf-8", "surrogateescape")
    if artifact.startswith("/"):
        return {"uri": "file://" + quote(name)}
    if _DRIVE.match(artifact):
        return {"uri": "file:///" + quote(name, safe="/:")}
    # A ':' stays escaped: in a relative reference it would read as a URI scheme.
    return {"uri": quote(name), "uriBaseId": "%SRCROOT%"}


def _region(location: Location | None) -> dict[str, Any]:
    if location is None:
        return {}
    return {"region": {"startLine": location.line, "startColumn": location.column}}


def _entry_region(found: Finding) -> dict[str, Any]:
    span = _span(found)
    if span is None or not found.entry:
        return _region(found.location)
    start, end = span
    # SARIF's endColumn is the column after the region's last character.
    return {"region": {"startLine": start.line, "startColumn": start.column,
                       "endLine": end.line, "endColumn": end.column + 1}}


def help_uri(rule: Rule) -> str:
    """The rule's documentation on the web: its own section of docs/lint-rules.md for a lint
    rule, the rule table of docs/cli.md for the others.

    >>> from skillgrant.rules import RULE_BY_ID
    >>> help_uri(RULE_BY_ID["SGL103"])
    'https://github.com/skillgrant/skillgrant/blob/main/docs/lint-rules.md#sgl103'
    """
    if rule.id.startswith("SGL"):
        return f"{DOCS_BASE}docs/lint-rules.md#{rule.id.lower()}"
    return f"{DOCS_BASE}docs/cli.md#rules"


#: A rule's ``security-severity`` by its level: GitHub code scanning reads a number from 0.0 to
#: 10.0, written as a string, and ranks an alert critical from 9.0, high from 7.0, medium from
#: 4.0, low below that.
_SECURITY_SEVERITY: Final = {"error": "8.0", "warning": "5.0", "note": "2.0"}
#: The rules that mean a grant is wider than what a person approved: an entry with a witness
#: the plan does not allow (SG001) and a change to a plan that grants more (SGD001). They rank
#: highest.
_WIDENING: Final = frozenset({"SG001", "SGD001"})
_WIDENING_SEVERITY: Final = "9.5"


def security_severity(rule: Rule) -> str:
    """The ``security-severity`` of a rule's SARIF descriptor (see ``_SECURITY_SEVERITY``).

    >>> from skillgrant.rules import RULE_BY_ID
    >>> [security_severity(RULE_BY_ID[i]) for i in ("SG001", "SG003", "SG002", "SG007")]
    ['9.5', '8.0', '5.0', '2.0']
    """
    if rule.id in _WIDENING:
        return _WIDENING_SEVERITY
    return _SECURITY_SEVERITY[rule.level]


def _sarif_rule(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.help},
        "help": {"text": rule.help},
        "helpUri": help_uri(rule),
        "defaultConfiguration": {"level": rule.level},
        "properties": {"tags": ["security"], "security-severity": security_severity(rule)},
    }


#: The name of the results' partial fingerprint (SARIF asks for ``name/vN``): bump the version
#: if what is hashed ever changes, so that a viewer does not match old alerts to new ones.
FINGERPRINT_KEY: Final = "skillgrantEntryHash/v1"


def fingerprint(rule_id: str, artifact: str, entry: str, occurrence: int = 0) -> str:
    """A result's partial fingerprint: a hash of its rule, its file and the entry's text, and
    of how many results before it in the file had those three (so a repeated entry is a
    result of its own). No line or column goes in: moving an entry keeps its fingerprint.

    >>> fingerprint("SG001", "a/SKILL.md", "Bash(x)") == fingerprint("SG001", "a/SKILL.md",
    ...                                                              "Bash(x)", 0)
    True
    """
    import hashlib  # only SARIF needs it: a plain check starts without it

    key = "\0".join((rule_id, artifact, entry, str(occurrence)))
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _properties(found: Finding) -> dict[str, Any] | None:
    if found.properties is not None:
        return dict(found.properties)
    if found.verdict is not None:
        return {"entry": found.verdict.entry, "status": found.verdict.status,
                "witness": found.verdict.witness, "coveredBy": found.verdict.covered_by}
    return None


def sarif_log(files: Iterable[FileFindings], *, rules: Sequence[Rule], version: str,
              root_uri: str | None) -> str:
    """A SARIF 2.1.0 log with one run: the driver lists ``rules`` (each with its ``helpUri``
    and ``security-severity``); results carry their stable IDs, repository-relative URIs
    (``uriBaseId`` ``%SRCROOT%``, resolved by ``root_uri`` when given), the entry's region and
    a partial fingerprint; input errors are tool execution notifications."""
    index = {rule.id: i for i, rule in enumerate(rules)}
    results: list[dict[str, Any]] = []
    notifications: list[dict[str, Any]] = []
    for artifact, error, found_in_file in files:
        seen: Counter[tuple[str, str]] = Counter()
        where = _artifact_location(artifact)
        if error is not None:
            notifications.append({
                "level": "error",
                "message": {"text": printable(error.message)},
                "locations": [{"physicalLocation": {"artifactLocation": where,
                                                    **_region(_error_location(error))}}],
            })
        for found in found_in_file:
            same = (found.rule.id, found.entry)
            item: dict[str, Any] = {
                "ruleId": found.rule.id,
                "ruleIndex": index[found.rule.id],
                "level": found.rule.level,
                "message": {"text": found.message},
                "locations": [{"physicalLocation": {"artifactLocation": where,
                                                    **_entry_region(found)}}],
                "partialFingerprints": {FINGERPRINT_KEY: fingerprint(
                    found.rule.id, artifact, found.entry, seen[same])},
            }
            seen[same] += 1
            properties = _properties(found)
            if properties is not None:
                item["properties"] = properties
            results.append(item)
    sarif_run: dict[str, Any] = {
        "tool": {"driver": {"name": "skillgrant", "version": version,
                            "semanticVersion": version,
                            "rules": [_sarif_rule(rule) for rule in rules]}},
        "invocations": [{"executionSuccessful": not notifications,
                         "toolExecutionNotifications": notifications}],
        "results": results,
        "columnKind": "unicodeCodePoints",
    }
    if root_uri is not None:
        sarif_run["originalUriBaseIds"] = {"%SRCROOT%": {"uri": root_uri}}
    return dumps({"$schema": SARIF_SCHEMA_URI, "version": "2.1.0", "runs": [sarif_run]})
