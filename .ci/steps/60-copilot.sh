# The Copilot CLI conformance suite against the pinned Copilot CLI (tests/conformance/cp_runtime.py
# pins it). Sourced by .ci/run with $venv set. Interactive sessions are slow (about 9 s each on
# 2 quiet cores, 20-30 s on busy ones), so CI runs the rows, the samples, a seeded sample of 6
# real files and 6 generated cases, each profile rule and witness through the binary, and the
# gate's cases (subagents included): 70 sessions, 20 min 46 s wall measured on 2 cores under a
# load of 35-40 (3 December 2026); on quiet ones, at 9 s a session, about 6 min (estimated).
# Without --copilot-cases and --copilot-corpus, all of them run
# (docs/decisions.md, "Issue 30 re-applied", has the counts). The reviews' Copilot cases
# (tests/conformance/test_copilot_s4*.py: 27, about 40 s) run with them.
# When the runtime cannot be installed, say so in one plain line and keep the rest's result.
if installed=$("$venv/bin/python" tests/conformance/cp_runtime.py install 2>&1); then
  echo "$installed"
  "$venv/bin/python" -m pytest -q -p no:cacheprovider --copilot-cases 6 --copilot-corpus 6 \
    tests/conformance/test_copilot_conformance.py tests/conformance/test_copilot_gate_e2e.py \
    tests/conformance/test_copilot_s4*.py \
    --conformance --copilot --conformance-workers 2 || status=1
else
  echo "COPILOT CLI SUITE NOT RUN: $(echo "$installed" | tail -n 1)"
fi
