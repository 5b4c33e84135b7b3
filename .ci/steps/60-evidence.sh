# Plans from evidence (issue 32): 1,000 decisions written to one audit log by `skillgrant hook`
# processes, 8 at a time, with a fixed seed; the hash chain must hold (`skillgrant audit
# verify`) with one record per decision. Prints its counts. About 2.5 minutes on 2 idle cores
# (6 minutes measured on 2 busy ones). Sourced by .ci/run with $venv set.
"$venv/bin/python" tests/evidence_stress.py 1000 8 || status=1
