# The tests marked slow (tests/conftest.py, --slow), which the README's test command leaves out:
# tests that install the package into a new environment of their own, as a user does
# (tests/test_installed.py, the README's GitHub Actions steps in tests/test_ci_snippets.py, the
# `pre-commit try-repo` snippet), and the reviews' cases under real bash and real programs. They
# share no state, so they run on both cores, module by module. Then every test marked
# `installation` (it uses the fixture `installed`: the README's and the docs' snippets, some on
# the README's fixed port) in one process, against the one fresh installation --slow makes.
# The gate holes (tests/gate/test_gate_holes.py) are slow too; 47-gate-holes.sh runs them.
# Of each parametrized test of a review's file (test_s<N>_*.py: about 3,000 of the step's 3,400
# proofs, each real bash and hook processes) a fixed, seeded sample of 2 cases runs (3 until session 57), and every
# case left open (a strict xfail) (--review-rows 2, tests/conftest.py): every test, every class of
# every review, still runs each CI; every case runs before an issue is resolved (the step without
# the option). The summary says how many ran.
# Sourced by .ci/run with $venv set; pytest prints how many ran, and the 25 slowest.
SKILLGRANT_EXAMPLES=full "$venv/bin/python" -m pytest -q -p no:cacheprovider --slow \
  -n 2 --dist loadfile -m "slow and not installation" --ignore=tests/gate/test_gate_holes.py --review-rows 2 \
  --durations=25 \
  || status=1
SKILLGRANT_EXAMPLES=full "$venv/bin/python" -m pytest -q -p no:cacheprovider --slow \
  -m installation --ignore=tests/gate/test_gate_holes.py || status=1
