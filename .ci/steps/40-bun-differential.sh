# The Bun differential of the SKILL.md reader (tests/oracle): skillgrant's reading of
# allowed-tools against the runtime's own frontmatter steps run by the pinned Bun, on 50,000
# generated frontmatters (seed 27, one Bun process a batch of 10,000) and the 40 real skills,
# and on what apply writes. Sourced by .ci/run with $venv set. When Bun cannot be installed,
# say so in one plain line and keep the rest's result.
# The skill-args oracle (tests/oracle/test_skillargs_bun.py) also cuts the runtime's bash parser
# out of the pinned Claude Code binary: installed here too (a no-op when it is there).
if installed=$("$venv/bin/python" tests/oracle/bun_runtime.py install 2>&1 &&
               "$venv/bin/python" tests/conformance/cc_runtime.py install 2>&1); then
  echo "$installed"
  "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/oracle --bun --bun-cases 50000 \
    || status=1
else
  echo "BUN DIFFERENTIAL NOT RUN: $(echo "$installed" | tail -n 1)"
fi
