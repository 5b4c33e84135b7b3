# The gate's own files against GNU bash (issue 29, reviews W1c, W2): 2,000 drawn commands that
# write folders (cp -r, mv, rm -r, tar -x, unzip, find -delete, sed -i, git checkout/stash/…,
# under wrappers), each the gate allows run under bash in a fresh copy of a project holding the
# printed hook; it prints the counts (generated, allowed and run, escapes) and fails on any
# escape (a guarded file changed). About 35 s wall on 2 cores. Then 1,000 drawn commands aimed
# at the readers rule (review s41 W2): programs in no list of gate/writers.py writing a guarded
# folder's file (.claude/hooks/x.sh) through moves, links, patterns, braces, expansions, in
# bash's shapes, judged under star plans and a tool-wide one; it prints the reader-only denial
# rate too. About 35 s wall more on 2 cores. Sourced by .ci/run with $venv set.
if command -v bash >/dev/null && command -v git >/dev/null && command -v zip >/dev/null; then
  SKILLGRANT_FILES_CORPUS=2000 SKILLGRANT_READERS_CORPUS=1000 SKILLGRANT_FILES_SEED=ci-gate-files \
    "$venv/bin/python" -m pytest -q -s -p no:cacheprovider -p no:xdist \
    tests/gate/test_gate_files_differential.py || status=1
else
  echo "GATE FILES DIFFERENTIAL NOT RUN: bash, git and zip are needed"
fi
