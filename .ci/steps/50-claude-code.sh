# The runtime conformance suite against the pinned Claude Code. Sourced by .ci/run with $venv
# set. When the runtime cannot be installed, say so in one plain line and keep the rest's result.
if installed=$("$venv/bin/python" tests/conformance/cc_runtime.py install 2>&1); then
  echo "$installed"
  "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/conformance --conformance || status=1
else
  echo "CONFORMANCE SUITE NOT RUN: $(echo "$installed" | tail -n 1)"
fi
