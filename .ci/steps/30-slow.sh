# The tests marked slow (tests/conftest.py, --slow): each installs the package into a new
# environment of its own, as a user does, so the README's test command leaves them out. Today:
# tests/test_installed.py (what skillgrant prints for a runtime, run from a fresh installation),
# the README's GitHub Actions steps (`pip install ./.skillgrant` into a fresh venv, then its
# `run:` lines; tests/test_ci_snippets.py) and its `pre-commit try-repo` snippet (pre-commit
# builds an environment for the hook; tests/test_docs_snippets.py). With them, every test
# marked `installation` (it uses the fixture `installed`: the README's and the docs' snippets)
# runs, against the fresh installation --slow makes; the README's test command skips them.
# The gate holes (tests/gate/test_gate_holes.py) are slow too; 47-gate-holes.sh runs them.
# Sourced by .ci/run with $venv set; pytest prints how many ran.
SKILLGRANT_EXAMPLES=full "$venv/bin/python" -m pytest -q -p no:cacheprovider --slow \
  -m "slow or installation" --ignore=tests/gate/test_gate_holes.py || status=1
