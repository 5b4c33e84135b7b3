# The call gate against GNU bash (issue 29): 20,000 generated commands from a fixed seed, each
# the gate allows run under bash with logging shims; it prints the counts (generated, allowed,
# run under bash, escapes) and fails on any escape. Sourced by .ci/run with $venv set.
if [ -x /usr/bin/bash ] && /usr/bin/bash --pretty-print /dev/null >/dev/null 2>&1; then
  SKILLGRANT_BASH_CORPUS=20000 SKILLGRANT_BASH_SEED=ci-bash \
    "$venv/bin/python" -m pytest -q -s -p no:cacheprovider -p no:xdist \
    tests/gate/test_bash_differential.py -k test_generated_corpus || status=1
else
  echo "BASH DIFFERENTIAL NOT RUN: GNU bash 5.2 (with --pretty-print) is not at /usr/bin/bash"
fi
