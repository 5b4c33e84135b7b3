"""A hook request's query, and what denies a call before it is decided: the options the query
may set (``skillgrant hook``'s), the plan's pinned digest, and the session's problem."""

from __future__ import annotations

from ..gate.hook import OPTION_CHOICES, Options
from ..gate.planfile import pin_changed

#: The hook options a request's query may set, with their values (``skillgrant hook``'s).
HOOK_QUERY: dict[str, tuple[str, ...]] = {
    name: choices for name in ("dialect", "outside", "inside")
    if (choices := OPTION_CHOICES[f"--{name}"]) is not None}
#: The query parameter pinning the served plan's digest (``serve --print-config`` writes it):
#: a plan file changed since then denies every call (issue 29, W1c).
PIN = "plan-sha256"


class QueryError(ValueError):
    """A hook request's query names an unknown option, one twice, or a value not allowed."""


def refused(options: Options, digest: str, text: str, session: str | None) -> str | None:
    """Why a call to a served plan is denied before it is decided: the plan is not the one
    pinned, or the request's session is not the service's (review M-1: ``session``, the
    session's problem); None otherwise."""
    pinned = options.get("--plan-sha256")
    # The served plan's digest was taken when it was read: it is not taken again.
    changed = None if pinned is None or "sha256:" + pinned == digest else \
        pin_changed(pinned, text)
    if changed is not None:
        return changed
    return session


def hook_options(values: dict[str, list[str]]) -> Options:
    """The hook's options from a request's query. Raises QueryError."""
    options = Options()
    for name, given in values.items():
        if name not in HOOK_QUERY and name != PIN:
            raise QueryError(f"unknown query parameter {name!r}")
        if len(given) != 1:
            raise QueryError(f"the query parameter {name!r} is given {len(given)} times")
        if name == PIN:  # checked against the served plan (``planfile.pin_changed``)
            options.values["--plan-sha256"] = given[0]
            continue
        if given[0] not in HOOK_QUERY[name]:
            raise QueryError(f"{name} must be one of {', '.join(HOOK_QUERY[name])}, not "
                             f"{given[0]!r}")
        options.values[f"--{name}"] = given[0]
    return options


def dialect_of(values: dict[str, list[str]]) -> str:
    """The dialect a query names, to answer even a bad request in (``auto`` when unclear)."""
    given = values.get("dialect", [])
    return given[0] if len(given) == 1 and given[0] in HOOK_QUERY["dialect"] else "auto"
