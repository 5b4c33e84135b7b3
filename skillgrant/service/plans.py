"""The plans a service serves, by name: read at start, reloaded on SIGHUP or when a file changes.

A reload is atomic per plan: the new plan is read and prepared whole, then put in place with
one assignment, so a request sees the old plan or the new one, never a mix. A plan that fails
to load on reload keeps the one before it, and the failure is logged and shown by
``/v1/health``. A plan that fails to load at start stops the service from starting. No request
changes a plan.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..errors import SkillgrantError

if TYPE_CHECKING:
    from ..gate.hook import LoadedPlan
    from ..plan.light import ApprovedPlan
    from ..plan.model import Plan

#: A served plan's name: what the hook's URL and the requests name it by.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")

#: What a plan's file looked like when it was read: device, inode, size, modification and
#: change times (the change time is the kernel's: no one can set it back).
Stamp = tuple[int, int, int, int, int]


class PlanSpec(NamedTuple):
    """``[NAME=]PATH`` from the command line: the plan's name and its file (absolute)."""

    name: str
    path: str
    kind: str = "auto"


class ServedPlan(NamedTuple):
    """One plan as the service holds it: the plan model (for prove, constrain, apply, lint),
    the gate's prepared plan (for hooks and check-call), its digest and when it was read."""

    spec: PlanSpec
    plan: ApprovedPlan | Plan
    loaded: LoadedPlan
    digest: str
    stamp: Stamp | None
    loaded_at: float
    #: A SKILL.md plan's folder: what the plan's own scripts are, guarded as ``skillgrant hook
    #: --skill-dir`` guards them (review F8); None for a plan file.
    skill_dir: str | None = None


def parse_spec(text: str, kind: str = "auto") -> PlanSpec:
    """``NAME=PATH`` or ``PATH`` (named after the file: its stem, or a SKILL.md's folder).
    Raises ValueError for a name that is not a NAME."""
    name, eq, path = text.partition("=")
    if not eq or "/" in name or not name:
        name, path = "", text
    absolute = os.path.abspath(path)
    if not name:
        stem, _ = os.path.splitext(os.path.basename(absolute))
        name = os.path.basename(os.path.dirname(absolute)) if stem == "SKILL" else stem
    if NAME.fullmatch(name) is None:
        raise ValueError(f"the plan name {name!r} is not a name (letters, digits, '_', '-', "
                         "'.', at most 64): give one as NAME=PATH")
    return PlanSpec(name, absolute, kind)


def load_served(spec: PlanSpec) -> ServedPlan:
    """Read and prepare the plan ``spec`` names. Raises PlanError (or OSError)."""
    from ..gate.hook import LoadedPlan
    from ..gate.planfile import digest
    from ..gate.verdict import call_plan
    from ..plan.files import is_skill, read_plan_file
    from ..plan.light import plan_from_text

    stamp = _stamp(spec.path)  # before the read: a change during it is seen by the next poll
    text = read_plan_file(spec.path, spec.kind)
    plan = plan_from_text(text, source=spec.path, kind=spec.kind)
    # A SKILL.md plan's ${CLAUDE_SKILL_DIR} is its own folder; a plan file's is not known.
    skill_dir = os.path.dirname(spec.path) if is_skill(spec.path, spec.kind) else None
    placeholders = {"CLAUDE_SKILL_DIR": skill_dir} if skill_dir is not None else {}
    gate_plan = call_plan(plan, placeholders=placeholders)
    gate_plan.prepared()  # PlanError now, not on the first call
    loaded = LoadedPlan(gate_plan, tuple(plan.allowed_tools), text)
    return ServedPlan(spec, plan, loaded, digest(text), stamp, time.time(), skill_dir)


class Plans:
    """The served plans by name. ``log`` receives an event name and its fields."""

    def __init__(self, specs: Sequence[PlanSpec],
                 log: Callable[..., None] = lambda event, **fields: None) -> None:
        names = [spec.name for spec in specs]
        twice = sorted({n for n in names if names.count(n) > 1})
        if twice:
            raise ValueError(f"two plans are named {twice[0]!r}: name them NAME=PATH")
        if not specs:
            raise ValueError("no plan to serve: give --plan at least once")
        self._specs = tuple(specs)
        self._log = log
        self._lock = threading.Lock()
        self._served = {spec.name: load_served(spec) for spec in specs}
        #: The last reload failure of each plan, and the file's stamp it was read at (a file
        #: that stays broken is reported once, not on every poll).
        self.errors: dict[str, str] = {}
        self._failed: dict[str, Stamp | None] = {}

    def get(self, name: str) -> ServedPlan | None:
        return self._served.get(name)

    def served(self) -> list[ServedPlan]:
        return [self._served[spec.name] for spec in self._specs]

    def reload(self, *, force: bool = False) -> int:
        """Read again each plan whose file changed (every plan with ``force``); how many were
        replaced. A plan that fails to load keeps the one before it."""
        replaced = 0
        with self._lock:
            for spec in self._specs:
                old = self._served[spec.name]
                now = _stamp(spec.path)
                if not force and now == old.stamp:
                    # The file is the one being served again (a link swapped back): the last
                    # failure no longer holds.
                    self.errors.pop(spec.name, None)
                    self._failed.pop(spec.name, None)
                    continue
                if not force and spec.name in self._failed and now == self._failed[spec.name]:
                    continue
                try:
                    new = load_served(spec)
                except (SkillgrantError, OSError, ValueError) as e:
                    self.errors[spec.name] = str(e)
                    self._failed[spec.name] = now
                    self._log("reload-failed", plan=spec.name, path=spec.path, error=str(e),
                              kept=old.digest)
                    continue
                self.errors.pop(spec.name, None)
                self._failed.pop(spec.name, None)
                self._served[spec.name] = new  # one assignment: a request sees one plan
                if new.digest != old.digest:
                    replaced += 1
                    self._log("reloaded", plan=spec.name, path=spec.path, digest=new.digest,
                              previous=old.digest)
        return replaced


def _stamp(path: str) -> Stamp | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
