"""``--observe`` (``skillgrant hook --observe``, ``skillgrant serve --observe``): every call is
decided and logged exactly as the gate would decide it, and nothing is enforced.

Observing is opt-in, never a default. Each record is the one the gate writes, with
``"observed": true``; the answer to the runtime is always empty with exit status 0, so the
runtime's own permission flow decides every call, as if no hook ran. A call the gate would
have refused is said on standard error (where a runtime shows it only in its debug output).
The log is the evidence ``skillgrant suggest`` reads.
"""

from __future__ import annotations

import json
from collections.abc import Callable

TYPE_CHECKING = False  # typing is not loaded in a hook's process (records.py)
if TYPE_CHECKING:
    from typing import Any, TypeVar

    #: ``gate.hook.Answer`` (named loosely: the hook imports this module).
    A = TypeVar("A", bound=tuple[str, str, int])

#: Where a record goes (``gate.hook.Sink``).
Sink = Callable[[bytes], None]


#: The note ``--print-config`` gives for an observing gate.
CONFIG_NOTE = ("# Observe mode (--observe): skillgrant logs every decision with "
               '"observed": true and never denies a call. This is not enforcement: drop '
               "--observe to enforce the plan.")


def observing(sink: Sink) -> Sink:
    """``sink`` with every record marked ``"observed": true``."""

    def write(line: bytes) -> None:
        body = json.loads(line)
        body["observed"] = True
        sink((json.dumps(body, ensure_ascii=True) + "\n").encode("ascii"))

    return write


def observed_answer(answer: A) -> A:
    """The answer an observing gate gives instead of ``answer`` (a ``gate.hook.Answer``):
    nothing, exit 0; a denial or a question is only said on standard error."""
    stdout, stderr, status = answer
    if status == 0 and not stdout:
        return answer  # nothing enforced (or already observed)
    said = f"skillgrant (observe, not enforced): {stderr.rstrip()}\n" if status else ""
    changed: Any = answer  # an allow or an ask is dropped silently, a denial said
    return changed._replace(stdout="", stderr=said, status=0)  # type: ignore[no-any-return]
