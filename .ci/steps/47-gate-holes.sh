# The gate's own files, session 37's holes (issue 29, reviews G-5, G-10, G-12, G-16b, G-17,
# G-19): each command run under real bash first (it replaces the gate's settings or runs a
# program outside the plan), then through the printed hook (denied); the options' tables
# against each installed GNU program's --help; and 3,000 generated sed scripts run under GNU
# sed, each that runs a program read as running one (the counts printed). About 25 s wall on
# 2 cores. Marked slow, so the README's test command leaves them to this step (and 30-slow.sh
# leaves them out). Sourced by .ci/run with $venv set.
if command -v bash >/dev/null && command -v git >/dev/null && sed --version 2>/dev/null | grep -q GNU; then
  SKILLGRANT_SED_SCRIPTS=3000 SKILLGRANT_SED_SEED=ci-sed-scripts \
    "$venv/bin/python" -m pytest -q -s -p no:cacheprovider -p no:xdist --slow \
    tests/gate/test_gate_holes.py || status=1
else
  echo "GATE HOLES NOT RUN: bash, git and GNU sed are needed"
fi
