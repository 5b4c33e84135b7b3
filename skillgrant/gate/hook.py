"""``skillgrant hook``: one PreToolUse payload on standard input, one decision in the runtime's
contract on standard output.

A call outside the plan is denied (or, with ``--outside ask``, put to the person); a call inside
gets no decision, so the runtime's own permission flow goes on (or, with ``--inside allow``, an
explicit allow). Every failure — an unreadable payload, a plan that does not load, an audit
record that cannot be written, an internal error — is a denial: the dialect's JSON, the reason
on standard error, exit status 2. The answer is composed whole before anything is written, so
the hook never prints partial JSON.

The command line is read here, without typer: a hook starts on every tool call.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

from ..lastresort import DENIAL, write_answer
from ..limits import MAX_HOOK_PAYLOAD_BYTES, MAX_PAYLOAD_DEPTH
from ..records import NamedTuple
from .dialects import (
    DIALECTS,
    Call,
    PayloadError,
    depth_over,
    detect,
    no_decision,
    printable,
    read_call,
    render,
    supports,
)
from .homefiles import NAMED_STATE
from .options import OPTION_CHOICES, USAGE, Options, UsageError, project_folder, read_options

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from contextvars import ContextVar

    from .dialects import Decision
    from .verdict import CallPlan, CallVerdict

__all__ = ["OPTION_CHOICES", "USAGE", "Options", "UsageError", "read_options"]
_MAX_SHOWN_ENTRIES = 20

#: Where a decision's audit record goes: one line of JSON, written whole or OSError.
Sink = Callable[[bytes], None]
#: ``decide``'s payload when its caller has not read it: it reads ``raw``.
UNREAD: object = object()


class Answer(NamedTuple):
    stdout: str
    stderr: str
    status: int


class LoadedPlan(NamedTuple):
    """A plan ready to judge calls against: the gate's plan (placeholders substituted), the
    entries as the plan lists them (a denial names them) and the plan's text (the audit log
    names its digest). ``skillgrant serve`` keeps one per plan across calls."""

    plan: CallPlan
    allowed_tools: tuple[str, ...]
    text: str


def load_plan(path: str, kind: str, placeholders: dict[str, str]) -> LoadedPlan:
    """The plan file at ``path`` read as the hook reads it. Raises PlanError."""
    from .planfile import load
    from .verdict import call_plan

    plan, text = load(path, kind)
    return LoadedPlan(call_plan(plan, placeholders=placeholders), tuple(plan.allowed_tools),
                      text)


#: The answer when even composing a failure's answer failed (review K-2): a denial in Claude
#: Code's JSON, which every dialect blocks on with exit status 2 and the reason on stderr.
_LAST_RESORT = Answer(*DENIAL)


def main(args: Sequence[str]) -> int:
    """Run the hook; its exit status. Nothing escapes: every failure is a denial, and a failure
    while answering one is the fixed denial ``_LAST_RESORT``."""
    try:
        answer = _answered(args)
    except BaseException:
        answer = _LAST_RESORT
    return write_answer(*answer)  # (whole: lastresort.py)


def _answered(args: Sequence[str]) -> Answer:
    """The hook's answer to the command line ``args`` and the payload on standard input."""
    dialect = _named_dialect(args)
    # A person printing a configuration gets usage errors, not a payload's denial (gate/config.py).
    printing = any(token.partition("=")[0] == "--print-config" for token in args)
    observing = False  # a command line that cannot be read is denied, --observe or not
    try:
        options = read_options(args)
        if options.help and os.isatty(0):  # a person asking; in a hook, a bad command line
            return Answer(USAGE, "", 0)
        if options.help:
            raise UsageError("--help in a hook's command")
        if options.get("--observe") is not None and options.get("--audit-log") is None:
            raise UsageError("--observe needs --audit-log: observing logs, and denies nothing")
        if options.get("--print-config") is not None:
            return _print_config(options)
        if options.get("--plan") is None:
            raise UsageError("--plan is required")
        named = options.get("--state-dir")  # (s53-sreview R3: the service's, printed)
        NAMED_STATE[:] = [os.path.abspath(named)] if named else []
        observing = options.get("--observe") is not None
        answer = decide(options, _read_stdin())
    except UsageError as e:
        if printing:
            return Answer("", f"skillgrant: error: {e}\n\n{USAGE}", 2)
        answer = failure(dialect, f"bad command line: {e}\n\n{USAGE}")
    except BaseException as e:  # fail closed: a crash denies the call
        answer = failure(dialect, f"internal error ({_described(e)})")
    if observing:  # observing never denies, whatever failed after its command line was read
        from .observe import observed_answer

        answer = observed_answer(answer)
    return answer


def _described(error: BaseException) -> str:
    """``Type: message`` for an error, even one whose message cannot be made."""
    try:
        return f"{type(error).__name__}: {error}"
    except BaseException:
        return type(error).__name__


