"""The guarded set of the call being decided (``named.GUARDED``), in a module of its own so
that a rule ``named`` asks (``readers``) reads it without importing ``named``."""

from __future__ import annotations

from contextvars import ContextVar

#: Files and folders (``True``: the whole tree) the gate itself reads or runs from while it
#: decides — its plan, its audit log, the settings and SKILL.md holding its hooks, its own
#: installation — as real paths; a call that writes one is ``unknown`` (review W1, W2: the model
#: would rewrite its own ceiling). The hook sets them for each call (``guards.guarding``).
GUARDED: ContextVar[tuple[tuple[str, bool], ...]] = ContextVar("guarded", default=())
