"""The plan a hook judges against: loaded from its file with its digest (the audit log names
the plan each decision was made with).

A hook starts on every tool call, and PyYAML's import alone costs about as much as the rest of
a decision. So a JSON plan of the common shape (``allowed-tools`` and ``x-`` keys only) is read
with ``json`` and the light plan's own checks (``plan.light.approved_only``); that is exactly
what ``plan_from_text`` does with such a text. Any other plan, and any JSON that is not plainly
of that shape (duplicate keys, nesting past the limit, a settings.json), takes the full reader,
which reports its errors with file, line and column.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from ..plan.files import DuplicateKey, is_skill, no_duplicates, read_plan_file, too_deep
from ..plan.light import approved_only

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Any

    from ..plan.light import ApprovedPlan
    from ..plan.model import Plan


def load(path: str, kind: str = "auto") -> tuple[ApprovedPlan | Plan, str]:
    """The plan at ``path`` and its text. Raises PlanError."""
    text = read_plan_file(path, kind)
    light = _json_plan(text, path, kind)
    if light is not None:
        return light, text
    from ..plan.light import plan_from_text

    return plan_from_text(text, source=path, kind=kind), text


def digest(text: str) -> str:
    """The plan text's SHA-256, as the audit log names it and ``--plan-sha256`` pins it."""
    return "sha256:" + sha256_hex(text.encode("utf-8", "surrogatepass"))


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of ``data`` in hex (the plan's pin, the audit log's chain)."""
    found: str = _sha256()(data).hexdigest()
    return found


def _sha256() -> Callable[[bytes], Any]:
    """CPython's own SHA-256 (``_sha2``, ``_sha256`` before 3.12): about 0.2 ms to import,
    where ``hashlib`` loads OpenSSL (about 3 ms), on every hook call with a pinned plan."""
    import sys

    from ..lazy import import_module  # (importlib's package and warnings stay unloaded)

    # (this version's name first: a module not found is a walk of sys.path's folders)
    for name in (("_sha256", "_sha2") if sys.version_info < (3, 12) else ("_sha2", "_sha256")):
        try:
            found: Callable[[bytes], Any] = import_module(name).sha256
            return found
        except (ImportError, AttributeError):
            continue
    from hashlib import sha256

    return sha256


def pinned_digest(path: str, kind: str = "auto") -> str:
    """The hex SHA-256 of the plan file at ``path`` as the hook reads it (``--plan-kind
    kind``): what ``--plan-sha256`` pins into the hook's command. Raises PlanError."""
    return digest(read_plan_file(path, kind)).removeprefix("sha256:")


def pin_changed(pinned: str | None, text: str) -> str | None:
    """Why the plan read (``text``) is not the one ``--plan-sha256`` pinned, or None (nothing
    pinned, or the same plan). A plan rewritten in the session, by any program, stops it
    instead of widening it (issue 29, reviews W1c, W2)."""
    if pinned is None:
        return None
    if len(pinned) != 64 or not all(c in "0123456789abcdef" for c in pinned):
        return f"bad command line: --plan-sha256 must be 64 lower-case hex digits, not {pinned!r}"
    found = digest(text).removeprefix("sha256:")
    if found == pinned:
        return None
    return (f"the plan file holds another plan (sha256 {found}) than the one this hook was "
            f"configured with (sha256 {pinned}): it was changed after it was approved, perhaps "
            "by a call of this session. Every call is denied until the person approves the "
            "plan again (skillgrant apply --enforce, or hook --print-config)")


def _json_plan(text: str, path: str, kind: str) -> ApprovedPlan | None:
    """The plan when ``text`` is plainly a JSON plan the light reader accepts, else None."""
    if kind not in ("auto", "plan") or is_skill(path, kind) or not text.lstrip().startswith("{"):
        return None
    if too_deep(text) is not None:
        return None
    try:
        data = json.loads(text, object_pairs_hook=no_duplicates)
    except (ValueError, DuplicateKey, RecursionError):
        return None
    if kind == "auto" and isinstance(data, dict) and "permissions" in data:
        return None  # perhaps a settings.json: the full reader tells
    return approved_only(data, path)