def _print_config(options: Options) -> Answer:
    """The configuration ``--print-config`` asks for; a request that cannot be met is a
    UsageError, answered to the person as one (gate/config.py)."""
    from .config import ConfigError, print_config

    try:
        return Answer(*print_config(options.values["--print-config"], options.values), 0)
    except ConfigError as e:
        raise UsageError(str(e)) from e


def _named_dialect(args: Sequence[str]) -> str:
    """The dialect the command line names, read before anything can fail (a failure is
    answered in it), or ``auto``."""
    for i, token in enumerate(args):
        name, eq, value = token.partition("=")
        if name == "--dialect":
            value = value if eq else (args[i + 1] if i + 1 < len(args) else "")
            return value if value in DIALECTS else "auto"
    return "auto"


def decide(options: Options, raw: bytes | None, plan: LoadedPlan | None = None,
           sink: Sink | None = None, payload: object = UNREAD) -> Answer:
    """The answer to one payload (``raw`` None: over the size limit), judged against ``plan``
    or, when it is None, the plan file ``--plan`` names; ``payload`` is ``raw`` read already
    (``json.loads`` of its UTF-8 text), when the caller has read it. Its audit record goes to
    ``sink``, or else to the file ``--audit-log`` names; a record that cannot be written
    denies the call. With ``--observe`` the call is decided and logged exactly so, the record marked
    ``"observed": true``, and the answer is empty (gate/observe.py)."""
    if options.get("--observe") is None:
        return _enforced(options, raw, plan, sink, payload)
    from .observe import observed_answer, observing

    audit = sink if sink is not None else file_sink(options.get("--audit-log"))
    return observed_answer(_enforced(options, raw, plan,
                                     observing(audit) if audit is not None else None, payload))


def _enforced(options: Options, raw: bytes | None, plan: LoadedPlan | None,
              sink: Sink | None, payload: object = UNREAD) -> Answer:
    import json

    wanted = options.get("--dialect") or "auto"
    audit = sink if sink is not None else file_sink(options.get("--audit-log"))
    if raw is None:
        return failure(wanted, f"the payload is over {MAX_HOOK_PAYLOAD_BYTES} bytes "
                       "(MAX_HOOK_PAYLOAD_BYTES)", audit=audit)
    try:
        if payload is UNREAD:
            payload = json.loads(raw.decode("utf-8"))
    except RecursionError:
        return failure(wanted, "the payload is nested too deeply", audit=audit)
    except ValueError as e:
        return failure(wanted, f"the payload is not JSON: {e}", audit=audit)
    if wanted == "auto" and isinstance(payload, dict):
        wanted = detect(payload)  # a payload it cannot read is answered in its own dialect
    # JSON nests no deeper than its count of opening brackets: most payloads need no walk.
    brackets = raw.count(b"{") + raw.count(b"[")
    if brackets > MAX_PAYLOAD_DEPTH and depth_over(payload, MAX_PAYLOAD_DEPTH):
        return failure(wanted, f"the payload nests deeper than {MAX_PAYLOAD_DEPTH} "
                        "(MAX_PAYLOAD_DEPTH)", audit=audit)
    try:
        call = read_call(payload, wanted)
    except PayloadError as e:
        return failure(wanted, str(e), audit=audit)
    if not _follows(options, call):
        return Answer("", "", 0)  # the main agent's call: the skill's own hook judges it
    return _judge(options, call, plan, audit)


def file_sink(path: str | None) -> Sink | None:
    """A sink appending each record to the audit log at ``path`` (None: no audit log)."""
    if path is None:
        return None
    from .audit import append

    return lambda line: append(path, line)


class _Gate(NamedTuple):
    """What judging a call uses, imported at the first call judged (``_gate``): the hook's
    start-up imports no more than it needs, and a service judging call after call does not
    import them again each time (an import statement costs a microsecond)."""

    error: type[Exception]
    check_call: Callable[..., CallVerdict]
    followed: Callable[..., CallVerdict]
    guarded: ContextVar[tuple[tuple[str, bool], ...]]
    planned_items: Callable[..., tuple[tuple[str, bool], ...]]


_GATE: list[_Gate] = []


def _gate() -> _Gate:
    if not _GATE:
        from ..errors import SkillgrantError
        from .call import check_call
        from .following import followed
        from .guards import planned_items
        from .named import GUARDED

        _GATE.append(_Gate(SkillgrantError, check_call, followed, GUARDED, planned_items))
    return _GATE[0]


