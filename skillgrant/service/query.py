"""A hook request's query, and what denies a call before it is decided: the options the query
may set (``skillgrant hook``'s), the plan's pinned digest, and the session's problem."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..gate.hook import OPTION_CHOICES, Options
from ..gate.planfile import pin_changed

if TYPE_CHECKING:
    from fastapi import FastAPI

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


#: The hook endpoint in ``/openapi.json`` (FastAPI does not route it: ``app.front``).
HOOK_OPENAPI: dict[str, Any] = {
    "summary": "Hook",
    "description": "A runtime's hook payload in, that runtime's hook JSON out, exactly as "
                   "skillgrant hook answers. Always 200: a denial, or an empty body when the "
                   "runtime's own permissions decide. Every failure is a denial.",
    "operationId": "hook",
    "parameters": [
        {"name": "plan", "in": "path", "required": True, "schema": {"type": "string"}},
        *({"name": name, "in": "query", "required": False,
           "schema": {"type": "string", "enum": list(values), "default": values[0]}}
          for name, values in HOOK_QUERY.items())],
    "requestBody": {"required": True, "content": {"application/json": {"schema": {
        "type": "object", "description": "The runtime's PreToolUse hook payload."}}}},
    "responses": {"200": {"description": "The runtime's hook JSON, or empty.",
                          "content": {"application/json": {"schema": {"type": "object"}}}}},
}


def document_hook(api: FastAPI) -> None:
    """Add the hook endpoint, which FastAPI does not route, to ``/openapi.json``."""
    made = api.openapi

    def openapi() -> dict[str, Any]:
        schema = made()
        schema["paths"].setdefault("/v1/hook/{plan}", {"post": HOOK_OPENAPI})
        return schema

    api.openapi = openapi  # type: ignore[method-assign]
