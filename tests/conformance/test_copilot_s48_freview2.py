"""Review s48-freview2 through Copilot CLI 1.0.102 (run with ``--conformance --copilot``): K1, a
plugin agent's ``hooks`` key written with a YAML comment where pluginparts._RUNS wants spaces
(tests/test_s48_freview2.py). The session is s48-freview's C1 one
(test_copilot_s48_freview.py), its agent's lines replaced. The hole row (closed by s48-ffix)
and the control pass."""

from __future__ import annotations

import pytest
import test_copilot_s48_freview as c1
from cp_fixture import copilot
from cp_probe import CopilotJudge
from review_table import LeftOpen

__all__ = ["copilot"]

OPEN = LeftOpen()  # (K1: closed by s48-ffix c51a1b3; the row passes, measured 15:47)

_EVENTS = ", ".join(f'{e}: [{{type: command, bash: "touch {{mark}}_{e}"}}]'
                    for e in ("userPromptSubmitted", "agentStop"))
K1_ROWS = {"k1-explicit-key-comment": f"? # c\n  hooks # d\n: {{{_EVENTS}}}\n",
           "control": "x: &k # c\n  y\n*k : z\n"}


@pytest.mark.parametrize("row", sorted(K1_ROWS))
def test_copilot_k1_a_plugin_agents_commented_hooks_run(copilot: CopilotJudge,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        row: str) -> None:
    """C1's session with the agent's lines ``K1_ROWS[row]``: Copilot CLI runs the hooks, and
    ``check --plan Read .`` must not pass."""
    monkeypatch.setitem(c1.C1_ROWS, "k1", (K1_ROWS[row], None))
    c1.test_copilot_c1_a_plugin_agents_hooks_run(copilot, "k1")
