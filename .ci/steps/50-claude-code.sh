# The runtime conformance suite against the pinned Claude Code; the per-domain pairs of
# tests/conformance/test_domain_probes.py run on a seeded sample of 10 a domain (--domain-pairs) (20 a domain took 10 min wall on 2 quiet cores, 3 December 2026: 87 tests;
# the whole step 17 min at 20 on 5 December, which made CI 39 min against its 35;
# the reader classes' 87 rows, test_reader_classes_e2e.py, add 168 sessions, 149 s wall at load 10 on 4 December;
# CI gives --reader-rows 4, 16 generated rows of the 32: 1 a class made 104 sessions) (the full counts,
# --domain-pairs 200, are in docs/runtime-conformance.md). Sourced by .ci/run with $venv
# set. The reviews' end-to-end files (tests/conformance/test_s<N>_*.py) run a seeded 2 cases of
# each parametrized test (--review-rows 2; 225 of 306 tests; without the option, all), and the
# end-to-end soundness test judges a seeded 80 of its 461 generated cases (--generated-cases;
# the 80 whose hash is least, a part of the 120 and the 230 CI judged before; all 461 took 377 s of the
# step's 14 min in local CI on 6 December 2026, 230 took 250 s idle; the step is CPU-bound:
# under -n 2 it used 1.94 cores and took longer, session 56). The 40 slowest
# tests are printed (where CI's time goes). When the runtime cannot be installed, say so in one
# plain line and keep the rest's result.
if installed=$("$venv/bin/python" tests/conformance/cc_runtime.py install 2>&1); then
  echo "$installed"
  "$venv/bin/python" -m pytest -q -p no:cacheprovider tests/conformance --conformance --review-rows 2 --generated-cases 80 \
    --domain-pairs 10 --reader-rows 4 \
    --durations=40 \
    || status=1
else
  echo "CONFORMANCE SUITE NOT RUN: $(echo "$installed" | tail -n 1)"
fi
