"""Claude Code's reading, named in one place for the tests that state it (issue 30).

With no runtime named, skillgrant judges each entry under every runtime that reads
``allowed-tools`` (Claude Code and Copilot CLI), and a message names the runtime under which a
drop holds. The tables, laws, goldens and reports written for Claude Code's reading call these,
which pin ``runtime="claude-code"``; a test of what the default does calls skillgrant's own.
"""

from __future__ import annotations

import functools

from skillgrant import constrain as constrain_any
from skillgrant import prove as prove_any
from skillgrant.plan.model import Plan
from skillgrant.review.lint import diff_entries as diff_any

#: The runtime these tests state the reading of.
RUNTIME = "claude-code"
#: The same, as the command line names it.
CLI = ("--runtime", RUNTIME)

prove = functools.partial(prove_any, runtime=RUNTIME)
constrain = functools.partial(constrain_any, runtime=RUNTIME)
diff_entries = functools.partial(diff_any, runtime=RUNTIME)


def claude_plan(plan: Plan) -> Plan:
    """``plan`` judged under Claude Code alone (as a plan file's ``runtime: claude-code``)."""
    return plan.model_copy(update={"runtime": [RUNTIME]})
