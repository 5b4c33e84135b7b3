"""The two CI formats every command shares: GitHub workflow commands and SARIF 2.1.0.

A command turns its results into ``FileFindings`` (an artifact path, an input error or None,
and located ``Finding`` values, each naming a stable ``rules.Rule``) and hands them to
``github_annotations`` or ``sarif_log``. ``check``/``apply`` build them in ``reports.check``;
``lint``/``diff`` in ``reports.lint`` and ``reports.diff``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from .escape import dumps, printable

if TYPE_CHECKING:
    from ..rules import Rule
    from ..verdicts import Verdict

SARIF_SCHEMA_URI: Final = "https://json.schemastore.org/sarif-2.1.0.json"


def artifact_path(path: Path, root: Path) -> str:
    """How a report names a file: ``path`` relative to the repository ``root`` in POSIX form
    (SARIF's artifact location under ``%SRCROOT%``), or absolute when it is outside ``root``."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(root).as_posix()
    except ValueError:
        return absolute.as_posix()


@dataclass(frozen=True)
class Location:
    """1-based line and column in a file."""

    line: int
    column: int = 1


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


#: One file's share of a github or sarif report: its artifact path (repository-relative POSIX,
#: or absolute), its input error (if any) and its findings.
FileFindings = tuple[str, FileError | None, Sequence[Finding]]


def _error_location(error: FileError) -> Location | None:
    return None if error.line is None else Location(error.line, error.column or 1)


# --- GitHub workflow commands -------------------------------------------------------------

def _gh_data(text: str) -> str:
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _gh_property(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def _gh_command(level: str, artifact: str, location: Location | None, title: str,
                message: str) -> str:
    props = [f"file={_gh_property(artifact)}"]
    if location is not None:
        props += [f"line={location.line}", f"col={location.column}"]
    props.append(f"title={_gh_property(title)}")
    return f"::{level} {','.join(props)}::{_gh_data(message)}"


_GH_LEVEL: Final = {"error": "error", "warning": "warning", "note": "notice"}


def github_annotations(files: Iterable[FileFindings]) -> str:
    """Workflow commands for findings and input errors, one line each."""
    out = []
    for artifact, error, found_in_file in files:
        if error is not None:
            out.append(_gh_command("error", artifact, _error_location(error),
                                   "skillgrant: input error", error.message))
        for found in found_in_file:
            out.append(_gh_command(_GH_LEVEL[found.rule.level], artifact, found.location,
                                   f"{found.rule.id} {found.rule.name}", found.message))
    return "".join(line + "\n" for line in out)


# --- SARIF 2.1.0 --------------------------------------------------------------------------

_DRIVE = re.compile(r"[A-Za-z]:/")


def _artifact_location(artifact: str) -> dict[str, Any]:
    from urllib.parse import quote

    if artifact.startswith("/"):
        return {"uri": "file://" + quote(artifact)}
    if _DRIVE.match(artifact):
        return {"uri": "file:///" + quote(artifact, safe="/:")}
    # A ':' stays escaped: in a relative reference it would read as a URI scheme.
    return {"uri": quote(artifact), "uriBaseId": "%SRCROOT%"}


def _region(location: Location | None) -> dict[str, Any]:
    if location is None:
        return {}
    return {"region": {"startLine": location.line, "startColumn": location.column}}


def _sarif_rule(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.help},
        "help": {"text": rule.help},
        "defaultConfiguration": {"level": rule.level},
        "properties": {"tags": ["security"]},
    }


def _properties(found: Finding) -> dict[str, Any] | None:
    if found.properties is not None:
        return dict(found.properties)
    if found.verdict is not None:
        return {"entry": found.verdict.entry, "status": found.verdict.status,
                "witness": found.verdict.witness, "coveredBy": found.verdict.covered_by}
    return None


def sarif_log(files: Iterable[FileFindings], *, rules: Sequence[Rule], version: str,
              root_uri: str | None) -> str:
    """A SARIF 2.1.0 log with one run: the driver lists ``rules``; results carry their stable
    IDs and repository-relative URIs (``uriBaseId`` ``%SRCROOT%``, resolved by ``root_uri``
    when given); input errors are tool execution notifications."""
    index = {rule.id: i for i, rule in enumerate(rules)}
    results: list[dict[str, Any]] = []
    notifications: list[dict[str, Any]] = []
    for artifact, error, found_in_file in files:
        where = _artifact_location(artifact)
        if error is not None:
            notifications.append({
                "level": "error",
                "message": {"text": printable(error.message)},
                "locations": [{"physicalLocation": {"artifactLocation": where,
                                                    **_region(_error_location(error))}}],
            })
        for found in found_in_file:
            item: dict[str, Any] = {
                "ruleId": found.rule.id,
                "ruleIndex": index[found.rule.id],
                "level": found.rule.level,
                "message": {"text": found.message},
                "locations": [{"physicalLocation": {"artifactLocation": where,
                                                    **_region(found.location)}}],
            }
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