def _judge(options: Options, call: Call, loaded: LoadedPlan | None,
           audit: Sink | None) -> Answer:
    gate = _GATE[0] if _GATE else _gate()
    plan_path = options.get("--plan") or ""
    try:
        if loaded is None:
            loaded = _pinned_plan(options, plan_path)
        token = gate.guarded.set(gate.planned_items(
            plan_path, options.get("--audit-log"), options.get("--skill-dir"), call.cwd,
            project_folder(options.get), loaded.allowed_tools))
        try:
            verdict = gate.followed(gate.check_call(call.tool, call.tool_input, loaded.plan,
                                                    cwd=call.cwd), call, options.get)
        finally:
            gate.guarded.reset(token)
    except (gate.error, ValueError) as e:  # ValueError: git's places (gate/worktree.py)
        return failure(call.dialect, f"the plan {plan_path!r} is not usable: {e}"
                       if isinstance(e, gate.error) else
                       f"what the call must not write is not known: {e}", audit=audit, call=call)
    decision: Decision | None
    if verdict.covered:
        decision = "allow" if options.get("--inside") == "allow" else None
        reason = f"skillgrant: inside the approved plan ({verdict.reason})"
    else:
        decision = "ask" if options.get("--outside") == "ask" else "deny"
        reason = _denial(verdict, loaded.allowed_tools)
        if not supports(call.dialect, decision):
            decision = "deny"
    if decision == "allow" and not supports(call.dialect, "allow"):
        decision = None  # Codex reads no plain allow, Copilot CLI is never sent one: it defers
    if audit is not None:
        from .audit import record  # imported only when a record is written
        from .planfile import digest

        line = record(session=call.session, runtime_tool=call.tool, tool=verdict.tool,
                      decision=decision or "none", status=verdict.status, reason=verdict.reason,
                      covered_by=verdict.covered_by, witness=verdict.witness,
                      plan_digest=digest(loaded.text), dialect=call.dialect,
                      tool_input=call.tool_input, cwd=call.cwd)  # the call, for replay
        try:
            audit(line)
        except OSError as e:
            return failure(call.dialect, f"the audit log cannot be written: {e}")
    if decision is None:
        return Answer(no_decision(call.dialect), "", 0)
    if decision == "deny":
        return Answer(render(call.dialect, "deny", reason), printable(reason) + "\n", 2)
    return Answer(render(call.dialect, decision, reason), "", 0)


def _pinned_plan(options: Options, path: str) -> LoadedPlan:
    """The plan ``--plan`` names, loaded, and the one ``--plan-sha256`` pinned (when it is
    given). Raises PlanError."""
    from ..errors import PlanError
    from .planfile import pin_changed

    loaded = load_plan(path, options.get("--plan-kind") or "auto", _placeholders(options))
    changed = pin_changed(options.get("--plan-sha256"), loaded.text)
    if changed is not None:
        raise PlanError(changed, source=path)
    return loaded


def _follows(options: Options, call: Call) -> bool:
    """Whether this call is judged: with ``--for-skill NAME`` (the settings-level hook that
    follows a skill into its subagents, ``gate.subagents``), only a subagent's calls; else
    every call."""
    return options.get("--for-skill") is None or call.agent is not None


def _placeholders(options: Options) -> dict[str, str]:
    """The directories for the plan's placeholders: the skill's from ``--skill-dir`` (``apply
    --enforce`` writes it), the others from the environment the runtime gives its hooks."""
    from .verdict import PLACEHOLDERS

    found = {name: os.environ[name] for name in PLACEHOLDERS
             if name != "CLAUDE_SKILL_DIR" and os.environ.get(name)}
    skill = options.get("--skill-dir")
    if skill:
        found["CLAUDE_SKILL_DIR"] = os.path.abspath(skill)
    return found


def _denial(verdict: CallVerdict, allowed: Sequence[str]) -> str:
    shown = ", ".join(allowed[:_MAX_SHOWN_ENTRIES]) or "no tools"
    if len(allowed) > _MAX_SHOWN_ENTRIES:
        shown += f", … ({len(allowed)} entries)"
    outside = "is outside" if verdict.status == "not_covered" else "is not known to be inside"
    witness = f" Not allowed: {verdict.witness!r}." if verdict.witness else ""
    return (f"skillgrant: this {verdict.runtime_tool} call {outside} the approved plan: "
            f"{verdict.reason}.{witness} The plan allows: {shown}. Stay within it, or ask the "
            "person to approve a wider plan.")


def failure(dialect: str, problem: str, *, audit: Sink | None = None,
            call: Call | None = None) -> Answer:
    """A denial for a failure: the dialect's JSON, the reason on standard error, exit 2; its
    record to ``audit``, when there is one."""
    reason = f"skillgrant hook failed closed, so the call is denied: {problem}"
    if audit is not None:
        try:  # the call is denied either way
            from .audit import record

            audit(record(session=call and call.session, runtime_tool=call and call.tool,
                         tool=None, decision="deny", status="error", reason=problem,
                         dialect=dialect))
        except Exception:  # (a record that cannot be written: the call is denied too)
            pass
    shown = dialect if dialect in DIALECTS else "claude-code"
    return Answer(render(shown, "deny", reason), printable(reason) + "\n", 2)


def _read_stdin() -> bytes | None:
    """Standard input, or None when it is over MAX_HOOK_PAYLOAD_BYTES (read no further)."""
    data = sys.stdin.buffer.read(MAX_HOOK_PAYLOAD_BYTES + 1)
    return None if len(data) > MAX_HOOK_PAYLOAD_BYTES else data


def entry() -> None:
    """``python -m skillgrant.gate.hook``."""
    sys.exit(main(sys.argv[1:]))


if __name__ == "__main__":
    entry()
