# Plans from evidence (issue 32): hostile evidence for `skillgrant suggest` (unknown and
# disguised programs, interpreters, flags before subcommands, wrappers, expansions, paths at the
# root and in homes, odd hosts), 200 draws of 40 calls, seed 32, at --generalize command and
# directory. Every observed call must be covered or listed, and no unobserved probe may be
# covered unless the reviewed table vouches for its first words (tests/evidence_hostile.py,
# judged by check_call). Prints its counts. About 30 s of CPU (4 minutes wall on 2 busy cores).
# Sourced by .ci/run with $venv set.
"$venv/bin/python" tests/evidence_hostile.py 200 32 || status=1
