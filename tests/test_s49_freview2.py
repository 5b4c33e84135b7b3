"""Review s49-freview2 of s49-ffix's rewrites of the reader's patterns (skillfile.propwalk,
skillfile.agentscan, runtime._BUN_READS, yamlapart's needs): does a rewrite answer otherwise
than the pattern it replaced (a file let through, or one refused more), and is it linear?
Each hole's test is listed in ``OPEN``: it fails today and is a strict xfail, so a fix shows as
an unexpected pass (then drop its row).

The differentials (old pattern from main against the rewrite, seeded random texts of the
patterns' own characters) found no text answered otherwise: the report
(/work/wt/reports/s49-freview2-report.md) has the counts. What they cannot see is time.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from review_table import LeftOpen

from skillgrant.skillfile.pluginparts import agents_run

#: Each hole's test (or case), and why it fails today (tests/conftest.py reads ``OPEN``).
OPEN = LeftOpen()
_open = OPEN.add

# F1 (availability: check/apply of a plugin): agentscan.first_run, s49-ffix's walk of the
# plugin agent rule (pluginparts' old ``_RUNS``), keeps one token end (``_Text.token_end``'s
# low..high) and no memo of a start's answer. An anchor start ``&`` after ``,``/``[``/``:``
# inside one long ``\S`` run (``,&,&,&...``) measures the run's token end, then the property
# after the run (`` &y``) moves the kept end to its own token; the next anchor start inside the
# run measures the run again, to its end: n starts x n characters. The old ``_RUNS`` was as
# slow on these texts (16,005 characters 0.15 s, 32,005 0.52 s), so the rewrite left this shape
# quadratic. Measured (first_run, process time): 32,005 characters 0.55 s, 64,005 2.1 s,
# 128,005 8.4 s (a complex key's start ``[?&`` x n then `` &y``: 24,005 0.72 s, 48,005 2.4 s);
# an agent file may hold 1 MB (~9 minutes). The file is read (no rule matches):
# ``skillgrant check`` of the plugin hangs. Fix guess: memo each anchor start's answer by the
# run's end (every start inside one run ends its token where the run does), or keep the run's
# end apart from the property walk's.
F1 = {
    "comma-anchors-then-a-property": ",&" * 10_000 + " &y x\n",
    "bracket-anchors-then-a-property": "[&" * 10_000 + " &y x\n",
    "colon-anchors-then-a-tag-next-line": ":&" * 10_000 + "\n!y x\n",
    "complex-keys-then-a-property": "[?&" * 7_000 + " &y x\n",
}
# (F1: closed by s49-ffix, token ends bisected from the runs listed once; answers kept)


@pytest.mark.parametrize("row", sorted(F1))
def test_f1_a_plugin_agent_file_of_anchor_runs_is_read_in_time(tmp_path: Path, row: str) -> None:
    agent = tmp_path / "agents" / "a.md"
    agent.parent.mkdir()
    agent.write_text("---\nname: a\ndescription: d\n---\n" + F1[row])
    started = time.process_time()
    agents_run([str(agent)])  # (no rule matches: the file is read, not refused)
    assert time.process_time() - started < 0.1  # (linear: 20,000 characters take ~0.01 s)
