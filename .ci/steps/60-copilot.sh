# The Copilot CLI conformance suite against the pinned Copilot CLI (tests/conformance/cp_runtime.py
# pins it). Sourced by .ci/run with $venv set. Interactive sessions are slow (about 9 s each on
# 2 busy cores), so CI runs the rows, the real corpus and a seeded sample of generated cases;
# SKILLGRANT_COPILOT_CASES=full runs all of them. When the runtime cannot be installed, say so in
# one plain line and keep the rest's result.
if installed=$("$venv/bin/python" tests/conformance/cp_runtime.py install 2>&1); then
  echo "$installed"
  SKILLGRANT_COPILOT_CASES="${SKILLGRANT_COPILOT_CASES:-10}" "$venv/bin/python" -m pytest -q \
    -p no:cacheprovider tests/conformance/test_copilot_conformance.py \
    tests/conformance/test_copilot_gate_e2e.py --conformance --copilot \
    --conformance-workers 2 || status=1
else
  echo "COPILOT CLI SUITE NOT RUN: $(echo "$installed" | tail -n 1)"
fi
